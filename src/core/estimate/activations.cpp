#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/vision.hpp>

#include <algorithm>

// Activation memory of training: the Korthikanti et al. count (framework megatron) and
// what transformers keeps under torch.autocast (framework hf).
// Formulas and sources: docs/methodology.md#activations and #frameworks.

namespace mlsize {
namespace {

// Activation bytes of one layer's pieces, split into the part tensor parallelism shards
// (`parallel`) and the part it replicates unless sequence parallelism is on.
struct LayerActivations {
  double replicated = 0;
  double parallel = 0;
  double attention_scores = 0;  // the s² part: dropped by flash attention or selective recompute
};

// The attention block's widths: hidden h, query q = heads × head_dim, key/value kv (GQA:
// kv_heads × head_dim) and the head count a.
struct AttentionWidths {
  double h, q, kv, a;
};
AttentionWidths attention_widths(const Architecture& m) {
  return {static_cast<double>(m.hidden), static_cast<double>(m.heads) * m.head_dim, static_cast<double>(m.kv_dim()),
          static_cast<double>(m.heads)};
}

LayerActivations attention_block(const Workload& w, double s, double b) {
  const Architecture& m = w.model;
  const auto [h, q, kv, a] = attention_widths(m);
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
  const auto [h, q, kv, a] = attention_widths(m);
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
LayerActivations mlp_block(const Workload& w, double s, double b, bool moe_layer, double per_width, double replicated) {
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
  act.parallel = per_width * s * b *
                     (m.moe.experts_per_token * static_cast<double>(m.moe.expert_intermediate) +
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
    // and mask). Gated: Megatron's fused SwiGLU (megatron/core/fusions/fused_bias_swiglu.py)
    // saves only its 2I-wide input, 4sbI, and recomputes the product; the second linear
    // keeps its I-wide input, 2sbI: 6sbI.
    mlp = mlp_block(w, s, b, moe_layer, m.mlp == MlpKind::gated ? 6.0 : 4.0, 2 + mask);
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

Bytes training_activation_bytes(const Workload& w, const Strategy& st) {
  if (w.vision) return vision_activation_bytes(w, st);
  if (w.diffusion) return diffusion_activation_bytes(w, st);
  if (w.speech) return speech_activation_bytes(w, st);
  // The megatron counts are for 16-bit activations (Korthikanti et al.); fp32 training
  // stores 4-byte activations, so twice as much (dropout masks slightly overcounted).
  // The hf counts carry their element sizes already.
  const double element_scale = w.precision == Precision::fp32 && w.framework != Framework::hf ? 2.0 : 1.0;
  return Bytes(stage_activation_bytes(w, st) * element_scale);
}

}  // namespace mlsize
