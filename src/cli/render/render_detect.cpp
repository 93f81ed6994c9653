#include "cli/render/render_detect.hpp"

#include "cli/render/format.hpp"
#include "cli/render/json_text.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string gib(Bytes bytes) {
  return format_fixed(bytes.value / k_gibi, 1);
}

std::string plural(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// The catalogue cell of a GPU: its device id, or "unknown".
std::string catalogue_cell(const MappedGpu& mapped) {
  std::string cell = mapped.match.device != nullptr ? mapped.match.device->id : "unknown";
  if (mapped.gpu.mig) cell += " (MIG)";
  return cell;
}

std::vector<std::vector<std::string>> gpu_rows(const MachineMap& machine) {
  std::vector<std::vector<std::string>> rows;
  for (const MappedGpu& mapped : machine.gpus) {
    const DetectedGpu& gpu = mapped.gpu;
    rows.push_back(
        {std::to_string(gpu.index), gpu.name, gpu.memory ? gib(*gpu.memory) : "", gpu.bus_id, catalogue_cell(mapped)});
    for (std::size_t i = 0; i < gpu.mig_instances.size(); ++i) {
      const MigInstance& instance = gpu.mig_instances[i];
      rows.push_back({std::to_string(gpu.index) + "/" + std::to_string(i), "  MIG " + instance.profile, "", "",
                      "a MIG instance, not planned"});
    }
  }
  return rows;
}

// What the table says under the GPUs of those the catalogue matched with a difference, or did
// not match: once for the GPUs that share a name and a note ("GPUs 0, 1 (...): ...").
std::vector<std::string> gpu_notes(const MachineMap& machine) {
  struct Note {
    std::string name;
    std::string text;
    std::vector<int> indices;
  };
  std::vector<Note> notes;
  for (const MappedGpu& mapped : machine.gpus) {
    const DeviceMatch& match = mapped.match;
    if (match.note.empty()) continue;
    std::string text = match.note;
    if (match.device == nullptr) {
      if (!match.near.empty()) text += "; the catalogue has " + match.near.front() + ", which differs";
      text += "; add it with --catalog FILE, a device named \"" + mapped.gpu.name + "\" (docs/catalogue.md)";
    }
    auto same = std::find_if(notes.begin(), notes.end(),
                             [&](const Note& n) { return n.name == mapped.gpu.name && n.text == text; });
    if (same == notes.end()) {
      notes.push_back({mapped.gpu.name, text, {}});
      same = notes.end() - 1;
    }
    same->indices.push_back(mapped.gpu.index);
  }
  std::vector<std::string> lines;
  for (const Note& note : notes) {
    std::string which = note.indices.size() == 1 ? "GPU " : "GPUs ";
    for (std::size_t i = 0; i < note.indices.size(); ++i) {
      if (i > 0) which += ", ";
      which += std::to_string(note.indices[i]);
    }
    lines.push_back(which + " (" + note.name + "): " + note.text);
  }
  return lines;
}

std::string cpu_line(const MachineMap& machine) {
  if (!machine.cpu) return "CPU: not read.\n";
  const DetectedCpu& cpu = *machine.cpu;
  std::string text = "CPU: " + (cpu.model.empty() ? std::string("a CPU that names no model") : cpu.model) + ", " +
                     plural(cpu.sockets, "socket", "sockets") + ", " + plural(cpu.cores, "core", "cores") + ", " +
                     plural(cpu.threads, "thread", "threads");
  const DeviceMatch& match = machine.cpu_match;
  if (match.device != nullptr) {
    text += ": " + match.device->id;
  } else {
    text += " (" + (match.note.empty() ? std::string("not in the catalogue") : match.note) +
            (match.near.empty() ? "" : "; the catalogue has " + match.near.front()) + ")";
  }
  return text + ".\n";
}

std::string here_lines(const DetectResult& result) {
  if (!result.here) return "--here has nothing to plan on: " + result.here_problem + "\n";
  const HereHardware& here = *result.here;
  std::string text;
  if (here.cpu_only) {
    text = fmt::format("--here plans on the CPU ({}: {} threads", here.device.id, here.offering.vcpus.value_or(0));
    if (here.offering.host_memory) text += ", " + gib(*here.offering.host_memory) + " GiB of RAM";
    text += "), as hardware you own: its electricity only.\n";
  } else {
    text = fmt::format("--here plans on {}× {} ({}), as hardware you own: its electricity only.\n",
                       here.offering.devices_per_unit, here.device.id, here.device.name);
  }
  for (const std::string& note : here.notes) text += "  " + note + "\n";
  return text;
}

Json optional_bytes(const std::optional<Bytes>& bytes) {
  if (!bytes) return nullptr;
  return static_cast<std::int64_t>(std::llround(bytes->value));
}

Json match_json(const DeviceMatch& match, Json json) {
  json["device"] = match.device != nullptr ? Json(match.device->id) : Json(nullptr);
  json["note"] = match.note.empty() ? Json(nullptr) : Json(match.note);
  json["near"] = match.near;
  return json;
}

}  // namespace

std::string render_detect_table(const DetectResult& result, std::size_t width) {
  const MachineMap& machine = result.machine;
  std::string text;
  if (machine.gpus.empty()) {
    text += "No GPU found on " + result.origin + ".\n";
  } else {
    const std::vector<TableColumn> columns{
        {"gpu", true}, {"name", false}, {"memory GiB", true}, {"PCI bus", false, 1}, {"catalogue", false}};
    text += render_table(columns, gpu_rows(machine), {width});
    for (const std::string& note : gpu_notes(machine)) text += "  " + note + "\n";
  }
  text += '\n';
  text += cpu_line(machine);
  text += "RAM: ";
  text += machine.memory ? gib(*machine.memory) + " GiB" : std::string("not read");
  text += ".\n";
  text += here_lines(result);
  if (!machine.notes.empty()) {
    text += "\nNotes:\n";
    for (const std::string& note : machine.notes) text += "  " + note + "\n";
  }
  text += "\nGiB = 2^30 bytes, memory as the driver reports it. Read from " + result.origin + ".\n";
  const std::string footer = provenance_footer(result.provenance);
  if (!footer.empty()) text += footer;
  return wrap_prose(text, width);
}

std::string render_detect_json(const DetectResult& result) {
  const MachineMap& machine = result.machine;
  Json document = json_document({"detect", result.provenance});
  document["machine"] = result.origin;
  Json gpus = Json::array();
  for (const MappedGpu& mapped : machine.gpus) {
    const DetectedGpu& gpu = mapped.gpu;
    Json json;
    json["index"] = gpu.index;
    json["name"] = gpu.name;
    json["vendor"] = gpu.vendor;
    json["memory_bytes"] = optional_bytes(gpu.memory);
    json["pci_bus_id"] = gpu.bus_id.empty() ? Json(nullptr) : Json(gpu.bus_id);
    json["mig"] = gpu.mig;
    Json instances = Json::array();
    for (const MigInstance& instance : gpu.mig_instances) {
      instances.push_back({{"profile", instance.profile},
                           {"compute_slices", instance.compute_slices},
                           {"memory_gb", instance.memory_gb}});
    }
    json["mig_instances"] = instances;
    gpus.push_back(match_json(mapped.match, std::move(json)));
  }
  document["gpus"] = gpus;
  if (machine.cpu) {
    const DetectedCpu& cpu = *machine.cpu;
    Json json;
    json["model"] = cpu.model;
    json["vendor"] = cpu.vendor.empty() ? Json(nullptr) : Json(cpu.vendor);
    json["sockets"] = cpu.sockets;
    json["cores"] = cpu.cores;
    json["threads"] = cpu.threads;
    document["cpu"] = match_json(machine.cpu_match, std::move(json));
  } else {
    document["cpu"] = nullptr;
  }
  document["memory_bytes"] = optional_bytes(machine.memory);
  if (result.here) {
    const HereHardware& here = *result.here;
    const Offering& offering = here.offering;
    document["here"] = {{"device", here.device.id},
                        {"devices", offering.devices_per_unit},
                        {"cpu_only", here.cpu_only},
                        {"memory_bytes", optional_bytes(here.device.memory)},
                        {"vcpus", offering.vcpus ? Json(*offering.vcpus) : Json(nullptr)},
                        {"host_memory_bytes", optional_bytes(offering.host_memory)},
                        {"power_w", offering.power_w ? Json(*offering.power_w) : Json(nullptr)},
                        {"notes", here.notes}};
    document["here_error"] = nullptr;
  } else {
    document["here"] = nullptr;
    document["here_error"] = result.here_problem;
  }
  document["notes"] = machine.notes;
  return json_text(document);
}

}  // namespace mlsize::cli
