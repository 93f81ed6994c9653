// Fuzzes `catalog import`'s readers alone, fast enough for ten million inputs: the input is
// price_import_input.hpp's (format, cloud folder and --include-cpu in the first byte, the file
// after it). Reading either succeeds or throws mlsize::Error, and what succeeds is summarised
// and rendered to YAML. Whether that YAML loads back is fuzz_price_import's question: it
// parses each overlay, at a twentieth of the speed.
#include "cli/render/render_catalog.hpp"
#include "price_import_input.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<mlsize::PriceImport> imported = fuzz::import_input(data, size);
  if (!imported) return 0;
  (void)mlsize::cli::render_price_import_summary(*imported, "fuzz.yaml");
  if (!imported->offerings.empty()) (void)mlsize::cli::render_price_import_yaml(*imported, "fuzz");
  return 0;
}
