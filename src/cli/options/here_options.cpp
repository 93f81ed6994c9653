#include "cli/options/here_options.hpp"

#include "cli/io/machine_probe.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/support/error.hpp>

#include <algorithm>
#include <string>

namespace mlsize::cli {

void add_from_option(CLI::App& command, std::optional<std::string>& from, const std::string& description) {
  command.add_option("--from", from, description)->type_name("DIR");
}

void add_here_options(CLI::App& command, HereOptions& options) {
  command.add_flag("--here", options.here, "Only this machine, as hardware you own (costed at its electricity)");
  add_from_option(command, options.from, "With --here: the machine recorded in DIR (docs/cli.md#detect)");
}

std::string machine_origin(const std::optional<std::string>& from) {
  return from ? "the machine recorded in " + *from : std::string("this machine");
}

MachineMap detect_machine(const std::optional<std::string>& from, const Catalog& catalog) {
  // A live machine's odd output is a note; a recorded file that does not parse is an error.
  const MachineReadings readings = from ? read_recorded_machine(*from) : probe_machine();
  return map_machine(read_machine(readings, !from.has_value()), catalog);
}

void check_from_needs_here(const HereOptions& options) {
  if (options.from && !options.here) {
    flag_error("--from", "--from DIR gives the machine --here answers for",
               "add --here, or run mlsize detect --from DIR");
  }
}

HereRun here_run(const HereOptions& options, const Catalog& catalog) {
  check_from_needs_here(options);
  const std::string origin = machine_origin(options.from);
  HereRun run;
  try {
    run.hardware = here_hardware(detect_machine(options.from, catalog), origin);
  } catch (Error& error) {
    // A recorded file's error keeps its file:line; the machine's own, the flag that asked.
    if (error.where().empty()) error.at_flag("--here");
    throw;
  }
  run.catalog.put(run.hardware.device);
  run.catalog.put(run.hardware.offering);
  if (const Provider* provider = catalog.find_provider(run.hardware.offering.provider)) run.catalog.put(*provider);
  run.catalog.check_references();
  for (const std::string& note : run.hardware.notes) run.notes += "mlsize: --here: " + note + "\n";
  return run;
}

void drop_cloud_setup(Workload& workload, bool setup_time_given) {
  if (!setup_time_given) workload.setup_time = Seconds(0);
}

void check_here_workload(const HereHardware& hardware, const Workload& workload) {
  if (workload.task == Task::gbdt) return;  // timed per core, or from a GPU's bandwidth
  const Device& device = hardware.device;
  const bool has_peak = std::any_of(device.peak_flops_per_s.begin(), device.peak_flops_per_s.end(),
                                    [](const auto& p) { return p.has_value(); });
  if (has_peak) return;
  const std::string task(to_string(workload.task));
  const std::string overlay =
      device.id == k_here_cpu_device
          ? "give the CPU its peak_tflops and cores in a --catalog FILE, as a device named \"" + device.name + "\""
          : "give " + device.id + " its peak_tflops in a --catalog FILE (mlsize catalog show " + device.id +
                " writes one to start from)";
  // A CPU the catalogue does not know and Apple's chips have no sourced peak: nothing could be timed, so
  // say so rather than rank nothing (or fail on --precision).
  Error error(ErrorKind::input,
              hardware.cpu_only ? "the machine has no GPU, and the catalogue gives its CPU (" + device.name +
                                      ") no peak FLOPs: mlsize cannot time --task " + task + " on it"
                                : "the catalogue gives " + device.id + " (" + device.name +
                                      ") no peak FLOPs: mlsize cannot time --task " + task + " on it",
              (hardware.cpu_only ? "--task gbdt runs on CPUs; or " : "") + overlay + " (docs/catalogue.md)");
  error.at_flag("--here");
  throw error;
}

}  // namespace mlsize::cli
