#pragma once
// The input fuzz_import and fuzz_price_import share: the first byte picks the format
// (SkyPilot vms.csv or an Azure Retail Prices page, bit 7), the cloud folder the file is read
// from and --include-cpu (bit 6); the rest is the file, imported against the embedded catalogue.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/support/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fuzz {

inline const mlsize::Catalog& embedded_catalog() {
  static const mlsize::Catalog k_catalog = mlsize::load_default_catalog();
  return k_catalog;
}

// The import of one input, or none where the importer refused it with mlsize::Error (any
// other exception escapes: a finding).
inline std::optional<mlsize::PriceImport> import_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::nullopt;
  constexpr std::array<const char*, 6> k_folders{"aws", "gcp", "lambda", "vast", "cudo", "kubernetes"};
  const std::uint8_t selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool azure = (selector & 0x80) != 0;
  const std::string file = azure ? std::string("page.json")
                                 : std::string("catalogs/v9/") + k_folders[selector % k_folders.size()] + "/vms.csv";
  try {
    mlsize::PriceImportSettings settings;
    settings.as_of = "2026-07-09";
    if (selector & 0x40) settings.cpu_device = "xeon-8481c";
    mlsize::PriceImporter importer(embedded_catalog(), settings);
    importer.add(azure ? mlsize::PriceFormat::azure_retail : mlsize::PriceFormat::skypilot, text, file);
    return importer.result();
  } catch (const mlsize::Error&) {
    return std::nullopt;
  }
}

}  // namespace fuzz
