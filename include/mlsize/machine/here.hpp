#pragma once
// A detected machine against the catalogue: each GPU and the CPU as catalogue devices, and the
// machine as an owned on-premise offering that `recommend --here` and `estimate --here`
// plan on (docs/cli.md#detect).

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/machine/device_match.hpp>
#include <mlsize/machine/machine.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

struct MappedGpu {
  DetectedGpu gpu;
  DeviceMatch match;
};

struct MachineMap {
  std::vector<MappedGpu> gpus;
  std::optional<DetectedCpu> cpu;
  DeviceMatch cpu_match;
  std::optional<Bytes> memory;     // RAM
  std::vector<std::string> notes;  // the detection's notes
};

// Each GPU and the CPU matched to `catalog`. An Apple chip, which reports itself only as a
// CPU (sysctl), is also listed as its GPU with the RAM it shares, when the catalogue has it.
MachineMap map_machine(DetectedMachine machine, const Catalog& catalog);

// The offering id of the machine in --here's catalogue.
inline constexpr std::string_view k_here_offering = "here";
// The id of a detected CPU the catalogue does not have.
inline constexpr std::string_view k_here_cpu_device = "here-cpu";

// The machine as one unit of an owned on-premise offering: its largest group of the same GPU
// (most of them, then the most memory), MIG-split GPUs left out; or, with no GPU, its CPU.
struct HereHardware {
  Device device;                   // the catalogue's, with the memory this machine reports
  Offering offering;               // id k_here_offering, kind on-prem, one unit of every device of the group
  std::vector<std::string> notes;  // what was left out, and why; what differs from the catalogue
  bool cpu_only = false;           // no GPU: the device is the CPU
};

// `origin` names the machine in the offering ("this machine", "the machine recorded in DIR").
// Throws Error (input) when there is nothing to plan on: every GPU split by MIG, a GPU the
// catalogue lacks, no GPU and no CPU read.
HereHardware here_hardware(const MachineMap& machine, std::string_view origin);

}  // namespace mlsize
