#include "cli/render/render_rules.hpp"

#include "cli/render/format.hpp"
#include "cli/render/json_text.hpp"

#include <mlsize/support/number_format.hpp>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace mlsize::cli {

using Json = nlohmann::ordered_json;  // keys in insertion order: deterministic, readable

std::string render_rules_json(const RuleSet& rules, const Provenance& provenance) {
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
  Json json = json_document({"rules list", provenance});
  json["rules"] = std::move(list);
  return json_text(json);
}

std::string render_rules_table(const RuleSet& rules, std::size_t width) {
  std::string text;
  for (const Rule& rule : rules.rules()) {
    std::string action(to_string(rule.action));
    if (rule.action == RuleAction::prefer || rule.action == RuleAction::penalize) {
      action += " ×" + format_general(rule.factor);
    }
    text += fmt::format("{}  [{}, {}]\n  when: {}\n  {}\n", rule.id, action, to_string(rule.severity), rule.when.text(),
                        rule.description);
    if (rule.action == RuleAction::require) text += fmt::format("  require: {}\n", rule.require.text());
    if (!rule.source.empty()) text += fmt::format("  source: {}\n", rule.source);
    text += "\n";
  }
  return wrap_prose(text, width) + fmt::format("{} rules.\n", rules.size());
}

}  // namespace mlsize::cli
