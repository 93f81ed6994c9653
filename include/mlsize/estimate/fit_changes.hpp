#pragma once
// What makes a plan that does not fit in memory fit: the single changes a practitioner
// tries first, each estimated in full (docs/methodology.md#ways-to-fit).

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <vector>

namespace mlsize {

enum class FitChangeKind {
  recompute_full,  // recompute every layer's activations in the backward pass
  zero_3,          // shard weights, gradients and optimizer states over the data-parallel ranks
  offload,         // keep the optimizer states (and the fp32 master weights) in host RAM
  lora,            // fine-tune low-rank adapters on frozen weights
  qlora,           // the same on 4-bit weights
  int8_weights,    // inference: 8-bit weights
  int4_weights,    // inference: 4-bit weights
  more_devices,    // training with ZeRO-3, inference with tensor parallelism, over more devices
};
constexpr auto enum_names(FitChangeKind) {
  using enum FitChangeKind;
  return std::to_array<EnumName<FitChangeKind>>({{recompute_full, "recompute-full"},
                                                 {zero_3, "zero-3"},
                                                 {offload, "offload"},
                                                 {lora, "lora"},
                                                 {qlora, "qlora"},
                                                 {int8_weights, "int8-weights"},
                                                 {int4_weights, "int4-weights"},
                                                 {more_devices, "more-devices"}});
}

struct FitChange {
  FitChangeKind kind = FitChangeKind::recompute_full;
  PlanEstimate estimate;  // the plan with the change; more_devices: its device count
  bool fits = false;      // in device memory, and in host RAM what it offloads
};

// For a plan with a device that does not fit: each change that applies to it, estimated,
// in the order above; more devices is the fewest (whole units, at most `most_devices`) that
// fit, when some count does. Empty when the plan fits.
std::vector<FitChange> ways_to_fit(const Workload& workload, const Plan& plan, const CostSettings& cost,
                                   int most_devices);

}  // namespace mlsize
