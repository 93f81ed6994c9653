#include <mlsize/catalog/catalog.hpp>
#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <optional>
#include <set>
#include <string>
#include <string_view>

using namespace mlsize;

namespace {

// A complete device, lines 1-17 of any text that starts with it.
constexpr std::string_view k_device_yaml = R"(devices:
  - id: test-gpu
    name: "Test GPU 80GB"
    kind: gpu
    vendor: acme
    memory_gb: 80
    memory_bandwidth_gbs: 2039
    peak_tflops:
      fp32: 19.5
      bf16: 312
    interconnect:
      kind: nvlink
      bandwidth_gbs: 600
    tdp_w: 400
    launch_price_usd: 15000
    source: "acme datasheet rev 2"
    as_of: "2024-01-15"
)";

// A complete cloud offering of test-gpu, lines 1-13 of any text that starts with it.
constexpr std::string_view k_offering_yaml = R"(offerings:
  - id: acme-cloud-8x
    provider: acme
    kind: cloud
    name: "8x Test GPU"
    device: test-gpu
    devices_per_unit: 8
    vcpus: 96
    host_memory_gib: 1152
    price_per_hour_usd: 32.5
    spot_price_per_hour_usd: 9.75
    region: us-east-1
    max_units: 4
    source: "acme price list"
    as_of: "2024-02-01"
)";

// `text` with the first `from` replaced by `to`; fails the test when `from` is absent.
std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string result(text);
  const std::size_t at = result.find(from);
  REQUIRE(at != std::string::npos);
  result.replace(at, from.size(), to);
  return result;
}

std::string device_with(std::string_view from, std::string_view to) {
  return replaced(k_device_yaml, from, to);
}

std::string offering_with(std::string_view from, std::string_view to) {
  return std::string(k_device_yaml) + replaced(k_offering_yaml, from, to);
}

// The error loading `text` into `catalog` throws, or nothing.
std::optional<Error> load_error(Catalog& catalog, std::string_view text) {
  try {
    load_catalog_yaml(catalog, text, "test.yaml");
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

std::optional<Error> load_error(std::string_view text) {
  Catalog catalog;
  return load_error(catalog, text);
}

// Loading `text` fails with exactly this message, hint and place.
void check_load_error(std::string_view text, std::string_view message, std::string_view hint, std::string_view where,
                      std::string_view line_text) {
  const std::optional<Error> error = load_error(text);
  REQUIRE(error.has_value());
  CHECK(error->kind() == ErrorKind::input);
  CHECK(error->message() == message);
  CHECK(error->hint() == hint);
  CHECK(error->where() == where);
  CHECK(error->location().file == "test.yaml");
  CHECK(error->location().line_text == line_text);
}

bool valid_date(std::string_view date) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    if (date[i] < '0' || date[i] > '9') return false;
  }
  const int month = (date[5] - '0') * 10 + (date[6] - '0');
  const int day = (date[8] - '0') * 10 + (date[9] - '0');
  return date.substr(0, 2) == "20" && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// Ten anchors, each a list of ten aliases of the one before: 10^10 leaves if expanded.
std::string alias_bomb(std::string_view indent) {
  std::string text = std::string(indent) + "- &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level <= 10; ++level) {
    text += std::string(indent) + "- &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) {
      if (i > 0) text += ", ";
      text += "*a" + std::to_string(level - 1);
    }
    text += "]\n";
  }
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Valid input

TEST_CASE("load_catalog_yaml reads a device with every field", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, k_device_yaml, "test.yaml");
  REQUIRE(catalog.devices().size() == 1);
  const Device* device = catalog.find_device("test-gpu");
  REQUIRE(device != nullptr);
  CHECK(device->name == "Test GPU 80GB");
  CHECK(device->kind == DeviceKind::gpu);
  CHECK(device->vendor == "acme");
  REQUIRE(device->memory.has_value());
  CHECK(device->memory->value == 80e9);  // memory_gb is decimal
  CHECK(device->memory_bandwidth_bytes_per_s == 2039e9);
  CHECK(device->peak(DType::fp32) == Approx(19.5e12));
  CHECK(device->peak(DType::bf16) == 312e12);
  CHECK_FALSE(device->peak(DType::fp16).has_value());
  CHECK_FALSE(device->peak(DType::fp8).has_value());
  REQUIRE(device->interconnect.has_value());
  CHECK(device->interconnect->kind == "nvlink");
  CHECK(device->interconnect->bandwidth_bytes_per_s == 600e9);
  CHECK(device->tdp_w == 400.0);
  REQUIRE(device->launch_price.has_value());
  CHECK(device->launch_price->value == 15000.0);
  CHECK(device->source == "acme datasheet rev 2");
  CHECK(device->as_of == "2024-01-15");
  CHECK(device->defined_at.file == "test.yaml");
  CHECK(device->defined_at.line == 2);
  CHECK(device->defined_at.column == 5);
  CHECK(device->defined_at.line_text == "  - id: test-gpu");
}

TEST_CASE("load_catalog_yaml reads a cloud offering with every field", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, std::string(k_device_yaml) + std::string(k_offering_yaml), "test.yaml");
  REQUIRE(catalog.offerings().size() == 1);
  const Offering* offering = catalog.find_offering("acme-cloud-8x");
  REQUIRE(offering != nullptr);
  CHECK(offering->provider == "acme");
  CHECK(offering->kind == OfferingKind::cloud);
  CHECK(offering->name == "8x Test GPU");
  CHECK(offering->device_id == "test-gpu");
  CHECK(offering->devices_per_unit == 8);
  CHECK(offering->vcpus == 96);
  REQUIRE(offering->host_memory.has_value());
  CHECK(offering->host_memory->value == 1152.0 * 1024 * 1024 * 1024);  // host_memory_gib is binary
  REQUIRE(offering->price.on_demand.has_value());
  CHECK(offering->price.on_demand->value == 32.5);
  REQUIRE(offering->price.spot.has_value());
  CHECK(offering->price.spot->value == 9.75);
  CHECK(offering->price.region == "us-east-1");
  CHECK(offering->max_units == 4);
  CHECK_FALSE(offering->purchase_price.has_value());
  CHECK(offering->source == "acme price list");
  CHECK(offering->as_of == "2024-02-01");
  CHECK(offering->defined_at.line == 19);
  CHECK_NOTHROW(catalog.check_references());
}

TEST_CASE("load_catalog_yaml reads on-prem and free-tier offerings", "[catalog]") {
  const std::string text = std::string(k_device_yaml) + R"(offerings:
  - id: acme-card
    provider: on-prem
    kind: on-prem
    name: "Test GPU card"
    device: test-gpu
    devices_per_unit: 1
    purchase_price_usd: 25000
    power_w: 700
    max_units: 1
    source: "reseller quote"
    as_of: "2024-03-01"
  - id: acme-free
    provider: acme
    kind: free-tier
    name: "Free notebook"
    device: test-gpu
    devices_per_unit: 1
    price_per_hour_usd: 0
    limits:
      session_hours: 12
      weekly_hours: 30
      note: "subject to availability"
    source: "acme faq"
    as_of: "2024-03-02"
)";
  Catalog catalog;
  load_catalog_yaml(catalog, text, "test.yaml");
  const Offering* card = catalog.find_offering("acme-card");
  REQUIRE(card != nullptr);
  CHECK(card->kind == OfferingKind::on_prem);
  REQUIRE(card->purchase_price.has_value());
  CHECK(card->purchase_price->value == 25000.0);
  CHECK(card->power_w == 700.0);
  CHECK_FALSE(card->price.on_demand.has_value());
  const Offering* free = catalog.find_offering("acme-free");
  REQUIRE(free != nullptr);
  CHECK(free->kind == OfferingKind::free_tier);
  REQUIRE(free->price.on_demand.has_value());
  CHECK(free->price.on_demand->value == 0.0);
  CHECK(free->limits.session_hours == 12.0);
  CHECK(free->limits.weekly_hours == 30.0);
  CHECK(free->limits.note == "subject to availability");
}

TEST_CASE("load_catalog_yaml lets cpu devices omit memory_gb", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog,
                    device_with("kind: gpu\n    vendor: acme\n    memory_gb: 80\n", "kind: cpu\n    vendor: acme\n"),
                    "test.yaml");
  const Device* device = catalog.find_device("test-gpu");
  REQUIRE(device != nullptr);
  CHECK(device->kind == DeviceKind::cpu);
  CHECK_FALSE(device->memory.has_value());
}

TEST_CASE("a cpu device states the cores its peak covers, accelerators may not", "[catalog]") {
  const std::string cpu = device_with("kind: gpu\n    vendor: acme\n    memory_gb: 80\n", "kind: cpu\n    vendor: acme\n");
  Catalog catalog;
  load_catalog_yaml(catalog, replaced(cpu, "    interconnect:", "    cores: 48\n    interconnect:"), "test.yaml");
  const Device* device = catalog.find_device("test-gpu");
  REQUIRE(device != nullptr);
  CHECK(device->cores == 48);
  // Without cores an overlay's CPU still loads; its offerings get its whole peak.
  CHECK_FALSE(load_error(cpu).has_value());
  // cores is refused on accelerators.
  const std::optional<Error> error = load_error(replaced(k_device_yaml, "    interconnect:", "    cores: 4\n    interconnect:"));
  REQUIRE(error.has_value());
  CHECK(error->message().find("cores") != std::string::npos);
  CHECK(error->message().find("not a cpu") != std::string::npos);
}

TEST_CASE("load_catalog_yaml accepts flow style, CRLF line ends and quoted numbers", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(
      catalog, "{devices: [{id: a1, name: A, kind: tpu, vendor: v, memory_gb: \"16\", source: s, as_of: 2024-01-01}]}",
      "test.yaml");
  load_catalog_yaml(catalog,
                    "devices:\r\n  - id: b2\r\n    name: B\r\n    kind: npu\r\n    vendor: v\r\n"
                    "    memory_gb: 1.5e1\r\n    source: s\r\n    as_of: \"2024-02-29\"\r\n",
                    "test.yaml");
  REQUIRE(catalog.find_device("a1") != nullptr);
  CHECK(catalog.find_device("a1")->memory->value == 16e9);
  REQUIRE(catalog.find_device("b2") != nullptr);
  CHECK(catalog.find_device("b2")->kind == DeviceKind::npu);
  CHECK(catalog.find_device("b2")->memory->value == 15e9);
}

TEST_CASE("load_catalog_yaml accepts a file with only devices, only offerings or empty lists", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, "devices: []\nofferings: []\n", "test.yaml");
  CHECK(catalog.devices().empty());
  CHECK(catalog.offerings().empty());
  load_catalog_yaml(catalog, k_device_yaml, "devices.yaml");
  load_catalog_yaml(catalog, k_offering_yaml, "offerings.yaml");
  CHECK(catalog.devices().size() == 1);
  CHECK(catalog.offerings().size() == 1);
  CHECK(catalog.find_offering("acme-cloud-8x")->defined_at.file == "offerings.yaml");
  CHECK_NOTHROW(catalog.check_references());
}

TEST_CASE("load_catalog_yaml replaces an entry loaded earlier with the same id", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, std::string(k_device_yaml) + std::string(k_offering_yaml), "base.yaml");
  load_catalog_yaml(catalog, device_with("memory_gb: 80", "memory_gb: 40"), "override.yaml");
  load_catalog_yaml(catalog, replaced(k_offering_yaml, "32.5", "30"), "override.yaml");
  REQUIRE(catalog.devices().size() == 1);
  REQUIRE(catalog.offerings().size() == 1);
  CHECK(catalog.find_device("test-gpu")->memory->value == 40e9);
  CHECK(catalog.find_device("test-gpu")->defined_at.file == "override.yaml");
  CHECK(catalog.find_offering("acme-cloud-8x")->price.on_demand->value == 30.0);
}

TEST_CASE("load_catalog_yaml keeps the catalogue unchanged when a file has an error", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, k_device_yaml, "base.yaml");
  // The first entry is valid and would replace test-gpu; the second has an error.
  const std::string text = device_with("memory_gb: 80", "memory_gb: 40") + R"(  - id: second-gpu
    name: "Second"
    kind: gpu
    vendor: acme
    memory_gb: -1
    source: s
    as_of: "2024-01-01"
)";
  const std::optional<Error> error = load_error(catalog, text);
  REQUIRE(error.has_value());
  CHECK(error->message() == "field \"memory_gb\" of device \"second-gpu\" must be greater than 0 (got \"-1\")");
  REQUIRE(catalog.devices().size() == 1);
  CHECK(catalog.find_device("test-gpu")->memory->value == 80e9);
  CHECK(catalog.find_device("test-gpu")->defined_at.file == "base.yaml");
  CHECK(catalog.find_device("second-gpu") == nullptr);
}

TEST_CASE("load_catalog_yaml adds no devices when the offerings of the same file have an error", "[catalog]") {
  Catalog catalog;
  CHECK(load_error(catalog, offering_with("devices_per_unit: 8", "devices_per_unit: eight")).has_value());
  CHECK(catalog.devices().empty());
  CHECK(catalog.offerings().empty());
}

// ---------------------------------------------------------------------------------------------
// Field names

TEST_CASE("load_catalog_yaml rejects unknown fields with a suggestion", "[catalog]") {
  check_load_error(device_with("memory_gb: 80", "memroy_gb: 80"), "unknown field \"memroy_gb\" in device \"test-gpu\"",
                   "did you mean \"memory_gb\"?", "test.yaml:6:5", "    memroy_gb: 80");
  check_load_error(offering_with("price_per_hour_usd", "price_per_hr_usd"),
                   "unknown field \"price_per_hr_usd\" in offering \"acme-cloud-8x\"",
                   "did you mean \"price_per_hour_usd\"?", "test.yaml:27:5", "    price_per_hr_usd: 32.5");
  check_load_error(device_with("bf16: 312", "bf61: 312"),
                   "unknown field \"bf61\" in peak_tflops of device \"test-gpu\"", "did you mean \"bf16\"?",
                   "test.yaml:10:7", "      bf61: 312");
  check_load_error("device:\n  - id: x\n", "unknown field \"device\" in the catalogue file",
                   "did you mean \"devices\"?", "test.yaml:1:1", "device:");
}

TEST_CASE("load_catalog_yaml lists the accepted fields when no field name is close", "[catalog]") {
  check_load_error(device_with("memory_gb: 80", "zzzzzz: 80"), "unknown field \"zzzzzz\" in device \"test-gpu\"",
                   "accepted fields: id, name, kind, vendor, memory_gib, memory_gb, reserved_gib, "
                   "memory_bandwidth_gbs, peak_tflops, cores, interconnect, tdp_w, host_arch, launch_price_usd, source, as_of, aliases, "
                   "compute_capability, multiprocessors",
                   "test.yaml:6:5", "    zzzzzz: 80");
  check_load_error(offering_with("    region: us-east-1\n", "    limits:\n      foo_bar_baz: 1\n"),
                   "unknown field \"foo_bar_baz\" in limits of offering \"acme-cloud-8x\"",
                   "accepted fields: session_hours, weekly_hours, note", "test.yaml:30:7", "      foo_bar_baz: 1");
}

TEST_CASE("load_catalog_yaml explains that YAML merge keys are not supported", "[catalog]") {
  check_load_error("devices:\n  - <<: {id: a}\n", "unknown field \"<<\" in a device",
                   "YAML merge keys (<<) are not supported; write the fields out", "test.yaml:2:5", "  - <<: {id: a}");
}

TEST_CASE("load_catalog_yaml rejects a duplicate key in a mapping", "[catalog]") {
  check_load_error(device_with("    memory_gb: 80\n", "    memory_gb: 80\n    memory_gb: 40\n"),
                   "duplicate field \"memory_gb\" in device \"test-gpu\" (first at line 6)",
                   "keep one of them: YAML readers keep one silently, and the two disagree or repeat", "test.yaml:7:5", "    memory_gb: 40");
  check_load_error("devices: []\ndevices: []\n", "duplicate field \"devices\" in the catalogue file (first at line 1)",
                   "keep one of them: YAML readers keep one silently, and the two disagree or repeat",
                   "test.yaml:2:1", "devices: []");
}

TEST_CASE("load_catalog_yaml rejects field names that are not plain words", "[catalog]") {
  check_load_error("devices:\n  - ? [a, b]\n    : 1\n", "field names in a device must be plain words", "",
                   "test.yaml:2:7", "  - ? [a, b]");
}

// ---------------------------------------------------------------------------------------------
// Required fields

TEST_CASE("load_catalog_yaml rejects a device without a required field", "[catalog]") {
  check_load_error(device_with("    name: \"Test GPU 80GB\"\n", ""),
                   "device \"test-gpu\" lacks the required field \"name\"", "", "test.yaml:2:5", "  - id: test-gpu");
  check_load_error(device_with("    source: \"acme datasheet rev 2\"\n", ""),
                   "device \"test-gpu\" lacks the required field \"source\"", "", "test.yaml:2:5", "  - id: test-gpu");
  check_load_error(device_with("    as_of: \"2024-01-15\"\n", ""),
                   "device \"test-gpu\" lacks the required field \"as_of\"", "", "test.yaml:2:5", "  - id: test-gpu");
  check_load_error(device_with("  - id: test-gpu\n    name", "  - name"), "a device lacks the required field \"id\"",
                   "", "test.yaml:2:5", "  - name: \"Test GPU 80GB\"");
  check_load_error(device_with("      bandwidth_gbs: 600\n", ""),
                   "interconnect of device \"test-gpu\" lacks the required field \"bandwidth_gbs\"", "",
                   "test.yaml:12:7", "      kind: nvlink");
}

TEST_CASE("load_catalog_yaml requires memory_gb for every device but cpus", "[catalog]") {
  check_load_error(device_with("    memory_gb: 80\n", ""), "device \"test-gpu\" lacks the required field \"memory_gib\"",
                   "only cpu devices may omit memory_gib (their memory is the offering's host_memory_gib)",
                   "test.yaml:2:5", "  - id: test-gpu");
}

TEST_CASE("memory_gib is binary, memory_gb decimal, and reserved_gib comes off the usable memory", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, device_with("memory_gb: 80", "memory_gib: 79.647\n    reserved_gib: 1"), "gib.yaml");
  const Device* device = catalog.find_device("test-gpu");
  REQUIRE(device != nullptr);
  CHECK(device->memory->value == Approx(79.647 * 1073741824.0));
  CHECK(device->usable_memory()->value == Approx(78.647 * 1073741824.0));
  check_load_error(device_with("memory_gb: 80", "memory_gb: 80\n    memory_gib: 80"),
                   "field \"memory_gb\" of device \"test-gpu\" is given with memory_gib (got \"80\")",
                   "expected memory_gib (binary) or memory_gb (decimal), not both", "test.yaml:6:16",
                   "    memory_gb: 80");
  check_load_error(device_with("memory_gb: 80", "memory_gb: 80\n    reserved_gib: 80"),
                   "field \"reserved_gib\" of device \"test-gpu\" is not below the device's memory (got \"80\")",
                   "expected the GiB the runtime keeps, below the memory, e.g. 0.4", "test.yaml:7:19",
                   "    reserved_gib: 80");
}

TEST_CASE("load_catalog_yaml rejects an offering without a required field", "[catalog]") {
  check_load_error(offering_with("    devices_per_unit: 8\n", ""),
                   "offering \"acme-cloud-8x\" lacks the required field \"devices_per_unit\"", "", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
  check_load_error(offering_with("    device: test-gpu\n", ""),
                   "offering \"acme-cloud-8x\" lacks the required field \"device\"", "", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
  check_load_error(offering_with("    provider: acme\n", ""),
                   "offering \"acme-cloud-8x\" lacks the required field \"provider\"", "", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
}

TEST_CASE("load_catalog_yaml rejects an on-prem offering without purchase_price_usd", "[catalog]") {
  check_load_error(offering_with("kind: cloud", "kind: on-prem"),
                   "on-prem offering \"acme-cloud-8x\" lacks \"purchase_price_usd\"",
                   "on-premise hardware is costed from its purchase price and power draw", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
}

TEST_CASE("load_catalog_yaml rejects a cloud or free-tier offering without a price", "[catalog]") {
  const std::string no_price = offering_with("    price_per_hour_usd: 32.5\n", "");
  check_load_error(no_price, "offering \"acme-cloud-8x\" lacks \"price_per_hour_usd\"",
                   "cloud offerings need an on-demand price per unit-hour; free tiers use 0", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
  check_load_error(replaced(no_price, "kind: cloud", "kind: free-tier"),
                   "offering \"acme-cloud-8x\" lacks \"price_per_hour_usd\"",
                   "cloud offerings need an on-demand price per unit-hour; free tiers use 0", "test.yaml:19:5",
                   "  - id: acme-cloud-8x");
}

// ---------------------------------------------------------------------------------------------
// Field values

TEST_CASE("load_catalog_yaml rejects a wrong kind with a suggestion", "[catalog]") {
  check_load_error(device_with("kind: gpu", "kind: gpuu"),
                   "field \"kind\" of device \"test-gpu\" must be one of gpu, tpu, npu, cpu (got \"gpuu\")",
                   "did you mean \"gpu\"?", "test.yaml:4:11", "    kind: gpuu");
  check_load_error(
      offering_with("kind: cloud", "kind: onprem"),
      "field \"kind\" of offering \"acme-cloud-8x\" must be one of cloud, on-prem, free-tier (got \"onprem\")",
      "did you mean \"on-prem\"?", "test.yaml:21:11", "    kind: onprem");
  // Nothing close: the message alone lists the choices.
  check_load_error(device_with("kind: gpu", "kind: fpga"),
                   "field \"kind\" of device \"test-gpu\" must be one of gpu, tpu, npu, cpu (got \"fpga\")", "",
                   "test.yaml:4:11", "    kind: fpga");
  // Kinds are case-sensitive.
  CHECK(load_error(device_with("kind: gpu", "kind: GPU")).has_value());
}

TEST_CASE("load_catalog_yaml rejects negative and zero quantities", "[catalog]") {
  check_load_error(device_with("memory_gb: 80", "memory_gb: -80"),
                   "field \"memory_gb\" of device \"test-gpu\" must be greater than 0 (got \"-80\")",
                   "expected a number > 0", "test.yaml:6:16", "    memory_gb: -80");
  check_load_error(device_with("memory_gb: 80", "memory_gb: 0"),
                   "field \"memory_gb\" of device \"test-gpu\" must be greater than 0 (got \"0\")",
                   "expected a number > 0", "test.yaml:6:16", "    memory_gb: 0");
  check_load_error(device_with("bf16: 312", "bf16: 0"),
                   "field \"bf16\" of peak_tflops of device \"test-gpu\" must be greater than 0 (got \"0\")",
                   "expected a number > 0", "test.yaml:10:13", "      bf16: 0");
  check_load_error(offering_with("price_per_hour_usd: 32.5", "price_per_hour_usd: -1"),
                   "field \"price_per_hour_usd\" of offering \"acme-cloud-8x\" must not be negative (got \"-1\")",
                   "expected a number >= 0", "test.yaml:27:25", "    price_per_hour_usd: -1");
  check_load_error(offering_with("devices_per_unit: 8", "devices_per_unit: 0"),
                   "field \"devices_per_unit\" of offering \"acme-cloud-8x\" must be greater than 0 (got \"0\")",
                   "expected a number > 0", "test.yaml:24:23", "    devices_per_unit: 0");
}

TEST_CASE("load_catalog_yaml rejects NaN, infinities and non-numeric values", "[catalog]") {
  for (std::string_view value : {".nan", ".NaN", "nan", ".inf", "-.inf", ".Inf", "inf", "abc", "0x50", "0o17", "1_000",
                                 "80 GB", "80GB", "1e", "1e-400", "1e400", "--5", "1,5", "true"}) {
    INFO("memory_gb: " << std::string(value));
    check_load_error(
        device_with("memory_gb: 80", "memory_gb: " + std::string(value)),
        "field \"memory_gb\" of device \"test-gpu\" must be a finite number (got \"" + std::string(value) + "\")",
        "expected a decimal number such as 80 or 2039.5", "test.yaml:6:16", "    memory_gb: " + std::string(value));
  }
}

TEST_CASE("load_catalog_yaml rejects absurdly large numbers", "[catalog]") {
  for (std::string_view value : {"1e308", "1.7e308", "2e18", "1000000000000000001000"}) {
    INFO("memory_gb: " << std::string(value));
    check_load_error(device_with("memory_gb: 80", "memory_gb: " + std::string(value)),
                     "field \"memory_gb\" of device \"test-gpu\" is too large (got \"" + std::string(value) + "\")",
                     "expected a number of at most 1e18", "test.yaml:6:16", "    memory_gb: " + std::string(value));
  }
  CHECK_FALSE(load_error(device_with("memory_gb: 80", "memory_gb: 1e18")).has_value());
  // A negative huge price is refused for its size before its sign.
  CHECK(load_error(offering_with("price_per_hour_usd: 32.5", "price_per_hour_usd: -1e300"))->message() ==
        "field \"price_per_hour_usd\" of offering \"acme-cloud-8x\" is too large (got \"-1e300\")");
}

TEST_CASE("load_catalog_yaml rejects lists, mappings and empty values where a number belongs", "[catalog]") {
  check_load_error(device_with("memory_gb: 80", "memory_gb: [1, 2]"),
                   "field \"memory_gb\" of device \"test-gpu\" must be a number (got a list)",
                   "expected a decimal number", "test.yaml:6:16", "    memory_gb: [1, 2]");
  check_load_error(device_with("memory_gb: 80", "memory_gb: {gb: 80}"),
                   "field \"memory_gb\" of device \"test-gpu\" must be a number (got a mapping)",
                   "expected a decimal number", "test.yaml:6:16", "    memory_gb: {gb: 80}");
  // An empty value is reported at its key, not at the next line.
  check_load_error(device_with("memory_gb: 80", "memory_gb:"),
                   "field \"memory_gb\" of device \"test-gpu\" must be a number (got an empty value)",
                   "expected a decimal number", "test.yaml:6:5", "    memory_gb:");
  check_load_error(device_with("memory_gb: 80", "memory_gb: ~"),
                   "field \"memory_gb\" of device \"test-gpu\" must be a number (got an empty value)",
                   "expected a decimal number", "test.yaml:6:5", "    memory_gb: ~");
}

TEST_CASE("load_catalog_yaml rejects empty and non-text values where text belongs", "[catalog]") {
  check_load_error(device_with("\"acme datasheet rev 2\"", "\"\""),
                   "field \"source\" of device \"test-gpu\" must be a non-empty text (got \"\")",
                   "expected a text value", "test.yaml:16:13", "    source: \"\"");
  check_load_error(device_with("vendor: acme", "vendor: [a, b]"),
                   "field \"vendor\" of device \"test-gpu\" must be a non-empty text (got a list)",
                   "expected a text value", "test.yaml:5:13", "    vendor: [a, b]");
  check_load_error(device_with("vendor: acme", "vendor:"),
                   "field \"vendor\" of device \"test-gpu\" must be a non-empty text (got an empty value)",
                   "expected a text value", "test.yaml:5:5", "    vendor:");
}

TEST_CASE("load_catalog_yaml requires whole counts", "[catalog]") {
  check_load_error(offering_with("devices_per_unit: 8", "devices_per_unit: 1.5"),
                   "field \"devices_per_unit\" of offering \"acme-cloud-8x\" must be a whole number from 1 to 1000000 "
                   "(got \"1.5\")",
                   "expected an integer from 1 to 1000000", "test.yaml:24:23", "    devices_per_unit: 1.5");
  check_load_error(
      offering_with("vcpus: 96", "vcpus: 2e6"),
      "field \"vcpus\" of offering \"acme-cloud-8x\" must be a whole number from 1 to 1000000 (got \"2e6\")",
      "expected an integer from 1 to 1000000", "test.yaml:25:12", "    vcpus: 2e6");
  Catalog catalog;
  load_catalog_yaml(catalog, offering_with("max_units: 4", "max_units: 1e6"), "test.yaml");
  CHECK(catalog.find_offering("acme-cloud-8x")->max_units == 1000000);
}

TEST_CASE("load_catalog_yaml rejects nested sections that are not mappings", "[catalog]") {
  check_load_error(device_with("    peak_tflops:\n      fp32: 19.5\n      bf16: 312\n", "    peak_tflops: 312\n"),
                   "peak_tflops of device \"test-gpu\" must be a mapping of fields", "", "test.yaml:8:18",
                   "    peak_tflops: 312");
  check_load_error("devices:\n  - just-an-id\n", "a device must be a mapping of fields", "", "test.yaml:2:5",
                   "  - just-an-id");
  check_load_error("devices:\n  id: x\n", "\"devices\" must be a list", "", "test.yaml:2:3", "  id: x");
  check_load_error("offerings:\n", "\"offerings\" must be a list", "", "test.yaml:1:1", "offerings:");
}

// ---------------------------------------------------------------------------------------------
// Ids and dates

TEST_CASE("load_catalog_yaml rejects ids with invalid characters", "[catalog]") {
  for (std::string_view id : {"Test-GPU", "-gpu", "_gpu", ".gpu", "a b", "a/b", "gpu!", "h100:80gb", "ärger"}) {
    INFO("id: " << std::string(id));
    const std::string line = "  - id: \"" + std::string(id) + "\"";
    check_load_error(device_with("  - id: test-gpu", line),
                     "field \"id\" of a device is not a valid id (got \"" + std::string(id) + "\")",
                     "expected lowercase letters, digits, '-', '.', '_', starting with a letter or digit",
                     "test.yaml:2:9", line);
  }
  check_load_error(device_with("  - id: test-gpu", "  - id: " + std::string(129, 'a')),
                   "field \"id\" of a device is not a valid id (got \"" + std::string(129, 'a') + "\")",
                   "expected lowercase letters, digits, '-', '.', '_', starting with a letter or digit",
                   "test.yaml:2:9", "  - id: " + std::string(129, 'a'));
  Catalog catalog;
  load_catalog_yaml(catalog, device_with("id: test-gpu", "id: 0a.b_c-d"), "test.yaml");
  CHECK(catalog.find_device("0a.b_c-d") != nullptr);
}

TEST_CASE("load_catalog_yaml rejects a duplicate id within one file", "[catalog]") {
  const std::string twice =
      std::string(k_device_yaml) + std::string(k_device_yaml.substr(k_device_yaml.find("  - id")));
  check_load_error(twice, "duplicate id \"test-gpu\" in devices",
                   "ids are unique within a file; a later file overrides an earlier one by id", "test.yaml:18:5",
                   "  - id: test-gpu");
  const std::string offering_twice = std::string(k_device_yaml) + std::string(k_offering_yaml) +
                                     std::string(k_offering_yaml.substr(k_offering_yaml.find("  - id")));
  check_load_error(offering_twice, "duplicate id \"acme-cloud-8x\" in offerings",
                   "ids are unique within a file; a later file overrides an earlier one by id", "test.yaml:33:5",
                   "  - id: acme-cloud-8x");
}

TEST_CASE("load_catalog_yaml allows a device and an offering to share an id", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, offering_with("id: acme-cloud-8x", "id: test-gpu"), "test.yaml");
  CHECK(catalog.find_device("test-gpu") != nullptr);
  CHECK(catalog.find_offering("test-gpu") != nullptr);
}

TEST_CASE("load_catalog_yaml rejects a bad as_of date", "[catalog]") {
  for (std::string_view date :
       {"2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32", "2024-02-30", "2023-02-29", "2100-02-29", "2024-04-31",
        "2024-1-15", "15/01/2024", "2024/01/15", "yesterday", "2024-01-15T00:00", "2024-01-1x", "20240115"}) {
    INFO("as_of: " << std::string(date));
    check_load_error(device_with("as_of: \"2024-01-15\"", "as_of: \"" + std::string(date) + "\""),
                     "field \"as_of\" of device \"test-gpu\" is not a date (got \"" + std::string(date) + "\")",
                     "expected a date written YYYY-MM-DD", "test.yaml:17:12",
                     "    as_of: \"" + std::string(date) + "\"");
  }
  for (std::string_view date : {"2024-02-29", "2000-02-29", "2023-12-31", "2024-04-30"}) {
    INFO("as_of: " << std::string(date));
    CHECK_FALSE(load_error(device_with("as_of: \"2024-01-15\"", "as_of: " + std::string(date))).has_value());
  }
}

// ---------------------------------------------------------------------------------------------
// Whole-file problems

TEST_CASE("load_catalog_yaml rejects a document that is only a null value", "[catalog]") {
  const std::optional<Error> error = load_error("~\n");
  REQUIRE(error.has_value());
  CHECK(error->message() == "the catalogue file is not a YAML mapping");
  CHECK(error->where() == "test.yaml");
}

TEST_CASE("load_catalog_yaml rejects an empty file", "[catalog]") {
  for (std::string_view text : {"", "\n", "# only a comment\n", "---\n"}) {
    INFO("text: " << std::string(text));
    const std::optional<Error> error = load_error(text);
    REQUIRE(error.has_value());
    CHECK(error->kind() == ErrorKind::input);
    CHECK(error->message() == "catalogue file is empty");
    CHECK(error->hint() == "expected a mapping with \"devices:\" and/or \"offerings:\"");
    CHECK(error->where() == "test.yaml");
  }
}

TEST_CASE("load_catalog_yaml rejects a file that is not a mapping", "[catalog]") {
  check_load_error("- a\n- b\n", "the catalogue file must be a mapping of fields", "", "test.yaml:1:1", "- a");
  check_load_error("hello\n", "the catalogue file must be a mapping of fields", "", "test.yaml:1:1", "hello");
}

TEST_CASE("load_catalog_yaml reports invalid YAML syntax with its location", "[catalog]") {
  check_load_error("devices:\n  - id: x\n   name: y\n", "invalid YAML: end of sequence not found", "", "test.yaml:3:4",
                   "   name: y");
  check_load_error("devices:\n\t- id: x\n", "invalid YAML: illegal block entry", "", "test.yaml:2:2", "\t- id: x");
  check_load_error("devices: [a, b\n", "invalid YAML: end of sequence flow not found", "", "test.yaml:2:1", "");
  check_load_error("devices: {a: 1\n", "invalid YAML: end of map flow not found", "", "test.yaml:2:1", "");
  check_load_error("devices: *missing\n", "invalid YAML: the referenced anchor is not defined", "", "test.yaml:1:10",
                   "devices: *missing");
}

TEST_CASE("load_catalog_yaml rejects a file with more than one YAML document", "[catalog]") {
  check_load_error(std::string(k_device_yaml) + "---\nbogus: 1\n",
                   "the catalogue file holds more than one YAML document",
                   "remove the \"---\" separator or put each document in its own file", "test.yaml:19:1", "bogus: 1");
  // An empty trailing document adds nothing and is allowed.
  CHECK_FALSE(load_error(std::string(k_device_yaml) + "---\n").has_value());
  CHECK_FALSE(load_error("---\n" + std::string(k_device_yaml)).has_value());
}

TEST_CASE("load_catalog_yaml rejects an alias bomb quickly without expanding it", "[catalog][security]") {
  const auto start = std::chrono::steady_clock::now();
  // Anchors defined at the top level: refused as unknown fields.
  std::string top = "lol: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level <= 10; ++level) {
    top += "lol" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) top += (i > 0 ? ", *a" : "*a") + std::to_string(level - 1);
    top += "]\n";
  }
  check_load_error(top, "unknown field \"lol\" in the catalogue file", "accepted fields: providers, devices, offerings",
                   "test.yaml:1:1", "lol: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]");
  // Anchors inside the device list: the first item is not a mapping.
  check_load_error("devices:\n" + alias_bomb("  "), "a device must be a mapping of fields", "", "test.yaml:2:5",
                   "  - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]");
  // The bomb used as a field value, reported where its anchor is.
  check_load_error("devices:\n  - id: boom\n    name: &n\n" + alias_bomb("      ") + "    vendor: *n\n",
                   "field \"name\" of device \"boom\" must be a non-empty text (got a list)", "expected a text value",
                   "test.yaml:3:11", "    name: &n");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed < std::chrono::seconds(2));
}

TEST_CASE("load_catalog_yaml rejects self-referencing aliases", "[catalog][security]") {
  check_load_error("devices: &a [*a]\n", "a device must be a mapping of fields", "", "test.yaml:1:10",
                   "devices: &a [*a]");
  const std::optional<Error> error = load_error("devices:\n  - &d\n    id: loop\n    name: *d\n");
  REQUIRE(error.has_value());
  CHECK(error->message() == "field \"name\" of device \"loop\" must be a non-empty text (got a mapping)");
}

TEST_CASE("load_catalog_yaml rejects deep nesting with an error, not a crash", "[catalog][security]") {
  for (char open : {'[', '{'}) {
    INFO("nesting with " << open);
    const std::optional<Error> error = load_error(std::string(100000, open));
    REQUIRE(error.has_value());
    CHECK(error->kind() == ErrorKind::input);
    CHECK(error->message() == "invalid YAML: nested too deeply");
    CHECK(error->hint() == "catalogue entries need only a few levels of nesting");
    CHECK(error->where() == "test.yaml:1:1");
    // The 100000-character line is cut for the message.
    CHECK(error->location().line_text == std::string(200, open));
  }
  std::string block = "devices:\n";
  // 2,400 levels (yaml-cpp stops at 2,000) in 2.9 MB, under the 3 MiB limit.
  for (std::size_t depth = 0; depth < 2400; ++depth) block += std::string(depth, ' ') + "-\n";
  const std::optional<Error> error = load_error(block);
  REQUIRE(error.has_value());
  CHECK(error->message() == "invalid YAML: nested too deeply");
}

TEST_CASE("load_catalog_yaml shows no line text when the error lies far into a long line", "[catalog]") {
  const std::string text = "devices: [" + std::string(300, ' ') + "{id: a, bogus: 1}]\n";
  const std::optional<Error> error = load_error(text);
  REQUIRE(error.has_value());
  CHECK(error->message() == "unknown field \"bogus\" in device \"a\"");
  CHECK(error->where() == "test.yaml:1:319");
  CHECK(error->location().line_text.empty());
}

TEST_CASE("load_catalog_yaml refuses a file over k_max_overlay_bytes", "[catalog][security]") {
  std::string text(k_device_yaml);
  text += std::string(k_max_overlay_bytes - text.size() + 1, '#');
  REQUIRE(text.size() == k_max_overlay_bytes + 1);
  Catalog catalog;
  const std::optional<Error> error = load_error(catalog, text);
  REQUIRE(error.has_value());
  CHECK(error->kind() == ErrorKind::input);
  CHECK(error->message() == "catalogue file is larger than the limit of 3 MiB");
  CHECK(error->hint() ==
        "about 4,500 offerings as catalog import writes them, 1.5 s to load; keep an overlay to the offerings you plan on "
        "(docs/reliability.md#limits)");
  CHECK(error->where() == "test.yaml");
  CHECK(catalog.devices().empty());
}

TEST_CASE("load_catalog_yaml accepts a file of exactly k_max_overlay_bytes", "[catalog]") {
  std::string text(k_device_yaml);
  text += "#";
  text += std::string(k_max_overlay_bytes - text.size() - 1, 'x');
  text += "\n";
  REQUIRE(text.size() == k_max_overlay_bytes);
  Catalog catalog;
  load_catalog_yaml(catalog, text, "test.yaml");
  CHECK(catalog.find_device("test-gpu") != nullptr);
}

// ---------------------------------------------------------------------------------------------
// References between entries

TEST_CASE("check_references reports an offering of an unknown device with a suggestion", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, offering_with("device: test-gpu", "device: test-gpx"), "test.yaml");
  try {
    catalog.check_references();
    FAIL("check_references accepted an unknown device");
  } catch (const Error& error) {
    CHECK(error.kind() == ErrorKind::input);
    CHECK(error.message() == "offering \"acme-cloud-8x\" names unknown device \"test-gpx\"");
    CHECK(error.hint() == "did you mean \"test-gpu\"?");
    CHECK(error.where() == "test.yaml:19:5");
    CHECK(error.location().line_text == "  - id: acme-cloud-8x");
  }
}

TEST_CASE("check_references gives no suggestion when no device is close", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, offering_with("device: test-gpu", "device: h100"), "test.yaml");
  try {
    catalog.check_references();
    FAIL("check_references accepted an unknown device");
  } catch (const Error& error) {
    CHECK(error.message() == "offering \"acme-cloud-8x\" names unknown device \"h100\"");
    CHECK(error.hint().empty());
  }
}

TEST_CASE("check_references accepts a device defined in a later file", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, k_offering_yaml, "offerings.yaml");
  CHECK_THROWS_AS(catalog.check_references(), Error);
  load_catalog_yaml(catalog, k_device_yaml, "devices.yaml");
  CHECK_NOTHROW(catalog.check_references());
}

// ---------------------------------------------------------------------------------------------
// The embedded default catalogue

TEST_CASE("load_default_catalog loads the embedded catalogue", "[catalog][default]") {
  Catalog catalog;
  REQUIRE_NOTHROW(catalog = load_default_catalog());
  CHECK(catalog.devices().size() >= 20);
  CHECK(catalog.offerings().size() >= 30);
  CHECK_NOTHROW(catalog.check_references());
}

// A CPU's peak is derived per socket (or per core); without `cores` an offering would get a
// whole socket's rate for a 2-vCPU instance (docs/methodology.md#time).
TEST_CASE("every default catalogue CPU with a peak says the cores it covers, derived", "[catalog][default]") {
  const Catalog catalog = load_default_catalog();
  int with_peak = 0;
  for (const Device& device : catalog.devices()) {
    if (device.kind != DeviceKind::cpu) continue;
    const bool any_peak = std::any_of(device.peak_flops_per_s.begin(), device.peak_flops_per_s.end(),
                                      [](const std::optional<double>& peak) { return peak.has_value(); });
    if (!any_peak) continue;
    INFO("device " << device.id);
    ++with_peak;
    CHECK(device.cores.has_value());
    CHECK(device.source.find("derived: ") != std::string::npos);
  }
  CHECK(with_peak >= 8);
}

TEST_CASE("every default catalogue device is complete and dated", "[catalog][default]") {
  const Catalog catalog = load_default_catalog();
  std::set<std::string> ids;
  for (const Device& device : catalog.devices()) {
    INFO("device " << device.id);
    CHECK(ids.insert(device.id).second);
    CHECK_FALSE(device.name.empty());
    CHECK_FALSE(device.vendor.empty());
    CHECK_FALSE(device.source.empty());
    CHECK(valid_date(device.as_of));
    CHECK(device.defined_at.file.rfind("<embedded>/data/catalog/", 0) == 0);
    CHECK(device.defined_at.line > 0);
    // Peak FLOPS may be absent (CPUs, Apple): the catalogue omits figures no source gives.
    if (device.kind != DeviceKind::cpu) CHECK(device.memory.has_value());
  }
}

TEST_CASE("every default catalogue offering is complete, dated and names a known device", "[catalog][default]") {
  const Catalog catalog = load_default_catalog();
  std::set<std::string> ids;
  for (const Offering& offering : catalog.offerings()) {
    INFO("offering " << offering.id);
    CHECK(ids.insert(offering.id).second);
    CHECK_FALSE(offering.provider.empty());
    CHECK_FALSE(offering.name.empty());
    CHECK_FALSE(offering.source.empty());
    CHECK(valid_date(offering.as_of));
    CHECK(catalog.find_device(offering.device_id) != nullptr);
    CHECK(offering.devices_per_unit >= 1);
    if (offering.kind == OfferingKind::on_prem) {
      CHECK(offering.purchase_price.has_value());
    } else {
      CHECK(offering.price.on_demand.has_value());
    }
    if (offering.kind == OfferingKind::cloud) CHECK(offering.price.on_demand->value > 0.0);
    if (offering.kind == OfferingKind::free_tier) CHECK(offering.price.on_demand->value == 0.0);
  }
}

TEST_CASE("the default catalogue offers cloud, on-prem and free-tier hardware", "[catalog][default]") {
  const Catalog catalog = load_default_catalog();
  std::set<OfferingKind> kinds;
  std::set<DeviceKind> device_kinds;
  for (const Offering& offering : catalog.offerings()) kinds.insert(offering.kind);
  for (const Device& device : catalog.devices()) device_kinds.insert(device.kind);
  CHECK(kinds.count(OfferingKind::cloud) == 1);
  CHECK(kinds.count(OfferingKind::on_prem) == 1);
  CHECK(kinds.count(OfferingKind::free_tier) == 1);
  CHECK(device_kinds.count(DeviceKind::gpu) == 1);
}

TEST_CASE("a device can be found by one of its aliases", "[catalog]") {
  Catalog catalog;
  load_catalog_yaml(catalog, R"(devices:
  - id: gpu-80gb-sxm
    aliases: [gpu-80gb]
    name: GPU
    kind: gpu
    vendor: acme
    memory_gb: 80
    source: test
    as_of: "2026-01-01"
)", "aliases.yaml");
  REQUIRE(catalog.find_device("gpu-80gb") != nullptr);
  CHECK(catalog.find_device("gpu-80gb")->id == "gpu-80gb-sxm");
  CHECK(catalog.find_device("gpu") == nullptr);
  CHECK(load_default_catalog().find_device("a100-80gb")->id == "a100-80gb-sxm");
}

// Found by fuzz/fuzz_catalog: yaml-cpp's LoadAll allocates without end on this input
// (the loader now parses one document and finds further ones in the text).
TEST_CASE("fuzz regression: malformed input that made LoadAll allocate without end", "[catalog][fuzz]") {
  std::ifstream file(std::string(MLSIZE_TEST_DATA_DIR) + "/fuzz-regressions/catalog-loadall-unbounded.yaml",
                     std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  REQUIRE(text.str().size() == 112);
  Catalog catalog;
  CHECK_THROWS_AS(load_catalog_yaml(catalog, text.str(), "fuzz.yaml"), Error);
}

// docs/catalogue.md#host_arch: x86-64 unless stated; the Grace Hopper superchips and AWS G5g's
// T4G have Arm hosts; another value is refused with the accepted ones.
TEST_CASE("a device's host architecture", "[catalog]") {
  const Catalog catalog = load_default_catalog();
  CHECK(catalog.find_device("h100-sxm")->host_arch == HostArch::x86_64);
  for (const char* arm : {"gh200", "gh200-96gb", "t4g"}) {
    INFO(arm);
    CHECK(catalog.find_device(arm)->host_arch == HostArch::arm64);
  }
  const std::optional<Error> error = load_error(replaced(k_device_yaml, "    source:", "    host_arch: riscv\n    source:"));
  REQUIRE(error.has_value());
  CHECK(std::string(error->what()).find("host_arch") != std::string::npos);
}

// docs/catalogue.md#compute_capability: NVIDIA's "M.m", on NVIDIA devices only; every NVIDIA
// device of the default catalogue states it.
TEST_CASE("a device's compute capability", "[catalog]") {
  const Catalog catalog = load_default_catalog();
  CHECK(catalog.find_device("v100-sxm2-16gb")->compute_capability == 70);
  CHECK(catalog.find_device("t4")->compute_capability == 75);
  CHECK(catalog.find_device("a100-80gb-sxm")->compute_capability == 80);
  CHECK(catalog.find_device("b300")->compute_capability == 103);
  CHECK(catalog.find_device("rtx-5090")->compute_capability == 120);
  for (const Device& device : catalog.devices()) {
    INFO(device.id);
    CHECK(device.compute_capability.has_value() == (device.vendor == "nvidia"));
  }
  const std::string nvidia = replaced(k_device_yaml, "vendor: acme", "vendor: nvidia");
  Catalog read;
  load_catalog_yaml(read, replaced(nvidia, "    source:", "    compute_capability: \"8.9\"\n    source:"), "test.yaml");
  CHECK(read.find_device("test-gpu")->compute_capability == 89);
  for (const char* bad : {"\"8\"", "\"8.10\"", "\"08.0\"", "\"x.y\"", "\"123.0\""}) {
    INFO(bad);
    const std::optional<Error> error =
        load_error(replaced(nvidia, "    source:", std::string("    compute_capability: ") + bad + "\n    source:"));
    REQUIRE(error.has_value());
    CHECK(std::string(error->what()).find("is not a compute capability") != std::string::npos);
  }
  const std::optional<Error> other =
      load_error(replaced(k_device_yaml, "    source:", "    compute_capability: \"8.0\"\n    source:"));
  REQUIRE(other.has_value());
  CHECK(std::string(other->what()).find("vendor is not nvidia") != std::string::npos);
}

// docs/catalogue.md#availability: the reservations a provider names, with their bounds.
TEST_CASE("a provider's reservation channels and the plans they hold", "[catalog]") {
  const Catalog catalog = load_default_catalog();
  const Provider* aws = catalog.find_provider("aws");
  REQUIRE(aws != nullptr);
  REQUIRE(aws->on_demand_limit.channels.size() == 1);
  const ReservationChannel& block = aws->on_demand_limit.channels.front();
  CHECK(block.covers(64, 512, 20));
  CHECK_FALSE(block.covers(65, 520, 20));   // more than 64 instances in one block
  CHECK_FALSE(block.covers(8, 64, 183));    // longer than 182 days
  const ReservationChannel& lambda = catalog.find_provider("lambda")->on_demand_limit.channels.front();
  CHECK_FALSE(lambda.covers(1, 8, 3));  // below a 1-Click Cluster's 16 GPUs
  CHECK(lambda.covers(64, 512, 30));
}
