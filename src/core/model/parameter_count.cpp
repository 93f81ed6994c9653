#include <mlsize/model/parameter_count.hpp>

namespace mlsize {
namespace {

// Counts are doubles: exact up to 2^53 (9e15), far above any model's parameter count.
double as_count(int value) {
  return static_cast<double>(value);
}

// One norm's parameters: a weight vector, plus a bias for LayerNorm.
double norm_parameters(const Architecture& a, double width) {
  return width * (a.norm_bias ? 2.0 : 1.0);
}

// The parameters of one attention block, split into Linear weights and the rest.
struct Block {
  double linear = 0;  // Linear weight matrices (what QLoRA quantises)
  double other = 0;   // biases and norms inside the block
};

Block attention(const Architecture& a) {
  const double h = as_count(a.hidden);
  Block block;
  if (a.mla) {
    // DeepSeek-V2 (arXiv:2405.04434, §2.1.2; HF modeling_deepseek.py DeepseekV2Attention):
    // q_proj (or q_a_proj + q_a_layernorm + q_b_proj), kv_a_proj_with_mqa, kv_a_layernorm,
    // kv_b_proj and o_proj. Attention biases under MLA are not modelled.
    const MlaShape& m = *a.mla;
    const double heads = as_count(a.heads);
    const double q_width = heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    if (m.q_lora_rank > 0) {
      block.linear += h * m.q_lora_rank + as_count(m.q_lora_rank) * q_width;
      block.other += norm_parameters(a, m.q_lora_rank);
    } else {
      block.linear += h * q_width;
    }
    block.linear += h * (m.kv_lora_rank + m.qk_rope_head_dim);
    block.other += norm_parameters(a, m.kv_lora_rank);
    block.linear += as_count(m.kv_lora_rank) * heads * (m.qk_nope_head_dim + m.v_head_dim);
    block.linear += heads * m.v_head_dim * h;
    return block;
  }
  // q and o are h × heads·d; k and v are h × kv_heads·d (GQA; MQA when kv_heads is 1).
  // Falcon's fused QKV, h × (heads + 2·kv_heads)·d, is the same count.
  const double q_width = as_count(a.heads) * a.head_dim;
  const double kv_width = as_count(a.kv_heads) * a.head_dim;
  block.linear = 2.0 * h * q_width + 2.0 * h * kv_width;
  if (a.attention_bias) block.other += q_width + 2.0 * kv_width;
  if (a.attention_output_bias) block.other += h;
  return block;
}

// One feed-forward network of width `width`: 3 matrices when gated, 2 otherwise.
Block mlp(const Architecture& a, int width) {
  const double h = as_count(a.hidden);
  const double matrices = a.mlp == MlpKind::gated ? 3.0 : 2.0;
  Block block;
  block.linear = matrices * h * width;
  if (a.mlp_bias) block.other = (matrices - 1.0) * width + h;
  return block;
}

// Whether decoder layer `index` (0-based) holds experts. Conventions differ by family:
// DeepSeek `layer_idx >= first_k_dense_replace and layer_idx % moe_layer_freq == 0`,
// Qwen-MoE `(layer_idx + 1) % decoder_sparse_step == 0` (layer_offset 1).
bool is_moe_layer(const Architecture& a, int index) {
  if (!a.is_moe() || index < a.moe.first_dense_layers) return false;
  const int frequency = a.moe.layer_frequency > 0 ? a.moe.layer_frequency : 1;
  return (index + a.moe.layer_offset) % frequency == 0;
}

struct Layer {
  Block block;
  double inactive = 0;  // routed experts a token does not use
};

// One decoder-only (or encoder, or decoder-of-encoder-decoder) layer.
Layer layer(const Architecture& a, int index, bool cross_attention) {
  const double h = as_count(a.hidden);
  Layer result;
  Block& block = result.block;
  const Block self = attention(a);
  block.linear += self.linear;
  block.other += self.other;
  int norms = a.norms_per_layer;
  if (cross_attention) {
    // T5 decoder: cross-attention has the self-attention's shape, plus its own norm.
    block.linear += self.linear;
    block.other += self.other;
    ++norms;
  }
  block.other += norms * norm_parameters(a, h);
  // Qwen3 and Gemma 3 normalise each head's q and k (RMSNorm weights of head_dim), OLMo-2
  // the whole q and k; gpt-oss learns one attention-sink logit per head.
  block.other += a.qk_norm_width;
  if (a.attention_sinks) block.other += a.heads;
  if (!is_moe_layer(a, index)) {
    const Block dense = mlp(a, a.intermediate);
    block.linear += dense.linear;
    block.other += dense.other;
    return result;
  }
  const MoeShape& moe = a.moe;
  const Block expert = mlp(a, moe.expert_intermediate);
  const double experts = as_count(moe.experts);
  block.linear += experts * expert.linear;
  block.other += experts * expert.other;
  result.inactive = (experts - moe.experts_per_token) * (expert.linear + expert.other);
  if (moe.shared_experts > 0) {
    const int width = moe.shared_intermediate > 0 ? moe.shared_intermediate : moe.expert_intermediate;
    const Block shared = mlp(a, width);
    block.linear += moe.shared_experts * shared.linear;
    block.other += moe.shared_experts * shared.other;
  }
  // The router is h × experts (gpt-oss: with a bias; DeepSeek-V3: a correction bias that
  // steers top-k selection); Qwen-MoE's shared-expert gate is h × 1.
  block.other += h * experts;
  if (a.router_bias) block.other += experts;
  if (a.router_correction_bias) block.other += experts;
  if (moe.shared_expert_gate) block.other += h;
  return result;
}

}  // namespace

ParameterCount count_parameters(const Architecture& a) {
  const double h = as_count(a.hidden);
  ParameterCount count;
  // OPT-350m embeds tokens at word_embed_proj_dim and projects in and out of h (no biases).
  const double token_width = a.embedding_width > 0 ? as_count(a.embedding_width) : h;
  count.embedding = as_count(a.vocab) * token_width + (as_count(a.learned_positions) + a.token_types) * h;
  double total = count.embedding;
  if (a.embedding_width > 0 && a.embedding_width != a.hidden) total += 2.0 * token_width * h;
  double inactive = 0;
  if (a.embedding_norm) total += norm_parameters(a, h);

  const bool encoder_decoder = a.encoder_layers > 0;
  const int stacks = encoder_decoder ? 2 : 1;
  for (int i = 0; i < a.encoder_layers; ++i) {
    const Layer encoder = layer(a, i, false);
    count.linear += encoder.block.linear;
    total += encoder.block.linear + encoder.block.other;
  }
  for (int i = 0; i < a.layers; ++i) {
    const Layer decoder = layer(a, i, encoder_decoder);
    count.linear += decoder.block.linear;
    total += decoder.block.linear + decoder.block.other;
    inactive += decoder.inactive;
  }
  // T5 (Raffel et al. 2020, §2.1): one relative-position bias per stack, in its first layer.
  total += stacks * as_count(a.relative_attention_buckets) * a.heads;
  if (a.final_norm) total += stacks * norm_parameters(a, h);
  if (a.pooler) total += h * h + h;
  if (!a.tied_embeddings) total += as_count(a.vocab) * token_width;
  if (a.lm_head_bias) total += as_count(a.vocab);

  count.total = total;
  count.active = total - inactive;
  return count;
}

}  // namespace mlsize
