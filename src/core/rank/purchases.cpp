#include "core/rank/purchases.hpp"

#include <mlsize/estimate/cost.hpp>

#include "core/rank/ordering.hpp"

#include <cstddef>
#include <optional>

namespace mlsize {

void weigh_purchases(Report& report) {
  const CostSettings& cost = report.cost;
  std::optional<std::size_t> cheapest;
  for (std::size_t i = 0; i < report.recommendations.size(); ++i) {
    const RankedPlan& e = report.recommendations[i];
    if (e.plan.offering->kind == OfferingKind::on_prem) continue;
    // Ties go to the earlier rank, so that the cheapest plan of a cost ranking is its #1.
    if (!cheapest || ordering::compare_values(e.cost->value, report.recommendations[*cheapest].cost->value) < 0)
      cheapest = i;
  }
  for (PurchasePlan& p : report.purchases) {
    const Offering& offering = *p.plan.offering;
    const Billing& billing = offering.terms->billing;
    const Seconds charged = p.time;
    p.utilisation = cost.utilisation;
    const Usd electricity = run_cost(electricity_per_unit_hour(offering, cost), p.plan.units, charged, billing);
    if (offering.power_w) p.electricity = electricity;
    p.amortised = run_cost(*amortised_per_unit_hour(offering, cost), p.plan.units, charged, billing);
    if (!cheapest) continue;
    p.compared_with = cheapest;
    p.break_even = break_even(*p.purchase, electricity, *report.recommendations[*cheapest].cost, p.time);
    const Seconds in_use(cost.amortization_years * 365.0 * k_seconds_per_day * cost.utilisation);
    p.pays_off = !p.break_even->never && p.break_even->busy <= in_use;
  }
}

}  // namespace mlsize
