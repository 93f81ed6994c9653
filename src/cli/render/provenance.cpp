#include "cli/render/provenance.hpp"

#include <mlsize/support/utf8.hpp>

#include <utility>

namespace mlsize::cli {

Provenance provenance_of(const Catalog& catalog, std::vector<std::string> catalog_overlays,
                         std::vector<std::string> rules_files) {
  Provenance p;
  p.version = MLSIZE_VERSION;
  p.devices = catalog.devices().size();
  p.offerings = catalog.offerings().size();
  // as_of is YYYY-MM-DD (checked on load): text order is date order.
  const auto note = [&](const std::string& as_of) {
    if (p.oldest_as_of.empty() || as_of < p.oldest_as_of) p.oldest_as_of = as_of;
    if (p.newest_as_of.empty() || as_of > p.newest_as_of) p.newest_as_of = as_of;
  };
  for (const Device& device : catalog.devices()) note(device.as_of);
  for (const Offering& offering : catalog.offerings()) note(offering.as_of);
  // Paths reach JSON and tables: bytes that are not printable UTF-8 are escaped.
  for (std::string& path : catalog_overlays) p.catalog_overlays.push_back(escape_unprintable(path));
  for (std::string& path : rules_files) p.rules_files.push_back(escape_unprintable(path));
  return p;
}

nlohmann::ordered_json provenance_json(const Provenance& p) {
  return {{"mlsize_version", p.version},
          {"catalog",
           {{"devices", p.devices},
            {"offerings", p.offerings},
            {"oldest_as_of", p.oldest_as_of},
            {"newest_as_of", p.newest_as_of},
            {"overlays", p.catalog_overlays}}},
          {"rules_files", p.rules_files}};
}

std::string provenance_footer(const Provenance& p) {
  std::string text;
  const auto list = [](const std::vector<std::string>& paths) {
    std::string joined;
    for (const std::string& path : paths) joined += (joined.empty() ? "" : ", ") + path;
    return joined;
  };
  if (!p.catalog_overlays.empty()) text += "Catalogue overlays in force: " + list(p.catalog_overlays) + ".\n";
  if (!p.rules_files.empty()) text += "Rules files in force: " + list(p.rules_files) + ".\n";
  return text;
}

}  // namespace mlsize::cli
