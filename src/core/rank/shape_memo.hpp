#pragma once
// What the planner keeps from one offering to the next of the same shape (issue 49), so that
// offerings that differ only in price share their plans' estimates (ranker.cpp).

#include <mlsize/estimate/planner.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace mlsize {

// What offerings of one shape share (same_shape; issue 49): the same candidate plans, and
// each plan the same memory, time and fit, but for the plans that read the host (reads_host),
// which share them only with offerings of the same host; only the price, the time spot
// interruptions take and what follows from them differ. recommend() hands a worker the
// offerings of a shape one after the other, those of one host together, and the estimates
// of the first serve the next, each priced on its own.
class ShapeMemo {
 public:
  // Whether it holds the plans of `offering`'s shape at `precision`.
  bool holds(const Offering& offering, Precision precision) const {
    return m_shape != nullptr && m_precision == precision && same_shape(*m_shape, offering);
  }
  // Starts over for the `plans` of `offering`'s shape.
  void start(const Offering& offering, Precision precision, std::size_t plans) {
    m_shape = &offering;
    m_host = &offering;
    m_precision = precision;
    m_slot.assign(plans, -1);
    m_known.assign(plans, false);
    m_estimates.clear();
    m_least_times.assign(plans, k_unknown);
    m_search_known = false;
  }
  void forget() { m_shape = nullptr; }
  // Moves to `offering` (of the held shape): what was known of the plans that read the host
  // is forgotten when its host differs.
  void enter(const Offering& offering, const Workload& workload, std::span<const Plan> plans) {
    if (same_host(*m_host, offering)) return;
    m_host = &offering;
    m_search_known = false;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      if (!reads_host(workload, plans[i])) continue;
      m_known[i] = false;
      m_least_times[i] = k_unknown;
    }
  }
  // Plan i's estimate (unpriced), if known.
  const PlanEstimate* estimate(std::size_t i) const {
    return m_known[i] ? &m_estimates[static_cast<std::size_t>(m_slot[i])] : nullptr;
  }
  void keep(std::size_t i, const PlanEstimate& estimate) {
    if (m_slot[i] < 0) {
      m_slot[i] = static_cast<int>(m_estimates.size());
      m_estimates.push_back(estimate);
    } else {
      m_estimates[static_cast<std::size_t>(m_slot[i])] = estimate;
    }
    m_known[i] = true;
  }
  // By plan, for the pruner (Pruner's least_times).
  std::span<double> least_times() { return m_least_times; }

  // The plans pruning left to estimate, in order, for the host in hand: a function of the
  // plans' physics alone (fit, time, hidden communication) while no spot interruption
  // stretches their times, so the next offering of the shape goes through these only.
  struct Search {
    std::vector<std::uint32_t> plans;
    std::size_t pruned = 0;
    bool skipped_layout = false;  // Pruner::skipped_a_layout
  };
  const Search* search() const { return m_search_known ? &m_search : nullptr; }
  // Records a search, plan by plan (its storage kept from one to the next), then its end.
  void begin_search() {
    m_search.plans.clear();
    m_search_known = false;
  }
  void searched(std::size_t plan) { m_search.plans.push_back(static_cast<std::uint32_t>(plan)); }
  void end_search(std::size_t pruned, bool skipped_layout) {
    m_search.pruned = pruned;
    m_search.skipped_layout = skipped_layout;
    m_search_known = true;
  }

 private:
  static constexpr double k_unknown = std::numeric_limits<double>::quiet_NaN();
  const Offering* m_shape = nullptr;  // whose plans they are; null: none
  const Offering* m_host = nullptr;   // whose host the known plans that read it are for
  Precision m_precision = Precision::bf16_mixed;
  std::vector<int> m_slot;  // by plan: its place in m_estimates, or -1 (kept again in place)
  std::vector<bool> m_known;
  std::vector<PlanEstimate> m_estimates;  // as PlanEstimator::estimate_physics leaves them
  std::vector<double> m_least_times;
  Search m_search;
  bool m_search_known = false;
};

}  // namespace mlsize
