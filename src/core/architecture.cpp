#include <mlsize/architecture.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace mlsize {
namespace {

struct ReferenceShape {
  double params;
  Architecture shape;
};

// Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1 (n_params, n_layers,
// d_model, n_heads); vocabulary 50257 (the GPT-2 BPE, §2.1 of the same paper).
constexpr int k_gpt_vocab = 50257;
constexpr std::array<ReferenceShape, 8> k_gpt3_shapes{{
    {125e6, {12, 768, 12, k_gpt_vocab}},
    {350e6, {24, 1024, 16, k_gpt_vocab}},
    {760e6, {24, 1536, 16, k_gpt_vocab}},
    {1.3e9, {24, 2048, 24, k_gpt_vocab}},
    {2.7e9, {32, 2560, 32, k_gpt_vocab}},
    {6.7e9, {32, 4096, 32, k_gpt_vocab}},
    {13e9, {40, 5140, 40, k_gpt_vocab}},
    {175e9, {96, 12288, 96, k_gpt_vocab}},
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
  Architecture shape = best->shape;
  shape.layers = std::max(1, static_cast<int>(std::lround(shape.layers * params / best->params)));
  return shape;
}

}  // namespace mlsize
