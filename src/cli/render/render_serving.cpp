#include "cli/render/render_serving.hpp"

#include "cli/render/format.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

// A replica's layout: "1 device", "TP 4", "EP 8" (experts split, attention data-parallel).
std::string replica_layout(const Strategy& strategy) {
  if (strategy.expert_parallel > 1) return fmt::format("EP {}", strategy.expert_parallel);
  return strategy.tensor_parallel == 1 ? "1 device" : fmt::format("TP {}", strategy.tensor_parallel);
}

// "TTFT" at the median, "TTFT p99" at a tail.
std::string at_percentile(const char* what, int percentile) {
  return percentile == 50 ? std::string(what) : fmt::format("{} p{}", what, percentile);
}

// The cells every serving row starts with: rank, hardware, devices, replicas.
std::vector<std::string> fleet_cells(std::size_t rank, const RankedPlan& e, bool wide, bool next_shown) {
  // The units are in --wide; the replicas column says the fleet's size.
  // A load's spares after a +: "2+1 × TP 4".
  const ServingEstimate& s = *e.serving;
  const std::string replicas = s.spare_replicas > 0 && !s.offline
                                   ? fmt::format("{}+{}", s.replicas - s.spare_replicas, s.spare_replicas)
                                   : std::to_string(s.replicas);
  return {rank_cell(rank, e, next_shown), hardware_cell(e.plan, wide, wide), std::to_string(e.plan.device_count),
          fmt::format("{} × {}", replicas, replica_layout(e.plan.strategy))};
}

}  // namespace

// Serving: the replica nearest to the latency targets, or the load too big for every
// offering; empty when memory is what failed.
std::string no_serving_sentence(const Report& report, std::string_view none) {
  const Rejection* nearest = nullptr;
  for (const Rejection& rejection : report.rejected) {
    const bool target = rejection.reason == RejectionReason::tpot || rejection.reason == RejectionReason::ttft;
    if (!target || !rejection.nearest) continue;
    const auto latency = [](const Rejection& r) {
      const ReplicaEstimate& replica = r.nearest->serving->replica;
      return r.reason == RejectionReason::tpot ? replica.decode_step.value : replica.ttft.value;
    };
    if (nearest == nullptr || latency(rejection) < latency(*nearest)) nearest = &rejection;
  }
  if (nearest != nullptr) {
    return fmt::format("{} meets the latency targets. The nearest: {}", none,
                       describe_rejection(*nearest, report.workload) + " (" + nearest->offering->id + ").");
  }
  const bool load = std::any_of(report.rejected.begin(), report.rejected.end(),
                                [](const Rejection& r) { return r.reason == RejectionReason::load; });
  if (load) {
    return std::string(none) +
           " serves the load within the units an offering has (--max-devices or the count in --gpus raises the limit; "
           "rejected ones and why: --format json).";
  }
  return {};
}

// A serving fleet in a few words: "2 replicas of TP 4, batch 37 (tpot)".
std::string fleet_text(const PlanEstimate& e) {
  const ServingEstimate& s = *e.serving;
  std::string replicas =
      fmt::format("{} replica{} of {}", s.replicas, s.replicas == 1 ? "" : "s", replica_layout(e.plan.strategy));
  if (s.spare_replicas > 0 && !s.offline) replicas += fmt::format(" ({} spare)", s.spare_replicas);
  if (s.at_load.batch == s.replica.batch)
    return fmt::format("{} at batch {} ({})", replicas, s.replica.batch, to_string(s.limit));
  return fmt::format("{}, {} sequences each in flight at the load (at most {}: {})", replicas, s.at_load.batch,
                     s.replica.batch, to_string(s.limit));
}

std::string serving_summary(const Report& report) {
  const RankedPlan& best = report.recommendations.front();
  const ServingEstimate& s = *best.serving;
  if (report.workload.serving->sizing) {
    std::string text = fmt::format(
        "{} is the cheapest per hour that holds the model with room for {} sequences of {} tokens: {}/hour for a "
        "replica of {} ({} sequences at most). One user gets {} tokens/s; its {} replica{} at batch {} give {} "
        "output tokens/s, {} per million",
        describe_hardware(best.plan), k_sizing_sequences, report.workload.context, format_usd(s.per_hour),
        replica_layout(best.plan.strategy), s.replica.batch_capacity, format_general(1 / s.tail.tpot.value, 3),
        s.replicas, s.replicas == 1 ? "" : "s", s.replica.batch, format_throughput(s.fleet_output_tokens_per_s),
        format_usd(s.per_million_output_tokens));
    return text + fmt::format(" ({} of {} offerings hold it).", report.recommendations.size(), offering_count(report));
  }
  std::string text = fmt::format(
      "{} serves the load for {}/hour ({} per million output tokens): {}; {} {}, {} {}, {} output tokens/s at "
      "{} utilisation",
      describe_hardware(best.plan), format_usd(s.per_hour), format_usd(s.per_million_output_tokens), fleet_text(best),
      at_percentile("TTFT", s.tail.percentile), format_latency(s.tail.ttft), at_percentile("TPOT", s.tail.percentile),
      format_latency(s.tail.tpot), format_throughput(s.fleet_output_tokens_per_s), format_percent(s.utilisation));
  if (report.recommendations.size() > 1) {
    const RankedPlan& next = report.recommendations[1];
    text += fmt::format("; #2 {}/hour", format_usd(next.serving->per_hour));
  }
  return text +
         fmt::format(" ({} of {} offerings can serve it).", report.recommendations.size(), offering_count(report));
}

// A load's fleets, or an offline job's plans (docs/cli.md#serving-fields): these share the
// first columns; a load shows its latencies at the load and $/hour, a job (every replica
// at its largest batch) its time and cost as a run.
std::string serving_table(const Report& report, int top, const TableStyle& style) {
  const bool offline = report.workload.serving->offline();
  const bool sizing = report.workload.serving->sizing;
  const int percentile = report.workload.serving->percentile;
  const std::string ttft = at_percentile("TTFT", percentile);
  const std::string tpot = at_percentile("TPOT", percentile);
  std::vector<TableColumn> columns{{"#", true}, {"hardware", false}, {"devices", true}, {"replicas", false}};
  if (sizing) {
    columns.insert(columns.end(), {{"tokens/s at 1", true},
                                   {"batch", true},
                                   {"tokens/s", true},
                                   {"$/hour", true},
                                   {"$/M tokens", true},
                                   {"memory/device GB", true}});
  } else if (offline) {
    columns.insert(columns.end(), {{"batch", true},
                                   {"TPOT", true},
                                   {"tokens/s", true},
                                   {"time", true},
                                   {"cost USD", true},
                                   {"$/M tokens", true},
                                   {"memory/device GB", true}});
  } else {
    columns.insert(columns.end(), {{"batch load/max", true},
                                   {ttft, true},
                                   {tpot, true},
                                   {"tokens/s", true},
                                   {"$/hour", true},
                                   {"$/M tokens", true},
                                   {"memory/device GB", true}});
  }
  std::vector<std::vector<std::string>> rows;
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  for (std::size_t i = 0; i < shown; ++i) {
    const RankedPlan& e = report.recommendations[i];
    const ServingEstimate& s = *e.serving;
    std::vector<std::string> row = fleet_cells(i + 1, e, style.wide, i + 1 < shown);
    if (sizing) {
      row.insert(row.end(),
                 {format_general(1 / s.tail.tpot.value, 3), fmt::format("{} {}", s.replica.batch, to_string(s.limit)),
                  format_throughput(s.fleet_output_tokens_per_s), format_usd(s.per_hour)});
    } else if (offline) {
      row.insert(row.end(),
                 {fmt::format("{} {}", s.replica.batch, to_string(s.limit)), format_latency(s.replica.decode_step),
                  format_throughput(s.fleet_output_tokens_per_s), format_duration(e.time), format_usd(*e.cost)});
    } else {
      row.insert(row.end(), {fmt::format("{}/{} {}", s.at_load.batch, s.replica.batch, to_string(s.limit)),
                             format_latency(s.tail.ttft), format_latency(s.tail.tpot),
                             format_throughput(s.fleet_output_tokens_per_s), format_usd(s.per_hour)});
    }
    // The share of each device's memory the replica takes (GB in --wide).
    row.insert(row.end(), {format_usd(s.per_million_output_tokens),
                           style.wide ? memory_cell(e) : format_percent(e.memory.total().value / e.capacity.value)});
    rows.push_back(std::move(row));
  }
  if (!style.wide) {
    // Devices is replicas × TP, the fleet's tokens/s is in --wide and JSON.
    for (const char* dropped : {"devices", sizing ? "memory/device GB" : "tokens/s"}) {
      const auto at =
          std::find_if(columns.begin(), columns.end(), [&](const TableColumn& c) { return c.header == dropped; });
      const auto index = static_cast<std::size_t>(at - columns.begin());
      columns.erase(at);
      for (std::vector<std::string>& row : rows) row.erase(row.begin() + static_cast<std::ptrdiff_t>(index));
    }
    // Too wide for the terminal: the memory share goes first (every ranked replica fits),
    // then the $/M tokens (the $/hour gives the order), then the batch.
    for (TableColumn& column : columns) {
      if (column.header == "batch load/max") column.header = "batch";
      if (column.header == "$/M tokens") column = {"$/M tok", true, 2};
      if (column.header == "memory/device GB") column = {"memory", true, 3};
      if (column.header == "batch") column.drop = 1;
    }
  }
  return rows.empty() ? std::string() : render_table(columns, rows, style) + "\n";
}

// docs/methodology.md#serving: a decode step's figures and the roofline it stays under.
std::string decode_line(const DecodeStep& d, const PlanEstimate& e, const Workload& w) {
  const double bandwidth = *memory_bandwidth_bytes_per_s(*e.plan.device, e.plan.offering);
  return fmt::format(
      "Decode: {} tokens/s per sequence at batch {}, {} for the batch (a step of {}: reads {} GB per device at {} "
      "GB/s × {} bandwidth efficiency{}, {} TFLOP/s × {}{}, {} engine step ({}); {}). The bandwidth roofline is {} "
      "tokens/s per sequence ({} GB/s ÷ {} GB).\n",
      format_general(d.tokens_per_s_per_sequence(), 4), w.batch,
      format_general(d.tokens_per_s_per_sequence() * w.batch, 4), format_latency(d.step), format_gb(d.bytes),
      format_general(bandwidth / 1e9, 4), format_percent(d.bandwidth_efficiency),
      d.weight_kernel_efficiency < 1
          ? fmt::format(" × {} for {} kernels", format_percent(d.weight_kernel_efficiency), to_string(w.weight_format))
          : std::string(),
      format_general(e.peak_flops_per_s / 1e12, 4), format_percent(d.compute_efficiency),
      d.all_reduce.value > 0 ? ", all-reduces " + format_latency(d.all_reduce) : "", format_latency(d.step_overhead),
      to_string(w.engine), d.memory_bound ? "memory-bound" : "compute-bound",
      format_general(bandwidth / d.bytes.value, 4), format_general(bandwidth / 1e9, 4), format_gb(d.bytes));
}

// --explain: the serving formulas with their inputs (docs/methodology.md#serving).
std::string serving_formulas(const PlanEstimate& e, const Workload& w) {
  const ServingEstimate& s = *e.serving;
  const ReplicaEstimate& r = s.replica;
  const ServingLoad& load = *w.serving;
  const Device& device = *e.plan.device;
  const double bandwidth = *memory_bandwidth_bytes_per_s(device, e.plan.offering);
  const double mfu = serving_mfu(w, device, *compute_dtype(device, w));
  const MemoryBreakdown& m = r.memory;
  const double per_sequence = r.batch > 0 ? m.kv_cache.value / r.batch : 0;
  std::string text = "Serving formulas (docs/methodology.md#serving):\n";
  const Bytes resident = m.weights + m.activations + m.overhead;
  text += headroom_of_free(w)
              ? fmt::format(
                    "  usable = capacity − headroom × (capacity − weights − activations − overhead)\n"
                    "         = {} − {} × ({} − {}) GB = {} GB\n",
                    format_gb(e.capacity), format_general(w.memory_headroom), format_gb(e.capacity),
                    format_gb(resident), format_gb(e.usable))
              : fmt::format("  usable = capacity × (1 − headroom) = {} × {} GB = {} GB\n", format_gb(e.capacity),
                            format_general(1 - w.memory_headroom), format_gb(e.usable));
  text += fmt::format(
      "  batch capacity = ⌊(usable − weights − activations − overhead) / KV per sequence at {} (in the engine's "
      "blocks)⌋\n"
      "                 = ⌊({} − {} − {} − {}) GB / {} GB⌋ = {}\n",
      engine_profile(w.engine).reserves_full_context ? "its whole context (prompt + output, reserved on admission)"
                                                     : "its average length (prompt + output/2)",
      format_gb(e.usable), format_gb(m.weights), format_gb(m.activations), format_gb(m.overhead),
      format_general(per_sequence / 1e9, 3), r.batch_capacity);
  // The step's two kinds of kernels each take the longer of their bytes and their FLOPs, and
  // their times add (serving.cpp), so the sum is shown term by term.
  text += fmt::format(
      "  TPOT = linear layers + attention + communication + engine step, the linear layers (the weights) and "
      "attention (the KV cache) each max(bytes read / (bandwidth × efficiency), FLOPs / (peak × MFU)) of its own\n"
      "       = {} + {} + {} + {} = {}\n"
      "    bytes read = weights + batch {} × KV per sequence at the average context {} + {}/2 tokens = {} GB at {} "
      "GB/s × {};\n"
      "    FLOPs = (2 × {} active params × (batch + batch × {}/{} prompt tokens riding along) + attention) / t {} = "
      "{} at {} TFLOP/s × {}\n",
      format_latency(r.linear_layers), format_latency(r.attention), format_latency(r.all_reduce),
      format_latency(r.step_overhead), format_latency(r.decode_step), r.batch, load.prompt_tokens, load.output_tokens,
      format_gb(r.step_bytes), format_general(bandwidth / 1e9, 4), format_percent(w.bandwidth_efficiency),
      format_count(w.parameters.active), load.prompt_tokens, load.output_tokens,
      e.plan.strategy.tensor_parallel * e.plan.strategy.expert_parallel, format_general(r.step_flops, 3),
      format_general(e.peak_flops_per_s / 1e12, 4), format_percent(mfu));
  // The engine step is the engine's own (or --step-overhead), its layers' fixed costs and, for
  // an engine whose host works between steps, its work per sequence (engine.hpp).
  const int layers = w.model.layers + w.model.encoder_layers;
  const Seconds host_per_sequence = sequence_step_cost(w.engine, 1, e.plan.strategy.tensor_parallel);
  text += fmt::format("    engine step = {} ({}) + {} layers × {}{} = {}\n", format_latency(step_overhead(w)),
                      w.step_overhead ? "--step-overhead" : to_string(w.engine), layers,
                      format_latency(engine_profile(w.engine).layer_overhead),
                      host_per_sequence.value > 0 ? fmt::format(" + {} of host work for each sequence in the step",
                                                                format_latency(host_per_sequence))
                                                  : std::string(),
                      format_latency(r.step_overhead));
  const Seconds latency = engine_profile(w.engine).all_reduce_latency;
  if (e.plan.strategy.tensor_parallel > 1) {
    text +=
        fmt::format("    all-reduces = 2 × {} layers × ({} latency + 2(t − 1)/t × tokens × hidden × 2 bytes / link)\n",
                    w.model.layers + w.model.encoder_layers, format_latency(latency));
  }
  if (e.plan.strategy.expert_parallel > 1) {
    text += fmt::format(
        "    all-to-alls = 2 × {} MoE layers × ({} latency + tokens / ep × top-k × hidden × 2 bytes × (ep − 1)/ep / "
        "link)\n",
        moe_layer_count(w.model), format_latency(latency));
  }
  text += fmt::format(
      "  prefill = max(FLOPs / (peak × MFU), weights / (bandwidth × efficiency)) + all-reduces = max({} / ({} "
      "TFLOP/s × {}), …) = {}\n"
      "  TTFT = {} admission + max(prefill, the steps with prompt chunks it takes beside the batch){} = {}\n",
      format_general(r.prefill_flops, 3), format_general(e.peak_flops_per_s / 1e12, 4), format_percent(mfu),
      format_latency(r.prefill), format_latency(Seconds(k_first_token_overhead_s)),
      r.batch > 1 ? (load.batching == Batching::fixed ? " + a cycle / 2" : " + TPOT / 2") : "", format_latency(r.ttft));
  text += fmt::format(
      "  throughput = batch / TPOT = {} / {} = {} output tokens/s per replica = {} requests/s of {} tokens\n"
      "  replicas needed = ⌈rate / (utilisation × requests/s per replica)⌉ = ⌈{} / ({} × {})⌉ = {}\n",
      r.batch, format_latency(r.decode_step), format_general(r.output_tokens_per_s, 4),
      format_general(r.requests_per_s, 4), load.output_tokens, format_general(load.requests_per_s, 4),
      format_general(load.utilisation), format_general(r.requests_per_s, 4), s.replicas_needed);
  if (e.cost) {
    text += fmt::format(
        "  $/hour = units × price = {} × {} = {}; $/M output tokens = $/hour / (rate × output × 3600) × 10^6 = {}\n",
        e.plan.units, format_usd(*e.price_per_unit_hour), format_usd(s.per_hour),
        format_usd(s.per_million_output_tokens));
  }
  return text;
}

std::string serving_lines(const PlanEstimate& e, const ServingLoad& load) {
  const ServingEstimate& s = *e.serving;
  const ReplicaEstimate& r = s.replica;
  if (r.batch_capacity < 1) return "Serving: the weights leave no room for one sequence's KV cache.\n";
  const std::string need = load.offline() ? std::string()
                                          : fmt::format(" (the load needs {} at {} utilisation)", s.replicas_needed,
                                                        format_percent(load.utilisation));
  std::string text = fmt::format(
      "{}: {} replica{} of {} on {} device{}{}, batch {} (bound: {}; the KV memory holds {}).\n",
      load.offline() ? "Offline" : "Serving", s.replicas, s.replicas == 1 ? "" : "s", replica_layout(e.plan.strategy),
      e.plan.device_count, e.plan.device_count == 1 ? "" : "s", need, r.batch, to_string(s.limit), r.batch_capacity);
  if (!load.offline()) {
    text += fmt::format("At the load: {} sequences in flight per replica on average, TTFT {}, TPOT {} (mean step).\n",
                        s.at_load.batch, format_latency(s.at_load.ttft), format_latency(s.at_load.decode_step));
    if (s.tail.percentile != 50 || s.tail.queueing.value > 0) {
      text += fmt::format("At p{}: TTFT {} (waiting {} for admission; prompts take {} of the fleet's room), TPOT {}.\n",
                          s.tail.percentile, format_latency(s.tail.ttft), format_latency(s.tail.queueing),
                          format_percent(s.tail.prefill_utilisation), format_latency(s.tail.tpot));
    }
  }
  text += fmt::format("A single stream (one sequence, no other prompts in its steps): TPOT {}.\n",
                      format_latency(s.single_stream_tpot));
  text += fmt::format("At batch {}: TTFT {} (prefill {}), TPOT {} ({}{}){}.\n", r.batch, format_latency(r.ttft),
                      format_latency(r.prefill), format_latency(r.decode_step),
                      r.memory_bound ? "memory-bound" : "compute-bound",
                      r.all_reduce.value > 0 ? ", all-reduces " + format_latency(r.all_reduce) : "",
                      s.miss ? fmt::format(": MISSES --{}", *s.miss == ServingMiss::tpot ? "tpot" : "ttft") : "");
  if (load.offline()) {
    text += fmt::format("Throughput: {} output tokens/s per replica, {} for the plan.\n",
                        format_throughput(r.output_tokens_per_s), format_throughput(s.fleet_output_tokens_per_s));
    text += fmt::format("Time: {} (setup {}).\n", format_duration(e.time), format_duration(e.setup));
    if (e.cost) {
      text += fmt::format("Cost: {} ({}/unit-hour × {} unit{}), {} per million output tokens.\n", format_usd(*e.cost),
                          format_usd(*e.price_per_unit_hour), e.plan.units, e.plan.units == 1 ? "" : "s",
                          format_usd(s.per_million_output_tokens));
    } else {
      text += "Cost: no price (a device without an offering, or no price of the requested kind).\n";
    }
    return text;
  }
  text += fmt::format(
      "Throughput: {} output tokens/s per replica ({} requests/s), {} for the fleet; the load of {} requests/s is {} "
      "of it.\n",
      format_throughput(r.output_tokens_per_s), format_general(r.requests_per_s, 3),
      format_throughput(s.fleet_output_tokens_per_s), format_general(load.requests_per_s, 4),
      format_percent(s.utilisation));
  if (s.utilisation > 1 + 1e-9) {
    text += fmt::format("The replicas cannot carry the load: it needs {} replicas at {} utilisation.\n",
                        s.replicas_needed, format_percent(load.utilisation));
  } else if (!std::isfinite(s.tail.ttft.value)) {
    text += "Prompts arrive faster than the replicas prefill them: they queue without end.\n";
  }
  if (e.cost) {
    text += fmt::format("Cost: {}/hour ({}/unit-hour × {} unit{}), {} per million output tokens.\n",
                        format_usd(s.per_hour), format_usd(*e.price_per_unit_hour), e.plan.units,
                        e.plan.units == 1 ? "" : "s", format_usd(s.per_million_output_tokens));
  } else {
    text += "Cost: no price (a device without an offering, or no price of the requested kind).\n";
  }
  return text;
}

}  // namespace mlsize::cli
