#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/renderers.hpp"

#include <mlsize/architecture.hpp>
#include <mlsize/error.hpp>
#include <mlsize/planner.hpp>
#include <mlsize/text_distance.hpp>

namespace mlsize::cli {
namespace {

template <class Entry>
std::string nearest_id(const std::string& id, const std::vector<Entry>& entries) {
  std::vector<std::string> ids;
  for (const Entry& entry : entries) ids.push_back(entry.id);
  return did_you_mean(id, ids);
}

Plan plan_from_options(const EstimateOptions& options, const Catalog& catalog) {
  if (options.offering.empty() == options.device.empty()) {
    flag_error("--offering", "give exactly one of --offering or --device",
                "e.g. --offering aws-p4de.24xlarge or --device a100-80gb-sxm (mlsize's catalogue ids)");
  }
  Plan plan;
  if (!options.offering.empty()) {
    plan.offering = catalog.find_offering(options.offering);
    if (plan.offering == nullptr) {
      flag_error("--offering", "unknown offering \"" + options.offering + "\"",
                  nearest_id(options.offering, catalog.offerings()));
    }
    plan.device = catalog.find_device(plan.offering->device_id);
  } else {
    plan.device = catalog.find_device(options.device);
    if (plan.device == nullptr) {
      flag_error("--device", "unknown device \"" + options.device + "\"", nearest_id(options.device, catalog.devices()));
    }
  }
  const int per_unit = plan.offering ? plan.offering->devices_per_unit : 1;
  plan.device_count = options.count.empty() ? per_unit : parse_int_flag(options.count, "--count", 1, 1'000'000);
  if (plan.device_count % per_unit != 0) {
    flag_error("--count", "offering \"" + plan.offering->id + "\" provides devices in units of " +
                               std::to_string(per_unit),
                "a multiple of " + std::to_string(per_unit));
  }
  plan.units = plan.device_count / per_unit;
  if (plan.offering && plan.offering->max_units && plan.units > *plan.offering->max_units) {
    flag_error("--count", "offering \"" + plan.offering->id + "\" allows at most " +
                               std::to_string(*plan.offering->max_units) + " unit(s)");
  }
  const std::string zero_text = options.zero;
  if (zero_text != "0" && zero_text != "1" && zero_text != "2" && zero_text != "3") {
    flag_error("--zero", "\"" + zero_text + "\" is not a ZeRO stage", "0 (plain data parallel), 1, 2 or 3");
  }
  plan.strategy.zero_stage = zero_text[0] - '0';
  if (auto recompute = parse_recompute(options.recompute)) {
    plan.strategy.recompute = *recompute;
  } else {
    flag_error("--recompute", "\"" + options.recompute + "\" is not one of none, full");
  }
  return plan;
}

}  // namespace

CLI::App* add_estimate_command(CLI::App& app, EstimateOptions& options) {
  CLI::App* command = app.add_subcommand("estimate", "Estimate memory, time and cost of one explicit plan");
  add_workload_options(*command, options.workload);
  command->add_option("--offering", options.offering, "Offering id from the catalogue, e.g. aws-p4de.24xlarge");
  command->add_option("--device", options.device, "Device id from the catalogue, e.g. a100-80gb-sxm");
  command->add_option("--count", options.count, "Devices in the plan (default: one unit of the offering)");
  command->add_option("--zero", options.zero, "ZeRO stage 0-3 across the devices (default 0 = DDP)");
  command->add_option("--recompute", options.recompute, "none | full activation recomputation (default none)");
  return command;
}

CommandOutput run_estimate(const EstimateOptions& options) {
  const Workload workload = build_workload(options.workload);
  const CostSettings cost_settings = build_cost_settings(options.workload);
  check_format(options.workload);
  const Catalog catalog = build_catalog(options.workload);
  const Plan plan = plan_from_options(options, catalog);

  EstimateResult result;
  result.workload = workload;
  result.architecture = architecture_from_params(workload.params);
  try {
    result.estimate = estimate_plan(workload, result.architecture, plan, cost_settings);
  } catch (Error& error) {
    error.at_flag("--precision");
    throw;
  }
  if (workload.deadline) result.meets_deadline = result.estimate.time <= *workload.deadline;
  if (workload.budget && result.estimate.cost) result.within_budget = *result.estimate.cost <= *workload.budget;

  CommandOutput output;
  output.stdout_text = options.workload.format == "json" ? render_estimate_json(result) : render_estimate_table(result);
  if (!result.feasible()) {
    output.exit_code = k_exit_no_feasible;
    output.stderr_text = "mlsize: the plan does not meet the constraints (memory, deadline or budget)\n";
  }
  return output;
}

}  // namespace mlsize::cli
