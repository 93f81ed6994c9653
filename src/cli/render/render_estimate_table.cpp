// The estimate command's table: one plan's memory by term, its fit (and the changes that make
// it fit), host RAM, time, cost and serving figures (docs/cli.md#estimate).

#include "cli/render/format.hpp"
#include "cli/render/price_note.hpp"
#include "cli/render/render_serving.hpp"
#include "cli/render/renderers.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/planner.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace mlsize::cli {

namespace {

// A plan that does not fit: the single changes that make it fit, with their memory
// (docs/methodology.md#ways-to-fit).
std::string fit_changes_text(const EstimateResult& result) {
  if (result.fit_changes.empty()) return {};
  const Plan& from = result.estimate.plan;
  std::string text;
  for (const FitChange& change : result.fit_changes) {
    if (!change.fits) continue;
    const PlanEstimate& e = change.estimate;
    text += fmt::format("  {}: {} GB per device ({} of usable){}, {}{}\n", fit_change_flags(change, from),
                        format_gb(e.memory.total()), format_percent(e.memory.total() / e.usable),
                        e.memory.host.value > 0 && e.plan.strategy.offload != Offload::none
                            ? fmt::format(", {} GB offloaded per device", format_gb(e.memory.host))
                            : "",
                        std::isfinite(e.time.value) ? format_duration(e.time) : "never finishes on spot",
                        e.cost && std::isfinite(e.cost->value) ? ", " + format_usd(*e.cost) : "");
  }
  if (!text.empty()) return "It fits with any one of these changes:\n" + text;
  const auto nearest =
      std::min_element(result.fit_changes.begin(), result.fit_changes.end(), [](const auto& a, const auto& b) {
        return a.estimate.memory.total() / a.estimate.capacity < b.estimate.memory.total() / b.estimate.capacity;
      });
  return fmt::format("No single change makes it fit; the nearest is {}: {} of capacity.\n",
                     fit_change_flags(*nearest, from),
                     format_percent(nearest->estimate.memory.total() / nearest->estimate.capacity));
}

}  // namespace

std::string estimate_findings(const EstimateResult& result) {
  const PlanEstimate& e = result.estimate;
  const MemoryBreakdown& m = e.memory;
  const bool has_device = result.has_device();
  std::string text;
  if (!has_device) {
    text += fmt::format("Compute: {} FLOPs.\nGB = 10^9 bytes.\n", format_general(e.flops.value, 3));
    return text;
  }
  text += fmt::format("Memory: {} ({} of usable, {} of capacity).\n", e.fits ? "fits" : "DOES NOT FIT",
                      format_percent(m.total() / e.usable), format_percent(m.total() / e.capacity));
  text += fit_changes_text(result);
  if (e.host_fits) {
    const Bytes host = *e.plan.offering->host_memory;
    text += fmt::format("Host RAM: {} GB per unit for {}, of {} GB usable ({} GB, {} kept free): {}.\n",
                        format_gb(offloaded_per_unit(e.plan, m)),
                        e.plan.strategy.trees_external_memory() ? "the cache's host part and an input batch"
                        : e.plan.strategy.trees_on_gpu          ? "the rows its GPUs load"
                                                                : "the offloaded states",
                        format_gb(host * (1 - result.workload.memory_headroom)), format_gb(host),
                        format_percent(result.workload.memory_headroom), *e.host_fits ? "fits" : "DOES NOT FIT");
  }
  if (e.serving) {
    text += serving_lines(e, *result.workload.serving);
    if (!result.explanation.empty() && e.serving->replica.batch_capacity > 0) {
      text += serving_formulas(e, result.workload);
    }
    return text + "GB = 10^9 bytes.\n";
  }
  if (result.decode) {
    text += decode_line(*result.decode, e, result.workload);
    if (!result.explanation.empty()) {
      const DecodeStep& d = *result.decode;
      const Workload& w = result.workload;
      text += fmt::format(
          "  step = max(bytes read / (bandwidth × efficiency), FLOPs / (peak × MFU)) + all-reduces = max({} GB / ({} "
          "GB/s × {}), {} / ({} TFLOP/s × {})) + {} = {}\n"
          "    bytes read = weights + KV cache of {} × {} tokens; FLOPs = (2 × {} active params + attention over {} "
          "tokens) × {} / t {}\n",
          format_gb(d.bytes), format_general(*e.plan.device->memory_bandwidth_bytes_per_s / 1e9, 4),
          format_percent(d.bandwidth_efficiency), format_general(d.flops, 3),
          format_general(e.peak_flops_per_s / 1e12, 4), format_percent(d.compute_efficiency),
          format_latency(d.all_reduce), format_latency(d.step), w.batch, w.context, format_count(w.parameters.active),
          w.context, w.batch, e.plan.strategy.tensor_parallel);
    }
  }
  if (!result.timed()) {
    text += "Time and cost: give --data or --tokens.\nGB = 10^9 bytes.\n";
    return text;
  }
  if (e.gbdt) {
    // docs/methodology.md#gbdt-run-time
    text += fmt::format("Compute: {} histogram cell visits at {} per second per {} × {} {} (speed-up {}).\n",
                        format_general(e.gbdt->cell_visits, 3),
                        format_general(e.gbdt->throughput.visits_per_s_per_worker, 3),
                        e.plan.device->kind == DeviceKind::cpu ? "core" : "GPU", e.gbdt->throughput.workers,
                        e.plan.device->kind == DeviceKind::cpu ? "cores" : "GPUs", format_general(e.gbdt->speedup, 3));
  } else {
    text +=
        fmt::format("Compute: {} FLOPs at {} TFLOP/s per device × {} devices × {} MFU{}.\n",
                    format_general(e.flops.value, 3), format_general(e.peak_flops_per_s / 1e12, 4), e.plan.device_count,
                    format_percent(e.mfu > 0 ? e.mfu : result.workload.mfu), mfu_basis(e, result.workload));
  }
  if (!std::isfinite(e.time.value)) {
    return text +
           "Time: never finishes on spot: interruptions over this many machines come faster than the run can "
           "checkpoint and restart (docs/methodology.md#spot); fewer devices, or on-demand.\nGB = 10^9 bytes.\n";
  }
  text += fmt::format("Time: {}", format_duration(e.time));
  const Communication& c = e.communication;
  std::vector<std::string> parts{"compute " + format_duration(e.compute_time)};
  if (e.vision) {
    // What the host's decoding adds to the devices' time, and the per-epoch work.
    const double images = result.workload.tokens;
    const double waiting = images / e.vision->images_per_s() - images / e.vision->device_images_per_s;
    if (waiting > 0) parts.push_back("waiting on the host's decoding " + format_duration(Seconds(waiting)));
    if (e.vision->epoch_overhead.value > 0) {
      parts.push_back("validation, loader restarts and checkpoints " + format_duration(e.vision->epoch_overhead));
    }
  }
  if (e.gbdt && e.gbdt->throughput.machines > 1) {
    parts.push_back(fmt::format("histogram all-reduce over {} machines at {} Gbit/s {}", e.gbdt->throughput.machines,
                                format_general(e.gbdt->throughput.network_bytes_per_s * 8 / 1e9, 3),
                                format_duration(e.gbdt->communication)));
  }
  if (e.gbdt && e.gbdt->extmem) {
    parts.push_back(fmt::format(
        "the cache's {} GB from the host over {} at {} GB/s, {} a tree: {}{}",
        format_gb(Bytes(e.gbdt->extmem->on_host)), e.plan.strategy.trees_extmem_c2c ? "NVLink-C2C" : "PCIe",
        format_general(e.gbdt->link_bytes_per_s / 1e9, 3),
        format_general(gbdt_extmem_passes_per_tree(result.workload.max_depth), 3), format_duration(e.gbdt->transfer),
        e.gbdt->transfer > e.gbdt->compute() ? ", longer than the compute, which it overlaps"
                                             : ", overlapped with the compute"));
  }
  if (c.bandwidth_bytes_per_s > 0) {
    parts.push_back(fmt::format(
        "data-parallel communication not hidden {}: {} GB per device per step at {} GB/s{}",
        format_duration(c.data_parallel), format_gb(Bytes(c.bytes_per_step)), format_gb(Bytes(c.bandwidth_bytes_per_s)),
        c.network_assumed ? fmt::format(", network assumed {} Gbit/s", k_assumed_network_gbps) : ""));
  }
  if (c.tensor_parallel.value > 0) {
    parts.push_back(fmt::format("tensor-parallel collectives {} ({} GB per device per step)",
                                format_duration(c.tensor_parallel), format_gb(Bytes(c.tensor_bytes_per_step))));
  }
  if (c.pipeline.value > 0) parts.push_back("pipeline bubble and sends " + format_duration(c.pipeline));
  if (c.offload.value > 0) parts.push_back("host offload (optimizer steps, PCIe) " + format_duration(c.offload));
  if (e.setup.value > 0) parts.push_back("setup " + format_duration(e.setup));
  if (c.steps > 0) {
    parts.push_back(fmt::format("{} step{}", format_count(std::ceil(c.steps)), std::ceil(c.steps) == 1 ? "" : "s"));
  }
  if (parts.size() > 1) text += " (" + join(parts, ", ") + ")";
  if (result.meets_deadline) text += *result.meets_deadline ? " (meets the deadline)" : " (MISSES the deadline)";
  text += ".\n";
  if (e.vision) {
    text += "Throughput: " + vision_throughput(*e.vision) +
            (e.vision->loader_bound() ? ": data-loader bound (" + vision_way_out() + ")" : std::string()) + ".\n";
  }
  text += diffusion_lines(e, result.workload);
  text += speech_lines(e, result.workload);
  if (const std::optional<PlanEstimate>& faster = result.faster_micro_batch) {
    text += fmt::format(
        "Faster: --micro-batch {} sends the gradients to the host {}× less often: {} ({} of usable).\n",
        faster->plan.strategy.micro_batch, faster->plan.strategy.micro_batch / result.workload.micro_batch,
        format_duration(faster->time),
        format_percent(faster->memory.total() / (faster->capacity * (1 - result.workload.memory_headroom))));
  }
  if (e.cost) {
    text += fmt::format("Cost: {} ({}/unit-hour × {} unit{})", format_usd(*e.cost), format_usd(*e.price_per_unit_hour),
                        e.plan.units, e.plan.units == 1 ? "" : "s");
    if (result.within_budget) text += *result.within_budget ? ", within the budget" : ", OVER the budget";
    text += ".\n";
  } else {
    text += "Cost: no price (a device without an offering, or no price of the requested kind).\n";
  }
  text += "GB = 10^9 bytes.\n";
  return text;
}

namespace {

std::string estimate_table(const EstimateResult& result, const TableStyle& style) {
  const PlanEstimate& e = result.estimate;
  const MemoryBreakdown& m = e.memory;
  const bool has_device = result.has_device();
  std::string text = workload_line(result.workload);
  const Strategy& st = e.plan.strategy;
  const std::string layout = describe_strategy(st, e.plan.device_count, result.workload.task);
  text += has_device
              ? fmt::format("Plan: {}, {}.\n\n", describe_hardware(e.plan), layout)
              : fmt::format("Plan: {} device(s), {} (no device given: memory only).\n\n", e.plan.device_count, layout);
  const std::vector<TableColumn> columns{{"memory per device", false}, {"GB", true}};
  const std::array<std::pair<const char*, Bytes>, 6> terms{{{"weights", m.weights},
                                                            {"gradients", m.gradients},
                                                            {"optimizer states", m.optimizer},
                                                            {"activations", m.activations},
                                                            {"KV cache", m.kv_cache},
                                                            {"overhead", m.overhead}}};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, bytes] : terms) rows.push_back({name, format_gb(bytes)});
  rows.push_back({"total", format_gb(m.total())});
  // What the framework can allocate (the device's memory less the runtime's reserve), and what
  // a plan may use of it: the total fits exactly when it is at most "usable".
  if (has_device) {
    rows.push_back({"capacity", format_gb(e.capacity)});
    rows.push_back({fmt::format("usable ({} kept free)", headroom_text(result.workload)), format_gb(e.usable)});
  }
  // Only training offloads (inference ignores --offload, with a warning).
  if (st.offload != Offload::none && result.workload.is_training()) {
    rows.push_back({"host RAM (offloaded)", format_gb(m.host)});
  }
  text += render_table(columns, rows, style) + "\n";
  if (!result.explanation.empty()) {
    std::vector<std::vector<std::string>> explained;
    for (const ExplainedTerm& term : result.explanation) {
      explained.push_back({term.term, format_gb(term.value), term.formula, term.inputs});
    }
    text += render_table({{"term", false}, {"GB", true}, {"formula", false, 0, true}, {"inputs", false, 1}}, explained,
                         style);
    // Serving: one sequence's terms, from which the batch capacity follows (below).
    if (e.serving) text += "(one sequence of prompt + output tokens: the KV cache above is the batch's)\n";
    text += "\n";
  }
  return text + estimate_findings(result);
}

}  // namespace

std::string render_estimate_table(const EstimateResult& result, const TableStyle& style) {
  const std::string text = estimate_table(result, style) + provenance_footer(result.provenance);
  if (style.markdown) return markdown_paragraphs(text);
  return style.wide ? text : wrap_prose(text, style.width);
}

}  // namespace mlsize::cli
