#pragma once
// Which hardware a command considers: --device, --gpus, --kind and --min-memory, shared by
// `recommend` (and `explain`) and `catalog list`.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/units.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// Raw flag text, parsed by HardwareFilter so that errors name the flag.
struct HardwareOptions {
  std::vector<std::string> devices;  // --device ID[,ID]: ids or aliases; repeatable
  std::vector<std::string> gpus;     // --gpus ACC[:N][,ACC[:N]]: devices, each at exactly N; repeatable
  std::optional<std::string> kind;   // --kind gpu|tpu|npu|cpu
  std::optional<std::string> min_memory;
};

// Adds --kind and --min-memory, and --device and --gpus when `with_device` (estimate has its own).
void add_hardware_options(CLI::App& command, HardwareOptions& options, bool with_device);

// What a device offers: its own memory, or for CPUs (no memory_gb) the offering's host RAM.
std::optional<Bytes> offering_memory(const Offering& offering, const Device& device);

// The devices a name people type means (issue 51), in any case: a catalogue id or alias;
// else SkyPilot's accelerator name (`A100` is the 40 GB part, SXM or PCIe, as `sky launch
// --gpus A100` takes either; `A100-80GB`, `H100`, `L4`, ...); else a TPU slice as the tables
// label it (`tpu-v6e-64`: the offering gcp-tpu-v6e-64, its device and its chips). `note`
// says what a name of several devices stands for; empty `devices`: none.
struct NamedDevices {
  std::vector<const Device*> devices;
  const Offering* slice = nullptr;
  std::string note;
};
NamedDevices devices_named(const Catalog& catalog, const std::string& name);

// The one device `name` gives to `flag` (devices_named). Throws a usage Error naming the flag:
// with the nearest names when there is none, with the devices when the name means several.
const Device& find_device_for_flag(const Catalog& catalog, const std::string& flag, const std::string& name);

// One ACC[:N] of --gpus: its devices (several for a SkyPilot name such as A100) and, when
// given, their exact count (a TPU slice's label gives its own).
struct GpuRequest {
  std::vector<const Device*> devices;
  std::optional<int> count;
  std::string note;
};
// Parses one ACC[:N] given to `flag`; throws a usage Error naming the flag and the form.
GpuRequest parse_gpu_request(const Catalog& catalog, const std::string& flag, const std::string& text);

class HardwareFilter {
 public:
  // Throws a usage Error naming the flag for an unknown device (with the nearest id), an
  // unknown kind, a bad size, a bad --gpus count, or --device given with --gpus.
  HardwareFilter(const HardwareOptions& options, const Catalog& catalog);

  // Whether `device`, holding `memory`, passes --device, --kind and --min-memory.
  bool keeps(const Device& device, std::optional<Bytes> memory) const;
  bool keeps_all() const { return m_device_ids.empty() && !m_kind && !m_min_memory; }
  // The exact counts --gpus asked for, by canonical device id (RecommendSettings::device_counts).
  const std::map<std::string, std::vector<int>, std::less<>>& device_counts() const { return m_device_counts; }
  // What the names given stand for, a line each ("mlsize: note: ..."), for stderr.
  const std::string& notes() const { return m_notes; }
  bool keeps(const Offering& offering, const Device& device) const {
    return keeps(device, offering_memory(offering, device));
  }

 private:
  std::vector<std::string> m_device_ids;  // canonical ids (aliases resolved); empty: any
  std::optional<DeviceKind> m_kind;
  std::optional<Bytes> m_min_memory;
  std::map<std::string, std::vector<int>, std::less<>> m_device_counts;
  std::string m_notes;
};

// Every device, and the offerings whose device the filter keeps; `catalog` itself when no
// flag was given (the common case: no copy at start-up).
Catalog filter_hardware(Catalog catalog, const HardwareFilter& filter);

}  // namespace mlsize::cli
