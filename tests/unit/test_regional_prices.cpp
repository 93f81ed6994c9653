// Prices by region and by commitment: the catalogue's `prices:` list and reserved fields,
// unit_price and choose_regions (docs/catalogue.md#prices, docs/methodology.md#reserved).
#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/support/date.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

using namespace mlsize;

namespace {

constexpr std::string_view k_yaml = R"(providers:
  - id: acme
    reserved_discount: {1y: 0.25, 3y: 0.5, source: "acme commitment page"}
    source: "acme billing page"
    as_of: "2026-01-01"
devices:
  - id: test-gpu
    name: "Test GPU"
    kind: gpu
    vendor: acme
    memory_gib: 80
    peak_tflops: {bf16: 300}
    source: "acme datasheet"
    as_of: "2024-01-15"
offerings:
  - id: acme-8x
    provider: acme
    kind: cloud
    name: "8x"
    device: test-gpu
    devices_per_unit: 8
    prices:
      - {region: eu-west, price_per_hour_usd: 40, spot_price_per_hour_usd: 10}
      - {region: us-east, price_per_hour_usd: 30, reserved_1y_price_per_hour_usd: 20}
      - {region: ap-south, price_per_hour_usd: 35, spot_price_per_hour_usd: 12}
    source: "acme price list"
    as_of: "2026-02-01"
  - id: other-1x
    provider: other
    kind: cloud
    name: "1x"
    device: test-gpu
    devices_per_unit: 1
    price_per_hour_usd: 4
    region: us-east
    source: "other price list"
    as_of: "2026-02-01"
  - id: free
    provider: colab
    kind: free-tier
    name: "free"
    device: test-gpu
    devices_per_unit: 1
    price_per_hour_usd: 0
    source: "colab faq"
    as_of: "2026-02-01"
)";

Catalog loaded() {
  Catalog catalog;
  load_catalog_yaml(catalog, k_yaml, "test.yaml");
  catalog.check_references();
  return catalog;
}

std::string replaced(std::string_view from, std::string_view to) {
  std::string text(k_yaml);
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::optional<Error> load_error(const std::string& text) {
  try {
    Catalog catalog;
    load_catalog_yaml(catalog, text, "test.yaml");
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

double price(const Catalog& catalog, std::string_view id, Pricing pricing) {
  const Offering* offering = catalog.find_offering(id);
  REQUIRE(offering != nullptr);
  CostSettings settings;
  settings.pricing = pricing;
  const std::optional<Usd> usd = hourly_price_per_unit(*offering, settings);
  REQUIRE(usd.has_value());
  return usd->value;
}

}  // namespace

TEST_CASE("prices: the cheapest on-demand region becomes the offering's price", "[catalog][prices]") {
  const Catalog catalog = loaded();
  const Offering* offering = catalog.find_offering("acme-8x");
  REQUIRE(offering != nullptr);
  CHECK(offering->price.region == "us-east");
  CHECK(offering->price.on_demand == Usd(30));
  CHECK(offering->price.reserved_1y == Usd(20));
  REQUIRE(offering->other_regions.size() == 2);
  CHECK(offering->other_regions[0].region == "ap-south");  // ascending on-demand price
  CHECK(offering->other_regions[1].region == "eu-west");
  CHECK(offering->terms->reserved_discount.one_year == 0.25);  // the provider's, copied by check_references
}

TEST_CASE("prices: malformed lists are errors that name the field", "[catalog][prices]") {
  const auto error = [](const std::string& text) {
    const std::optional<Error> e = load_error(text);
    REQUIRE(e.has_value());
    return e->message() + " | " + e->hint();
  };
  CHECK_THAT(error(replaced("    prices:\n", "    region: us-east\n    prices:\n")),
             Catch::Contains("\"region\"") && Catch::Contains("not both"));
  CHECK_THAT(error(replaced("{region: eu-west, ", "{")), Catch::Contains("lacks \"region\""));
  CHECK_THAT(error(replaced("eu-west, price_per_hour_usd: 40, ", "eu-west, ")),
             Catch::Contains("lacks \"price_per_hour_usd\""));
  CHECK_THAT(error(replaced("region: ap-south", "region: us-east")), Catch::Contains("listed twice"));
  CHECK_THAT(error(replaced("price_per_hour_usd: 30,", "price_per_hr_usd: 30,")),
             Catch::Contains("unknown field \"price_per_hr_usd\""));
  CHECK_THAT(error(replaced("1y: 0.25", "1y: 1.2")), Catch::Contains("\"1y\"") && Catch::Contains("not below 1"));
  CHECK_THAT(error(replaced(", source: \"acme commitment page\"", "")), Catch::Contains("source"));
}

TEST_CASE("unit_price: a reservation's listed rate, else the provider's discount, else on demand",
          "[cost][reserved]") {
  const Catalog catalog = loaded();
  CHECK(price(catalog, "acme-8x", Pricing::on_demand) == 30.0);
  CHECK(price(catalog, "acme-8x", Pricing::reserved_1y) == 20.0);  // listed
  CHECK(price(catalog, "acme-8x", Pricing::reserved_3y) == 15.0);  // 30 × (1 − 0.5)
  CHECK(price(catalog, "other-1x", Pricing::reserved_3y) == 4.0);  // no discount stated: on demand
  CHECK(price(catalog, "free", Pricing::reserved_1y) == 0.0);
  const Offering& acme = *catalog.find_offering("acme-8x");
  CHECK(unit_price(acme, acme.price, Pricing::reserved_1y)->basis == PriceBasis::list);
  CHECK(unit_price(acme, acme.price, Pricing::reserved_3y)->basis == PriceBasis::provider_discount);
  const Offering& other = *catalog.find_offering("other-1x");
  CHECK(unit_price(other, other.price, Pricing::reserved_1y)->basis == PriceBasis::on_demand);
  CHECK_FALSE(unit_price(acme, acme.price, Pricing::spot).has_value());  // no spot in us-east
  CHECK(commitment_years(Pricing::reserved_3y) == 3);
  CHECK(commitment_years(Pricing::spot) == 0);
}

TEST_CASE("choose_regions: the cheapest region for the pricing, or the one named", "[cost][prices]") {
  const Catalog catalog = loaded();
  // Spot: us-east has none, eu-west is the cheapest that has one.
  const Catalog spot = choose_regions(catalog, "", Pricing::spot);
  CHECK(spot.find_offering("acme-8x")->price.region == "eu-west");
  CHECK(price(spot, "acme-8x", Pricing::spot) == 10.0);
  CHECK(spot.find_offering("acme-8x")->other_regions.size() == 2);
  // A region named: offerings priced there, at its price; free tiers stay.
  const Catalog ap = choose_regions(catalog, "ap-south", Pricing::on_demand);
  CHECK(ap.find_offering("acme-8x")->price.on_demand == Usd(35));
  CHECK(ap.find_offering("other-1x") == nullptr);
  CHECK(ap.find_offering("free") != nullptr);
  CHECK(ap.find_provider("acme") != nullptr);
  // Nothing has spot: the cheapest on-demand region stays, so the ranker says "no price".
  const Catalog none = choose_regions(catalog, "", Pricing::spot);
  CHECK(none.find_offering("other-1x")->price.region == "us-east");
}

TEST_CASE("dates: real days only, and whole months between two", "[support][date]") {
  CHECK(is_iso_date("2024-02-29"));
  CHECK_FALSE(is_iso_date("2023-02-29"));
  CHECK_FALSE(is_iso_date("2026-02-30"));
  CHECK_FALSE(is_iso_date("2026-13-01"));
  CHECK_FALSE(is_iso_date("26-01-01"));
  CHECK(months_between("2025-04-28", "2026-04-27") == 11);
  CHECK(months_between("2025-04-28", "2026-04-28") == 12);
  CHECK(months_between("2025-04-28", "2026-12-01") == 19);
  CHECK(months_between("2026-12-01", "2026-11-30") == -1);
}
