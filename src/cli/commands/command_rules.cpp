#include "cli/commands/command_rules.hpp"

#include "cli/io/input_file.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/support/utf8.hpp>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string list_rules(const RuleSet& rules, OutputFormat format) {
  if (format == OutputFormat::json) {
    Json list = Json::array();
    for (const Rule& rule : rules.rules()) {
      Json entry = {{"id", rule.id},
                    {"action", to_string(rule.action)},
                    {"severity", to_string(rule.severity)},
                    {"when", rule.when.text()},
                    {"description", rule.description},
                    {"source", rule.source}};
      if (rule.action == RuleAction::prefer || rule.action == RuleAction::penalize) entry["factor"] = rule.factor;
      if (rule.action == RuleAction::require) entry["require"] = rule.require.text();
      list.push_back(std::move(entry));
    }
    return Json{{"schema_version", 1}, {"rules", std::move(list)}}.dump(2) + "\n";
  }
  std::string text;
  for (const Rule& rule : rules.rules()) {
    std::string action(to_string(rule.action));
    if (rule.action == RuleAction::prefer || rule.action == RuleAction::penalize) {
      action += fmt::format(" ×{:g}", rule.factor);
    }
    text += fmt::format("{}  [{}, {}]\n  when: {}\n  {}\n", rule.id, action, to_string(rule.severity),
                        rule.when.text(), rule.description);
    if (rule.action == RuleAction::require) text += fmt::format("  require: {}\n", rule.require.text());
    if (!rule.source.empty()) text += fmt::format("  source: {}\n", rule.source);
    text += "\n";
  }
  return text + fmt::format("{} rules.\n", rules.size());
}

}  // namespace

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options) {
  CLI::App* command = app.add_subcommand("rules", "List the rules, or check rules files");
  command->require_subcommand(1);
  options.list = command->add_subcommand("list", "List the rules in force (defaults and --rules files)");
  add_rule_options(*options.list, options.rules);
  options.list->add_option("--format", options.format, format_help(k_report_formats));
  options.check = command->add_subcommand("check", "Check rules files; exit 1 with file:line:column on an error");
  options.check->add_option("files", options.check_files, "Rules YAML files")->required();
  return command;
}

CommandOutput run_rules(const RulesOptions& options) {
  CommandOutput output;
  if (options.list->parsed()) {
    const OutputFormat format = parse_format(options.format, k_report_formats);
    output.stdout_text = list_rules(build_rule_set(options.rules), format);
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
