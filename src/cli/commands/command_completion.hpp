#pragma once
// `mlsize completion bash|zsh|fish`: a completion script for the shell, written from the
// command line's own definition; `mlsize completion --ids KIND`: the ids the scripts
// complete (offerings, devices, models, providers), one a line, with the user's overlays.

#include "cli/commands/command.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace mlsize::cli {

struct CompletionOptions {
  std::optional<std::string> shell;
  std::optional<std::string> ids;
};

CLI::App* add_completion_command(CLI::App& app, CompletionOptions& options, bool with_options = true);
// `app` is mlsize's whole command line, every command with its options.
CommandOutput run_completion(const CompletionOptions& options, const CLI::App& app);

}  // namespace mlsize::cli
