#pragma once
// FLOPs and wall time. Formulas and citations: docs/methodology.md#compute.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>

namespace mlsize {

// Training FLOPs for `active_params` over `tokens`: 6·N·D (Kaplan et al. 2020, §2.1);
// full recomputation adds a forward pass (8·N·D). Adapter tuning skips the frozen
// weights' gradients: 4·N·D (6·N·D with full recomputation).
Flops training_flops(double active_params, double tokens, Recompute recompute, Task task = Task::pretrain);

// Inference: 2·N_active FLOPs per generated token.
Flops inference_flops(double active_params, double tokens);

// The FLOPs of the whole run: inference_flops for inference, training_flops otherwise.
// `estimate` without a device and the planner both count them here.
Flops run_flops(const Workload& workload, Recompute recompute);

// The datatype whose dense peak bounds the workload on a device: the training precision's,
// or for inference the weight format's compute type (bf16, falling back to fp16).
std::optional<DType> compute_dtype(const Device& device, const Workload& workload);
DType compute_dtype(Precision precision);

// The training precision a practitioner would use on `device` when none is pinned:
// bf16 mixed precision where the device computes bf16; else fp16 mixed precision with
// loss scaling (V100, T4, P100: Micikevicius et al. 2018, "Mixed Precision Training");
// else fp32. `preferred` is kept when the device supports it. Inference and gbdt keep it.
Precision precision_for(const Device& device, const Workload& workload, Precision preferred);

// Dense peak FLOP/s of `device` for the workload, or nothing when the device lacks it.
std::optional<double> peak_flops_per_s(const Device& device, const Workload& workload);

// The physical cores an offering's vCPUs are: vCPUs / its threads_per_core (default
// k_threads_per_core, 2), at least 1; nothing without vCPUs.
std::optional<int> rented_cores(const Offering& offering);

// The share of a CPU device's peak that an offering rents: its physical cores (rented_cores)
// over the cores the device's peak covers, so a 2-vCPU instance gets one
// core's rate and a two-socket one twice a socket's. 1 for accelerators, for a device without
// `cores` and for an offering without `vcpus` (docs/methodology.md#time).
double cpu_core_share(const Device& device, const Offering* offering);

// peak_flops_per_s of the device as `offering` rents it (cpu_core_share).
std::optional<double> peak_flops_per_s(const Device& device, const Workload& workload, const Offering* offering);

// The share of a CPU device's memory bandwidth (a socket's) that an offering rents: its cores'
// share of the socket (cpu_core_share), at most the whole socket. A VM's cores share the
// socket's memory channels with the other tenants', so under contention each gets about its
// cores' fraction; more than one socket is not counted because decoding does not scale across
// NUMA nodes (docs/methodology.md#time). 1 for accelerators and without `cores` or `vcpus`.
double cpu_bandwidth_share(const Device& device, const Offering* offering);

// The device's memory bandwidth in bytes/s as `offering` rents it (cpu_bandwidth_share), or
// nothing when the catalogue has none.
std::optional<double> memory_bandwidth_bytes_per_s(const Device& device, const Offering* offering);

// FLOPs / (devices × peak × utilisation).
Seconds training_seconds(Flops flops, int devices, double peak_flops_per_s_per_device, double mfu);

// Decoding `workload.tokens` tokens with `replicas` copies of the model, each split over
// devices holding `weights` and `kv_cache` per device that every step must read: each step
// is bound by compute or by memory bandwidth, whichever is slower, plus the engine's fixed
// cost (engine.hpp; the weights read at their format's kernel efficiency).
Seconds inference_seconds(const Workload& workload, const Device& device, int devices, int replicas,
                          double peak_flops_per_s_per_device, double mfu, double bandwidth_bytes_per_s, Bytes weights,
                          Bytes kv_cache);

}  // namespace mlsize
