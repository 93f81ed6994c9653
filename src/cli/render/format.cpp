#include "cli/render/format.hpp"

#include "cli/render/text_table.hpp"

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/framework.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/kernels.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

namespace mlsize::cli {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (const std::string& item : items) {
    if (!text.empty()) text += separator;
    text += item;
  }
  return text;
}

std::string describe_hardware(const Plan& plan) {
  std::string text = fmt::format("{}× {}", plan.device_count, plan.device->name);
  if (plan.offering != nullptr) {
    text += fmt::format(" ({} {}", plan.offering->provider, plan.offering->name);
    if (plan.units > 1) text += fmt::format(" ×{}", plan.units);
    // The region the plan is priced in (the offering's cheapest, or --region's).
    if (!plan.offering->price.region.empty()) text += ", " + plan.offering->price.region;
    text += ")";
  }
  return text;
}

std::string describe_strategy(const Strategy& strategy, int device_count, Task task) {
  if (task == Task::gbdt) {
    if (strategy.tree_machines > 1) return fmt::format("Dask/Spark ×{}", strategy.tree_machines);
    if (strategy.trees_external_memory()) return "one device, external memory";
    return device_count > 1 ? "one machine" : "one device";
  }
  if (task == Task::inference) {
    // An expert-parallel replica spans its EP devices (attention data-parallel within it).
    const int replicas = strategy.data_parallel(device_count) / strategy.expert_parallel;
    std::string text = strategy.expert_parallel > 1   ? fmt::format("EP {} (attention DP)", strategy.expert_parallel)
                       : strategy.tensor_parallel > 1 ? fmt::format("TP {}", strategy.tensor_parallel)
                                                      : "1 device";
    if (strategy.pipeline_parallel > 1) text += fmt::format(", PP {}", strategy.pipeline_parallel);
    if (replicas > 1) text += fmt::format(" × {} replicas", replicas);
    // A batch the search chose for a batch job: images generated or audio windows transcribed at once.
    if (strategy.micro_batch > 1) text += fmt::format(", batches of {}", strategy.micro_batch);
    return text;
  }
  const std::string recompute = fmt::format("{} recompute", to_string(strategy.recompute));
  std::string text;
  if (strategy.offload != Offload::none) {
    // DeepSpeed's own names: ZeRO-Offload (Ren et al. 2021, on ZeRO-2), "ZeRO-3 Offload"
    // (the optimizer of ZeRO-3), ZeRO-Infinity (the parameters too).
    text = strategy.offload == Offload::optimizer_and_params ? std::string("ZeRO-Infinity")
           : strategy.zero_stage == 2                        ? std::string("ZeRO-Offload")
                                                             : fmt::format("ZeRO-{} Offload", strategy.zero_stage);
    if (strategy.recompute != Recompute::none) text += " + " + recompute;
  } else if (device_count == 1) {
    // One device synchronises with nobody: "DDP" would name a wrapper it does not need.
    text = strategy.recompute != Recompute::none ? recompute : "1 device";
  } else {
    text = strategy.zero_stage == 0 ? std::string("DDP") : fmt::format("ZeRO-{}", strategy.zero_stage);
    // HSDP: "HSDP 8×16", ZeRO-3 within groups of 8, 16 replicas of them.
    if (strategy.hybrid_sharded(device_count)) {
      text = fmt::format("HSDP {}×{}", strategy.shard_group, strategy.shard_replicas(device_count));
    }
    if (strategy.recompute != Recompute::none) text += " + " + recompute;
  }
  if (strategy.tensor_parallel > 1) text += fmt::format(", TP {}", strategy.tensor_parallel);
  if (strategy.pipeline_parallel > 1) text += fmt::format(", PP {}", strategy.pipeline_parallel);
  if (strategy.sequence_parallel) text += ", SP";
  if (strategy.expert_parallel > 1) text += fmt::format(", EP {}", strategy.expert_parallel);
  if (strategy.micro_batch > 0) text += fmt::format(", micro-batch {}", strategy.micro_batch);
  return text;
}

namespace {

// "8", "8 or 16", "4, 8 or 16".
std::string either_of(const std::vector<int>& counts) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (i > 0) text += i + 1 == counts.size() ? " or " : ", ";
    text += std::to_string(counts[i]);
  }
  return text;
}

// Why whole units of the offering make none of the counts asked for.
std::string describe_device_count(const Rejection& rejection, const Workload& workload) {
  const Offering& offering = *rejection.offering;
  const int per_unit = offering.devices_per_unit;
  if (rejection.device_counts.empty() || rejection.max_units == 0) {
    return fmt::format("one unit has {} devices, over --max-devices", per_unit);
  }
  const bool one = rejection.device_counts == std::vector<int>{1};
  const std::string asked = either_of(rejection.device_counts) + (one ? " device" : " devices") + " asked for (--gpus)";
  const bool whole_units = std::any_of(rejection.device_counts.begin(), rejection.device_counts.end(),
                                       [&](int count) { return count % per_unit == 0; });
  const std::string unit = per_unit == 1 ? "1 device" : std::to_string(per_unit) + " devices";
  if (!whole_units) return fmt::format("{}; it comes in units of {}", asked, unit);
  std::string why = "its max_units";
  if (workload.task == Task::gbdt) {
    why = "gradient-boosted trees run on one machine";
  } else if (rejection.max_units == 1 && !offering.network_gbps && workload.task != Task::inference) {
    why = "no network between its units is stated";
  }
  return fmt::format("{}; a plan has at most {} unit{} of {} ({})", asked, rejection.max_units,
                     rejection.max_units == 1 ? "" : "s", unit, why);
}

// What would bring a replica within a latency target: a wider split where the unit has
// the devices, a faster device, smaller weights (decode reads them every step).
std::string serving_remedies(const PlanEstimate& nearest, bool decode) {
  std::vector<std::string> remedies;
  const int t = nearest.plan.strategy.tensor_parallel;
  if (nearest.plan.offering != nullptr && t < std::min(nearest.plan.offering->devices_per_unit, 8)) {
    remedies.push_back("more tensor parallelism");
  }
  // Prefill computes: only FP8 compute shortens it. Decode reads: any smaller weights do.
  const bool fp8 = nearest.plan.device->peak(DType::fp8).has_value();
  if (decode) {
    remedies.push_back("a device with more memory bandwidth");
    return join(remedies, ", ") + " or smaller weights (--quant " + (fp8 ? "fp8, " : "") + "int8, int4)";
  }
  if (!fp8) return join(remedies, ", ") + (remedies.empty() ? "" : " or ") + "a faster device";
  remedies.push_back("a faster device");
  return join(remedies, ", ") + " or fp8 weights (--quant fp8)";
}

}  // namespace

std::string describe_rejection(const Rejection& rejection, const Workload& workload) {
  const Device& device = *rejection.device;
  switch (rejection.reason) {
    case RejectionReason::purchase:
      return "hardware to buy, not to rent: --include-purchase weighs it against renting, --owned " +
             rejection.offering->id + " ranks it at its electricity if you have it";
    case RejectionReason::cards_only:
      return "the price covers the cards only, not the host computer, so it is not the price of a working "
             "machine; --owned " +
             rejection.offering->id + " ranks it at its electricity if you have it";
    case RejectionReason::precision:
      if (workload.task == Task::gbdt) {
        return device.kind == DeviceKind::cpu
                   ? "the offering states no vCPUs to run gradient-boosted trees on"
                   : fmt::format("{} runs no gradient-boosting library (XGBoost and LightGBM: CPUs and NVIDIA GPUs)",
                                 device.name);
      }
      if (workload.task == Task::inference) {
        return fmt::format("{} has no {} or {} throughput in the catalogue", device.name, to_string(DType::bf16),
                           to_string(DType::fp16));
      }
      return fmt::format("{} has no {} throughput in the catalogue (--precision {}){}", device.name,
                         to_string(compute_dtype(workload.precision)), to_string(workload.precision),
                         device.peak(DType::fp16)
                             ? fmt::format("; it trains with --precision {}", to_string(Precision::fp16_mixed))
                             : "");
    case RejectionReason::no_bandwidth:
      return fmt::format(
          "{} states no memory bandwidth in the catalogue, and every decode step is bound by it: no time is "
          "estimated without it (an overlay can add memory_bandwidth_gbs)",
          device.name);
    case RejectionReason::engine:
      return fmt::format("{} does not run on {} (--engine)", to_string(workload.engine), device.name);
    case RejectionReason::framework:
      return fmt::format("--framework {} does not train on {}: it runs on {}", to_string(workload.framework),
                         device.name, framework_devices_text(workload.framework));
    case RejectionReason::kernel:
      return missing_weight_kernel(workload.engine, workload.weight_format, device).value_or("");
    case RejectionReason::host_cpus: {
      const Offering& offering = *rejection.offering;
      const int machines = machines_per_unit(offering);
      const int gpus = std::max(1, offering.devices_per_unit / machines);
      const HostCpus needed = host_cpus_needed(workload, gpus).value_or(HostCpus{});
      const std::string beside = fmt::format("beside {} GPU{}", gpus, gpus == 1 ? "" : "s");
      if (!needed.physical) {
        return fmt::format(
            "a machine's {} vCPUs are fewer than the {} training needs {}: a process per GPU and a DataLoader "
            "worker for each (stas00/ml-engineering, compute/cpu)",
            *offering.vcpus / machines, needed.count, beside);
      }
      if (is_vllm(workload.engine)) {
        return fmt::format(
            "a machine's {} vCPUs ({} physical cores) are fewer than the {} vLLM needs {}: an API server, "
            "an engine core in a busy loop and a worker per GPU (docs.vllm.ai, configuration/optimization)",
            *offering.vcpus / machines, *rented_cores(offering) / machines, needed.count, beside);
      }
      return fmt::format(
          "a machine's {} vCPUs ({} physical cores) are fewer than the {} SGLang runs as processes {}: the HTTP "
          "server with its tokenizer, a scheduler per GPU in a busy loop and the detokenizer (sglang "
          "entrypoints/engine.py)",
          *offering.vcpus / machines, *rented_cores(offering) / machines, needed.count, beside);
    }
    case RejectionReason::no_capacity:
      return fmt::format("neither {} nor the offering states a memory size", device.name);
    case RejectionReason::no_host_memory:
      return workload.task == Task::gbdt
                 ? "the offering states no host RAM, and the host loads the training data before the GPUs take it"
                 : "the offering states no host RAM, and each machine's host reads the checkpoint before its "
                   "accelerators take it";
    case RejectionReason::host_memory: {
      const Offering& offering = *rejection.offering;
      const int machines = machines_per_unit(offering);
      const Bytes per_machine = *offering.host_memory / static_cast<double>(machines);
      const int gpus = std::max(1, offering.devices_per_unit / machines);
      if (workload.task == Task::gbdt && rejection.nearest) {
        const PlanEstimate& nearest = *rejection.nearest;
        const Bytes loaded = offloaded_per_unit(nearest.plan, nearest.memory);
        return fmt::format(
            "each machine's {} GB of host RAM ({} kept free) cannot hold the {} GB of training data its GPUs' "
            "workers load, even over {} machine{}",
            format_gb(per_machine), format_percent(workload.memory_headroom), format_gb(loaded), nearest.plan.units,
            nearest.plan.units == 1 ? "" : "s");
      }
      return workload.task == Task::gbdt
                 ? fmt::format("the host's {} GB of RAM cannot hold the {} GB of training data it loads for the GPUs",
                               format_gb(per_machine), format_gb(*host_must_hold(workload, gpus)))
                 : fmt::format(
                       "a machine's {} GB of host RAM cannot hold the {} GB it needs before the accelerators start: "
                       "the 16-bit checkpoint its host reads and 2 GB for each of its {} rank process{} (another "
                       "host shape may)",
                       format_gb(per_machine), format_gb(*host_must_hold(workload, gpus)), gpus, gpus == 1 ? "" : "es");
    }
    case RejectionReason::no_price: return "no price of the requested kind (see --pricing)";
    case RejectionReason::device_count: return describe_device_count(rejection, workload);
    case RejectionReason::rule:
      return fmt::format("excluded by rule {}: {}", rejection.rule.rule->id, rejection.rule.message);
    case RejectionReason::memory: {
      const PlanEstimate& nearest = *rejection.nearest;
      if (nearest.serving) {
        // A replica, not a fleet: its widest split could not hold one sequence.
        return fmt::format(
            "needs {} GB per device for the weights, the overhead and one sequence of {} tokens even with {}; {} GB "
            "of its {} GB are usable ({} kept free)",
            format_gb(nearest.memory.total()), workload.context,
            describe_strategy(nearest.plan.strategy, nearest.plan.strategy.tensor_parallel, workload.task),
            format_gb(nearest.usable), format_gb(nearest.capacity), headroom_text(workload));
      }
      const bool headroom_only = nearest.memory.total() <= nearest.capacity;
      return fmt::format(
          "needs {} GB per device even with {} on {} device{}; {} GB of its {} GB are usable ({} kept "
          "free{}){}",
          format_gb(nearest.memory.total()),
          describe_strategy(nearest.plan.strategy, nearest.plan.device_count, workload.task), nearest.plan.device_count,
          nearest.plan.device_count == 1 ? "" : "s", format_gb(nearest.usable), format_gb(nearest.capacity),
          headroom_text(workload), headroom_only ? ": a smaller --memory-headroom would fit it" : "",
          unplanned_offload_note(nearest.plan, workload));
    }
    case RejectionReason::offload_host: {
      const PlanEstimate& nearest = *rejection.nearest;
      const Offering& offering = *rejection.offering;
      return fmt::format(
          "only offloading fits the devices, and even {} on {} device{} puts {} GB of states in a unit's host RAM; {} "
          "GB of its {} GB are usable ({} kept free)",
          describe_strategy(nearest.plan.strategy, nearest.plan.device_count, workload.task), nearest.plan.device_count,
          nearest.plan.device_count == 1 ? "" : "s", format_gb(offloaded_per_unit(nearest.plan, nearest.memory)),
          format_gb(*offering.host_memory * (1 - workload.memory_headroom)), format_gb(*offering.host_memory),
          format_percent(workload.memory_headroom));
    }
    case RejectionReason::ttft: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("a {}-token prompt takes {} to its first token on {}; --ttft is {}: {} would shorten it",
                         workload.serving->prompt_tokens, format_latency(nearest.serving->replica.ttft),
                         describe_strategy(nearest.plan.strategy, nearest.plan.strategy.tensor_parallel, workload.task),
                         format_latency(*workload.serving->ttft), serving_remedies(nearest, false));
    }
    case RejectionReason::tpot: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("one sequence alone decodes at {} per token on {}; --tpot is {}: {} would speed it",
                         format_latency(nearest.serving->replica.decode_step),
                         describe_strategy(nearest.plan.strategy, nearest.plan.strategy.tensor_parallel, workload.task),
                         format_latency(*workload.serving->tpot), serving_remedies(nearest, true));
    }
    case RejectionReason::load: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format(
          "the load needs {} units ({} replicas of {} device{} at batch {}); at most {} (the offering's "
          "units, --max-devices or --gpus)",
          nearest.plan.units, nearest.serving->replicas_needed, nearest.plan.strategy.tensor_parallel,
          nearest.plan.strategy.tensor_parallel == 1 ? "" : "s", nearest.serving->replica.batch, rejection.max_units);
    }
    case RejectionReason::session_limit: {
      if (!rejection.nearest) return "a free tier's sessions end: a service stays up";
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("takes {} but a session lasts at most {} h", format_duration(nearest.time),
                         format_general(*rejection.offering->limits.session_hours));
    }
    case RejectionReason::run_time: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format(
          "fastest plan ({} devices) takes {}, over the {} run-time limit (--max-run-time, or a --deadline)",
          nearest.plan.device_count, format_duration(nearest.time), format_duration(*rejection.run_time_limit));
    }
    case RejectionReason::deadline: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("fastest plan ({} devices) takes {}; deadline is {}", nearest.plan.device_count,
                         format_duration(nearest.time), format_duration(*workload.deadline));
    }
    case RejectionReason::budget: {
      const PlanEstimate& nearest = *rejection.nearest;
      if (nearest.purchase) {
        return fmt::format("buying it costs {}; budget is {}", format_usd(*nearest.purchase),
                           format_usd(*workload.budget));
      }
      if (nearest.commitment && *nearest.commitment > *nearest.cost) {
        return fmt::format("cheapest plan that fits commits {} (a reservation's term); budget is {}",
                           format_usd(*nearest.commitment), format_usd(*workload.budget));
      }
      return fmt::format("cheapest plan that fits costs {}; budget is {}", format_usd(*nearest.cost),
                         format_usd(*workload.budget));
    }
    case RejectionReason::preemption:
      return "on spot, interruptions over the plan's instances would come faster than it can checkpoint and restart "
             "(docs/methodology.md#spot): fewer devices, or on-demand";
  }
  return {};
}

namespace {

// The flag of a change to the request (workload_changes); empty for a change to the plan.
std::string request_change_flags(FitChangeKind kind) {
  switch (kind) {
    case FitChangeKind::adam_8bit: return "--optimizer adam-8bit";
    case FitChangeKind::lora: return "--task lora";
    case FitChangeKind::qlora: return "--task qlora";
    case FitChangeKind::cache_latents: return "--cache-latents";
    case FitChangeKind::vae_slicing: return "--vae-slicing";
    case FitChangeKind::model_offload: return "--model-cpu-offload";
    case FitChangeKind::int8_weights: return "--quant int8";
    case FitChangeKind::int4_weights: return "--quant int4";
    default: return {};
  }
}

}  // namespace

std::string unplanned_offload_note(const Plan& plan, const Workload& workload) {
  const Offering* offering = plan.offering;
  if (offering == nullptr || (offering->host_memory && offering->vcpus) || !workload.is_training() ||
      workload.is_adapter_tuning() || plan.device->kind != DeviceKind::gpu || !steps_on_host(workload.optimizer)) {
    return {};
  }
  return !offering->host_memory ? "; offloading to host RAM was not planned, as the offering states none "
                                  "(host_memory_gib in an overlay, or --here on the machine)"
                                : "; offloading to host RAM was not planned, as the offering states no vCPUs to "
                                  "time its optimizer steps (vcpus in an overlay, or --here on the machine)";
}

std::string fit_change_flags(const FitChange& change, const Plan& from) {
  const Plan& to = change.estimate.plan;
  const auto stage = [&] {
    return to.strategy.zero_stage != from.strategy.zero_stage ? fmt::format(" --zero {}", to.strategy.zero_stage)
                                                              : std::string();
  };
  switch (change.kind) {
    case FitChangeKind::recompute_full: return "--recompute full";
    case FitChangeKind::zero_3: return "--zero 3";
    case FitChangeKind::offload: return "--offload optimizer" + stage();
    case FitChangeKind::offload_params: return "--offload optimizer+params" + stage();
    case FitChangeKind::more_devices:
      return to.strategy.tensor_parallel > 1 && to.strategy.tensor_parallel != from.strategy.tensor_parallel
                 ? fmt::format("--count {} --tp {}", to.device_count, to.strategy.tensor_parallel)
                 : fmt::format("--count {} --zero 3", to.device_count);
    default: return request_change_flags(change.kind);
  }
}

std::string way_out_flags(const WayOut& way) {
  const PlanEstimate& e = way.plan;
  switch (way.change) {
    case FitChangeKind::more_devices: return fmt::format("--gpus {}:{}", e.plan.device->id, e.plan.device_count);
    // Whole dollars and hours, rounded up: the flag then admits the plan.
    case FitChangeKind::budget: return fmt::format("--budget {}", std::ceil(budget_cash(e).value));
    case FitChangeKind::deadline: return fmt::format("--deadline {}h", std::ceil(e.time.value / k_seconds_per_hour));
    default: return request_change_flags(way.change);
  }
}

std::vector<std::vector<std::string>> ways_out_rows(const Report& report, bool wide) {
  std::vector<std::vector<std::string>> rows;
  for (const WayOut& way : report.ways_out) {
    // The nearest plans over the budget are shown apart, and the sentence names the budget.
    if (way.change == FitChangeKind::budget) continue;
    const RankedPlan& e = way.plan;
    std::string strategy = describe_strategy(e.plan.strategy, e.plan.device_count, way.workload.task);
    if (e.precision != report.workload.precision) strategy += fmt::format(", {}", to_string(e.precision));
    if (!way.fits) strategy += e.fits ? " (host RAM short)" : " (does not fit)";
    const std::string per_hour = per_hour_cell(e);
    rows.push_back({way_out_flags(way), hardware_cell(e.plan, wide, wide), std::to_string(e.plan.device_count),
                    strategy, memory_cell(e), way.fits ? format_duration(e.time) : "-", per_hour,
                    way.fits && e.cost ? format_usd(*e.cost) : "-"});
  }
  return rows;
}

std::string per_hour_cell(const PlanEstimate& e) {
  return e.price_per_unit_hour ? format_usd(*e.price_per_unit_hour * static_cast<double>(e.plan.units)) : "-";
}

std::string headroom_text(const Workload& workload) {
  const std::string share = format_percent(workload.memory_headroom);
  return headroom_of_free(workload) ? share + " of what the model leaves" : share;
}

std::string memory_cell(const PlanEstimate& e) {
  return fmt::format("{}/{}", format_gb(e.memory.total()), format_gb(e.capacity));
}

std::string rank_cell(std::size_t rank, const RankedPlan& e, bool next_shown) {
  return std::to_string(rank) + (e.pareto ? "*" : "") + (e.ranked_by_tie_break && next_shown ? "~" : "");
}

std::string hardware_cell(const Plan& plan, bool wide, bool units) {
  std::string text = wide ? plan.device->name : plan.device->id;
  if (plan.offering != nullptr) {
    // On-premise systems differ within a provider (DGX, a reseller's server): their id
    // says which, and names the system (on-prem-dgx-b200) as the device id would.
    if (wide) {
      text += fmt::format(" · {} {}", plan.offering->provider, plan.offering->name);
    } else if (plan.offering->kind == OfferingKind::on_prem) {
      text = plan.offering->id;
    } else if (plan.device->kind == DeviceKind::tpu && plan.offering->id.starts_with(plan.offering->provider + "-")) {
      // A TPU slice by its name, as Google names it (tpu-v6e-64, v4-8 counting cores):
      // slices of one generation differ only there.
      text = plan.offering->id.substr(plan.offering->provider.size() + 1) + " · " + plan.offering->provider;
    } else {
      text += " · " + plan.offering->provider;
    }
    if (units && plan.units > 1) text += fmt::format(" x{}", plan.units);
  }
  return text;
}

namespace {

// The lines of `text`, without their line feeds.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string markdown_inline(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  const auto starts = [&](std::size_t at, std::string_view word) {
    if (text.size() - at < word.size()) return false;
    return std::equal(word.begin(), word.end(), text.begin() + static_cast<std::ptrdiff_t>(at),
                      [](char a, char b) { return a == (b | 0x20); });
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      // CommonMark 0.30 §2.4: any ASCII punctuation may be backslash-escaped and is then text.
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '~':
      case '|':
      case '@':  // GFM's extended e-mail autolink (user@host.tld)
        out += '\\';
        out += c;
        break;
      // Entities rather than escapes: Markdown writers and readers agree on these (§6.6).
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case ':':  // GFM's extended URL autolink (http://, https://)
        out += text.substr(i).starts_with("://") ? "\\:" : ":";
        break;
      default:
        out += c;
        // GFM's extended www. autolink: the dot escaped.
        if ((c | 0x20) == 'w' && starts(i, "www.") &&
            (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
          out += "ww\\.";
          i += 3;
        }
    }
  }
  return out;
}

std::string markdown_paragraphs(const std::string& text) {
  enum class Block { none, paragraph, table, list };
  std::string out;
  Block previous = Block::none;
  for (const std::string& line : lines_of(text)) {
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    const Block block = line.front() == '|' ? Block::table : indent > 0 ? Block::list : Block::paragraph;
    // A blank line ends the block before, except between the lines of one table or list.
    if (previous != Block::none && (block != previous || block == Block::paragraph)) out += "\n";
    if (block == Block::list) out += "- ";
    const std::string prose = line.substr(block == Block::list ? indent : 0);
    // Outside text in a sentence (an offering's name holding <script> or *emphasis*) must
    // stay text. Table rows are escaped cell by cell (render_rows).
    out += block == Block::table ? prose : markdown_inline(prose);
    out += '\n';
    previous = block;
  }
  return out;
}

std::string wrap_prose(const std::string& text, std::size_t width) {
  std::string out;
  for (const std::string& line : lines_of(text)) {
    const std::size_t indent = line.find_first_not_of(' ');
    // Table rows pad their columns with runs of spaces: they keep their shape.
    const bool tabular = indent != std::string::npos && line.find("  ", indent) != std::string::npos;
    if (display_width(line) <= width || tabular || indent == std::string::npos) {
      out += line + "\n";
      continue;
    }
    // Continuation lines hang two columns in from the line's own indent.
    const std::string hang(indent + 2, ' ');
    std::string current = line.substr(0, indent);
    std::size_t column = indent;
    bool first = true;
    std::size_t at = indent;
    while (at < line.size()) {
      std::size_t space = line.find(' ', at);
      if (space == std::string::npos) space = line.size();
      const std::string word = line.substr(at, space - at);
      const std::size_t word_width = display_width(word);
      if (!first && column + 1 + word_width > width) {
        out += current + "\n";
        current = hang + word;
        column = hang.size() + word_width;
      } else {
        current += (first ? "" : " ") + word;
        column += (first ? 0 : 1) + word_width;
      }
      first = false;
      at = space + 1;
    }
    out += current + "\n";
  }
  return out;
}

// Every offering looked at: ranked, to buy (beside the ranking) or rejected. Purchases
// count as offerings that are not ranked, so the sentence reads the same with and
// without --include-purchase.
std::size_t offering_count(const Report& report) {
  return report.recommendations.size() + report.purchases.size() + report.rejected.size();
}

std::string vision_way_out() {
  return "--data-loader dali, or a host with more vCPUs per GPU, lifts it";
}

std::string diffusion_lines(const PlanEstimate& e, const Workload& workload) {
  if (!workload.diffusion) return {};
  const DiffusionWorkload& d = *workload.diffusion;
  const double frozen = workload.is_training() ? diffusion_frozen_bytes(workload).value
                                               : diffusion_inference_frozen_bytes(workload).value;
  std::string text = fmt::format(
      "Weights: the denoiser {} GB{}; {} and VAE {} GB{}.\n", format_gb(Bytes(e.memory.weights.value - frozen)),
      workload.is_adapter_tuning()
          ? fmt::format(" (frozen, with {} LoRA parameters trained)", format_count(adapter_parameters(workload)))
          : std::string(),
      d.model.text_encoders, format_gb(Bytes(frozen)),
      workload.is_training() ? (d.cached ? " (cached: not loaded)" : " (frozen, 16-bit)") : " (16-bit)");
  if (!e.diffusion) return text;
  const DiffusionRun& run = *e.diffusion;
  const DiffusionBatch& b = run.batch;
  text += fmt::format(
      "Generation: a batch of {} image{} per device in {} (text encoders {}, {} steps {}, VAE decode {}{}): {} "
      "images a second per device.\n",
      b.batch, b.batch == 1 ? "" : "s", format_latency(b.latency()), format_latency(b.text), d.steps,
      format_latency(b.denoise), format_latency(b.decode),
      b.offload.value > 0 ? ", moving the components from the host " + format_latency(b.offload) : std::string(),
      format_general(b.images_per_s(), 3));
  if (run.fleet) {
    text += fmt::format(
        "Fleet: {} replica{} for {} images a second ({} needed at {} of each replica's rate, {} spare "
        "unit{}){}.\n",
        run.replicas, run.replicas == 1 ? "" : "s", format_general(d.images_per_s), run.replicas_needed,
        format_percent(d.utilisation), d.redundancy, d.redundancy == 1 ? "" : "s",
        run.per_1000_images ? ": " + format_usd(*run.per_1000_images) + " per 1,000 images" : "");
  }
  return text;
}

std::string speech_lines(const PlanEstimate& e, const Workload& workload) {
  if (!workload.speech || !e.speech) return {};
  const SpeechWorkload& s = *workload.speech;
  const SpeechRun& run = *e.speech;
  const SpeechBatch& b = run.batch;
  return fmt::format(
      "Transcription: a batch of {} window{} × beam {} per device in {} (features {}, encoder {}, {} decode steps of "
      "{}): {}× real time per device, {}× for the plan.\n",
      b.batch, b.batch == 1 ? "" : "s", b.beams, format_latency(b.latency()), format_latency(b.host),
      format_latency(b.encoder), format_general(b.steps), format_latency(b.step),
      format_general(b.speed(speech_engine_profile(s.engine).advance), 3), format_general(run.audio_speed, 3));
}

std::string vision_throughput(const VisionRun& run) {
  std::string text = fmt::format("{} images/s", format_grouped(run.images_per_s()));
  if (!run.pipeline) return text + " (the devices' rate; no host decoding bound)";
  if (run.shared_cores) {
    return text + fmt::format(" (the CPU's cores train {} a second and decode {} with Pillow, in turn)",
                              format_grouped(run.device_images_per_s), format_grouped(run.pipeline->images_per_s));
  }
  text += fmt::format(" (the GPUs could take {}; the host's {} vCPUs decode {} with Pillow)",
                      format_grouped(run.device_images_per_s), run.pipeline->vcpus,
                      format_grouped(run.pipeline->images_per_s));
  return text;
}

// Why a plan's MFU differs from the workload's: its device's software stack and
// generation, a small model's size, LoRA's measured speed, QLoRA's dequantisation
// (docs/methodology.md#efficiency).
std::string mfu_basis(const PlanEstimate& e, const Workload& workload) {
  if (workload.mfu_pinned || e.mfu <= 0) return "";
  if (workload.vision) return " (the roofline of FLOPs and activation traffic, docs/methodology.md#vision-time)";
  if (workload.diffusion) {
    return " (each part's roofline of FLOPs and activation traffic, docs/methodology.md#diffusion-time)";
  }
  if (workload.speech && workload.task == Task::inference) {
    return " (the encoder's roofline and the decoder's steps, docs/methodology.md#speech-time)";
  }
  if (workload.task == Task::inference) return " (a serving engine's, docs/methodology.md#serving)";
  std::vector<std::string> why;
  const Stack stack = stack_of(*e.plan.device);
  if (stack_efficiency(stack) != 1.0) {
    why.push_back(fmt::format("{} × {} for {}", format_percent(workload.mfu), format_general(stack_efficiency(stack)),
                              to_string(stack)));
  }
  if (const double generation = generation_efficiency(*e.plan.device); generation != 1.0) {
    why.push_back(fmt::format("× {} for Volta/Turing", format_general(generation)));
  }
  if (const double size = size_efficiency(workload.parameters.active); workload.is_training() && size != 1.0) {
    why.push_back(fmt::format("× {} for a {}-parameter model", format_general(size, 2),
                              format_count(workload.parameters.active)));
  }
  if (const std::optional<DType> dtype = compute_dtype(*e.plan.device, workload); workload.is_training() && dtype) {
    if (const double experts = moe_efficiency(workload.model, *dtype); experts != 1.0) {
      const bool fine = fine_grained_experts(workload.model);
      why.push_back(fmt::format("× {} for {} experts{}", format_general(experts, 2), fine ? "fine-grained" : "coarse",
                                fine && *dtype == DType::fp8 ? " in fp8" : ""));
    }
  }
  if (workload.is_adapter_tuning()) {
    why.push_back(fmt::format("× {} for LoRA's 4·N·D", format_general(k_lora_efficiency, 2)));
  }
  if (workload.task == Task::qlora) why.push_back(fmt::format("÷ {} for QLoRA", format_general(k_qlora_slowdown)));
  return why.empty() ? "" : " (" + join(why, ", ") + ")";
}

}  // namespace mlsize::cli
