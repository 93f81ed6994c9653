#include <mlsize/estimate/cost.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {

Usd electricity_per_unit_hour(const Offering& offering, const CostSettings& settings) {
  return Usd(offering.power_w.value_or(0.0) / 1000.0 * settings.electricity_usd_per_kwh);
}

std::optional<Usd> amortised_per_unit_hour(const Offering& offering, const CostSettings& settings) {
  if (!offering.purchase_price) return std::nullopt;
  constexpr double hours_per_year = 365.0 * 24.0;
  return *offering.purchase_price / (settings.amortization_years * hours_per_year * settings.utilisation);
}

std::optional<Usd> hourly_price_per_unit(const Offering& offering, const CostSettings& settings) {
  if (offering.kind == OfferingKind::on_prem) {
    const Usd energy = electricity_per_unit_hour(offering, settings);
    if (settings.owns(offering)) return energy;
    const std::optional<Usd> capital = amortised_per_unit_hour(offering, settings);
    if (!capital) return std::nullopt;
    return *capital + energy;
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

BreakEven break_even(Usd purchase, Usd electricity_per_run, Usd rental_per_run, Seconds run_time) {
  const Usd saved_per_run = rental_per_run - electricity_per_run;
  if (saved_per_run.value <= 0) return BreakEven{true, 0, Seconds(0)};
  const double runs = purchase.value / saved_per_run.value;
  return BreakEven{false, runs, Seconds(runs * run_time.value)};
}

Usd run_cost(Usd price_per_unit_hour, int units, Seconds duration, const Billing& billing) {
  return price_per_unit_hour * (units * billed_duration(duration, billing).value / k_seconds_per_hour);
}

}  // namespace mlsize
