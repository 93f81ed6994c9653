#include "cli/render/provenance.hpp"

#include <mlsize/support/utf8.hpp>

#include <utility>

namespace mlsize::cli {

std::vector<std::string> printable(std::vector<std::string> paths) {
  for (std::string& path : paths) path = escape_unprintable(path);
  return paths;
}

std::string version_line() {
  return std::string("mlsize ") + MLSIZE_VERSION + " (commit " + build_commit() + ")";
}

Provenance provenance_of_rules(std::vector<std::string> rules_files) {
  Provenance p;
  p.version = MLSIZE_VERSION;
  p.commit = build_commit();
  p.with_catalog = false;
  p.rules_files = printable(std::move(rules_files));
  return p;
}

Provenance provenance_of(const Catalog& catalog, std::vector<std::string> catalog_overlays,
                         std::vector<std::string> rules_files) {
  Provenance p = provenance_of_rules(std::move(rules_files));
  p.with_catalog = true;
  // The whole catalogue's, those a scoped read built and those it passed over.
  const Catalog::Unread& unread = catalog.unread();
  p.devices = catalog.devices().size() + unread.devices;
  p.offerings = catalog.offerings().size() + unread.offerings;
  // as_of is YYYY-MM-DD (checked on load): text order is date order.
  const auto note = [&](const std::string& as_of) {
    if (p.oldest_as_of.empty() || as_of < p.oldest_as_of) p.oldest_as_of = as_of;
    if (p.newest_as_of.empty() || as_of > p.newest_as_of) p.newest_as_of = as_of;
  };
  for (const Device& device : catalog.devices()) note(device.as_of);
  for (const Offering& offering : catalog.offerings()) note(offering.as_of);
  if (unread.offerings + unread.devices > 0) {
    note(unread.oldest_as_of);
    note(unread.newest_as_of);
  }
  p.catalog_overlays = printable(std::move(catalog_overlays));
  return p;
}

nlohmann::ordered_json provenance_json(const Provenance& p) {
  nlohmann::ordered_json catalog = nullptr;
  if (p.with_catalog) {
    catalog = {{"devices", p.devices},
               {"offerings", p.offerings},
               {"oldest_as_of", p.oldest_as_of},
               {"newest_as_of", p.newest_as_of},
               {"overlays", p.catalog_overlays}};
  }
  nlohmann::ordered_json defaults = nlohmann::ordered_json::array();
  for (const DefaultSetting& d : p.defaults) {
    defaults.push_back({{"flag", d.flag}, {"value", d.value}, {"from", escape_unprintable(d.origin)}});
  }
  nlohmann::ordered_json json = {{"mlsize_version", p.version},
                                 {"mlsize_commit", p.commit},
                                 {"catalog", std::move(catalog)},
                                 {"rules_files", p.rules_files},
                                 {"defaults", std::move(defaults)}};
  // Only when given: a report without calibration reads as before.
  if (!p.calibrations.empty()) json["calibrations"] = printable(p.calibrations);
  return json;
}

nlohmann::ordered_json json_document(const JsonHeader& header) {
  return {{"schema_version", k_schema_version},
          {"command", header.command},
          {"provenance", provenance_json(header.provenance)}};
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
  if (!p.calibrations.empty()) text += "Calibrations in force: " + list(printable(p.calibrations)) + ".\n";
  if (!p.defaults.empty()) {
    // A repeatable flag's values from one place are listed once: "--provider aws gcp (file:6)".
    std::vector<std::string> settings;
    for (std::size_t i = 0; i < p.defaults.size();) {
      const DefaultSetting& d = p.defaults[i];
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on literal + temporary string.
      std::string setting = d.flag;
      for (; i < p.defaults.size() && p.defaults[i].flag == d.flag && p.defaults[i].origin == d.origin; ++i) {
        if (p.defaults[i].value.empty()) continue;
        setting += ' ';
        setting += escape_unprintable(p.defaults[i].value);
      }
      setting += " (";
      setting += escape_unprintable(d.origin);
      setting += ")";
      settings.push_back(std::move(setting));
    }
    text += "Team defaults in force (--no-defaults ignores them): " + list(settings) + ".\n";
  }
  return text;
}

}  // namespace mlsize::cli
