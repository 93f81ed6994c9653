#pragma once
// The shape of a transformer, as far as parameter counts, memory and compute need it.

#include <optional>
#include <string>
#include <string_view>

namespace mlsize {

enum class MlpKind {
  standard,  // up and down projections (GPT-2, BERT, Falcon): 2 matrices
  gated,     // gate, up and down projections (SwiGLU/GeGLU: Llama, Mistral, T5 v1.1): 3 matrices
};

// Mixture of experts; `experts == 0` means a dense model.
struct MoeShape {
  int experts = 0;                  // routed experts per MoE layer
  int experts_per_token = 0;        // top-k
  int shared_experts = 0;           // always-active experts (DeepSeek: n_shared_experts)
  int expert_intermediate = 0;      // FFN width of one routed expert
  int shared_intermediate = 0;      // FFN width of one shared expert (0: same as expert_intermediate)
  bool shared_expert_gate = false;  // Qwen-MoE: a 1-output sigmoid gate on the shared expert
  int first_dense_layers = 0;       // DeepSeek: first_k_dense_replace
  int layer_frequency = 1;          // every n-th layer (after the dense ones) is an MoE layer
  int layer_offset = 0;             // layer i is MoE when (i + offset) % frequency == 0 (Qwen-MoE: 1)
  bool operator==(const MoeShape&) const = default;
};

// DeepSeek multi-head latent attention; present only for MLA models.
struct MlaShape {
  int kv_lora_rank = 0;  // compressed KV width cached per token
  int q_lora_rank = 0;   // 0: queries are not compressed
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;  // decoupled RoPE key, also cached per token
  int v_head_dim = 0;
  bool operator==(const MlaShape&) const = default;
};

struct Architecture {
  std::string name;    // "llama-2-7b", the config file name, or "estimated from --params"
  std::string family;  // model_type: llama, mistral, mixtral, gpt2, bert, t5, falcon, ...
  std::string source;  // where the shape came from (preset file, config path, heuristic)

  int layers = 0;          // L: decoder layers (the only stack for decoder-only or encoder-only)
  int encoder_layers = 0;  // > 0 only for encoder-decoder models (T5)
  int hidden = 0;          // h
  int heads = 0;           // a: query heads
  int kv_heads = 0;        // key/value heads (GQA/MQA); equals heads for MHA
  int head_dim = 0;        // may differ from hidden / heads (Gemma 2)
  int intermediate = 0;    // dense FFN width
  int vocab = 0;           // V
  MlpKind mlp = MlpKind::standard;
  bool tied_embeddings = true;         // input embedding shared with the output projection
  bool attention_bias = false;         // biases on q, k and v (Qwen2, GPT-2, BERT; Llama attention_bias)
  bool attention_output_bias = false;  // a bias on the output projection too (GPT-2, BERT; not Qwen2)
  bool mlp_bias = false;
  int learned_positions = 0;  // rows of a learned absolute position table (GPT-2, BERT)
  // Tokens of context the model takes (max_position_embeddings, n_positions); 0: unstated.
  int max_positions = 0;
  int token_types = 0;          // rows of a token-type (segment) table (BERT: 2)
  int norms_per_layer = 2;      // per decoder-only/encoder layer (Falcon-7B 1, Gemma 2 4); +1 for cross-attention
  bool norm_bias = false;       // LayerNorm with a bias (GPT-2, BERT, Falcon) rather than RMSNorm
  bool final_norm = true;       // a norm after the last layer, one per stack (not BERT: post-LN)
  bool embedding_norm = false;  // a norm right after the embeddings (BERT)
  bool pooler = false;          // BERT's pooler: a Linear h×h with bias on the first token
  int relative_attention_buckets = 0;  // T5: one buckets×heads bias table per stack
  int embedding_width = 0;             // OPT's word_embed_proj_dim when it differs from h (projected in and out); 0: h
  bool lm_head_bias = false;           // a bias on the output projection (GPT-J, Phi)
  int qk_norm_width = 0;  // per layer, the weights of the q and k norms (Qwen3, Gemma 3: 2·head_dim; OLMo-2: q + kv)
  bool attention_sinks = false;         // one learned logit per head and layer (gpt-oss)
  bool router_bias = false;             // a bias on the MoE router (gpt-oss)
  bool router_correction_bias = false;  // DeepSeek-V3's e_score_correction_bias, one per expert
  bool fused_experts = false;           // a layer's experts in one tensor per projection (gpt-oss)
  // How a pre-quantised checkpoint stores its weights (its quantization_config), as a
  // --quant name: "mxfp4", "fp8", "gptq", "awq", "nf4", "int8"; empty: as trained.
  std::string checkpoint_format;
  // What the activation count needs beyond the shape (docs/methodology.md#activations).
  bool hidden_dropout = true;         // dropout on the embeddings and each residual branch: masks are stored
  bool attention_dropout = true;      // dropout on the attention probabilities
  bool fused_qkv = false;             // one q/k/v projection (GPT-2 c_attn, Falcon, Phi-3) rather than three
  bool fused_gate_up = false;         // one gate/up projection (Phi-3 gate_up_proj)
  bool composite_activation = false;  // an activation written as several tensor ops (HF gelu_new, gelu_fast)
  std::optional<int> sliding_window;  // attention window in tokens, when every layer uses one
  MoeShape moe;
  std::optional<MlaShape> mla;

  bool is_moe() const { return moe.experts > 0; }
  int kv_dim() const { return kv_heads * head_dim; }
  bool operator==(const Architecture&) const = default;
};

// The name of a shape estimated from a parameter count (architecture_from_params).
inline constexpr std::string_view k_estimated_model_name = "estimated from --params";

// The shape of the released model whose parameter count is nearest to `params` on a log
// scale (GPT-3 under 1B; from 1B the Llama family: SwiGLU, grouped-query attention with 8
// KV heads from 34B, 32k-128k vocabularies; docs/methodology.md#model-shape), with the
// depth whose parameter count is nearest `params`. `source` names the model. Weights,
// gradients and optimizer states still use `params` itself.
Architecture architecture_from_params(double params);

// Layers that are MoE layers (after DeepSeek's first dense layers, every layer_frequency-th).
int moe_layer_count(const Architecture& model);

}  // namespace mlsize
