// mlsize's estimates against memory measured in real PyTorch runs on an NVIDIA H200:
// bench/gpu_memory_check.py measure (torch 2.11, transformers 5.17, peft 0.21), raw
// results with the exact model configs in bench/results/h200-2026-11-29.json.
// docs/methodology.md#measured-on-a-gpu discusses each row.

#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

using namespace mlsize;

namespace {

nlohmann::json measured_results(const std::string& file = "h200-2026-11-29.json") {
  std::ifstream in(std::string(MLSIZE_SOURCE_DIR) + "/bench/results/" + file, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// The workload the measured run was, read from the config the run built its model from.
Workload workload_of(const nlohmann::json& results, const nlohmann::json& row) {
  const std::string name = row.at("model");
  Workload w;
  w.model = architecture_from_hf_config(results.at("configs").at(name).dump(), name);
  w.parameters = count_parameters(w.model);
  const std::string kind = row.at("kind");
  w.task = kind == "infer" ? Task::inference : kind == "lora" ? Task::lora : Task::finetune;
  w.precision = row.at("precision") == "fp32" ? Precision::fp32 : Precision::bf16_mixed;
  w.attention = row.at("attention") == "sdpa" ? Attention::flash : Attention::standard;
  w.framework = Framework::hf;
  w.lora_rank = 16;
  if (w.task == Task::inference) {
    w.context = row.at("seq");
    w.batch = row.at("batch");
  } else {
    w.sequence_length = row.at("seq");
    w.micro_batch = row.at("batch");
  }
  return w;
}

// What max_memory_allocated sees: everything but the fixed framework overhead.
double allocated_estimate(const Workload& w, const Strategy& st) {
  const MemoryBreakdown memory = estimate_memory(w, 1, st, nullptr);
  return (memory.total() - memory.overhead).value;
}

}  // namespace

TEST_CASE("framework hf is within -17%..+13% of the measured training peaks on an H200") {
  const nlohmann::json results = measured_results();
  int rows = 0;
  for (const nlohmann::json& row : results.at("rows")) {
    if (row.at("kind") == "infer") continue;
    const Workload w = workload_of(results, row);
    Strategy st;
    st.recompute = row.at("checkpointing") == "on" ? Recompute::full : Recompute::none;
    const double measured = row.at("measured").at("peak_bytes");
    const double error = (allocated_estimate(w, st) - measured) / measured;
    INFO(row.at("model") << " " << row.at("kind") << " " << row.at("precision") << " checkpointing "
                         << row.at("checkpointing") << " " << row.at("attention") << ": error " << error);
    // The widest misses: GPT-2 bf16-mixed SDPA without checkpointing (-15.6%: a part of
    // the peak not identified) and TinyLlama full fine-tuning (+11%: all fp32 gradients are
    // counted, although activations are already partly freed when the last ones appear).
    CHECK(error > -0.17);
    CHECK(error < 0.13);
    if (row.at("kind") == "train") CHECK(w.parameters.total == row.at("measured").at("params").get<double>());
    ++rows;
  }
  CHECK(rows == 20);
}

TEST_CASE("framework megatron under-counts transformers' autocast training, which is why hf exists") {
  // TinyLlama-1.1B, bf16-mixed, SDPA, no checkpointing: 35.38 GiB measured. The
  // Korthikanti count assumes 16-bit residuals, fused norms and no per-layer casts.
  const nlohmann::json results = measured_results();
  for (const nlohmann::json& row : results.at("rows")) {
    if (row.at("model") != "tinyllama-1.1b" || row.at("kind") != "train" || row.at("checkpointing") != "off") continue;
    Workload w = workload_of(results, row);
    const double measured = row.at("measured").at("peak_bytes");
    const double hf = allocated_estimate(w, Strategy{});
    w.framework = Framework::megatron;
    const double megatron = allocated_estimate(w, Strategy{});
    CHECK(megatron < 0.85 * measured);
    CHECK(std::abs(hf - measured) < std::abs(megatron - measured));
  }
}

TEST_CASE("KV cache equals the cache a transformers prefill keeps, to the byte") {
  // TinyLlama-1.1B (22 layers, 4 KV heads of 64), bf16, context 2048: 369,098,752 bytes
  // at batch 8 and 1,476,395,008 at batch 32, measured as memory still allocated after
  // the prefill with only past_key_values kept.
  const nlohmann::json results = measured_results();
  int rows = 0;
  for (const nlohmann::json& row : results.at("rows")) {
    if (row.at("kind") != "infer") continue;
    const Workload w = workload_of(results, row);
    const MemoryBreakdown memory = estimate_memory(w, 1, Strategy{}, nullptr);
    CHECK(memory.kv_cache.value == row.at("measured").at("kv_bytes").get<double>());
    // Weights: bf16, 2 bytes per parameter; the measurement adds the allocator's rounding.
    CHECK(memory.weights.value == Approx(row.at("measured").at("weights_bytes").get<double>()).epsilon(0.001));
    // The prefill's peak: weights + cache + the working set of one forward pass.
    const double measured_peak = row.at("measured").at("peak_bytes");
    CHECK(allocated_estimate(w, Strategy{}) == Approx(measured_peak).epsilon(0.05));
    ++rows;
  }
  CHECK(rows == 2);
}

TEST_CASE("framework hf at 7B scale: within -4%..+18% of the measured training peaks, KV cache exact") {
  // bench/gpu_memory_check.py measure --suite scale: Llama-2-7B shape (full fine-tuning with
  // checkpointing at micro-batch 1; LoRA r=16 with and without it), TinyLlama at micro-batch 16,
  // and a 4 x 4096 prefill of the 7B model.
  const nlohmann::json results = measured_results("h200-2026-11-29-scale.json");
  int rows = 0;
  for (const nlohmann::json& row : results.at("rows")) {
    const Workload w = workload_of(results, row);
    Strategy st;
    st.recompute = row.at("checkpointing") == "on" ? Recompute::full : Recompute::none;
    const double measured = row.at("measured").at("peak_bytes");
    const double error = (allocated_estimate(w, st) - measured) / measured;
    INFO(row.at("model") << " " << row.at("kind") << " batch " << row.at("batch") << ": error " << error);
    if (row.at("kind") == "infer") {
      // 2 x 32 layers x 32 heads x 128 x 4096 x 4 x 2 bytes = 8 GiB.
      CHECK(estimate_memory(w, 1, st, nullptr).kv_cache.value == row.at("measured").at("kv_bytes").get<double>());
      CHECK(std::abs(error) < 0.05);
    } else {
      // 7B full fine-tuning peaks in the foreach AdamW step (20 B/param: weights, moments,
      // gradients and a tensor list of temporaries): -0.1% with the optimizer-step term,
      // -8.4% without it. The widest miss: TinyLlama at micro-batch 16, +17.9% (the loss's
      // 8sbV and the recomputed layer are summed, though they peak at different moments).
      CHECK(error > -0.04);
      CHECK(error < 0.18);
      if (row.at("model") == "llama-2-7b" && row.at("kind") == "train") CHECK(std::abs(error) < 0.01);
    }
    ++rows;
  }
  CHECK(rows == 5);
}

TEST_CASE("framework hf with fused projections (Phi-3-mini): within 5% of the measured peaks") {
  // measure --suite fused: one qkv_proj and one gate_up_proj per layer, so one input cast
  // each. Both peaks are the foreach AdamW step (20 B/param, 71.2 GiB).
  const nlohmann::json results = measured_results("h200-2026-11-29-fused.json");
  int rows = 0;
  for (const nlohmann::json& row : results.at("rows")) {
    const Workload w = workload_of(results, row);
    CHECK(w.model.fused_qkv);
    CHECK(w.model.fused_gate_up);
    CHECK(w.parameters.total == row.at("measured").at("params").get<double>());
    Strategy st;
    st.recompute = row.at("checkpointing") == "on" ? Recompute::full : Recompute::none;
    const double measured = row.at("measured").at("peak_bytes");
    const double error = (allocated_estimate(w, st) - measured) / measured;
    INFO("checkpointing " << row.at("checkpointing") << ": error " << error);
    CHECK(std::abs(error) < 0.05);
    ++rows;
  }
  CHECK(rows == 2);
}
