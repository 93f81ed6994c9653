#include "cli/commands/commands.hpp"
#include "cli/commands/launch_output.hpp"
#include "cli/commands/report_formats.hpp"
#include "cli/io/output_width.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/task_flags.hpp"
#include "cli/render/renderers.hpp"
#include "cli/support/kept.hpp"

#include <mlsize/estimate/calibration.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace mlsize::cli {
namespace {

template <class Entry>
std::string nearest_id(const std::string& id, const std::vector<Entry>& entries) {
  std::vector<std::string> ids;
  for (const Entry& entry : entries) ids.push_back(entry.id);
  return did_you_mean(id, ids);
}

// The hardware of --offering or --device.
void plan_hardware(const EstimateOptions& options, const Catalog& catalog, Plan& plan) {
  if (options.offering && options.device) {
    flag_error("--offering", "give only one of --offering or --device",
               "e.g. --offering aws-p4de.24xlarge or --device a100-80gb-sxm (mlsize's catalogue ids)");
  }
  if (options.offering) {
    plan.offering = catalog.find_offering(*options.offering);
    if (plan.offering == nullptr) {
      flag_error("--offering", "unknown offering \"" + *options.offering + "\"",
                 nearest_id(*options.offering, catalog.offerings()));
    }
    plan.device = catalog.find_device(plan.offering->device_id);
  } else if (options.device) {
    plan.device = &find_device_for_flag(catalog, "--device", *options.device);
  }
}

// --gpus ACC[:N] as the --device and --count it stands for: one device, as a plan has one.
void gpus_hardware(const EstimateOptions& options, const Catalog& catalog, Plan& plan, std::optional<int>& count) {
  if (options.offering || options.device || options.count) {
    flag_error("--gpus", "give either --gpus ACC[:N] or --offering/--device with --count",
               "--gpus h100:8 stands for --device h100 --count 8");
  }
  if (options.gpus->find(',') != std::string::npos) {
    flag_error("--gpus", in_quotes(*options.gpus) + " names several devices; estimate takes one",
               "e.g. --gpus h100:8; recommend --gpus compares several");
  }
  const GpuRequest request = parse_gpu_request(catalog, "--gpus", *options.gpus);
  const std::string name = options.gpus->substr(0, options.gpus->find(':'));
  if (request.devices.size() > 1) find_device_for_flag(catalog, "--gpus", name);  // throws, naming them
  plan.device = request.devices.front();
  count = request.count;
}

// --shard-group N: HSDP, ZeRO-3 sharded within groups of N data-parallel ranks and
// replicated across them (docs/methodology.md#sharding-zero-fsdp-tensor-pipeline-and-expert-parallelism).
void set_shard_group(const std::string& text, Plan& plan) {
  Strategy& strategy = plan.strategy;
  const int dp = strategy.data_parallel(plan.device_count);
  strategy.shard_group = parse_int_flag(text, "--shard-group", 1, 1'000'000);
  if (strategy.zero_stage != 3) {
    flag_error("--shard-group", "hybrid sharding (HSDP) is ZeRO-3 within groups", "add --zero 3");
  }
  if (strategy.offload != Offload::none) {
    flag_error("--shard-group", "offloading is not modelled with hybrid sharding", "drop --offload or --shard-group");
  }
  if (dp % strategy.shard_group != 0) {
    flag_error("--shard-group", "a shard group must divide the data-parallel degree " + std::to_string(dp),
               "a divisor of " + std::to_string(dp) + ", such as the devices of one node");
  }
}

}  // namespace

Plan plan_from_options(const EstimateOptions& options, const Catalog& catalog) {
  Plan plan;
  std::optional<int> count;
  if (options.gpus) {
    gpus_hardware(options, catalog, plan, count);
  } else {
    plan_hardware(options, catalog, plan);
    if (options.count) count = parse_int_flag(*options.count, "--count", 1, 1'000'000);
  }
  const int per_unit = plan.offering ? plan.offering->devices_per_unit : 1;
  plan.device_count = count.value_or(per_unit);
  if (plan.device_count % per_unit != 0) {
    flag_error("--count",
               "offering \"" + plan.offering->id + "\" provides devices in units of " + std::to_string(per_unit),
               "a multiple of " + std::to_string(per_unit));
  }
  plan.units = plan.device_count / per_unit;
  if (plan.offering && plan.offering->max_units && plan.units > *plan.offering->max_units) {
    flag_error("--count", "offering \"" + plan.offering->id + "\" allows at most " +
                              std::to_string(*plan.offering->max_units) + " unit(s)");
  }
  Strategy& strategy = plan.strategy;
  if (options.zero) strategy.zero_stage = parse_int_flag(*options.zero, "--zero", 0, 3);
  if (options.recompute) strategy.recompute = parse_choice<Recompute>("--recompute", *options.recompute);
  if (options.tensor_parallel) {
    strategy.tensor_parallel = parse_int_flag(*options.tensor_parallel, "--tp", 1, 1'000'000);
  }
  if (options.pipeline_parallel) {
    strategy.pipeline_parallel = parse_int_flag(*options.pipeline_parallel, "--pp", 1, 1'000'000);
  }
  if (options.expert_parallel) {
    strategy.expert_parallel = parse_int_flag(*options.expert_parallel, "--ep", 1, 1'000'000);
  }
  strategy.sequence_parallel = options.sequence_parallel;
  if (options.offload) strategy.offload = parse_choice<Offload>("--offload", *options.offload);
  // DeepSpeed offloads the optimizer "valid for ZeRO stage 1, 2, 3" (deepspeed.ai/docs/
  // config-json, optimizer offloading): its CPU Adam steps ZeRO's partition. Without --zero,
  // ZeRO-Offload's own stage, 2 (Ren et al. 2021, §4: built on ZeRO-2), and parameters need
  // ZeRO-3 (ZeRO-Infinity); the emitted config then says the same stage.
  if (strategy.offload != Offload::none && !options.zero) {
    strategy.zero_stage = strategy.offload == Offload::optimizer_and_params ? 3 : 2;
  }
  if (strategy.offload == Offload::optimizer && strategy.zero_stage == 0) {
    flag_error("--offload", "DeepSpeed offloads the optimizer only with ZeRO stage 1, 2 or 3, not 0",
               "drop --zero 0 (--offload then runs ZeRO-Offload's stage 2), or drop --offload");
  }
  if (plan.device_count % strategy.model_parallel() != 0) {
    flag_error("--count",
               std::to_string(plan.device_count) + " devices do not split into tensor × pipeline groups of " +
                   std::to_string(strategy.model_parallel()),
               "a device count that --tp × --pp divides");
  }
  if (strategy.data_parallel(plan.device_count) % strategy.expert_parallel != 0) {
    flag_error("--ep", "expert parallelism must divide the data-parallel degree " +
                           std::to_string(strategy.data_parallel(plan.device_count)));
  }
  if (strategy.offload == Offload::optimizer_and_params && strategy.zero_stage < 3) {
    flag_error("--offload", "offloading parameters needs ZeRO stage 3", "add --zero 3, or use --offload optimizer");
  }
  if (options.shard_group) set_shard_group(*options.shard_group, plan);
  return plan;
}

// --here: one unit of the machine's offering, as --offering here would name it in its catalogue.
Plan here_plan(const EstimateOptions& options, const HereRun& here) {
  const std::pair<bool, const char*> others[] = {{options.offering.has_value(), "--offering"},
                                                 {options.device.has_value(), "--device"},
                                                 {options.gpus.has_value(), "--gpus"},
                                                 {!options.workload.owned.empty(), "--owned"}};
  for (const auto& [given, flag] : others) {
    if (given) {
      flag_error(flag, std::string(flag) + " names other hardware; --here estimates on this machine",
                 "drop one of them: mlsize detect shows what --here plans on");
    }
  }
  EstimateOptions on_here = options;
  on_here.offering = std::string(k_here_offering);
  return plan_from_options(on_here, here.catalog);
}

namespace {

// --external-memory: the plan as candidate_plans lays out XGBoost's external memory, or why it
// cannot be (docs/methodology.md#gbdt-external-memory).
void set_external_memory(const Workload& workload, Plan& plan) {
  const auto refuse = [](const std::string& what, const std::string& hint) {
    flag_error("--external-memory", what, hint);
  };
  if (workload.task != Task::gbdt) refuse("external memory is XGBoost's, for --task gbdt", "drop --external-memory");
  if (!plan.strategy.trees_on_gpu || plan.device->vendor != "nvidia" || workload.library != GbdtLibrary::xgboost) {
    refuse("external memory is planned for XGBoost on an NVIDIA GPU",
           "choose a GPU offering (--offering, --gpus), --library xgboost, or drop --external-memory");
  }
  if (plan.device_count != 1) {
    refuse("external memory is planned on one GPU: xgboost.dask does not take an ExtMemQuantileDMatrix",
           "use --count 1, or drop --external-memory for in-core GPUs across machines");
  }
  if (!lay_out_external_memory(plan.strategy, *plan.device, plan.offering)) {
    refuse(
        "device \"" + plan.device->id + "\" states no host link (a PCIe or NVLink-C2C interconnect) in the catalogue",
        "the cache streams over it: choose a PCIe card or a GH200 (SXM boards state only their NVLink)");
  }
}

// ZeRO, recomputation and offloading are training's: inference (split by --tp and --pp)
// and gradient-boosted trees ignore them, and say so.
std::string plan_flag_warnings(const EstimateOptions& options, const Workload& workload) {
  if (workload.is_training()) return {};
  std::string text;
  const auto warn = [&](bool given, const char* flag) {
    if (given) {
      text += fmt::format("mlsize: warning: {} applies to training; ignored for --task {}\n", flag,
                          to_string(workload.task));
    }
  };
  warn(options.zero.has_value(), "--zero");
  warn(options.recompute.has_value(), "--recompute");
  warn(options.offload.has_value(), "--offload");
  warn(options.shard_group.has_value(), "--shard-group");
  return text;
}

// --emit: the plan's launch config, for a plan on named hardware that meets the constraints.
CommandOutput emit_estimated(const EstimateOptions& options, const EstimateResult& result, const CostSettings& cost,
                             const std::string& warnings) {
  if (result.estimate.plan.device == nullptr) {
    flag_error("--emit", "a launch config needs the plan's hardware", "add --offering, --device or --gpus");
  }
  if (!result.feasible()) {
    return {{},
            warnings +
                "mlsize: the plan does not meet the constraints (memory, deadline or budget); no launch "
                "config written\n",
            k_exit_no_feasible};
  }
  CommandOutput output = emit_launch(*options.emit, result.workload, result.estimate, cost,
                                     "estimate: " + plan_title(result.estimate), options.workload.region.has_value());
  output.stderr_text = warnings + output.stderr_text;
  return output;
}

}  // namespace

void add_plan_options(CLI::App* command, EstimateOptions& options) {
  CLI::App* in = &option_group(*command, k_group_hardware);
  in->add_option("--offering", options.offering, "Offering id from the catalogue, e.g. aws-p4de.24xlarge")
      ->type_name("ID");
  in->add_option("--device", options.device, "Device id from the catalogue, e.g. a100-80gb-sxm")->type_name("ID");
  in->add_option("--count", options.count, "Devices in the plan (default: one unit of the offering, or 1)")
      ->type_name("N");
  in->add_option("--gpus", options.gpus, "ACC[:N]: shorthand for --device ACC --count N, e.g. h100:8")
      ->type_name("ACC[:N]");
  const Strategy defaults;
  in = &option_group(*command, k_group_plan);
  in->add_option(
        "--zero", options.zero,
        "ZeRO stage 0-3 across the data-parallel devices (default " + std::to_string(defaults.zero_stage) + " = DDP)")
      ->type_name("STAGE");
  in->add_option("--recompute", options.recompute, "Activation recomputation: " + choice_help(defaults.recompute))
      ->type_name("MODE");
  in->add_option("--tp", options.tensor_parallel,
                 "Tensor-parallel degree (default " + std::to_string(defaults.tensor_parallel) + ")")
      ->type_name("N");
  in->add_option("--pp", options.pipeline_parallel,
                 "Pipeline-parallel degree (default " + std::to_string(defaults.pipeline_parallel) + ")")
      ->type_name("N");
  in->add_flag("--sp", options.sequence_parallel, "Sequence parallelism with tensor parallelism");
  in->add_option("--ep", options.expert_parallel,
                 "Expert-parallel degree for MoE models (default " + std::to_string(defaults.expert_parallel) + ")")
      ->type_name("N");
  in->add_option("--shard-group", options.shard_group,
                 "HSDP with --zero 3: shard the states within groups of N data-parallel devices (one node's), "
                 "replicated across groups (default: all of them)")
      ->type_name("N");
  in->add_option("--offload", options.offload,
                 "ZeRO-Offload/Infinity: where model states live (without --zero: ZeRO stage 2, 3 for params): " +
                     choice_help(defaults.offload))
      ->type_name("WHAT");
}

CLI::App* add_estimate_command(CLI::App& app, EstimateOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("estimate", "Estimate memory, time and cost of one explicit plan");
  options.workload.formats = k_chart_report_formats;
  if (!with_options) return command;
  add_workload_options(*command, options.workload);
  add_plan_options(command, options);
  CLI::App* in = &option_group(*command, k_group_hardware);
  add_here_options(*in, options.here);  // not calibrate's: a calibration names its device
  in = &option_group(*command, k_group_output);
  in->add_flag("--external-memory", options.external_memory,
               "--task gbdt on one GPU: XGBoost's external memory, its quantised cache in host RAM");
  in->add_flag("--explain", options.explain, "Show each memory term with its formula and inputs");
  in->add_flag("--wide", options.wide, "Table: every column, lines not wrapped");
  add_emit_option(*command, options.emit);
  command->footer(examples({"mlsize estimate --params 7B --data 200GB --offering aws-p5.48xlarge --zero 3 --explain",
                            "mlsize estimate --model llama-3-8b --task qlora --data 1GB --gpus rtx-4090:1",
                            "mlsize estimate --model llama-2-70b --task inference --gpus h100:4 --tp 4 --batch 16"}));
  return command;
}

// --offering names an offering that --region left out: say so, rather than "unknown".
// --offering not priced in --region: said before the catalogue is priced (which drops it).
void check_offering_region(const EstimateOptions& options, const Catalog& full) {
  const std::string region = options.workload.region.value_or("");
  if (!options.offering || region.empty()) return;
  const Offering* offering = full.find_offering(*options.offering);
  if (offering == nullptr || offering->kind != OfferingKind::cloud || offering->price.region == region) return;
  for (const RegionalPrice& price : offering->other_regions) {
    if (price.region == region) return;
  }
  std::string regions = offering->price.region;
  for (const RegionalPrice& price : offering->other_regions) regions += ", " + price.region;
  flag_error(
      "--region",
      "offering \"" + offering->id + "\" is not priced in region \"" + options.workload.region.value_or("") + "\"",
      "its regions: " + regions);
}

namespace {

// The most devices one tensor-parallel group spans in the search (candidate_plans.cpp's:
// vLLM serves with TP up to the GPUs of a node).
constexpr int k_largest_tensor_search = 8;

// A language model served on several devices with no layout named: the smallest tensor degree
// that fits, the other devices replicas, as recommend searches it (issue 51: two RTX 4090s
// hold a 70B model in 4 bits only split in two). Returns a note when it chose one above 1.
std::string choose_serving_layout(const EstimateOptions& options, const Workload& workload,
                                  const CostSettings& cost_settings, Plan& plan) {
  if (workload.task != Task::inference || workload.samples_are_tokens() || plan.device == nullptr ||
      plan.device_count < 2 || options.tensor_parallel || options.pipeline_parallel || options.expert_parallel) {
    return {};
  }
  const int per_unit = plan.offering != nullptr ? plan.offering->devices_per_unit : plan.device_count;
  for (int tensor = 1; tensor <= std::min({per_unit, plan.device_count, k_largest_tensor_search}); tensor *= 2) {
    if (plan.device_count % tensor != 0 || (workload.model.heads > 0 && workload.model.heads % tensor != 0)) break;
    Plan candidate = plan;
    candidate.strategy.tensor_parallel = tensor;
    try {
      if (!estimate_plan(workload, candidate, cost_settings).fits) continue;
    } catch (const Error&) {
      return {};  // the plan as given reports it
    }
    plan = candidate;
    return tensor == 1 ? std::string()
                       : fmt::format(
                             "mlsize: note: TP {}, the smallest tensor-parallel degree that fits on these {} "
                             "devices (--tp sets one)\n",
                             tensor, plan.device_count);
  }
  return {};
}

// The one offering estimate reads of the catalogue, when it reads no other: --offering,
// without the flags that look through every offering or device (--region's list of the
// regions priced, --price-factor's and --owned's providers and offerings, --here's match of
// the machine, --device, --gpus and --calibration's devices). The rest of the catalogue is
// then not built, but for the offering's device and the providers (issue 49: building it
// was 3.4 M of the command's 5.8 M instructions); a test holds the report to the same
// bytes either way.
std::string_view offering_read_alone(const EstimateOptions& options) {
  const WorkloadOptions& w = options.workload;
  if (!options.offering || options.here.here || options.device || options.gpus || w.region ||
      !w.price_factors.empty() || !w.owned.empty() || !w.calibration_files.empty()) {
    return {};
  }
  return *options.offering;
}

}  // namespace

CommandOutput run_estimate(const EstimateOptions& options) {
  check_emit_format(options.emit, options.workload.format);
  Workload workload = build_workload(options.workload, false);
  const OutputFormat format = report_format(options.workload);
  std::vector<std::string> overlays;
  const std::string_view only_offering = offering_read_alone(options);
  Catalog full_catalog = build_catalog(options.workload, &overlays, only_offering);
  // A scoped read of an id the catalogue lacks: all of it, for the nearest ids the error
  // names. (With an overlay the read was whole: nothing to read again.)
  if (full_catalog.unread().offerings > 0 && full_catalog.find_offering(only_offering) == nullptr) {
    full_catalog = build_catalog(options.workload, &overlays);
  }
  CostSettings cost_settings = build_cost_settings(options.workload, full_catalog);
  check_offering_region(options, full_catalog);
  EstimateResult result;
  result.provenance = provenance_of(full_catalog, std::move(overlays), {});
  // Kept (cli/support/kept.hpp): freeing its 514 offerings was 0.77 M instructions at exit.
  const Catalog& catalog = kept(priced_catalog(options.workload, std::move(full_catalog), cost_settings));
  check_from_needs_here(options.here);
  std::optional<HereRun> here;  // the plan points into its catalogue
  if (options.here.here) {
    here = here_run(options.here, catalog);
    check_here_workload(here->hardware, workload);
    drop_cloud_setup(workload, options.workload.setup_time.has_value());
    cost_settings.owned.insert(std::string(k_here_offering));
  }
  Plan plan = here ? here_plan(options, *here) : plan_from_options(options, catalog);
  if (workload.task == Task::gbdt) {  // as candidate_plans lays out a gbdt plan
    plan.strategy.trees_on_gpu = plan.device != nullptr && plan.device->kind == DeviceKind::gpu;
    if (plan.offering) plan.strategy.tree_machines = plan.units * machines_per_unit(*plan.offering);
  }
  if (options.external_memory) set_external_memory(workload, plan);
  // As in recommend: without --precision, the device trains at the best precision it has.
  if (plan.device != nullptr && !options.workload.precision) {
    workload.precision = precision_for(*plan.device, workload, workload.precision);
  }

  result.provenance.region = options.workload.region.value_or("");
  result.provenance.defaults = default_settings(options.workload.defaults);
  std::string calibration_warnings;
  const std::vector<Calibration> calibrations = build_calibrations(options.workload, catalog);
  const Calibration* calibration =
      plan.device == nullptr ? nullptr : calibration_for(calibrations, *plan.device, workload.precision);
  if (calibration != nullptr) {
    const Workload base = workload;
    apply_calibration(workload, base, calibration);
    result.provenance.calibrations.push_back(calibration->file);
  }
  for (const Calibration& c : calibrations) {
    if (&c == calibration) continue;
    calibration_warnings += fmt::format("mlsize: warning: --calibration {} is for {} at {}; not applied to this plan\n",
                                        c.file, c.device_id, to_string(c.precision));
  }
  const std::string layout_note = choose_serving_layout(options, workload, cost_settings, plan);
  result.workload = workload;
  if (options.explain) estimate_memory(workload, plan.device_count, plan.strategy, &result.explanation);
  if (plan.device == nullptr) {
    // No hardware named: the memory terms and FLOPs alone.
    result.estimate.plan = plan;
    result.estimate.memory = estimate_memory(workload, plan.device_count, plan.strategy);
    result.estimate.flops = run_flops(workload, plan.strategy.recompute);
  } else {
    try {
      result.estimate = estimate_plan(workload, plan, cost_settings);
    } catch (Error& error) {
      // The planner's own flag stays (--offload); trees without a throughput are the hardware's.
      if (error.where().empty()) {
        error.at_flag(workload.task != Task::gbdt ? "--precision"
                      : options.offering          ? "--offering"
                      : options.gpus              ? "--gpus"
                                                  : "--device");
      }
      throw;
    }
    // A language model's decode step; an image model's inference has none.
    if (workload.task == Task::inference && !workload.serving && !workload.samples_are_tokens()) {
      if (const std::optional<Replica> replica =
              replica_of(workload, *plan.device, plan.offering, plan.strategy.tensor_parallel)) {
        result.decode = decode_step(workload, *replica, workload.batch, workload.context);
      }
    }
    if (!result.estimate.fits) result.fit_changes = ways_to_fit(workload, plan, cost_settings, k_default_max_devices);
    if (result.estimate.fits && result.timed()) {
      result.faster_micro_batch = faster_offload_micro_batch(workload, plan, cost_settings);
    }
    if (!result.timed()) result.estimate.cost.reset();
    if (workload.deadline && result.timed()) result.meets_deadline = result.estimate.time <= *workload.deadline;
    if (workload.budget && result.estimate.cost) result.within_budget = *result.estimate.cost <= *workload.budget;
  }

  const std::string warnings = task_flag_warnings(options.workload, workload) + plan_flag_warnings(options, workload) +
                               calibration_warnings + layout_note + (here ? here->notes : std::string());
  if (options.emit) return emit_estimated(options, result, cost_settings, warnings);
  CommandOutput output;
  if (format == OutputFormat::html) {
    output.stdout_text = render_estimate_html(result);
  } else if (format == OutputFormat::table || format == OutputFormat::markdown) {
    const bool markdown = format == OutputFormat::markdown;
    output.stdout_text =
        render_estimate_table(result, {output_width(k_default_width), options.wide || markdown, markdown});
  } else {
    // The row of CSV and TSV: the plan's figures and the workload, as in JSON.
    output.stdout_text = format_document(render_estimate_json(result), format, [](nlohmann::ordered_json document) {
      for (const char* header : {"schema_version", "command", "provenance"}) document.erase(header);
      return rows_of(nlohmann::ordered_json::array({std::move(document)}));
    });
  }
  output.stderr_text = warnings;
  if (!result.feasible()) {
    output.exit_code = k_exit_no_feasible;
    output.stderr_text += !result.estimate.fits || result.serves()
                              ? "mlsize: the plan does not meet the constraints (memory, deadline or budget)\n"
                              : "mlsize: the plan does not serve the load (its throughput or the latency targets)\n";
  }
  return output;
}

}  // namespace mlsize::cli
