#pragma once
// Reading catalogue YAML (see docs/catalogue.md for the schema) into a Catalog.

#include <mlsize/catalog/catalog.hpp>

#include <cstddef>
#include <string_view>

namespace mlsize {

// What one run reads of catalogue overlays, all files together (and so each one): about
// 4,500 offerings as catalog import writes them (prices in several regions, 700 bytes
// each), which yaml-cpp loads in about 1.5 s and 120 MB on a 2-core VM: under the 2 s and
// 300 MB a run may take to start (bench/overlay_load.py, docs/performance.md, "Catalogue
// overlays"). More is refused before any of it is parsed. Real overlays are smaller: every
// SkyPilot v9 price file the tests hold imports to 190 KB, all of AWS's 4.6 MB vms.csv
// with its CPU rows to about 1.7 MB, the whole catalogue exported is 360 KB.
inline constexpr std::size_t k_max_overlay_bytes = 3 * 1024 * 1024;

// Adds the devices and offerings of one YAML document to `catalog`; an entry whose id
// already exists replaces it. `source_name` names the text in error messages.
// Throws Error (input) with file:line:column, the offending line and a hint.
void load_catalog_yaml(Catalog& catalog, std::string_view text, std::string_view source_name);

// The catalogue compiled into the binary from data/catalog/*.yaml, read from the snapshot
// the build made of it (catalog_snapshot.hpp): no YAML is parsed. `only_offering`: as
// read_catalog_snapshot's.
Catalog load_default_catalog(std::string_view only_offering = {});

// The same catalogue parsed from its embedded YAML, with every check of load_catalog_yaml:
// what the build's snapshot is made from, and what tests compare it with. Without the
// refreshed prices (data/catalog/prices-*.yaml, made by scripts/refresh-catalog.py), it is
// the hand-written entries a refresh is made against, so that a refresh never feeds on itself.
Catalog load_default_catalog_yaml(bool with_refreshed_prices = true);

}  // namespace mlsize
