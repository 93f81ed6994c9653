#pragma once
// A team's defaults for recommend, estimate and explain: a YAML config file and MLSIZE_*
// environment variables, under the flags given. Precedence, per flag: the command line,
// then the environment, then the file, then mlsize's own default (docs/cli.md#defaults).
// They are turned into the command's own flags, so that one parser checks them all.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlsize::cli {

// Where the defaults may come from, read by the caller (main reads the real ones).
struct DefaultSources {
  std::optional<std::string> config_path;                        // the config file found, if any
  std::string config_text;                                       // its contents
  std::vector<std::pair<std::string, std::string>> environment;  // MLSIZE_* variables, name and value
};

// One flag a default set: "--pricing", "spot", and where it came from ("MLSIZE_PRICING",
// or the config file's path and line).
struct AppliedDefault {
  std::string flag;
  std::string value;  // empty for a flag without a value (--wide: true)
  std::string origin;
};

// The defaults for `command` (a CLI11 command with its options added, named `name`),
// leaving out every flag among `given` (the user's arguments). Throws a usage Error at
// file:line:column for an unknown key or a value of the wrong shape, with the nearest flag.
std::vector<AppliedDefault> team_defaults(const CLI::App& command, const std::string& name,
                                          const std::vector<std::string>& given, const DefaultSources& sources);

// The arguments that set `defaults`, to put before the user's.
std::vector<std::string> default_arguments(const std::vector<AppliedDefault>& defaults);

// The config file: $MLSIZE_CONFIG, else $XDG_CONFIG_HOME/mlsize/config.yaml (or
// ~/.config/...) when it exists, read; and the MLSIZE_* variables but MLSIZE_CONFIG and
// MLSIZE_CATALOG (which has its own meaning, catalog_options.hpp). Reads the process
// environment and files: for main, not for the core.
DefaultSources read_default_sources();

}  // namespace mlsize::cli
