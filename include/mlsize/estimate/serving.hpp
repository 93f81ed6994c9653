#pragma once
// Serving a load (docs/methodology.md#serving): replicas of t tensor-parallel devices, each
// running continuous batching. Prefill is compute-bound, decode reads the weights and the
// KV cache every step; the batch is what the KV memory holds, the latency targets allow
// and the engine admits; the replicas are what the load needs.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>
#include <mlsize/support/units.hpp>

#include <array>
#include <optional>

namespace mlsize {

// What a request waits before its prefill beyond the step's cost: tokenisation, admission,
// the prefill's launch. TensorRT-LLM v0.9's first token for a 128-token prompt at batch 1 took
// 6.3 ms for LLaMA-7B in FP8 on an H100 (perf-overview.md, "Low Latency"), 2 ms above its
// prefill step: the leanest engine's.
inline constexpr double k_first_token_overhead_s = 2e-3;
// Prefill and compute-bound decode reach this fraction of the dense peak in a serving
// engine unless --mfu says otherwise: TensorRT-LLM's batch-1 first token for 2,048-token
// prompts is 61–69% of the A100's 16-bit peak and 40–46% of the H100's FP8 peak
// (docs/methodology.md#serving).
inline constexpr double k_serving_mfu_16bit = 0.6;
inline constexpr double k_serving_mfu_fp8 = 0.43;

// The fraction of the dense peak inference computes at: --mfu when given, else the
// serving engine's for the compute type.
double serving_mfu(const Workload& workload, DType compute_dtype);
// serving_mfu on `device`: a CPU's GEMMs reach less of their peak (cpu_gemm_efficiency).
double serving_mfu(const Workload& workload, const Device& device, DType compute_dtype);

// What bounded a replica's batch.
enum class BatchLimit {
  kv_memory,  // the KV cache of more sequences does not fit beside the weights
  max_batch,  // the engine admits no more sequences (--max-batch)
  tpot,       // a larger batch would decode slower than --tpot
  ttft,       // a larger batch would delay the first token past --ttft
  // A larger batch leaves a step too little room (--max-step-tokens) for the prompts of the
  // sequences that replace finished ones: they queue, and the replica gives less.
  step_tokens,
};
constexpr auto enum_names(BatchLimit) {
  using enum BatchLimit;
  return std::to_array<EnumName<BatchLimit>>({{kv_memory, "kv_memory"},
                                              {max_batch, "max_batch"},
                                              {tpot, "tpot"},
                                              {ttft, "ttft"},
                                              {step_tokens, "step_tokens"}});
}

// Why a replica cannot serve: a target its smallest batch misses.
enum class ServingMiss { tpot, ttft };

// One replica: t devices of one unit, and how fast it decodes and prefills. A mixture of
// experts may instead split its experts over `expert_parallel` devices, each holding the
// attention and shared weights whole and running its own share of the sequences (attention
// data parallelism, as SGLang and TensorRT-LLM serve DeepSeek-V3).
struct Replica {
  const Device* device = nullptr;
  int tensor_parallel = 1;
  int expert_parallel = 1;  // > 1: experts split, attention data-parallel; tensor_parallel is 1
  int devices() const { return tensor_parallel * expert_parallel; }
  DType compute_dtype = DType::bf16;  // the weights' compute type
  double peak_flops_per_s = 0;        // per device, at that type
  double bandwidth_bytes_per_s = 0;   // per device
  double link_bytes_per_s = 0;        // collective bus bandwidth within the unit; 0 on one device
  Bytes capacity;                     // per device
};

// A replica at one batch: its memory per device and its speed.
struct ReplicaEstimate {
  int batch = 0;           // sequences decoded together (over all devices of the replica)
  int batch_capacity = 0;  // sequences the KV memory holds at their current length (0: the weights do not fit)
  // Sequences the KV memory holds at their full context, what engines report at start
  // ("Maximum concurrency for N tokens per request", vLLM).
  int full_context_capacity = 0;
  MemoryBreakdown memory;     // per device, at `batch` sequences of their average length
  Seconds decode_step;        // TPOT: one token for each sequence of the batch
  Seconds prefill;            // one prompt alone
  Seconds ttft;               // the prompt's prefill, after half a decode step when busy (no queueing)
  bool memory_bound = false;  // the decode step reads more than it computes
  Seconds all_reduce;         // of the decode step: tensor parallelism's all-reduces, experts' all-to-alls
  Seconds step_overhead;      // the engine's fixed cost in each step, its layers' and host work's included
  // The decode step's two kinds of kernels, each bound by its own bytes or FLOPs: the linear
  // layers (the weights and their GEMMs) and attention (the KV cache and its dot products).
  // decode_step = linear_layers + attention + all_reduce + step_overhead.
  Seconds linear_layers;
  Seconds attention;
  Bytes step_bytes;                // a decode step reads per device: weights and the batch's KV cache
  double step_flops = 0;           // a decode step computes per device, prompts riding along included
  double prefill_flops = 0;        // one prompt's prefill per device
  double output_tokens_per_s = 0;  // batch ÷ decode step
  double requests_per_s = 0;       // output tokens/s ÷ output tokens per request
};

// The latencies of the requests at a percentile of the load (docs/methodology.md#percentiles).
struct TailLatency {
  int percentile = 50;
  Seconds ttft;                    // the prefill after the wait for admission at that percentile
  Seconds tpot;                    // the step at that percentile of the sequences in flight
  Seconds queueing;                // the wait for admission at that percentile
  double prefill_utilisation = 0;  // of the fleet's room for prompts; ≥ 1: prompts queue without end
};

// A replica's latencies where nothing queues (an offline job, sizing, a plan that misses).
inline TailLatency untailed(const ServingLoad& load, const ReplicaEstimate& r) {
  return {load.percentile, r.ttft, r.decode_step, Seconds(0), 0};
}

// The figures of a serving plan (PlanEstimate::serving).
struct ServingEstimate {
  ReplicaEstimate replica;     // at the largest batch the targets allow: its capacity
  ReplicaEstimate at_load;     // at the batch the load keeps in flight on average: its mean latencies
  TailLatency tail;            // at the load's percentile: what is checked and ranked
  Seconds single_stream_tpot;  // a lone sequence's decode step, no other request's prompt in it
  BatchLimit limit = BatchLimit::kv_memory;
  std::optional<ServingMiss> miss;       // the plan misses a target at any batch
  bool offline = false;                  // an offline job: costed as a run, not per hour
  int replicas = 0;                      // what the rented units hold
  int replicas_needed = 0;               // what the load needs at the utilisation
  int spare_replicas = 0;                // replicas beyond those needed (ServingLoad::redundancy and more)
  double utilisation = 0;                // of the replicas at the load
  double fleet_output_tokens_per_s = 0;  // what the replicas can give
  Usd per_hour;                          // the fleet
  Usd per_million_output_tokens;         // at the load
};

// The replica at `batch` sequences (1 ≤ batch); capacity and speed per the docs.
ReplicaEstimate estimate_replica(const Workload& workload, const ServingLoad& load, const Replica& replica, int batch);

// The largest batch a replica can run under the load's targets and the engine's limit,
// with what bounded it; a miss when even one sequence misses a target. batch_capacity 0:
// nothing fits.
struct ChosenBatch {
  ReplicaEstimate replica;
  BatchLimit limit = BatchLimit::kv_memory;
  std::optional<ServingMiss> miss;
};
ChosenBatch choose_batch(const Workload& workload, const ServingLoad& load, const Replica& replica);

// The latencies at `load.percentile` of `replicas` replicas under the load (`at_load` their
// mean state, `largest` the batch the engine runs at most).
TailLatency tail_latency(const Workload& workload, const ServingLoad& load, const Replica& replica, int largest,
                         const ReplicaEstimate& at_load, int replicas);

// One decode step of `batch` sequences holding `context` tokens each, with nothing else in
// the step: what a batch run's step takes, and what a batch-1 benchmark measures.
struct DecodeStep {
  Seconds step;                     // memory or compute, whichever is slower, plus the all-reduces
  Bytes bytes;                      // read per device: the weights and the batch's KV cache
  double flops = 0;                 // per device
  double bandwidth_efficiency = 0;  // of the device's memory bandwidth
  double compute_efficiency = 0;    // of its peak (the MFU)
  Seconds all_reduce;
  Seconds step_overhead;                // the engine's and its layers' fixed costs
  double weight_kernel_efficiency = 1;  // of the weight format's kernels (engine.hpp)
  bool memory_bound = false;
  double tokens_per_s_per_sequence() const { return 1 / step.value; }
};
DecodeStep decode_step(const Workload& workload, const Replica& replica, int batch, int context);

// The replica under `requests_per_s` (below its capacity at `largest`): the batch in
// flight by Little's law, the smallest b with requests/s × output tokens × TPOT(b) ≤ b.
ReplicaEstimate estimate_at_load(const Workload& workload, const ServingLoad& load, const Replica& replica, int largest,
                                 double requests_per_s);

// The replica a device makes at `tensor` ranks (or `expert` expert-parallel ranks) on an
// offering (`offering` may be null); absent when the device has no peak for the weights'
// compute type or no bandwidth.
std::optional<Replica> replica_of(const Workload& workload, const Device& device, const Offering* offering, int tensor,
                                  int expert = 1);

}  // namespace mlsize
