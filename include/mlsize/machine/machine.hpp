#pragma once
// What a machine says of itself: its GPUs (nvidia-smi, rocm-smi), its CPU (/proc/cpuinfo,
// or sysctl on macOS) and its memory (/proc/meminfo, sysctl), read from the text those
// tools and files give (docs/cli.md#detect). The core parses text; the CLI runs the tools,
// or reads their outputs recorded in a directory (`--from DIR`).

#include <mlsize/support/names.hpp>
#include <mlsize/support/units.hpp>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// Where a reading comes from. Its name is the file that holds it in a recorded directory.
enum class MachineSource { nvidia_smi, nvidia_smi_list, rocm_smi, cpuinfo, meminfo, sysctl };
constexpr auto enum_names(MachineSource) {
  using enum MachineSource;
  return std::to_array<EnumName<MachineSource>>({{nvidia_smi, "nvidia-smi.csv"},
                                                 {nvidia_smi_list, "nvidia-smi-L.txt"},
                                                 {rocm_smi, "rocm-smi.json"},
                                                 {cpuinfo, "cpuinfo"},
                                                 {meminfo, "meminfo"},
                                                 {sysctl, "sysctl.txt"}});
}

// The fields asked of nvidia-smi, in this order (`--format=csv`: a header line, then one line
// per GPU with units, "81559 MiB"). A recorded file may also be `csv,noheader,nounits`.
inline constexpr std::string_view k_nvidia_smi_fields = "index,name,memory.total,pci.bus_id,mig.mode.current";

// How a live machine gives a source: the command to run (its argv), or else the file to read.
struct SourceProbe {
  std::span<const std::string_view> command;
  std::string_view file;
};
SourceProbe probe_of(MachineSource source);

// One output of a tool or one file, and the name errors give it ("nvidia-smi", "DIR/cpuinfo").
struct MachineReading {
  MachineSource source = MachineSource::cpuinfo;
  std::string text;
  std::string name;
};

// Everything read of one machine: the outputs found, and why others are missing ("nvidia-smi:
// not installed"), which are notes, not errors.
struct MachineReadings {
  std::vector<MachineReading> readings;
  std::vector<std::string> notes;
};

// One MIG instance of a GPU (`nvidia-smi -L`): its profile names the share of the GPU it has.
struct MigInstance {
  std::string profile;     // "3g.40gb": 3 of the GPU's compute slices (7 on A100 and H100), 40 GB
  int compute_slices = 0;  // 3
  double memory_gb = 0;    // 40: the profile's nominal memory, as its name gives it
};

struct DetectedGpu {
  int index = 0;                // as the tool numbers it
  std::string name;             // as the tool names it: "NVIDIA H100 80GB HBM3"
  std::string vendor;           // "nvidia", "amd" or "apple"
  std::optional<Bytes> memory;  // total, as the driver reports it; absent where it says "[N/A]"
  std::string bus_id;           // PCI bus id, "00000000:1B:00.0"; empty when not reported
  bool mig = false;             // MIG mode on: CUDA sees the GPU's instances, not the GPU
  std::vector<MigInstance> mig_instances;
};

struct DetectedCpu {
  std::string model;   // "Intel(R) Xeon(R) Platinum 8480+"; empty when the text names none
  std::string vendor;  // "intel", "amd", "arm", "apple", or empty
  int sockets = 1;
  int cores = 0;    // physical cores, all sockets
  int threads = 0;  // logical CPUs
};

struct DetectedMachine {
  std::vector<DetectedGpu> gpus;
  std::optional<DetectedCpu> cpu;
  std::optional<Bytes> memory;     // RAM
  std::vector<std::string> notes;  // what could not be read, and why
};

// Parses every reading. `lenient` (a live machine): an output that does not parse becomes a
// note; otherwise (recorded files) it throws Error (input) at its file and line.
DetectedMachine read_machine(const MachineReadings& readings, bool lenient);

// The parsers, one per source; each throws Error (input) naming `name` and the line.
// nvidia-smi --query-gpu=k_nvidia_smi_fields --format=csv (or csv,noheader,nounits).
std::vector<DetectedGpu> parse_nvidia_smi_csv(std::string_view text, const std::string& name);
// nvidia-smi -L: the MIG instances under each GPU line, added to `gpus` by index; the GPUs
// themselves (names only) when `gpus` is empty.
void parse_nvidia_smi_list(std::string_view text, const std::string& name, std::vector<DetectedGpu>& gpus);
// rocm-smi --showproductname --showmeminfo vram --json.
std::vector<DetectedGpu> parse_rocm_smi_json(std::string_view text, const std::string& name);
DetectedCpu parse_cpuinfo(std::string_view text, const std::string& name);
Bytes parse_meminfo(std::string_view text, const std::string& name);
// sysctl machdep.cpu.brand_string hw.memsize hw.ncpu hw.physicalcpu hw.packages (macOS).
struct SysctlFacts {
  DetectedCpu cpu;
  std::optional<Bytes> memory;
};
SysctlFacts parse_sysctl(std::string_view text, const std::string& name);

}  // namespace mlsize
