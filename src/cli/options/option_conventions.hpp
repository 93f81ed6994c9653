#pragma once
// The conventions every command's options follow: --help with options in named groups
// and value names (BYTES, DURATION, USD), descriptions wrapped to 80 columns, examples
// at the end; the Unix habit that a repeated single-value flag takes its last value; and
// ids read in any case.

#include <CLI/CLI.hpp>

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {

// The groups of options, in the order --help lists them (the order they are first used).
// A command adds its options to one through option_group(command, k_group_...).
inline constexpr const char* k_group_model = "Model and task";
inline constexpr const char* k_group_data = "Data";
inline constexpr const char* k_group_training = "Training";
inline constexpr const char* k_group_serving = "Inference and serving";
inline constexpr const char* k_group_trees = "Gradient-boosted trees (--task gbdt)";
inline constexpr const char* k_group_vision = "Image and speech models (--model resnet-50, sdxl, whisper-small, ...)";
inline constexpr const char* k_group_memory = "Memory";
inline constexpr const char* k_group_plan = "Plan";
inline constexpr const char* k_group_hardware = "Hardware";
inline constexpr const char* k_group_constraints = "Constraints and cost";
inline constexpr const char* k_group_sources = "Catalogue and rules";
inline constexpr const char* k_group_output = "Output";

// The options of `command` under the help heading `group`: a CLI11 option group of that
// name, made on first use. CLI11 checks a new option's names against every option of its
// app, copying each name (CLI::App::add_option, Option::matching_name), so the 150 options
// of `recommend` cost 3.3 M instructions to register in one app, 35% of `estimate`; in
// groups each check stays within its heading (issue 49). The group has no --help of its
// own. A name is not checked against other groups' names: tests/cli_unit/test_help.cpp
// checks every command's names are unique.
CLI::App& option_group(CLI::App& command, std::string_view group);

// Gives `app` and each of its commands for which `full(name)` is true, and theirs at any
// depth, -h,--help; a command built by name only (run_command) is never parsed and needs
// none. CLI11 copies a parent's help flag into each command and option group it makes, and
// a group must then drop it: commands are built without one and get it here, once their
// groups are made (issue 49: making and dropping them was 0.2 M of `estimate`'s
// instructions).
void add_help_flags(CLI::App& app, const std::function<bool(std::string_view)>& full);

// Every option of `command`, those of its option groups included: the command's own first,
// then each group's, in the order added.
std::vector<const CLI::Option*> all_options(const CLI::App& command);
std::vector<CLI::Option*> all_options(CLI::App& command);
// The commands under `command` (`catalog list`, ...), not its option groups.
std::vector<const CLI::App*> commands_of(const CLI::App& command);

// CLI11's layout with descriptions wrapped under their column. Set on the application
// before its commands are added: they inherit it.
std::shared_ptr<CLI::Formatter> help_formatter();

// Every single-value option and flag of `app` and of its commands, at any depth, takes
// the last of its values when repeated (`--top 1 --top 3` is 3). Call once all are added.
void make_last_wins(CLI::App& app);

// Every option of `app` and its commands whose value is a catalogue id, a provider or a
// model name (value names ID, PROVIDER, NAME) reads it in any case: ids are lower case
// (is_valid_id), so `--offering AWS-P5.48XLARGE` is aws-p5.48xlarge.
void make_ids_case_insensitive(CLI::App& app);

// -o/--output FILE and --force on `command`, written as every report's --output is
// (io/output_file.hpp).
void add_output_file_options(CLI::App& command, std::optional<std::string>& path, bool& force);

// The output flags every command takes (issue 51; docs/cli.md#general-options), as CI
// users expect of a command-line tool:
// - -q/--quiet: no notes on stderr when the run succeeds (errors, and why nothing fits,
//   still print); a checker (catalog validate, rules check) prints nothing, its exit
//   status says it.
// - --no-pager: listed here for --help; run() takes it off the command line before the
//   parse, wherever it is.
// - -o/--output FILE and --force on the commands that print a report and have no
//   --output of their own (catalog list/show/export, rules list, detect, completion).
struct OutputConventions {
  std::optional<std::string> output_path;
  bool force = false;
  bool quiet = false;
  bool no_pager = false;
};
// Only on the commands `with_options` names (run() gives the others no options at all).
void add_output_conventions(CLI::App& app, OutputConventions& conventions,
                            const std::function<bool(std::string_view)>& with_options);

// The checkers: their stdout is a verdict ("ok: FILE"), not a report.
bool is_checker(const CLI::App& command);

// A command's help footer: "Examples:" and the command lines, one per line.
std::string examples(std::initializer_list<std::string_view> command_lines);

}  // namespace mlsize::cli
