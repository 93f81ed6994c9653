// Fuzzes `catalog import` on arbitrary price files: the first byte picks the format (SkyPilot
// vms.csv or an Azure Retail Prices page) and the cloud folder the file is read from; the rest
// is the file. Reading either succeeds or throws mlsize::Error, and what succeeds must render to
// an overlay that loads over the catalogue it was made against, as run_import checks before it
// writes: a failure there is the importer's bug, so it aborts.
#include "cli/render/render_catalog.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/support/error.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

const mlsize::Catalog& catalog() {
  static const mlsize::Catalog k_catalog = mlsize::load_default_catalog();
  return k_catalog;
}

// The catalogue's devices and providers without its offerings: what an overlay's offerings
// refer to. Copying it for each input, rather than the whole catalogue (about 500 offerings),
// makes the round trip four times faster; an imported offering replaces one of the same id
// in the real catalogue, which the loader does without reading the old one.
const mlsize::Catalog& references() {
  static const mlsize::Catalog k_references = [] {
    mlsize::Catalog skeleton;
    for (const mlsize::Device& device : catalog().devices()) skeleton.put(device);
    for (const mlsize::Provider& provider : catalog().providers()) skeleton.put(provider);
    return skeleton;
  }();
  return k_references;
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
  if (imported.offerings.empty()) return 0;
  const std::string yaml = mlsize::cli::render_price_import_yaml(imported, "fuzz");
  if (yaml.size() > mlsize::k_max_overlay_bytes) return 0;  // refused before the check
  mlsize::Catalog check = references();
  try {
    mlsize::load_catalog_yaml(check, yaml, "fuzz.yaml");
    check.check_references();
  } catch (const mlsize::Error&) {
    std::abort();  // the importer wrote an overlay the loader refuses
  }
  return 0;
}
