#pragma once
// The ways out of a request that ranks nothing (docs/methodology.md#ways-out): the same
// search with one change each, the plan it ranks first kept.

#include <mlsize/rank/ranker.hpp>

#include <vector>

namespace mlsize {

// For `report`, which ranks nothing: when nothing fits, more devices of the offerings
// considered (where a count or --max-devices held them back) and each change to the
// request (workload_changes); when plans fit but miss the budget or the deadline, the
// cheapest plan without the budget and the fastest without the deadline. Training only:
// a serving rejection names its own remedies.
std::vector<WayOut> find_ways_out(const Workload& workload, const Catalog& catalog, const RecommendSettings& settings,
                                  const Report& report);

}  // namespace mlsize
