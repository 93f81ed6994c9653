#include <mlsize/model/architecture.hpp>
#include <mlsize/support/embedded_data.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/model/model_config.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace mlsize;

namespace {

std::string fixture_text(std::string_view file) {
  std::ifstream in(std::string(MLSIZE_SOURCE_DIR) + "/data/models/" + std::string(file), std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Architecture fixture(std::string_view file) {
  return architecture_from_hf_config(fixture_text(file), file);
}

Architecture parse(std::string_view text) {
  return architecture_from_hf_config(text, "test.json");
}

// The error parsing `text` throws, or nothing.
std::optional<Error> parse_error(std::string_view text) {
  try {
    parse(text);
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

// A minimal llama-like config; lines 2-7 hold one key each.
constexpr std::string_view k_llama = R"({
  "model_type": "llama",
  "hidden_size": 4096,
  "num_hidden_layers": 32,
  "num_attention_heads": 32,
  "intermediate_size": 11008,
  "vocab_size": 32000
})";

std::string llama_with(std::string_view from, std::string_view to) {
  std::string text(k_llama);
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

// Every field of the shape, for comparing two parses.
void check_same_shape(const Architecture& a, const Architecture& b) {
  CHECK(a.family == b.family);
  CHECK(a.layers == b.layers);
  CHECK(a.encoder_layers == b.encoder_layers);
  CHECK(a.hidden == b.hidden);
  CHECK(a.heads == b.heads);
  CHECK(a.kv_heads == b.kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.intermediate == b.intermediate);
  CHECK(a.vocab == b.vocab);
  CHECK(a.mlp == b.mlp);
  CHECK(a.tied_embeddings == b.tied_embeddings);
  CHECK(a.attention_bias == b.attention_bias);
  CHECK(a.attention_output_bias == b.attention_output_bias);
  CHECK(a.mlp_bias == b.mlp_bias);
  CHECK(a.learned_positions == b.learned_positions);
  CHECK(a.token_types == b.token_types);
  CHECK(a.norms_per_layer == b.norms_per_layer);
  CHECK(a.norm_bias == b.norm_bias);
  CHECK(a.final_norm == b.final_norm);
  CHECK(a.embedding_norm == b.embedding_norm);
  CHECK(a.pooler == b.pooler);
  CHECK(a.relative_attention_buckets == b.relative_attention_buckets);
  CHECK(a.sliding_window == b.sliding_window);
  CHECK(a.hidden_dropout == b.hidden_dropout);
  CHECK(a.attention_dropout == b.attention_dropout);
  CHECK(a.fused_qkv == b.fused_qkv);
  CHECK(a.fused_gate_up == b.fused_gate_up);
  CHECK(a.composite_activation == b.composite_activation);
  CHECK(a.moe.experts == b.moe.experts);
  CHECK(a.moe.experts_per_token == b.moe.experts_per_token);
  CHECK(a.moe.shared_experts == b.moe.shared_experts);
  CHECK(a.moe.expert_intermediate == b.moe.expert_intermediate);
  CHECK(a.moe.shared_intermediate == b.moe.shared_intermediate);
  CHECK(a.moe.shared_expert_gate == b.moe.shared_expert_gate);
  CHECK(a.moe.first_dense_layers == b.moe.first_dense_layers);
  CHECK(a.moe.layer_frequency == b.moe.layer_frequency);
  CHECK(a.moe.layer_offset == b.moe.layer_offset);
  REQUIRE(a.mla.has_value() == b.mla.has_value());
  if (a.mla) {
    CHECK(a.mla->kv_lora_rank == b.mla->kv_lora_rank);
    CHECK(a.mla->q_lora_rank == b.mla->q_lora_rank);
    CHECK(a.mla->qk_nope_head_dim == b.mla->qk_nope_head_dim);
    CHECK(a.mla->qk_rope_head_dim == b.mla->qk_rope_head_dim);
    CHECK(a.mla->v_head_dim == b.mla->v_head_dim);
  }
}

}  // namespace

TEST_CASE("architecture_from_hf_config reads a llama config", "[model_config]") {
  // meta-llama/Llama-2-7b-hf config.json (fixtures README §1).
  const Architecture a = fixture("llama-2-7b.json");
  CHECK(a.name == "meta-llama/Llama-2-7b-hf");
  CHECK(a.family == "llama");
  CHECK(a.source == "Hugging Face config llama-2-7b.json (model_type llama)");
  CHECK(a.layers == 32);
  CHECK(a.hidden == 4096);
  CHECK(a.heads == 32);
  CHECK(a.kv_heads == 32);
  CHECK(a.head_dim == 128);
  CHECK(a.intermediate == 11008);
  CHECK(a.vocab == 32000);
  CHECK(a.mlp == MlpKind::gated);
  CHECK_FALSE(a.tied_embeddings);
  CHECK_FALSE(a.sliding_window);
  CHECK_FALSE(a.is_moe());
  CHECK_FALSE(a.mla);
  CHECK(a.encoder_layers == 0);
}

TEST_CASE("architecture_from_hf_config reads GPT-2's legacy keys", "[model_config]") {
  // openai-community/gpt2: n_embd, n_layer, n_head, n_positions; no n_inner, so 4h.
  const Architecture a = fixture("gpt2.json");
  CHECK(a.hidden == 768);
  CHECK(a.layers == 12);
  CHECK(a.heads == 12);
  CHECK(a.intermediate == 3072);
  CHECK(a.learned_positions == 1024);
  CHECK(a.mlp == MlpKind::standard);
  CHECK(a.tied_embeddings);  // absent: the PretrainedConfig default
  CHECK(a.source.find("tie_word_embeddings absent: true") != std::string::npos);
  CHECK(a.attention_bias);
  CHECK(a.attention_output_bias);
  CHECK(a.mlp_bias);
  CHECK(a.norm_bias);
  // n_inner given (GPT2Config): it replaces 4h.
  CHECK(parse(R"({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "n_inner": 100,
                  "vocab_size": 10})")
            .intermediate == 100);
  CHECK(parse(R"({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "n_inner": null,
                  "vocab_size": 10})")
            .intermediate == 256);
}

TEST_CASE("architecture_from_hf_config reads BERT's embeddings and pooler", "[model_config]") {
  // google-bert/bert-base-uncased (BertModel): post-LN, no final norm.
  const Architecture a = fixture("bert-base.json");
  CHECK(a.learned_positions == 512);
  CHECK(a.token_types == 2);
  CHECK(a.embedding_norm);
  CHECK(a.pooler);
  CHECK_FALSE(a.final_norm);
  CHECK(a.mlp == MlpKind::standard);
}

TEST_CASE("architecture_from_hf_config reads Falcon's multi-query legacy keys", "[model_config]") {
  // tiiuae/falcon-7b (RefinedWebModel): n_head, n_layer, multi_query, parallel_attn.
  const Architecture a = fixture("falcon-7b.json");
  CHECK(a.heads == 71);
  CHECK(a.kv_heads == 1);
  CHECK(a.head_dim == 64);
  CHECK(a.layers == 32);
  CHECK(a.intermediate == 4 * 4544);
  CHECK(a.norms_per_layer == 1);
  CHECK(a.norm_bias);
  CHECK_FALSE(a.attention_bias);
  CHECK(a.tied_embeddings);
  // HF FalconConfig, new decoder architecture (Falcon-40B): num_kv_heads and two norms.
  const Architecture forty = parse(R"({"model_type": "falcon", "hidden_size": 8192, "num_hidden_layers": 60,
    "num_attention_heads": 128, "num_kv_heads": 8, "new_decoder_architecture": true, "vocab_size": 65024})");
  CHECK(forty.kv_heads == 8);
  CHECK(forty.norms_per_layer == 2);
}

TEST_CASE("architecture_from_hf_config reads grouped-query attention", "[model_config]") {
  CHECK(fixture("llama-2-70b.json").kv_heads == 8);
  CHECK(fixture("llama-3-8b.json").kv_heads == 8);
  CHECK(fixture("mistral-7b.json").kv_heads == 8);
  const Architecture qwen = fixture("qwen2-7b.json");
  CHECK(qwen.heads == 28);
  CHECK(qwen.kv_heads == 4);
  CHECK(qwen.attention_bias);  // q/k/v biases (Qwen2Attention), not o_proj
  CHECK_FALSE(qwen.attention_output_bias);
  CHECK(fixture("phi-3-mini.json").kv_heads == 32);
  // num_key_value_heads: null means MHA; legacy multi_query (GPT-BigCode) means one KV head.
  CHECK(parse(llama_with("\"vocab_size\"", "\"num_key_value_heads\": null, \"vocab_size\"")).kv_heads == 32);
  CHECK(parse(llama_with("\"vocab_size\"", "\"multi_query\": true, \"vocab_size\"")).kv_heads == 1);
}

TEST_CASE("architecture_from_hf_config reads head_dim when it is not hidden / heads", "[model_config]") {
  // google/gemma-2-9b: 16 heads × 256 = 4096 ≠ 3584.
  const Architecture a = fixture("gemma-2-9b.json");
  CHECK(a.hidden == 3584);
  CHECK(a.head_dim == 256);
  CHECK(a.kv_heads == 8);
  CHECK(a.norms_per_layer == 4);
  CHECK(a.mlp == MlpKind::gated);
  CHECK(a.tied_embeddings);
  CHECK_FALSE(a.sliding_window);  // alternating local/global layers: no full-model window
}

TEST_CASE("architecture_from_hf_config defaults tie_word_embeddings per config class", "[model_config]") {
  const std::string untied = llama_with(R"("model_type": "llama")", R"("model_type": "mistral")");
  CHECK_FALSE(parse(untied).tied_embeddings);
  CHECK(parse(untied).source.find("tie_word_embeddings absent: false, the default of its config class") !=
        std::string::npos);
  CHECK(parse(llama_with(R"("model_type": "llama")", R"("model_type": "gemma")")).tied_embeddings);
  CHECK(parse(llama_with(R"("model_type": "llama")", R"("model_type": "falcon")")).tied_embeddings);
  CHECK(parse(llama_with("\"vocab_size\"", "\"tie_word_embeddings\": true, \"vocab_size\"")).tied_embeddings);
  // DeepseekV2Config defaults to false.
  std::string deepseek = fixture_text("deepseek-v2-lite.json");
  deepseek.erase(deepseek.find("  \"tie_word_embeddings\": false,\n"), 32);
  CHECK_FALSE(parse(deepseek).tied_embeddings);
}

TEST_CASE("architecture_from_hf_config reads sliding windows only when every layer has one", "[model_config]") {
  CHECK(fixture("mistral-7b.json").sliding_window == 4096);
  CHECK(fixture("phi-3-mini.json").sliding_window == 2047);
  CHECK_FALSE(fixture("mixtral-8x7b.json").sliding_window);  // "sliding_window": null
  CHECK_FALSE(fixture("qwen2-7b.json").sliding_window);           // use_sliding_window false
  CHECK_FALSE(fixture("qwen1.5-moe-a2.7b.json").sliding_window);
  // Qwen2 with use_sliding_window: the first max_window_layers layers still attend fully.
  std::string qwen = fixture_text("qwen2-7b.json");
  qwen.replace(qwen.find("\"use_sliding_window\": false"), 27, "\"use_sliding_window\": true");
  CHECK_FALSE(parse(qwen).sliding_window);
  qwen.replace(qwen.find("\"max_window_layers\": 28"), 23, "\"max_window_layers\": 0");
  CHECK(parse(qwen).sliding_window == 131072);
}

TEST_CASE("architecture_from_hf_config reads Mixtral's experts", "[model_config]") {
  // mistralai/Mixtral-8x7B-v0.1: num_local_experts 8, top-2, experts of intermediate_size.
  const Architecture a = fixture("mixtral-8x7b.json");
  CHECK(a.is_moe());
  CHECK(a.moe.experts == 8);
  CHECK(a.moe.experts_per_token == 2);
  CHECK(a.moe.expert_intermediate == 14336);
  CHECK(a.moe.shared_experts == 0);
  CHECK(a.moe.layer_frequency == 1);
}

TEST_CASE("architecture_from_hf_config reads Qwen-MoE's shared expert", "[model_config]") {
  // Qwen/Qwen1.5-MoE-A2.7B: num_experts 60, top-4, moe_intermediate_size, a gated shared expert.
  const Architecture a = fixture("qwen1.5-moe-a2.7b.json");
  CHECK(a.moe.experts == 60);
  CHECK(a.moe.experts_per_token == 4);
  CHECK(a.moe.expert_intermediate == 1408);
  CHECK(a.moe.shared_experts == 1);
  CHECK(a.moe.shared_intermediate == 5632);
  CHECK(a.moe.shared_expert_gate);
  CHECK(a.moe.layer_frequency == 1);
  CHECK(a.moe.layer_offset == 1);  // decoder_sparse_step: (i + 1) % step == 0
  CHECK(a.attention_bias);
}

TEST_CASE("architecture_from_hf_config reads DeepSeek-V2's experts and latent attention", "[model_config]") {
  // deepseek-ai/DeepSeek-V2-Lite: n_routed_experts 64, 2 shared, first layer dense; MLA.
  const Architecture a = fixture("deepseek-v2-lite.json");
  CHECK(a.moe.experts == 64);
  CHECK(a.moe.experts_per_token == 6);
  CHECK(a.moe.shared_experts == 2);
  CHECK(a.moe.shared_intermediate == 0);  // the routed width
  CHECK_FALSE(a.moe.shared_expert_gate);
  CHECK(a.moe.expert_intermediate == 1408);
  CHECK(a.moe.first_dense_layers == 1);
  CHECK(a.intermediate == 10944);
  REQUIRE(a.mla);
  CHECK(a.mla->kv_lora_rank == 512);
  CHECK(a.mla->q_lora_rank == 0);  // "q_lora_rank": null
  CHECK(a.mla->qk_nope_head_dim == 128);
  CHECK(a.mla->qk_rope_head_dim == 64);
  CHECK(a.mla->v_head_dim == 128);
  CHECK(a.head_dim == 192);
  CHECK_FALSE(a.tied_embeddings);
  // Absent q_lora_rank takes DeepseekV2Config's default, 1536 (the full V2's value).
  std::string text = fixture_text("deepseek-v2-lite.json");
  text.erase(text.find("  \"q_lora_rank\": null,\n"), 23);
  CHECK(parse(text).mla->q_lora_rank == 1536);
}

TEST_CASE("architecture_from_hf_config reads T5 encoder-decoder configs", "[model_config]") {
  // google-t5/t5-base: d_model, num_layers, num_heads, d_ff, d_kv; no num_decoder_layers.
  const Architecture t5 = fixture("t5-base.json");
  CHECK(t5.encoder_layers == 12);
  CHECK(t5.layers == 12);
  CHECK(t5.hidden == 768);
  CHECK(t5.heads == 12);
  CHECK(t5.head_dim == 64);
  CHECK(t5.intermediate == 3072);
  CHECK(t5.mlp == MlpKind::standard);
  CHECK(t5.tied_embeddings);
  CHECK(t5.relative_attention_buckets == 32);
  // google/flan-t5-base: gated-gelu, untied.
  const Architecture flan = fixture("flan-t5-base.json");
  CHECK(flan.mlp == MlpKind::gated);
  CHECK_FALSE(flan.tied_embeddings);
  CHECK(flan.intermediate == 2048);
  CHECK(parse(R"({"model_type": "t5", "d_model": 8, "num_layers": 6, "num_decoder_layers": 2, "num_heads": 2,
                  "d_ff": 16, "d_kv": 4, "vocab_size": 10})")
            .layers == 2);
}

TEST_CASE("architecture_from_hf_config reads an unknown model_type as a llama-like decoder", "[model_config]") {
  const Architecture a = parse(llama_with(R"("model_type": "llama")", R"("model_type": "lama")"));
  CHECK(a.family == "lama");
  CHECK(a.mlp == MlpKind::gated);
  CHECK(a.tied_embeddings);
  CHECK(a.source ==
        "Hugging Face config test.json (model_type lama); unknown model_type \"lama\" (did you mean \"llama\"?): "
        "read as a llama-like decoder (RMSNorm, no biases); tie_word_embeddings absent: true, the default of its "
        "config class");
  const Architecture gelu = parse(llama_with(R"("model_type": "llama")", R"("model_type": "x", "hidden_act": "gelu")"));
  CHECK(gelu.mlp == MlpKind::standard);
  CHECK(parse(llama_with(R"("model_type": "llama",)", "")).source.find("no model_type") != std::string::npos);
}

TEST_CASE("architecture_from_hf_config: bad JSON names line and column", "[model_config]") {
  const std::optional<Error> error = parse_error("{\n  \"hidden_size\": 4096,\n  \"num_hidden_layers\": ,\n}");
  REQUIRE(error);
  CHECK(error->kind() == ErrorKind::input);
  CHECK(error->where() == "test.json:3:24");
  CHECK(error->message() ==
        "invalid JSON: syntax error while parsing value - unexpected ','; expected '[', '{', or a literal");
  CHECK(error->location().line_text == "  \"num_hidden_layers\": ,");
  CHECK(parse_error("")->where() == "test.json:1:1");
  CHECK(parse_error("[1, 2]")->message() == "a config.json must hold a JSON object");
  // A key given twice took the last value silently and changed the plan (issue 31): an error
  // at the second, naming the first; the same key in another object is no duplicate.
  const std::optional<Error> twice =
      parse_error("{\n  \"hidden_size\": 4096,\n  \"x\": {\"hidden_size\": 1},\n  \"hidden_size\" : 8192\n}");
  REQUIRE(twice);
  CHECK(twice->where() == "test.json:4:3");
  CHECK(twice->message() == "duplicate key \"hidden_size\" (first at line 2)");
  const std::optional<Error> elsewhere = parse_error("{\"a\": [{\"k\": 1}, {\"k\": 2}], \"k\": \"a:b\\\"\"}");
  REQUIRE(elsewhere);  // a config without a model: some error, but not a duplicate
  CHECK(elsewhere->message().rfind("duplicate", 0) == std::string::npos);
  CHECK(parse_error("{\"k\": 1, \"k\": 2}")->message() == "duplicate key \"k\" (first at line 1)");
}

TEST_CASE("architecture_from_hf_config: a missing width names the accepted keys", "[model_config]") {
  const std::optional<Error> error = parse_error(llama_with("  \"hidden_size\": 4096,\n", ""));
  REQUIRE(error);
  CHECK(error->where() == "test.json:1:1");
  CHECK(error->message() == "missing \"hidden_size\" (the model width)");
  CHECK(error->hint() == "accepted keys: hidden_size, n_embd, d_model, n_embed");
  // A misspelt key: did you mean, at that key.
  const std::optional<Error> typo = parse_error(llama_with("\"hidden_size\"", "\"hiden_size\""));
  REQUIRE(typo);
  CHECK(typo->where() == "test.json:3:17");
  CHECK(typo->message() == "missing \"hidden_size\" (the model width)");
  CHECK(typo->hint() == "\"hiden_size\" is not a known key: did you mean \"hidden_size\"?");
  CHECK(parse_error(llama_with("  \"vocab_size\": 32000\n", "  \"text_config\": {}\n"))->hint() ==
        "accepted keys: vocab_size; for a multimodal model, give its \"text_config\" object");
}

TEST_CASE("architecture_from_hf_config refuses bad dimensions", "[model_config]") {
  const std::optional<Error> negative = parse_error(llama_with("4096", "-4096"));
  REQUIRE(negative);
  CHECK(negative->where() == "test.json:3:18");
  CHECK(negative->message() == "\"hidden_size\" must be at least 1, not -4096");
  CHECK(negative->hint() == "expected a whole number from 1 to 10000000");
  CHECK(parse_error(llama_with("4096", "0"))->message() == "\"hidden_size\" must be at least 1, not 0");
  CHECK(parse_error(llama_with("4096", "4096.5"))->message() == "\"hidden_size\" must be a whole number, not 4096.5");
  CHECK(parse(llama_with("4096", "4096.0")).hidden == 4096);
  CHECK(parse_error(llama_with("4096", "\"4096\""))->message() ==
        "\"hidden_size\" must be a whole number, not \"4096\"");
  CHECK(parse_error(llama_with("4096", "true"))->message() == "\"hidden_size\" must be a whole number, not true");
  CHECK(parse_error(llama_with("4096", "null"))->message() == "missing \"hidden_size\" (the model width)");
  const std::optional<Error> huge = parse_error(llama_with("4096", "100000000"));
  REQUIRE(huge);
  CHECK(huge->message() == "\"hidden_size\" is 100000000, above the limit of 10000000");
  CHECK(huge->hint() == "no transformer dimension comes near this; check the value");
  CHECK(parse_error(llama_with("4096", "1e300"))->message() ==
        "\"hidden_size\" is 1e+300, above the limit of 10000000");
  const std::optional<Error> overflow = parse_error(llama_with("4096", "1e400"));
  REQUIRE(overflow);
  CHECK(overflow->where() == "test.json:3:18");
  CHECK(overflow->message() == "invalid JSON: number overflow parsing '1e400'");
  // Python's json writes float('nan') and float('inf') as bare words: read as null, so a
  // dimension given so is named as such, and anywhere else they do no harm.
  const std::optional<Error> nan = parse_error(llama_with("4096", "NaN"));
  REQUIRE(nan);
  CHECK(nan->message() == "\"hidden_size\" is NaN, not a size (the model width)");
  CHECK(nan->where() == "test.json:3:18");
  CHECK_FALSE(parse_error(llama_with("  \"vocab_size\": 32000\n",
                                     "  \"vocab_size\": 32000,\n  \"softcap\": Infinity,\n  \"x\": -Infinity,\n"
                                     "  \"y\": [NaN, \"NaN\"]\n")));
  // An error after a NaN still points at its own column.
  const std::optional<Error> after = parse_error(llama_with("  \"vocab_size\": 32000\n", "  \"vocab_size\": [NaN, 1,]\n"));
  REQUIRE(after);
  CHECK(after->message().starts_with("invalid JSON"));
  CHECK(after->where() == "test.json:7:25");  // the "]", not one column on
}

TEST_CASE("architecture_from_hf_config reads dropout, fused projections and composite activations",
          "[model_config]") {
  // GPT-2: resid/embd/attn_pdrop 0.1, one c_attn projection, gelu_new (a chain of tensor ops).
  const Architecture gpt2 = fixture("gpt2.json");
  CHECK(gpt2.hidden_dropout);
  CHECK(gpt2.attention_dropout);
  CHECK(gpt2.fused_qkv);
  CHECK_FALSE(gpt2.fused_gate_up);
  CHECK(gpt2.composite_activation);
  // Llama 2: attention_dropout 0.0 and no hidden dropout; separate q, k, v; SiLU.
  const Architecture llama = fixture("llama-2-7b.json");
  CHECK_FALSE(llama.hidden_dropout);
  CHECK_FALSE(llama.attention_dropout);
  CHECK_FALSE(llama.fused_qkv);
  CHECK_FALSE(llama.composite_activation);
  // Phi-3: fused qkv_proj and gate_up_proj.
  const Architecture phi3 = fixture("phi-3-mini.json");
  CHECK(phi3.fused_qkv);
  CHECK(phi3.fused_gate_up);
  // BERT: dropout 0.1, exact GELU (one kernel). Flan-T5: dropout_rate 0.1, gated-gelu = gelu_new.
  const Architecture bert = fixture("bert-base.json");
  CHECK(bert.hidden_dropout);
  CHECK(bert.attention_dropout);
  CHECK_FALSE(bert.composite_activation);
  const Architecture flan = fixture("flan-t5-base.json");
  CHECK(flan.hidden_dropout);
  CHECK(flan.composite_activation);
  // A model known by size only is read as GPT-3-like, with dropout (Korthikanti et al.).
  const Architecture estimated = architecture_from_params(7e9);
  CHECK(estimated.hidden_dropout);
  CHECK(estimated.attention_dropout);
  // A rate outside [0, 1] is an error at its key.
  const std::optional<Error> bad = parse_error(llama_with("\"vocab_size\": 32000", "\"vocab_size\": 32000, \"attention_dropout\": 2"));
  REQUIRE(bad);
  CHECK(bad->where() == "test.json:7:45");
  CHECK(bad->message() == "\"attention_dropout\" must be a number from 0 to 1, not 2");
  CHECK(bad->hint() == "a dropout probability");
  CHECK(parse_error(llama_with("\"vocab_size\": 32000", "\"vocab_size\": 32000, \"attention_dropout\": \"x\""))->message() ==
        "\"attention_dropout\" must be a number from 0 to 1, not \"x\"");
}

TEST_CASE("architecture_from_hf_config refuses inconsistent heads", "[model_config]") {
  const std::optional<Error> kv =
      parse_error(llama_with("\"vocab_size\"", "\"num_key_value_heads\": 5, \"vocab_size\""));
  REQUIRE(kv);
  CHECK(kv->message() == "the 5 key/value heads do not divide the 32 attention heads");
  CHECK(parse_error(llama_with("\"num_attention_heads\": 32", "\"num_attention_heads\": 30"))->message() ==
        "the width 4096 is not a multiple of the 30 attention heads");
  CHECK(parse(llama_with("\"num_attention_heads\": 32", "\"num_attention_heads\": 30, \"head_dim\": 128")).head_dim ==
        128);
  const std::string moe =
      llama_with("\"vocab_size\"", "\"num_local_experts\": 4, \"num_experts_per_tok\": 5, \"vocab_size\"");
  CHECK(parse_error(moe)->message() == "\"num_experts_per_tok\" (5) is more than the number of experts (4)");
  CHECK(parse_error(llama_with("\"vocab_size\"", "\"num_local_experts\": 4, \"vocab_size\""))->message() ==
        "missing \"num_experts_per_tok\" (experts used per token)");
}

TEST_CASE("architecture_from_hf_config refuses deep nesting and huge texts before parsing", "[model_config]") {
  const std::string deep = "{\"a\": " + std::string(100, '[') + std::string(100, ']') + "}";
  const std::optional<Error> error = parse_error(deep);
  REQUIRE(error);
  CHECK(error->where() == "test.json:1:70");
  CHECK(error->message() == "invalid JSON: nested more than 64 levels deep");
  // Brackets inside strings are text, not nesting.
  CHECK(parse(llama_with("\"vocab_size\"", "\"note\": \"" + std::string(100, '[') + "\", \"vocab_size\"")).vocab ==
        32000);
  const std::optional<Error> huge = parse_error(std::string(k_max_config_bytes + 1, ' '));
  REQUIRE(huge);
  CHECK(huge->where() == "test.json");
  CHECK(huge->message() == "config file is larger than the limit of 4 MiB");
}

TEST_CASE("architecture_from_hf_config refuses encoder-decoder families other than T5", "[model_config]") {
  const std::optional<Error> error =
      parse_error(llama_with(R"("model_type": "llama")", R"("model_type": "bart", "is_encoder_decoder": true)"));
  REQUIRE(error);
  CHECK(error->message() == "encoder-decoder model_type \"bart\" is not supported");
}

TEST_CASE("model_preset_names lists the built-in presets", "[model_config]") {
  const std::vector<std::string> expected{
      "bert-base",   "deepseek-v2-lite", "falcon-7b",  "flan-t5-base",      "gemma-2-9b", "gpt2",
      "llama-2-13b", "llama-2-70b",      "llama-2-7b", "llama-3-70b",       "llama-3-8b", "llama-3.1-70b",
      "mistral-7b",  "mixtral-8x7b",     "phi-3-mini", "qwen1.5-moe-a2.7b", "qwen2-7b",   "t5-base"};
  CHECK(model_preset_names() == expected);
  CHECK_FALSE(model_preset("llama-2-7"));
  CHECK_FALSE(model_preset(""));
}

TEST_CASE("every preset is its data/models file, byte for byte, and parses the same", "[model_config]") {
  REQUIRE(model_preset_names().size() == 18);
  for (const std::string& name : model_preset_names()) {
    const std::string file = name + ".json";
    DYNAMIC_SECTION(name << " = fixture " << file) {
      const std::optional<Architecture> preset = model_preset(name);
      REQUIRE(preset);
      CHECK(preset->name == name);
      CHECK(preset->source.starts_with("preset " + name + " ("));
      check_same_shape(*preset, fixture(file));
      bool embedded_verbatim = false;
      for (const EmbeddedFile& embedded : model_preset_files()) {
        if (embedded.name == name + ".json") embedded_verbatim = embedded.text == fixture_text(file);
      }
      CHECK(embedded_verbatim);
    }
  }
}

TEST_CASE("a dimension Python wrote as NaN or Infinity is named as such, not as missing", "[model_config]") {
  // json.dumps(float('nan')) writes NaN (issue 31: it was reported as "missing hidden_size").
  const std::optional<Error> nan = parse_error(llama_with("\"hidden_size\": 4096", "\"hidden_size\": NaN"));
  REQUIRE(nan);
  CHECK(nan->message() == "\"hidden_size\" is NaN, not a size (the model width)");
  CHECK(nan->where().find("test.json:") == 0);
  const std::optional<Error> inf =
      parse_error(llama_with("\"num_hidden_layers\": 32", "\"num_hidden_layers\": -Infinity"));
  REQUIRE(inf);
  CHECK(inf->message().find("\"num_hidden_layers\" is -Infinity, not a size") == 0);
}
