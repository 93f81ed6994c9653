#include "core/rank/ways_out.hpp"

#include <mlsize/estimate/planner.hpp>

#include <algorithm>
#include <optional>
#include <utility>

namespace mlsize {

std::optional<RankedPlan> nearest_to_fitting(const Report& report) {
  // A plan that fits its devices but not its host's RAM is nearer than one that fits neither;
  // among either, the least share of what it would need.
  const auto distance = [](const Rejection& r) {
    const PlanEstimate& e = *r.nearest;
    if (r.reason == RejectionReason::offload_host) {
      return std::pair{0, offloaded_per_unit(e.plan, e.memory) / *r.offering->host_memory};
    }
    return std::pair{1, e.memory.total() / e.capacity};
  };
  const Rejection* nearest = nullptr;
  for (const Rejection& r : report.rejected) {
    if ((r.reason != RejectionReason::memory && r.reason != RejectionReason::offload_host) || !r.nearest) continue;
    if (nearest == nullptr || distance(r) < distance(*nearest)) nearest = &r;
  }
  if (nearest == nullptr) return std::nullopt;
  return RankedPlan(*nearest->nearest);
}

std::vector<WayOut> find_ways_out(const Workload& workload, const Catalog& catalog, const RecommendSettings& settings,
                                  const Report& report) {
  std::vector<WayOut> ways;
  if (!workload.is_training() || !report.recommendations.empty()) return ways;
  RecommendSettings again = settings;
  again.ways_out = false;
  again.advice_from = 0;  // only #1 is shown, without the advice under a ranking
  again.notes_for = 0;
  // `nearest`: without a ranked plan, keep the one nearest to fitting.
  const auto search = [&](FitChangeKind change, const Workload& changed, const RecommendSettings& with, bool nearest) {
    Report found = recommend(changed, catalog, with);
    std::optional<RankedPlan> first;
    if (!found.recommendations.empty()) first = std::move(found.recommendations.front());
    // More devices that still do not fit say nothing the request's own nearest plan does not.
    if (!first && nearest && change != FitChangeKind::more_devices) first = nearest_to_fitting(found);
    if (!first) return;
    Workload at = changed;
    at.precision = first->precision;
    const bool fits = !found.recommendations.empty();
    ways.push_back(WayOut{change, std::move(at), std::move(*first), fits});
  };
  // More of the same devices, where counts were held back, for memory, time or cost alike.
  // The catalogue is what the user narrowed it to (--gpus, --provider, --owned), so "more"
  // stays on it.
  if (!settings.device_counts.empty() || settings.max_devices < k_default_max_devices) {
    RecommendSettings more = again;
    more.device_counts.clear();
    more.max_devices = std::max(settings.max_devices, k_default_max_devices);
    search(FitChangeKind::more_devices, workload, more, true);
  }
  if (!report.fastest_fitting) {
    // Nothing fits: each change to the request.
    for (const auto& [change, changed] : workload_changes(workload)) search(change, changed, again, true);
    return ways;
  }
  // Plans fit but miss a constraint: the cheapest that meets the others, and the fastest.
  const auto without = [&](FitChangeKind change, auto Workload::*constraint, Objective objective) {
    if (!(workload.*constraint)) return;
    Workload changed = workload;
    (changed.*constraint).reset();
    RecommendSettings by = again;
    by.objective = objective;
    search(change, changed, by, false);
  };
  without(FitChangeKind::budget, &Workload::budget, Objective::cost);
  without(FitChangeKind::deadline, &Workload::deadline, Objective::time);
  return ways;
}

}  // namespace mlsize
