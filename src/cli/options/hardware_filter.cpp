#include "cli/options/hardware_filter.hpp"

#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <charconv>

namespace mlsize::cli {

void add_hardware_options(CLI::App& command, HardwareOptions& options, bool with_device) {
  command.option_defaults()->group(k_group_hardware);  // and the options added after, until another group
  if (with_device) {
    command
        .add_option("--device", options.devices,
                    "Only offerings of these devices: ids or aliases, e.g. h100,a100-80gb; repeatable")
        ->type_name("ID")
        ->delimiter(',');
    command
        .add_option("--gpus", options.gpus,
                    "Only these devices, and with :N only plans of exactly N of them, e.g. h100:8 or "
                    "a100-80gb:4,h100:8; any device id or alias (GPUs, TPUs, CPUs); repeatable")
        ->type_name("ACC[:N]")
        ->delimiter(',');
  }
  command
      .add_option("--kind", options.kind,
                  choice_help(names<DeviceKind>()) + ": only devices of this kind and their offerings")
      ->type_name("KIND");
  command.add_option("--min-memory", options.min_memory, "Only devices with at least this memory, e.g. 40GB")
      ->type_name("BYTES");
}

std::optional<Bytes> offering_memory(const Offering& offering, const Device& device) {
  return device.memory ? device.memory : offering.host_memory;
}

const Device& find_device_for_flag(const Catalog& catalog, const std::string& flag, const std::string& name) {
  const std::string lowered = lower_case(name);
  const Device* device = catalog.find_device(lowered);
  if (device == nullptr) {
    const std::string hint = did_you_mean(lowered, catalog.device_names());
    flag_error(flag, in_quotes(name) + " is not a device of the catalogue",
               hint.empty() ? "mlsize catalog list shows the devices and their ids" : hint);
  }
  return *device;
}

GpuRequest parse_gpu_request(const Catalog& catalog, const std::string& flag, const std::string& text) {
  const std::string accepted =
      "ACC or ACC:N: a device id or alias, and a count of devices from 1 to 1000000, "
      "e.g. h100:8 or a100-80gb:4,h100:8";
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (name.empty()) flag_error(flag, in_quotes(text) + " names no device before the count", accepted);
  GpuRequest request;
  request.device = &find_device_for_flag(catalog, flag, name);
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
    m_device_ids.push_back(find_device_for_flag(catalog, "--device", id).id);
  }
  std::vector<std::string> any_count;  // devices --gpus named without a count
  for (const std::string& text : options.gpus) {
    const GpuRequest request = parse_gpu_request(catalog, "--gpus", text);
    const std::string& id = request.device->id;
    m_device_ids.push_back(id);
    if (request.count) {
      m_device_counts[id].push_back(*request.count);
    } else {
      any_count.push_back(id);
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
