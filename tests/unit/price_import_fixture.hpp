#pragma once
// What the catalog import tests share: the real price files under tests/data/, the embedded
// catalogue they are imported against, and reading an import's result.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::testing {

// A file under tests/data/, whole; it must not be empty.
inline std::string test_file(const std::string& path) {
  std::ifstream in(std::string(MLSIZE_TEST_DATA_DIR) + "/" + path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  REQUIRE(!text.str().empty());
  return text.str();
}

inline const Catalog& embedded_catalog() {
  static const Catalog k_catalog = load_default_catalog();
  return k_catalog;
}

// Every region's prices of an imported offering: its `price`, then `other_regions`.
inline std::vector<RegionalPrice> prices_of(const Offering& imported) {
  std::vector<RegionalPrice> prices{imported.price};
  prices.insert(prices.end(), imported.other_regions.begin(), imported.other_regions.end());
  return prices;
}

// The rows skipped for reasons that start with `reason_start`.
inline int skipped(const PriceImport& imported, std::string_view reason_start) {
  int rows = 0;
  for (const SkippedRows& entry : imported.skipped) {
    if (std::string_view(entry.reason).starts_with(reason_start)) rows += entry.rows;
  }
  return rows;
}

}  // namespace mlsize::testing
