// Efficiency per software stack, QLoRA's slowdown and the fixed setup time per run
// (docs/methodology.md#efficiency).

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/planner.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

using namespace mlsize;

TEST_CASE("each catalogue device trains with the software stack its vendor ships", "[efficiency]") {
  const Catalog catalog = load_default_catalog();
  const auto stack = [&](const char* id) {
    const Device* device = catalog.find_device(id);
    REQUIRE(device != nullptr);
    return stack_of(*device);
  };
  CHECK(stack("h100-sxm") == Stack::cuda);
  CHECK(stack("rtx-a6000") == Stack::cuda);  // a workstation card, not GeForce
  CHECK(stack("rtx-4090") == Stack::cuda_consumer);
  CHECK(stack("mi300x") == Stack::rocm);
  CHECK(stack("tpu-v5e") == Stack::xla);
  CHECK(stack("trainium") == Stack::neuron);
  CHECK(stack("gaudi2") == Stack::gaudi);
  CHECK(stack("apple-m3-max") == Stack::mps);
  // Every device of the catalogue gets a stack with a factor in (0, 1].
  for (const Device& device : catalog.devices()) {
    const double factor = stack_efficiency(stack_of(device));
    CHECK(factor > 0);
    CHECK(factor <= 1);
  }
}

TEST_CASE("MFU: the datacenter default scaled per stack, unless pinned, QLoRA pays its dequantisation",
          "[efficiency]") {
  const Catalog catalog = load_default_catalog();
  const Device& h100 = *catalog.find_device("h100-sxm");
  const Device& mi300x = *catalog.find_device("mi300x");
  Workload w = testing::workload_for_params(7e9);
  CHECK(effective_mfu(h100, w) == w.mfu);
  // SemiAnalysis 2024: the MI300X reached ~75% of H100's training speed with 1.32× its
  // peak, so its MFU is well below NVIDIA's.
  CHECK(effective_mfu(mi300x, w) < 0.7 * w.mfu);
  w.mfu = 0.5;
  w.mfu_pinned = true;  // --mfu 0.5: the user measured their own stack
  CHECK(effective_mfu(mi300x, w) == 0.5);
  w.mfu_pinned = false;
  w.mfu = 0.40;
  w.task = Task::lora;
  const double lora = effective_mfu(h100, w);
  w.task = Task::qlora;
  CHECK(effective_mfu(h100, w) == Approx(lora / k_qlora_slowdown));
  CHECK(k_qlora_slowdown >= 1.3);  // Raschka 2023: 10,059.53 s against 6,685.75 s
}

TEST_CASE("every run adds its setup time once, which matters for short runs only", "[efficiency]") {
  const Catalog catalog = load_default_catalog();
  const Offering& offering = *catalog.find_offering("aws-p4d.24xlarge");
  const Device& device = *catalog.find_device(offering.device_id);
  const Plan plan{&offering, &device, 1, 8, Strategy{}};
  Workload w = testing::workload_for_params(1e8, 1e9);
  w.setup_time = Seconds(0);
  const PlanEstimate bare = estimate_plan(w, plan, CostSettings{});
  w.setup_time = Seconds(600);
  const PlanEstimate with_setup = estimate_plan(w, plan, CostSettings{});
  CHECK(with_setup.setup.value == 600);
  CHECK(with_setup.time.value == Approx(bare.time.value + 600));
  REQUIRE(with_setup.cost);
  CHECK(with_setup.cost->value > bare.cost->value);
  // A 100M model on 1B tokens runs for minutes on 8 A100s: the setup is a large share.
  CHECK(with_setup.setup.value / with_setup.time.value > 0.3);
}

// Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
// Using Megatron-LM" (SC'21), §1: "training GPT-3 with 175 billion parameters would
// require approximately 288 years with a single V100 NVIDIA GPU". GPT-3's 3.14e23 FLOPs
// (Brown et al. 2020, Table D.1) on one V100 at mlsize's Volta MFU, 0.40 × 0.75 = 30%.
TEST_CASE("a V100 trains at Volta's MFU: GPT-3 in about 288 V100-years", "[efficiency][reference]") {
  const Catalog catalog = load_default_catalog();
  const Device& v100 = *catalog.find_device("v100-sxm2-32gb");
  const Workload w = testing::workload_for_params(175e9, 300e9);
  CHECK(generation_efficiency(v100) == 0.75);
  CHECK(generation_efficiency(*catalog.find_device("t4")) == 0.75);
  CHECK(generation_efficiency(*catalog.find_device("a100-80gb-sxm")) == 1.0);
  CHECK(generation_efficiency(*catalog.find_device("h100-sxm")) == 1.0);
  const double mfu = effective_mfu(v100, w);
  CHECK(mfu == Approx(0.30));
  const double years = 3.14e23 / (125e12 * mfu) / (365.0 * 86400);
  CHECK(years == Approx(288).epsilon(0.10));  // 265 years
}

// Hu et al. 2021, §4.2: LoRA trains GPT-3 175B 25% faster than full fine-tuning.
TEST_CASE("LoRA runs 1.25× faster than full fine-tuning, not 1.5×", "[efficiency][reference]") {
  const Catalog catalog = load_default_catalog();
  const Device& a100 = *catalog.find_device("a100-80gb-sxm");
  Workload full = testing::workload_for_params(7e9, 1e9);
  full.task = Task::finetune;
  Workload lora = full;
  lora.task = Task::lora;
  const auto seconds = [&](const Workload& w) {
    return training_flops(w.parameters.active, w.tokens, Recompute::none, w.task).value / effective_mfu(a100, w);
  };
  CHECK(seconds(full) / seconds(lora) == Approx(1.25));
}

// Issue 27: a CPU's AMX GEMMs reach ~20% of their 1024 BF16 ops/cycle (oneDNN issue #1992: 42.9
// TFLOP/s on 188 threads of a Sapphire Rapids host), against 73% for an H100's BF16 GEMMs, so
// CPU training and prefill in bf16 run at 0.3 of the datacenter MFU; FP32 on AVX-512 or AVX2
// runs near its FMA peak (oneDNN issue #1115: 73-96% on a Xeon 8180 core), undiscounted.
TEST_CASE("a CPU computing on AMX reaches a fraction of the datacenter MFU, FP32 does not", "[efficiency]") {
  const Catalog catalog = load_default_catalog();
  const Device& spr = *catalog.find_device("xeon-8481c");
  const Device& milan = *catalog.find_device("epyc-7763");
  const Device& h100 = *catalog.find_device("h100-sxm");
  Workload w = testing::workload_for_params(7e9);  // a 7B model: no small-model factor
  CHECK(effective_mfu(spr, w) == Approx(w.mfu * k_cpu_amx_efficiency));
  CHECK(k_cpu_amx_efficiency == Approx(0.23 / 0.73).epsilon(0.1));
  w.precision = Precision::fp32;  // AVX-512 FP32: no discount
  CHECK(effective_mfu(spr, w) == Approx(w.mfu));
  w.precision = Precision::bf16_mixed;
  CHECK(cpu_gemm_efficiency(milan, DType::fp32) == 1.0);
  CHECK(cpu_gemm_efficiency(h100, DType::bf16) == 1.0);
  CHECK(effective_mfu(h100, w) == w.mfu);
  w.mfu_pinned = true;  // --mfu: the user's own measurement
  CHECK(effective_mfu(spr, w) == w.mfu);
}

// MosaicML llm-foundry's benchmark tables (scripts/train/benchmarking/README.md, 8 × A100-80GB,
// bf16, sequence 2048): MFU 44.79 % at 125M, 51.62 % at 350M, 56.85 % at 760M, 59.86 % at 1B
// against 64.23 % at 7B. mlsize's share of the 7B's MFU is within 6 % of each.
TEST_CASE("small models reach less of the peak, as MosaicML measured", "[efficiency][published]") {
  const double seven_b = 64.23;
  CHECK(size_efficiency(125e6) == Approx(44.79 / seven_b).epsilon(0.06));
  CHECK(size_efficiency(350e6) == Approx(51.62 / seven_b).epsilon(0.06));
  CHECK(size_efficiency(760e6) == Approx(56.85 / seven_b).epsilon(0.06));
  CHECK(size_efficiency(1.3e9) == Approx(59.86 / seven_b).epsilon(0.06));  // MPT-1b has 1.3B
  CHECK(size_efficiency(6.74e9) == 1.0);  // Llama 2 7B: the default's own measurement
  // Below the measured range the line goes on, to a floor: 20M at 0.61, 2M at 0.5.
  CHECK(size_efficiency(20e6) < size_efficiency(125e6));
  CHECK(size_efficiency(2e6) == k_size_efficiency_floor);
  const Catalog catalog = load_default_catalog();
  Workload small = testing::workload_for_params(125e6);
  CHECK(effective_mfu(*catalog.find_device("h100-sxm"), small) == Approx(small.mfu * size_efficiency(125e6)));
  small.mfu_pinned = true;  // --mfu: the user's own measurement
  CHECK(effective_mfu(*catalog.find_device("h100-sxm"), small) == small.mfu);
}

namespace {

// One published MoE run: its MFU as a share of a dense model's on the same page, release and
// system (Model TFLOP/s per GPU, NVIDIA's counting: active experts, causal attention).
struct MoeRow {
  const char* run;
  Architecture model;  // only hidden and the experts' width matter here
  double active;       // parameters per token
  DType dtype;
  double measured;     // MoE MFU ÷ dense MFU
};

Architecture experts(int hidden, int expert_intermediate, int experts, int top_k) {
  Architecture a;
  a.hidden = hidden;
  a.moe.experts = experts;
  a.moe.experts_per_token = top_k;
  a.moe.expert_intermediate = expert_intermediate;
  return a;
}

double predicted(const MoeRow& row) {
  return size_efficiency(row.active) * moe_efficiency(row.model, row.dtype);
}

double relative_error(const MoeRow& row) {
  return predicted(row) / row.measured - 1.0;
}

}  // namespace

// Fitted on one set and checked on another, both collected before the fit. Shapes from the
// Hugging Face configs (tests/data/hf-configs where we keep one; Grok-1 from xai-org/grok-1's
// model card, Nemotron 3 Nano and Llama 4 from their model cards). Sources:
// AM = NeMo AutoModel performance summary (docs.nvidia.com/nemo/automodel, H100 BF16, against
// Llama 3 70B's 389 TFLOP/s, 39.3 %); MB = Megatron-Bridge performance summary (26.04.01,
// DGX-H100 FP8 against Llama 3 70B's 731, DGX-GB200 MXFP8 against its 1,664; 25.09 DGX-H100
// FP8 against 727); DGXC = NVIDIA/dgxc-benchmarking v25.05.04 (H100 BF16, against Llama 3.1
// 405B's stated 55.34 %); NeMo = NeMo framework performance summaries 25.04 and 25.07
// (GB200 FP8, against Llama 3 70B's 1,943 and 1,957).
TEST_CASE("mixtures of experts train at the share of a dense model's MFU NVIDIA publishes", "[efficiency][published]") {
  const Architecture qwen3_30b = experts(2048, 768, 128, 8);
  const Architecture qwen3_235b = experts(4096, 1536, 128, 8);
  const Architecture deepseek_v3 = experts(7168, 2048, 256, 8);
  const Architecture kimi_k2 = experts(7168, 2048, 384, 8);
  const Architecture gpt_oss_20b = experts(2880, 2880, 32, 4);
  const Architecture gpt_oss_120b = experts(2880, 2880, 128, 4);
  const Architecture nemotron_nano = experts(2688, 1856, 128, 6);
  const Architecture mixtral = experts(4096, 14336, 8, 2);
  const Architecture grok_1 = experts(6144, 32768, 8, 2);
  const Architecture maverick = experts(5120, 8192, 128, 1);
  const Architecture scout = experts(5120, 8192, 16, 1);
  // clang-format off
  const std::vector<MoeRow> fitting{
      {"AM Qwen3-30B-A3B, 8 H100, BF16", qwen3_30b, 3.3e9, DType::bf16, 277.0 / 389},
      {"AM Nemotron 3 Nano, 8 H100, BF16", nemotron_nano, 3.5e9, DType::bf16, 328.0 / 389},
      {"AM gpt-oss-20b, 8 H100, BF16", gpt_oss_20b, 3.6e9, DType::bf16, 279.0 / 389},
      {"AM gpt-oss-120b, 64 H100, BF16", gpt_oss_120b, 5.1e9, DType::bf16, 231.0 / 389},
      {"AM DeepSeek-V3, 256 H100, BF16", deepseek_v3, 37e9, DType::bf16, 250.0 / 389},
      {"MB 26.04.01 Qwen3-30B-A3B, 16 H100, FP8", qwen3_30b, 3.3e9, DType::fp8, 206.0 / 731},
      {"MB 26.04.01 Qwen3-235B-A22B, 256 H100, FP8", qwen3_235b, 22e9, DType::fp8, 253.0 / 731},
      {"MB 26.04.01 Nemotron 3 Nano, 16 H100, FP8", nemotron_nano, 3.5e9, DType::fp8, 321.0 / 731},
      {"DGXC Grok-1, 512 H100, BF16", grok_1, 78.5e9, DType::bf16, 54.2 / 55.34},
      {"NeMo 25.04 Mixtral 8x7B, 64 GB200, FP8", mixtral, 12.9e9, DType::fp8, 1598.0 / 1943},
  };
  const std::vector<MoeRow> held_out{
      {"AM Kimi K2, 256 H100, BF16", kimi_k2, 32e9, DType::bf16, 189.0 / 389},
      {"AM DeepSeek-V3, 1024 H100, BF16", deepseek_v3, 37e9, DType::bf16, 216.0 / 389},
      {"DGXC DeepSeek-V3, 512 H100, BF16", deepseek_v3, 37e9, DType::bf16, 17.6 / 55.34},
      {"DGXC Llama 4 Maverick, 512 H100, BF16", maverick, 17e9, DType::bf16, 40.8 / 55.34},
      {"MB 25.09 DeepSeek-V3, 1024 H100, FP8", deepseek_v3, 37e9, DType::fp8, 338.0 / 727},
      {"MB 26.04.01 DeepSeek-V3, GB200, MXFP8", deepseek_v3, 37e9, DType::fp8, 1106.0 / 1664},
      {"MB 26.04.01 Qwen3-235B-A22B, GB200, MXFP8", qwen3_235b, 22e9, DType::fp8, 840.0 / 1664},
      {"MB 26.04.01 Qwen3-30B-A3B, GB200, MXFP8", qwen3_30b, 3.3e9, DType::fp8, 599.0 / 1664},
      {"MB 26.04.01 Nemotron 3 Nano, GB200, MXFP8", nemotron_nano, 3.5e9, DType::fp8, 725.0 / 1664},
      {"NeMo 25.07 Llama 4 Scout, GB200, FP8", scout, 17e9, DType::fp8, 1501.0 / 1957},
  };
  // clang-format on
  const auto mean_abs_error = [](const std::vector<MoeRow>& rows) {
    double sum = 0;
    for (const MoeRow& row : rows) sum += std::abs(relative_error(row));
    return sum / static_cast<double>(rows.size());
  };
  // Each factor is the mean of its fitting rows' shares ÷ size_efficiency (0.725, 0.367,
  // 0.901). The fit: 12.6 % on average, 25 % at most (the same model's FP8 share moves from
  // 0.17 to 0.33 between Megatron-Bridge releases).
  for (const MoeRow& row : fitting) {
    INFO(row.run << ": predicted " << predicted(row) << ", measured " << row.measured);
    CHECK(std::abs(relative_error(row)) < 0.3);
  }
  CHECK(mean_abs_error(fitting) < 0.15);
  // Held out: 35.6 % on average. The outliers are named in docs/methodology.md: DGXC's
  // DeepSeek-V3 (an earlier release at half the share AM measures) and DeepSeek-V3 on GB200,
  // whose MXFP8 dispatch gains what H100's FP8 does not.
  for (const MoeRow& row : held_out) {
    INFO(row.run << ": predicted " << predicted(row) << ", measured " << row.measured);
    CHECK(std::abs(relative_error(row)) < 1.3);
  }
  CHECK(mean_abs_error(held_out) < 0.4);
  // A dense model keeps 1; fine-grained experts lose more in FP8 than in BF16.
  CHECK(moe_efficiency(Architecture{}, DType::bf16) == 1.0);
  CHECK(moe_efficiency(qwen3_30b, DType::fp8) < moe_efficiency(qwen3_30b, DType::bf16));
  CHECK(moe_efficiency(mixtral, DType::fp8) == moe_efficiency(mixtral, DType::bf16));
}
