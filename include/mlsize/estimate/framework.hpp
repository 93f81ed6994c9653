#pragma once
// What a named training framework (--framework) runs: the devices its runtime starts on and
// the layouts it trains with (docs/methodology.md#frameworks). Unnamed, the search is
// Megatron-LM's, every layout on every device, and rules weigh the porting a fine-tune takes.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>

#include <string>

namespace mlsize {

// Whether `framework` trains on `device`'s software stack: Megatron-LM on CUDA and ROCm;
// the HF Trainer and accelerate there and on Gaudi, Apple GPUs and CPUs; DeepSpeed on CUDA,
// ROCm, Gaudi and CPUs; JAX on TPUs, CUDA, ROCm and CPUs; NeuronX Distributed on Trainium.
bool framework_runs_on(Framework framework, const Device& device);

// The stacks `framework` runs on, for the rejection: "CUDA, ROCm".
std::string framework_devices_text(Framework framework);

// Whether `framework` trains with `strategy`: hf, data parallelism with ZeRO or FSDP; DeepSpeed,
// no tensor parallelism inside a pipeline, a pipeline with ZeRO 0-1 and no offload, AutoTP with
// ZeRO 0-2; Megatron-LM, tensor or pipeline parallelism with its distributed optimizer (ZeRO-1)
// and no offload; JAX (MaxText's mesh), replicated or fully sharded (ZeRO 0 or 3), no offload;
// NeuronX Distributed, ZeRO 0-1 and no offload.
bool framework_runs(Framework framework, const Strategy& strategy);

}  // namespace mlsize
