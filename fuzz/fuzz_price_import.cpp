// Fuzzes `catalog import` on arbitrary price files, the input price_import_input.hpp's (format,
// cloud folder and --include-cpu in the first byte, the file after it). Reading either succeeds
// or throws mlsize::Error, and what succeeds must render to an overlay that loads over the
// catalogue it was made against, as run_import checks before it writes: a failure there is the
// importer's bug, so it aborts.
#include "cli/render/render_catalog.hpp"
#include "price_import_input.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// The catalogue's devices and providers without its offerings: what an overlay's offerings
// refer to. Copying it for each input, rather than the whole catalogue (about 500 offerings),
// makes the round trip four times faster; an imported offering replaces one of the same id
// in the real catalogue, which the loader does without reading the old one.
const mlsize::Catalog& references() {
  static const mlsize::Catalog k_references = [] {
    mlsize::Catalog skeleton;
    for (const mlsize::Device& device : fuzz::embedded_catalog().devices()) skeleton.put(device);
    for (const mlsize::Provider& provider : fuzz::embedded_catalog().providers()) skeleton.put(provider);
    return skeleton;
  }();
  return k_references;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<mlsize::PriceImport> imported = fuzz::import_input(data, size);
  if (!imported) return 0;
  (void)mlsize::cli::render_price_import_summary(*imported, "fuzz.yaml");
  if (imported->offerings.empty()) return 0;
  const std::string yaml = mlsize::cli::render_price_import_yaml(*imported, "fuzz");
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
