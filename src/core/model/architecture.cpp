#include <mlsize/model/architecture.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace mlsize {
namespace {

struct ReferenceShape {
  double params;
  int layers;
  int hidden;
  int heads;
};

// Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1 (n_params, n_layers,
// d_model, n_heads); vocabulary 50257, the GPT-2 BPE that GPT-3 reuses (Radford et al. 2019, §2.2).
constexpr int k_gpt_vocab = 50257;
constexpr std::array<ReferenceShape, 8> k_gpt3_shapes{{
    {125e6, 12, 768, 12},
    {350e6, 24, 1024, 16},
    {760e6, 24, 1536, 16},
    {1.3e9, 24, 2048, 24},
    {2.7e9, 32, 2560, 32},
    {6.7e9, 32, 4096, 32},
    {13e9, 40, 5140, 40},
    {175e9, 96, 12288, 96},
}};

}  // namespace

Architecture architecture_from_params(double params) {
  const ReferenceShape* best = &k_gpt3_shapes.front();
  double best_distance = std::abs(std::log(params / best->params));
  for (const ReferenceShape& candidate : k_gpt3_shapes) {
    const double distance = std::abs(std::log(params / candidate.params));
    if (distance < best_distance) {
      best = &candidate;
      best_distance = distance;
    }
  }
  // Scale the depth so that 12·L·h² tracks `params` between and beyond the table's rows
  // (a 70B model gets 38 layers of width 12288 rather than the 175B model's 96).
  Architecture shape;
  shape.layers = std::max(1, static_cast<int>(std::lround(best->layers * params / best->params)));
  shape.hidden = best->hidden;
  shape.heads = best->heads;
  shape.vocab = k_gpt_vocab;
  shape.name = "estimated from --params";
  shape.family = "gpt3";
  shape.source = "nearest GPT-3 shape (Brown et al. 2020, Table 2.1), depth scaled to the parameter count";
  shape.kv_heads = shape.heads;
  shape.head_dim = shape.hidden / shape.heads;
  shape.intermediate = 4 * shape.hidden;
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
