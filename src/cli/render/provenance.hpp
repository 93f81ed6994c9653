#pragma once
// Where an answer came from, for a CI log or a report kept for later: the mlsize version,
// the catalogue behind the prices and specs (its size and the dates of its sources), and
// every overlay and rules file that changed it (docs/cli.md#provenance).

#include <mlsize/catalog/catalog.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

struct Provenance {
  std::string version;  // mlsize's
  std::size_t devices = 0;
  std::size_t offerings = 0;
  std::string oldest_as_of;  // of every device and offering: the age of the oldest figure
  std::string newest_as_of;
  std::vector<std::string> catalog_overlays;  // user overlays, then --catalog files, in order
  std::vector<std::string> rules_files;       // --rules files, in order
};

// `catalog` as the command used it, with the files that were laid over it.
Provenance provenance_of(const Catalog& catalog, std::vector<std::string> catalog_overlays,
                         std::vector<std::string> rules_files);

nlohmann::ordered_json provenance_json(const Provenance& provenance);

// The table's footer line naming the overlays and rules files in force; empty without any.
std::string provenance_footer(const Provenance& provenance);

}  // namespace mlsize::cli
