// The embedded catalogue's reservation prices and providers' typical discounts against the
// figures they were copied or derived from (data/catalog/offerings.yaml header, providers.yaml;
// docs/catalogue.md#reserved_discount).

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/cost.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace mlsize;

namespace {

// Every price an offering lists: its chosen region's and every other region's.
std::vector<RegionalPrice> all_regions(const Offering& offering) {
  std::vector<RegionalPrice> prices{offering.price};
  prices.insert(prices.end(), offering.other_regions.begin(), offering.other_regions.end());
  return prices;
}


RegionalPrice in_region(const Offering& offering, const std::string& region) {
  if (offering.price.region == region) return offering.price;
  for (const RegionalPrice& price : offering.other_regions) {
    if (price.region == region) return price;
  }
  FAIL("no price in " << region);
  return {};
}

}  // namespace

// Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml@60f606df (Cloud Billing Catalog,
// generated 2025-05-01), us-central1: month_1y and month_3y per 730-hour month.
TEST_CASE("GCP A2 committed-use rates are the published monthly prices over 730 hours", "[catalog][reserved]") {
  const Catalog catalog = load_default_catalog();
  struct Published {
    const char* id;
    double on_demand_hour;
    double month_1y;
    double month_3y;
  };
  const Published published[] = {
      {"gcp-a2-highgpu-1g", 3.673385, 1689.3711392, 938.56707798},
      {"gcp-a2-highgpu-8g", 29.38708, 13514.9691136, 7508.53662384},
      {"gcp-a2-megagpu-16g", 55.739504, 25634.2950272, 14241.71597664},
  };
  for (const Published& row : published) {
    INFO(row.id);
    const Offering* offering = catalog.find_offering(row.id);
    REQUIRE(offering != nullptr);
    // us-central1, where the rates were listed (the refreshed entry prices other regions too,
    // some cheaper); the v9 file's on-demand price there is the listed one, so they were kept.
    const RegionalPrice central = in_region(*offering, "us-central1");
    // The reserved rates and the on-demand price describe the same list.
    REQUIRE(central.on_demand);
    CHECK(central.on_demand->value == Approx(row.on_demand_hour).epsilon(1e-5));
    REQUIRE(central.reserved_1y);
    REQUIRE(central.reserved_3y);
    CHECK(central.reserved_1y->value == Approx(row.month_1y / 730).epsilon(1e-5));
    CHECK(central.reserved_3y->value == Approx(row.month_3y / 730).epsilon(1e-5));
  }
  // 37 % off for one year, 65 % for three, as Google lists the A100 machine types.
  const Offering& a2 = *catalog.find_offering("gcp-a2-highgpu-8g");
  const RegionalPrice a2_central = in_region(a2, "us-central1");
  CHECK(1 - a2_central.reserved_1y->value / a2_central.on_demand->value == Approx(0.37).margin(0.001));
  CHECK(1 - a2_central.reserved_3y->value / a2_central.on_demand->value == Approx(0.65).margin(0.001));
  // A listed rate wins over the provider's estimate.
  const std::optional<UnitPrice> unit = unit_price(a2, a2_central, Pricing::reserved_1y);
  REQUIRE(unit);
  CHECK(unit->basis == PriceBasis::list);
  CHECK(unit->per_hour.value == Approx(18.51366));
}

TEST_CASE("every reservation price is below on demand, and three years below one", "[catalog][reserved]") {
  const Catalog catalog = load_default_catalog();
  int listed = 0;
  for (const Offering& offering : catalog.offerings()) {
    for (const RegionalPrice& price : all_regions(offering)) {
      INFO(offering.id << " in " << price.region);
      if (price.reserved_1y || price.reserved_3y) {
        ++listed;
        CHECK(offering.kind == OfferingKind::cloud);
        REQUIRE(price.on_demand);
      }
      if (price.reserved_1y) CHECK(price.reserved_1y->value < price.on_demand->value);
      if (price.reserved_3y) CHECK(price.reserved_3y->value < price.on_demand->value);
      if (price.reserved_1y && price.reserved_3y) CHECK(price.reserved_3y->value < price.reserved_1y->value);
    }
  }
  CHECK(listed >= 5);
}

TEST_CASE("providers' typical reserved discounts: sourced shares, deeper for three years", "[catalog][reserved]") {
  const Catalog catalog = load_default_catalog();
  int with_discount = 0;
  for (const Provider& provider : catalog.providers()) {
    const CommitmentDiscount& discount = provider.reserved_discount;
    if (!discount.one_year && !discount.three_year) continue;
    INFO(provider.id);
    ++with_discount;
    CHECK_FALSE(discount.source.empty());
    for (const std::optional<double>& share : {discount.one_year, discount.three_year}) {
      if (share) CHECK((*share >= 0 && *share < 1));
    }
    if (discount.one_year && discount.three_year) CHECK(*discount.three_year > *discount.one_year);
  }
  CHECK(with_discount >= 2);

  // AWS: the News Blog's "typically about 30%" (1 year, No Upfront) and "around 63%" (3 years).
  const Provider* aws = catalog.find_provider("aws");
  REQUIRE(aws != nullptr);
  REQUIRE(aws->reserved_discount.one_year);
  REQUIRE(aws->reserved_discount.three_year);
  CHECK(*aws->reserved_discount.one_year == Approx(0.30));
  CHECK(*aws->reserved_discount.three_year == Approx(0.63));
  // GCP, derived: the mean over the A2, A3 and G2 series of 1 - CUD / on demand.
  const double gcp_1y = (0.370 + 0.3063 + 0.370) / 3;
  const double gcp_3y = (0.650 + 0.5608 + 0.550) / 3;
  const Provider* gcp = catalog.find_provider("gcp");
  REQUIRE(gcp != nullptr);
  REQUIRE(gcp->reserved_discount.one_year);
  REQUIRE(gcp->reserved_discount.three_year);
  CHECK(*gcp->reserved_discount.one_year == Approx(gcp_1y).margin(0.005));
  CHECK(*gcp->reserved_discount.three_year == Approx(gcp_3y).margin(0.005));

  // An offering without listed rates is priced at on demand less its provider's share.
  const Offering* p5 = catalog.find_offering("aws-p5.48xlarge");
  REQUIRE(p5 != nullptr);
  const std::optional<UnitPrice> unit = unit_price(*p5, p5->price, Pricing::reserved_3y);
  REQUIRE(unit);
  CHECK(unit->basis == PriceBasis::provider_discount);
  CHECK(unit->per_hour.value == Approx(p5->price.on_demand->value * (1 - 0.63)));
}

// docs/catalogue.md#availability: the providers' on-demand limits and spot rates, each with
// its source, and an overlay's own read and checked.
TEST_CASE("providers' on-demand limits and spot interruption rates", "[catalog][availability]") {
  const Catalog catalog = load_default_catalog();
  for (const char* id : {"aws", "gcp", "lambda"}) {
    INFO(id);
    const Provider* provider = catalog.find_provider(id);
    REQUIRE(provider != nullptr);
    CHECK(provider->on_demand_limit.devices == 8);
    CHECK_FALSE(provider->on_demand_limit.beyond.empty());
    CHECK_FALSE(provider->on_demand_limit.source.empty());
  }
  // AWS measured (SkyPilot's spot traces, 600 preemptions in 3,066 instance-hours); GCP states
  // no GPU figure and takes the default, the same measured rate.
  CHECK(*catalog.find_provider("aws")->spot_interruptions.per_instance_hour == Approx(600.0 / 3066).margin(0.01));
  CHECK_FALSE(catalog.find_provider("gcp")->spot_interruptions.per_instance_hour);
  CHECK(k_default_spot_interruptions_per_hour == Approx(600.0 / 3066).margin(0.01));
  // Offerings carry their provider's.
  CHECK(catalog.find_offering("aws-p5.48xlarge")->terms->on_demand_limit.devices == 8);

  Catalog overlay;
  load_catalog_yaml(overlay,
                    "providers:\n"
                    "  - id: mine\n"
                    "    on_demand_limit: {devices: 64, beyond: \"a call to sales\", source: \"contract\"}\n"
                    "    spot_interruptions: {per_instance_hour: 0.05, source: \"our logs\"}\n"
                    "    source: \"x\"\n"
                    "    as_of: \"2026-12-02\"\n",
                    "overlay.yaml");
  const Provider* mine = overlay.find_provider("mine");
  REQUIRE(mine != nullptr);
  CHECK(mine->on_demand_limit.devices == 64);
  CHECK(mine->spot_interruptions.per_instance_hour == 0.05);
  Catalog wrong;
  CHECK_THROWS_WITH(load_catalog_yaml(wrong,
                                      "providers:\n"
                                      "  - id: mine\n"
                                      "    on_demand_limit: {devices: 64, source: \"contract\"}\n"
                                      "    source: \"x\"\n"
                                      "    as_of: \"2026-12-02\"\n",
                                      "overlay.yaml"),
                    Catch::Contains("beyond"));
}
