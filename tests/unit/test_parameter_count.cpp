#include <mlsize/model/architecture.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

using namespace mlsize;

namespace {

// A model preset, data/models/<file>: the one copy of the real configs (their README has the sources).
Architecture fixture(std::string_view file) {
  const std::string path = std::string(MLSIZE_SOURCE_DIR) + "/data/models/" + std::string(file);
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return architecture_from_hf_config(text.str(), path);
}

double relative_error(double value, double reference) {
  return std::abs(value - reference) / reference;
}

struct Expected {
  std::string_view file;
  double exact_total;   // data/models/README.md, "Parameter counts", column "exact"
  double exact_active;  // column "exact active (all emb.)"; 0 for dense models
  double stated_total;  // the published figure, when the exact count is within 1 % of it; else 0
  std::string_view source;
};

// Published figures more than 1 % from the exact count are not checked here (stated 0):
// Llama-2-70B "70B" (68.98B), Qwen2-7B "7B" (7.62B), Gemma 2 "9B" (9.24B; its report's
// non-embedding figure is checked exactly below), Falcon "7B" (6.92B; the checkpoint's
// stored size is checked below), T5-base "220M" (222.9M).
constexpr std::array<Expected, 18> k_expected{{
    {"gpt2.json", 124'439'808, 0, 124e6, "HF model card 124M (the GPT-2 paper's 117M predates a recount)"},
    {"bert-base.json", 109'482'240, 0, 110e6, "BERT paper arXiv:1810.04805, 110M (BertModel with pooler)"},
    {"llama-2-7b.json", 6'738'415'616, 0, 6'738'415'616, "Llama 2 arXiv:2307.09288 Table 1; HF checkpoint count"},
    {"llama-2-13b.json", 13'015'864'320, 0, 13e9, "Llama 2 arXiv:2307.09288 Table 1, 13B"},
    {"llama-2-70b.json", 68'976'648'192, 0, 0, "Llama 2 arXiv:2307.09288 Table 1, 70B (68.98B: the name rounds up)"},
    {"llama-3-8b.json", 8'030'261'248, 0, 8e9, "Meta Llama 3 model card, 8B"},
    {"llama-3-70b.json", 70'553'706'496, 0, 70e9, "Meta Llama 3 model card, 70B"},
    {"llama-3.1-70b.json", 70'553'706'496, 0, 70e9, "Llama 3.1 model card, 70B"},
    {"mistral-7b.json", 7'241'732'096, 0, 7.3e9, "Mistral AI release post, 7.3B"},
    {"mixtral-8x7b.json", 46'702'792'704, 12'879'925'248, 46.7e9,
     "Mistral AI 'Mixtral of experts' post, 46.7B / 12.9B"},
    {"qwen2-7b.json", 7'615'616'512, 0, 0, "Qwen2 arXiv:2407.10671, 7B (7.62B with the qkv biases)"},
    {"gemma-2-9b.json", 9'241'705'984, 0, 0, "Gemma 2 arXiv:2408.00118, non-embedding 8,324,201,984"},
    {"phi-3-mini.json", 3'821'079'552, 0, 3.8e9, "Phi-3 arXiv:2404.14219, 3.8B"},
    {"falcon-7b.json", 6'921'720'704, 0, 0, "tiiuae/falcon-7b card 7B; checkpoint total_size 7,217,189,760 elements"},
    {"t5-base.json", 222'903'552, 0, 0, "T5 arXiv:1910.10683, 220M"},
    {"flan-t5-base.json", 247'577'856, 0, 250e6, "Flan-T5 arXiv:2210.11416, 250M"},
    {"deepseek-v2-lite.json", 15'706'484'224, 2'661'150'208, 15.7e9, "DeepSeek-V2 arXiv:2405.04434, 15.7B total"},
    {"qwen1.5-moe-a2.7b.json", 14'315'784'192, 2'689'173'504, 14.3e9, "Qwen blog 'Qwen1.5-MoE' Mar 2024, 14.3B / 2.7B"},
}};

}  // namespace

TEST_CASE("count_parameters equals the fixtures README's exact count for every fixture", "[parameter_count]") {
  for (const Expected& expected : k_expected) {
    DYNAMIC_SECTION(expected.file << " (" << expected.source << ")") {
      const ParameterCount count = count_parameters(fixture(expected.file));
      CHECK(count.total == expected.exact_total);
      CHECK(count.active == (expected.exact_active > 0 ? expected.exact_active : expected.exact_total));
      CHECK(count.embedding > 0);
      CHECK(count.linear > 0);
      CHECK(count.embedding + count.linear < count.total);
    }
  }
}

TEST_CASE("count_parameters is within 1 % of each stated figure the exact count supports", "[parameter_count]") {
  for (const Expected& expected : k_expected) {
    if (expected.stated_total == 0) continue;
    DYNAMIC_SECTION(expected.file << " (" << expected.source << ")") {
      CHECK(relative_error(count_parameters(fixture(expected.file)).total, expected.stated_total) < 0.01);
    }
  }
}

TEST_CASE("count_parameters: MoE active counts match the published ones", "[parameter_count]") {
  // Mixtral post: 12.9B active; Qwen blog: 2.7B active. Both count every embedding.
  CHECK(relative_error(count_parameters(fixture("mixtral-8x7b.json")).active, 12.9e9) < 0.01);
  CHECK(relative_error(count_parameters(fixture("qwen1.5-moe-a2.7b.json")).active, 2.7e9) < 0.01);
  // DeepSeek-V2 paper: 2.4B active, which leaves out the input embedding (README §2, note 5).
  const ParameterCount deepseek = count_parameters(fixture("deepseek-v2-lite.json"));
  CHECK(deepseek.active - deepseek.embedding == 2'451'435'008);
  CHECK(relative_error(deepseek.active - deepseek.embedding, 2.4e9) < 0.025);
  CHECK(count_parameters(fixture("mixtral-8x7b.json")).active - 32000.0 * 4096 == 12'748'853'248);
}

TEST_CASE("count_parameters: Gemma 2 9B's non-embedding count is the report's figure exactly", "[parameter_count]") {
  // Gemma 2 report (arXiv:2408.00118), Table 2: 8,324,201,984 non-embedding parameters.
  const ParameterCount count = count_parameters(fixture("gemma-2-9b.json"));
  CHECK(count.embedding == 256000.0 * 3584);
  CHECK(count.total - count.embedding == 8'324'201'984);
}

TEST_CASE("count_parameters: Falcon-7B plus a separately stored lm_head is the checkpoint size", "[parameter_count]") {
  // tiiuae/falcon-7b model.safetensors index: total_size 14,434,379,520 bytes in bf16.
  Architecture falcon = fixture("falcon-7b.json");
  falcon.tied_embeddings = false;
  CHECK(count_parameters(falcon).total == 14'434'379'520.0 / 2);
}

TEST_CASE("count_parameters splits embeddings and block linears", "[parameter_count]") {
  // Llama-2-7B: 32 layers of 4h² attention and 3·h·11008 SwiGLU weights.
  const ParameterCount llama = count_parameters(fixture("llama-2-7b.json"));
  CHECK(llama.embedding == 32000.0 * 4096);
  CHECK(llama.linear == 32.0 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008));
  CHECK(llama.linear == 6'476'005'376);
  // GPT-2: the position table is an embedding; c_attn, c_proj, c_fc, c_proj are 12h² per layer.
  const ParameterCount gpt2 = count_parameters(fixture("gpt2.json"));
  CHECK(gpt2.embedding == 39'383'808);
  CHECK(gpt2.linear == 84'934'656);
  // BERT: word, position and token-type tables; the pooler is outside the blocks.
  const ParameterCount bert = count_parameters(fixture("bert-base.json"));
  CHECK(bert.embedding == 23'835'648);
  CHECK(bert.linear == 12.0 * 12 * 768 * 768);
  // T5-base: encoder self-attention + FFN, decoder self- and cross-attention + FFN.
  CHECK(count_parameters(fixture("t5-base.json")).linear == 198'180'864);
  // MoE and MLA: every expert's matrices, no router; MLA's projections.
  CHECK(count_parameters(fixture("mixtral-8x7b.json")).linear == 46'439'333'888);
  CHECK(count_parameters(fixture("qwen1.5-moe-a2.7b.json")).linear == 13'690'208'256);
  CHECK(count_parameters(fixture("deepseek-v2-lite.json")).linear == 15'283'519'488);
}

TEST_CASE("count_parameters: a compressed MLA query adds q_a_proj, its norm and q_b_proj", "[parameter_count]") {
  Architecture deepseek = fixture("deepseek-v2-lite.json");
  const double before = count_parameters(deepseek).total;
  deepseek.mla->q_lora_rank = 1536;
  // Per layer: h×r + r (norm) + r×heads·(nope+rope) replaces h×heads·(nope+rope).
  const double per_layer = 2048.0 * 1536 + 1536 + 1536.0 * 16 * 192 - 2048.0 * 16 * 192;
  CHECK(count_parameters(deepseek).total == before + 27 * per_layer);
}

TEST_CASE("count_parameters: MoE layer frequency follows each family's convention", "[parameter_count]") {
  Architecture qwen = fixture("qwen1.5-moe-a2.7b.json");
  const double dense_mlp = 3.0 * 2048 * 5632;
  const ParameterCount every = count_parameters(qwen);
  // Qwen-MoE decoder_sparse_step 2: layers 1, 3, 5, ... have experts ((i + 1) % 2 == 0).
  qwen.moe.layer_frequency = 2;
  const ParameterCount half = count_parameters(qwen);
  const double moe_layer =
      (every.total - 2.0 * 151936 * 2048 - 2048) / 24 - 4.0 * 2048 * 2048 - 3.0 * 2048 - 2.0 * 2048;
  CHECK(half.total == Approx(every.total - 12 * moe_layer + 12 * dense_mlp).epsilon(1e-12));
  // DeepSeek: the first first_k_dense_replace layers are dense, then i % moe_layer_freq == 0.
  Architecture deepseek = fixture("deepseek-v2-lite.json");
  deepseek.moe.first_dense_layers = 0;
  CHECK(count_parameters(deepseek).total > count_parameters(fixture("deepseek-v2-lite.json")).total);
}

TEST_CASE("count_parameters: a dense model's active count is its total", "[parameter_count]") {
  for (const char* file : {"llama-2-70b.json", "gpt2.json", "t5-base.json", "falcon-7b.json"}) {
    const ParameterCount count = count_parameters(fixture(file));
    CHECK(count.active == count.total);
  }
}

TEST_CASE("count_parameters of the shape from --params is near the parameter count", "[parameter_count]") {
  // Whatever the count, the guessed shape's exact count lands within half a layer of it.
  for (double params : {125e6, 1e9, 3e9, 7e9, 30e9, 70e9, 175e9, 405e9}) {
    CHECK(relative_error(count_parameters(architecture_from_params(params)).total, params) < 0.02);
  }
  // Llama-2-7B's count gives Llama-2-7B: 32 × (4 × 4096² + 3 × 4096 × 11008) linear weights.
  const ParameterCount count = count_parameters(architecture_from_params(6'738'415'616));
  CHECK(count.linear == 32.0 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008));
}
