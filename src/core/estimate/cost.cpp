#include <mlsize/estimate/cost.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {

std::optional<Usd> hourly_price_per_unit(const Offering& offering, const CostSettings& settings) {
  if (offering.kind == OfferingKind::on_prem) {
    const Usd energy(offering.power_w.value_or(0.0) / 1000.0 * settings.electricity_usd_per_kwh);
    if (settings.owns(offering)) return energy;
    if (!offering.purchase_price) return std::nullopt;
    constexpr double hours_per_year = 365.0 * 24.0;
    const Usd capital = *offering.purchase_price / (settings.amortization_years * hours_per_year);
    return capital + energy;
  }
  std::optional<Usd> price = settings.pricing == Pricing::spot && offering.kind == OfferingKind::cloud
                                 ? offering.spot_price_per_hour
                                 : offering.price_per_hour;
  // A negotiated discount scales list prices; on-premise costs are the user's own figures.
  if (auto factor = settings.price_factors.find(offering.provider); price && factor != settings.price_factors.end()) {
    *price = *price * factor->second;
  }
  return price;
}

std::optional<Usd> purchase_cash(const Offering& offering, int units, const CostSettings& settings) {
  if (offering.kind != OfferingKind::on_prem || settings.owns(offering) || !offering.purchase_price) {
    return std::nullopt;
  }
  return *offering.purchase_price * units;
}

Seconds billed_duration(Seconds duration, const Billing& billing) {
  const double step = billing.granularity_seconds > 0 ? billing.granularity_seconds : 1.0;
  const double rounded = std::ceil(duration.value / step) * step;
  return Seconds(std::max(rounded, billing.minimum_seconds));
}

Usd run_cost(Usd price_per_unit_hour, int units, Seconds duration, const Billing& billing) {
  return price_per_unit_hour * (units * billed_duration(duration, billing).value / k_seconds_per_hour);
}

}  // namespace mlsize
