#pragma once
// `mlsize detect`: this machine's GPUs, CPU and RAM, as the catalogue knows them.

#include "cli/commands/command.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

struct DetectOptions {
  std::optional<std::string> from;  // --from DIR: a recorded machine
  std::vector<std::string> catalog_files;
  bool no_user_catalog = false;
  std::optional<std::string> format;
};

CLI::App* add_detect_command(CLI::App& app, DetectOptions& options, bool with_options = true);  // see commands.hpp
CommandOutput run_detect(const DetectOptions& options);

}  // namespace mlsize::cli
