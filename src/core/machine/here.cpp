#include <mlsize/machine/here.hpp>

#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace mlsize {

MachineMap map_machine(DetectedMachine machine, const Catalog& catalog) {
  MachineMap map;
  map.notes = std::move(machine.notes);
  map.memory = machine.memory;
  map.cpu = machine.cpu;
  for (DetectedGpu& gpu : machine.gpus) {
    DeviceMatch match = match_device(catalog, gpu.name, gpu.memory, DeviceRole::accelerator);
    map.gpus.push_back({std::move(gpu), std::move(match)});
  }
  if (machine.cpu) {
    if (machine.cpu->model.empty()) {
      map.cpu_match.note = "its model is not named";
    } else {
      map.cpu_match = match_device(catalog, machine.cpu->model, std::nullopt, DeviceRole::cpu);
    }
    // Apple silicon: sysctl names the chip, whose GPU shares the RAM (unified memory).
    if (map.gpus.empty() && machine.cpu->vendor == "apple") {
      DetectedGpu gpu;
      gpu.name = machine.cpu->model;
      gpu.vendor = "apple";
      gpu.memory = machine.memory;
      DeviceMatch match = match_device(catalog, gpu.name, gpu.memory, DeviceRole::accelerator);
      map.gpus.push_back({std::move(gpu), std::move(match)});
      map.notes.push_back("an Apple chip: its GPU is listed with the RAM it shares (unified memory)");
      if (map.cpu_match.device == nullptr) map.cpu_match.note = "the chip, listed as the GPU";
    }
  }
  return map;
}

namespace {

std::string gib_text(Bytes bytes) {
  return format_fixed(bytes.value / k_gibi, 1) + " GiB";
}

// "GPU 0", "GPUs 2, 3".
std::string gpu_list(const std::vector<const MappedGpu*>& gpus) {
  std::string text = gpus.size() == 1 ? "GPU " : "GPUs ";
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(gpus[i]->gpu.index);
  }
  return text;
}

// GPUs of one kind: the same catalogue device, or the same reported name when unknown.
struct GpuGroup {
  std::string key;
  std::vector<const MappedGpu*> gpus;
  double memory() const {
    const MappedGpu& first = *gpus.front();
    if (first.gpu.memory) return first.gpu.memory->value;
    return first.match.device != nullptr && first.match.device->memory ? first.match.device->memory->value : 0.0;
  }
};

std::vector<GpuGroup> whole_gpu_groups(const MachineMap& machine, std::vector<std::string>& notes) {
  std::vector<GpuGroup> groups;
  for (const MappedGpu& mapped : machine.gpus) {
    if (mapped.gpu.mig) {
      std::string instances;
      for (const MigInstance& instance : mapped.gpu.mig_instances) {
        if (!instances.empty()) instances += ", ";
        instances += instance.profile;
      }
      notes.push_back("GPU " + std::to_string(mapped.gpu.index) + " (" + mapped.gpu.name + ") is split by MIG" +
                      (instances.empty() ? "" : " into " + instances) +
                      ": left out, as mlsize plans on whole GPUs, not MIG instances");
      continue;
    }
    const std::string key = mapped.match.device != nullptr ? mapped.match.device->id : "?" + mapped.gpu.name;
    auto group = std::find_if(groups.begin(), groups.end(), [&](const GpuGroup& g) { return g.key == key; });
    if (group == groups.end()) {
      groups.push_back({key, {}});
      group = groups.end() - 1;
    }
    group->gpus.push_back(&mapped);
  }
  return groups;
}

// The group --here plans on: the most GPUs, then the most memory each, then the first listed.
const GpuGroup& chosen_group(const std::vector<GpuGroup>& groups) {
  return *std::min_element(groups.begin(), groups.end(), [](const GpuGroup& a, const GpuGroup& b) {
    if (a.gpus.size() != b.gpus.size()) return a.gpus.size() > b.gpus.size();
    return a.memory() > b.memory();
  });
}

Offering machine_offering(std::string_view origin, const Device& device, int count, const MachineMap& machine) {
  Offering offering;
  offering.id = std::string(k_here_offering);
  offering.provider = "on-prem";
  offering.kind = OfferingKind::on_prem;
  offering.name = std::string(origin);
  offering.device_id = device.id;
  offering.devices_per_unit = count;
  if (machine.cpu && machine.cpu->threads > 0) {
    offering.vcpus = machine.cpu->threads;
    // Its own threads per core, not the clouds' 2: a machine without SMT has as many cores.
    if (machine.cpu->cores > 0) offering.threads_per_core = std::max(1, machine.cpu->threads / machine.cpu->cores);
  }
  offering.host_memory = machine.memory;
  offering.max_units = 1;  // one machine: no network to a second one is known
  offering.source = "detected: " + std::string(origin);
  offering.as_of = device.as_of;
  return offering;
}

// Power for the electricity owned hardware costs: the devices' TDP, the host's not counted.
void add_power(HereHardware& here, int count) {
  const Device& device = here.device;
  if (!device.tdp_w) {
    here.notes.push_back("no TDP is known for " + device.id + ": its electricity is counted as nothing");
    return;
  }
  here.offering.power_w = *device.tdp_w * count;
  here.notes.push_back("electricity: " + std::to_string(count) + " × " + format_general(*device.tdp_w) + " W, the " +
                       (here.cpu_only ? "CPU's" : "GPUs'") + " TDP (the rest of the host is not counted)");
}

HereHardware cpu_hardware(const MachineMap& machine, std::string_view origin) {
  if (!machine.cpu) {
    throw Error(ErrorKind::input, "nothing was detected of " + std::string(origin) + ": no GPU, no CPU",
                "mlsize detect shows what it read, and why not");
  }
  const DetectedCpu& cpu = *machine.cpu;
  HereHardware here;
  here.cpu_only = true;
  if (machine.cpu_match.device != nullptr) {
    here.device = *machine.cpu_match.device;
  } else {
    // A CPU the catalogue lacks is planned on as itself, with its threads and RAM: enough for
    // gradient-boosted trees, which are timed per core (docs/methodology.md).
    here.device.id = std::string(k_here_cpu_device);
    here.device.name = cpu.model.empty() ? std::string("CPU") : cpu.model;
    here.device.kind = DeviceKind::cpu;
    here.device.vendor = cpu.vendor;
    here.device.source = "detected: " + std::string(origin) + " (not in the catalogue)";
    here.notes.push_back("the CPU \"" + here.device.name + "\" is not in the catalogue: planned as " +
                         std::string(k_here_cpu_device) + ", its threads and RAM only");
  }
  here.offering = machine_offering(origin, here.device, 1, machine);
  add_power(here, cpu.sockets);
  return here;
}

}  // namespace

HereHardware here_hardware(const MachineMap& machine, std::string_view origin) {
  if (machine.gpus.empty()) return cpu_hardware(machine, origin);
  HereHardware here;
  const std::vector<GpuGroup> groups = whole_gpu_groups(machine, here.notes);
  if (groups.empty()) {
    throw Error(ErrorKind::input,
                "every GPU of " + std::string(origin) + " is split by MIG; mlsize plans on whole GPUs",
                "turn MIG off (nvidia-smi -i 0 -mig 0), or size the whole GPU with --device ID (mlsize detect "
                "shows its id)");
  }
  const GpuGroup& group = chosen_group(groups);
  const MappedGpu& first = *group.gpus.front();
  if (first.match.device == nullptr) {
    std::string hint = "add it with --catalog FILE: a device whose name is \"" + first.gpu.name +
                       "\", with its memory and peak FLOPs (docs/catalogue.md)";
    if (!first.match.near.empty()) hint = "the catalogue has " + first.match.near.front() + ", which differs; " + hint;
    throw Error(ErrorKind::input,
                "the GPU \"" + first.gpu.name + "\" of " + std::string(origin) + " is not in the catalogue", hint);
  }
  here.device = *first.match.device;
  const int count = static_cast<int>(group.gpus.size());
  // A GPU that reports another memory than the catalogue's (a 8 GB card of a 12 GB model) is
  // planned with what it has: the least of the group's.
  if (!first.match.note.empty()) {
    std::optional<Bytes> least;
    for (const MappedGpu* mapped : group.gpus) {
      if (mapped->gpu.memory && (!least || *mapped->gpu.memory < *least)) least = mapped->gpu.memory;
    }
    if (least) {
      // Unified memory (Apple): the system's reserve is a share of the RAM, so it shrinks with it.
      if (here.device.vendor == "apple" && here.device.reserved && here.device.memory) {
        here.device.reserved = *here.device.reserved * (*least / *here.device.memory);
      }
      here.device.memory = least;
      here.notes.push_back(first.match.note + ": planned with " + gib_text(*least));
    }
  }
  for (const GpuGroup& other : groups) {
    if (&other == &group) continue;
    here.notes.push_back(gpu_list(other.gpus) + " (" + other.gpus.front()->gpu.name + ") left out: --here plans on " +
                         "the largest group of one kind, the " + std::to_string(count) + " " + here.device.id);
  }
  here.offering = machine_offering(origin, here.device, count, machine);
  add_power(here, count);
  return here;
}

}  // namespace mlsize
