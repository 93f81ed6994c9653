#include <mlsize/estimate/memory.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace mlsize {
namespace {

// Formats numbers for explanations without pulling a formatting library into the core.
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

void note(Explanation* explain, std::string term, std::string formula, std::string inputs, Bytes value) {
  if (explain != nullptr) explain->push_back({std::move(term), std::move(formula), std::move(inputs), value});
}

// Linear layers of one block as (inputs, outputs) for LoRA.
double lora_block(const Architecture& m, int rank, unsigned targets, double ffn_width, double ffn_copies) {
  const double h = m.hidden;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double kv = m.kv_dim();
  double inputs_plus_outputs = 0;
  if (targets & k_lora_q) inputs_plus_outputs += h + q;
  if (targets & k_lora_k) inputs_plus_outputs += h + kv;
  if (targets & k_lora_v) inputs_plus_outputs += h + kv;
  if (targets & k_lora_o) inputs_plus_outputs += q + h;
  double ffn = 0;
  if ((targets & k_lora_gate) && m.mlp == MlpKind::gated) ffn += h + ffn_width;
  if (targets & k_lora_up) ffn += h + ffn_width;
  if (targets & k_lora_down) ffn += ffn_width + h;
  return rank * (inputs_plus_outputs + ffn * ffn_copies);
}

}  // namespace

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer, int hidden, Framework framework) {
  // Moments are fp32 except under pure bf16, where they are kept in bf16.
  const double moment = precision == Precision::bf16 ? 2.0 : 4.0;
  double states = 0;
  switch (optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam: states = 2 * moment; break;    // momentum and variance
    case Optimizer::sgd: states = 0; break;
    case Optimizer::sgd_momentum:
    case Optimizer::lion: states = moment; break;        // Chen et al. 2023: Lion keeps momentum only
    case Optimizer::adam_8bit: states = 2.0; break;      // Dettmers et al. 2022: 8-bit m and v
    // Shazeer & Stern 2018: no first moment; the second moment of an r×c matrix is
    // factored into r + c values, about 2/h per parameter for h-wide matrices.
    case Optimizer::adafactor: states = moment * 2.0 / std::max(1, hidden); break;
  }
  // PyTorch AMP (framework hf) keeps fp32 weights and gradients; the optimizer steps them
  // directly, so there is no separate master copy (its 16-bit casts: autocast_cache_bytes).
  if (framework == Framework::hf && is_mixed_precision(precision)) return {4, 4, 0, states};
  switch (precision) {
    case Precision::fp32: return {4, 4, 0, states};
    case Precision::bf16: return {2, 2, 0, states};  // pure bf16: no master copy
    // ZeRO paper §3.1: 16-bit weights and gradients plus an fp32 master copy (K = 12 for
    // Adam: 2 + 2 + 12 = 16 bytes). fp8-mixed keeps the same states (Transformer Engine
    // casts to fp8 inside the matrix multiplications only).
    case Precision::bf16_mixed:
    case Precision::fp16_mixed:
    case Precision::fp8_mixed: return {2, 2, 4, states};
  }
  return {2, 2, 4, states};
}

double lora_parameters(const Architecture& m, int rank, unsigned targets) {
  const int moe_layers = moe_layer_count(m);
  const int dense_layers = m.layers - moe_layers;
  double total = dense_layers * lora_block(m, rank, targets, m.intermediate, 1.0);
  if (moe_layers > 0) {
    // PEFT's all-linear also wraps every expert's matrices.
    const double copies = m.moe.experts + m.moe.shared_experts;
    total += moe_layers * lora_block(m, rank, targets, m.moe.expert_intermediate, copies);
  }
  // Encoder layers of an encoder-decoder model carry the same adapters.
  total += m.encoder_layers * lora_block(m, rank, targets, m.intermediate, 1.0);
  return total;
}

double routed_expert_parameters(const Architecture& m) {
  if (!m.is_moe()) return 0;
  const double matrices = m.mlp == MlpKind::gated ? 3.0 : 2.0;
  return moe_layer_count(m) * static_cast<double>(m.moe.experts) * matrices * m.hidden * m.moe.expert_intermediate;
}

double foreach_temporary_bytes_per_param(const Workload& w) {
  // torch.optim docs: the foreach implementations keep "a tensorlist of intermediates"
  // (Adam/AdamW: the square roots of the second moments; SGD momentum, Lion: one update
  // list), fp32 like the weights they update. 8-bit Adam (bitsandbytes) and Adafactor step
  // parameter by parameter.
  if (w.framework != Framework::hf || !w.is_training() || w.is_adapter_tuning()) return 0;
  switch (w.optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam:
    case Optimizer::sgd_momentum:
    case Optimizer::lion: return w.precision == Precision::bf16 ? 2.0 : 4.0;
    case Optimizer::sgd:
    case Optimizer::adam_8bit:
    case Optimizer::adafactor: return 0;
  }
  return 0;
}

double autocast_cache_bytes(const Workload& w) {
  // torch.autocast caches the 16-bit cast of each fp32 weight for the whole forward pass
  // and backward keeps it for the input gradients: 2 bytes per parameter, not sharded.
  if (w.framework != Framework::hf || !is_mixed_precision(w.precision) || !w.is_training() ||
      w.is_adapter_tuning()) {
    return 0;
  }
  return 2.0 * w.parameters.total;
}

Bytes kv_cache_bytes(const Workload& w, const Strategy& st) {
  const Architecture& m = w.model;
  double context = w.context;
  if (m.sliding_window) context = std::min(context, static_cast<double>(*m.sliding_window));
  const double layers = m.layers / static_cast<double>(st.pipeline_parallel);
  const double bytes = bytes_per_kv_value(w.kv_format);
  if (m.mla) {
    // DeepSeek-V2 (§2.1.2): MLA caches the compressed latent and the decoupled RoPE key,
    // (d_c + d_h^R) values per token per layer, the same on every tensor-parallel rank.
    return Bytes(layers * (m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) * context * w.batch * bytes);
  }
  // KV heads split across tensor-parallel ranks; with fewer heads than ranks they repeat.
  const double kv_heads_per_device = std::max(1.0, m.kv_heads / static_cast<double>(st.tensor_parallel));
  double cache = 2 * layers * kv_heads_per_device * m.head_dim * context * w.batch * bytes;
  // Encoder-decoder: each decoder layer also caches the cross-attention keys and values.
  if (m.encoder_layers > 0) cache *= 2;
  return Bytes(cache);
}

namespace {

// The working set of one inference forward pass over the whole batch at full context
// (prefill without chunking): the widest layer's intermediates plus last-token logits.
Bytes inference_activation_bytes(const Workload& w, const Strategy& st) {
  const Architecture& m = w.model;
  const double tokens = static_cast<double>(w.context) * w.batch;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double width = m.is_moe() ? m.moe.experts_per_token * static_cast<double>(m.moe.expert_intermediate)
                                  : static_cast<double>(m.intermediate);
  const double ffn = (m.mlp == MlpKind::gated ? 3.0 : 2.0) * width;
  const double per_token = 2 * (2.0 * m.hidden + (q + 2.0 * m.kv_dim() + ffn) / st.tensor_parallel);
  return Bytes(tokens * per_token + 4.0 * w.batch * m.vocab);
}

struct ShardedStates {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
};

// Per-device model states for `trained` parameters with `per_param` bytes, split by
// model parallelism and then by ZeRO across the data-parallel ranks (ZeRO paper §5:
// stage 1 shards optimizer states, 2 adds gradients, 3 adds parameters). Routed
// experts are split by expert parallelism first and ZeRO-sharded over dp / ep.
ShardedStates shard(double trained, double experts, const StateBytesPerParam& per_param, int device_count,
                    const Strategy& st) {
  const double mp = st.model_parallel();
  const double dp = st.data_parallel(device_count);
  const double ep = st.expert_parallel;
  const double dense_share = (trained - experts) / mp;
  const double expert_share = experts / (mp * ep);
  const double expert_dp = std::max(1.0, dp / ep);
  auto split = [&](double bytes_per_param, int from_stage) {
    const bool sharded = st.zero_stage >= from_stage;
    return dense_share * bytes_per_param / (sharded ? dp : 1.0) +
           expert_share * bytes_per_param / (sharded ? expert_dp : 1.0);
  };
  return {split(per_param.weights, 3), split(per_param.gradients, 2), split(per_param.optimizer(), 1)};
}

}  // namespace

MemoryBreakdown estimate_memory(const Workload& w, int device_count, const Strategy& st, Explanation* explain) {
  const Architecture& m = w.model;
  const double n = w.parameters.total;
  const double mp = st.model_parallel();
  const double dp = st.data_parallel(device_count);
  // Explanations are built only when asked for: this runs for every candidate plan.
  const std::string layout = explain == nullptr ? std::string()
                                                : "t=" + number(st.tensor_parallel) + ", p=" +
                                                      number(st.pipeline_parallel) + ", dp=" + number(dp) +
                                                      ", ZeRO-" + number(st.zero_stage);
  MemoryBreakdown memory;

  if (w.task == Task::gbdt) {
    // Gradient-boosted trees hold the training data twice: the float32 input and the
    // quantised histogram matrix with gradient pairs (XGBoost hist). A rough rule, split
    // evenly over the devices; documented in docs/methodology.md#gradient-boosted-trees.
    const double data = w.dataset_bytes ? w.dataset_bytes->value : w.tokens * w.bytes_per_token;
    memory.activations = Bytes(k_gbdt_working_set_factor * data / device_count);
    if (explain != nullptr) note(explain, "activations", "working set = 2 × dataset bytes / devices", "dataset " + number(data) + " bytes",
         memory.activations);
  } else if (w.task == Task::inference) {
    const double bits = bits_per_weight(w.weight_format);
    const double quantized = quantizes_linear_only(w.weight_format) ? w.parameters.linear : n;
    memory.weights = Bytes((quantized * bits / 8 + (n - quantized) * 2) / mp);
    if (explain != nullptr) note(explain, "weights", "(quantised params × bits/8 + other params × 2) / (t·p)",
         "quantised " + number(quantized) + ", bits " + number(bits) + ", other " + number(n - quantized) + ", " +
             layout,
         memory.weights);
    memory.kv_cache = kv_cache_bytes(w, st);
    if (explain != nullptr) note(explain, "kv_cache",
         m.mla ? "L/p × (kv_lora_rank + qk_rope_head_dim) × context × batch × bytes"
               : "2 × L/p × max(1, kv_heads/t) × head_dim × context × batch × bytes",
         "L " + number(m.layers) + ", kv_heads " + number(m.kv_heads) + ", head_dim " + number(m.head_dim) +
             ", context " + number(w.context) + ", batch " + number(w.batch) + ", bytes " +
             number(bytes_per_kv_value(w.kv_format)) + (m.sliding_window ? ", window " + number(*m.sliding_window) : ""),
         memory.kv_cache);
    memory.activations = inference_activation_bytes(w, st);
    if (explain != nullptr) note(explain, "activations", "context × batch × 2 × (2h + (q + 2·kv + ffn)/t) + 4 × batch × V",
         "h " + number(m.hidden) + ", ffn " + number(m.intermediate) + ", V " + number(m.vocab), memory.activations);
  } else if (w.is_adapter_tuning()) {
    const double adapters = lora_parameters(m, w.lora_rank, w.lora_targets);
    const double base = w.task == Task::qlora
                            ? w.parameters.linear * bits_per_weight(WeightFormat::nf4) / 8 +
                                  (n - w.parameters.linear) * 2
                            : n * (w.precision == Precision::fp32 ? 4.0 : 2.0);
    const double base_share = base / mp / (st.zero_stage >= 3 ? dp : 1.0);
    // LoRA: PEFT keeps adapters in fp32 (autocast_adapter_dtype) and trains them as fp32
    // weights. QLoRA: the reference code (artidoro/qlora, qlora.py) casts adapters to bf16
    // and steps them with 32-bit paged AdamW: 2 + 2 bytes plus fp32 moments.
    StateBytesPerParam adapter_bytes = state_bytes_per_param(Precision::fp32, w.optimizer, m.hidden);
    if (w.task == Task::qlora) {
      adapter_bytes.weights = 2;
      adapter_bytes.gradients = 2;
    }
    const ShardedStates trained = shard(adapters, 0, adapter_bytes, device_count, st);
    memory.weights = Bytes(base_share + trained.weights);
    memory.gradients = Bytes(trained.gradients);
    memory.optimizer = Bytes(trained.optimizer);
    if (explain != nullptr) note(explain, "weights",
         w.task == Task::qlora ? "frozen base (linear × 4.127/8 + rest × 2) + adapters × 2 (bf16)"
                               : "frozen base × bytes + adapters × 4 (fp32)",
         "base " + number(base) + " bytes, adapters " + number(adapters) + " (rank " + number(w.lora_rank) + "), " +
             layout,
         memory.weights);
    if (explain != nullptr) note(explain, "gradients", "adapters × " + number(adapter_bytes.gradients) + " (only adapters are trained)",
         "adapters " + number(adapters),
         memory.gradients);
    if (explain != nullptr) note(explain, "optimizer", "adapters × optimizer bytes", "bytes/param " + number(adapter_bytes.optimizer()),
         memory.optimizer);
  } else {
    const StateBytesPerParam per_param = state_bytes_per_param(w.precision, w.optimizer, m.hidden, w.framework);
    const double experts = routed_expert_parameters(m);
    const ShardedStates states = shard(n, experts, per_param, device_count, st);
    memory.weights = Bytes(states.weights);
    const double cast_cache = autocast_cache_bytes(w) / mp;
    memory.weights += Bytes(cast_cache);
    memory.gradients = Bytes(states.gradients);
    // PyTorch DDP (framework hf, more than one replica) all-reduces through buckets that
    // copy the gradients unless gradient_as_bucket_view=True, which is not the default
    // (DDP docs: the view "can reduce peak memory usage ... equal to the total gradients
    // size"). Megatron's DDP keeps gradients in its buffer: no copy.
    const bool ddp_buckets = w.framework == Framework::hf && st.zero_stage == 0 && dp > 1;
    if (ddp_buckets) memory.gradients += Bytes(states.gradients);
    memory.optimizer = Bytes(states.optimizer);
    // The optimizer step can peak above the backward pass (framework hf): PyTorch's foreach
    // optimizers hold a tensor list of intermediates as large as the parameters while
    // the autocast copies and activations are already freed. Counted as what the step
    // needs beyond the backward peak, so that the total is the larger of the two.
    const double temporaries = foreach_temporary_bytes_per_param(w);
    double step_extra = 0;
    if (temporaries > 0) {
      const ShardedStates step = shard(n, experts, {0, 0, 0, temporaries}, device_count, st);
      step_extra = std::max(0.0, step.optimizer - cast_cache - training_activation_bytes(w, st).value);
    }
    memory.optimizer += Bytes(step_extra);
    const std::string params =
        explain == nullptr ? std::string()
                           : "N " + number(n) + (experts > 0 ? " (routed experts " + number(experts) + ")" : "");
    if (explain != nullptr) note(explain, "weights",
         "N × " + number(per_param.weights) + " / (t·p) [/ dp at ZeRO-3]" +
             (cast_cache > 0 ? " + autocast's 16-bit weight copies N × 2 / (t·p)" : ""),
         params + ", " + layout, memory.weights);
    if (explain != nullptr) note(explain, "gradients",
         "N × " + number(per_param.gradients) + " / (t·p) [/ dp at ZeRO-2+]" +
             (ddp_buckets ? " × 2 (DDP's all-reduce buckets copy them)" : ""),
         params + ", " + layout, memory.gradients);
    if (explain != nullptr) note(explain, "optimizer",
         "N × (" + number(per_param.master) + " master + " + number(per_param.states) +
             " states) / (t·p) [/ dp at ZeRO-1+]" +
             (step_extra > 0 ? " + foreach step temporaries beyond the backward peak: N × 4 − autocast copies − activations"
                             : ""),
         params + ", " + layout, memory.optimizer);
  }

  if (w.is_training()) {
    memory.activations = training_activation_bytes(w, st);
    const bool hf = w.framework == Framework::hf;
    if (explain != nullptr) note(explain, "activations",
         st.recompute == Recompute::full
             ? (hf ? "residual bytes × sbh × L (+ one layer live) + final norm + head input + 8sbV/t (fp32 loss)"
                   : "2sbh × L (+ one layer live) + sbh + 4sbh(1 + V/h)/t")
             : (hf ? "Σ layers: saved tensors of transformers under autocast (fp32 norms, 16-bit input casts, "
                     "q/k/v, attention, FFN) + final norm + head input + 8sbV/t (fp32 loss)"
                   : "Σ layers sbh-terms (Korthikanti Table 2, GQA/gated/MoE/flash) + sbh + 4sbh(1 + V/h)/t"),
         "s " + number(w.sequence_length) + ", b " + number(w.micro_batch) + ", h " + number(m.hidden) + ", a " +
             number(m.heads) + ", L " + number(m.layers) + ", V " + number(m.vocab) + ", attention " +
             std::string(to_string(w.attention)) + ", recompute " + std::string(to_string(st.recompute)),
         memory.activations);
  }

  if (st.offload != Offload::none && w.is_training()) {
    // ZeRO-Offload (Ren et al. 2021): optimizer states live and update on the CPU.
    memory.host = memory.optimizer;
    memory.optimizer = Bytes(0);
    if (st.offload == Offload::optimizer_and_params && st.zero_stage >= 3) {
      // ZeRO-Infinity: parameters stream from CPU; about two layers are resident.
      const double layers = std::max(1, m.layers + m.encoder_layers);
      const Bytes resident = memory.weights * (std::min(2.0, layers) / layers);
      memory.host += memory.weights - resident;
      memory.weights = resident;
    }
    if (explain != nullptr) note(explain, "host", "offloaded optimizer states (and parameters) per device", "offload " +
                                                                                      std::string(to_string(st.offload)),
         memory.host);
  }

  const Bytes margin = (memory.activations + memory.kv_cache) * w.allocator_margin;
  memory.overhead = w.overhead + margin;
  if (explain != nullptr) note(explain, "overhead", "framework overhead + allocator margin × (activations + kv_cache)",
       "overhead " + number(w.overhead.value) + " bytes, margin " + number(w.allocator_margin), memory.overhead);
  return memory;
}

}  // namespace mlsize
