#include <mlsize/memory.hpp>

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

int moe_layer_count(const Architecture& m) {
  if (!m.is_moe()) return 0;
  const int frequency = std::max(1, m.moe.layer_frequency);
  int count = 0;
  for (int layer = m.moe.first_dense_layers; layer < m.layers; ++layer) {
    if ((layer + m.moe.layer_offset) % frequency == 0) ++count;
  }
  return count;
}

// Activation bytes of one layer's pieces, split into the part tensor parallelism shards
// (`parallel`) and the part it replicates unless sequence parallelism is on.
struct LayerActivations {
  double replicated = 0;
  double parallel = 0;
  double attention_scores = 0;  // the s² part: dropped by flash attention or selective recompute
};

LayerActivations attention_block(const Workload& w, double s, double b) {
  const Architecture& m = w.model;
  const double h = m.hidden;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double kv = m.kv_dim();
  const double a = m.heads;
  LayerActivations act;
  // Korthikanti et al. 2022 §4.1: QKV input 2sbh and output-dropout mask sbh stay
  // replicated; Q 2sbq, K and V 2sb·kv each, attention output 2sbq are sharded by t.
  act.replicated = 2 * s * b * h + (m.hidden_dropout ? s * b * h : 0.0);
  act.parallel = 2 * s * b * q + 4 * s * b * kv + 2 * s * b * q;
  // Softmax output 2as²b, and with attention dropout its mask as²b and output 2as²b.
  act.attention_scores = (m.attention_dropout ? 5 : 2) * a * s * s * b;
  // Flash attention keeps only the fp32 log-sum-exp per row: 4asb.
  if (w.attention == Attention::flash) act.attention_scores = 4 * a * s * b;
  return act;
}

// Under PyTorch autocast with fp32 weights (framework hf), what transformers' modules
// keep for backward, counted from the tensors autograd saves (docs/methodology.md#frameworks):
// the residual stream is fp32, norms save fp32 tensors, and every linear layer keeps its
// own 16-bit copy of its input.
struct HfElementBytes {
  bool autocast = false;  // mixed precision: per-op casts of fp32 activations
  double element = 2;     // bytes of a linear or attention output
  double residual = 4;    // bytes of the residual stream
};

HfElementBytes hf_element_bytes(const Workload& w) {
  // LoRA and QLoRA load the frozen base in 16 bits (4-bit storage computes in bf16), so
  // the residual stream is 16-bit and inputs need no casts; adapters add only rank-wide tensors.
  if (w.is_adapter_tuning()) return {false, 2, 2};
  switch (w.precision) {
    case Precision::fp32: return {false, 4, 4};
    case Precision::bf16: return {false, 2, 2};
    case Precision::bf16_mixed:
    case Precision::fp16_mixed:
    case Precision::fp8_mixed: return {true, 2, 4};
  }
  return {true, 2, 4};
}

// One norm's saved tensors per sbh: RMSNorm (transformers' LlamaRMSNorm) upcasts its input to
// fp32 and keeps it and the normalised tensor; LayerNorm keeps its input, in fp32 under autocast.
double hf_norm_bytes(const Architecture& m, const HfElementBytes& e) {
  if (!m.norm_bias) return 4 + e.residual;
  return e.autocast ? 4 : e.residual;
}

LayerActivations hf_attention_block(const Workload& w, const HfElementBytes& e, double s, double b) {
  const Architecture& m = w.model;
  const double h = m.hidden;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double kv = m.kv_dim();
  const double a = m.heads;
  LayerActivations act;
  // The projections' saved input: one 16-bit cast per projection under autocast.
  const double inputs = e.autocast ? 2.0 * (m.fused_qkv ? 1 : 3) : e.residual;
  act.replicated = (inputs + (m.hidden_dropout ? 1 : 0)) * s * b * h;
  // Q (after RoPE), K and V; the output projection's input (a contiguous copy of the
  // attention output).
  act.parallel = e.element * s * b * (2 * q + 2 * kv);
  // Eager attention: the fp32 softmax output (transformers upcasts it), then either the
  // dropout mask and output or the 16-bit copy the value product keeps.
  const double after_softmax = m.attention_dropout ? 1 + e.element : (e.element == 4 ? 0 : e.element);
  act.attention_scores = (4 + after_softmax) * a * s * s * b;
  // SDPA with a fused kernel keeps its output and the log-sum-exp. PyTorch has no fused
  // kernel for fp32 with grouped KV heads: it runs the math path, which stores the scores
  // (measured on an H200: byte-identical peaks to eager, bench/results/).
  const bool math_fallback = w.precision == Precision::fp32 && m.kv_heads < m.heads;
  if (w.attention == Attention::flash && !math_fallback) act.attention_scores = e.element * s * b * q + 4 * a * s * b;
  return act;
}

// `per_width`: bytes kept per element of the FFN width; `replicated`: bytes per sbh of the
// input side (MLP input and output-dropout mask).
LayerActivations mlp_block(const Workload& w, double s, double b, bool moe_layer, double per_width,
                           double replicated) {
  const Architecture& m = w.model;
  const double h = m.hidden;
  LayerActivations act;
  act.replicated = replicated * s * b * h;
  if (!moe_layer) {
    act.parallel = per_width * s * b * m.intermediate;
    return act;
  }
  const double shared_width = m.moe.shared_intermediate > 0 ? m.moe.shared_intermediate : m.moe.expert_intermediate;
  // Each token visits top-k experts, so k expert widths of intermediates per token,
  // plus the shared experts and the fp32 router logits.
  act.parallel = per_width * s * b * (m.moe.experts_per_token * static_cast<double>(m.moe.expert_intermediate) +
                                      m.moe.shared_experts * shared_width) +
                 4 * s * b * m.moe.experts;
  return act;
}

double per_layer_bytes(const Workload& w, const Strategy& st, bool moe_layer, bool cross_attention) {
  const Architecture& m = w.model;
  const double s = w.sequence_length;
  const double b = w.micro_batch;
  const double h = m.hidden;
  const double t = st.tensor_parallel;
  const double mask = m.hidden_dropout ? 1 : 0;
  LayerActivations attention;
  LayerActivations mlp;
  double norms = 0;
  if (w.framework == Framework::hf) {
    const HfElementBytes e = hf_element_bytes(w);
    attention = hf_attention_block(w, e, s, b);
    // Gated: gate, act(gate), up and their product; standard: the activation's input and
    // output; a composite activation (NewGELU) keeps three more tensors of the FFN width.
    const double per_width = e.element * ((m.mlp == MlpKind::gated ? 4 : 2) + (m.composite_activation ? 3 : 0));
    const double projections = m.mlp == MlpKind::gated && !m.fused_gate_up ? 2 : 1;
    const double inputs = e.autocast ? 2.0 * projections : e.residual;
    mlp = mlp_block(w, s, b, moe_layer, per_width, inputs + mask);
    norms = m.norms_per_layer * hf_norm_bytes(m, e) * s * b * h;
  } else {
    attention = attention_block(w, s, b);
    // Standard MLP: activation input and output, 2sbI each (19sbh at I = 4h with the input
    // and mask). Gated: gate, up, act(gate) and their product, 2sbI each.
    mlp = mlp_block(w, s, b, moe_layer, m.mlp == MlpKind::gated ? 8.0 : 4.0, 2 + mask);
    norms = 4 * s * b * h;  // two norm inputs
  }
  double replicated = attention.replicated + mlp.replicated + norms;
  double parallel = attention.parallel + mlp.parallel;
  double scores = attention.attention_scores;
  if (cross_attention) {  // encoder-decoder: a second attention block per decoder layer
    replicated += attention.replicated;
    parallel += attention.parallel;
    scores += attention.attention_scores;
  }
  // Selective recomputation (Korthikanti §5) recomputes the attention core instead of storing it.
  if (st.recompute == Recompute::selective && w.attention == Attention::standard) scores = 0;
  parallel += scores;
  return st.sequence_parallel ? (replicated + parallel) / t : replicated + parallel / t;
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
  const bool mixed = precision == Precision::bf16_mixed || precision == Precision::fp16_mixed ||
                     precision == Precision::fp8_mixed;
  if (framework == Framework::hf && mixed) return {4, 4, 0, states};
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

namespace {

// Activation bytes of the busiest pipeline stage (megatron: at 16 bits per element).
double stage_activation_bytes(const Workload& w, const Strategy& st) {
  const Architecture& m = w.model;
  const double s = w.sequence_length;
  const double b = w.micro_batch;
  const double h = m.hidden;
  const double t = st.tensor_parallel;
  const double p = st.pipeline_parallel;
  const int moe_layers = moe_layer_count(m);
  const int dense_layers = m.layers - moe_layers;
  const bool encoder_decoder = m.encoder_layers > 0;

  const double dense = per_layer_bytes(w, st, false, encoder_decoder);
  const double moe = moe_layers > 0 ? per_layer_bytes(w, st, true, encoder_decoder) : 0.0;
  const double encoder = encoder_decoder ? per_layer_bytes(w, st, false, false) : 0.0;
  const double all_layers = dense_layers * dense + moe_layers * moe + m.encoder_layers * encoder;
  const double largest_layer = std::max({dense, moe, encoder});
  const double layer_count = m.layers + m.encoder_layers;

  // §4.3: input-embedding dropout mask sbh on the first stage; final norm, output
  // projection and fp32 logits for the loss, 4sbh(1 + v/h)/t, on the last.
  const double embedding = m.hidden_dropout ? s * b * h : 0.0;
  double output = 4 * s * b * h * (1 + m.vocab / h) / t;
  double checkpoint_bytes = 2;  // a layer's input under full recomputation, per sbh
  if (w.framework == Framework::hf) {
    // The final norm, the head's 16-bit input, and the loss: transformers upcasts the
    // logits and cross-entropy keeps the fp32 log-softmax, whose fp32 gradient is live
    // with it at the start of backward: 8sbV.
    const HfElementBytes e = hf_element_bytes(w);
    output = (hf_norm_bytes(m, e) + (e.autocast ? 2 : 0)) * s * b * h + 8 * s * b * m.vocab / t;
    checkpoint_bytes = e.residual;
  }
  // §4.2.3: with 1F1B pipelining the first stage holds p micro-batches of L/p layers, i.e.
  // all L layers' worth; the last stage holds one micro-batch of its L/p layers.
  double first_stage = 0;
  double last_stage = 0;
  if (st.recompute == Recompute::full) {
    // Table 2, full recomputation: only each layer's input, 2sbh (/t with SP), is kept;
    // during backward one layer is recomputed and live at a time.
    const double checkpoint = checkpoint_bytes * s * b * h / (st.sequence_parallel ? t : 1.0);
    first_stage = checkpoint * layer_count + largest_layer + embedding;
    last_stage = checkpoint * layer_count / p + largest_layer + output;
  } else {
    first_stage = all_layers + embedding;
    last_stage = all_layers / p + output;
  }
  if (p == 1) return first_stage + output;
  return std::max(first_stage, last_stage);
}

}  // namespace

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
  const bool mixed = w.precision == Precision::bf16_mixed || w.precision == Precision::fp16_mixed ||
                     w.precision == Precision::fp8_mixed;
  if (w.framework != Framework::hf || !mixed || !w.is_training() || w.is_adapter_tuning()) return 0;
  return 2.0 * w.parameters.total;
}

Bytes training_activation_bytes(const Workload& w, const Strategy& st) {
  // The megatron counts are for 16-bit activations (Korthikanti et al.); fp32 training
  // stores 4-byte activations, so twice as much (dropout masks slightly overcounted).
  // The hf counts carry their element sizes already.
  const double element_scale = w.precision == Precision::fp32 && w.framework == Framework::megatron ? 2.0 : 1.0;
  return Bytes(stage_activation_bytes(w, st) * element_scale);
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
    memory.optimizer = Bytes(states.optimizer);
    // The optimizer step can peak above the backward pass (framework hf): PyTorch's foreach
    // optimizers hold a tensor list of intermediates as large as the parameters while
    // the autocast copies and activations are already freed. Counted as what the step
    // needs beyond the backward peak, so that the total is the larger of the two.
    const ShardedStates step = shard(n, experts, {0, 0, 0, foreach_temporary_bytes_per_param(w)}, device_count, st);
    const double step_extra =
        std::max(0.0, step.optimizer - cast_cache - training_activation_bytes(w, st).value);
    memory.optimizer += Bytes(step_extra);
    const std::string params =
        explain == nullptr ? std::string()
                           : "N " + number(n) + (experts > 0 ? " (routed experts " + number(experts) + ")" : "");
    if (explain != nullptr) note(explain, "weights",
         "N × " + number(per_param.weights) + " / (t·p) [/ dp at ZeRO-3]" +
             (cast_cache > 0 ? " + autocast's 16-bit weight copies N × 2 / (t·p)" : ""),
         params + ", " + layout, memory.weights);
    if (explain != nullptr) note(explain, "gradients", "N × " + number(per_param.gradients) + " / (t·p) [/ dp at ZeRO-2+]",
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

std::string_view to_string(Offload offload) {
  switch (offload) {
    case Offload::none: return "none";
    case Offload::optimizer: return "optimizer";
    case Offload::optimizer_and_params: return "optimizer+params";
  }
  return "none";
}

std::optional<Offload> parse_offload(std::string_view text) {
  for (Offload offload : {Offload::none, Offload::optimizer, Offload::optimizer_and_params}) {
    if (to_string(offload) == text) return offload;
  }
  return std::nullopt;
}

}  // namespace mlsize
