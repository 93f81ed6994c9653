#include <mlsize/machine/machine.hpp>

#include <mlsize/support/error.hpp>
#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace mlsize {
namespace {

// The commands, as docs/cli.md#detect gives them. --format=csv: with its header, so that a
// recorded file says which field is which.
constexpr std::array<std::string_view, 3> k_nvidia_smi_command{
    "nvidia-smi", "--query-gpu=index,name,memory.total,pci.bus_id,mig.mode.current", "--format=csv"};
static_assert(k_nvidia_smi_command[1].substr(12) == k_nvidia_smi_fields);
constexpr std::array<std::string_view, 2> k_nvidia_smi_list_command{"nvidia-smi", "-L"};
constexpr std::array<std::string_view, 5> k_rocm_smi_command{"rocm-smi", "--showproductname", "--showmeminfo", "vram",
                                                             "--json"};
constexpr std::array<std::string_view, 6> k_sysctl_command{"sysctl",  "machdep.cpu.brand_string", "hw.memsize",
                                                           "hw.ncpu", "hw.physicalcpu",           "hw.packages"};

// Parses one reading into `machine`.
void read_one(const MachineReading& reading, DetectedMachine& machine, bool& has_cpuinfo, bool& has_meminfo) {
  switch (reading.source) {
    case MachineSource::nvidia_smi: {
      std::vector<DetectedGpu> gpus = parse_nvidia_smi_csv(reading.text, reading.name);
      machine.gpus.insert(machine.gpus.begin(), gpus.begin(), gpus.end());
      break;
    }
    case MachineSource::nvidia_smi_list: {
      // Only the NVIDIA GPUs: rocm-smi's are numbered apart.
      std::vector<DetectedGpu> nvidia;
      std::vector<DetectedGpu> others;
      for (DetectedGpu& gpu : machine.gpus) (gpu.vendor == "nvidia" ? nvidia : others).push_back(std::move(gpu));
      parse_nvidia_smi_list(reading.text, reading.name, nvidia);
      machine.gpus = std::move(nvidia);
      machine.gpus.insert(machine.gpus.end(), others.begin(), others.end());
      break;
    }
    case MachineSource::rocm_smi: {
      const std::vector<DetectedGpu> gpus = parse_rocm_smi_json(reading.text, reading.name);
      machine.gpus.insert(machine.gpus.end(), gpus.begin(), gpus.end());
      break;
    }
    case MachineSource::cpuinfo:
      machine.cpu = parse_cpuinfo(reading.text, reading.name);
      has_cpuinfo = true;
      break;
    case MachineSource::meminfo:
      machine.memory = parse_meminfo(reading.text, reading.name);
      has_meminfo = true;
      break;
    case MachineSource::sysctl: {
      // /proc, where both were read, says the same; sysctl fills what it lacks.
      const SysctlFacts facts = parse_sysctl(reading.text, reading.name);
      if (!has_cpuinfo) machine.cpu = facts.cpu;
      if (!has_meminfo && facts.memory) machine.memory = facts.memory;
      break;
    }
  }
}

// The order readings are parsed in: the CSV before the -L list that adds to its GPUs, /proc
// before sysctl.
int parse_order(MachineSource source) {
  switch (source) {
    case MachineSource::nvidia_smi: return 0;
    case MachineSource::nvidia_smi_list: return 1;
    case MachineSource::rocm_smi: return 2;
    case MachineSource::cpuinfo: return 3;
    case MachineSource::meminfo: return 4;
    case MachineSource::sysctl: return 5;
  }
  return 6;
}

// What a tool or file said goes to tables and JSON: control characters and bytes that are not
// UTF-8 are written escaped.
void make_printable(std::string& text) {
  if (!is_printable_utf8(text)) text = escape_unprintable(text);
}

void make_printable(DetectedMachine& machine) {
  for (DetectedGpu& gpu : machine.gpus) {
    make_printable(gpu.name);
    make_printable(gpu.bus_id);
    for (MigInstance& instance : gpu.mig_instances) make_printable(instance.profile);
  }
  if (machine.cpu) {
    make_printable(machine.cpu->model);
    make_printable(machine.cpu->vendor);
  }
  for (std::string& note : machine.notes) make_printable(note);
}

}  // namespace

SourceProbe probe_of(MachineSource source) {
  switch (source) {
    case MachineSource::nvidia_smi: return {k_nvidia_smi_command, {}};
    case MachineSource::nvidia_smi_list: return {k_nvidia_smi_list_command, {}};
    case MachineSource::rocm_smi: return {k_rocm_smi_command, {}};
    case MachineSource::cpuinfo: return {{}, "/proc/cpuinfo"};
    case MachineSource::meminfo: return {{}, "/proc/meminfo"};
    case MachineSource::sysctl: return {k_sysctl_command, {}};
  }
  return {};
}

DetectedMachine read_machine(const MachineReadings& readings, bool lenient) {
  DetectedMachine machine;
  machine.notes = readings.notes;
  std::vector<const MachineReading*> ordered;
  for (const MachineReading& reading : readings.readings) ordered.push_back(&reading);
  std::stable_sort(ordered.begin(), ordered.end(), [](const MachineReading* a, const MachineReading* b) {
    return parse_order(a->source) < parse_order(b->source);
  });
  bool has_cpuinfo = false;
  bool has_meminfo = false;
  for (const MachineReading* reading : ordered) {
    try {
      read_one(*reading, machine, has_cpuinfo, has_meminfo);
    } catch (const Error& error) {
      if (!lenient) throw;
      machine.notes.push_back(reading->name + ": its output was not understood (" + error.message() + ")");
    }
  }
  make_printable(machine);
  return machine;
}

}  // namespace mlsize
