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
#include <string_view>

namespace mlsize {

// Which cloud price a plan pays: on demand, spot, or the hourly rate of a 1- or 3-year
// commitment (docs/methodology.md#reserved).
enum class Pricing { on_demand, spot, reserved_1y, reserved_3y };
constexpr auto enum_names(Pricing) {
  using enum Pricing;
  return std::to_array<EnumName<Pricing>>(
      {{on_demand, "on-demand"}, {spot, "spot"}, {reserved_1y, "reserved-1y"}, {reserved_3y, "reserved-3y"}});
}
// The years a reservation commits to; 0 for on-demand and spot.
int commitment_years(Pricing pricing);

// Where a cloud plan's hourly price comes from: the offering's own list price of the kind
// asked for; for a reservation the offering does not list, its on-demand price less the
// provider's typical discount (an estimate); or, where the provider states no discount
// either, the on-demand price (no reservation to be had at a known price).
enum class PriceBasis { list, provider_discount, on_demand };
constexpr auto enum_names(PriceBasis) {
  using enum PriceBasis;
  return std::to_array<EnumName<PriceBasis>>(
      {{list, "list"}, {provider_discount, "provider-discount"}, {on_demand, "on-demand"}});
}
struct UnitPrice {
  Usd per_hour;
  PriceBasis basis = PriceBasis::list;
};
// One unit's hourly price in `region` under `pricing`, before price factors. Free tiers
// have their on-demand price (0) only. Nothing when there is no price of the kind (spot
// not offered there).
std::optional<UnitPrice> unit_price(const Offering& offering, const RegionalPrice& region, Pricing pricing);

struct CostSettings {
  Pricing pricing = Pricing::on_demand;
  double amortization_years = 3.0;        // on-premise hardware written off straight-line
  double electricity_usd_per_kwh = 0.15;  // on-premise power price
  // Share of the write-off period that hardware to buy spends running jobs: a run carries
  // purchase × its hours ÷ (years × 8760 h × utilisation), so idle hours are paid by the
  // runs. 0.8: "GPU servers engaged in training are only operational 80% of the time"
  // (Uptime Institute, Intelligence Update 362, May 2025); the other loss it names, 35-45%
  // of peak while running, is the workload's MFU. docs/methodology.md#hardware-to-buy.
  double utilisation = 0.8;
  // Provider -> multiplier of its cloud prices (on-demand and spot), for negotiated discounts.
  std::map<std::string, double, std::less<>> price_factors;
  // Ids of on-premise offerings the user already has: they cost their electricity only.
  std::set<std::string, std::less<>> owned;

  bool owns(const Offering& offering) const {
    return offering.kind == OfferingKind::on_prem && owned.contains(offering.id);
  }
};

// Each cloud offering priced in one region: `region` where one is named (offerings not
// priced there are left out), else the region whose price under `pricing` is lowest, ties
// to the one listed first. On-premise hardware and free tiers have no region and stay.
// docs/catalogue.md#prices.
Catalog choose_regions(Catalog catalog, std::string_view region, Pricing pricing);

// Price of one unit for one hour: the cloud price (unit_price in the offering's region), or for on-premise hardware its
// purchase price spread over the hours it is used in the amortisation period
// (amortised_per_unit_hour) plus its electricity (owned hardware: its electricity only,
// the purchase being spent already).
// Cloud and free-tier prices are multiplied by the provider's price factor, if any.
// Nothing when the offering has no price of the requested kind (e.g. no spot price).
std::optional<Usd> hourly_price_per_unit(const Offering& offering, const CostSettings& settings);

// price per unit-hour × units × billed hours, where the duration is rounded up to the
// billing step and raised to the minimum charge.
Usd run_cost(Usd price_per_unit_hour, int units, Seconds duration, const Billing& billing = {});

// What reserving `units` units of `offering` commits under `pricing` (reserved-*): every
// hour of the term at `price_per_unit_hour`. Nothing for on-demand and spot, for offerings
// that are not cloud, and where no reservation price is known (PriceBasis::on_demand).
std::optional<Usd> commitment_cost(const Offering& offering, Usd price_per_unit_hour, int units, Pricing pricing);

// Spot runs (docs/methodology.md#spot). A run interrupted `interruptions_per_hour` times an
// hour (over all its instances) that writes a checkpoint in `checkpoint_write` and restarts
// in `restart` loses, at Young's optimal checkpoint interval sqrt(2·δ/λ) (Young 1974, "A
// first order approximation to the optimum checkpoint interval", CACM 17(9); Daly 2006, FGCS
// 22(3), eq. 1), this share of its wall time: sqrt(2·δ·λ) for checkpoints and redone work,
// plus λ·R for restarts. A run of compute time T then takes T / (1 − share); at a share of
// 1 or more it never finishes.
double preemption_share(double interruptions_per_hour, Seconds checkpoint_write, Seconds restart);

// The checkpoint write the spot model assumes: a minute (a stated default: sharded,
// asynchronous checkpoints of each rank's states; docs/methodology.md#spot).
inline constexpr double k_checkpoint_write_seconds = 60;

// Spot interruptions per instance-hour where the provider states none: the only measured
// GPU figure found, AWS p3.2xlarge over 13 days of 2023 (providers.yaml, aws), as a stated
// default (docs/catalogue.md#availability).
inline constexpr double k_default_spot_interruptions_per_hour = 0.2;

// The machines one unit of `offering` is: one per 8 devices, at least one. A unit of more
// than 8 accelerators (a TPU slice) is many hosts; a spot interruption takes back one
// machine and stops the whole unit, and the ranking's ties count machines.
int machines_per_unit(const Offering& offering);

// The cash a plan on `units` units of `offering` needs up front: the purchase price of
// on-premise hardware not owned; nothing for rentals and owned hardware.
std::optional<Usd> purchase_cash(const Offering& offering, int units, const CostSettings& settings);

// The duration a provider charges for a run of `duration`.
Seconds billed_duration(Seconds duration, const Billing& billing);

// On-premise power per unit-hour: power_w / 1000 × the electricity price; zero without power_w.
Usd electricity_per_unit_hour(const Offering& offering, const CostSettings& settings);

// The share of an on-premise purchase one unit-hour of use carries:
// purchase ÷ (amortization_years × 8760 h × utilisation). Nothing without a purchase price.
std::optional<Usd> amortised_per_unit_hour(const Offering& offering, const CostSettings& settings);

// When buying hardware has cost less than renting for the same runs: after
//   runs = purchase ÷ (rental cost per run − electricity cost per run)
// runs, since each run on the bought hardware still pays its electricity and saves the
// rental. `busy` is that many runs back to back on the bought hardware (runs × its run
// time). Never when the electricity of a run costs as much as renting it, or more.
// docs/methodology.md#break-even.
struct BreakEven {
  bool never = false;
  double runs = 0;  // fractional: buying is ahead during run ceil(runs); 0 when never
  Seconds busy;     // 0 when never
};
BreakEven break_even(Usd purchase, Usd electricity_per_run, Usd rental_per_run, Seconds run_time);

}  // namespace mlsize
