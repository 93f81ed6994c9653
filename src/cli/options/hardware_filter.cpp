#include "cli/options/hardware_filter.hpp"

#include "cli/options/choice.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>

namespace mlsize::cli {

void add_hardware_options(CLI::App& command, HardwareOptions& options, bool with_device) {
  if (with_device) {
    command
        .add_option("--device", options.devices,
                    "Only offerings of these devices: ids or aliases, e.g. h100,a100-80gb; repeatable")
        ->delimiter(',');
  }
  command.add_option("--kind", options.kind,
                     choice_help(names<DeviceKind>()) + ": only devices of this kind and their offerings");
  command.add_option("--min-memory", options.min_memory, "Only devices with at least this memory, e.g. 40GB");
}

std::optional<Bytes> offering_memory(const Offering& offering, const Device& device) {
  return device.memory ? device.memory : offering.host_memory;
}

HardwareFilter::HardwareFilter(const HardwareOptions& options, const Catalog& catalog) {
  for (const std::string& id : options.devices) {
    const Device* device = catalog.find_device(id);
    if (device == nullptr) {
      const std::string hint = did_you_mean(id, catalog.device_names());
      flag_error("--device", "\"" + id + "\" is not a device of the catalogue",
                 hint.empty() ? "mlsize catalog list shows the devices and their ids" : hint);
    }
    m_device_ids.push_back(device->id);
  }
  if (options.kind) m_kind = parse_choice<DeviceKind>("--kind", *options.kind);
  if (options.min_memory) m_min_memory = parse_flag("--min-memory", [&] { return parse_bytes(*options.min_memory); });
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
