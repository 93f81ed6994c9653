#pragma once
// The rules flags (--rules, --no-default-rules) and building the RuleSet from them.

#include <mlsize/rules/rules.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

struct RuleOptions {
  std::vector<std::string> rule_files;  // --rules, in order
  bool no_default_rules = false;
};

void add_rule_options(CLI::App& command, RuleOptions& options);

// The embedded default rules (unless --no-default-rules) with each --rules file laid
// over them in order; a rule whose id exists replaces it.
RuleSet build_rule_set(const RuleOptions& options);

}  // namespace mlsize::cli
