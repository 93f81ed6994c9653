#pragma once
// Memory per device for training a dense decoder-only transformer.
// Formulas and citations: docs/methodology.md#memory.

#include <mlsize/architecture.hpp>
#include <mlsize/units.hpp>
#include <mlsize/workload.hpp>

namespace mlsize {

struct MemoryBreakdown {
  Bytes weights;
  Bytes gradients;
  Bytes optimizer;
  Bytes activations;
  Bytes overhead;

  Bytes total() const { return weights + gradients + optimizer + activations + overhead; }
};

// Bytes per parameter of each model state before any ZeRO sharding (ZeRO paper §3.1).
struct StateBytesPerParam {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;  // includes the fp32 master copy under mixed precision
};

// CUDA context, library workspaces and communication buffers, per device.
inline constexpr Bytes k_framework_overhead{2.0 * k_gibi};

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer);

// Activation memory of one micro-batch held across the whole forward/backward pass
// (Korthikanti et al. 2022, Table 2 and §4.3), 16-bit activations, no tensor parallelism.
Bytes activation_bytes(const Architecture& shape, int sequence_length, int micro_batch, Recompute recompute);

// Memory per device with ZeRO stage `zero_stage` (0 = plain data parallel) across
// `data_parallel` devices.
MemoryBreakdown training_memory(const Workload& workload, const Architecture& shape, int data_parallel,
                                int zero_stage, Recompute recompute);

}  // namespace mlsize
