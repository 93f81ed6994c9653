// The embedded catalogue against the reference table it was built from
// (tests/data/reference/accelerators.csv, a copy of shared/reference/accelerators.csv).

#include <mlsize/catalog/catalog_loader.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mlsize;

namespace {

// One CSV record per line (the reference has no line breaks inside fields); RFC 4180 quotes.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

using Row = std::map<std::string, std::string>;

std::vector<Row> read_reference() {
  std::ifstream stream(std::string(MLSIZE_TEST_DATA_DIR) + "/reference/accelerators.csv");
  REQUIRE(stream);
  std::string line;
  std::getline(stream, line);
  const std::vector<std::string> header = split_csv_line(line);
  std::vector<Row> rows;
  while (std::getline(stream, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> fields = split_csv_line(line);
    REQUIRE(fields.size() == header.size());
    Row row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

// The CSV's `name` column -> the catalogue's device id.
const std::map<std::string, std::string> k_device_ids{
    {"GeForce RTX 3060 12GB", "rtx-3060"},
    {"GeForce RTX 3080 10GB", "rtx-3080"},
    {"GeForce RTX 3090", "rtx-3090"},
    {"GeForce RTX 3090 Ti", "rtx-3090-ti"},
    {"GeForce RTX 4060 Ti 16GB", "rtx-4060-ti-16gb"},
    {"GeForce RTX 4070", "rtx-4070"},
    {"GeForce RTX 4070 Ti", "rtx-4070-ti"},
    {"GeForce RTX 4080", "rtx-4080"},
    {"GeForce RTX 4090", "rtx-4090"},
    {"GeForce RTX 5090", "rtx-5090"},
    {"RTX A4000", "rtx-a4000"},
    {"RTX A5000", "rtx-a5000"},
    {"RTX A6000", "rtx-a6000"},
    {"RTX 6000 Ada Generation", "rtx-6000-ada"},
    {"L40S", "l40s"},
    {"L4", "l4"},
    {"T4", "t4"},
    {"Tesla V100 SXM2 16GB", "v100-sxm2-16gb"},
    {"Tesla V100 SXM2 32GB", "v100-sxm2-32gb"},
    {"Tesla V100 PCIe 16GB", "v100-pcie-16gb"},
    {"Tesla V100 PCIe 32GB", "v100-pcie-32gb"},
    {"A10", "a10"},
    {"A10G (AWS G5)", "a10g"},
    {"A100 40GB SXM4", "a100-40gb-sxm"},
    {"A100 80GB SXM4", "a100-80gb-sxm"},
    {"A100 40GB PCIe", "a100-40gb-pcie"},
    {"A100 80GB PCIe", "a100-80gb-pcie"},
    {"H100 SXM5 80GB", "h100-sxm"},
    {"H100 PCIe 80GB", "h100-pcie"},
    {"H100 NVL 94GB", "h100-nvl"},
    {"H200 SXM 141GB", "h200-sxm"},
    {"GH200 Grace Hopper Superchip (144GB HBM3e)", "gh200"},
    {"B200 (HGX, 1000 W)", "b200"},
    {"Instinct MI100", "mi100"},
    {"Instinct MI210", "mi210"},
    {"Instinct MI250X", "mi250x"},
    {"Instinct MI300X", "mi300x"},
    {"Instinct MI325X", "mi325x"},
    {"Radeon RX 7900 XTX", "rx-7900-xtx"},
    {"Gaudi 2 (HL-225H)", "gaudi2"},
    {"Gaudi 3 (HL-325L OAM)", "gaudi3"},
    {"TPU v2 (per chip)", "tpu-v2"},
    {"TPU v3 (per chip)", "tpu-v3"},
    {"TPU v4 (per chip)", "tpu-v4"},
    {"TPU v5e (per chip)", "tpu-v5e"},
    {"TPU v5p (per chip)", "tpu-v5p"},
    {"TPU v6e Trillium (per chip)", "tpu-v6e"},
    {"M2 Ultra (76-core GPU)", "apple-m2-ultra"},
    {"M3 Max (40-core GPU)", "apple-m3-max"},
    {"EPYC 9654 (96C/192T, 2.4/3.7 GHz, Genoa)", "epyc-9654"},
    {"EPYC 7763 (64C/128T, 2.45/3.5 GHz, Milan)", "epyc-7763"},
    {"Ryzen Threadripper PRO 7995WX (96C/192T, Storm Peak)", "threadripper-pro-7995wx"},
    {"Ryzen Threadripper 3990X (64C/128T, Castle Peak)", "threadripper-3990x"},
    {"Xeon Platinum 8480+ (56C/112T, 2.0 GHz base, Sapphire Rapids)", "xeon-8480plus"},
    {"Xeon Platinum 8375C (32C/64T, 2.9 GHz base, Ice Lake; AWS c6i/m6i)", "xeon-8375c"},
    {"Xeon Platinum 8275CL (Cascade Lake; AWS c5, 3.0 GHz base)", "xeon-8275cl"},
    {"Xeon CPU Max 9480 (56C/112T, Sapphire Rapids + 64 GB HBM2e)", "xeon-max-9480"},
};

// Deliberate differences, as (device id, CSV column), each with its reason.
const std::map<std::pair<std::string, std::string>, std::string> k_intended_differences{
    {{"xeon-max-9480", "memory_gb"},
     "a cpu device has no memory_gb: its memory is the offering's host RAM (docs/catalogue.md#device-kind); the "
     "CSV's 64 GB is the on-package HBM2e that sits beside the DDR5"},
};

// The catalogue's figure in the CSV column's unit, or nothing when the catalogue has none.
std::optional<double> catalogue_value(const Device& device, const std::string& column) {
  auto scaled = [](std::optional<double> value, double unit) -> std::optional<double> {
    if (!value) return std::nullopt;
    return *value / unit;
  };
  // The reference's headline "GB" is the binary size of the DRAM; the catalogue stores
  // GiB as the driver reports them (see the check below).
  if (column == "memory_gb") return device.memory ? std::optional<double>(device.memory->value / 1073741824.0) : std::nullopt;
  if (column == "memory_bandwidth_gbs") return scaled(device.memory_bandwidth_bytes_per_s, 1e9);
  if (column == "fp32_tflops") return scaled(device.peak(DType::fp32), 1e12);
  if (column == "tf32_tflops_dense") return scaled(device.peak(DType::tf32), 1e12);
  if (column == "fp16_tflops_dense") return scaled(device.peak(DType::fp16), 1e12);
  if (column == "bf16_tflops_dense") return scaled(device.peak(DType::bf16), 1e12);
  if (column == "fp8_tflops_dense") return scaled(device.peak(DType::fp8), 1e12);
  if (column == "int8_tops_dense") return scaled(device.peak(DType::int8), 1e12);
  FAIL("unknown column " << column);
  return std::nullopt;
}

}  // namespace

TEST_CASE("every reference row maps to a catalogue device", "[catalog][reference]") {
  const Catalog catalog = load_default_catalog();
  const std::vector<Row> rows = read_reference();
  CHECK(rows.size() == k_device_ids.size());
  std::set<std::string> ids;
  for (const Row& row : rows) {
    INFO("reference row " << row.at("name"));
    const auto id = k_device_ids.find(row.at("name"));
    REQUIRE(id != k_device_ids.end());
    CHECK(ids.insert(id->second).second);
    const Device* device = catalog.find_device(id->second);
    REQUIRE(device != nullptr);
    CHECK(to_string(device->kind) == row.at("kind"));
  }
}

TEST_CASE("the embedded catalogue agrees with the reference table wherever both have a value",
          "[catalog][reference]") {
  const Catalog catalog = load_default_catalog();
  const std::vector<std::string> columns{"memory_gb",         "memory_bandwidth_gbs", "fp32_tflops",
                                         "tf32_tflops_dense", "fp16_tflops_dense",    "bf16_tflops_dense",
                                         "fp8_tflops_dense",  "int8_tops_dense"};
  std::set<std::pair<std::string, std::string>> differences_seen;
  for (const Row& row : read_reference()) {
    const std::string& id = k_device_ids.at(row.at("name"));
    const Device& device = *catalog.find_device(id);
    for (const std::string& column : columns) {
      const std::string& text = row.at(column);
      if (text.empty()) continue;  // the reference has no figure: nothing to compare
      INFO(id << " " << column << ": reference " << text);
      const double reference = std::stod(text);
      const std::optional<double> ours = catalogue_value(device, column);
      // Memory: the driver reports the headline size or less: GDDR6 parts with ECC on keep
      // 1/16 for it (T4 15360 MiB, A10G 23028, L4 23034, L40S 46068), HBM parts a
      // little (H100 81559 MiB of 81920); never more.
      const bool memory = column == "memory_gb";
      const bool agrees = ours && (memory ? *ours <= reference * (1 + 1e-9) && *ours >= reference * (15.0 / 16 - 1e-3)
                                          : std::abs(*ours - reference) <= 1e-9 * std::abs(reference));
      if (k_intended_differences.count({id, column}) != 0) {
        // A listed difference must still be a difference, or the list is stale.
        CHECK_FALSE(agrees);
        differences_seen.insert({id, column});
        continue;
      }
      // A reference figure the catalogue dropped counts as a disagreement too.
      CHECK(ours.has_value());
      if (ours) CHECK(agrees);
    }
  }
  CHECK(differences_seen.size() == k_intended_differences.size());
}

// docs/methodology.md#capacity: nvidia-smi's memory.total (modal-labs/modal-client PR #2797
// for the A100 and H100; RLinf/RLinf#255 for the RTX 4090; Wan-Video/Wan2.1#5 for the V100
// on a current driver) less the CUDA context with lazy loading (0.4 GiB; PyTorch PR #86509
// measured 274 MiB, pytorch/pytorch#109888 "around 400MB").
TEST_CASE("usable capacity of A100 80GB, H100 80GB, RTX 4090 and V100 32GB", "[catalog][reference]") {
  const Catalog catalog = load_default_catalog();
  const double mib = 1024.0 * 1024.0;
  const std::pair<const char*, double> smi[] = {
      {"a100-80gb-sxm", 81920}, {"h100-sxm", 81559}, {"rtx-4090", 24564}, {"v100-sxm2-32gb", 32768}};
  for (const auto& [id, total_mib] : smi) {
    INFO(id);
    const Device* device = catalog.find_device(id);
    REQUIRE(device != nullptr);
    CHECK(device->memory->value == Approx(total_mib * mib).epsilon(1e-5));
    CHECK(device->usable_memory()->value == Approx(total_mib * mib - 0.4 * 1024 * mib).epsilon(1e-5));
  }
  // An "80 GB" A100 holds 85.9·10⁹ bytes, of which 85.5·10⁹ are usable.
  CHECK(catalog.find_device("a100-80gb-sxm")->usable_memory()->value / 1e9 == Approx(85.47).margin(0.01));
  // TPUs keep no context of this kind.
  const Device* tpu = catalog.find_device("tpu-v5e");
  REQUIRE(tpu != nullptr);
  CHECK(tpu->usable_memory()->value == tpu->memory->value);
}
