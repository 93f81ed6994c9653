#pragma once
// What a serving engine adds to the roofline of a decode step and how it holds the KV cache,
// and how close a weight format's kernels come to the memory bandwidth
// (docs/methodology.md#serving-engines).

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>
#include <string_view>

namespace mlsize {

struct EngineProfile {
  // Host work per step that the device waits through: scheduling, sampling, detokenisation.
  // Added to every decode and prefill step.
  Seconds step_overhead;
  // The fixed cost of each layer of a step beyond its bytes and FLOPs: the boundaries of its
  // dozen kernels (norms, rotary, attention, the GEMVs' tails).
  Seconds layer_overhead;
  // One all-reduce of a decode step's few kilobytes across tensor-parallel ranks: its
  // latency, not its bytes. Engines bring their own kernels for it.
  Seconds all_reduce_latency;
  // The paged KV cache's block in tokens: a sequence holds its current length rounded up to
  // it. 0: one contiguous cache per sequence at its full context (llama.cpp's slots).
  int kv_block_tokens = 16;
  // The engine's defaults for the most sequences in a step and tokens per step, which
  // --max-batch and --max-step-tokens override.
  int max_batch = 256;
  int max_step_tokens = 8192;
  std::string_view source;
  // FP8 weights come with an FP8 KV cache unless --kv-cache-dtype says otherwise: the
  // engine's FP8 checkpoints quantize the keys and values too, and its KV dtype "auto"
  // follows the checkpoint.
  bool fp8_weights_cache_fp8 = false;
  // The KV cache takes its share of the memory the model leaves free, not of the whole:
  // --memory-headroom is then kept free of what is left after the weights, activations and
  // overhead (TensorRT-LLM's free_gpu_memory_fraction), not of the capacity (vLLM's
  // gpu_memory_utilization).
  bool headroom_of_free = false;
  // A request is admitted only when the blocks for its whole context, prompt and every
  // output token, can be set aside (TensorRT-LLM's GUARANTEED_NO_EVICT), not its current
  // length as vLLM's pages grow.
  bool reserves_full_context = false;
  // Host work per sequence of a step that the GPU waits through: an engine whose scheduler,
  // output processing, detokenisation and streaming run in the GPU's process between steps
  // (vLLM before 0.6.0) pays it for every sequence in flight; the others overlap it.
  Seconds sequence_overhead{0};
  // What each sequence adds when the step's inputs are sent to other tensor-parallel
  // workers (vLLM V0 broadcasts each sequence's metadata from its driver every step).
  Seconds tensor_parallel_sequence_overhead{0};
  // Prompt chunks ride in the decode steps, in the tokens the decodes leave (continuous
  // batching with chunked prefill: vLLM, TensorRT-LLM's in-flight batching). An engine that
  // does not mix them (SGLang: --enable-mixed-chunk is off by default) runs each prefill as a
  // step of its own, which every decoding sequence waits through.
  bool mixes_prefill_and_decode = true;
};

const EngineProfile& engine_profile(Engine engine);

// The preset of a release named as "vllm-0.8", "vllm-0.6.3" or "sglang-v0.3.0" (the engines
// whose presets split by version: docs/methodology.md#engine-versions), the one place that
// says which releases each preset covers; none for other text.
std::optional<Engine> engine_of_release(std::string_view name);

// What a plan may fill of a device's `capacity` holding `memory`: the capacity less
// --memory-headroom's share of it, or, under an engine that sizes its KV cache from the memory
// the model leaves (headroom_of_free), less that share of what is left.
Bytes usable_memory(const Workload& workload, Bytes capacity, const MemoryBreakdown& memory);

// Whether --memory-headroom is a share of what the model leaves free rather than of the
// capacity: serving under an engine with headroom_of_free.
bool headroom_of_free(const Workload& workload);

// Whether the engine runs on the device's stack: TensorRT-LLM on NVIDIA GPUs; SGLang on NVIDIA
// and AMD; llama.cpp on CUDA, ROCm, Metal and CPUs; vLLM on all but Apple GPUs (its TPU,
// Neuron, Gaudi and CPU backends); TGI on all but Apple GPUs; gpt-fast on CUDA, ROCm and CPUs.
bool engine_runs_on(Engine engine, const Device& device);

// --step-overhead when given, else the engine's.
Seconds step_overhead(const Workload& workload);

// What every step costs beyond its bytes, FLOPs and communication: the engine's step
// overhead and its layers' fixed costs.
Seconds fixed_step_cost(const Workload& workload);
// The host work of a step of `sequences` on a replica split `tensor_parallel` ways that the
// GPU waits through (EngineProfile::sequence_overhead): 0 for engines that overlap it.
Seconds sequence_step_cost(Engine engine, double sequences, int tensor_parallel);

// The fraction of the bandwidth roofline a weight format's decode kernels reach, relative
// to 16-bit weights (whose reach is Workload::bandwidth_efficiency): dequantising costs
// instructions, and low-bit kernels are younger. It depends on the engine (gpt-fast's 4-bit
// kernel is not Marlin) and the device: Marlin's kernels need Ampere or later, FP8 weights
// are dequantised where the device computes no FP8.
double weight_kernel_efficiency(const Workload& workload, const Device& device);

// The engine's reach of the bandwidth relative to Workload::bandwidth_efficiency on a device:
// 1, but 0.75 on CPUs and, for llama.cpp, 0.625 on HBM (its kernels keep too few bytes in
// flight for it).
double engine_bandwidth_factor(Engine engine, const Device& device);

// The fraction of the compute-bound rate left where weights are dequantised in the matrix
// products (weight-only formats at large batches): 1 for 16-bit weights and native FP8.
double weight_only_compute_efficiency(WeightFormat format, const Device& device);

}  // namespace mlsize
