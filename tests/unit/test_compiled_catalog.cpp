// Compiled catalogues (issue 49): what `catalog compile` and `catalog import --compiled`
// write reads back entry for entry, and a stale, corrupt or hostile file is refused with an
// input error at the file, whatever bytes it holds (fuzz/fuzz_compiled_catalog.cpp too).

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/compiled_catalog.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

using namespace mlsize;

namespace {

// The header's fields after the magic (compiled_catalog.hpp).
constexpr std::size_t k_magic_size = sizeof k_compiled_catalog_magic - 1;
constexpr std::size_t k_order_at = k_magic_size;
constexpr std::size_t k_format_at = k_order_at + 4;
constexpr std::size_t k_layout_at = k_format_at + 4;
constexpr std::size_t k_size_at = k_layout_at + 4;
constexpr std::size_t k_checksum_at = k_size_at + 8;
constexpr std::size_t k_payload_at = k_checksum_at + 8;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// `bytes` with the checksum of its payload set again: a damaged file made to look whole,
// as a hostile one would be.
std::string rechecked(std::string bytes) {
  const std::uint64_t sum = fnv1a(std::string_view(bytes).substr(k_payload_at));
  std::memcpy(bytes.data() + k_checksum_at, &sum, sizeof sum);
  return bytes;
}

Offering offering(std::string id, double price) {
  Offering o;
  o.id = std::move(id);
  o.provider = "acme";
  o.name = "acme 8x";
  o.device_id = "h100-sxm";
  o.devices_per_unit = 8;
  o.vcpus = 192;
  o.host_memory = Bytes(2048.0 * (1ull << 30));
  o.price.region = "us-east-1";
  o.price.on_demand = Usd(price);
  o.network_gbps = 3200.0;
  o.source = "https://acme.example/prices";
  o.as_of = "2026-07-01";
  o.defined_at = SourceLocation{"acme.yaml", 3, 5, "  - id: acme-8x"};
  return o;
}

Catalog overlay() {
  Catalog c;
  Provider p;
  p.id = "acme";
  p.billing.granularity_seconds = 60;
  p.source = "https://acme.example/terms";
  p.as_of = "2026-07-01";
  c.put(p);
  c.put(offering("acme-8x-h100", 20.0));
  c.put(offering("acme-8x-h100-b", 18.5));
  return c;
}

// The message of the input Error reading `bytes` throws, which must name the file.
std::string refusal(const std::string& bytes) {
  try {
    read_compiled_catalog(bytes, "big.mlcat");
  } catch (const Error& error) {
    CHECK(error.kind() == ErrorKind::input);
    CHECK(error.location().file == "big.mlcat");
    CHECK_FALSE(error.hint().empty());
    return error.message();
  }
  FAIL("read_compiled_catalog accepted the bytes");
  return {};
}

}  // namespace

TEST_CASE("a compiled catalogue reads back entry for entry, and lays over the catalogue", "[compiled]") {
  const Catalog written = overlay();
  const std::string bytes = write_compiled_catalog(written);
  CHECK(is_compiled_catalog(bytes));
  CHECK_FALSE(is_compiled_catalog("offerings:\n  - id: x\n"));
  const Catalog read = read_compiled_catalog(bytes, "big.mlcat");
  REQUIRE(read.offerings().size() == 2);
  CHECK(read.offerings() == written.offerings());
  CHECK(read.providers() == written.providers());

  Catalog catalog = load_default_catalog();
  const std::size_t before = catalog.offerings().size();
  catalog.lay_over(read_compiled_catalog(bytes, "big.mlcat"));
  catalog.check_references();
  CHECK(catalog.offerings().size() == before + 2);
  // The provider's terms reach its offerings, one copy shared by them.
  const Offering& mine = *catalog.find_offering("acme-8x-h100");
  CHECK(mine.terms->billing.granularity_seconds == 60);
  CHECK(&*mine.terms == &*catalog.find_offering("acme-8x-h100-b")->terms);
}

TEST_CASE("a stale compiled catalogue is refused, to be compiled again", "[compiled]") {
  const std::string bytes = write_compiled_catalog(overlay());
  std::string layout = bytes;
  layout[k_layout_at] = static_cast<char>(layout[k_layout_at] + 1);
  CHECK_THAT(refusal(layout), Catch::Contains("stale"));
  std::string format = bytes;
  format[k_format_at] = static_cast<char>(format[k_format_at] + 1);
  CHECK_THAT(refusal(format), Catch::Contains("stale"));
  std::string order = bytes;
  std::swap(order[k_order_at], order[k_order_at + 3]);
  CHECK_THAT(refusal(order), Catch::Contains("byte order"));
}

TEST_CASE("a corrupt compiled catalogue is refused before any entry is used", "[compiled]") {
  const std::string bytes = write_compiled_catalog(overlay());
  CHECK_THAT(refusal("offerings: []\n"), Catch::Contains("not a compiled catalogue"));
  CHECK_THAT(refusal(bytes.substr(0, k_payload_at - 3)), Catch::Contains("header"));
  CHECK_THAT(refusal(bytes.substr(0, bytes.size() - 1)), Catch::Contains("bytes of entries"));
  std::string flipped = bytes;
  flipped[bytes.size() / 2 + k_payload_at / 2] ^= 0x20;
  CHECK_THAT(refusal(flipped), Catch::Contains("checksum"));
  // Truncated entries with a matching header, size and checksum: a hostile file.
  std::string truncated = bytes.substr(0, bytes.size() - 40);
  const std::uint64_t size = truncated.size() - k_payload_at;
  std::memcpy(truncated.data() + k_size_at, &size, sizeof size);
  CHECK_THAT(refusal(rechecked(truncated)), Catch::Contains("ends inside an entry"));
}

TEST_CASE("a compiled catalogue's entries are validated as the YAML reader validates them", "[compiled]") {
  const auto with = [](auto edit) {
    Catalog c = overlay();
    Offering o = offering("acme-8x-h100", 20.0);
    edit(o);
    c.put(o);
    return write_compiled_catalog(c);
  };
  CHECK_THAT(refusal(with([](Offering& o) { o.devices_per_unit = 0; })), Catch::Contains("devices_per_unit"));
  CHECK_THAT(refusal(with([](Offering& o) { o.price.on_demand = Usd(-1); })), Catch::Contains("price_per_hour_usd"));
  CHECK_THAT(refusal(with([](Offering& o) { o.price.on_demand.reset(); })), Catch::Contains("is missing"));
  CHECK_THAT(refusal(with([](Offering& o) { o.as_of = "July 2026"; })), Catch::Contains("as_of"));
  CHECK_THAT(refusal(with([](Offering& o) { o.id = "Bad Id"; })), Catch::Contains("not a valid id"));
  CHECK_THAT(refusal(with([](Offering& o) { o.price.region = "us east\n1"; })), Catch::Contains("printable"));
  // U+2028 would break a line of an emitted YAML or SkyPilot task (issue Z2).
  CHECK_THAT(refusal(with([](Offering& o) { o.name = "acme\u2028run: rm -rf /"; })), Catch::Contains("U+2028"));
  CHECK_THAT(refusal(with([](Offering& o) { o.host_memory = Bytes(std::numeric_limits<double>::infinity()); })),
             Catch::Contains("not finite"));
  CHECK_THAT(refusal(with([](Offering& o) { o.network_gbps = std::numeric_limits<double>::quiet_NaN(); })),
             Catch::Contains("not finite"));
  // The source line an error quotes is written escaped, so a comment on it does not make
  // the file unreadable.
  CHECK_NOTHROW(read_compiled_catalog(with([](Offering& o) { o.defined_at.line_text = "  - id: acme-8x  # \u2028"; }),
                                      "big.mlcat"));
}

TEST_CASE("a compiled catalogue's counts and enums must be what its bytes can hold", "[compiled]") {
  Catalog c;
  c.put(offering("acme-8x-h100", 20.0));
  const std::string bytes = write_compiled_catalog(c);
  // The payload starts with the provider count (0) and the device count (0), then the
  // offering count (1), then the offering: its id's length and text, its date's, the length
  // of the rest, then the provider's length and text, the kind.
  std::string many = bytes;
  const std::uint32_t huge = 0xFFFFFFF0u;
  std::memcpy(many.data() + k_payload_at + 8, &huge, sizeof huge);
  CHECK_THAT(refusal(rechecked(many)), Catch::Contains("count beyond its bytes"));
  const std::size_t length_at = k_payload_at + 12 + 4 + std::string("acme-8x-h100").size() + 4 + 10;
  std::string longer = bytes;
  std::uint32_t length = 0;
  std::memcpy(&length, longer.data() + length_at, sizeof length);
  length += 4;
  std::memcpy(longer.data() + length_at, &length, sizeof length);
  CHECK_THAT(refusal(rechecked(longer)), Catch::Contains("length does not match"));
  // A device's length is checked alike: no providers, one device (its id, date, no aliases,
  // then the length of the rest).
  Catalog with_device;
  Device device;
  device.id = "acme-x1";
  device.name = "Acme X1";
  device.vendor = "Acme";
  device.memory = Bytes(80e9);
  device.peak_flops_per_s[static_cast<std::size_t>(DType::bf16)] = 1e15;
  device.source = "https://acme.example/x1";
  device.as_of = "2026-07-01";
  with_device.put(device);
  std::string device_bytes = write_compiled_catalog(with_device);
  const std::size_t device_length_at = k_payload_at + 8 + 4 + device.id.size() + 4 + 10 + 4;
  std::uint32_t device_length = 0;
  std::memcpy(&device_length, device_bytes.data() + device_length_at, sizeof device_length);
  CHECK_NOTHROW(read_compiled_catalog(device_bytes, "big.mlcat"));  // whole, it reads
  device_length -= 1;
  std::memcpy(device_bytes.data() + device_length_at, &device_length, sizeof device_length);
  CHECK_THAT(refusal(rechecked(device_bytes)), Catch::Contains("device whose length does not match"));
  std::string kind = bytes;
  const std::size_t kind_at = length_at + 4 + 4 + 4;
  const std::uint32_t bad_kind = 7;
  std::memcpy(kind.data() + kind_at, &bad_kind, sizeof bad_kind);
  CHECK_THAT(refusal(rechecked(kind)), Catch::Contains("enum value out of range"));
}
