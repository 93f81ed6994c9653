#pragma once
// --here and --from DIR: a command that answers for the machine it runs on (or for one whose
// tools' outputs were recorded in DIR), as owned hardware costing its electricity
// (docs/cli.md#here). `mlsize detect` reads machines the same way.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/machine/here.hpp>
#include <mlsize/model/workload.hpp>

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace mlsize::cli {

struct HereOptions {
  bool here = false;                // --here
  std::optional<std::string> from;  // --from DIR: the recorded outputs to read instead
};

// Adds --here and --from to recommend, explain and estimate.
void add_here_options(CLI::App& command, HereOptions& options);
// Adds --from DIR (recorded outputs to read instead of this machine) with `description`.
void add_from_option(CLI::App& command, std::optional<std::string>& from, const std::string& description);

// "this machine", or "the machine recorded in DIR".
std::string machine_origin(const std::optional<std::string>& from);

// The machine, mapped onto `catalog`: this one (its tools run, a missing tool a note), or the
// one recorded in `from`, whose files must parse.
MachineMap detect_machine(const std::optional<std::string>& from, const Catalog& catalog);

// What --here ranks: a catalogue of the machine's device and its offering (id "here"), owned.
struct HereRun {
  Catalog catalog;
  HereHardware hardware;
  std::string notes;  // "mlsize: --here: ..." lines for stderr
};
// Throws a usage Error for --from without --here; Error (input) when the machine has nothing
// to plan on (here_hardware).
HereRun here_run(const HereOptions& options, const Catalog& catalog);

// Throws a usage Error when --from is given without --here.
void check_from_needs_here(const HereOptions& options);

// A CPU without peak FLOPs times gradient-boosted trees only: throws Error (input) for any
// other task with a hint, instead of ranking nothing.
void check_here_workload(const HereHardware& hardware, const Workload& workload);

// A run on this machine is not provisioned: no cloud setup time (Workload's default) unless
// --setup-time (`setup_time_given`) asks for one.
void drop_cloud_setup(Workload& workload, bool setup_time_given);

}  // namespace mlsize::cli
