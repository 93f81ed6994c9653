#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/kernels.hpp>

#include <mlsize/estimate/efficiency.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

namespace mlsize {
namespace {

// Sources and arithmetic: docs/methodology.md#serving-engines.
//
// Each layer of a step costs 45 µs beyond its bytes (k_layer_overhead): with the bandwidth
// reached at 0.8 (Workload::bandwidth_efficiency), that reproduces gpt-fast's batch-1 decode
// of Llama-2-7B on 1 and 8 A100s and of Llama-2-70B on 2, 4 and 8 (README: 104.9, 328.43,
// 21.32, 38.01, 62.50 tokens/s) within 3%, and llama.cpp's Llama-3-8B and -70B Q4_K_M on one
// L40S (113.6 and 15.31 tokens/s; XiongjieDai/GPU-Benchmarks-on-LLM-Inference) gives 51 µs.
constexpr Seconds k_layer_overhead{45e-6};
// vLLM from 0.14: asynchronous scheduling is on by default, "overlaps engine core scheduling
// with GPU execution" (v0.14.0 release notes, PR #27614): the scheduler works one step ahead
// of the GPU, as SGLang's overlap scheduler does, so it costs what SGLang's does (0.1 ms,
// below). Its custom all-reduce takes 9.1–11.8 µs on 2–8 H100s for up to 32 KB (sglang PR
// #2904). Block 16 (vllm/config/cache.py DEFAULT_BLOCK_SIZE); max_num_seqs 256 and 8,192
// batched tokens (EngineArgs).
constexpr EngineProfile k_vllm{
    Seconds(0.1e-3), k_layer_overhead, Seconds(10e-6), 16, 256, 8192, "vLLM v0.14.0 release notes (#27614)"};
// vLLM 0.6.0 to 0.13: V0 with asynchronous output processing (0.6.0), then V1 (the default
// from 0.8) with piecewise CUDA graphs and its scheduler in its own process ("near-zero CPU
// overhead", vLLM V1 blog 2025-01-27), but each step scheduled after the last one ends. No
// published per-step figure, so 1 ms, between SGLang's overlapped 0.1 ms and the 4 ms bubble
// of V0 before 0.6 (vLLM RFC #6854); Qwen2.5's vLLM 0.6.3 batch-1 decode (fitting rows v1–v4,
// docs/methodology.md#engine-versions) reads within 18% of it.
constexpr EngineProfile k_vllm_013{
    Seconds(1.0e-3), k_layer_overhead, Seconds(10e-6), 16, 256, 8192, "vLLM V1 blog 2025-01-27; RFC #6854"};
// vLLM before 0.6.0 (V0 without multi-step scheduling or asynchronous output processing):
// "for Llama 3 8B running on 1 H100 GPU: the HTTP API server takes 33% of the total execution
// time. 29% ... is spent on scheduling ... only 38% of the time was spent on the actual GPU
// execution" (vLLM blog 2024-09-05, "vLLM v0.6.0: 2.7x Throughput Improvement"). That host work
// is per sequence (its scheduling, sampled output, detokenisation and streamed response), so it
// grows with the batch; with tensor parallelism the driver also broadcasts each sequence's
// metadata to the other workers every step. The two per-sequence costs, 250 µs and 240 µs more
// with TP, were fitted to LambdaLabsML/vllm-benchmark's v0.5.4 runs of Llama-3.1-8B on 1 H100
// and Llama-3.1-70B on 4 (3,032 and 1,492 output tokens/s, 5,000 ShareGPT prompts at rate inf,
// benchmark_v0.md) and checked on figures they were not fitted to
// (docs/methodology.md#engine-versions). The rest is vLLM's.
constexpr EngineProfile k_vllm_05{Seconds(1.0e-3),
                                  k_layer_overhead,
                                  Seconds(10e-6),
                                  16,
                                  256,
                                  8192,
                                  "vLLM blog 2024-09-05; LambdaLabsML/vllm-benchmark v0.5.4",
                                  false,
                                  false,
                                  false,
                                  Seconds(250e-6),
                                  Seconds(240e-6)};
// SGLang's scheduler runs a prefill batch whenever prompts wait and decodes otherwise: mixing them
// in one batch is --enable-mixed-chunk, off by default (python/sglang/srt/server_args.py,
// `enable_mixed_chunk: bool = False`, "Enabling mixing prefill and decode in a batch when using
// chunked prefill", from v0.3 to the 2026 releases). Both SGLang presets take it.
constexpr EngineProfile prefills_apart(EngineProfile profile) {
  profile.mixes_prefill_and_decode = false;
  return profile;
}
// SGLang's overlap scheduler prepares the next batch while the GPU runs this one: "no single
// idle time on the GPU" (SGLang v0.4 blog, 2024-12-04). Its all-reduce (after TensorRT-LLM's):
// 3.7–7.8 µs on 2–8 H100s (sglang PR #2904). Token-level pages.
constexpr EngineProfile k_sglang = prefills_apart({Seconds(0.1e-3), k_layer_overhead, Seconds(6e-6), 1, 256, 8192,
                                                   "SGLang v0.4 blog; PR #1401; server_args.py enable_mixed_chunk"});
// SGLang before 0.4 scheduled each batch after the last one ended: the overlap "achieves a
// 1.1x speedup against its previous version ... most significant on small models and large
// tensor parallelism sizes" (SGLang v0.4 blog), a fixed cost per step. No published per-step
// figure, so vLLM's of the same kind (vllm-0.13's 1 ms); the rest is SGLang's.
constexpr EngineProfile k_sglang_03 =
    prefills_apart({Seconds(1.0e-3), k_layer_overhead, Seconds(6e-6), 1, 256, 8192,
                    "SGLang v0.4 blog (1.1x from the overlap); server_args.py enable_mixed_chunk"});
// TensorRT-LLM's C++ executor overlaps its scheduler with the GPU (overlap-scheduler docs);
// 0.5 ms. Its custom all-reduce is the one SGLang adopted: 6 µs. tokens_per_block 32
// (KvCacheConfig); max_batch_size 2,048 and max_num_tokens 8,192 (tensorrt_llm/builder.py).
// Its FP8 weights come from TensorRT Model Optimizer, whose FP8 checkpoints quantize the KV
// cache as well (hf_quant_config.json: "quant_algo": "FP8", "kv_cache_quant_algo": "FP8",
// the FP8 example of modelopt's export docs), and the engine's KV dtype follows the
// checkpoint: its performance overview says so of its FP8 runs (perf-overview.md v0.13 to
// v0.17: "FP8 quantization also sets the KV cache to FP8"). docs/methodology.md#saturation.
// Its KV cache takes 0.9 of the GPU memory free once the model is loaded (KvCacheConfig
// free_gpu_memory_fraction = 0.9, LLM API reference; "TensorRT LLM will try to allocate 90% of
// free GPU memory for KV cache", examples/kvcacheconfig), and its default capacity scheduler,
// GUARANTEED_NO_EVICT, admits a request only when its blocks up to the last output token are
// free (docs/source/performance/performance-tuning-guide/useful-runtime-flags.md).
constexpr EngineProfile k_trtllm{Seconds(0.5e-3),
                                 k_layer_overhead,
                                 Seconds(6e-6),
                                 32,
                                 2048,
                                 8192,
                                 "TensorRT-LLM overlap scheduler; BuildConfig; KvCacheConfig",
                                 true,
                                 true,
                                 true};
// TGI: a Python model server behind a Rust router, scheduling between steps; no published
// per-step figure, taken as vLLM's before its asynchronous scheduling (vllm-0.13). Paged like
// vLLM.
constexpr EngineProfile k_tgi{
    Seconds(1.0e-3), k_layer_overhead, Seconds(10e-6), 16, 256, 8192, "as vLLM 0.13 (no published figure)"};
// llama.cpp with CUDA graphs: its layers' costs are the whole of its overhead (51 µs each, above).
// Each slot holds a contiguous cache of its full context; llama-server decodes one sequence
// unless told more ("-np, --parallel N: number of parallel sequences to decode (default: 1)",
// its README; --max-batch sets it). Its GPUs split layers, not tensors; a split is timed as
// NCCL's all-reduce.
constexpr EngineProfile k_llamacpp{
    Seconds(0), k_layer_overhead, Seconds(23e-6), 0, 1, 8192, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference"};
// gpt-fast (torch.compile, CUDA graphs, no scheduler): nothing per step beyond its layers.
// Its all-reduce is NCCL's, 10 µs on NVLink A100s (nccl-tests, NVIDIA/nccl issue #583). Its KV
// cache is static, at the full context. It is a generate script, not a server: one sequence
// unless --max-batch says more.
constexpr EngineProfile k_gptfast{
    Seconds(0), k_layer_overhead, Seconds(10e-6), 0, 1, 8192, "gpt-fast README; PyTorch blog 2023-11-30"};

// Weight-only kernels reach this fraction of 16-bit weights' bandwidth efficiency at small
// batches, after the layers' fixed costs. Int8 weight-only: gpt-fast's Llama-2-7B at 155.58
// tokens/s (README) and torchao's int8wo Llama-3-8B at 153.03 and 198.85 on an A100 and an
// H100 (quantization README) read at 0.82, 0.90 and 0.78 of bf16's 0.8.
constexpr double k_int8_weight_only = 0.82;
// 4-bit with Marlin or TensorRT-LLM's kernels (Ampere and later): TensorRT-LLM's INT4 AWQ
// Llama-3-70B at 47.49 tokens/s on one H100 (TensorRT-Model-Optimizer benchmark.md) reads at
// 0.83 of it; Marlin is "close to ideal (4x) speedups" at small batches (Frantar et al. 2024,
// arXiv:2408.11743). gpt-fast's and torchao's int4 (the tinygemm kernel): Llama-2-7B at 196.80
// tokens/s, Llama-3-8B at 180.80 (A100) and 241.39 (H100) read at 0.58, 0.60, 0.55.
constexpr double k_int4_marlin = 0.8;
constexpr double k_int4_tinygemm = 0.58;
// Without Marlin (Volta, Turing): AWQ's own GEMM at 79 tokens/s where Marlin gives 102
// (SGLang issue #28), 0.77 of it.
constexpr double k_int4_legacy = 0.6;
// bitsandbytes NF4 runs at 0.56–0.75 of fp16's speed on ~3.9× fewer bytes (bitsandbytes
// issues #181, #611): 0.15 of the bandwidth efficiency.
constexpr double k_nf4 = 0.15;
// llama.cpp on an RTX 4090 (XiongjieDai, above; llama.cpp PR #4766): Llama-3-8B Q4_K_M reads at
// 0.82 of F16's rate after the layers' costs, Llama-2-7B Q8_0 at 0.89.
constexpr double k_gguf_8bit = 0.89;
constexpr double k_gguf_low_bit = 0.82;
// llama.cpp reaches 0.8 of the bandwidth of GDDR and LPDDR parts (F16 Llama-3-8B: RTX 4090 88%,
// RTX 3090 80%, M2 Ultra 73%) but half of HBM's (H100 PCIe 56%, A100 SXM 42%; XiongjieDai).
constexpr double k_llamacpp_hbm = 0.5 / 0.8;
// CPUs: llama.cpp on one EPYC 9554 socket reads 56-65% of its DRAM bandwidth (ahelpme.com/?p=6685:
// Phi-4 14B Q4_K_M 8.43 GiB at 28.74 tokens/s, Q8_0 14.51 GiB at 19.19 on 460.8 GB/s).
constexpr double k_cpu_bandwidth = 0.6 / 0.8;
// HBM parts: 1.5 TB/s and more (A100 40GB's 1,555 GB/s is the slowest; GDDR tops at ~1.8 TB/s
// on an RTX 5090, which this counts as HBM too).
constexpr double k_hbm_bytes_per_s = 1.5e12;

// Dequantising in the matrix products costs where a step is compute-bound: Qwen3-8B on vLLM
// 0.9.2 at 1,000 ShareGPT prompts gave 9,756 tokens/s with AWQ against 13,305 in BF16 on an
// H100 (0.73), 8,147 with GPTQ-Marlin and 9,612 with AWQ against 10,338 on an A100 (0.79,
// 0.93) (GPUStack, "The Impact of Quantization on vLLM Inference Performance").
constexpr double k_dequantising_compute = 0.8;

// Marlin and Machete need Ampere or later (kernels.hpp); other GPUs with a bf16 rate (ROCm)
// are taken to have 4-bit kernels as fast.
bool has_marlin(const Device& device) {
  if (device.vendor == "nvidia") return runs_marlin(device);
  return stack_of(device) != Stack::cpu && device.peak(DType::bf16).has_value() && generation_efficiency(device) == 1.0;
}

}  // namespace

const EngineProfile& engine_profile(Engine engine) {
  switch (engine) {
    case Engine::vllm: return k_vllm;
    case Engine::vllm_013: return k_vllm_013;
    case Engine::vllm_05: return k_vllm_05;
    case Engine::sglang: return k_sglang;
    case Engine::sglang_03: return k_sglang_03;
    case Engine::trtllm: return k_trtllm;
    case Engine::tgi: return k_tgi;
    case Engine::llamacpp: return k_llamacpp;
    case Engine::gptfast: return k_gptfast;
  }
  return k_vllm;
}

std::optional<Engine> engine_of_release(std::string_view name) {
  // "<engine>-<major>.<minor>[.patch...]", a "v" before the version allowed.
  const std::size_t dash = name.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view engine = name.substr(0, dash);
  std::string_view version = name.substr(dash + 1);
  if (version.starts_with('v')) version.remove_prefix(1);
  int major = 0;
  int minor = 0;
  const char* const end = version.data() + version.size();
  const auto [after_major, major_error] = std::from_chars(version.data(), end, major);
  if (major_error != std::errc() || after_major == end || *after_major != '.') return std::nullopt;
  const auto [after_minor, minor_error] = std::from_chars(after_major + 1, end, minor);
  if (minor_error != std::errc() || (after_minor != end && *after_minor != '.')) return std::nullopt;
  const auto before = [&](int at_major, int at_minor) {
    return std::pair(major, minor) < std::pair(at_major, at_minor);
  };
  // vLLM: 0.6.0 moved its host work off the GPU's path, 0.14.0 scheduled a step ahead.
  if (engine == "vllm") return before(0, 6) ? Engine::vllm_05 : before(0, 14) ? Engine::vllm_013 : Engine::vllm;
  // SGLang: 0.4 brought the overlap scheduler.
  if (engine == "sglang") return before(0, 4) ? Engine::sglang_03 : Engine::sglang;
  return std::nullopt;
}

bool engine_runs_on(Engine engine, const Device& device) {
  const Stack stack = stack_of(device);
  const bool nvidia = stack == Stack::cuda || stack == Stack::cuda_consumer;
  switch (engine) {
    case Engine::trtllm: return nvidia;
    case Engine::sglang:
    case Engine::sglang_03: return nvidia || stack == Stack::rocm;
    case Engine::llamacpp: return nvidia || stack == Stack::rocm || stack == Stack::mps || stack == Stack::cpu;
    case Engine::gptfast: return nvidia || stack == Stack::rocm || stack == Stack::cpu;
    case Engine::vllm:
    case Engine::vllm_013:
    case Engine::vllm_05:
    case Engine::tgi: return stack != Stack::mps;
  }
  return true;
}

Bytes usable_memory(const Workload& workload, Bytes capacity, const MemoryBreakdown& memory) {
  if (!headroom_of_free(workload)) return capacity * (1 - workload.memory_headroom);
  const Bytes resident = memory.total() - memory.kv_cache;
  return capacity - std::max(Bytes(0), capacity - resident) * workload.memory_headroom;
}

bool headroom_of_free(const Workload& workload) {
  return workload.task == Task::inference && engine_profile(workload.engine).headroom_of_free;
}

Seconds step_overhead(const Workload& workload) {
  return workload.step_overhead.value_or(engine_profile(workload.engine).step_overhead);
}

Seconds sequence_step_cost(Engine engine, double sequences, int tensor_parallel) {
  const EngineProfile& profile = engine_profile(engine);
  const double per_sequence =
      profile.sequence_overhead.value + (tensor_parallel > 1 ? profile.tensor_parallel_sequence_overhead.value : 0.0);
  return Seconds(per_sequence * sequences);
}

Seconds fixed_step_cost(const Workload& workload) {
  const int layers = workload.model.layers + workload.model.encoder_layers;
  return Seconds(step_overhead(workload).value + layers * engine_profile(workload.engine).layer_overhead.value);
}

double engine_bandwidth_factor(Engine engine, const Device& device) {
  if (device.kind == DeviceKind::cpu) return k_cpu_bandwidth;
  const bool hbm = device.memory_bandwidth_bytes_per_s && *device.memory_bandwidth_bytes_per_s >= k_hbm_bytes_per_s;
  return engine == Engine::llamacpp && hbm ? k_llamacpp_hbm : 1.0;
}

double weight_kernel_efficiency(const Workload& workload, const Device& device) {
  switch (workload.weight_format) {
    case WeightFormat::bf16:
    case WeightFormat::fp16:
    case WeightFormat::fp32: return 1.0;
    // FP8 weights on a device with FP8 tensor cores read as fast as 16-bit ones: NIM's
    // Llama-3.3-70B FP8 on 2×H100 decodes at 0.62 of the bandwidth against bf16's 0.65.
    // Elsewhere (A100) they are dequantised in a weight-only kernel, as int8.
    case WeightFormat::fp8: return device.peak(DType::fp8) ? 1.0 : k_int8_weight_only;
    case WeightFormat::int8: return k_int8_weight_only;
    case WeightFormat::int4:
    case WeightFormat::gptq:
    case WeightFormat::awq:
    case WeightFormat::mxfp4:
      if (workload.engine == Engine::gptfast) return k_int4_tinygemm;
      return has_marlin(device) ? k_int4_marlin : k_int4_legacy;
    case WeightFormat::nf4: return k_nf4;
    case WeightFormat::q8_0: return k_gguf_8bit;
    case WeightFormat::q6_k:
    case WeightFormat::q5_k_m:
    case WeightFormat::q4_k_m:
    case WeightFormat::q4_0:
    case WeightFormat::q3_k_m:
    case WeightFormat::q2_k: return k_gguf_low_bit;
  }
  return 1.0;
}

double weight_only_compute_efficiency(WeightFormat format, const Device& device) {
  switch (format) {
    case WeightFormat::bf16:
    case WeightFormat::fp16:
    case WeightFormat::fp32: return 1.0;
    case WeightFormat::fp8: return device.peak(DType::fp8) ? 1.0 : k_dequantising_compute;
    default: return k_dequantising_compute;
  }
}

}  // namespace mlsize
