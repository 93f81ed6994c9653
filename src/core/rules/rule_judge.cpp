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

// What RuleSet::evaluate does with one rule's exclusion and factor.
void apply(const Rule& rule, const FieldValues& values, Verdict& verdict) {
  if (!rule.when.evaluate(values)) return;
  switch (rule.action) {
    case RuleAction::exclude: verdict.excluded = true; break;
    case RuleAction::require: verdict.excluded = verdict.excluded || !rule.require.evaluate(values); break;
    case RuleAction::prefer: verdict.score *= rule.factor; break;
    case RuleAction::penalize: verdict.score /= rule.factor; break;
    case RuleAction::set:
    case RuleAction::advise: break;
  }
}

}  // namespace

RuleJudge::RuleJudge(const RuleSet& rules) {
  for (const Rule& rule : rules.rules()) {
    if (ranks(rule)) m_open.push_back(&rule);
  }
}

RuleJudge RuleJudge::narrowed(const FieldValues& values, std::size_t known_below) const {
  RuleJudge judge;
  judge.m_decided = m_decided;
  for (const Rule* rule : m_open) {
    if (reads_only_below(*rule, known_below)) {
      apply(*rule, values, judge.m_decided);
    } else if (!rule->when.refuted(values, known_below)) {
      judge.m_open.push_back(rule);
    }
  }
  return judge;
}

Verdict RuleJudge::judge(const FieldValues& values) const {
  Verdict verdict = m_decided;
  for (const Rule* rule : m_open) apply(*rule, values, verdict);
  return verdict;
}

}  // namespace mlsize
