#pragma once
// How recommendations are ordered: the objectives, their tie-breaks, the near-ties that go
// to the other axis, and the time-cost Pareto front (docs/methodology.md#objectives).

#include <mlsize/rank/ranker.hpp>
#include <mlsize/rank/report.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace mlsize::ordering {

// Costs and times equal up to rounding count as ties (cost hardly depends on device count
// when time scales linearly with it).
inline constexpr double k_relative_tolerance = 1e-9;

// -1, 0 or 1; values equal up to rounding (k_relative_tolerance of the larger) compare
// equal. Inline: the planner compares every plan it keeps.
inline int compare_values(double a, double b) {
  const double tolerance = k_relative_tolerance * std::max(std::abs(a), std::abs(b));
  if (a < b - tolerance) return -1;
  if (a > b + tolerance) return 1;
  return 0;
}

// The corners of the feasible plans' time-cost front: the cheapest and the fastest plan.
// Costs under $1 count as $1 so that free tiers do not divide by zero.
struct Minima {
  double cost = 0;             // of the cheapest plan
  double seconds = 0;          // of the fastest plan
  double cost_of_fastest = 0;  // the front's other end on each axis
  double seconds_of_cheapest = 0;
};

// What the ranking reads as a plan's cost: the run's (a reservation's share of its term;
// the commitment is a tie-break and the budget's, docs/methodology.md#reserved).
double ranked_cost(const PlanEstimate& e);

// A plan's cost as the balanced score reads it: ranked_cost, at least $1.
double dollars(const PlanEstimate& e);

// Negative when `a` ranks before `b` under `objective`, strictly (without near-ties).
int compare_plans(const RankedPlan& a, const RankedPlan& b, Objective objective, const Minima& minima);

// Reorders `plans`, sorted by compare_plans, so that each run of plans whose objective is
// within k_near_tie of the run's first is ordered by the tie-break (before_in_tie). By
// pointer: a million ranked records are not moved about while they are ordered.
void order_near_ties(std::vector<const RankedPlan*>& plans, Objective objective, const Minima& minima);

// Marks each plan whose objective is within k_near_tie of the next's, either way: the
// tie-break, not the objective, put it first (RankedPlan::tie_with_next). None under
// balanced, which has no near-ties.
void mark_ties(std::vector<RankedPlan>& plans, Objective objective);

// What sorting `plans` and ordering its near-ties would put first, in one pass and
// without copies. `plans` must not be empty.
const RankedPlan& first_of(const std::vector<RankedPlan>& plans, Objective objective, const Minima& minima);

// The plans of one offering that first_of could still choose, offered one at a time in
// plan order, so that an offering's thousands of plans need not all be kept. Under cost
// and time: those whose objective is within k_near_tie of the best offered so far (with a
// margin for rounding), in the order offered; under balanced, whose score needs the minima
// of every offering's plans: all. first_of over what is kept chooses what it chooses over
// every plan offered (the leader and its near-ties are never dropped).
class Contenders {
 public:
  explicit Contenders(Objective objective);
  void offer(const RankedPlan& plan);
  std::vector<RankedPlan>& plans() { return m_plans; }

 private:
  bool beyond(double value) const;

  Objective m_objective;
  double m_best;  // the lowest objective offered so far
  std::vector<RankedPlan> m_plans;
};

// Flags the recommendations that no other one dominates in (time, cost).
void mark_pareto_front(std::vector<RankedPlan>& plans);

}  // namespace mlsize::ordering
