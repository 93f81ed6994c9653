#pragma once
// Where an answer came from, for a CI log or a report kept for later: the mlsize version,
// the catalogue behind the prices and specs (its size and the dates of its sources), and
// every overlay and rules file that changed it (docs/cli.md#provenance).

#include <mlsize/catalog/catalog.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

// The commit the build comes from: `git describe --always --dirty`, or "unknown"
// (generated at build time by cmake/WriteCommit.cmake).
const char* build_commit();

// "mlsize 0.1.0 (commit 1a2b3c4d5e6f)", what --version prints first.
std::string version_line();

// A flag the team's defaults set (docs/cli.md#defaults): "--pricing", "spot", and where
// it came from, "MLSIZE_PRICING" or "/etc/team/config.yaml:3".
struct DefaultSetting {
  std::string flag;
  std::string value;
  std::string origin;
};

struct Provenance {
  std::string version;       // mlsize's
  std::string commit;        // build_commit()
  bool with_catalog = true;  // false for `rules list`, which reads no catalogue: "catalog" is null
  std::size_t devices = 0;
  std::size_t offerings = 0;
  std::string oldest_as_of;  // of every device and offering: the age of the oldest figure
  std::string newest_as_of;
  std::vector<std::string> catalog_overlays;  // user overlays, then --catalog files, in order
  std::vector<std::string> rules_files;       // --rules files, in order
  std::vector<std::string> calibrations;      // --calibration overlays applied, in order
  std::vector<DefaultSetting> defaults;       // from the config file and MLSIZE_* variables
  // For the age of the prices a ranking used (price_note.hpp): the date the command ran
  // (YYYY-MM-DD; MLSIZE_TODAY overrides the clock), the age --max-price-age allows, and
  // the region --region asked for (empty: each offering's cheapest).
  std::string today;
  int max_price_age_months = 12;
  std::string region;
};

// `catalog` as the command used it, with the files that were laid over it.
Provenance provenance_of(const Catalog& catalog, std::vector<std::string> catalog_overlays,
                         std::vector<std::string> rules_files);
// For a command that reads rules but no catalogue.
Provenance provenance_of_rules(std::vector<std::string> rules_files);

nlohmann::ordered_json provenance_json(const Provenance& provenance);

// What every JSON document starts with (docs/cli.md#provenance).
struct JsonHeader {
  std::string command;  // "recommend", "catalog list", ...
  Provenance provenance;
};
inline constexpr int k_schema_version = 1;  // docs/cli.md#json-schemas says when it changes

// {"schema_version": 1, "command": ..., "provenance": {...}}, to which a renderer adds its keys.
nlohmann::ordered_json json_document(const JsonHeader& header);

// The table's footer line naming the overlays and rules files in force; empty without any.
std::string provenance_footer(const Provenance& provenance);

// Paths reach JSON, tables and HTML: bytes that are not printable UTF-8 are escaped.
std::vector<std::string> printable(std::vector<std::string> paths);

}  // namespace mlsize::cli
