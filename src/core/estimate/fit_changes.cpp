#include <mlsize/estimate/fit_changes.hpp>

#include <mlsize/estimate/planner.hpp>
#include <mlsize/support/error.hpp>

#include <algorithm>
#include <optional>

namespace mlsize {
namespace {

// The plan with a change, estimated; nothing when the planner refuses it (an offload
// without a host to check, a precision the device lacks).
std::optional<FitChange> try_change(FitChangeKind kind, const Workload& workload, const Plan& plan,
                                    const CostSettings& cost) {
  try {
    PlanEstimate e = estimate_plan(workload, plan, cost);
    const bool fits = e.fits && e.host_fits.value_or(true);
    return FitChange{kind, std::move(e), fits};
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<FitChange> ways_to_fit(const Workload& workload, const Plan& plan, const CostSettings& cost,
                                   int most_devices) {
  std::vector<FitChange> changes;
  if (plan.device == nullptr || estimate_plan(workload, plan, cost).fits) return changes;
  const auto add = [&](FitChangeKind kind, const Workload& w, const Plan& p) {
    if (auto change = try_change(kind, w, p, cost)) changes.push_back(std::move(*change));
  };
  const Strategy& st = plan.strategy;
  // DeepSpeed runs ZeRO-3 with neither tensor nor pipeline parallelism (launch.md).
  const bool plain_data_parallel = st.tensor_parallel == 1 && st.pipeline_parallel == 1;
  if (workload.is_training()) {
    if (st.recompute != Recompute::full) {
      Plan p = plan;
      p.strategy.recompute = Recompute::full;
      add(FitChangeKind::recompute_full, workload, p);
    }
    if (plan.device_count > 1 && st.zero_stage < 3 && plain_data_parallel) {
      Plan p = plan;
      p.strategy.zero_stage = 3;
      add(FitChangeKind::zero_3, workload, p);
    }
    if (st.offload == Offload::none) {
      Plan p = plan;
      p.strategy.offload = Offload::optimizer;
      if (p.strategy.zero_stage == 0) p.strategy.zero_stage = 1;  // ZeRO-Offload offloads a ZeRO stage's states
      add(FitChangeKind::offload, workload, p);
    }
    // Adapters change a fine-tuning run, not a pre-training one.
    if (workload.task == Task::finetune) {
      Workload w = workload;
      w.task = Task::lora;
      add(FitChangeKind::lora, w, plan);
    }
    if (workload.task == Task::finetune || workload.task == Task::lora) {
      Workload w = workload;
      w.task = Task::qlora;
      add(FitChangeKind::qlora, w, plan);
    }
  } else if (workload.task == Task::inference) {
    for (const auto& [kind, format] : {std::pair{FitChangeKind::int8_weights, WeightFormat::int8},
                                       std::pair{FitChangeKind::int4_weights, WeightFormat::int4}}) {
      if (bits_per_weight(workload.weight_format) <= bits_per_weight(format)) continue;
      Workload w = workload;
      w.weight_format = format;
      add(kind, w, plan);
    }
  }
  // More devices: whole units, doubling, until a plan fits.
  const int per_unit = plan.offering != nullptr ? plan.offering->devices_per_unit : 1;
  const int most_units =
      plan.offering != nullptr && plan.offering->max_units ? *plan.offering->max_units : most_devices;
  for (int units = std::max(plan.units, 1) * 2; units <= most_units && units * per_unit <= most_devices; units *= 2) {
    Plan p = plan;
    p.units = units;
    p.device_count = units * per_unit;
    if (workload.task == Task::inference) {
      if (p.device_count > 8) break;  // tensor parallelism stays within a node
      p.strategy.tensor_parallel = p.device_count;
    } else if (plain_data_parallel) {
      p.strategy.zero_stage = 3;
    } else {
      break;
    }
    std::optional<FitChange> change = try_change(FitChangeKind::more_devices, workload, p, cost);
    if (change && change->fits) {
      changes.push_back(std::move(*change));
      break;
    }
  }
  return changes;
}

}  // namespace mlsize
