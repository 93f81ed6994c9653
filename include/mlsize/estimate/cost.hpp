#pragma once
// What running a plan costs. Formulas: docs/methodology.md#cost.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/names.hpp>
#include <mlsize/support/units.hpp>

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace mlsize {

enum class Pricing { on_demand, spot };
constexpr auto enum_names(Pricing) {
  using enum Pricing;
  return std::to_array<EnumName<Pricing>>({{on_demand, "on-demand"}, {spot, "spot"}});
}

struct CostSettings {
  Pricing pricing = Pricing::on_demand;
  double amortization_years = 3.0;        // on-premise hardware written off straight-line
  double electricity_usd_per_kwh = 0.15;  // on-premise power price
  // Provider -> multiplier of its cloud prices (on-demand and spot), for negotiated discounts.
  std::map<std::string, double, std::less<>> price_factors;
  // Ids of on-premise offerings the user already has: they cost their electricity only.
  std::set<std::string, std::less<>> owned;

  bool owns(const Offering& offering) const {
    return offering.kind == OfferingKind::on_prem && owned.contains(offering.id);
  }
};

// Price of one unit for one hour: the cloud price, or for on-premise hardware its
// purchase price spread over the amortisation period plus its electricity (owned
// hardware: its electricity only, the purchase being spent already).
// Cloud and free-tier prices are multiplied by the provider's price factor, if any.
// Nothing when the offering has no price of the requested kind (e.g. no spot price).
std::optional<Usd> hourly_price_per_unit(const Offering& offering, const CostSettings& settings);

// price per unit-hour × units × billed hours, where the duration is rounded up to the
// billing step and raised to the minimum charge.
Usd run_cost(Usd price_per_unit_hour, int units, Seconds duration, const Billing& billing = {});

// The cash a plan on `units` units of `offering` needs up front: the purchase price of
// on-premise hardware not owned; nothing for rentals and owned hardware.
std::optional<Usd> purchase_cash(const Offering& offering, int units, const CostSettings& settings);

// The duration a provider charges for a run of `duration`.
Seconds billed_duration(Seconds duration, const Billing& billing);

}  // namespace mlsize
