#pragma once
// Training FLOPs and wall time. Formulas and citations: docs/methodology.md#compute.

#include <mlsize/catalog.hpp>
#include <mlsize/units.hpp>
#include <mlsize/workload.hpp>

#include <optional>

namespace mlsize {

// 6·N·D (Kaplan et al. 2020, §2.1); 8·N·D with full recomputation, which repeats the
// forward pass (Korthikanti et al. 2022, §5).
Flops training_flops(double params, double tokens, Recompute recompute);

// The dense datatype whose peak throughput bounds training at this precision.
DType compute_dtype(Precision precision);

// Dense peak FLOP/s of `device` for `precision`, or nothing when the device lacks it.
std::optional<double> peak_flops_per_s(const Device& device, Precision precision);

// FLOPs / (devices × peak × utilisation).
Seconds training_seconds(Flops flops, int devices, double peak_flops_per_s_per_device, double mfu);

}  // namespace mlsize
