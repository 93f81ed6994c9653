// Fuzzes the reader of compiled catalogues (issue 49), then plans the main job on what
// loaded: reading either succeeds or throws mlsize::Error; planning never crashes.
// The first byte chooses: even, the rest is a payload of entries, wrapped here in a header
// with its size and checksum set (the checksum would otherwise keep the fuzzer out of the
// entry reader); odd, the rest is a whole file, header included.
#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/compiled_catalog.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace {

// The header's size and checksum fields, after the magic, byte order, format and layout.
constexpr std::size_t k_size_at = sizeof mlsize::k_compiled_catalog_magic - 1 + 12;
constexpr std::size_t k_payload_at = k_size_at + 16;

std::string wrapped(std::string_view payload) {
  std::string bytes = mlsize::write_compiled_catalog(mlsize::Catalog{}).substr(0, k_payload_at);
  const std::uint64_t size = payload.size();
  std::uint64_t sum = 0xcbf29ce484222325ull;  // FNV-1a 64, as compiled_catalog.cpp
  for (const char c : payload) {
    sum ^= static_cast<unsigned char>(c);
    sum *= 0x100000001b3ull;
  }
  std::memcpy(bytes.data() + k_size_at, &size, sizeof size);
  std::memcpy(bytes.data() + k_size_at + 8, &sum, sizeof sum);
  return bytes.append(payload);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string bytes = (data[0] & 1) != 0 ? std::string(rest) : wrapped(rest);
  static const mlsize::Catalog defaults = mlsize::load_default_catalog();
  mlsize::Catalog catalog = defaults;
  try {
    mlsize::lay_compiled_catalog(catalog, bytes, "fuzz.mlcat");
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
