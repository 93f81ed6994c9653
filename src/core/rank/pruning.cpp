#include "core/rank/pruning.hpp"

#include "core/rank/ordering.hpp"

#include <mlsize/rules/rule_fields.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace mlsize::pruning {
namespace {

std::size_t degree_slot(int degree) {
  return std::min<std::size_t>(static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(degree))), 15);
}

}  // namespace

std::size_t ServingDominance::slot(const Plan& plan) {
  // Tensor-parallel replicas by their degree, expert-parallel ones in the upper half.
  const int expert = plan.strategy.expert_parallel;
  const int degree = expert > 1 ? expert : plan.strategy.tensor_parallel;
  const std::size_t half = k_degrees / 2;
  const auto log2 = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(degree)));
  return std::min(log2, half - 1) + (expert > 1 ? half : 0);
}

void ServingDominance::estimated(const Plan& plan, bool fits, bool idle) {
  if (!fits || idle) m_done[slot(plan)] = true;
}

Slowness::Rank Slowness::rank(const Plan& plan) {
  return {static_cast<int>(plan.strategy.offload), plan.strategy.zero_stage, static_cast<int>(plan.strategy.recompute)};
}

void Slowness::enter(int device_count) {
  if (device_count == m_devices) return;
  m_devices = device_count;
  m_scores = 0;
}

bool Slowness::may_dominate(const Plan& plan) {
  enter(plan.device_count);
  return m_scores > 0;
}

bool Slowness::beyond_fastest(Seconds least_time) const {
  for (std::size_t k = 0; k < m_scores; ++k) {
    const Fastest& f = m_fastest[k];
    if (f.score >= m_score && ordering::compare_values(least_time.value, f.time) > 0) return true;
  }
  return false;
}

bool Slowness::dominated(const Plan& plan, const std::optional<Seconds>& least_time) const {
  if (!least_time) return false;
  for (std::size_t k = 0; k < m_scores; ++k) {
    const Fastest& f = m_fastest[k];
    if (f.score < m_score) continue;
    const int order = ordering::compare_values(least_time->value, f.time);
    if (order > 0 && m_objective != Objective::balanced) return true;
    if (order >= 0 && f.score == m_score && rank(plan) >= f.rank) return true;
  }
  return false;
}

void Slowness::fits(const Plan& plan, Seconds time) {
  enter(plan.device_count);
  Fastest* f = m_fastest.data();
  Fastest* const end = f + m_scores;
  while (f != end && f->score != m_score) ++f;
  if (f == end) {
    if (m_scores == k_scores) return;
    *f = Fastest{m_score, time.value, rank(plan)};
    ++m_scores;
    return;
  }
  // Ties keep the plan the ranking puts first, so that a tie dominates only what it would.
  const int order = ordering::compare_values(time.value, f->time);
  if (order < 0 || (order == 0 && rank(plan) < f->rank)) *f = Fastest{m_score, time.value, rank(plan)};
}

void Dominance::too_big(const Plan& plan, int micro_batch) {
  const Strategy& st = plan.strategy;
  if (st.offload == Offload::none) return;
  int& least = m_too_big[static_cast<std::size_t>(st.offload)][static_cast<std::size_t>(st.zero_stage)]
                        [static_cast<std::size_t>(st.recompute)];
  if (least == 0 || micro_batch < least) least = micro_batch;
}

Pruner::Pruner(const std::vector<Plan>& plans, PlanEstimator& estimator, const std::optional<Recompute>& recompute,
               const Workload& workload, Objective objective, std::span<double> least_times,
               const RuleJudge* layout_judge, FieldValues* values)
    : m_plans(plans),
      m_estimator(estimator),
      m_least_times(least_times),
      m_recompute(recompute),
      m_workload(workload),
      m_serving(workload.task == Task::inference),
      m_slowness(objective),
      m_layout_judge(layout_judge),
      m_values(values) {}

// Memory never grows with the ZeRO stage nor shrinks with the micro-batch, so a layout's
// least memory is that of its highest stage at its smallest micro-batch (the workload's for a
// language model, whose search only grows it; the least for images, whose search halves
// it), with whichever recomputation holds least: a few plans' memory tells whether any plan
// of it can fit.
bool Pruner::layout_can_fit(std::size_t first) const {
  const auto searched = [&](const Plan& plan) { return !m_recompute || plan.strategy.recompute == *m_recompute; };
  std::size_t last = first;
  int highest = 0;
  int least_micro_batch = m_workload.micro_batch;
  for (; last < m_plans.size() && same_layout(m_plans[last], m_plans[first]); ++last) {
    if (!searched(m_plans[last])) continue;
    highest = std::max(highest, m_plans[last].strategy.zero_stage);
    least_micro_batch = std::min(least_micro_batch, micro_batch_of(m_plans[last]));
  }
  for (std::size_t i = first; i < last; ++i) {
    const Strategy& st = m_plans[i].strategy;
    if (searched(m_plans[i]) && st.zero_stage == highest && micro_batch_of(m_plans[i]) == least_micro_batch &&
        m_estimator.fits(m_plans[i])) {
      return true;
    }
  }
  return false;
}

bool Pruner::enter_layout(std::size_t first) {
  m_layout_start = first;
  m_layout = Layout::unknown;
  m_layout_least_times.fill(std::numeric_limits<double>::quiet_NaN());
  if (m_layout_judge != nullptr) {
    fill_layout_rule_fields(*m_values, m_plans[first]);
    m_slowness.score(m_layout_judge->judge(*m_values).score);
  }
  return layout_too_slow(first);
}

// A layout's plans are no faster than its plan without recomputation or offload: its
// least time is that plan's compute (recomputation only adds to it), the layout's least
// unhidden communication (the same for all of them; layouts with model parallelism
// offload nothing) and the setup, and an offload plan's adds its transfers and host steps
// to its compute. So when that bound is beyond the fastest fitting plan of the device
// count, Slowness would prune each of the layout's plans (compare_values grows with its
// first value), and the search skips them all at once. Not under the balanced
// objective, whose ties Slowness breaks plan by plan.
bool Pruner::layout_too_slow(std::size_t first) {
  if (m_slowness.objective() == Objective::balanced || !m_slowness.may_dominate(m_plans[first])) return false;
  Plan plan = m_plans[first];  // copied only when a bound is taken
  plan.strategy.recompute = Recompute::none;
  plan.strategy.offload = Offload::none;
  plan.strategy.micro_batch = 0;
  const std::optional<Seconds> least = m_estimator.least_time(plan);
  m_layout_least_times[static_cast<std::size_t>(Recompute::none)] = least ? least->value : -1;
  if (!least || !m_slowness.beyond_fastest(*least)) return false;
  std::size_t end = first;
  while (end < m_plans.size() && same_layout(m_plans[end], m_plans[first])) ++end;
  m_slow_until = end;
  return true;
}

std::optional<Seconds> Pruner::least_time(std::size_t i) {
  const Plan& plan = m_plans[i];
  double* const of_shape = m_least_times.empty() ? nullptr : &m_least_times[i];
  double* const of_layout = plan.strategy.offload == Offload::none
                                ? &m_layout_least_times[static_cast<std::size_t>(plan.strategy.recompute)]
                                : nullptr;
  double known = of_shape != nullptr ? *of_shape : std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(known) && of_layout != nullptr) known = *of_layout;
  if (std::isnan(known)) {
    const std::optional<Seconds> least = m_estimator.least_time(plan);
    known = least ? least->value : -1;
  }
  if (of_shape != nullptr) *of_shape = known;
  if (of_layout != nullptr) *of_layout = known;
  return known >= 0 ? std::optional<Seconds>(Seconds(known)) : std::nullopt;
}

void Pruner::estimated(std::size_t i, const PlanEstimate& e) {
  const Plan& plan = m_plans[i];
  if (m_serving) {
    m_serving_dominance.estimated(
        plan, e.fits, e.fits && busy_replicas(m_workload, plan) < plan.strategy.data_parallel(plan.device_count));
    return;
  }
  if (m_layout == Layout::unknown) {
    // Memory never grows with the device count either (ZeRO shards over more ranks): a
    // t×p layout that can fit at one device count can at every larger one, which come
    // later.
    bool& known =
        m_fits_from_here[degree_slot(plan.strategy.tensor_parallel)][degree_slot(plan.strategy.pipeline_parallel)];
    known = known || e.fits || layout_can_fit(i);
    m_layout = known ? Layout::fits : Layout::too_big;
  }
  if (!e.fits) m_dominance.too_big(plan, micro_batch_of(plan));
  // An offload plan whose host cannot hold what it offloads fits nowhere.
  if (!e.fits || !e.host_fits.value_or(true)) return;
  m_dominance.fits(plan, e.communication.micro_steps_hidden);
  m_slowness.fits(plan, e.time);
}

}  // namespace mlsize::pruning
