#include "cli/options/hardware_filter.hpp"

#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace mlsize::cli {

void add_hardware_options(CLI::App& command, HardwareOptions& options, bool with_device) {
  CLI::App* in = &option_group(command, k_group_hardware);
  if (with_device) {
    in->add_option("--device", options.devices,
                   "Only offerings of these devices: ids or aliases, e.g. h100,a100-80gb; repeatable")
        ->type_name("ID")
        ->delimiter(',');
    in->add_option("--gpus", options.gpus,
                   "Only these devices, and with :N only plans of exactly N of them, e.g. h100:8 or "
                   "a100-80gb:4,h100:8; any device id or alias (GPUs, TPUs, CPUs); repeatable")
        ->type_name("ACC[:N]")
        ->delimiter(',');
  }
  in->add_option("--kind", options.kind,
                 choice_help(names<DeviceKind>()) + ": only devices of this kind and their offerings")
      ->type_name("KIND");
  in->add_option("--min-memory", options.min_memory, "Only devices with at least this memory, e.g. 40GB")
      ->type_name("BYTES");
}

std::optional<Bytes> offering_memory(const Offering& offering, const Device& device) {
  return device.memory ? device.memory : offering.host_memory;
}

namespace {

std::string ids_of(const std::vector<const Device*>& devices) {
  std::string text;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == devices.size() ? " and " : ", ") + devices[i]->id;
  }
  return text;
}

// The catalogue's devices among SkyPilot's readings of `name` (any cloud's general one).
std::vector<const Device*> catalogued(const Catalog& catalog, const std::vector<std::string_view>& ids) {
  std::vector<const Device*> devices;
  for (std::string_view id : ids) {
    if (const Device* device = catalog.find_device(id)) devices.push_back(device);
  }
  return devices;
}

// Devices whose id has what was typed as one of its parts ("4090": rtx-4090, "a100": the
// four A100s); else the nearest names.
std::string suggestion(const Catalog& catalog, const std::string& lowered) {
  std::vector<std::string> holding;
  for (const Device& device : catalog.devices()) {
    const std::string& id = device.id;
    for (std::size_t start = 0; start <= id.size();) {
      const std::size_t end = std::min(id.find('-', start), id.size());
      if (id.compare(start, end - start, lowered) == 0) {
        holding.push_back(id);
        break;
      }
      start = end + 1;
    }
  }
  if (!holding.empty() && holding.size() <= 6) {
    std::string text = "did you mean ";
    for (std::size_t i = 0; i < holding.size(); ++i) {
      text += (i == 0 ? "" : i + 1 == holding.size() ? " or " : ", ") + in_quotes(holding[i]);
    }
    return text + "?";
  }
  std::vector<std::string> names = catalog.device_names();
  const std::vector<std::string> skypilot = skypilot_accelerator_names();
  names.insert(names.end(), skypilot.begin(), skypilot.end());
  return did_you_mean(lowered, names);
}

}  // namespace

NamedDevices devices_named(const Catalog& catalog, const std::string& name) {
  const std::string lowered = lower_case(name);
  NamedDevices named;
  if (const Device* device = catalog.find_device(lowered)) {
    named.devices.push_back(device);
    return named;
  }
  for (const std::string& accelerator : skypilot_accelerator_names()) {
    if (lower_case(accelerator) != lowered) continue;
    named.devices = catalogued(catalog, devices_of_skypilot_accelerator("", accelerator));
    if (named.devices.size() > 1) {
      named.note = fmt::format("mlsize: note: {} is SkyPilot's name for {}", accelerator, ids_of(named.devices));
      const std::vector<const Device*> larger =
          catalogued(catalog, memory_variants_of_skypilot_accelerator(accelerator));
      if (!larger.empty()) named.note += fmt::format("; its larger-memory parts are {}", ids_of(larger));
      named.note += "\n";
    }
    if (!named.devices.empty()) return named;
  }
  // A TPU slice as the tables label it: the offering's id without its provider.
  for (const Offering& offering : catalog.offerings()) {
    const std::string& id = offering.id;
    if (id.size() == offering.provider.size() + 1 + lowered.size() && id.starts_with(offering.provider + "-") &&
        id.ends_with(lowered)) {
      const Device* device = catalog.find_device(offering.device_id);
      if (device == nullptr || device->kind != DeviceKind::tpu) continue;
      named.devices.push_back(device);
      named.slice = &offering;
      return named;
    }
  }
  return named;
}

const Device& find_device_for_flag(const Catalog& catalog, const std::string& flag, const std::string& name) {
  const NamedDevices named = devices_named(catalog, name);
  if (named.devices.empty()) {
    const std::string hint = suggestion(catalog, lower_case(name));
    flag_error(flag, in_quotes(name) + " is not a device of the catalogue",
               hint.empty() ? "mlsize catalog list shows the devices and their ids" : hint);
  }
  if (named.devices.size() > 1) {
    flag_error(flag, in_quotes(name) + " means " + ids_of(named.devices) + " (SkyPilot's name for either)",
               "give one of them; recommend --gpus " + name + " compares them");
  }
  return *named.devices.front();
}

GpuRequest parse_gpu_request(const Catalog& catalog, const std::string& flag, const std::string& text) {
  const std::string accepted =
      "ACC or ACC:N: a device id or alias, SkyPilot's name (A100, H100:8) or a TPU slice (tpu-v6e-64), and a count "
      "of devices from 1 to 1000000, e.g. h100:8 or a100-80gb:4,h100:8";
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (name.empty()) flag_error(flag, in_quotes(text) + " names no device before the count", accepted);
  GpuRequest request;
  NamedDevices named = devices_named(catalog, name);
  if (named.devices.empty()) find_device_for_flag(catalog, flag, name);  // throws with the nearest names
  request.devices = std::move(named.devices);
  request.note = std::move(named.note);
  if (named.slice != nullptr) {
    // A slice is its chips: tpu-v6e-64 stands for tpu-v6e:64 (v4-8 for its 4 chips' 8 cores).
    if (colon != std::string::npos) {
      flag_error(flag,
                 in_quotes(text) + ": " + name + " is a slice of " + std::to_string(named.slice->devices_per_unit) +
                     " " + request.devices.front()->id + " chips already",
                 "drop :" + text.substr(colon + 1) + ", or give " + request.devices.front()->id + ":N");
    }
    request.count = named.slice->devices_per_unit;
    return request;
  }
  if (colon == std::string::npos) return request;
  const std::string count = text.substr(colon + 1);
  int value = 0;
  const char* end = count.data() + count.size();
  const auto [ptr, ec] = std::from_chars(count.data(), end, value);
  if (count.empty() || ec != std::errc() || ptr != end || value < 1 || value > 1'000'000) {
    flag_error(flag, in_quotes(text) + ": the count after ':' must be a whole number from 1 to 1000000", accepted);
  }
  request.count = value;
  return request;
}

HardwareFilter::HardwareFilter(const HardwareOptions& options, const Catalog& catalog) {
  if (!options.devices.empty() && !options.gpus.empty()) {
    flag_error("--gpus", "give only one of --device or --gpus",
               "--gpus takes ids without a count too, e.g. --gpus a100-80gb,h100:8");
  }
  for (const std::string& id : options.devices) {
    NamedDevices named = devices_named(catalog, id);
    if (named.devices.empty()) find_device_for_flag(catalog, "--device", id);  // throws with the nearest names
    if (m_notes.find(named.note) == std::string::npos) m_notes += named.note;
    for (const Device* device : named.devices) m_device_ids.push_back(device->id);
  }
  std::vector<std::string> any_count;  // devices --gpus named without a count
  for (const std::string& text : options.gpus) {
    const GpuRequest request = parse_gpu_request(catalog, "--gpus", text);
    if (m_notes.find(request.note) == std::string::npos) m_notes += request.note;
    for (const Device* device : request.devices) {
      const std::string& id = device->id;
      m_device_ids.push_back(id);
      if (request.count) {
        m_device_counts[id].push_back(*request.count);
      } else {
        any_count.push_back(id);
      }
    }
  }
  for (const std::string& id : any_count) {
    if (m_device_counts.contains(id)) {
      flag_error("--gpus", in_quotes(id) + " is given both with and without a count",
                 "give its counts only, e.g. " + id + ":8 or " + id + ":8," + id + ":16 for either");
    }
  }
  if (options.kind) m_kind = parse_choice<DeviceKind>("--kind", *options.kind);
  if (options.min_memory) m_min_memory = parse_size_flag(*options.min_memory, "--min-memory", "24GB or 80GiB");
}

bool HardwareFilter::keeps(const Device& device, std::optional<Bytes> memory) const {
  const bool named =
      m_device_ids.empty() || std::find(m_device_ids.begin(), m_device_ids.end(), device.id) != m_device_ids.end();
  return named && (!m_kind || device.kind == *m_kind) && (!m_min_memory || (memory && *memory >= *m_min_memory));
}

Catalog filter_hardware(Catalog catalog, const HardwareFilter& filter) {
  if (filter.keeps_all()) return catalog;
  Catalog filtered;
  for (const Device& device : catalog.devices()) filtered.put(device);
  for (const Offering& offering : catalog.offerings()) {
    const Device* device = catalog.find_device(offering.device_id);
    if (device != nullptr && filter.keeps(offering, *device)) filtered.put(offering);
  }
  return filtered;
}

}  // namespace mlsize::cli
