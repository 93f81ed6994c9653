#pragma once
// `mlsize rules list` and `mlsize rules check FILE...`.

#include "cli/commands/command.hpp"
#include "cli/options/rule_options.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

struct RulesOptions {
  RuleOptions rules;
  std::vector<std::string> check_files;
  std::optional<std::string> format;
  CLI::App* list = nullptr;
  CLI::App* check = nullptr;
};

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options, bool with_options = true);  // see commands.hpp
CommandOutput run_rules(const RulesOptions& options);

}  // namespace mlsize::cli
