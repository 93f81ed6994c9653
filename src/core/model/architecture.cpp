#include <mlsize/model/architecture.hpp>

#include <mlsize/model/parameter_count.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>

namespace mlsize {
namespace {

// A released model whose shape stands for models of about its size.
struct ReferenceShape {
  std::string_view name;
  int layers;
  int hidden;
  int heads;
  int kv_heads;
  int intermediate;
  int vocab;
  bool llama;  // SwiGLU MLP, RMSNorm, no biases; else GPT-3: 4h MLP, multi-head attention
  bool tied;   // input embedding shared with the output projection
};

// Under 1B, the GPT-3 family (Brown et al. 2020, Table 2.1; the GPT-2 BPE vocabulary of
// 50257, Radford et al. 2019 §2.2): no Llama-family model that small was released by Meta.
// From 1B, Llama-family shapes (SwiGLU, RMSNorm, rotary positions), with grouped-query
// attention where the released models have it (8 KV heads from 34B):
// - TinyLlama-1.1B: Zhang et al. 2024, arXiv:2401.02385, Table 1 (4 query groups);
// - Llama-3.2-3B: meta-llama/Llama-3.2-3B config.json (tied embeddings, 128k vocabulary);
// - Llama-2-7B, 13B, 70B: data/models/llama-2-{7b,13b,70b}.json (Touvron et al. 2023, Table 1);
// - Code Llama 34B: Rozière et al. 2023, arXiv:2308.12950; codellama/CodeLlama-34b-hf config.json;
// - Llama-3.1-405B: Llama 3, arXiv:2407.21783, Table 3; meta-llama/Llama-3.1-405B config.json.
constexpr int k_gpt_vocab = 50257;
constexpr std::array<ReferenceShape, 10> k_reference_shapes{{
    {"GPT-3 Small (125M)", 12, 768, 12, 12, 3072, k_gpt_vocab, false, true},
    {"GPT-3 Medium (350M)", 24, 1024, 16, 16, 4096, k_gpt_vocab, false, true},
    {"GPT-3 Large (760M)", 24, 1536, 16, 16, 6144, k_gpt_vocab, false, true},
    {"TinyLlama-1.1B", 22, 2048, 32, 4, 5632, 32000, true, false},
    {"Llama-3.2-3B", 28, 3072, 24, 8, 8192, 128256, true, true},
    {"Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, true, false},
    {"Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, true, false},
    {"Code Llama 34B", 48, 8192, 64, 8, 22016, 32000, true, false},
    {"Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, true, false},
    {"Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256, true, false},
}};

Architecture shape_of(const ReferenceShape& row, int layers) {
  Architecture shape;
  shape.layers = layers;
  shape.hidden = row.hidden;
  shape.heads = row.heads;
  shape.kv_heads = row.kv_heads;
  shape.head_dim = row.hidden / row.heads;
  shape.intermediate = row.intermediate;
  shape.vocab = row.vocab;
  shape.mlp = row.llama ? MlpKind::gated : MlpKind::standard;
  shape.tied_embeddings = row.tied;
  shape.family = row.llama ? "llama" : "gpt3";
  return shape;
}

}  // namespace

Architecture architecture_from_params(double params) {
  const ReferenceShape* best = nullptr;
  double best_distance = 0;
  for (const ReferenceShape& row : k_reference_shapes) {
    const double distance = std::abs(std::log(params / count_parameters(shape_of(row, row.layers)).total));
    if (best == nullptr || distance < best_distance) {
      best = &row;
      best_distance = distance;
    }
  }
  // Keep the row's width and heads; choose the depth whose exact count is nearest `params`
  // (a 30B model gets Code Llama 34B's width with fewer layers).
  const double without_layers = count_parameters(shape_of(*best, 0)).total;
  const double per_layer = (count_parameters(shape_of(*best, best->layers)).total - without_layers) / best->layers;
  const int layers = std::max(1, static_cast<int>(std::lround((params - without_layers) / per_layer)));
  Architecture shape = shape_of(*best, layers);
  shape.name = k_estimated_model_name;
  shape.source = "the shape of " + std::string(best->name) + ", depth scaled to the parameter count";
  return shape;
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

}  // namespace mlsize
