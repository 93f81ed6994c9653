// Fuzzes the catalogue loader on arbitrary YAML text, then plans the main job on what
// loaded: loading either succeeds or throws mlsize::Error; planning never crashes.
#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/rank/ranker.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mlsize::Catalog catalog;
  try {
    mlsize::load_catalog_yaml(catalog, text, "fuzz.yaml");
    catalog.check_references();
  } catch (const mlsize::Error&) {
    return 0;
  }
  mlsize::Workload workload;
  workload.model = mlsize::architecture_from_params(7e9);
  workload.parameters = mlsize::parameter_count_from_params(7e9, workload.model);
  workload.tokens = 5e10;
  mlsize::RecommendSettings settings;
  settings.max_devices = 64;
  const mlsize::Report report = mlsize::recommend(workload, catalog, settings);
  (void)report;
  return 0;
}
