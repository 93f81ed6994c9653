#include <mlsize/architecture.hpp>
#include <mlsize/memory.hpp>

#include <catch2/catch.hpp>

using namespace mlsize;

namespace {

Workload workload_with(double params, Precision precision = Precision::bf16_mixed,
                       Optimizer optimizer = Optimizer::adamw) {
  Workload workload;
  workload.params = params;
  workload.tokens = 1e9;
  workload.precision = precision;
  workload.optimizer = optimizer;
  return workload;
}

double model_state_gb(const MemoryBreakdown& m) {
  return (m.weights + m.gradients + m.optimizer).value / 1e9;
}

}  // namespace

// Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
// Models", Figure 1: Psi = 7.5B, Nd = 64, K = 12 -> 120 / 31.4 / 16.6 / 1.9 GB per device.
TEST_CASE("model states match ZeRO paper Figure 1 for stages 0-3", "[memory][reference]") {
  const Workload workload = workload_with(7.5e9);
  const Architecture shape = architecture_from_params(7.5e9);
  const double expected_gb[] = {120.0, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    const MemoryBreakdown memory = training_memory(workload, shape, 64, stage, Recompute::none);
    INFO("ZeRO stage " << stage);
    CHECK(model_state_gb(memory) == Approx(expected_gb[stage]).margin(0.05));
  }
}

// ZeRO paper §3.1: mixed-precision Adam holds 2 + 2 + K bytes per parameter with K = 12.
TEST_CASE("mixed-precision Adam keeps 16 bytes per parameter", "[memory][reference]") {
  const StateBytesPerParam bytes = state_bytes_per_param(Precision::bf16_mixed, Optimizer::adamw);
  CHECK(bytes.weights == 2);
  CHECK(bytes.gradients == 2);
  CHECK(bytes.optimizer == 12);
  const StateBytesPerParam fp16 = state_bytes_per_param(Precision::fp16_mixed, Optimizer::adam);
  CHECK(fp16.weights + fp16.gradients + fp16.optimizer == 16);
}

TEST_CASE("bytes per parameter for fp32, SGD and 8-bit Adam", "[memory]") {
  const auto total = [](Precision p, Optimizer o) {
    const StateBytesPerParam b = state_bytes_per_param(p, o);
    return b.weights + b.gradients + b.optimizer;
  };
  CHECK(total(Precision::fp32, Optimizer::adamw) == 16);       // 4 + 4 + 8
  CHECK(total(Precision::fp32, Optimizer::sgd) == 8);          // 4 + 4
  CHECK(total(Precision::fp32, Optimizer::sgd_momentum) == 12);
  CHECK(total(Precision::bf16_mixed, Optimizer::sgd) == 8);    // 2 + 2 + 4 master
  // Dettmers et al. 2022: 8-bit Adam stores m and v in one byte each.
  CHECK(total(Precision::bf16_mixed, Optimizer::adam_8bit) == 10);
  CHECK(total(Precision::fp32, Optimizer::adam_8bit) == 10);
}

// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
// Table 2: sbh(34 + 5as/h) per layer without recomputation, 2sbh with full recomputation.
TEST_CASE("activations follow Korthikanti et al. Table 2", "[memory][reference]") {
  Architecture shape;  // one layer, no vocabulary: isolates the per-layer term
  shape.layers = 1;
  shape.hidden = 4096;
  shape.heads = 32;
  shape.kv_heads = 32;
  shape.head_dim = 128;
  shape.intermediate = 4 * 4096;
  shape.vocab = 0;
  const double s = 2048, b = 1, h = 4096, a = 32;
  const double outside = s * b * h + 4 * s * b * h;  // §4.3 terms with v = 0
  const double per_layer = s * b * h * (34 + 5 * a * s / h);
  CHECK(activation_bytes(shape, 2048, 1, Recompute::none).value == Approx(per_layer + outside));

  Architecture deep = shape;
  deep.layers = 32;
  const double full = activation_bytes(deep, 2048, 1, Recompute::full).value;
  CHECK(full == Approx(2 * s * b * h * 32 + per_layer + outside));
  // Recomputation keeps far less: 32 layers at 2sbh plus one live layer.
  CHECK(full < activation_bytes(deep, 2048, 1, Recompute::none).value / 10);
}

TEST_CASE("activations scale with micro-batch and the output layer with the vocabulary", "[memory]") {
  const Architecture shape = architecture_from_params(7e9);
  const double one = activation_bytes(shape, 2048, 1, Recompute::none).value;
  CHECK(activation_bytes(shape, 2048, 4, Recompute::none).value == Approx(4 * one));
  Architecture no_vocab = shape;
  no_vocab.vocab = 0;
  const double logits = one - activation_bytes(no_vocab, 2048, 1, Recompute::none).value;
  CHECK(logits == Approx(4.0 * 2048 * shape.vocab));  // fp32 logits: 4 bytes x s x b x V
}

TEST_CASE("framework overhead is added once per device", "[memory]") {
  const MemoryBreakdown memory =
      training_memory(workload_with(1e9), architecture_from_params(1e9), 8, 3, Recompute::none);
  CHECK(memory.overhead == k_framework_overhead);
  CHECK(memory.total() == memory.weights + memory.gradients + memory.optimizer + memory.activations +
                              memory.overhead);
}

// Brown et al. 2020, Table 2.1: the 6.7B model has 32 layers, d_model 4096, 32 heads;
// 175B has 96 layers, d_model 12288, 96 heads.
TEST_CASE("architecture_from_params reproduces the GPT-3 table rows", "[architecture][reference]") {
  const Architecture gpt3_6b7 = architecture_from_params(6.7e9);
  CHECK(gpt3_6b7.layers == 32);
  CHECK(gpt3_6b7.hidden == 4096);
  CHECK(gpt3_6b7.heads == 32);
  const Architecture gpt3_175b = architecture_from_params(175e9);
  CHECK(gpt3_175b.layers == 96);
  CHECK(gpt3_175b.hidden == 12288);
}

TEST_CASE("architecture_from_params scales depth between and beyond the rows", "[architecture]") {
  CHECK(architecture_from_params(7e9).hidden == 4096);
  CHECK(architecture_from_params(7e9).layers == 33);      // 32 × 7 / 6.7
  CHECK(architecture_from_params(70e9).hidden == 12288);  // nearest row on a log scale: 175B
  CHECK(architecture_from_params(70e9).layers == 38);     // 96 × 70 / 175
  CHECK(architecture_from_params(400e6).hidden == 1024);  // 350M is nearer than 760M
  CHECK(architecture_from_params(1e6).layers == 1);       // tiny models keep at least one layer
  CHECK(architecture_from_params(1e13).layers == 5486);   // 96 × 1e13 / 175e9
}
