#pragma once
// Reading catalogue YAML (see docs/catalogue.md for the schema) into a Catalog.

#include <mlsize/catalog/catalog.hpp>

#include <cstddef>
#include <string_view>

namespace mlsize {

// Larger catalogue files are refused before parsing.
inline constexpr std::size_t k_max_catalog_file_bytes = 8 * 1024 * 1024;

// Adds the devices and offerings of one YAML document to `catalog`; an entry whose id
// already exists replaces it. `source_name` names the text in error messages.
// Throws Error (input) with file:line:column, the offending line and a hint.
void load_catalog_yaml(Catalog& catalog, std::string_view text, std::string_view source_name);

// The catalogue compiled into the binary from data/catalog/*.yaml, read from the snapshot
// the build made of it (catalog_snapshot.hpp): no YAML is parsed.
Catalog load_default_catalog();

// The same catalogue parsed from its embedded YAML, with every check of load_catalog_yaml:
// what the build's snapshot is made from, and what tests compare it with. Without the
// refreshed prices (data/catalog/prices-*.yaml, made by scripts/refresh-catalog.py), it is
// the hand-written entries a refresh is made against, so that a refresh never feeds on itself.
Catalog load_default_catalog_yaml(bool with_refreshed_prices = true);

}  // namespace mlsize
