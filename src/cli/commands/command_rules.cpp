#include "cli/commands/command_rules.hpp"

#include "cli/commands/report_formats.hpp"
#include "cli/io/input_file.hpp"
#include "cli/io/output_width.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/render_rules.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/support/utf8.hpp>

#include <fmt/format.h>

namespace mlsize::cli {

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("rules", "List the rules, or check rules files");
  if (!with_options) return command;
  command->require_subcommand(1);
  options.list = command->add_subcommand("list", "List the rules in force (defaults and --rules files)");
  add_rule_options(*options.list, options.rules);
  option_group(*options.list, k_group_output)
      .add_option("--format", options.format, format_help(k_report_formats))
      ->type_name("FORMAT");
  options.check = command->add_subcommand("check", "Check rules files; exit 1 with file:line:column on an error");
  options.check->add_option("files", options.check_files, "Rules YAML files")->type_name("FILE")->required();
  command->footer(examples({"mlsize rules list", "mlsize rules list --rules team-policy.yaml --format json",
                            "mlsize rules check team-policy.yaml"}));
  return command;
}

CommandOutput run_rules(const RulesOptions& options) {
  CommandOutput output;
  if (options.list->parsed()) {
    const OutputFormat format = parse_format(options.format, k_report_formats);
    const RuleSet rules = build_rule_set(options.rules);
    if (format == OutputFormat::table) {
      output.stdout_text = render_rules_table(rules, output_width(k_default_width));
    } else {
      output.stdout_text =
          format_document(render_rules_json(rules, provenance_of_rules(options.rules.rule_files)), format,
                          [](const nlohmann::ordered_json& document) { return rows_of(document["rules"]); });
    }
    return output;
  }
  for (const std::string& path : options.check_files) {
    RuleSet rules;  // each file on its own: a check of that file, not of the defaults
    rules.load_yaml(read_input_file(path, k_max_rules_file_bytes), path);
    output.stdout_text +=
        fmt::format("ok: {} ({} rule{})\n", escape_unprintable(path), rules.size(), rules.size() == 1 ? "" : "s");
  }
  return output;
}

}  // namespace mlsize::cli
