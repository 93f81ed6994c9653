#pragma once
// Which hardware a command considers: --device, --kind and --min-memory, shared by
// `recommend` (and `explain`) and `catalog list`.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/units.hpp>

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// Raw flag text, parsed by HardwareFilter so that errors name the flag.
struct HardwareOptions {
  std::vector<std::string> devices;  // --device ID[,ID]: ids or aliases; repeatable
  std::optional<std::string> kind;   // --kind gpu|tpu|npu|cpu
  std::optional<std::string> min_memory;
};

// Adds --kind and --min-memory, and --device when `with_device` (estimate has its own).
void add_hardware_options(CLI::App& command, HardwareOptions& options, bool with_device);

// What a device offers: its own memory, or for CPUs (no memory_gb) the offering's host RAM.
std::optional<Bytes> offering_memory(const Offering& offering, const Device& device);

class HardwareFilter {
 public:
  // Throws a usage Error naming the flag for an unknown device (with the nearest id), an
  // unknown kind or a bad size.
  HardwareFilter(const HardwareOptions& options, const Catalog& catalog);

  // Whether `device`, holding `memory`, passes --device, --kind and --min-memory.
  bool keeps(const Device& device, std::optional<Bytes> memory) const;
  bool keeps_all() const { return m_device_ids.empty() && !m_kind && !m_min_memory; }
  bool keeps(const Offering& offering, const Device& device) const {
    return keeps(device, offering_memory(offering, device));
  }

 private:
  std::vector<std::string> m_device_ids;  // canonical ids (aliases resolved); empty: any
  std::optional<DeviceKind> m_kind;
  std::optional<Bytes> m_min_memory;
};

// Every device, and the offerings whose device the filter keeps; `catalog` itself when no
// flag was given (the common case: no copy at start-up).
Catalog filter_hardware(Catalog catalog, const HardwareFilter& filter);

}  // namespace mlsize::cli
