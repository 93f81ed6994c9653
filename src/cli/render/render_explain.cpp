// `mlsize explain`: which rules fired on which plans, and what they changed.

#include "cli/render/format.hpp"
#include "cli/render/json_text.hpp"
#include "cli/render/renderers.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

bool shown(const Offering* offering, const std::optional<std::string>& only) {
  return !only || (offering != nullptr && offering->id == *only);
}

std::string effect(const Rule& rule) {
  switch (rule.action) {
    case RuleAction::prefer: return "prefer ×" + format_general(rule.factor);
    case RuleAction::penalize: return "penalize ÷" + format_general(rule.factor);
    default: return std::string(to_string(rule.action));
  }
}

}  // namespace

std::string render_explain_table(const Report& report, const RuleSet& rules, const std::optional<std::string>& offering,
                                 int top, const TableStyle& style) {
  std::string text = fmt::format("{} rules in force (mlsize rules list shows them).\n\n", rules.size());
  for (const RuleMessage& note : report.advice) {
    if (note.rule->action == RuleAction::set) text += fmt::format("[{}] set: {}\n\n", note.rule->id, note.message);
  }
  int rank = 0;
  for (const RankedPlan& e : report.recommendations) {
    ++rank;
    if (!offering && rank > top) break;
    if (!shown(e.plan.offering, offering)) continue;
    text += fmt::format("#{} {}, {}: rule score {}\n", rank, describe_hardware(e.plan),
                        describe_strategy(e.plan.strategy, e.plan.device_count, report.workload.task),
                        format_general(e.rule_score));
    if (e.rule_notes.empty()) text += "  no rule fired\n";
    for (const RuleMessage& note : e.rule_notes) {
      text += fmt::format("  [{}] {}: {}\n", note.rule->id, effect(*note.rule), note.message);
    }
    text += "\n";
  }
  bool header = false;
  for (const Rejection& rejection : report.rejected) {
    if (rejection.reason != RejectionReason::rule || !shown(rejection.offering, offering)) continue;
    if (!header) text += "Excluded by rules:\n";
    header = true;
    text += fmt::format("  {}: [{}] {}\n", rejection.offering->id, rejection.rule.rule->id, rejection.rule.message);
  }
  if (offering) {
    const bool found = std::any_of(report.recommendations.begin(), report.recommendations.end(),
                                   [&](const PlanEstimate& e) { return shown(e.plan.offering, offering); }) ||
                       std::any_of(report.rejected.begin(), report.rejected.end(), [&](const Rejection& r) {
                         return r.reason == RejectionReason::rule && shown(r.offering, offering);
                       });
    if (!found) {
      for (const Rejection& rejection : report.rejected) {
        if (shown(rejection.offering, offering)) {
          text += fmt::format("{}: rejected ({}), before or without any rule: {}\n", *offering,
                              to_string(rejection.reason), describe_rejection(rejection, report.workload));
        }
      }
    }
  }
  return style.wide ? text : wrap_prose(text, style.width);
}

std::string render_explain_json(const Report& report, const RuleSet& rules, const std::optional<std::string>& offering,
                                int top, const Provenance& provenance) {
  Json json = json_document({"explain", provenance});
  Json in_force = Json::array();
  for (const Rule& rule : rules.rules()) in_force.push_back(rule.id);
  json["rules_in_force"] = std::move(in_force);
  Json plans = Json::array();
  int rank = 0;
  for (const RankedPlan& e : report.recommendations) {
    ++rank;
    if (!offering && rank > top) break;
    if (!shown(e.plan.offering, offering)) continue;
    Json fired = Json::array();
    for (const RuleMessage& note : e.rule_notes) {
      fired.push_back({{"rule", note.rule->id},
                       {"action", to_string(note.rule->action)},
                       {"factor", note.rule->factor},
                       {"message", note.message}});
    }
    plans.push_back({{"rank", rank},
                     {"offering", e.plan.offering->id},
                     {"device_count", e.plan.device_count},
                     {"rule_score", e.rule_score},
                     {"fired", std::move(fired)}});
  }
  json["recommendations"] = std::move(plans);
  Json excluded = Json::array();
  for (const Rejection& rejection : report.rejected) {
    if (rejection.reason != RejectionReason::rule || !shown(rejection.offering, offering)) continue;
    excluded.push_back(
        {{"offering", rejection.offering->id}, {"rule", rejection.rule.rule->id}, {"message", rejection.rule.message}});
  }
  json["excluded"] = std::move(excluded);
  return json_text_kept(std::move(json));
}

}  // namespace mlsize::cli
