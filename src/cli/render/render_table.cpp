#include "cli/render/format.hpp"
#include "cli/render/renderers.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace mlsize::cli {
namespace {

std::string workload_line(const Workload& workload) {
  if (workload.task == Task::gbdt) {
    const double rows = gbdt_rows(workload);
    return fmt::format(
        "Workload: gradient-boosted trees (XGBoost, LightGBM; histogram method) on {} GB of data: {} rows × {} "
        "features, {} rounds of depth {}; working set 2 × data.\n",
        format_gb(workload.dataset_bytes.value_or(Bytes(rows * workload.features * k_gbdt_bytes_per_value))),
        format_count(rows), format_count(workload.features), workload.rounds, workload.max_depth);
  }
  const Architecture& m = workload.model;
  std::string params = format_count(workload.parameters.total) + " parameters";
  if (workload.parameters.active < workload.parameters.total) {
    params += " (" + format_count(workload.parameters.active) + " active)";
  }
  const bool estimated_shape = m.name == k_estimated_model_name;
  std::string model = estimated_shape ? "" : m.name + ", ";
  std::string text;
  if (workload.task == Task::inference) {
    text = fmt::format(
        "Workload: {}{}, inference with {} weights ({} bits), {} KV cache; context {}, batch {}; "
        "{} tokens to generate.\n",
        model, params, to_string(workload.weight_format), format_general(bits_per_weight(workload.weight_format)),
        to_string(workload.kv_format), workload.context, workload.batch, format_count(workload.tokens));
  } else {
    std::string data;
    if (workload.dataset_bytes) {
      data = fmt::format(" ({} GB at {} bytes/token", format_gb(*workload.dataset_bytes),
                         format_general(workload.bytes_per_token));
      data += workload.epochs == 1.0 ? ")" : fmt::format(", {} epochs)", format_general(workload.epochs));
    } else if (workload.epochs != 1.0) {
      data = fmt::format(" ({} epochs)", format_general(workload.epochs));
    }
    std::string task(to_string(workload.task));
    if (workload.is_adapter_tuning()) {
      task += fmt::format(" (rank {}, {} trainable)", workload.lora_rank,
                          format_count(lora_parameters(m, workload.lora_rank, workload.lora_targets)));
    }
    const std::string tokens = workload.tokens > 0 ? format_count(workload.tokens) + " tokens" + data : "no data given";
    text = fmt::format("Workload: {}{}, {}, {} {}, {}.\n", model, params, tokens, task, to_string(workload.precision),
                       to_string(workload.optimizer));
  }
  // A shape guessed from --params says which released model it follows.
  text += fmt::format("Model shape{}: {} layers, hidden {}, {} heads ({} KV), {} attention{}",
                      estimated_shape ? " (" + m.source + ")" : "", m.layers + m.encoder_layers, m.hidden, m.heads,
                      m.kv_heads, to_string(workload.attention), m.mla ? " (MLA)" : "");
  if (workload.is_training()) {
    text += fmt::format("; sequence {}, micro-batch {}", workload.sequence_length, workload.micro_batch);
    if (workload.framework == Framework::hf) text += "; framework hf (autocast, fp32 weights)";
  }
  return text + fmt::format("; MFU {}.\n", format_percent(workload.mfu));
}

std::string memory_cell(const PlanEstimate& e) {
  return fmt::format("{} / {}", format_gb(e.memory.total()), format_gb(e.capacity));
}

std::string hardware_cell(const Plan& plan) {
  std::string text = plan.device->name;
  if (plan.offering != nullptr) {
    text += fmt::format(" · {} {}", plan.offering->provider, plan.offering->name);
    if (plan.units > 1) text += fmt::format(" x{}", plan.units);
  }
  return text;
}

std::string rejected_summary(const Report& report) {
  if (report.rejected.empty()) return {};
  std::map<RejectionReason, std::vector<std::string>> by_reason;
  for (const Rejection& rejection : report.rejected) by_reason[rejection.reason].push_back(rejection.offering->id);
  std::string text = fmt::format("Rejected {} offerings:", report.rejected.size());
  for (const auto& [reason, ids] : by_reason) {
    text += fmt::format(" {} {}", ids.size(), to_string(reason));
    text += fmt::format(" (e.g. {})", ids.front());
    text += ";";
  }
  text.back() = '.';
  return text + " Reasons per offering: --format json.\n";
}

}  // namespace

std::string summary_sentence(const Report& report) {
  if (report.recommendations.empty()) {
    // The fastest plan that fits, and the time limit it is over.
    const auto over = [&](Seconds limit, std::string_view what) {
      const PlanEstimate& fastest = *report.fastest_fitting;
      return fmt::format("No plan meets the constraints. The fastest plan that fits is {} with {}: {}, over the {} {}.",
                         describe_hardware(fastest.plan),
                         describe_strategy(fastest.plan.strategy, fastest.plan.device_count, report.workload.task),
                         format_duration(fastest.time), format_duration(limit), what);
    };
    if (report.fastest_fitting && report.workload.deadline) return over(*report.workload.deadline, "deadline");
    if (report.fastest_fitting && report.run_time_limit && report.fastest_fitting->time > *report.run_time_limit) {
      return over(*report.run_time_limit, "run-time limit (--max-run-time allows longer runs)");
    }
    if (!report.fastest_fitting) return "No plan fits in memory on any offering of the catalogue.";
    return "No plan meets the constraints.";
  }
  const RankedPlan& best = report.recommendations.front();
  // Rules scale the objective: a preferred plan can rank first without being the cheapest
  // or the fastest. Say so, rather than claim what is not true.
  const auto beats = [&](auto figure) {
    return std::all_of(report.recommendations.begin(), report.recommendations.end(),
                       [&](const RankedPlan& other) { return figure(best) <= figure(other); });
  };
  const bool cheapest = beats([](const RankedPlan& e) { return e.cost->value; });
  const bool fastest = beats([](const RankedPlan& e) { return e.time.value; });
  std::string role;
  switch (report.objective) {
    case Objective::cost: role = cheapest ? "the cheapest plan that fits" : "first by cost after the rules"; break;
    case Objective::time: role = fastest ? "the fastest plan that fits" : "first by time after the rules"; break;
    case Objective::balanced: role = "the best balance of cost and time"; break;
  }
  std::string text = fmt::format("{} is {}: {} over {}", describe_hardware(best.plan), role, format_usd(*best.cost),
                                 format_duration(best.time));
  const Offering* offering = best.plan.offering;
  if (best.purchase) {
    // An amortised share can sit far below the cheque a purchase needs: say both.
    text += fmt::format(" (to buy: the run's amortised share of a {} purchase)", format_usd(*best.purchase));
  } else if (offering != nullptr && offering->kind == OfferingKind::on_prem) {
    text += " (owned: its electricity)";
  }
  if (report.recommendations.size() > 1) {
    const PlanEstimate& next = report.recommendations[1];
    // A ratio that rounds to 1.0 says nothing: below 5% apart, #2's figures say more.
    constexpr double k_telling_ratio = 1.05;
    if (report.objective == Objective::time && fastest && next.time / best.time >= k_telling_ratio) {
      text += fmt::format(", {}× faster than #2", format_fixed(next.time / best.time, 1));
    } else if (report.objective == Objective::cost && cheapest && best.cost->value > 0 &&
               *next.cost / *best.cost >= k_telling_ratio) {
      text += fmt::format(", {}× cheaper than #2", format_fixed(*next.cost / *best.cost, 1));
    } else {
      // The knee, or a plan the rules lifted: neither claim need hold, so give #2's figures.
      text += fmt::format("; #2 costs {} over {}", format_usd(*next.cost), format_duration(next.time));
    }
  }
  return text + fmt::format(" ({} of {} offerings have a plan that meets the constraints).",
                            report.recommendations.size(), report.recommendations.size() + report.rejected.size());
}

std::string render_recommend_table(const Report& report, int top) {
  std::string text = workload_line(report.workload) + "\n";
  const std::vector<TableColumn> columns{{"rank", true},      {"hardware", false},        {"devices", true},
                                         {"strategy", false}, {"memory/device GB", true}, {"time", true},
                                         {"cost USD", true}};
  std::vector<std::vector<std::string>> rows;
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  bool pareto_shown = false;
  for (std::size_t i = 0; i < shown; ++i) {
    const RankedPlan& e = report.recommendations[i];
    pareto_shown = pareto_shown || e.pareto;
    // A device without the workload's precision trains at its best one: say which.
    std::string strategy = describe_strategy(e.plan.strategy, e.plan.device_count, report.workload.task);
    if (e.precision != report.workload.precision) strategy += fmt::format(", {}", to_string(e.precision));
    rows.push_back({std::to_string(i + 1) + (e.pareto ? "*" : ""), hardware_cell(e.plan),
                    std::to_string(e.plan.device_count), strategy, memory_cell(e), format_duration(e.time),
                    format_usd(*e.cost)});
  }
  if (!rows.empty()) text += render_text_table(columns, rows) + "\n";
  text += summary_sentence(report) + "\n";
  text += fmt::format(
      "Ranked by {} (--optimize). GB = 10^9 bytes; memory is per device against its capacity, of which {} is kept "
      "free (--memory-headroom).\n",
      to_string(report.objective), format_percent(report.workload.memory_headroom));
  if (pareto_shown) text += "* on the time-cost Pareto front: no other recommendation is both cheaper and faster.\n";
  text += rejected_summary(report);
  if (!report.advice.empty()) {
    text += "\nRules that shaped this ranking, and advice (--format json for sources):\n";
    for (const RuleMessage& note : report.advice) {
      text += fmt::format("  [{}] {}{}\n", note.rule->id, note.rule->severity == Severity::warn ? "warning: " : "",
                          note.message);
    }
  }
  return text;
}

std::string render_estimate_table(const EstimateResult& result) {
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
  if (has_device) rows.push_back({"capacity", format_gb(e.capacity)});
  if (st.offload != Offload::none) rows.push_back({"host RAM (offloaded)", format_gb(m.host)});
  text += render_text_table(columns, rows) + "\n";
  if (!result.explanation.empty()) {
    std::vector<std::vector<std::string>> explained;
    for (const ExplainedTerm& term : result.explanation) {
      explained.push_back({term.term, format_gb(term.value), term.formula, term.inputs});
    }
    text += render_text_table({{"term", false}, {"GB", true}, {"formula", false}, {"inputs", false}}, explained) + "\n";
  }
  if (!has_device) {
    text += fmt::format("Compute: {} FLOPs.\nGB = 10^9 bytes.\n", format_general(e.flops.value, 3));
    return text;
  }
  text += fmt::format("Memory: {} ({} of capacity, {} kept free).\n", e.fits ? "fits" : "DOES NOT FIT",
                      format_percent(m.total() / e.capacity), format_percent(result.workload.memory_headroom));
  if (e.host_fits) {
    text += fmt::format("Host RAM: {} GB per unit for the offloaded states: {}.\n",
                        format_gb(m.host * std::min(e.plan.device_count, e.plan.offering->devices_per_unit)),
                        *e.host_fits ? "fits" : "DOES NOT FIT");
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
    text += fmt::format("Compute: {} FLOPs at {} TFLOP/s per device × {} devices × {} MFU.\n",
                        format_general(e.flops.value, 3), format_general(e.peak_flops_per_s / 1e12, 4),
                        e.plan.device_count, format_percent(result.workload.mfu));
  }
  text += fmt::format("Time: {}", format_duration(e.time));
  const Communication& c = e.communication;
  if (c.bandwidth_bytes_per_s > 0 || c.exposed().value > 0) {
    text += fmt::format(" (compute {}", format_duration(e.compute_time));
    if (c.bandwidth_bytes_per_s > 0) {
      text += fmt::format(", data-parallel communication not hidden {}: {} GB per device per step at {} GB/s{}",
                          format_duration(c.data_parallel), format_gb(Bytes(c.bytes_per_step)),
                          format_gb(Bytes(c.bandwidth_bytes_per_s)),
                          c.network_assumed ? fmt::format(", network assumed {} Gbit/s", k_assumed_network_gbps) : "");
    }
    if (c.tensor_parallel.value > 0) {
      text += fmt::format(", tensor-parallel collectives {} ({} GB per device per step)",
                          format_duration(c.tensor_parallel), format_gb(Bytes(c.tensor_bytes_per_step)));
    }
    if (c.pipeline.value > 0) text += fmt::format(", pipeline bubble and sends {}", format_duration(c.pipeline));
    text += fmt::format(", {} step{})", format_count(std::ceil(c.steps)), std::ceil(c.steps) == 1 ? "" : "s");
  }
  if (result.meets_deadline) text += *result.meets_deadline ? " (meets the deadline)" : " (MISSES the deadline)";
  text += ".\n";
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

}  // namespace mlsize::cli
