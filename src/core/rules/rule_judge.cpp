#include <mlsize/rules/rule_judge.hpp>

#include <algorithm>

namespace mlsize {
namespace {

bool ranks(const Rule& rule) {
  switch (rule.action) {
    case RuleAction::exclude:
    case RuleAction::require:
    case RuleAction::prefer:
    case RuleAction::penalize: return true;
    case RuleAction::set:
    case RuleAction::advise: return false;
  }
  return false;
}

// Whether every field `rule` reads has an id below `known_below` (Expression::fields
// ascend).
bool reads_only_below(const Rule& rule, std::size_t known_below) {
  const auto below = [&](const Expression& e) { return e.fields().empty() || e.fields().back() < known_below; };
  return below(rule.when) && below(rule.require);
}

// What RuleSet::evaluate does with one rule's exclusion and factor, once its `when` holds.
void apply_holding(const Rule& rule, const FieldValues& values, Verdict& verdict) {
  switch (rule.action) {
    case RuleAction::exclude: verdict.excluded = true; break;
    case RuleAction::require: verdict.excluded = verdict.excluded || !rule.require.evaluate(values); break;
    case RuleAction::prefer: verdict.score *= rule.factor; break;
    case RuleAction::penalize: verdict.score /= rule.factor; break;
    case RuleAction::set:
    case RuleAction::advise: break;
  }
}
void apply(const Rule& rule, const FieldValues& values, Verdict& verdict) {
  if (rule.when.evaluate(values)) apply_holding(rule, values, verdict);
}

}  // namespace

RuleJudge::RuleJudge(const RuleSet& rules) {
  for (const Rule& rule : rules.rules()) {
    if (ranks(rule)) m_open.push_back(Open{&rule, {}, false});
  }
}

RuleJudge RuleJudge::narrowed(const FieldValues& values, std::size_t known_below) const {
  RuleJudge judge;
  judge.m_decided = m_decided;
  for (const Open& open : m_open) {
    const Rule& rule = *open.rule;
    if (reads_only_below(rule, known_below)) {
      apply(rule, values, judge.m_decided);
    } else if (!rule.when.refuted(values, known_below)) {
      // What is known of `when` is not evaluated again for every plan (issue 49: the
      // fine-tuning rule's workload and device terms, thousands of times).
      judge.m_open.push_back(Open{&rule, rule.when.unknown_terms(values, known_below), true});
    }
  }
  return judge;
}

bool RuleJudge::scales_only_by(std::span<const std::size_t> fields, std::size_t known_below) const {
  return std::all_of(m_open.begin(), m_open.end(), [&](const Open& open) {
    const Rule& rule = *open.rule;
    if (rule.action != RuleAction::prefer && rule.action != RuleAction::penalize) return false;
    return std::all_of(rule.when.fields().begin(), rule.when.fields().end(), [&](std::size_t field) {
      return field < known_below || std::find(fields.begin(), fields.end(), field) != fields.end();
    });
  });
}

Verdict RuleJudge::judge(const FieldValues& values) const {
  Verdict verdict = m_decided;
  for (const Open& open : m_open) {
    if (!open.narrowed) {
      apply(*open.rule, values, verdict);
    } else if (open.rule->when.holds_all(open.when, values)) {
      apply_holding(*open.rule, values, verdict);
    }
  }
  return verdict;
}

}  // namespace mlsize
