// `catalog import --from skypilot`: skypilot-org/skypilot-catalog's catalogs/v9/<cloud>/vms.csv.
// The clouds' files differ in column order and in which columns they have (Lambda's has no
// AvailabilityZone), so columns are found by their header names.

#include "core/catalog/csv_reader.hpp"
#include "core/catalog/gcp_gpu_vms.hpp"
#include "core/support/identifier.hpp"
#include "core/support/text_lines.hpp"

#include <mlsize/catalog/price_import.hpp>
#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/units.hpp>
#include <mlsize/support/utf8.hpp>

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

// A row's memory and a device's agree within this share: drivers report a little less than the
// headline size (an H100 SXM 81559 MiB of 81920, an L40S 46068 of 49152), and the nearest other
// part of the same name is 17 % away or more (H100 80 GB against the NVL's 94 GB).
constexpr double k_memory_tolerance = 0.10;

// The number after `key` in SkyPilot's GpuInfo, a Python dict written with repr():
// "{'Gpus': [{'Name': 'H100', ..., 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}".
std::optional<double> gpu_info_number(std::string_view info, std::string_view key) {
  const std::size_t at = info.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = info.substr(at + key.size());
  const std::size_t digits = rest.find_first_of("0123456789");
  if (digits == std::string_view::npos || rest.substr(0, digits).find_first_not_of("': ") != std::string_view::npos) {
    return std::nullopt;
  }
  rest = rest.substr(digits);
  double value = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (error != std::errc() || end == rest.data()) return std::nullopt;
  return value;
}

// One accelerator's memory in GiB as the row states it, or nullopt where it does not (Nebius
// and Seeweb write 0). MemoryInfo.SizeInMiB is one GPU's in every cloud's file but Vast's,
// whose generator writes the instance's total there (1x-H200: 143771, 8x-H200: 1150168);
// TotalGpuMemoryInMiB cannot tell them apart, as Lambda's equals one GPU's (gpu_8x_v100: 16384).
std::optional<double> accelerator_memory_gib(std::string_view provider, std::string_view info, int count) {
  const std::optional<double> mib = gpu_info_number(info, "'SizeInMiB'");
  if (!mib || !(*mib > 0)) return std::nullopt;
  return (provider == "vast" ? *mib / std::max(1, count) : *mib) / 1024.0;
}

// An id from an instance name: lower case, and a character the catalogue's ids do not take
// ("$", ":", " ") as "-" (Fluidstack's H100_NVLINK_80GB::8, OCI's VM.Standard.E4.Flex$_2_8).
std::string id_part(std::string_view instance) {
  std::string id;
  for (char c : instance) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool kept = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (kept) {
      id += c;
    } else if (!id.empty() && id.back() != '-') {
      id += '-';
    }
  }
  while (!id.empty() && id.back() == '-') id.pop_back();
  return id;
}

// The form factor an instance name or GpuInfo name states: "nvl" (the H100 NVL PCIe card),
// "sxm" (SXM, or NVLink between the GPUs), "pcie", or "" when it says none.
std::string_view stated_form_factor(std::string_view text) {
  const std::string name = text::lower(text);
  bool sxm = false;
  bool pcie = false;
  bool nvl = false;
  std::size_t start = 0;
  while (start < name.size()) {
    std::size_t end = start;
    while (end < name.size() && std::isalnum(static_cast<unsigned char>(name[end]))) ++end;
    const std::string_view word = std::string_view(name).substr(start, end - start);
    if (word == "nvl") nvl = true;
    if (word == "sxm" || word.starts_with("sxm") || word == "nvlink") sxm = true;
    if (word == "pcie" || word == "pci") pcie = true;
    start = end + 1;
  }
  if (nvl) return "nvl";
  if (sxm) return "sxm";
  if (pcie) return "pcie";
  return {};
}

// A device's form factor as its id spells it (a100-80gb-pcie, h100-nvl, v100-sxm2-16gb).
std::string_view device_form_factor(std::string_view id) {
  return stated_form_factor(id);
}

std::string gib_text(double gib) {
  return std::to_string(static_cast<long long>(std::lround(gib))) + " GB";
}

struct Columns {
  std::array<int, k_required_columns.size()> required{};
  int spot = -1;
  int zone = -1;
  int gpu_info = -1;
};

class Rows {
 public:
  Rows(std::string_view text, std::string_view file) : m_text(text), m_file(file) {}

  [[noreturn]] void fail(int line, int column, std::string message, std::string hint) const {
    throw Error(ErrorKind::input, std::move(message), std::move(hint))
        .at({std::string(m_file), line, column, line_of(m_text, line)});
  }

  // A number cell: empty is no value; otherwise a plain decimal. Negative values are refused
  // unless `signed_ok` (prices, which the sanity checks drop with a warning instead).
  std::optional<double> number(const CsvRecord& record, int index, std::string_view column,
                               bool signed_ok = false) const {
    const CsvField& field = record.fields[static_cast<std::size_t>(index)];
    if (field.text.empty()) return std::nullopt;
    double value = 0;
    const char* begin = field.text.data();
    const char* end = begin + field.text.size();
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || stop != end || !std::isfinite(value)) {
      const bool nan = field.text.find_first_of("nN") != std::string::npos && error == std::errc();
      fail(record.line, field.column,
           "column \"" + std::string(column) + "\" is " +
               (nan ? std::string("NaN or infinite") : std::string("not a number")) + " (got \"" + field.text + "\")",
           "a plain decimal such as 0.204, or nothing");
    }
    if (value < 0 && !signed_ok) {
      fail(record.line, field.column,
           "column \"" + std::string(column) + "\" must not be negative (got \"" + field.text + "\")",
           "a number >= 0, or nothing");
    }
    return value;
  }

  // Text that reaches the overlay, tables and JSON: UTF-8 without control characters.
  void check_text(const CsvRecord& record, int index, std::string_view column) const {
    const CsvField& field = record.fields[static_cast<std::size_t>(index)];
    const std::string bad = first_unprintable(field.text);
    if (bad.empty()) return;
    fail(record.line, field.column,
         "column \"" + std::string(column) + "\" holds " + bad +
             ", a control character, line separator or bytes that are not UTF-8 (got \"" +
             escape_unprintable(field.text) + "\")",
         "plain UTF-8 text");
  }

 private:
  std::string_view m_text;
  std::string_view m_file;
};

}  // namespace

PriceImporter::DeviceChoice PriceImporter::choose_device(const std::string& provider, const std::string& accelerator,
                                                         std::optional<double> memory_gib, std::string_view form,
                                                         const std::string& offering_id) const {
  std::vector<const Device*> candidates;
  auto add = [&](std::string_view id) {
    const Device* device = m_catalog.find_device(id);
    if (device != nullptr && std::find(candidates.begin(), candidates.end(), device) == candidates.end()) {
      candidates.push_back(device);
    }
  };
  // A device of the row's memory, or any device where the row states none.
  const auto of_row_memory = [&](const Device& device) {
    if (!memory_gib) return true;
    if (!device.memory) return false;
    const double gib = device.memory->value / k_gibi;
    return std::abs(*memory_gib - gib) <= k_memory_tolerance * gib;
  };
  for (std::string_view id : devices_of_skypilot_accelerator(provider, accelerator)) add(id);
  const bool named = !candidates.empty();
  // A bare name is the part SkyPilot names so ("A100" is 40 GB); other sizes only by the row's memory.
  if (memory_gib) {
    for (std::string_view id : memory_variants_of_skypilot_accelerator(accelerator)) add(id);
    std::erase_if(candidates, [&](const Device* device) { return !of_row_memory(*device); });
  }
  DeviceChoice choice;
  const std::string memory_text = memory_gib ? " " + gib_text(*memory_gib) : std::string();
  if (candidates.empty()) {
    choice.problem = accelerator + memory_text;
    // Hints only to devices of the row's memory: an RTX6000 of 24 GB is no RTX A6000 of 48.
    std::vector<std::string> names;
    for (const Device& device : m_catalog.devices()) {
      if (!of_row_memory(device)) continue;
      names.push_back(device.id);
      const std::string_view name = skypilot_accelerator_name(provider, device.id);
      if (!name.empty()) names.emplace_back(name);
    }
    choice.hint = did_you_mean(accelerator, names);
    if (named && memory_gib) {
      choice.hint = "no device of that name has " + gib_text(*memory_gib) + " of memory" +
                    (choice.hint.empty() ? std::string() : "; " + choice.hint);
    }
    return choice;
  }
  if (!form.empty()) {
    std::vector<const Device*> stated = candidates;
    std::erase_if(stated, [&](const Device* d) {
      const std::string_view own = device_form_factor(d->id);
      return !own.empty() && own != form;
    });
    if (stated.empty()) {
      choice.problem = accelerator + memory_text;
      choice.hint = "the row says " + std::string(form) + " and no device of that name and memory is one";
      return choice;
    }
    candidates = std::move(stated);
  }
  if (candidates.size() == 1) {
    choice.device_id = candidates.front()->id;
    return choice;
  }
  // Several parts fit (A100 40 GB: SXM or PCIe): the catalogue's own entry of the instance tells.
  if (const Offering* known = m_catalog.find_offering(offering_id)) {
    for (const Device* device : candidates) {
      if (device->id == known->device_id) {
        choice.device_id = device->id;
        return choice;
      }
    }
  }
  choice.problem = accelerator + memory_text;
  choice.ambiguous = true;
  std::string ids;
  for (const Device* device : candidates) ids += (ids.empty() ? "" : " or ") + device->id;
  choice.hint = "could be " + ids +
                ": neither the instance name nor GpuInfo says which; an offering of that id in the catalogue (or an "
                "overlay given with --catalog) with its device settles it";
  return choice;
}

// A new instance type's fields that no price file states, from the catalogue's offerings of
// the same provider, device and count (Cudo's sapphire-rapids-h100_2x8v16gb from its
// _2x16v32gb sibling: the same two GPUs cut from an 8-GPU board, another host shape), where
// every such sibling agrees; none where there is none, or they disagree.
Offering PriceImporter::sibling_fields(const std::string& provider, const std::string& device_id, int devices) const {
  Offering fields;
  bool first = true;
  bool network_agrees = true;
  bool interconnect_agrees = true;
  for (const Offering& other : m_catalog.offerings()) {
    if (other.provider != provider || other.device_id != device_id || other.devices_per_unit != devices) continue;
    if (first) {
      fields.network_gbps = other.network_gbps;
      fields.interconnect = other.interconnect;
      first = false;
      continue;
    }
    network_agrees = network_agrees && other.network_gbps == fields.network_gbps;
    interconnect_agrees = interconnect_agrees && other.interconnect == fields.interconnect;
  }
  if (!network_agrees) fields.network_gbps.reset();
  if (!interconnect_agrees) fields.interconnect.reset();
  return fields;
}

void PriceImporter::add_skypilot_csv(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  m_unit_words[file] = "lines";
  const Rows rows(text, file_name);
  // Read a record at a time: the records of a whole cloud's file are never held at once.
  CsvReader reader(text, file_name);
  CsvRecord header;
  if (!reader.next(header)) rows.fail(1, 1, "the file is empty", std::string(k_columns_hint));
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
  columns.zone = column_of("AvailabilityZone");
  columns.gpu_info = column_of("GpuInfo");
  enum { instance_type, accelerator_name, accelerator_count, vcpus, memory_gib, price, region };
  const std::string provider = provider_for(file_name);
  GcpJoin join(m_catalog);

  CsvRecord record;
  while (reader.next(record)) {
    if (record.fields.size() != header.fields.size()) {
      rows.fail(record.line, 1,
                "the row has " + std::to_string(record.fields.size()) + " fields; the header has " +
                    std::to_string(header.fields.size()),
                "one field per column; quote a field that holds a comma (\"a, b\")");
    }
    ++m_rows;
    auto index_of = [&](int column) { return columns.required[static_cast<std::size_t>(column)]; };
    auto text_of = [&](int column) -> const std::string& {
      return record.fields[static_cast<std::size_t>(index_of(column))].text;
    };
    for (int column : {instance_type, accelerator_name, region}) {
      rows.check_text(record, index_of(column), k_required_columns[static_cast<std::size_t>(column)]);
    }
    auto number_of = [&](int column) {
      return rows.number(record, index_of(column), k_required_columns[static_cast<std::size_t>(column)],
                         column == price);
    };
    PriceRow row;
    row.file = file;
    row.line = record.line;
    row.instance = text_of(instance_type);
    row.accelerator = text_of(accelerator_name);
    row.region = text_of(region);
    row.zone = columns.zone >= 0 ? record.fields[static_cast<std::size_t>(columns.zone)].text : std::string();
    row.gpu_info =
        columns.gpu_info >= 0 ? record.fields[static_cast<std::size_t>(columns.gpu_info)].text : std::string();
    row.on_demand = number_of(price);
    row.spot = columns.spot >= 0 ? rows.number(record, columns.spot, "SpotPrice", true) : std::nullopt;
    row.count = number_of(accelerator_count);
    row.vcpus = number_of(vcpus);
    row.memory_gib = number_of(memory_gib);

    // GCP prices a GPU VM's host and its GPUs on rows of their own: join them at the file's end.
    if (provider == "gcp" && join.take(row)) continue;
    add_raw_row(provider, row);
  }
  GcpJoin::Joined joined = join.joined();
  for (const SkippedRows& skipped : joined.skipped) skip(skipped.reason, skipped.rows);
  for (const PriceRow& row : joined.rows) add_raw_row(provider, row);
}

void PriceImporter::add_raw_row(const std::string& provider, const PriceRow& row) {
  const std::string at = row.file + ":" + std::to_string(row.line);
  std::string instance = row.instance;
  std::string device_id;
  int devices = 1;
  if (row.accelerator.empty()) {
    if (m_settings.cpu_device.empty()) {
      skip("no accelerator (CPU-only; --include-cpu DEVICE imports them)");
      return;
    }
    device_id = m_settings.cpu_device;
  } else if (row.accelerator.starts_with("tpu-")) {
    // TPU slices are rows of their own, named in AcceleratorName, count 1 (gcp/vms.csv).
    const std::optional<TpuSlice> slice = tpu_slice(row.accelerator);
    if (!slice || m_catalog.find_device(slice->device_id) == nullptr) {
      unknown({row.accelerator, 1, at, "", false}, skypilot_accelerator_names());
      return;
    }
    if (instance.empty()) instance = row.accelerator;
    // The file gives a slice no vCPUs or memory; the catalogue's entry has its host VMs.
    if (m_catalog.find_offering(provider + "-" + id_part(instance)) == nullptr) {
      skip("a TPU slice the catalogue lacks (the file gives no host VMs for it; add its entry first)");
      return;
    }
    device_id = slice->device_id;
    devices = slice->chips;
  } else {
    if (instance.empty()) {
      skip("an accelerator priced apart from a host VM the catalogue pairs it with (GCP's attachable GPUs)");
      return;
    }
    const std::optional<double>& count = row.count;
    if (!count || *count < 1 || *count != std::floor(*count)) {
      skip("an accelerator count that is not a whole number >= 1 (a GPU fraction)");
      return;
    }
    if (*count > m_settings.sanity.max_accelerators_per_instance) {
      warn(at, "dropped: " + format_general(*count, 15) + " accelerators in one instance (more than " +
                   std::to_string(m_settings.sanity.max_accelerators_per_instance) + ": not an instance)");
      return;
    }
    devices = static_cast<int>(*count);
    const std::string id = provider + "-" + id_part(instance);
    const std::string_view form =
        !stated_form_factor(instance).empty() ? stated_form_factor(instance) : stated_form_factor(row.accelerator);
    const DeviceChoice choice =
        choose_device(provider, row.accelerator, accelerator_memory_gib(provider, row.gpu_info, devices), form, id);
    if (choice.device_id.empty()) {
      unknown({choice.problem, 1, at, choice.hint, choice.ambiguous}, {});
      return;
    }
    device_id = choice.device_id;
  }
  if (row.region.empty()) {
    skip("no region");
    return;
  }
  if (!row.on_demand) {
    skip("no on-demand price");
    return;
  }
  const std::string id = provider + "-" + id_part(instance);
  if (!is_valid_id(id)) {
    skip("an instance name that is not usable in an id");
    return;
  }
  // Fields the file does not state (network_gbps, interconnect, max_units) stay as the
  // catalogue has them; a new instance type takes them from its siblings (below).
  Offering offering;
  if (const Offering* known = m_catalog.find_offering(id); known != nullptr && known->device_id == device_id) {
    offering = *known;
  } else {
    offering = sibling_fields(provider, device_id, devices);
  }
  const bool known = !offering.id.empty();
  offering.id = id;
  offering.provider = provider;
  offering.kind = OfferingKind::cloud;
  // A joined GCP VM keeps the catalogue's name ("n1-standard-8 + 1x V100 16GB").
  if (!known || row.joined_line == 0) offering.name = instance;
  offering.device_id = device_id;
  offering.devices_per_unit = devices;
  if (row.vcpus && *row.vcpus >= 1 && *row.vcpus == std::floor(*row.vcpus) && *row.vcpus <= 1'000'000)
    offering.vcpus = static_cast<int>(*row.vcpus);
  if (row.memory_gib && *row.memory_gib > 0 && *row.memory_gib < 1e9) {
    offering.host_memory = Bytes{*row.memory_gib * k_gibi};
  }
  offering.price = {};  // the file's, by region (result())
  offering.other_regions.clear();
  add_row(std::move(offering), row);
}

}  // namespace mlsize
