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

std::vector<std::pair<FitChangeKind, Workload>> workload_changes(const Workload& workload) {
  std::vector<std::pair<FitChangeKind, Workload>> changes;
  const auto change = [&](FitChangeKind kind) -> Workload& { return changes.emplace_back(kind, workload).second; };
  if (workload.is_training()) {
    // 8-bit Adam (Dettmers et al. 2022, bitsandbytes): the moments in 2 bytes instead of 8;
    // adapters' states are too small to matter.
    const bool adam = workload.optimizer == Optimizer::adam || workload.optimizer == Optimizer::adamw;
    if (adam && !workload.is_adapter_tuning()) change(FitChangeKind::adam_8bit).optimizer = Optimizer::adam_8bit;
    // Adapters change a fine-tuning run, not a pre-training one.
    if (workload.task == Task::finetune) change(FitChangeKind::lora).task = Task::lora;
    if (workload.task == Task::finetune || workload.task == Task::lora) change(FitChangeKind::qlora).task = Task::qlora;
    // A diffusion model's frozen VAE and text encoders stay off the device when their outputs
    // are precomputed (diffusers' --cache_latents, kohya's cache_text_encoder_outputs).
    if (workload.diffusion && !workload.diffusion->cached)
      change(FitChangeKind::cache_latents).diffusion->cached = true;
  } else if (workload.task == Task::inference) {
    // A generator's pipeline options before its weights' width (diffusers' memory guide).
    if (workload.diffusion && !workload.diffusion->vae_slicing && workload.micro_batch > 1) {
      change(FitChangeKind::vae_slicing).diffusion->vae_slicing = true;
    }
    if (workload.diffusion && !workload.diffusion->model_offload) {
      change(FitChangeKind::model_offload).diffusion->model_offload = true;
    }
    for (const auto& [kind, format] : {std::pair{FitChangeKind::int8_weights, WeightFormat::int8},
                                       std::pair{FitChangeKind::int4_weights, WeightFormat::int4}}) {
      if (bits_per_weight(workload.weight_format) <= bits_per_weight(format)) continue;
      change(kind).weight_format = format;
    }
  }
  return changes;
}

std::vector<FitChange> ways_to_fit(const Workload& workload, const Plan& plan, const CostSettings& cost,
                                   int most_devices) {
  std::vector<FitChange> changes;
  if (plan.device == nullptr || estimate_plan(workload, plan, cost).fits) return changes;
  const auto add = [&](FitChangeKind kind, const Workload& w, const Plan& p) {
    if (auto change = try_change(kind, w, p, cost)) changes.push_back(std::move(*change));
  };
  const Strategy& st = plan.strategy;
  // DeepSpeed runs ZeRO-3 and offloading with neither tensor nor pipeline parallelism (launch.md).
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
    if (st.offload == Offload::none && plain_data_parallel) {
      // ZeRO-Offload offloads a ZeRO stage's states: stage 2, as DeepSpeed's tutorial runs it.
      Plan p = plan;
      p.strategy.offload = Offload::optimizer;
      p.strategy.zero_stage = std::max(st.zero_stage, 2);
      add(FitChangeKind::offload, workload, p);
    }
    if (st.offload != Offload::optimizer_and_params && plain_data_parallel && !workload.is_adapter_tuning()) {
      Plan p = plan;
      p.strategy.offload = Offload::optimizer_and_params;
      p.strategy.zero_stage = 3;
      add(FitChangeKind::offload_params, workload, p);
    }
  }
  for (const auto& [kind, changed] : workload_changes(workload)) add(kind, changed, plan);
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

std::optional<PlanEstimate> faster_offload_micro_batch(const Workload& workload, const Plan& plan,
                                                       const CostSettings& cost) {
  const Strategy& st = plan.strategy;
  if (st.offload == Offload::none || workload.micro_batch_pinned || !workload.is_training() || plan.device == nullptr) {
    return std::nullopt;
  }
  const int base = st.micro_batch > 0 ? st.micro_batch : workload.micro_batch;
  PlanEstimator estimator(workload, *plan.device, plan.offering, cost);
  const PlanEstimate at = estimator.estimate(plan);
  std::optional<PlanEstimate> fastest;
  const int data = st.data_parallel(plan.device_count);
  // With the plan's recomputation, and with full recomputation, whose smaller activations
  // admit larger micro-batches (as the search weighs them).
  for (Recompute recompute : {st.recompute, Recompute::full}) {
    if (recompute == Recompute::full && st.recompute == Recompute::full) break;
    for (int factor = 2; factor <= k_largest_offload_micro_batch_factor; factor *= 2) {
      const double tokens = static_cast<double>(data) * base * factor * workload.sequence_length;
      if (tokens > global_batch_tokens(workload, 0)) break;
      Plan larger = plan;
      larger.strategy.micro_batch = base * factor;
      larger.strategy.recompute = recompute;
      if (!estimator.fits(larger)) break;  // memory only grows with the micro-batch
      PlanEstimate e = estimator.estimate(larger);
      if (e.time < (fastest ? fastest->time : at.time)) fastest = std::move(e);
    }
  }
  return fastest;
}

}  // namespace mlsize
