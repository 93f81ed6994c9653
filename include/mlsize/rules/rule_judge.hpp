#pragma once
// The rules as a ranking applies them to thousands of plans: only those that can drop a
// plan or change its score, each decided as soon as the fields it reads are known
// (docs/rules.md#evaluation).

#include <mlsize/expr/field_set.hpp>
#include <mlsize/rules/rules.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace mlsize {

// What the ranking rules decide for one plan: RuleOutcome's excluded() and score, without
// messages.
struct Verdict {
  bool excluded = false;
  double score = 1.0;
};

class RuleJudge {
 public:
  // The exclude, require, prefer and penalize rules of `rules`, none decided yet (advise
  // rules do not rank plans: their messages are rendered for the shown plans only; `set`
  // rules decide before planning). `rules` must outlive the judge.
  explicit RuleJudge(const RuleSet& rules);

  // The judge once the fields with ids below `known_below` hold `values`: a rule that
  // reads only those fields is decided (its exclusion or factor holds for every plan to
  // come), a rule one of whose `and` terms those fields make false is dropped
  // (Expression::refuted), the others stay open.
  RuleJudge narrowed(const FieldValues& values, std::size_t known_below) const;

  // Whether a rule is still open: judging a plan then needs its own fields.
  bool open() const { return !m_open.empty(); }
  // The verdict of the rules decided so far: that of every plan when none is open.
  const Verdict& decided() const { return m_decided; }
  // Whether every open rule only scales the score (prefer, penalize: it drops no plan) and
  // reads, of the fields from `known_below` on, only those in `fields`: plans that share
  // those fields then share a verdict.
  bool scales_only_by(std::span<const std::size_t> fields, std::size_t known_below) const;
  // The verdict on a plan whose fields are all in `values`.
  Verdict judge(const FieldValues& values) const;

 private:
  RuleJudge() = default;

  // A rule still open, with the terms of its `when` left to evaluate for each plan
  // (Expression::unknown_terms; all of them before the first narrowing).
  struct Open {
    const Rule* rule = nullptr;
    Expression::Terms when;
    bool narrowed = false;
  };
  Verdict m_decided;
  std::vector<Open> m_open;  // in rule order
};

}  // namespace mlsize
