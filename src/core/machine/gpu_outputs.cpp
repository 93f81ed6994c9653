// The GPU tools' outputs: nvidia-smi's CSV query and its -L list, and rocm-smi's JSON.
// Their shapes, with sources, are in docs/cli.md#detect.

#include <mlsize/machine/machine.hpp>

#include "core/support/json_keys.hpp"
#include "core/support/text_lines.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace mlsize {

using namespace text;

namespace {

constexpr double k_mebi = 1024.0 * 1024.0;

// A CSV header's field without its unit: "memory.total [MiB]" -> "memory.total".
std::string field_name(std::string_view header) {
  const std::size_t bracket = header.find(" [");
  return lower(trim(header.substr(0, bracket)));
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// nvidia-smi's words for a value it does not give: "[N/A]", "[Not Supported]", "[Insufficient
// Permissions]", any other "[...]", and "N/A".
bool not_available(std::string_view value) {
  return value.empty() || (value.front() == '[' && value.back() == ']') || lower(value) == "n/a";
}

struct CsvRow {
  int line = 0;
  std::string_view text;
  std::vector<std::string_view> fields;
};

DetectedGpu gpu_of_row(const CsvRow& row, const std::vector<std::string>& columns, const std::string& name) {
  DetectedGpu gpu;
  gpu.vendor = "nvidia";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& column = columns[i];
    const std::string_view value = row.fields[i];
    if (column == "index") {
      const std::optional<double> index = whole_number(value);
      if (!index || *index > 1e6)
        fail_at(name, row.line, row.text, "index \"" + std::string(value) + "\" is not a GPU number");
      gpu.index = static_cast<int>(*index);
    } else if (column == "name") {
      gpu.name = std::string(value);
    } else if (column == "memory.total") {
      if (not_available(value)) continue;
      // "81559 MiB" (--format=csv) or "81559" (nounits): MiB either way.
      std::string_view number = value;
      if (number.ends_with("MiB")) number = trim(number.substr(0, number.size() - 3));
      const std::optional<double> mib = whole_number(number);
      if (!mib) {
        fail_at(name, row.line, row.text, "memory.total \"" + std::string(value) + "\" is not a number of MiB",
                "nvidia-smi writes it as 81559 MiB (--format=csv) or 81559 (nounits)");
      }
      gpu.memory = Bytes(*mib * k_mebi);
    } else if (column == "pci.bus_id") {
      if (!not_available(value)) gpu.bus_id = std::string(value);
    } else if (column == "mig.mode.current") {
      const std::string mode = lower(value);
      if (mode == "enabled") {
        gpu.mig = true;
      } else if (mode != "disabled" && !not_available(value)) {
        fail_at(name, row.line, row.text, "mig.mode.current \"" + std::string(value) + "\" is not Enabled or Disabled",
                "nvidia-smi writes Enabled, Disabled or [N/A] (a GPU without MIG)");
      }
    }
  }
  if (gpu.name.empty()) fail_at(name, row.line, row.text, "a GPU without a name");
  return gpu;
}

}  // namespace

std::vector<DetectedGpu> parse_nvidia_smi_csv(std::string_view text, const std::string& name) {
  // Without a header (noheader), the fields are those mlsize asks for, in its order.
  std::vector<std::string> columns;
  for (const std::string_view field : split_fields(k_nvidia_smi_fields)) columns.emplace_back(field);
  std::vector<DetectedGpu> gpus;
  bool first = true;
  int number = 0;
  for (const std::string_view line : lines_of(text)) {
    ++number;
    if (trim(line).empty()) continue;
    // What nvidia-smi prints, exit status 6, on a machine whose driver sees no GPU.
    if (trim(line) == "No devices were found") continue;
    std::vector<std::string_view> fields = split_fields(line);
    // The header (--format=csv) names the fields, in the order recorded; a GPU's line
    // never has a field that is "name" itself.
    const bool header =
        std::any_of(fields.begin(), fields.end(), [](std::string_view f) { return field_name(f) == "name"; });
    if (first && header) {
      columns.clear();
      for (const std::string_view heading : fields) columns.push_back(field_name(heading));
      first = false;
      continue;
    }
    first = false;
    if (fields.size() != columns.size()) {
      fail_at(name, number, line,
              std::to_string(fields.size()) + " fields where " + std::to_string(columns.size()) + " were expected",
              "record it with nvidia-smi --query-gpu=" + std::string(k_nvidia_smi_fields) + " --format=csv");
    }
    gpus.push_back(gpu_of_row(CsvRow{number, line, std::move(fields)}, columns, name));
    if (std::find(columns.begin(), columns.end(), "index") == columns.end()) {
      gpus.back().index = static_cast<int>(gpus.size()) - 1;
    }
  }
  return gpus;
}

namespace {

// "3g.40gb", "1g.10gb+me", "1c.3g.40gb" (a compute instance within a 3g instance).
std::optional<MigInstance> mig_profile(std::string_view profile) {
  MigInstance instance;
  instance.profile = std::string(profile);
  std::string_view rest = profile.substr(0, profile.find('+'));
  while (!rest.empty()) {
    const std::size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    // Each part is a number and its unit ("3g", "40gb"); a bare number ("3g.40") is no profile.
    const std::size_t digits = part.find_first_not_of("0123456789");
    if (part.size() < 2 || digits == std::string_view::npos) return std::nullopt;
    const std::string unit = lower(part.substr(digits));
    const std::optional<double> value = whole_number(part.substr(0, part.size() - unit.size()));
    if (!value || *value > 1e6) return std::nullopt;  // no GPU has a million slices (and an int holds it)
    if (unit == "g") instance.compute_slices = static_cast<int>(*value);
    if (unit == "gb") instance.memory_gb = *value;
  }
  if (instance.compute_slices == 0 || instance.memory_gb == 0) return std::nullopt;
  return instance;
}

}  // namespace

void parse_nvidia_smi_list(std::string_view text, const std::string& name, std::vector<DetectedGpu>& gpus) {
  const bool names_gpus = gpus.empty();
  DetectedGpu* current = nullptr;
  int number = 0;
  for (const std::string_view raw : lines_of(text)) {
    ++number;
    const std::string_view line = trim(raw);
    if (line.empty() || line == "No devices were found") continue;
    // "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-8e100991-...)"
    if (line.starts_with("GPU ")) {
      const std::size_t colon = line.find(':');
      const std::optional<double> index =
          colon == std::string_view::npos ? std::nullopt : whole_number(line.substr(4, colon - 4));
      if (!index || *index > 1e6)
        fail_at(name, number, raw, "a GPU line without its number", "nvidia-smi -L writes GPU 0: NAME (UUID: ...)");
      std::string_view gpu_name = trim(line.substr(colon + 1));
      gpu_name = trim(gpu_name.substr(0, gpu_name.rfind(" (UUID:")));
      if (names_gpus) {
        DetectedGpu gpu;
        gpu.index = static_cast<int>(*index);
        gpu.name = std::string(gpu_name);
        gpu.vendor = "nvidia";
        gpus.push_back(std::move(gpu));
      }
      const auto found =
          std::find_if(gpus.begin(), gpus.end(), [&](const DetectedGpu& g) { return g.index == *index; });
      current = found == gpus.end() ? nullptr : &*found;
      continue;
    }
    // "  MIG 3g.40gb     Device  0: (UUID: MIG-dcf43e8e-...)"
    if (line.starts_with("MIG ")) {
      if (current == nullptr) continue;  // a GPU the CSV does not list
      const std::string_view after = trim(line.substr(4));
      const std::optional<MigInstance> instance = mig_profile(after.substr(0, after.find_first_of(" \t")));
      if (!instance) {
        fail_at(name, number, raw, "a MIG instance whose profile is not like 3g.40gb",
                "nvidia-smi -L writes MIG 3g.40gb Device 0: (UUID: MIG-...)");
      }
      current->mig = true;
      current->mig_instances.push_back(*instance);
      continue;
    }
    fail_at(name, number, raw, "neither a GPU nor a MIG line", "nvidia-smi -L writes GPU 0: NAME (UUID: ...) lines");
  }
}

namespace {

// rocm-smi's key, in any case: "Card Series" (ROCm 6) or "Card series" (earlier).
const nlohmann::json* field(const nlohmann::json& card, std::string_view key) {
  for (auto entry = card.begin(); entry != card.end(); ++entry) {
    if (lower(entry.key()) == lower(key)) return &entry.value();
  }
  return nullptr;
}

std::string text_field(const nlohmann::json& card, std::string_view key) {
  const nlohmann::json* value = field(card, key);
  if (value == nullptr) return {};
  if (value->is_string()) return std::string(trim(value->get<std::string>()));
  if (value->is_number()) return value->dump();
  return {};
}

// A name that is a PCI id ("0x74a1"), as older rocm-smi gives for some cards, names nothing.
bool names_a_product(std::string_view text) {
  return !text.empty() && !lower(text).starts_with("0x") && lower(text) != "n/a";
}

}  // namespace

std::vector<DetectedGpu> parse_rocm_smi_json(std::string_view text, const std::string& name) {
  // rocm-smi may print warnings before its JSON.
  const std::size_t start = text.find('{');
  if (start == std::string_view::npos) {
    fail_at(name, 0, {}, "no JSON object in rocm-smi's output",
            "record it with rocm-smi --showproductname --showmeminfo vram --json");
  }
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text.substr(start));
  } catch (const nlohmann::json::parse_error& failure) {
    // `byte` counts from 1 and points past the offending character.
    const std::size_t at = start + (failure.byte > 0 ? failure.byte - 1 : 0);
    const std::string_view word = non_json_number_at(text, at);
    const int line =
        1 + static_cast<int>(
                std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(at, text.size())), '\n'));
    fail_at(name, line, {}, word.empty() ? std::string("not JSON") : std::string(word) + " is not a number JSON allows",
            "record it with rocm-smi --showproductname --showmeminfo vram --json");
  } catch (const nlohmann::json::exception& failure) {
    fail_at(name, 0, {}, std::string("not JSON: ") + failure.what(),
            "record it with rocm-smi --showproductname --showmeminfo vram --json");
  }
  if (const std::optional<RepeatedKey> repeated = find_repeated_key(text.substr(start))) {
    const auto line_of = [&](std::size_t offset) {
      return 1 + static_cast<int>(
                     std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(start + offset), '\n'));
    };
    fail_at(name, line_of(repeated->second), {},
            "duplicate key \"" + repeated->key + "\" (first at line " + std::to_string(line_of(repeated->first)) + ")",
            "rocm-smi writes each key once: record its output again");
  }
  if (!document.is_object()) fail_at(name, 0, {}, "rocm-smi's JSON is not an object of cards");
  // {"card0": {...}, "card1": {...}, "system": {...}}: the cards in their numbers' order.
  std::map<int, const nlohmann::json*> cards;
  for (auto entry = document.begin(); entry != document.end(); ++entry) {
    const std::string& key = entry.key();
    if (!key.starts_with("card") || !entry.value().is_object()) continue;
    const std::optional<double> number = whole_number(std::string_view(key).substr(4));
    if (number && *number < 1e6) cards[static_cast<int>(*number)] = &entry.value();
  }
  std::vector<DetectedGpu> gpus;
  for (const auto& [index, card] : cards) {
    DetectedGpu gpu;
    gpu.index = index;
    gpu.vendor = "amd";
    for (const char* key : {"Card Series", "Market Name", "Card Model", "Device Name", "Product Name"}) {
      const std::string value = text_field(*card, key);
      if (names_a_product(value)) {
        gpu.name = value;
        break;
      }
    }
    if (gpu.name.empty()) gpu.name = text_field(*card, "Card Series");
    if (gpu.name.empty()) gpu.name = "AMD GPU";
    const std::string memory = text_field(*card, "VRAM Total Memory (B)");
    if (!memory.empty()) {
      const std::optional<double> bytes = whole_number(memory);
      if (!bytes) {
        fail_at(name, 0, {},
                "card" + std::to_string(index) + ": VRAM Total Memory (B) \"" + memory + "\" is not a number of bytes");
      }
      gpu.memory = Bytes(*bytes);
    }
    gpu.bus_id = text_field(*card, "PCI Bus");
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

}  // namespace mlsize
