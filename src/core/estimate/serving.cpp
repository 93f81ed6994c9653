#include <mlsize/estimate/serving.hpp>

#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/planner.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {
namespace {

// The memory of one sequence of full context (prompt + output) on a replica's device: the
// weights, that sequence's KV cache, the activations of its prefill, the overhead. An
// expert-parallel replica's device holds the weights whole here; ReplicaModel takes the
// other devices' experts off.
MemoryBreakdown one_sequence(const Workload& workload, const ServingLoad& load, int tensor) {
  Strategy strategy;
  strategy.tensor_parallel = tensor;
  const int context = load.prompt_tokens + load.output_tokens;
  // A serving run's workload is one sequence of its load already (serving_options.cpp sets
  // its context so): estimated as it is, not copied (a 1.5 KB Workload for every replica
  // timed, issue 49).
  if (workload.batch == 1 && workload.context == context) return estimate_memory(workload, tensor, strategy);
  Workload w = workload;
  w.batch = 1;
  w.context = context;
  return estimate_memory(w, tensor, strategy);
}

// FLOPs of attention's two matrix products (QKᵀ and the weighted sum of V) for one query
// token over `context` keys: 2 × 2 × context × (heads × head_dim) per layer.
double attention_flops(const Workload& w, double context) {
  const double q = static_cast<double>(w.model.heads) * w.model.head_dim;
  return 4.0 * w.model.layers * q * context;
}

// The routed experts' parameters (0 for a dense model, or where every expert is chosen).
double routed_parameters(const Workload& w) {
  const Architecture& m = w.model;
  if (!m.is_moe() || m.moe.experts <= m.moe.experts_per_token) return 0;
  return std::min(routed_expert_parameters(m), w.parameters.total);
}

// A mixture of experts' routed experts compute at this fraction of a dense layer's rate:
// each expert's GEMM takes its share of the step's tokens (smaller, grouped, unevenly
// loaded) after a permutation. TensorRT-LLM v0.17 serves Mixtral-8x7B in FP8 at full load
// at 0.62–0.72 of what the dense rate gives (128/2048 on one H100, 1,000/1,000 on one H200,
// 5,000/500 on four H100s; perf-overview.md), and its 2,048-token prefill on two H100s
// took 89.5 ms (v0.9), 0.44 of it (docs/methodology.md#serving).
constexpr double k_moe_expert_compute = 0.7;

double compute_rate(const Workload& w, const Replica& replica) {
  // Weight-only formats dequantise inside the matrix products, which costs where the step
  // is compute-bound.
  return replica.peak_flops_per_s * serving_mfu(w, *replica.device, replica.compute_dtype) *
         weight_only_compute_efficiency(w.weight_format, *replica.device);
}

double bandwidth_rate(const Workload& w, const Replica& replica) {
  return replica.bandwidth_bytes_per_s * w.bandwidth_efficiency * engine_bandwidth_factor(w.engine, *replica.device);
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

std::optional<Replica> replica_of(const Workload& workload, const Device& device, const Offering* offering, int tensor,
                                  int expert) {
  const std::optional<DType> dtype = compute_dtype(device, workload);
  const std::optional<Bytes> capacity = device_capacity(device, offering);
  if (!dtype || !device.memory_bandwidth_bytes_per_s || !capacity) return std::nullopt;
  Replica replica;
  replica.device = &device;
  replica.tensor_parallel = expert > 1 ? 1 : tensor;
  replica.expert_parallel = expert;
  replica.compute_dtype = *dtype;
  replica.peak_flops_per_s = *device.peak(*dtype) * cpu_core_share(device, offering);
  replica.bandwidth_bytes_per_s = *memory_bandwidth_bytes_per_s(device, offering);
  replica.capacity = *capacity;
  const std::optional<Interconnect>& link = interconnect_of(device, offering);
  if (replica.devices() > 1 && link) {
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
      : m_w(w),
        m_load(load),
        m_replica(replica),
        m_engine(engine_profile(w.engine)),
        m_overhead(fixed_step_cost(w)),
        m_sequence_cost(sequence_step_cost(w.engine, 1, replica.tensor_parallel)),
        m_one(one_sequence(w, load, replica.tensor_parallel)) {
    const double experts = replica.expert_parallel;
    // A device's routed experts: the tensor-parallel share of each, or 1/EP of them whole.
    const double routed_bytes = routed_parameters(w) * bits_per_weight(w.weight_format) / 8;
    m_routed_bytes = routed_bytes / (replica.tensor_parallel * experts);
    m_one.weights = Bytes(m_one.weights.value - routed_bytes / replica.tensor_parallel + m_routed_bytes);
    // A step reads the weights but not the input embedding table, of which it gathers a row
    // per token (its vocabulary-parallel share on each tensor-parallel rank).
    m_fixed_bytes = m_one.weights.value - m_routed_bytes - input_embedding_bytes(w) / replica.tensor_parallel;
    m_weight_rate = bandwidth_rate(w, replica) * weight_kernel_efficiency(w, *replica.device);
    // Each device of an expert-parallel replica runs its own share of the sequences.
    m_sequence_devices = experts;
    // The KV cache is paged (vLLM, Kwon et al. 2023): a sequence holds its current length in
    // blocks, on average its prompt and half its output; engines without pages (llama.cpp's
    // slots, a static cache) hold the full context. The engine admits as many as the memory
    // left after the weights, one prefill's activations and the overhead holds.
    const double full = load.prompt_tokens + load.output_tokens;
    m_kv_per_token = m_one.kv_cache.value / cached_tokens(full);
    const double block = m_engine.kv_block_tokens;
    const auto in_blocks = [&](double tokens) { return block > 0 ? std::ceil(tokens / block) * block : full; };
    // An engine that reserves each request's whole context (reserves_full_context) holds
    // that for every sequence, though a step reads only what is written.
    m_held_tokens = cached_tokens(m_engine.reserves_full_context
                                      ? in_blocks(full)
                                      : std::min(full, in_blocks(load.prompt_tokens + load.output_tokens / 2.0)));
    const double usable = usable_memory(w, replica.capacity, m_one).value;
    const double free = usable - m_one.weights.value - m_one.activations.value - m_one.overhead.value;
    const auto sequences = [&](double tokens) {
      const double per_sequence = m_kv_per_token * tokens;
      if (free <= 0) return 0;
      if (per_sequence <= 0) return load.max_batch;
      return static_cast<int>(std::min(1e9, std::floor(free / per_sequence) * m_sequence_devices));
    };
    m_capacity = sequences(m_held_tokens);
    m_full_capacity = sequences(cached_tokens(in_blocks(full)));
    // A prompt alone: 2·N·P plus causal attention (each token over half the prompt on
    // average), reading the weights once; compute-bound past a few hundred tokens. On an
    // expert-parallel replica its attention and shared weights run on one device and its
    // experts on all.
    const double prompt = load.prompt_tokens;
    m_routed_active = routed_parameters(w) * active_expert_share(w);
    const double expert_flops = 2.0 * m_routed_active * prompt / (replica.tensor_parallel * experts);
    m_prefill_flops =
        (2.0 * (w.parameters.active - m_routed_active) * prompt + attention_flops(w, prompt / 2) * prompt) /
            replica.tensor_parallel +
        expert_flops;
    const double read = m_fixed_bytes + m_routed_bytes * routed_share_read(w.model, prompt);
    const double compute = (m_prefill_flops + expert_flops * (1 / k_moe_expert_compute - 1)) / compute_rate(w, replica);
    m_prefill = Seconds(std::max(compute, read / m_weight_rate) + communication(prompt).value + m_overhead.value);
  }

  int capacity() const { return m_capacity; }

  // One step: `batch` sequences decode a token each and `chunk` prompt tokens are
  // prefilled. A device reads its weights (of a mixture of experts, those its tokens
  // choose) and the KV cache of its sequences at their average context (prompt + half the
  // output), computes 2·N_active per token plus attention, and waits for the engine.
  struct Step {
    Seconds time;
    Bytes bytes;
    double flops = 0;
    Seconds communication;
    Seconds linear_layers;
    Seconds attention;
    bool memory_bound = false;
  };
  Step step(double batch, double chunk) const {
    const Workload& w = m_w;
    const double prompt = m_load.prompt_tokens;
    const double average_context = prompt + m_load.output_tokens / 2.0;
    const double tokens = batch + chunk;
    const double weights = m_fixed_bytes + m_routed_bytes * routed_share_read(w.model, tokens);
    const double kv = m_kv_per_token * cached_tokens(average_context) * batch / m_sequence_devices;
    Step st;
    st.bytes = Bytes(weights + kv);
    const double devices = m_replica.devices();
    const double linear_flops = 2.0 * w.parameters.active * tokens / devices;
    const double attention =
        (attention_flops(w, average_context) * batch + attention_flops(w, prompt / 2) * chunk) / devices;
    st.flops = linear_flops + attention;
    // The linear layers and attention are separate kernels, one after the other: each is
    // bound by its own bytes or FLOPs (the weights and their GEMMs; the KV cache and its
    // dot products), and their times add.
    const double expert_flops = 2.0 * m_routed_active * tokens / devices;
    const double rate = compute_rate(w, m_replica);
    const double linear_memory = weights / m_weight_rate;
    const double linear_compute = (linear_flops + expert_flops * (1 / k_moe_expert_compute - 1)) / rate;
    const double attention_memory = kv / bandwidth_rate(w, m_replica);
    const double attention_compute = attention / rate;
    st.memory_bound = linear_memory + attention_memory >= linear_compute + attention_compute;
    st.communication = communication(tokens);
    st.linear_layers = Seconds(std::max(linear_memory, linear_compute));
    st.attention = Seconds(std::max(attention_memory, attention_compute));
    st.time = st.linear_layers + st.attention + st.communication + m_overhead +
              m_sequence_cost * (batch + (chunk > 0 ? 1 : 0));
    return st;
  }

  ReplicaEstimate at(int batch) const {
    return m_load.batching == Batching::fixed ? at_static(batch) : at_continuous(batch);
  }

 private:
  ReplicaEstimate base(int batch) const {
    ReplicaEstimate r;
    r.batch = batch;
    r.batch_capacity = m_capacity;
    r.full_context_capacity = m_full_capacity;
    r.memory = m_one;
    r.memory.kv_cache = Bytes(m_kv_per_token * m_held_tokens * std::ceil(batch / m_sequence_devices));
    r.prefill_flops = m_prefill_flops;
    r.prefill = m_prefill;
    r.step_overhead = m_overhead + m_sequence_cost * batch;
    return r;
  }

  // Continuous batching with chunked prefill (Sarathi-Serve, Agrawal et al. 2024): in the
  // steady state batch ÷ output sequences finish each step and as many start, whose prompts
  // ride along in the steps, up to the engine's tokens per step. Below one new sequence per
  // step a prompt comes whole in one step of `chunk` tokens and the other steps decode
  // only; above, every step carries its share. An engine that does not mix prefill and
  // decode (mixes_prefill_and_decode) runs the chunk in a step of its own instead, with the
  // whole step's room, and each decode step has `share` of those beside it.
  ReplicaEstimate at_continuous(int batch) const {
    const double prompt = m_load.prompt_tokens;
    const double output = m_load.output_tokens;
    const bool mixes = m_engine.mixes_prefill_and_decode;
    ReplicaEstimate r = base(batch);
    const double demand = batch * prompt / output;  // prompt tokens per step
    const double room = std::max(1.0, step_tokens() - (mixes ? batch : 0.0));
    const double chunk = std::min(room, std::max(demand, prompt));
    // Mixed: the share of steps carrying prompts; separate: prompt steps per decode step.
    const double share = std::min(1.0, demand / chunk);
    const Step decode = step(batch, 0);
    const Step with_prompt = step(mixes ? batch : 0, chunk);
    // A sequence waits for every step, decode-only or carrying a prompt: its TPOT is their
    // average, and so are the step's figures; without mixing it waits for its decode step and
    // the prompt steps beside it.
    const auto mean = [&](double decode_only, double carrying_prompt) {
      return (mixes ? 1 - share : 1.0) * decode_only + share * carrying_prompt;
    };
    r.decode_step = Seconds(mean(decode.time.value, with_prompt.time.value));
    r.step_bytes = Bytes(mean(decode.bytes.value, with_prompt.bytes.value));
    r.step_flops = mean(decode.flops, with_prompt.flops);
    r.all_reduce = Seconds(mean(decode.communication.value, with_prompt.communication.value));
    r.linear_layers = Seconds(mean(decode.linear_layers.value, with_prompt.linear_layers.value));
    r.attention = Seconds(mean(decode.attention.value, with_prompt.attention.value));
    // A step carrying a prompt has its sequence too (step()); a prompt step of its own, the
    // engine's step as well.
    r.step_overhead = m_overhead * (mixes ? 1.0 : 1.0 + share) + m_sequence_cost * (batch + share);
    r.memory_bound = decode.memory_bound && (share < 1 || with_prompt.memory_bound);
    // Sequences finish as fast as prompts get in: past the step's room, prompts queue and
    // throughput follows them.
    const double finished_per_step = std::min(batch / output, chunk * share / prompt);
    r.requests_per_s = finished_per_step / r.decode_step.value;
    r.output_tokens_per_s = r.requests_per_s * output;
    // The prefill's last position gives the first token. A prompt longer than the room
    // takes several steps; on a busy replica it first waits for the step in progress, half a
    // step on average (a step of either kind, by the time each takes); an idle one (batch 1)
    // starts it at once.
    const double prompt_steps = std::ceil(prompt / chunk);
    const double prefill = std::max(m_prefill.value, prompt_steps * with_prompt.time.value);
    const double in_progress =
        mixes ? r.decode_step.value / 2
              : (decode.time.value * decode.time.value + share * with_prompt.time.value * with_prompt.time.value) /
                    (2 * r.decode_step.value);
    r.ttft = Seconds(k_first_token_overhead_s + prefill + (batch > 1 ? in_progress : 0.0));
    return r;
  }

  // Static batching: a batch's prompts are prefilled together (in steps of the engine's
  // tokens), then it decodes until its last sequence ends; the next batch waits for that.
  ReplicaEstimate at_static(int batch) const {
    const double prompt = m_load.prompt_tokens;
    const double output = m_load.output_tokens;
    ReplicaEstimate r = base(batch);
    const double prompt_tokens = batch * prompt;
    const double chunk = std::min(prompt_tokens, static_cast<double>(std::max(1, m_load.max_step_tokens)));
    const Step prefill_step = step(0, chunk);
    const double prefill = std::max(m_prefill.value, std::ceil(prompt_tokens / chunk) * prefill_step.time.value);
    const Step decode = step(batch, 0);
    r.decode_step = decode.time;
    r.step_bytes = decode.bytes;
    r.step_flops = decode.flops;
    r.all_reduce = decode.communication;
    r.linear_layers = decode.linear_layers;
    r.attention = decode.attention;
    r.memory_bound = decode.memory_bound;
    const double cycle = prefill + output * decode.time.value;
    r.requests_per_s = batch / cycle;
    r.output_tokens_per_s = r.requests_per_s * output;
    // A request arriving at a busy replica waits for the batch in progress, half a cycle.
    r.ttft = Seconds(k_first_token_overhead_s + prefill + (batch > 1 ? cycle / 2 : 0.0));
    return r;
  }

  // Tensor parallelism's two all-reduces per layer (Shoeybi et al. 2019, §3) over `tokens`
  // tokens of hidden activations in 16 bits: latency-bound for a decode step's few tokens,
  // bandwidth-bound for a prompt's thousands. Expert parallelism's two all-to-alls per MoE
  // layer (dispatch and combine, as DeepEP): each device sends its tokens' hidden states to
  // the devices holding their k experts.
  Seconds communication(double tokens) const {
    const Workload& w = m_w;
    const Replica& replica = m_replica;
    if (replica.devices() <= 1 || replica.link_bytes_per_s <= 0) return Seconds(0);
    const double latency = m_engine.all_reduce_latency.value;
    if (replica.expert_parallel > 1) {
      const double e = replica.expert_parallel;
      const double sent = tokens / e * w.model.moe.experts_per_token * w.model.hidden * 2.0 * (e - 1) / e;
      return Seconds(2.0 * moe_layer_count(w.model) * (latency + sent / replica.link_bytes_per_s));
    }
    const double t = replica.tensor_parallel;
    const double bytes = tokens * w.model.hidden * 2.0;
    const double one = latency + 2 * (t - 1) / t * bytes / replica.link_bytes_per_s;
    return Seconds(2.0 * (w.model.layers + w.model.encoder_layers) * one);
  }

  // The tokens a step of the replica takes: --max-step-tokens on each of its schedulers (each
  // attention data-parallel rank of an expert-parallel replica runs its own).
  double step_tokens() const { return static_cast<double>(m_load.max_step_tokens) * m_replica.expert_parallel; }

 public:
  // The sequences the replica's schedulers admit at most: --max-batch on each.
  int admitted() const {
    const double ranks = m_replica.expert_parallel;
    return static_cast<int>(std::min(1e9, std::min<double>(m_load.max_batch, m_load.max_step_tokens) * ranks));
  }

 private:
  // The tokens of a sequence of `tokens` that its KV cache holds: a sliding window keeps
  // the last `window` of them.
  double cached_tokens(double tokens) const {
    return m_w.model.sliding_window ? std::min(tokens, static_cast<double>(*m_w.model.sliding_window)) : tokens;
  }

  // The share of the routed experts' parameters one token uses, k / E.
  static double active_expert_share(const Workload& w) {
    const Architecture& m = w.model;
    return m.is_moe() && m.moe.experts > 0 ? static_cast<double>(m.moe.experts_per_token) / m.moe.experts : 0;
  }

  const Workload& m_w;
  const ServingLoad& m_load;
  const Replica& m_replica;
  const EngineProfile& m_engine;
  Seconds m_overhead;
  Seconds m_sequence_cost;  // the engine's host work per sequence of a step (sequence_step_cost)
  MemoryBreakdown m_one;
  double m_routed_bytes = 0;      // per device
  double m_routed_active = 0;     // routed experts' parameters a token uses
  double m_fixed_bytes = 0;       // per device: everything but the routed experts
  double m_weight_rate = 0;       // bytes per second the weights read at
  double m_sequence_devices = 1;  // devices the sequences are spread over (attention data parallelism)
  double m_kv_per_token = 0;      // per device, of one sequence
  double m_held_tokens = 0;       // a sequence's KV tokens held: on average, or reserved
  int m_capacity = 0;
  int m_full_capacity = 0;
  double m_prefill_flops = 0;
  Seconds m_prefill;
};

}  // namespace

DecodeStep decode_step(const Workload& workload, const Replica& replica, int batch, int context) {
  // A step with nothing but the batch's decodes: a load of `context`-token prompts and one
  // output token holds each sequence at its context.
  ServingLoad load;
  load.prompt_tokens = std::max(1, context - 1);
  load.output_tokens = 2;
  load.max_step_tokens = std::max(load.max_step_tokens, batch + 1);
  const ReplicaModel model(workload, load, replica);
  const auto st = model.step(batch, 0);
  DecodeStep d;
  d.step = st.time;
  d.bytes = st.bytes;
  d.flops = st.flops;
  d.bandwidth_efficiency = workload.bandwidth_efficiency;
  d.compute_efficiency = serving_mfu(workload, *replica.device, replica.compute_dtype);
  d.weight_kernel_efficiency = weight_kernel_efficiency(workload, *replica.device);
  d.memory_bound = st.memory_bound;
  d.all_reduce = st.communication;
  d.step_overhead = fixed_step_cost(workload) + sequence_step_cost(workload.engine, batch, replica.tensor_parallel);
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
  // Static batching: the batch that forms is what arrives during its cycle.
  const auto holds = [&](const ReplicaEstimate& r) {
    if (load.batching == Batching::fixed) return requests_per_s <= r.requests_per_s;
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
  const int admitted = model.admitted();
  int largest = std::min(admitted, model.capacity());
  chosen.limit = model.capacity() <= admitted ? BatchLimit::kv_memory : BatchLimit::max_batch;
  // In the steady state B/O sequences finish each step, and the P prompt tokens of those that
  // replace them must share the step with the B decodes: B·(1 + P/O) ≤ max_step_tokens. Past
  // that bound prompts queue and a replica gives what gets in, (room ÷ P) × O tokens a step,
  // which falls as B grows: the bound is the batch of most throughput (issue 30: 7,481
  // sequences gave 4,571 tokens/s where 4,096 give 26,381). Static batching admits nothing
  // mid-batch.
  const double per_sequence = 1.0 + static_cast<double>(load.prompt_tokens) / load.output_tokens;
  const int steady =
      std::max(1, static_cast<int>(static_cast<double>(load.max_step_tokens) * replica.expert_parallel / per_sequence));
  if (load.batching == Batching::continuous && steady < largest) {
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
