#include <mlsize/rules/rules.hpp>

#include <mlsize/rules/rule_fields.hpp>

#include <algorithm>
#include <array>

namespace mlsize {

void RuleOutcome::clear() {
  exclusions.clear();
  score = 1.0;
  scored.clear();
  advice.clear();
}

void RuleSet::put(Rule rule) {
  for (Rule& existing : m_rules) {
    if (existing.id == rule.id) {
      existing = std::move(rule);
      return;
    }
  }
  m_rules.push_back(std::move(rule));
}

const Rule* RuleSet::find(std::string_view id) const {
  for (const Rule& rule : m_rules) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

RuleOutcome RuleSet::evaluate(const FieldValues& values) const {
  RuleOutcome outcome;
  evaluate(values, outcome);
  return outcome;
}

void RuleSet::evaluate(const FieldValues& values, RuleOutcome& outcome) const {
  outcome.clear();
  const auto message = [&](const Rule& rule) { return rule.message.render(values); };
  for (const Rule& rule : m_rules) {
    if (rule.action == RuleAction::set || !rule.when.evaluate(values)) continue;
    switch (rule.action) {
      case RuleAction::exclude: outcome.exclusions.push_back({&rule, message(rule), std::nullopt}); break;
      case RuleAction::require:
        if (!rule.require.evaluate(values)) outcome.exclusions.push_back({&rule, message(rule), std::nullopt});
        break;
      case RuleAction::prefer:
        outcome.score *= rule.factor;
        outcome.scored.push_back({&rule, message(rule), std::nullopt});
        break;
      case RuleAction::penalize:
        outcome.score /= rule.factor;
        outcome.scored.push_back({&rule, message(rule), std::nullopt});
        break;
      case RuleAction::advise: outcome.advice.push_back({&rule, message(rule), std::nullopt}); break;
      case RuleAction::set: break;
    }
  }
}

RuleSettings RuleSet::settings(const FieldValues& workload_values) const {
  RuleSettings settings;
  for (const Rule& rule : m_rules) {
    if (rule.action != RuleAction::set || !rule.when.evaluate(workload_values)) continue;
    if (rule.set_recompute) {
      settings.recompute = rule.set_recompute;
      settings.recompute_rule = &rule;
    }
  }
  return settings;
}

std::vector<const Rule*> RuleSet::matching(const FieldValues& values) const {
  std::vector<const Rule*> result;
  for (const Rule& rule : m_rules) {
    if (rule.when.evaluate(values)) result.push_back(&rule);
  }
  return result;
}

bool reads_plan(const Rule& rule) {
  const auto of_a_plan = [](std::size_t id) { return id >= k_first_device_field; };
  const std::vector<std::size_t> placeholders = rule.message.fields();
  return std::any_of(rule.when.fields().begin(), rule.when.fields().end(), of_a_plan) ||
         std::any_of(placeholders.begin(), placeholders.end(), of_a_plan);
}

}  // namespace mlsize
