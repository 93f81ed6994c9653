#include "core/rank/ordering.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <tuple>

namespace mlsize::ordering {

// k_near_tie (ranker.hpp): costs within 2% of each other are as good as equal to whoever
// pays (a day's price swing, a discount, the billing step), and so are times within 2%.
// Among cost ties the plan a practitioner can get and run most easily wins (before_in_tie):
// since compute costs about the same on more devices, "fastest within 2%" would always be
// the largest cluster. The offering's fastest plan is shown beside (RankedPlan::fastest).

double ranked_cost(const PlanEstimate& e) {
  return e.cost ? e.cost->value : 0.0;
}

double dollars(const PlanEstimate& e) {
  return std::max(1.0, ranked_cost(e));
}

namespace {

// Balanced: the distance from the ideal (cheapest cost, fastest time) on log axes, each
// axis scaled by the front's span, so that neither a 300x range of times nor a 3x range
// of costs decides alone. The plan nearest the ideal is the front's knee (compromise
// programming, Zeleny 1973); an axis without a span counts for nothing.
double balanced_score(const PlanEstimate& e, const Minima& m) {
  const auto axis = [](double value, double best, double worst) {
    const double span = std::log(worst / best);
    return span > 0 ? std::log(value / best) / span : 0.0;
  };
  return std::hypot(axis(dollars(e), m.cost, m.cost_of_fastest), axis(e.time.value, m.seconds, m.seconds_of_cheapest));
}

}  // namespace

// Negative when `a` ranks before `b`: the objective first; then fewer devices (equal cost
// means equal device-hours under the linear time model, and fewer devices are easier to get
// and lose less to scaling that the model ignores); then the other of cost and time;
// then lower ZeRO stage, no recomputation, and the id for a stable order.
int compare_plans(const RankedPlan& a, const RankedPlan& b, Objective objective, const Minima& minima) {
  const double cost_a = ranked_cost(a);
  const double cost_b = ranked_cost(b);
  // Rules scale the objective: a preferred plan (score 2) counts at half its cost or time.
  const double score_a = a.rule_score;
  const double score_b = b.rule_score;
  int primary = 0;
  int secondary = 0;
  switch (objective) {
    case Objective::cost:
      primary = compare_values(cost_a / score_a, cost_b / score_b);
      secondary = compare_values(a.time.value, b.time.value);
      break;
    case Objective::time:
      primary = compare_values(a.time.value / score_a, b.time.value / score_b);
      secondary = compare_values(cost_a, cost_b);
      break;
    case Objective::balanced:
      primary = compare_values(balanced_score(a, minima) / score_a, balanced_score(b, minima) / score_b);
      secondary = compare_values(cost_a, cost_b);
      break;
  }
  if (primary != 0) return primary;
  if (a.plan.device_count != b.plan.device_count) return a.plan.device_count < b.plan.device_count ? -1 : 1;
  if (secondary != 0) return secondary;
  const auto strategy = [](const PlanEstimate& e) {
    // Between equal plans, the one that keeps its states on the devices: no host to size.
    return std::make_tuple(static_cast<int>(e.plan.strategy.offload), e.plan.strategy.zero_stage,
                           static_cast<int>(e.plan.strategy.recompute));
  };
  if (strategy(a) != strategy(b)) return strategy(a) < strategy(b) ? -1 : 1;
  const std::string& id_a = a.plan.offering ? a.plan.offering->id : a.plan.device->id;
  const std::string& id_b = b.plan.offering ? b.plan.offering->id : b.plan.device->id;
  return id_a.compare(id_b);
}

namespace {

// The value the objective ranks by, before tie-breaking: cost or time over the rule score
// (balanced has no near-ties: its score already weighs both axes).
std::optional<double> objective_value(const RankedPlan& e, Objective objective) {
  switch (objective) {
    case Objective::cost: return ranked_cost(e) / e.rule_score;
    case Objective::time: return e.time.value / e.rule_score;
    case Objective::balanced: return std::nullopt;
  }
  return std::nullopt;
}

// What a practitioner weighs between plans of equal cost, easiest to get and run first:
// within the on-demand limit (no reservation or quota request to wait for), fewer machines
// (fewer to find and to fail, less of the scaling the model does not see), and no
// commitment, and in-core trees before XGBoost's external memory (experimental in XGBoost 3,
// and it takes a data iterator of the user's own). Between as many machines of equal cost
// the faster is better (below); last,
// fewer devices and the smaller tensor-parallel degree (serving: more replicas on them).
// Beyond the limit both plans take a reservation, and fewer machines still win: a smaller
// block is easier to reserve (EC2 Capacity Blocks stop at 64 instances, a GCP calendar
// reservation at 80) and has fewer machines to fail (issue 48: 1,024 B200s had won over 256
// that cost 0.3 % less and met the deadline).
auto availability_order(const RankedPlan& e) {
  const bool beyond = e.beyond_on_demand.has_value();
  const int machines = e.plan.offering != nullptr ? e.plan.units * machines_per_unit(*e.plan.offering) : 1;
  return std::make_tuple(beyond, machines, e.commitment.has_value(), e.plan.strategy.trees_external_memory());
}
auto size_order(const RankedPlan& e) {
  return std::make_tuple(e.plan.device_count, e.plan.strategy.tensor_parallel);
}

// Within a near-tie under cost: availability_order, the faster, size_order; under time: the
// cheaper (a tie in time costs nothing to break by price), availability_order, size_order;
// then compare_plans.
bool before_in_tie(const RankedPlan& a, const RankedPlan& b, Objective objective, const Minima& minima) {
  const int cheaper = compare_values(ranked_cost(a), ranked_cost(b));
  if (objective == Objective::time && cheaper != 0) return cheaper < 0;
  if (availability_order(a) != availability_order(b)) return availability_order(a) < availability_order(b);
  if (objective == Objective::cost) {
    const int faster = compare_values(a.time.value, b.time.value);
    if (faster != 0) return faster < 0;
  }
  if (size_order(a) != size_order(b)) return size_order(a) < size_order(b);
  return compare_plans(a, b, objective, minima) < 0;
}

}  // namespace

void order_near_ties(std::vector<const RankedPlan*>& plans, Objective objective, const Minima& minima) {
  if (objective == Objective::balanced) return;
  const auto in_tie = [&](const RankedPlan* a, const RankedPlan* b) {
    return before_in_tie(*a, *b, objective, minima);
  };
  for (auto first = plans.begin(); first != plans.end();) {
    const double limit = *objective_value(**first, objective) * (1 + k_near_tie);
    const auto last = std::find_if(first, plans.end(), [&](const RankedPlan* e) {
      return compare_values(*objective_value(*e, objective), limit) > 0;
    });
    std::stable_sort(first, last, in_tie);
    first = last;
  }
}

void mark_ties(std::vector<RankedPlan>& plans, Objective objective) {
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::optional<double> mine = objective_value(plans[i], objective);
    const std::optional<double> next =
        i + 1 < plans.size() ? objective_value(plans[i + 1], objective) : std::optional<double>();
    plans[i].tie_with_next = mine && next && compare_values(*next, *mine * (1 + k_near_tie)) <= 0 &&
                             compare_values(*mine, *next * (1 + k_near_tie)) <= 0;
    plans[i].ranked_by_tie_break = plans[i].tie_with_next && compare_values(*mine, *next) > 0;
  }
}

// Of the plans within k_near_tie of the best objective, the one before_in_tie puts first.
const RankedPlan& first_of(const std::vector<RankedPlan>& plans, Objective objective, const Minima& minima) {
  const RankedPlan& leader = *std::min_element(plans.begin(), plans.end(), [&](const auto& a, const auto& b) {
    return compare_plans(a, b, objective, minima) < 0;
  });
  if (objective == Objective::balanced) return leader;
  const double limit = *objective_value(leader, objective) * (1 + k_near_tie);
  const RankedPlan* first = &leader;
  for (const RankedPlan& e : plans) {
    if (compare_values(*objective_value(e, objective), limit) <= 0 && before_in_tie(e, *first, objective, minima)) {
      first = &e;
    }
  }
  return *first;
}

Contenders::Contenders(Objective objective) : m_objective(objective), m_best(std::numeric_limits<double>::infinity()) {
  // An offering keeps a few contenders: one allocation for them, not one per doubling.
  constexpr std::size_t k_expected = 4;
  m_plans.reserve(k_expected);
}

bool Contenders::beyond(double value) const {
  // first_of's limit is at most m_best × (1 + k_near_tie), compared up to 10⁻⁹ of the
  // larger: 10⁻⁶ more keeps every plan that compare may let in.
  constexpr double k_margin = 1e-6;
  return value > m_best * (1 + k_near_tie) * (1 + k_margin);
}

void Contenders::offer(const RankedPlan& plan) {
  const std::optional<double> value = objective_value(plan, m_objective);
  if (!value) {
    m_plans.push_back(plan);
    return;
  }
  if (beyond(*value)) return;
  if (*value < m_best) {
    m_best = *value;
    std::erase_if(m_plans, [&](const RankedPlan& e) { return beyond(*objective_value(e, m_objective)); });
  }
  m_plans.push_back(plan);
}

// Figures within k_near_tie count as equal, as in the ranking: a few cents of billing
// rounding do not put a slower plan on the front.
// Costs count as they are (not floored at $1 as in the balanced score): a $0.08 run is
// cheaper than a $0.90 one.
void mark_pareto_front(std::vector<RankedPlan>& plans) {
  constexpr double k_equal = k_near_tie;
  const auto no_worse = [](double other, double mine) { return other <= mine * (1 + k_equal); };
  const auto better = [](double other, double mine) { return other < mine * (1 - k_equal); };
  for (RankedPlan& plan : plans) {
    plan.pareto = std::none_of(plans.begin(), plans.end(), [&](const RankedPlan& other) {
      const double time = other.time.value, cost = ranked_cost(other), mine = ranked_cost(plan);
      return no_worse(time, plan.time.value) && no_worse(cost, mine) &&
             (better(time, plan.time.value) || better(cost, mine));
    });
  }
}

}  // namespace mlsize::ordering
