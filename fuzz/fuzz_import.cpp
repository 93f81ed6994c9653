// Fuzzes `catalog import`'s readers alone, fast enough for ten million inputs: the first
// byte picks the format (SkyPilot vms.csv or an Azure Retail Prices page), the cloud folder
// and --include-cpu, as in fuzz_price_import; the rest is the file. Reading either succeeds
// or throws mlsize::Error, and what succeeds is summarised and rendered to YAML. Whether
// that YAML loads back is fuzz_price_import's question: it parses each overlay, at a
// twentieth of the speed.
#include "cli/render/render_catalog.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/support/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

const mlsize::Catalog& catalog() {
  static const mlsize::Catalog k_catalog = mlsize::load_default_catalog();
  return k_catalog;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  constexpr std::array<const char*, 6> k_folders{"aws", "gcp", "lambda", "vast", "cudo", "kubernetes"};
  const std::uint8_t selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool azure = (selector & 0x80) != 0;
  const std::string file = azure ? std::string("page.json")
                                 : std::string("catalogs/v9/") + k_folders[selector % k_folders.size()] + "/vms.csv";
  mlsize::PriceImport imported;
  try {
    mlsize::PriceImportSettings settings;
    settings.as_of = "2026-07-09";
    if (selector & 0x40) settings.cpu_device = "xeon-8481c";
    mlsize::PriceImporter importer(catalog(), settings);
    importer.add(azure ? mlsize::PriceFormat::azure_retail : mlsize::PriceFormat::skypilot, text, file);
    imported = importer.result();
  } catch (const mlsize::Error&) {
    return 0;
  }
  (void)mlsize::cli::render_price_import_summary(imported, "fuzz.yaml");
  if (!imported.offerings.empty()) (void)mlsize::cli::render_price_import_yaml(imported, "fuzz");
  return 0;
}
