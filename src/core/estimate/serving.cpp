#include <mlsize/estimate/serving.hpp>

#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/planner.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {
namespace {

// The memory of one sequence of full context (prompt + output) on a replica's device: the
// weights, that sequence's KV cache, the activations of its prefill, the overhead.
MemoryBreakdown one_sequence(const Workload& workload, const ServingLoad& load, int tensor) {
  Workload w = workload;
  w.batch = 1;
  w.context = load.prompt_tokens + load.output_tokens;
  Strategy strategy;
  strategy.tensor_parallel = tensor;
  return estimate_memory(w, tensor, strategy);
}

// The two all-reduces per layer of tensor parallelism (Shoeybi et al. 2019, §3) over
// `tokens` tokens of hidden activations in 16 bits: latency-bound for a decode step's
// few tokens, bandwidth-bound for a prompt's thousands.
Seconds all_reduce(const Workload& w, const Replica& replica, double tokens) {
  if (replica.tensor_parallel <= 1 || replica.link_bytes_per_s <= 0) return Seconds(0);
  const double t = replica.tensor_parallel;
  const double bytes = tokens * w.model.hidden * 2.0;
  const double one = k_all_reduce_latency_s + 2 * (t - 1) / t * bytes / replica.link_bytes_per_s;
  return Seconds(2.0 * (w.model.layers + w.model.encoder_layers) * one);
}

// FLOPs of attention's two matrix products (QKᵀ and the weighted sum of V) for one query
// token over `context` keys: 2 × 2 × context × (heads × head_dim) per layer.
double attention_flops(const Workload& w, double context) {
  const double q = static_cast<double>(w.model.heads) * w.model.head_dim;
  return 4.0 * w.model.layers * q * context;
}

// The share of the weights a step over `tokens` tokens reads. A dense model reads them
// all. A mixture of experts reads its shared weights and the routed experts any token
// chose: with k of E experts per token, drawn evenly, a given expert escapes all `tokens`
// with probability (1 − k/E)^tokens (Mixtral at batch 1 reads 2 of its 8 experts).
double weights_read(const Workload& w, double tokens) {
  const Architecture& m = w.model;
  if (!m.is_moe() || m.moe.experts <= m.moe.experts_per_token || w.parameters.total <= 0) return 1.0;
  const double experts = m.moe.experts;
  const double chosen = m.moe.experts_per_token;
  const double per_expert = (w.parameters.total - w.parameters.active) / (experts - chosen);
  const double routed = experts * per_expert;
  const double touched = 1.0 - std::pow(1.0 - chosen / experts, tokens);
  return (w.parameters.total - routed + routed * touched) / w.parameters.total;
}

double compute_rate(const Workload& w, const Replica& replica) {
  return replica.peak_flops_per_s * serving_mfu(w, *replica.device, replica.compute_dtype);
}

double bandwidth_rate(const Workload& w, const Replica& replica) {
  return replica.bandwidth_bytes_per_s * w.bandwidth_efficiency;
}

}  // namespace

double serving_mfu(const Workload& workload, DType compute_dtype) {
  if (workload.mfu_pinned) return workload.mfu;
  return compute_dtype == DType::fp8 ? k_serving_mfu_fp8 : k_serving_mfu_16bit;
}

double serving_mfu(const Workload& workload, const Device& device, DType compute_dtype) {
  if (workload.mfu_pinned) return workload.mfu;
  return serving_mfu(workload, compute_dtype) * cpu_gemm_efficiency(device, compute_dtype);
}

std::optional<Replica> replica_of(const Workload& workload, const Device& device, const Offering* offering,
                                  int tensor) {
  const std::optional<DType> dtype = compute_dtype(device, workload);
  const std::optional<Bytes> capacity = device_capacity(device, offering);
  if (!dtype || !device.memory_bandwidth_bytes_per_s || !capacity) return std::nullopt;
  Replica replica;
  replica.device = &device;
  replica.tensor_parallel = tensor;
  replica.compute_dtype = *dtype;
  replica.peak_flops_per_s = *device.peak(*dtype) * cpu_core_share(device, offering);
  replica.bandwidth_bytes_per_s = *memory_bandwidth_bytes_per_s(device, offering);
  replica.capacity = *capacity;
  const std::optional<Interconnect>& link = interconnect_of(device, offering);
  if (tensor > 1 && link) {
    // The bus bandwidth NCCL reaches: half the bidirectional link (the offering's where it
    // states one), at the collectives' efficiency, halved again without direct peer-to-peer
    // (as for training).
    replica.link_bytes_per_s = link->bandwidth_bytes_per_s / 2 * k_collective_efficiency;
    if (!peer_to_peer(device)) replica.link_bytes_per_s /= 2;
  }
  return replica;
}

namespace {

// A replica's figures that do not depend on the batch, computed once.
class ReplicaModel {
 public:
  ReplicaModel(const Workload& w, const ServingLoad& load, const Replica& replica)
      : m_w(w), m_load(load), m_replica(replica), m_one(one_sequence(w, load, replica.tensor_parallel)) {
    // The KV cache is paged (vLLM, Kwon et al. 2023): sequences take what they use, and
    // the engine admits as many as the memory left after the weights, one prefill's
    // activations and the overhead holds at full context.
    const double usable = replica.capacity.value * (1 - w.memory_headroom);
    const double free = usable - m_one.weights.value - m_one.activations.value - m_one.overhead.value;
    const double per_sequence = m_one.kv_cache.value;
    m_capacity = free <= 0           ? 0
                 : per_sequence <= 0 ? load.max_batch
                                     : static_cast<int>(std::min(1e9, std::floor(free / per_sequence)));
    // A prompt alone: 2·N·P plus causal attention (each token over half the prompt on
    // average), reading the weights once; compute-bound past a few hundred tokens.
    const double prompt = load.prompt_tokens;
    m_prefill_flops =
        (2.0 * w.parameters.active * prompt + attention_flops(w, prompt / 2) * prompt) / replica.tensor_parallel;
    m_prefill = Seconds(std::max(m_prefill_flops / compute_rate(w, replica),
                                 m_one.weights.value * weights_read(w, prompt) / bandwidth_rate(w, replica)) +
                        all_reduce(w, replica, prompt).value);
  }

  int capacity() const { return m_capacity; }

  // One step: `batch` sequences decode a token each and `chunk` prompt tokens are
  // prefilled. It reads the weights (of a mixture of experts, those its tokens choose) and
  // the batch's KV cache, the sequences at their average context (prompt + half the
  // output), and computes 2·N_active per token plus attention.
  struct Step {
    Seconds time;
    Bytes bytes;
    double flops = 0;
    Seconds all_reduce;
    bool memory_bound = false;
  };
  Step step(int batch, double chunk) const {
    const Workload& w = m_w;
    const double prompt = m_load.prompt_tokens;
    const double output = m_load.output_tokens;
    const double average_context = prompt + output / 2;
    Step st;
    st.bytes = Bytes(m_one.weights.value * weights_read(w, batch + chunk) +
                     m_one.kv_cache.value * batch * average_context / (prompt + output));
    st.flops = (2.0 * w.parameters.active * (batch + chunk) + attention_flops(w, average_context) * batch +
                attention_flops(w, prompt / 2) * chunk) /
               m_replica.tensor_parallel;
    const double memory_time = st.bytes.value / bandwidth_rate(w, m_replica);
    const double compute_time = st.flops / compute_rate(w, m_replica);
    st.memory_bound = memory_time >= compute_time;
    st.all_reduce = all_reduce(w, m_replica, batch + chunk);
    st.time = Seconds(std::max(memory_time, compute_time) + st.all_reduce.value);
    return st;
  }

  ReplicaEstimate at(int batch) const {
    const double prompt = m_load.prompt_tokens;
    const double output = m_load.output_tokens;
    ReplicaEstimate r;
    r.batch = batch;
    r.batch_capacity = m_capacity;
    r.memory = m_one;
    r.memory.kv_cache = Bytes(m_one.kv_cache.value * batch);
    // Continuous batching with chunked prefill (Sarathi-Serve, Agrawal et al. 2024): in
    // the steady state batch ÷ output sequences finish each step and as many start, whose
    // prompts ride along in the steps, up to the engine's tokens per step. Below one new
    // sequence per step a prompt comes whole in one step of `chunk` tokens and the other
    // steps decode only; above, every step carries its share.
    const double demand = batch * prompt / output;  // prompt tokens per step
    const double room = std::max(1.0, static_cast<double>(m_load.max_step_tokens - batch));
    const double chunk = std::min(room, std::max(demand, prompt));
    const double mixed = std::min(1.0, demand / chunk);  // the share of steps carrying prompts
    const Step decode = step(batch, 0);
    const Step with_prompt = step(batch, chunk);
    // A sequence waits for every step, decode-only or mixed: its TPOT is their average.
    r.decode_step = Seconds((1 - mixed) * decode.time.value + mixed * with_prompt.time.value);
    r.step_bytes = Bytes((1 - mixed) * decode.bytes.value + mixed * with_prompt.bytes.value);
    r.step_flops = (1 - mixed) * decode.flops + mixed * with_prompt.flops;
    r.all_reduce = Seconds((1 - mixed) * decode.all_reduce.value + mixed * with_prompt.all_reduce.value);
    r.memory_bound = decode.memory_bound && (mixed < 1 || with_prompt.memory_bound);
    r.prefill_flops = m_prefill_flops;
    r.prefill = m_prefill;
    // Sequences finish as fast as prompts get in: past the step's room, prompts queue and
    // throughput follows them.
    const double finished_per_step = std::min(batch / output, chunk * mixed / prompt);
    r.requests_per_s = finished_per_step / r.decode_step.value;
    r.output_tokens_per_s = r.requests_per_s * output;
    // The prefill's last position gives the first token. A prompt longer than the room
    // takes several mixed steps; on a busy replica it first waits for the step in progress,
    // half a step on average; an idle one (batch 1) starts it at once.
    const double prompt_steps = std::ceil(prompt / chunk);
    const double prefill = std::max(m_prefill.value, prompt_steps * with_prompt.time.value);
    r.ttft = Seconds(prefill + (batch > 1 ? r.decode_step.value / 2 : 0.0));
    return r;
  }

 private:
  const Workload& m_w;
  const ServingLoad& m_load;
  const Replica& m_replica;
  MemoryBreakdown m_one;
  int m_capacity = 0;
  double m_prefill_flops = 0;
  Seconds m_prefill;
};

}  // namespace

DecodeStep decode_step(const Workload& workload, const Replica& replica, int batch, int context) {
  Workload w = workload;
  w.batch = batch;
  w.context = context;
  Strategy strategy;
  strategy.tensor_parallel = replica.tensor_parallel;
  const MemoryBreakdown memory = estimate_memory(w, replica.tensor_parallel, strategy);
  DecodeStep d;
  d.bytes = Bytes(memory.weights.value * weights_read(w, batch) + memory.kv_cache.value);
  d.flops = (2.0 * w.parameters.active + attention_flops(w, context)) * batch / replica.tensor_parallel;
  d.bandwidth_efficiency = w.bandwidth_efficiency;
  d.compute_efficiency = serving_mfu(w, *replica.device, replica.compute_dtype);
  const double memory_time = d.bytes.value / bandwidth_rate(w, replica);
  const double compute_time = d.flops / compute_rate(w, replica);
  d.memory_bound = memory_time >= compute_time;
  d.all_reduce = all_reduce(w, replica, batch);
  d.step = Seconds(std::max(memory_time, compute_time) + d.all_reduce.value);
  return d;
}

ReplicaEstimate estimate_replica(const Workload& w, const ServingLoad& load, const Replica& replica, int batch) {
  return ReplicaModel(w, load, replica).at(batch);
}

ReplicaEstimate estimate_at_load(const Workload& w, const ServingLoad& load, const Replica& replica, int largest,
                                 double requests_per_s) {
  const ReplicaModel model(w, load, replica);
  // Steps only slow down as the batch grows, so once the load's sequences fit in flight
  // at b they do at every larger b: bisect between 1 and `largest`.
  const auto holds = [&](const ReplicaEstimate& r) {
    return requests_per_s * load.output_tokens * r.decode_step.value <= r.batch;
  };
  ReplicaEstimate low = model.at(1);
  if (holds(low) || largest <= 1) return low;
  int lo = 1;
  int hi = largest;
  while (hi - lo > 1) {
    const int middle = lo + (hi - lo) / 2;
    (holds(model.at(middle)) ? hi : lo) = middle;
  }
  return model.at(hi);
}

ChosenBatch choose_batch(const Workload& w, const ServingLoad& load, const Replica& replica) {
  const ReplicaModel model(w, load, replica);
  const auto misses = [&](const ReplicaEstimate& r) -> std::optional<ServingMiss> {
    if (load.tpot && r.decode_step > *load.tpot) return ServingMiss::tpot;
    if (load.ttft && r.ttft > *load.ttft) return ServingMiss::ttft;
    return std::nullopt;
  };
  const auto limit_of = [](ServingMiss miss) {
    return miss == ServingMiss::tpot ? BatchLimit::tpot : BatchLimit::ttft;
  };
  ChosenBatch chosen;
  chosen.replica = model.at(1);
  if (model.capacity() < 1) return chosen;  // the weights leave no room for one sequence
  if (const std::optional<ServingMiss> miss = misses(chosen.replica)) {
    chosen.miss = miss;
    chosen.limit = limit_of(*miss);
    return chosen;
  }
  // A step cannot decode more sequences than it takes tokens.
  const int admitted = std::min(load.max_batch, load.max_step_tokens);
  int largest = std::min(admitted, model.capacity());
  chosen.limit = model.capacity() <= admitted ? BatchLimit::kv_memory : BatchLimit::max_batch;
  // In the steady state B/O sequences finish each step, and the P prompt tokens of those that
  // replace them must share the step with the B decodes: B·(1 + P/O) ≤ max_step_tokens. Past
  // that bound prompts queue and a replica gives what gets in, (room ÷ P) × O tokens a step,
  // which falls as B grows: the bound is the batch of most throughput (issue 30: 7,481
  // sequences gave 4,571 tokens/s where 4,096 give 26,381).
  const double per_sequence = 1.0 + static_cast<double>(load.prompt_tokens) / load.output_tokens;
  const int steady = std::max(1, static_cast<int>(load.max_step_tokens / per_sequence));
  if (steady < largest) {
    largest = steady;
    chosen.limit = BatchLimit::step_tokens;
  }
  if (const std::optional<ServingMiss> miss = misses(model.at(largest))) {
    // Decode steps and first tokens only slow down as the batch grows: the largest batch
    // that meets the targets, by bisection between 1 (meets) and `largest` (misses).
    int low = 1;
    int high = largest;
    std::optional<ServingMiss> at_high = miss;
    while (high - low > 1) {
      const int middle = low + (high - low) / 2;
      if (const std::optional<ServingMiss> at_middle = misses(model.at(middle))) {
        high = middle;
        at_high = at_middle;
      } else {
        low = middle;
      }
    }
    chosen.limit = limit_of(*at_high);
    largest = low;
  }
  chosen.replica = model.at(largest);
  return chosen;
}

}  // namespace mlsize
