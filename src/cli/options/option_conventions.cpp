#include "cli/options/option_conventions.hpp"

#include "cli/options/choice.hpp"
#include "core/support/text_lines.hpp"

#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

constexpr std::size_t k_help_width = 80;   // the default width of text (docs/cli.md#width)
constexpr std::size_t k_name_column = 30;  // where descriptions start

// The groups in the order help lists them; a group not named here follows, as first used.
constexpr std::array<std::string_view, 13> k_group_order{
    "Options",           k_group_model,   k_group_data,   k_group_training, k_group_serving,
    k_group_trees,       k_group_vision,  k_group_memory, k_group_plan,     k_group_hardware,
    k_group_constraints, k_group_sources, k_group_output};

// CLI11's layout, with groups in the order above, one blank line apart, and descriptions
// wrapped under their column instead of running on to 180 columns.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(k_name_column); }

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_description(app) + make_usage(app, std::move(name)) + make_positionals(app) + groups(app) +
           make_subcommands(app, mode) + "\n" + make_footer(app);
  }

  std::string make_option(const CLI::Option* option, bool is_positional) const override {
    return entry(make_option_name(option, is_positional) + make_option_opts(option), make_option_desc(option));
  }

  // Option groups are headings of their command's options (groups() lists them), not
  // commands.
  std::string make_subcommands(const CLI::App* app, CLI::AppFormatMode mode) const override {
    return commands_of(*app).empty() ? std::string() : CLI::Formatter::make_subcommands(app, mode);
  }

  std::string make_subcommand(const CLI::App* command) const override {
    return entry(command->get_display_name(true), command->get_description());
  }

 private:
  // "  NAME  description", the description wrapped under its column; below the name when
  // the name reaches the column.
  static std::string entry(const std::string& name, const std::string& description) {
    std::string out = "  " + name;
    if (description.empty()) return out + "\n";
    const std::size_t width = display_width(out);
    out += width >= k_name_column ? "\n" + std::string(k_name_column, ' ') : std::string(k_name_column - width, ' ');
    const std::vector<std::string> lines = text::wrap_words(description, k_help_width - k_name_column);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) out += '\n' + std::string(k_name_column, ' ');
      out += lines[i];
    }
    return out + "\n";
  }

  std::string groups(const CLI::App* app) const {
    std::vector<std::string> names(k_group_order.begin(), k_group_order.end());
    const std::vector<const CLI::Option*> every = all_options(*app);
    for (const CLI::Option* option : every) {
      const std::string& group = option->get_group();
      if (!group.empty() && std::find(names.begin(), names.end(), group) == names.end()) names.push_back(group);
    }
    std::string out;
    for (const std::string& group : names) {
      std::string entries;
      for (const CLI::Option* option : every) {
        if (option->get_group() == group && option->nonpositional()) entries += make_option(option, false);
      }
      if (!entries.empty()) out += "\n" + group + ":\n" + entries;
    }
    return out;
  }
};

bool is_option_group(const CLI::App* sub) {
  return sub->get_name().empty();
}

template <class Option, class App>
std::vector<Option*> options_of(App& command) {
  std::vector<Option*> options = command.get_options();
  for (App* group : command.get_subcommands([](const CLI::App* sub) { return is_option_group(sub); })) {
    const std::vector<Option*> more = group->get_options();
    options.insert(options.end(), more.begin(), more.end());
  }
  return options;
}

}  // namespace

CLI::App& option_group(CLI::App& command, std::string_view group) {
  const std::vector<CLI::App*> groups =
      command.get_subcommands([&](const CLI::App* sub) { return is_option_group(sub) && sub->get_group() == group; });
  if (!groups.empty()) return *groups.front();
  CLI::App& made = *command.add_option_group(std::string(group));
  made.set_help_flag();  // none where the command has none yet (add_help_flags)
  made.option_defaults()->group(std::string(group));
  return made;
}

void add_help_flags(CLI::App& app, const std::function<bool(std::string_view)>& full) {
  app.set_help_flag("-h,--help", "Print this help message and exit");
  for (CLI::App* command : app.get_subcommands([](const CLI::App* sub) { return !is_option_group(sub); })) {
    if (full(command->get_name())) add_help_flags(*command, [](std::string_view) { return true; });
  }
}

std::vector<const CLI::Option*> all_options(const CLI::App& command) {
  return options_of<const CLI::Option, const CLI::App>(command);
}

std::vector<CLI::Option*> all_options(CLI::App& command) {
  return options_of<CLI::Option, CLI::App>(command);
}

std::vector<const CLI::App*> commands_of(const CLI::App& command) {
  return command.get_subcommands([](const CLI::App* sub) { return !is_option_group(sub); });
}

std::shared_ptr<CLI::Formatter> help_formatter() {
  return std::make_shared<HelpFormatter>();
}

void make_last_wins(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    // A flag or one value; repeatable options (--catalog, --provider) gather them all.
    if (option->get_expected_max() <= 1) option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) make_last_wins(*command);
}

// GCC 12 at -O2 warns that copying the validator's std::function "may dereference null"
// (-Wnull-dereference, inlined from libstdc++'s std_function.h): a false positive, the
// function is set on construction.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
void make_ids_case_insensitive(CLI::App& app) {
  // A validator that rewrites the value in place, named so that help does not show it.
  const CLI::Validator lowered(
      [](std::string& text) {
        text = lower_case(text);
        return std::string();
      },
      "", "lower case");
  for (CLI::Option* option : app.get_options()) {
    const std::string& kind = option->get_type_name();
    if (kind == "ID" || kind == "PROVIDER" || kind == "NAME") option->transform(lowered);
  }
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    make_ids_case_insensitive(*command);
  }
}
#pragma GCC diagnostic pop

std::string examples(std::initializer_list<std::string_view> command_lines) {
  std::string footer = "Examples:";
  // Each within the help's width, broken as the shell reads it back: " \" at a break,
  // the rest indented under the command; a flag keeps its value on its line.
  for (std::string_view line : command_lines) {
    std::string joined(line);
    for (std::size_t at = joined.find(" -"); at != std::string::npos; at = joined.find(" -", at + 1)) {
      const std::size_t value = joined.find(' ', at + 1);
      if (value != std::string::npos && value + 1 < joined.size() && joined[value + 1] != '-') {
        joined[value] = '\x1f';  // not a break
      }
    }
    std::vector<std::string> parts = text::wrap_words(joined, k_help_width - 6 - 2);
    for (std::string& part : parts) std::replace(part.begin(), part.end(), '\x1f', ' ');
    for (std::size_t i = 0; i < parts.size(); ++i) {
      footer += (i == 0 ? "\n  " : " \\\n      ") + parts[i];
    }
  }
  return footer;
}

bool is_checker(const CLI::App& command) {
  const CLI::App* parent = command.get_parent();
  if (parent == nullptr) return false;
  return (parent->get_name() == "catalog" && command.get_name() == "validate") ||
         (parent->get_name() == "rules" && command.get_name() == "check");
}

void add_output_file_options(CLI::App& command, std::optional<std::string>& path, bool& force) {
  command
      .add_option("-o,--output", path,
                  "Write the report to FILE instead of stdout (a file atomically, all of it or nothing; a device or "
                  "FIFO in place, never replaced); - is stdout")
      ->type_name("FILE");
  command.add_flag("--force", force, "With --output: replace a read-only file");
}

void add_output_conventions(CLI::App& app, OutputConventions& conventions,
                            const std::function<bool(std::string_view)>& with_options) {
  const auto visit = [&](const auto& self, CLI::App& command) -> void {
    const std::vector<CLI::App*> subcommands =
        command.get_subcommands([](const CLI::App* sub) { return !is_option_group(sub); });
    for (CLI::App* sub : subcommands) self(self, *sub);
    if (!subcommands.empty()) return;
    CLI::App& output = option_group(command, k_group_output);
    if (command.get_option_no_throw("--output") == nullptr && !is_checker(command)) {
      add_output_file_options(output, conventions.output_path, conventions.force);
    }
    output.add_flag("-q,--quiet", conventions.quiet,
                    is_checker(command) ? "Print nothing; the exit status says whether the files are valid"
                                        : "No notes on stderr when the run succeeds; errors still print");
    output.add_flag("--no-pager", conventions.no_pager, "Never page the report, even on a terminal");
  };
  for (CLI::App* command : app.get_subcommands([](const CLI::App* sub) { return !is_option_group(sub); })) {
    if (with_options(command->get_name())) visit(visit, *command);
  }
}

}  // namespace mlsize::cli
