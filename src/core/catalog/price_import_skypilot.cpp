// `catalog import --from skypilot`: skypilot-org/skypilot-catalog's catalogs/v7/<cloud>/vms.csv.
// The clouds' files differ in column order and in which columns they have (Lambda's has no
// AvailabilityZone), so columns are found by their header names.

#include "core/catalog/csv_reader.hpp"

#include <mlsize/catalog/price_import.hpp>
#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace mlsize {
namespace {

constexpr std::array<std::string_view, 7> k_required_columns{
    "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region"};
constexpr std::string_view k_columns_hint =
    "a SkyPilot vms.csv has the columns InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, Price, "
    "Region, and optionally SpotPrice, AvailabilityZone and GpuInfo, in any order";

// An id as the catalogue accepts it (docs/catalogue.md#file-format).
bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128 || !std::isalnum(static_cast<unsigned char>(id.front()))) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
  });
}

std::string lower(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

struct Columns {
  std::array<int, k_required_columns.size()> required{};
  int spot = -1;
};

class Rows {
 public:
  Rows(std::string_view text, std::string_view file) : m_text(text), m_file(file) {}

  [[noreturn]] void fail(int line, int column, std::string message, std::string hint) const {
    throw Error(ErrorKind::input, std::move(message), std::move(hint))
        .at({std::string(m_file), line, column, line_of(m_text, line)});
  }

  // A number cell: empty is no value; otherwise a plain decimal >= 0.
  std::optional<double> number(const CsvRecord& record, int index, std::string_view column) const {
    const CsvField& field = record.fields[static_cast<std::size_t>(index)];
    if (field.text.empty()) return std::nullopt;
    double value = 0;
    const char* begin = field.text.data();
    const char* end = begin + field.text.size();
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || stop != end || !std::isfinite(value)) {
      fail(record.line, field.column,
           "column \"" + std::string(column) + "\" is not a number (got \"" + field.text + "\")",
           "a plain decimal such as 0.204, or nothing");
    }
    if (value < 0) {
      fail(record.line, field.column,
           "column \"" + std::string(column) + "\" must not be negative (got \"" + field.text + "\")",
           "a number >= 0, or nothing");
    }
    return value;
  }

 private:
  std::string_view m_text;
  std::string_view m_file;
};

}  // namespace

void PriceImporter::add_skypilot_csv(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  m_unit_words[file] = "lines";
  const Rows rows(text, file_name);
  const std::vector<CsvRecord> records = read_csv(text, file_name);
  if (records.empty()) rows.fail(1, 1, "the file is empty", std::string(k_columns_hint));
  const CsvRecord& header = records.front();
  auto column_of = [&](std::string_view name) {
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
      if (header.fields[i].text == name) return static_cast<int>(i);
    }
    return -1;
  };
  Columns columns;
  for (std::size_t i = 0; i < k_required_columns.size(); ++i) {
    columns.required[i] = column_of(k_required_columns[i]);
    if (columns.required[i] < 0) {
      rows.fail(header.line, 1, "the header lacks the column \"" + std::string(k_required_columns[i]) + "\"",
                std::string(k_columns_hint));
    }
  }
  columns.spot = column_of("SpotPrice");
  enum { instance_type, accelerator_name, accelerator_count, vcpus, memory_gib, price, region };
  const std::string provider = provider_for(file_name);
  std::vector<std::string> candidates = skypilot_accelerator_names();
  for (const std::string& name : m_catalog.device_names()) candidates.push_back(name);

  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    if (record.fields.size() != header.fields.size()) {
      rows.fail(record.line, 1,
                "the row has " + std::to_string(record.fields.size()) + " fields; the header has " +
                    std::to_string(header.fields.size()),
                "one field per column; quote a field that holds a comma (\"a, b\")");
    }
    ++m_rows;
    auto text_of = [&](int index) -> const std::string& {
      return record.fields[static_cast<std::size_t>(columns.required[static_cast<std::size_t>(index)])].text;
    };
    auto number_of = [&](int index) {
      return rows.number(record, columns.required[static_cast<std::size_t>(index)],
                         k_required_columns[static_cast<std::size_t>(index)]);
    };
    const auto usd = [](std::optional<double> value) -> std::optional<Usd> {
      if (!value) return std::nullopt;
      return Usd(*value);
    };
    const RegionalPrice row_price{
        text_of(region), usd(number_of(price)),
        usd(columns.spot >= 0 ? rows.number(record, columns.spot, "SpotPrice") : std::nullopt), std::nullopt,
        std::nullopt};
    const std::optional<double> count = number_of(accelerator_count);
    const std::optional<double> cpus = number_of(vcpus);
    const std::optional<double> memory = number_of(memory_gib);
    std::string instance = text_of(instance_type);
    const std::string& accelerator = text_of(accelerator_name);

    std::string device_id;
    int devices = 1;
    if (accelerator.empty()) {
      if (m_settings.cpu_device.empty()) {
        skip("no accelerator (CPU-only; --include-cpu DEVICE imports them)");
        continue;
      }
      device_id = m_settings.cpu_device;
    } else if (accelerator.starts_with("tpu-")) {
      // TPU slices are rows of their own, named in AcceleratorName, count 1 (gcp/vms.csv).
      const std::optional<TpuSlice> slice = tpu_slice(accelerator);
      if (!slice || m_catalog.find_device(slice->device_id) == nullptr) {
        unknown(accelerator, file + ":" + std::to_string(record.line), candidates);
        continue;
      }
      if (instance.empty()) instance = accelerator;
      device_id = slice->device_id;
      devices = slice->chips;
    } else {
      if (instance.empty()) {
        skip("an accelerator priced apart from its host VM (GCP's attachable GPUs; not combined)");
        continue;
      }
      if (!count || *count < 1 || *count != std::floor(*count) || *count > 1'000'000) {
        skip("an accelerator count that is not a whole number >= 1 (a GPU fraction)");
        continue;
      }
      devices = static_cast<int>(*count);
      const std::string id = provider + "-" + lower(instance);
      const Offering* known = m_catalog.find_offering(id);
      for (std::string_view candidate : devices_of_skypilot_accelerator(provider, accelerator)) {
        const Device* device = m_catalog.find_device(candidate);
        if (device == nullptr) continue;
        // The catalogue's own entry tells the form factor (A100 40 GB SXM or PCIe).
        if (known != nullptr && known->device_id == device->id) {
          device_id = device->id;
          break;
        }
        if (device_id.empty()) device_id = device->id;
      }
      if (device_id.empty()) {
        unknown(accelerator, file + ":" + std::to_string(record.line), candidates);
        continue;
      }
    }
    if (row_price.region.empty()) {
      skip("no region");
      continue;
    }
    if (!row_price.on_demand) {
      skip("no on-demand price");
      continue;
    }
    const std::string id = provider + "-" + lower(instance);
    if (!valid_id(id)) {
      skip("an instance name that is not usable in an id");
      continue;
    }
    // Fields the file does not state (network_gbps, max_units) stay as the catalogue has them.
    Offering offering;
    if (const Offering* known = m_catalog.find_offering(id); known != nullptr && known->device_id == device_id) {
      offering = *known;
    }
    offering.id = id;
    offering.provider = provider;
    offering.kind = OfferingKind::cloud;
    offering.name = instance;
    offering.device_id = device_id;
    offering.devices_per_unit = devices;
    if (cpus && *cpus >= 1 && *cpus == std::floor(*cpus) && *cpus <= 1'000'000)
      offering.vcpus = static_cast<int>(*cpus);
    if (memory && *memory > 0) offering.host_memory = Bytes{*memory * k_gibi};
    offering.price = {};  // the file's, by region (add_row)
    offering.other_regions.clear();
    add_row(std::move(offering), row_price, file, record.line);
  }
}

}  // namespace mlsize
