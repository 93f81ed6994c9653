#pragma once
// Choosing and ordering plans. Rules: docs/methodology.md#ranking.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/rules/rules.hpp>

namespace mlsize {

// The largest number of devices one plan may use unless the user says otherwise.
inline constexpr int k_default_max_devices = 512;

struct RecommendSettings {
  Objective objective = Objective::cost;
  int max_devices = k_default_max_devices;
  CostSettings cost;
  const RuleSet* rules = nullptr;  // applied to every plan when set; must outlive the report
};

// Every offering's plans are estimated and, with rules, judged by them; per offering the
// best feasible plan under the objective (divided by its rule score) is kept, ties going
// to fewer devices, lower ZeRO stage, no recomputation.
// The report points into `catalog`, which must outlive it.
Report recommend(const Workload& workload, const Catalog& catalog, const RecommendSettings& settings);

}  // namespace mlsize
