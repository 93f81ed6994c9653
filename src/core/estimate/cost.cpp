#include <mlsize/estimate/cost.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mlsize {

int commitment_years(Pricing pricing) {
  switch (pricing) {
    case Pricing::reserved_1y: return 1;
    case Pricing::reserved_3y: return 3;
    case Pricing::on_demand:
    case Pricing::spot: return 0;
  }
  return 0;
}

std::optional<UnitPrice> unit_price(const Offering& offering, const RegionalPrice& region, Pricing pricing) {
  const auto listed = [](const std::optional<Usd>& price) -> std::optional<UnitPrice> {
    if (!price) return std::nullopt;
    return UnitPrice{*price, PriceBasis::list};
  };
  if (offering.kind != OfferingKind::cloud || pricing == Pricing::on_demand) return listed(region.on_demand);
  if (pricing == Pricing::spot) return listed(region.spot);
  const bool one_year = pricing == Pricing::reserved_1y;
  if (auto price = listed(one_year ? region.reserved_1y : region.reserved_3y)) return price;
  if (!region.on_demand) return std::nullopt;
  const std::optional<double> discount =
      one_year ? offering.terms->reserved_discount.one_year : offering.terms->reserved_discount.three_year;
  if (discount) return UnitPrice{*region.on_demand * (1.0 - *discount), PriceBasis::provider_discount};
  return UnitPrice{*region.on_demand, PriceBasis::on_demand};
}

std::optional<Usd> commitment_cost(const Offering& offering, Usd price_per_unit_hour, int units, Pricing pricing) {
  const int years = commitment_years(pricing);
  if (years == 0 || offering.kind != OfferingKind::cloud) return std::nullopt;
  const std::optional<UnitPrice> unit = unit_price(offering, offering.price, pricing);
  if (!unit || unit->basis == PriceBasis::on_demand) return std::nullopt;
  return price_per_unit_hour * (static_cast<double>(units) * k_hours_per_year * years);
}

double preemption_share(double interruptions_per_hour, Seconds checkpoint_write, Seconds restart) {
  const double lambda = interruptions_per_hour / k_seconds_per_hour;  // per second
  return std::sqrt(2 * checkpoint_write.value * lambda) + lambda * restart.value;
}

int machines_per_unit(const Offering& offering) {
  constexpr int k_devices_per_machine = 8;
  return std::max(1, (offering.devices_per_unit + k_devices_per_machine - 1) / k_devices_per_machine);
}

Catalog choose_regions(Catalog catalog, std::string_view region, Pricing pricing) {
  // In place: the chosen region's price swaps with the listed one, the others keep their
  // order after it (the first listed then stands where the chosen one was).
  catalog.edit_offerings([&](Offering& offering) {
    if (offering.kind != OfferingKind::cloud) return true;
    const auto cost = [&](const RegionalPrice& price) {
      const std::optional<UnitPrice> unit = unit_price(offering, price, pricing);
      return unit ? unit->per_hour.value : std::numeric_limits<double>::infinity();
    };
    // -1: the listed price; i: other_regions[i].
    std::ptrdiff_t pick = -1;
    if (!region.empty()) {
      if (offering.price.region != region) {
        const auto found = std::find_if(offering.other_regions.begin(), offering.other_regions.end(),
                                        [&](const RegionalPrice& price) { return price.region == region; });
        if (found == offering.other_regions.end()) return false;
        pick = found - offering.other_regions.begin();
      }
    } else {
      double best = cost(offering.price);
      for (std::size_t i = 0; i < offering.other_regions.size(); ++i) {
        if (const double c = cost(offering.other_regions[i]); c < best) {
          best = c;
          pick = static_cast<std::ptrdiff_t>(i);
        }
      }
    }
    if (pick < 0) return true;
    // Price o_k; the others become [listed, o0, ..., o_k-1, o_k+1, ...] (o0..o_k-1 shift by one).
    std::vector<RegionalPrice>& others = offering.other_regions;
    RegionalPrice listed = std::move(offering.price);
    offering.price = std::move(others[static_cast<std::size_t>(pick)]);
    for (auto i = static_cast<std::size_t>(pick); i > 0; --i) others[i] = std::move(others[i - 1]);
    others[0] = std::move(listed);
    return true;
  });
  return catalog;
}

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
  std::optional<Usd> price;
  if (auto unit = unit_price(offering, offering.price, settings.pricing)) price = unit->per_hour;
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
