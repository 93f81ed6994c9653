#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/cost.hpp>

#include <catch2/catch.hpp>

using namespace mlsize;

namespace {

Offering cloud_offering(std::string provider) {
  Offering offering;
  offering.id = provider + "-x";
  offering.provider = std::move(provider);
  offering.kind = OfferingKind::cloud;
  offering.price.on_demand = Usd(10.0);
  offering.price.spot = Usd(4.0);
  return offering;
}

}  // namespace

TEST_CASE("hourly_price_per_unit uses the on-demand or spot price", "[cost]") {
  CostSettings settings;
  CHECK(hourly_price_per_unit(cloud_offering("aws"), settings)->value == 10.0);
  settings.pricing = Pricing::spot;
  CHECK(hourly_price_per_unit(cloud_offering("aws"), settings)->value == 4.0);
}

TEST_CASE("a price factor scales the on-demand and spot prices of its provider only", "[cost][price_factor]") {
  CostSettings settings;
  settings.price_factors["aws"] = 0.8;
  CHECK(hourly_price_per_unit(cloud_offering("aws"), settings)->value == Approx(8.0));
  CHECK(hourly_price_per_unit(cloud_offering("gcp"), settings)->value == 10.0);
  settings.pricing = Pricing::spot;
  CHECK(hourly_price_per_unit(cloud_offering("aws"), settings)->value == Approx(3.2));
  CHECK(hourly_price_per_unit(cloud_offering("gcp"), settings)->value == 4.0);
}

TEST_CASE("a price factor keeps a missing price missing", "[cost][price_factor]") {
  CostSettings settings;
  settings.pricing = Pricing::spot;
  settings.price_factors["aws"] = 0.5;
  Offering offering = cloud_offering("aws");
  offering.price.spot.reset();
  CHECK_FALSE(hourly_price_per_unit(offering, settings).has_value());
}

TEST_CASE("a price factor does not change on-premise amortisation", "[cost][price_factor]") {
  Offering offering;
  offering.provider = "on-prem";
  offering.kind = OfferingKind::on_prem;
  offering.purchase_price = Usd(3.0 * 365.0 * 24.0);  // $1 per hour over 3 years
  offering.power_w = 1000.0;                          // 1 kWh per hour at $0.15
  CostSettings settings;
  settings.utilisation = 1.0;
  settings.price_factors["on-prem"] = 0.5;
  CHECK(hourly_price_per_unit(offering, settings)->value == Approx(1.15));
}

TEST_CASE("a purchase's share per hour of use is spread over the hours it is used", "[cost][purchase]") {
  Offering box;
  box.kind = OfferingKind::on_prem;
  box.purchase_price = Usd(3.0 * 365.0 * 24.0);  // $1 per hour over 3 years
  box.power_w = 2000.0;
  CostSettings settings;
  settings.utilisation = 0.5;  // used half the time: each hour of use carries two hours of write-off
  CHECK(amortised_per_unit_hour(box, settings)->value == Approx(2.0));
  CHECK(electricity_per_unit_hour(box, settings).value == Approx(0.30));  // 2 kWh at $0.15
  CHECK(hourly_price_per_unit(box, settings)->value == Approx(2.30));
  box.power_w.reset();
  CHECK(electricity_per_unit_hour(box, settings).value == 0.0);
  box.purchase_price.reset();
  CHECK_FALSE(amortised_per_unit_hour(box, settings).has_value());
}

// break-even = purchase ÷ (rental cost − electricity) per run (docs/methodology.md#break-even).
TEST_CASE("break-even: purchase over what each run saves against renting", "[cost][break_even]") {
  // $100,000 box; renting the run costs $2,500, its power on the box $500: $2,000 saved a run.
  const BreakEven even = break_even(Usd(100000), Usd(500), Usd(2500), Seconds(2 * k_seconds_per_day));
  CHECK_FALSE(even.never);
  CHECK(even.runs == Approx(50.0));
  CHECK(even.busy.value == Approx(100 * k_seconds_per_day));  // 50 runs of 2 days back to back

  // A fraction of a run: buying is ahead during the 4th run.
  const BreakEven partial = break_even(Usd(1000), Usd(0), Usd(300), Seconds(3600));
  CHECK(partial.runs == Approx(10.0 / 3.0));
  CHECK(partial.busy.value == Approx(10.0 / 3.0 * 3600));
}

TEST_CASE("break-even never comes when a run's electricity costs as much as renting it", "[cost][break_even]") {
  const BreakEven equal = break_even(Usd(100000), Usd(2500), Usd(2500), Seconds(3600));
  CHECK(equal.never);
  CHECK(equal.runs == 0.0);
  CHECK(equal.busy.value == 0.0);
  CHECK(break_even(Usd(100000), Usd(3000), Usd(2500), Seconds(3600)).never);
  // A free rental (a free tier) is never beaten by buying.
  CHECK(break_even(Usd(100000), Usd(0), Usd(0), Seconds(3600)).never);
}

// AWS bills Linux instances per second with a 60-second minimum; Lambda per minute.
TEST_CASE("billing rounds the run up to the provider's step and minimum", "[cost]") {
  mlsize::Billing aws{1.0, 60.0};
  CHECK(mlsize::billed_duration(mlsize::Seconds(10.5), aws).value == 60.0);
  CHECK(mlsize::billed_duration(mlsize::Seconds(90.2), aws).value == 91.0);
  mlsize::Billing lambda{60.0, 0.0};
  CHECK(mlsize::billed_duration(mlsize::Seconds(61.0), lambda).value == 120.0);
  CHECK(mlsize::run_cost(mlsize::Usd(36.0), 2, mlsize::Seconds(30.0), lambda).value == Approx(1.2));  // 2 units × 1 min
  CHECK(mlsize::run_cost(mlsize::Usd(36.0), 2, mlsize::Seconds(30.0)).value == Approx(0.6));          // per second
}

TEST_CASE("offerings take their provider's billing when the catalogue is checked", "[cost][catalog]") {
  const mlsize::Catalog catalog = mlsize::load_default_catalog();
  CHECK(catalog.find_offering("aws-p4d.24xlarge")->terms->billing.minimum_seconds == 60.0);
  CHECK(catalog.find_offering("lambda-gpu_8x_h100_sxm5")->terms->billing.granularity_seconds == 60.0);
  CHECK(catalog.find_offering("aws-p4d.24xlarge")->network_gbps == 400.0);
}

// Young's first-order model (Young 1974, CACM 17(9)): at the interval sqrt(2·δ·M) a run loses
// δ/τ to checkpoints and τ/(2M) to redone work. Daly's check case (FGCS 22(3) 2006, Fig. 3):
// M = 24 h, δ = 5 min, where Young's interval is sqrt(2 × 5 × 1440) = 120 min, so the loss is
// 5/120 + 120/2880; a restart R adds R/M.
TEST_CASE("spot: the share of a run lost to interruptions at Young's interval", "[cost][spot]") {
  const double per_hour = 1.0 / 24;
  CHECK(preemption_share(per_hour, Seconds(300), Seconds(0)) == Approx(5.0 / 120 + 120.0 / 2880));
  CHECK(preemption_share(per_hour, Seconds(300), Seconds(600)) ==
        Approx(5.0 / 120 + 120.0 / 2880 + 10.0 / (24 * 60)));
  CHECK(preemption_share(0, Seconds(300), Seconds(600)) == 0);
  // More machines interrupt more often: the share grows with them.
  CHECK(preemption_share(8 * per_hour, Seconds(60), Seconds(600)) >
        preemption_share(per_hour, Seconds(60), Seconds(600)));
}

TEST_CASE("spot: a unit of more than 8 devices is a machine per 8", "[cost][spot]") {
  Offering offering = cloud_offering("gcp");
  CHECK(machines_per_unit(offering) == 1);
  offering.devices_per_unit = 8;
  CHECK(machines_per_unit(offering) == 1);
  offering.devices_per_unit = 256;
  CHECK(machines_per_unit(offering) == 32);
}

TEST_CASE("a reservation commits every hour of its term", "[cost][reserved]") {
  Offering offering = cloud_offering("aws");
  offering.price.reserved_1y = Usd(6.0);
  CHECK(commitment_cost(offering, Usd(6.0), 2, Pricing::reserved_1y)->value == Approx(6.0 * 2 * 8760));
  offering.price.reserved_3y = Usd(4.0);
  CHECK(commitment_cost(offering, Usd(4.0), 1, Pricing::reserved_3y)->value == Approx(4.0 * 3 * 8760));
  CHECK_FALSE(commitment_cost(offering, Usd(10.0), 1, Pricing::on_demand));
  CHECK_FALSE(commitment_cost(offering, Usd(4.0), 1, Pricing::spot));
  // No reservation price and no provider discount: priced on demand, nothing committed.
  Offering unlisted = cloud_offering("lambda");
  CHECK_FALSE(commitment_cost(unlisted, Usd(10.0), 1, Pricing::reserved_1y));
}
