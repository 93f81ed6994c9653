#pragma once
// Renderers of catalogue entries for `mlsize catalog`: pure functions returning text.

#include "cli/render/provenance.hpp"
#include "cli/render/render_rows.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/catalog/price_import.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

// Entries to show, in catalogue order; they point into a Catalog that outlives them.
struct CatalogSelection {
  std::vector<const Device*> devices;
  std::vector<const Offering*> offerings;
};

// Everything in the catalogue.
CatalogSelection select_all(const Catalog& catalog);

// Two tables (devices, offerings) with the main figures.
std::string render_catalog_table(const CatalogSelection& selection, const TableStyle& style);
// {"schema_version": 1, "command", "provenance", "devices": [...], "offerings": [...]},
// every field, SI units.
std::string render_catalog_json(const CatalogSelection& selection, const JsonHeader& header);
// One table (for CSV, TSV, Markdown): an `entry` column (device or offering), then the
// fields of both in the catalogue file's units.
Rows catalog_rows(const CatalogSelection& selection);
// A catalogue file in the schema that load_catalog_yaml reads (docs/catalogue.md);
// `header` is written first as # comment lines.
std::string render_catalog_yaml(const CatalogSelection& selection, const std::string& header = {});

// `catalog import`'s overlay: its offerings, each with a `prices:` list, in the catalogue
// file's schema; `header` is written first as # comment lines.
std::string render_price_import_yaml(const PriceImport& imported, const std::string& header);
// What was written and what was left out, by reason, for stderr.
std::string render_price_import_summary(const PriceImport& imported, const std::string& output_path);

}  // namespace mlsize::cli
