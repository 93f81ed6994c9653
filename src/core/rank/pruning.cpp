#include "core/rank/pruning.hpp"

#include <algorithm>
#include <bit>

namespace mlsize::pruning {
namespace {

std::size_t degree_slot(int degree) {
  return std::min<std::size_t>(static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(degree))), 15);
}

}  // namespace

std::size_t ServingDominance::slot(const Plan& plan) {
  return std::min<std::size_t>(
      static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(plan.strategy.tensor_parallel))), k_degrees - 1);
}

void ServingDominance::estimated(const Plan& plan, bool fits, bool idle) {
  if (!fits || idle) m_done[slot(plan)] = true;
}

Pruner::Pruner(const std::vector<Plan>& plans, PlanEstimator& estimator, const std::optional<Recompute>& recompute,
               const Workload& workload)
    : m_plans(plans),
      m_estimator(estimator),
      m_recompute(recompute),
      m_workload(workload),
      m_serving(workload.task == Task::inference) {}

// Memory never grows with the ZeRO stage nor shrinks with the micro-batch, so a layout's
// least memory is that of its highest stage at the workload's micro-batch, with whichever
// recomputation holds least: a few plans' memory tells whether any plan of it can fit.
bool Pruner::layout_can_fit(std::size_t first) const {
  const auto searched = [&](const Plan& plan) { return !m_recompute || plan.strategy.recompute == *m_recompute; };
  std::size_t last = first;
  int highest = 0;
  for (; last < m_plans.size() && same_layout(m_plans[last], m_plans[first]); ++last) {
    if (searched(m_plans[last])) highest = std::max(highest, m_plans[last].strategy.zero_stage);
  }
  for (std::size_t i = first; i < last; ++i) {
    const Strategy& st = m_plans[i].strategy;
    if (searched(m_plans[i]) && st.zero_stage == highest && st.micro_batch == 0 && m_estimator.fits(m_plans[i])) {
      return true;
    }
  }
  return false;
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
  if (e.fits) m_dominance.fits(plan, e.communication.micro_steps_hidden);
}

}  // namespace mlsize::pruning
