// mlsize calibrate: a real run's measurements against the estimate of the same plan, and
// the overlay that later runs load with --calibration (docs/cli.md#calibrate).

#include "cli/commands/commands.hpp"
#include "cli/io/input_file.hpp"
#include "cli/io/output_file.hpp"
#include "cli/io/output_width.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/render/render_calibration.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/calibration.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>

#include <filesystem>

namespace mlsize::cli {
namespace {

// A long run logged every second on 8 GPUs is some tens of MB; more is not a log of one run.
constexpr std::size_t k_max_measured_bytes = 256 * 1024 * 1024;

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options, bool with_options) {
  CLI::App* command =
      app.add_subcommand("calibrate", "Compare a real run's measurements with the estimate; write a calibration");
  if (!with_options) return command;
  add_workload_options(*command, options.estimate.workload);
  // The overlay is the output: no report format, and no calibration to start from.
  for (const char* name : {"--format", "--output", "--calibration"}) {
    CLI::Option* option = command->get_option(name);
    for (CLI::App* group : command->get_subcommands({})) group->remove_option(option);
  }
  add_plan_options(command, options.estimate);
  CLI::App* in = &option_group(*command, k_group_output);
  in->add_option("--measured", options.measured,
                 "What the run measured: an nvidia-smi CSV log or a JSON of PyTorch's figures (docs/cli.md#calibrate)")
      ->type_name("FILE")
      ->required();
  in->add_option("--date", options.date, "When the run was measured, YYYY-MM-DD (default: the log's date)")
      ->type_name("DATE");
  in->add_option("-o,--output", options.estimate.workload.output_path,
                 "Write the overlay to FILE (a file atomically, a device or FIFO in place) and the comparison to "
                 "stdout; default: the overlay on stdout")
      ->type_name("FILE");
  command->footer(examples(
      {"mlsize calibrate --model llama-2-7b --task lora --micro-batch 4 --recompute full --device h200 --measured "
       "run.json -o h200.yaml",
       "mlsize estimate --model llama-2-7b --task finetune --data 1GB --device h200 --calibration h200.yaml"}));
  return command;
}

CommandOutput run_calibrate(const CalibrateOptions& options) {
  const EstimateOptions& flags = options.estimate;
  Workload workload = build_workload(flags.workload, false);
  if (workload.serving) {
    flag_error("--rate", "calibrate compares one decode step, not a served load",
               "drop --rate and the serving flags; give --batch and --context as the run had them");
  }
  if (workload.task == Task::gbdt) {
    flag_error("--task", "calibrate measures neural networks; gradient-boosted trees have no MFU or overhead",
               "--task pretrain, finetune, lora, qlora or inference");
  }
  std::vector<std::string> overlays;
  const Catalog catalog = build_catalog(flags.workload, &overlays);
  const CostSettings cost_settings = build_cost_settings(flags.workload, catalog);
  const Plan plan = plan_from_options(flags, catalog);
  if (plan.device == nullptr) {
    flag_error("--device", "calibrate needs the device the run measured",
               "give --device, --offering or --gpus as the run had them, e.g. --device h200-sxm");
  }
  if (!flags.workload.precision) workload.precision = precision_for(*plan.device, workload, workload.precision);
  if (options.date && !is_iso_date(*options.date)) {
    flag_error("--date", "\"" + *options.date + "\" is not a date", "YYYY-MM-DD, e.g. 2026-11-29");
  }

  const Measurement measured =
      parse_measurement(read_input_file(options.measured, k_max_measured_bytes), options.measured);
  // The estimate of one step: the run's tokens are the step's, and setup is no part of it.
  workload.tokens = step_tokens(workload, plan, measured);
  workload.dataset_bytes.reset();
  workload.setup_time = Seconds(0);
  PlanEstimate estimate;
  try {
    estimate = estimate_plan(workload, plan, cost_settings);
  } catch (Error& error) {
    error.at_flag("--precision");
    throw;
  }
  CalibrationComparison comparison;
  try {
    comparison = calibrate(workload, estimate, measured);
  } catch (Error& error) {
    error.at_flag("--measured");
    throw;
  }
  Calibration& calibration = comparison.calibration;
  calibration.source = std::filesystem::path(options.measured).filename().string();
  calibration.mlsize_version = MLSIZE_VERSION;
  if (options.date) calibration.measured = *options.date;
  if (calibration.measured.empty()) {
    flag_error("--date", "the measured file gives no date", "give --date YYYY-MM-DD, the day of the run");
  }

  const std::string table =
      render_calibration_table(comparison, workload, plan.device_count, output_width(k_default_width));
  const std::string overlay = render_calibration_overlay(comparison, table);
  CommandOutput output;
  const std::optional<std::string>& path = flags.workload.output_path;
  if (path && !is_standard_output(*path)) {
    OutputGuard guard{flags.workload.force_output, input_files(flags.workload)};
    guard.inputs.push_back(options.measured);
    write_output_file(*path, overlay, guard);
    output.stdout_text = table + "Overlay written to " + *path + ".\n";
  } else {
    output.stdout_text = overlay;
  }
  return output;
}

}  // namespace mlsize::cli
