#pragma once
// What makes a plan that does not fit in memory fit: the single changes a practitioner
// tries first, each estimated in full (docs/methodology.md#ways-to-fit). recommend searches
// again with the same changes to the request when it ranks nothing (ways_out.hpp).

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace mlsize {

enum class FitChangeKind {
  recompute_full,  // recompute every layer's activations in the backward pass
  zero_3,          // shard weights, gradients and optimizer states over the data-parallel ranks
  offload,         // keep the optimizer states (and the fp32 master weights) in host RAM
  offload_params,  // ZeRO-Infinity: the parameters too, under ZeRO-3
  adam_8bit,       // 8-bit Adam (bitsandbytes): 2 bytes of moments per parameter instead of 8
  lora,            // fine-tune low-rank adapters on frozen weights
  qlora,           // the same on 4-bit weights
  cache_latents,   // diffusion: train on precomputed latents and text embeddings (no VAE or text encoder loaded)
  vae_slicing,     // diffusion generation: decode one image at a time
  model_offload,   // diffusion generation: the text encoders off the GPU at the peak
  int8_weights,    // inference: 8-bit weights
  int4_weights,    // inference: 4-bit weights
  more_devices,    // training with ZeRO-3, inference with tensor parallelism, over more devices
  // recommend only (ways_out.hpp), for a plan that fits but misses a constraint:
  budget,    // without the budget: the cheapest plan that meets the others
  deadline,  // without the deadline: the fastest plan that meets the others
};
constexpr auto enum_names(FitChangeKind) {
  using enum FitChangeKind;
  return std::to_array<EnumName<FitChangeKind>>({{recompute_full, "recompute-full"},
                                                 {zero_3, "zero-3"},
                                                 {offload, "offload"},
                                                 {offload_params, "offload-params"},
                                                 {adam_8bit, "adam-8bit"},
                                                 {lora, "lora"},
                                                 {qlora, "qlora"},
                                                 {cache_latents, "cache-latents"},
                                                 {vae_slicing, "vae-slicing"},
                                                 {model_offload, "model-cpu-offload"},
                                                 {int8_weights, "int8-weights"},
                                                 {int4_weights, "int4-weights"},
                                                 {more_devices, "more-devices"},
                                                 {budget, "budget"},
                                                 {deadline, "deadline"}});
}

struct FitChange {
  FitChangeKind kind = FitChangeKind::recompute_full;
  PlanEstimate estimate;  // the plan with the change; more_devices: its device count
  bool fits = false;      // in device memory, and in host RAM what it offloads
};

// The changes to the request itself that may make a run fit, each with the workload it
// gives: 8-bit Adam, LoRA for a full fine-tune, QLoRA for LoRA or a full fine-tune, cached
// latents for a diffusion model's training; 8- and
// 4-bit weights for inference. One list for estimate (ways_to_fit) and recommend (ways_out).
std::vector<std::pair<FitChangeKind, Workload>> workload_changes(const Workload& workload);

// For a plan with a device that does not fit: each change that applies to it, estimated,
// in the order above; more devices is the fewest (whole units, at most `most_devices`) that
// fit, when some count does. Empty when the plan fits.
std::vector<FitChange> ways_to_fit(const Workload& workload, const Plan& plan, const CostSettings& cost,
                                   int most_devices);

// For a plan that offloads at the workload's micro-batch (--micro-batch not given): the
// fastest larger one (2, 4, ... 128 ×, a micro-step of every replica within the global
// batch) that still fits, with the plan's recomputation or full recomputation, when it is
// faster. Each micro-step sends the gradients over PCIe,
// so fewer, larger ones amortise them, as recommend's search finds
// (docs/methodology.md#offload-in-the-search).
std::optional<PlanEstimate> faster_offload_micro_batch(const Workload& workload, const Plan& plan,
                                                       const CostSettings& cost);

}  // namespace mlsize
