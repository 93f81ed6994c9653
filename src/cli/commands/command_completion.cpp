#include "cli/commands/command_completion.hpp"

#include "cli/options/catalog_options.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/render_completion.hpp"

#include <mlsize/model/model_config.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/names.hpp>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize::cli {
namespace {

enum class Shell { bash, zsh, fish };
constexpr auto enum_names(Shell) {
  using enum Shell;
  return std::to_array<EnumName<Shell>>({{bash, "bash"}, {zsh, "zsh"}, {fish, "fish"}});
}

// What `--ids` lists.
enum class IdKind { offerings, devices, models, providers };
constexpr auto enum_names(IdKind) {
  using enum IdKind;
  return std::to_array<EnumName<IdKind>>(
      {{offerings, "offerings"}, {devices, "devices"}, {models, "models"}, {providers, "providers"}});
}

// The flags (and positional arguments, by their name) whose values are ids or paths;
// every other value completes to the names its help lists (choice_help), if any.
struct ValueSource {
  std::string_view name;
  std::vector<std::string> id_kinds;
  bool file = false;
};

const std::vector<ValueSource>& value_sources() {
  static const std::vector<ValueSource> sources{
      {"--offering", {"offerings"}},
      {"--owned", {"offerings"}},
      {"--device", {"devices"}},
      {"--gpus", {"devices"}},
      {"--model", {"models"}},
      {"--provider", {"providers"}},
      {"--exclude-provider", {"providers"}},
      {"id", {"devices", "offerings"}},  // catalog show ID
      {"--catalog", {}, true},
      {"--rules", {}, true},
      {"--model-config", {}, true},
      {"--output", {}, true},
      {"--from", {}, true},  // a directory: completed as paths
      {"files", {}, true},   // catalog validate, rules check
  };
  return sources;
}

CompletionValue value_of(const CLI::Option& option, std::string_view name) {
  CompletionValue value;
  value.takes_value = option.get_expected_max() != 0;  // a flag expects no value
  if (!value.takes_value) return value;
  value.list = option.get_delimiter() != '\0';
  for (const ValueSource& source : value_sources()) {
    if (source.name != name) continue;
    value.id_kinds = source.id_kinds;
    value.file = source.file;
    return value;
  }
  value.choices = choices_in_help(option.get_description());
  return value;
}

// Adds `app` (named by `path`) and then its subcommands, depth first.
void describe(const CLI::App& app, const std::string& path, CompletionTree& tree) {
  CompletionCommand command;
  command.path = path;
  command.description = app.get_description();
  const std::vector<const CLI::App*> subcommands = commands_of(app);
  for (const CLI::App* sub : subcommands) {
    command.subcommands.push_back(sub->get_name());
    command.subcommand_descriptions.push_back(sub->get_description());
  }
  for (const CLI::Option* option : all_options(app)) {
    if (option->get_lnames().empty() && option->get_snames().empty()) {
      command.positional = value_of(*option, option->get_name());
      continue;
    }
    CompletionFlag flag;
    for (const std::string& name : option->get_snames()) flag.names.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) flag.names.push_back("--" + name);
    flag.description = option->get_description();
    flag.value = value_of(*option, flag.names.back());
    command.flags.push_back(std::move(flag));
  }
  tree.push_back(std::move(command));
  for (const CLI::App* sub : subcommands) {
    describe(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), tree);
  }
}

std::string lines(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += word + "\n";
  return text;
}

// The ids of one kind, one a line: the embedded catalogue with the user's overlays
// (catalog.d, MLSIZE_CATALOG), as the commands load it without --catalog.
std::string list_ids(IdKind kind) {
  if (kind == IdKind::models) return lines(built_in_model_names());
  const Catalog catalog = build_catalog({}, true);
  if (kind == IdKind::devices) return lines(catalog.device_names());
  std::vector<std::string> ids;
  for (const Offering& offering : catalog.offerings()) {
    const std::string& id = kind == IdKind::offerings ? offering.id : offering.provider;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  if (kind == IdKind::providers) std::sort(ids.begin(), ids.end());
  return lines(ids);
}

}  // namespace

CLI::App* add_completion_command(CLI::App& app, CompletionOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  if (!with_options) return command;
  command->add_option("shell", options.shell, "The shell: " + choice_help(names<Shell>()))->type_name("SHELL");
  CLI::App* in = &option_group(*command, k_group_output);
  in->add_option("--ids", options.ids,
                 "Instead, list the ids the scripts complete, one a line: " + choice_help(names<IdKind>()))
      ->type_name("KIND");
  command->footer(examples({"source <(mlsize completion bash)", "mlsize completion zsh > ~/.zfunc/_mlsize",
                            "mlsize completion --ids offerings"}));
  return command;
}

CommandOutput run_completion(const CompletionOptions& options, const CLI::App& app) {
  CommandOutput output;
  if (options.ids) {
    if (options.shell) {
      throw Error(ErrorKind::usage, "completion takes a shell or --ids, not both", "mlsize completion --help");
    }
    output.stdout_text = list_ids(parse_choice<IdKind>("--ids", *options.ids));
    return output;
  }
  if (!options.shell) {
    throw Error(ErrorKind::usage, "completion needs a shell: " + choice_help(names<Shell>()),
                "e.g. source <(mlsize completion bash)");
  }
  const Shell shell = parse_choice<Shell>("completion", *options.shell);
  CompletionTree tree;
  describe(app, "", tree);
  switch (shell) {
    case Shell::bash: output.stdout_text = render_bash_completion(tree); break;
    case Shell::zsh: output.stdout_text = render_zsh_completion(tree); break;
    case Shell::fish: output.stdout_text = render_fish_completion(tree); break;
  }
  return output;
}

}  // namespace mlsize::cli
