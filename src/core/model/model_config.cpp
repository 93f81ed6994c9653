#include <mlsize/model/model_config.hpp>
#include <mlsize/model/vision.hpp>

#include "core/model/config_reader.hpp"
#include "core/model/diffusion_config.hpp"
#include "core/model/speech_config.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <span>
#include <utility>
#include <variant>

namespace mlsize {
namespace {

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The model types read with their own rules below; any other is read as a llama-like decoder.
constexpr std::array<std::string_view, 34> k_known_families{"llama",       "mistral",
                                                            "mixtral",     "qwen2",
                                                            "qwen2_moe",   "qwen3",
                                                            "qwen3_moe",   "qwen",
                                                            "gemma",       "gemma2",
                                                            "gemma3",      "gemma3_text",
                                                            "phi3",        "phi",
                                                            "phi-msft",    "mixformer-sequential",
                                                            "deepseek_v2", "deepseek_v3",
                                                            "kimi_k2",     "gpt_oss",
                                                            "gpt2",        "gptj",
                                                            "gpt_neox",    "opt",
                                                            "bloom",       "chatglm",
                                                            "bert",        "roberta",
                                                            "falcon",      "RefinedWebModel",
                                                            "RefinedWeb",  "t5",
                                                            "mt5",         "smollm3"};

// SwiGLU/GeGLU families: gate, up and down projections.
constexpr std::array<std::string_view, 19> k_gated_families{
    "llama",       "mistral", "mixtral", "qwen2",   "qwen2_moe",   "qwen3", "qwen3_moe",
    "qwen",        "gemma",   "gemma2",  "gemma3",  "gemma3_text", "phi3",  "deepseek_v2",
    "deepseek_v3", "kimi_k2", "gpt_oss", "chatglm", "smollm3"};

// Config classes whose `tie_word_embeddings` defaults to false (LlamaConfig, MistralConfig,
// MixtralConfig, Qwen2/Qwen2Moe/Qwen3/Qwen3Moe, QWenConfig, Phi3Config, PhiConfig,
// DeepseekV2/V3, GPTJConfig, GPTNeoXConfig, GptOssConfig, ChatGLMConfig, MT5Config). Every
// other class keeps the PretrainedConfig default, true (GPT-2, BERT, Falcon, Gemma 1-3,
// OPT, BLOOM, T5, and unknown types).
constexpr std::array<std::string_view, 20> k_untied_by_default{
    "llama",       "mistral",     "mixtral", "qwen2", "qwen2_moe", "qwen3",
    "qwen3_moe",   "qwen",        "phi3",    "phi",   "phi-msft",  "mixformer-sequential",
    "deepseek_v2", "deepseek_v3", "kimi_k2", "gptj",  "gpt_neox",  "gpt_oss",
    "chatglm",     "mt5"};

bool is_falcon(const Architecture& a) {
  return a.family == "falcon" || a.family.starts_with("RefinedWeb");
}

// Falcon's 40B/180B layout: grouped KV heads and two norms per layer. FalconConfig says
// so with new_decoder_architecture; the 2023 remote-code configs by model_type:
// RefinedWeb (40B) has it, RefinedWebModel (7B) does not.
bool falcon_new_architecture(const ConfigReader& config, const Architecture& a) {
  return config.flag("new_decoder_architecture").value_or(a.family == "RefinedWeb");
}

// GPT-2, BERT and Falcon: LayerNorm with biases, and (GPT-2, BERT) biases on every Linear.
void read_layer_norm_family(const ConfigReader& config, Architecture& a, bool all_biases) {
  a.norm_bias = true;
  a.attention_bias = a.attention_output_bias = a.mlp_bias = all_biases;
  if (a.family == "gpt2") {
    // Radford et al. 2019: a learned position table of n_positions rows (GPT2Config default 1024).
    a.learned_positions = config.count({"n_positions", "max_position_embeddings"}).value_or(1024);
  } else if (a.family == "bert" || a.family == "roberta") {
    // BertModel (Devlin et al. 2018, §3): position and token-type tables, a LayerNorm on the
    // embeddings, post-LN layers (no final norm) and a pooler; defaults as in BertConfig.
    a.learned_positions = config.count({"max_position_embeddings"}).value_or(512);
    a.token_types = config.count({"type_vocab_size"}, 0).value_or(2);
    a.embedding_norm = a.pooler = true;
    a.final_norm = false;
  } else if (is_falcon(a)) {
    // Falcon (HF FalconConfig / RWConfig): `bias` on every Linear; one LayerNorm per layer
    // with parallel attention (7B), two for the new decoder architecture (40B, 180B).
    const bool bias = config.flag("bias").value_or(false);
    a.attention_bias = a.attention_output_bias = a.mlp_bias = bias;
    const bool parallel = config.flag("parallel_attn").value_or(true);
    a.norms_per_layer = falcon_new_architecture(config, a) ? config.count({"num_ln_in_parallel_attn"}).value_or(2)
                        : parallel                         ? 1
                                                           : 2;
  } else if (a.family == "opt") {
    // OPTDecoder (Zhang et al. 2022): learned positions with 2 extra rows (the offset of
    // OPTLearnedPositionalEmbedding), biases on every Linear (enable_bias), a final norm
    // only with pre-LN (do_layer_norm_before; OPT-350m is post-LN), and OPT-350m's
    // word_embed_proj_dim embedding projected in and out of the width.
    a.learned_positions = config.count({"max_position_embeddings"}).value_or(2048) + 2;
    const bool bias = config.flag("enable_bias").value_or(true);
    a.attention_bias = a.attention_output_bias = a.mlp_bias = bias;
    a.final_norm =
        config.flag("do_layer_norm_before").value_or(true) && !config.flag("_remove_final_layer_norm").value_or(false);
    if (const std::optional<int> width = config.count({"word_embed_proj_dim"}); width && *width != a.hidden) {
      a.embedding_width = *width;
    }
  } else if (a.family == "gptj" || a.family == "phi" || a.family == "phi-msft" || a.family == "mixformer-sequential") {
    // GPT-J and Phi-1/1.5/2: attention and MLP in parallel after one LayerNorm, a biased
    // output head. GPT-J's q, k, v and out projections have no bias; Phi's have.
    a.norms_per_layer = 1;
    a.lm_head_bias = true;
    a.attention_bias = a.attention_output_bias = a.family != "gptj";
  } else if (a.family == "gpt_neox") {
    // GPTNeoXLayer: fused QKV and the dense output with biases (attention_bias, default
    // true), a biased MLP, two LayerNorms per layer (Pythia: Biderman et al. 2023).
    a.attention_bias = a.attention_output_bias = config.flag("attention_bias").value_or(true);
  } else if (a.family == "bloom") {
    // BloomModel (BigScience 2022): ALiBi, no position table; a LayerNorm on the embeddings.
    a.embedding_norm = true;
  }
}

// What the activation count needs beyond the shape: dropout (masks are stored only where
// it is on), fused projections and composite activations (docs/methodology.md#activations).
void read_activation_traits(const ConfigReader& config, Architecture& a, const std::string& activation) {
  // Class defaults when a key is absent: GPT2Config and BertConfig 0.1, T5Config 0.1;
  // the others (Llama, Mistral, Qwen2, Gemma, Phi-3, Falcon, DeepSeek) 0.0.
  const bool dropout_by_default = a.family == "gpt2" || a.family == "bert" || a.family == "roberta" ||
                                  a.family == "t5" || a.family == "mt5" || a.family == "opt";
  const double default_rate = dropout_by_default ? 0.1 : 0.0;
  a.hidden_dropout =
      config.probability({"resid_pdrop", "hidden_dropout_prob", "hidden_dropout", "dropout_rate", "dropout"})
          .value_or(default_rate) > 0;
  a.attention_dropout =
      config.probability({"attn_pdrop", "attention_probs_dropout_prob", "attention_dropout", "dropout_rate"})
          .value_or(default_rate) > 0;
  // GPT-2 c_attn, Falcon query_key_value, Phi-3 qkv_proj and gate_up_proj.
  a.fused_qkv = a.family == "gpt2" || a.family == "phi3" || is_falcon(a) || a.family == "gpt_neox" ||
                a.family == "bloom" || a.family == "qwen" || a.family == "chatglm" ||
                a.family == "mixformer-sequential";
  a.fused_gate_up = a.family == "phi3" || a.family == "chatglm" || a.family == "gpt_oss";
  // transformers' activations.py writes these as chains of tensor ops, each keeping its
  // inputs for backward; "gelu", "gelu_pytorch_tanh", "silu" and "relu" are single kernels.
  constexpr std::array<std::string_view, 5> composite{"gelu_new", "gelu_fast", "gelu_python", "gelu_accurate",
                                                      "quick_gelu"};
  a.composite_activation = contains(composite, activation) ||
                           (a.family == "t5" && config.text("feed_forward_proj") == "gated-gelu") ||
                           (a.family == "mt5" && config.text("feed_forward_proj").find("relu") == std::string::npos);
}

int read_kv_heads(const ConfigReader& config, const Architecture& a) {
  if (is_falcon(a)) {
    // FalconConfig: num_kv_heads only with the new decoder architecture, else multi_query
    // (default true in FalconConfig, false in the 2023 RWConfig) means one KV head.
    if (falcon_new_architecture(config, a)) return config.count({"num_kv_heads", "n_head_kv"}).value_or(a.heads);
    return config.flag("multi_query").value_or(a.family == "falcon") ? 1 : a.heads;
  }
  if (a.family == "chatglm") {
    // ChatGLM2/3 (THUDM modeling_chatglm.py): multi_query_group_num KV groups when
    // multi_query_attention is on.
    return config.flag("multi_query_attention").value_or(false) ? config.count({"multi_query_group_num"}).value_or(1)
                                                                : a.heads;
  }
  if (const std::optional<int> kv = config.count({"num_key_value_heads", "num_kv_heads", "n_head_kv"})) return *kv;
  // GPT-BigCode-style multi-query attention; absent num_key_value_heads means MHA.
  return config.flag("multi_query").value_or(false) ? 1 : a.heads;
}

void read_moe(const ConfigReader& config, Architecture& a) {
  MoeShape& moe = a.moe;
  moe.experts = config.count({"num_local_experts", "num_experts", "n_routed_experts"}, 0).value_or(0);
  if (moe.experts == 0) return;
  moe.experts_per_token = config.required({"num_experts_per_tok"}, "experts used per token");
  if (moe.experts_per_token > moe.experts) {
    config.fail("num_experts_per_tok",
                "\"num_experts_per_tok\" (" + std::to_string(moe.experts_per_token) +
                    ") is more than the number of experts (" + std::to_string(moe.experts) + ")",
                "top-k routing picks at most every expert");
  }
  // Mixtral's experts have intermediate_size; Qwen-MoE and DeepSeek name their own width.
  moe.expert_intermediate = config.count({"moe_intermediate_size"}).value_or(a.intermediate);
  // DeepSeek: n_shared_experts of the routed width; Qwen-MoE: one shared expert of
  // shared_expert_intermediate_size behind a sigmoid gate.
  moe.shared_experts = config.count({"n_shared_experts"}, 0).value_or(0);
  if (const std::optional<int> shared = config.count({"shared_expert_intermediate_size"}, 0); shared && *shared > 0) {
    moe.shared_experts = 1;
    moe.shared_intermediate = *shared;
    moe.shared_expert_gate = true;
  }
  moe.first_dense_layers = config.count({"first_k_dense_replace"}, 0).value_or(0);
  if (const std::optional<int> step = config.count({"decoder_sparse_step"})) {
    moe.layer_frequency = *step;
    moe.layer_offset = 1;
  } else {
    moe.layer_frequency = config.count({"moe_layer_freq"}).value_or(1);
  }
}

void read_mla(const ConfigReader& config, Architecture& a) {
  if (!config.has({"kv_lora_rank"})) return;
  MlaShape mla;
  mla.kv_lora_rank = *config.count({"kv_lora_rank"});
  // An absent q_lora_rank takes DeepseekV2Config's default 1536; null means uncompressed
  // queries (V2-Lite, per the DeepSeek-V2 paper).
  const bool absent = !config.root().contains("q_lora_rank");
  mla.q_lora_rank = absent ? 1536 : config.count({"q_lora_rank"}).value_or(0);
  mla.qk_nope_head_dim = config.required({"qk_nope_head_dim"}, "query/key width per head without RoPE");
  mla.qk_rope_head_dim = config.required({"qk_rope_head_dim"}, "decoupled RoPE key width");
  mla.v_head_dim = config.required({"v_head_dim"}, "value width per head");
  a.head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim;  // the query/key head width
  a.mla = mla;
}

// A window on every layer caps the KV cache; a window on only some layers does not.
std::optional<int> read_sliding_window(const ConfigReader& config, const Architecture& a) {
  const std::optional<int> window = config.count({"sliding_window"});
  if (!window || config.flag("use_sliding_window") == false) return std::nullopt;
  // Gemma 2 and 3 alternate local and global layers (arXiv:2408.00118, §2): no full-model window.
  if (a.family == "gemma2" || a.family == "gemma3" || a.family == "gemma3_text") return std::nullopt;
  // Qwen2: the first max_window_layers layers (default 28) use full attention.
  if ((a.family.starts_with("qwen2") || config.has({"max_window_layers"})) &&
      config.count({"max_window_layers"}, 0).value_or(28) > 0) {
    return std::nullopt;
  }
  const auto types = config.root().find("layer_types");
  if (types != config.root().end() && types->is_array()) {
    for (const Json& type : *types) {
      if (type != "sliding_attention") return std::nullopt;
    }
  }
  return window;
}

// Width, depth, heads, vocabulary and the feed-forward width, with the checks that keep
// them consistent (head_dim × heads, key/value heads dividing the heads).
void read_dimensions(const ConfigReader& config, Architecture& a) {
  // BLOOM's legacy configs say n_embed.
  a.hidden = config.required({"hidden_size", "n_embd", "d_model", "n_embed"}, "the model width");
  a.layers = config.required({"num_hidden_layers", "n_layer", "num_layers"}, "the number of layers");
  a.heads = config.required({"num_attention_heads", "n_head", "num_heads"}, "the number of attention heads");
  // QWen and ChatGLM pad their vocabulary; the padded size is the embedding's.
  a.vocab = config.has({"padded_vocab_size"}) ? *config.count({"padded_vocab_size"})
                                              : config.required({"vocab_size"}, "the vocabulary size");
  // GPT-2, GPT-J and Phi-1/2 (n_inner absent or null), Falcon (no ffn_hidden_size) and
  // BLOOM (no such key: always 4h) use 4h.
  const bool four_h_default = a.family == "gpt2" || a.family == "gptj" || a.family == "mixformer-sequential" ||
                              a.family == "phi-msft" || a.family == "bloom" || is_falcon(a);
  const ConfigReader::Keys intermediate_keys{"intermediate_size", "n_inner", "d_ff", "ffn_hidden_size", "ffn_dim"};
  a.intermediate = four_h_default ? config.count(intermediate_keys).value_or(4 * a.hidden)
                                  : config.required(intermediate_keys, "the feed-forward width");
  // QWen (v1) splits intermediate_size between its two input projections
  // (QWenMLP: ff_dim_in = intermediate_size // 2).
  if (a.family == "qwen") a.intermediate /= 2;
  if (const std::optional<int> head_dim = config.count({"head_dim", "d_kv", "kv_channels"})) {
    a.head_dim = *head_dim;
  } else if (a.hidden % a.heads != 0) {
    config.fail("num_attention_heads",
                "the width " + std::to_string(a.hidden) + " is not a multiple of the " + std::to_string(a.heads) +
                    " attention heads",
                "give \"head_dim\" when the head width is not hidden_size / num_attention_heads");
  } else {
    a.head_dim = a.hidden / a.heads;
  }
  a.kv_heads = read_kv_heads(config, a);
  if (a.kv_heads > a.heads || a.heads % a.kv_heads != 0) {
    config.fail("num_key_value_heads",
                "the " + std::to_string(a.kv_heads) + " key/value heads do not divide the " + std::to_string(a.heads) +
                    " attention heads",
                "grouped-query attention shares each key/value head among an equal number of query heads");
  }
  if (static_cast<double>(a.heads) * a.head_dim > k_max_config_dimension) {
    config.fail("head_dim", "the attention width (heads x head_dim) is above the limit of 10000000");
  }
}

// Gated (SwiGLU, GeGLU: 3 matrices) or plain MLP: T5 from feed_forward_proj, known
// families from their code, others from the activation's name (noted in the source).
MlpKind read_mlp_kind(const ConfigReader& config, const Architecture& a, bool t5, bool known,
                      const std::string& activation, std::vector<std::string>& notes) {
  if (t5) {
    // T5 v1.1 and Flan-T5 use "gated-gelu" (3 FFN matrices); the original T5 "relu"; mT5 defaults to gated.
    const std::string projection = config.text("feed_forward_proj");
    const bool gated = projection.empty() ? a.family == "mt5" : projection.starts_with("gated-");
    return gated ? MlpKind::gated : MlpKind::standard;
  }
  if (known) return contains(k_gated_families, a.family) ? MlpKind::gated : MlpKind::standard;
  const bool plain = activation.find("gelu") != std::string::npos || activation.find("relu") != std::string::npos;
  if (plain) notes.push_back("hidden_act " + in_quotes(activation) + ": read as a plain (non-gated) MLP");
  return plain ? MlpKind::standard : MlpKind::gated;
}

// Norms and biases each family's code has, and T5's encoder-decoder layers.
void read_family_layout(const ConfigReader& config, Architecture& a, bool t5) {
  constexpr std::array<std::string_view, 11> all_biases{"gpt2",     "bert",  "roberta",  "opt",
                                                        "gptj",     "phi",   "phi-msft", "mixformer-sequential",
                                                        "gpt_neox", "bloom", "falcon"};
  if (contains(all_biases, a.family) || is_falcon(a)) read_layer_norm_family(config, a, !is_falcon(a));
  // q/k/v biases only: Qwen2Attention, QWen's c_attn, ChatGLM's add_qkv_bias.
  if (a.family == "qwen2" || a.family == "qwen2_moe" || a.family == "qwen") a.attention_bias = true;
  if (a.family == "chatglm") {
    a.attention_bias = config.flag("add_qkv_bias").value_or(false);
    a.attention_output_bias = a.mlp_bias = config.flag("add_bias_linear").value_or(false);
    a.final_norm = config.flag("post_layer_norm").value_or(true);
  }
  // Gemma 2 and 3: pre- and post-norms around attention and MLP.
  if (a.family == "gemma2" || a.family == "gemma3" || a.family == "gemma3_text") a.norms_per_layer = 4;
  // Per-head RMSNorm of q and k (Qwen3Attention, Gemma3Attention).
  if (a.family == "qwen3" || a.family == "qwen3_moe" || a.family == "gemma3" || a.family == "gemma3_text") {
    a.qk_norm_width = 2 * a.head_dim;
  }
  if (a.family == "gpt_oss") {
    // GptOss (OpenAI 2025, gpt-oss model card): biased experts and router, a learned
    // attention sink per head.
    a.mlp_bias = a.router_bias = a.attention_sinks = true;
    a.fused_experts = true;  // gate_up_proj [experts, h, 2I] and down_proj, one tensor each
  }
  // DeepSeek-V3's auxiliary-loss-free balancing keeps a per-expert correction bias.
  if (config.text("topk_method") == "noaux_tc") a.router_correction_bias = true;
  if (config.flag("attention_bias") == true) a.attention_bias = a.attention_output_bias = true;  // LlamaAttention
  if (config.flag("mlp_bias") == true) a.mlp_bias = true;
  if (t5) {
    a.encoder_layers = a.layers;
    a.layers = config.count({"num_decoder_layers"}).value_or(a.encoder_layers);
    a.relative_attention_buckets = config.count({"relative_attention_num_buckets"}).value_or(32);
  }
}

// A pre-quantised checkpoint's format, from its quantization_config (transformers'
// quantizers: quant_method and, for bitsandbytes, load_in_4bit / load_in_8bit).
void read_checkpoint_format(const ConfigReader& config, Architecture& a, std::vector<std::string>& notes) {
  const auto found = config.root().find("quantization_config");
  if (found == config.root().end() || !found->is_object()) return;
  const auto text = [&](const char* key) {
    const auto value = found->find(key);
    return value != found->end() && value->is_string() ? value->get<std::string>() : std::string();
  };
  const auto on = [&](const char* key) {
    const auto value = found->find(key);
    return value != found->end() && value->is_boolean() && value->get<bool>();
  };
  const std::string method = text("quant_method");
  if (method == "mxfp4" || method == "gptq" || method == "awq") {
    a.checkpoint_format = method;
  } else if (method == "fp8" || method == "fbgemm_fp8") {
    a.checkpoint_format = "fp8";
  } else if (method == "bitsandbytes") {
    a.checkpoint_format = on("load_in_4bit") ? "nf4" : on("load_in_8bit") ? "int8" : "";
  }
  if (a.checkpoint_format.empty() && !method.empty()) {
    notes.push_back("quantization_config " + in_quotes(escape_unprintable(method)) +
                    " not read: weights sized as trained unless --quant says otherwise");
  }
}

// Model types whose layers are no transformer blocks mlsize can count: what each is. The
// hybrids' names are transformers' model types (Zamba2Config, NemotronHConfig, FalconH1Config,
// BambaConfig, GraniteMoeHybridConfig).
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> k_unsupported{{
    {"mamba", "a state-space model (Mamba)"},
    {"mamba2", "a state-space model (Mamba-2)"},
    {"falcon_mamba", "a state-space model (Falcon Mamba)"},
    {"jamba", "a hybrid of state-space and attention layers (Jamba)"},
    {"zamba", "a hybrid of state-space and attention layers (Zamba)"},
    {"zamba2", "a hybrid of state-space and attention layers (Zamba2)"},
    {"nemotron_h", "a hybrid of state-space and attention layers (Nemotron-H)"},
    {"falcon_h1", "a hybrid of state-space and attention layers (Falcon-H1)"},
    {"bamba", "a hybrid of state-space and attention layers (Bamba)"},
    {"granitemoehybrid", "a hybrid of state-space and attention layers (Granite 4.0)"},
    {"hymba", "a hybrid of state-space and attention heads (Hymba)"},
    {"rwkv", "a recurrent model (RWKV)"},
    {"wav2vec2", "a speech encoder (wav2vec 2.0)"},
    {"hubert", "a speech encoder (HuBERT)"},
    {"speech_to_text", "a speech encoder-decoder"},
    {"seamless_m4t", "a speech and text translation model"},
}};

Architecture read_architecture(const ConfigReader& config, std::string_view source_name) {
  Architecture a;
  a.family = config.text("model_type");
  for (const auto& [type, what] : k_unsupported) {
    if (a.family == type) {
      config.fail("model_type", "model_type " + in_quotes(a.family) + " is " + std::string(what) + ": not supported",
                  "mlsize sizes transformer decoders, encoders and T5-style encoder-decoders; give --params for a "
                  "rough size");
    }
  }
  // A model type of no name above with state-space layers all the same (a newer hybrid): its
  // transformer fields would size only the attention part.
  constexpr std::array<std::string_view, 8> k_state_space_keys{
      "layers_block_type", "hybrid_override_pattern", "mamba_d_state", "mamba_d_ssm", "ssm_state_size",
      "mamba_expand",      "attn_layer_indices",      "ssm_cfg"};
  for (std::string_view key : k_state_space_keys) {
    if (config.has({key})) {
      config.fail(key,
                  "model_type " + in_quotes(a.family) + " has state-space layers (" + in_quotes(key) +
                      "): a hybrid of state-space and attention layers, not supported",
                  "mlsize sizes transformer decoders, encoders and T5-style encoder-decoders; give --params for a "
                  "rough size");
    }
  }
  const bool known = contains(k_known_families, a.family);
  const bool t5 = a.family == "t5" || a.family == "mt5";
  std::vector<std::string> notes;
  if (!t5 && config.flag("is_encoder_decoder") == true) {
    config.fail("is_encoder_decoder", "encoder-decoder model_type " + in_quotes(a.family) + " is not supported",
                "only T5-style (t5, mt5) encoder-decoder configs are read");
  }
  if (!known) {
    std::string note = a.family.empty() ? std::string("no model_type") : "unknown model_type " + in_quotes(a.family);
    const std::string suggestion = a.family.empty() ? std::string() : did_you_mean(a.family, k_known_families);
    if (!suggestion.empty()) note += " (" + suggestion + ")";
    notes.push_back(note + ": read as a llama-like decoder (RMSNorm, no biases)");
  }

  read_dimensions(config, a);

  const std::string activation = config.text(config.has({"hidden_act"}) ? "hidden_act" : "activation_function");
  a.mlp = read_mlp_kind(config, a, t5, known, activation, notes);
  read_family_layout(config, a, t5);

  read_activation_traits(config, a, activation);
  read_moe(config, a);
  read_mla(config, a);
  a.sliding_window = read_sliding_window(config, a);
  // The context it was trained for, rope scaling included (Llama 3.1: 131072); T5's
  // relative positions state none.
  a.max_positions = config.count({"max_position_embeddings", "n_positions"}, 0).value_or(0);

  if (const std::optional<bool> tied = config.flag("tie_word_embeddings")) {
    a.tied_embeddings = *tied;
  } else {
    a.tied_embeddings = !contains(k_untied_by_default, a.family);
    notes.push_back(std::string("tie_word_embeddings absent: ") + (a.tied_embeddings ? "true" : "false") +
                    ", the default of its config class");
  }

  read_checkpoint_format(config, a, notes);

  const std::string name_or_path = config.text("_name_or_path");
  a.name = name_or_path.empty() ? escape_unprintable(source_name) : name_or_path;
  a.source = "Hugging Face config " + escape_unprintable(source_name);
  if (!a.family.empty()) a.source += " (model_type " + a.family + ")";
  for (const std::string& note : notes) a.source += "; " + note;
  return a;
}

}  // namespace

namespace {

Architecture architecture_from_root(const ConfigText& source, const Json& root, std::string_view json_text,
                                    std::string_view source_name) {
  if (!root.is_object()) {
    source.fail(source.at_offset(json_text.find_first_not_of(" \t\r\n")), "a config.json must hold a JSON object",
                "expected {\"model_type\": ..., \"hidden_size\": ..., ...}");
  }
  // A multimodal config (Gemma 3, Llava, Qwen2-VL, ...) keeps its language model in
  // "text_config"; the vision tower it also holds is not counted.
  const auto text = root.find("text_config");
  const bool multimodal = text != root.end() && text->is_object() && !root.contains("hidden_size") &&
                          !root.contains("n_embd") && !root.contains("d_model");
  const ConfigReader top(source, root);
  // A dual-tower image-text model (CLIP, SigLIP, ...) is as much its image tower as its text
  // tower, whose text_config alone is a third of it or less (CLIP ViT-L/14: 123 M of 428 M):
  // refused, as the text tower's "<family>_text_model" type shows even under another name.
  constexpr std::array<std::string_view, 13> k_dual_tower{"clip",    "siglip",   "siglip2", "chinese_clip", "altclip",
                                                          "align",   "owlvit",   "owlv2",   "flava",        "x_clip",
                                                          "clipseg", "groupvit", "blip"};
  const std::string family = top.text("model_type");
  const std::string text_family =
      text != root.end() && text->is_object() ? ConfigReader(source, *text).text("model_type") : std::string();
  if (contains(k_dual_tower, family) || std::string_view(text_family).ends_with("_text_model")) {
    top.fail("model_type",
             "model_type " + in_quotes(family) +
                 " is a dual-tower image-text model: its image tower, as large as its text tower or larger, is not "
                 "counted: not supported",
             "mlsize sizes language models; give --params for a rough size");
  }
  Architecture a = read_architecture(multimodal ? ConfigReader(source, *text) : top, source_name);
  if (multimodal) {
    const std::string name_or_path = top.text("_name_or_path");
    if (!name_or_path.empty()) a.name = name_or_path;
    a.source += "; the language model of \"text_config\" (a vision tower is not counted)";
  }
  return a;
}

}  // namespace

Architecture architecture_from_hf_config(std::string_view json_text, std::string_view source_name) {
  const ConfigText source(json_text, source_name);
  return architecture_from_root(source, parse_json(source), json_text, source_name);
}

namespace {

// A ViT or DeiT config (transformers' model_type "vit", "deit") read from its width, depth,
// heads, MLP, patch and image size; another vision family (swin, convnext, resnet,
// efficientnet, detr, ...) refused by name, with the preset to use; nothing for a config that
// is not a vision model's.
std::optional<VisionModel> vision_model_from_root(const ConfigText& source, const Json& root,
                                                  std::string_view source_name) {
  if (!root.is_object()) return std::nullopt;
  const ConfigReader config(source, root);
  // A timm config.json (the Hub's timm/* repositories, timm/models/_hub.py save_config_for_hf):
  // its "architecture" is timm's model name and "pretrained_cfg.input_size" its [channels,
  // height, width]; the old form keeps input_size at the top (load_model_config_from_hf).
  if (const std::string architecture = config.text("architecture");
      !architecture.empty() && !root.contains("model_type")) {
    const VisionModel* preset = find_vision_model(architecture);
    if (preset == nullptr) {
      std::vector<std::string> names;
      for (const VisionModel& m : vision_models()) {
        if (!m.timm.empty()) names.push_back(m.timm);
      }
      const std::string near = did_you_mean(architecture, names);
      config.fail("architecture", "timm architecture " + in_quotes(architecture) + " is not one mlsize sizes",
                  (near.empty() ? std::string() : near + "; ") + "the vision presets are in docs/cli.md#vision");
    }
    VisionModel model = *preset;
    const auto pretrained = root.find("pretrained_cfg");
    const Json& cfg = pretrained != root.end() && pretrained->is_object() ? *pretrained : root;
    {
      const auto size = cfg.find("input_size");
      if (size != cfg.end() && size->is_array() && size->size() == 3 && (*size)[1].is_number_integer() &&
          (*size)[2].is_number_integer()) {
        const int height = (*size)[1].get<int>();
        const int width = (*size)[2].get<int>();
        if (height >= 16 && height <= 16384 && height == width && height != model.resolution) {
          // The model at the config's size: its MACs and activations there, as the preset's.
          model.macs = vision_forward_macs(model, height, width);
          model.activations = vision_activation_elements(model, height, width);
          model.resolution = height;
        }
      }
    }
    model.source += "; timm config " + escape_unprintable(source_name);
    return model;
  }
  const std::string family = config.text("model_type");
  // transformers' vision families that are not a plain ViT: each with the preset to use.
  constexpr std::array<std::pair<std::string_view, std::string_view>, 22> k_other_vision{{
      {"swin", "swin-t, swin-s or swin-b"},
      {"swinv2", "swin-t, swin-s or swin-b"},
      {"convnext", "convnext-t to convnext-l"},
      {"convnextv2", "convnext-t to convnext-l"},
      {"resnet", "resnet-18 to resnet-152"},
      {"efficientnet", "efficientnet-b0 to efficientnet-b7"},
      {"mobilenet_v1", "mobilenetv3-large"},
      {"mobilenet_v2", "mobilenetv3-large"},
      {"mobilevit", "mobilenetv3-large"},
      {"regnet", "regnety-16gf"},
      {"bit", "resnet-50"},
      {"detr", "retinanet-r50-fpn"},
      {"conditional_detr", "retinanet-r50-fpn"},
      {"deformable_detr", "retinanet-r50-fpn"},
      {"rt_detr", "yolov8m"},
      {"yolos", "yolov8m"},
      {"dinov2", "vit-l-16"},
      {"beit", "vit-b-16"},
      {"vit_mae", "vit-b-16"},
      {"vit_hybrid", "vit-b-16"},
      {"segformer", "convnext-t"},
      {"mask2former", "maskrcnn-r50-fpn"},
  }};
  for (const auto& [type, preset] : k_other_vision) {
    if (family == type) {
      config.fail("model_type",
                  "model_type " + in_quotes(family) +
                      " is a vision model whose layout mlsize does not read from config.json (it reads vit and deit)",
                  "use a built-in preset: --model " + std::string(preset) + " (docs/cli.md#vision)");
    }
  }
  if (family != "vit" && family != "deit") return std::nullopt;
  const auto need = [&](ConfigReader::Keys keys) {
    const std::optional<int> value = config.count(keys);
    if (!value) config.fail(*keys.begin(), "a " + family + " config lacks " + in_quotes(*keys.begin()));
    return *value;
  };
  VisionModel model;
  model.family = VisionFamily::vit;
  model.hidden = need({"hidden_size"});
  model.layers = need({"num_hidden_layers"});
  model.heads = need({"num_attention_heads"});
  model.patch = need({"patch_size"});
  model.resolution = need({"image_size"});
  const double mlp = config.count({"intermediate_size"}).value_or(4 * model.hidden);
  const double channels = config.count({"num_channels"}).value_or(3);
  const auto labels = root.find("id2label");
  const double classes = labels != root.end() && labels->is_object() ? static_cast<double>(labels->size()) : 0;
  // Parameters: the patch embedding (a p×p convolution with bias), the class token and the
  // learned positions, per layer q/k/v/o and the MLP with biases and two LayerNorms, the final
  // LayerNorm and a classifier of id2label's classes (transformers' ViTForImageClassification).
  const double h = model.hidden;
  const double tokens = vision_tokens(model, model.resolution, model.resolution);
  const double per_layer = 4 * h * h + 4 * h + 2 * h * mlp + mlp + h + 4 * h;
  model.params = channels * model.patch * model.patch * h + h + h + tokens * h + model.layers * per_layer + 2 * h +
                 (classes > 0 ? classes * h + classes : 0);
  model.macs = vision_forward_macs(model, model.resolution, model.resolution);
  const std::string name_or_path = config.text("_name_or_path");
  model.id = name_or_path.empty() ? escape_unprintable(source_name) : name_or_path;
  model.name = model.id;
  model.source = "Hugging Face config " + escape_unprintable(source_name) + " (model_type " + family + ")";
  return model;
}

}  // namespace

ModelFromConfig model_from_hf_config(std::string_view json_text, std::string_view source_name) {
  const ConfigText source(json_text, source_name);
  const Json root = parse_json(source);
  if (std::optional<DiffusionModel> diffusion = diffusion_model_from_root(source, root, source_name)) {
    return *std::move(diffusion);
  }
  if (std::optional<VisionModel> vision = vision_model_from_root(source, root, source_name)) return *std::move(vision);
  if (std::optional<SpeechModel> speech = speech_model_from_root(source, root, source_name)) return *std::move(speech);
  return architecture_from_root(source, root, json_text, source_name);
}

}  // namespace mlsize
