#include <mlsize/model/architecture.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

using namespace mlsize;
using mlsize::testing::workload_for_params;

namespace {

constexpr double k_gib = 1024.0 * 1024.0 * 1024.0;

Strategy zero(int stage, Recompute recompute = Recompute::none) {
  Strategy strategy;
  strategy.zero_stage = stage;
  strategy.recompute = recompute;
  return strategy;
}

Workload preset_workload(const char* name) {
  Workload workload;
  workload.model = *model_preset(name);
  workload.parameters = count_parameters(workload.model);
  workload.tokens = 1e9;
  return workload;
}

double model_states(const MemoryBreakdown& m) { return (m.weights + m.gradients + m.optimizer).value; }

// A shape with one layer and no vocabulary isolates Korthikanti's per-layer term.
Workload one_layer(double hidden, double heads) {
  Workload w = workload_for_params(1e9);
  w.model.layers = 1;
  w.model.hidden = static_cast<int>(hidden);
  w.model.heads = static_cast<int>(heads);
  w.model.kv_heads = static_cast<int>(heads);
  w.model.head_dim = static_cast<int>(hidden / heads);
  w.model.intermediate = static_cast<int>(4 * hidden);
  w.model.mlp = MlpKind::standard;  // Korthikanti et al. count GPT layers: a 4h MLP, no gate
  w.model.vocab = 0;
  w.attention = Attention::standard;
  w.sequence_length = 2048;
  w.micro_batch = 1;
  return w;
}

}  // namespace

// Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
// Models", Figure 1: Psi = 7.5B, Nd = 64, K = 12 -> 120 / 31.4 / 16.6 / 1.9 GB per device.
TEST_CASE("model states match ZeRO paper Figure 1 for stages 0-3", "[memory][reference]") {
  Workload workload = workload_for_params(7.5e9);
  workload.precision = Precision::fp16_mixed;  // the paper's mixed precision is fp16
  const double expected_gb[] = {120.0, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    INFO("ZeRO stage " << stage);
    // The paper counts model states only; ZeRO-3's gathered module (4 bytes per parameter
    // of the largest one) is a buffer beside them.
    const double gathered = stage == 3 ? 4 * largest_module_parameters(workload.model) : 0.0;
    CHECK((model_states(estimate_memory(workload, 64, zero(stage))) - gathered) / 1e9 ==
          Approx(expected_gb[stage]).margin(0.05));
  }
}

// ZeRO paper §3.1: mixed-precision Adam holds 2 + 2 + K bytes per parameter with K = 12.
TEST_CASE("bytes per parameter by precision and optimizer", "[memory][reference]") {
  const auto total = [](Precision p, Optimizer o) {
    const StateBytesPerParam b = state_bytes_per_param(p, o, 4096);
    return b.weights + b.gradients + b.optimizer();
  };
  CHECK(total(Precision::fp16_mixed, Optimizer::adam) == 16);
  // Megatron-LM keeps fp32 gradients under bf16: 2 + 4 + 12 = 18 (see the next test).
  CHECK(total(Precision::bf16_mixed, Optimizer::adamw) == 18);
  CHECK(total(Precision::fp8_mixed, Optimizer::adamw) == 18);
  CHECK(total(Precision::fp32, Optimizer::adamw) == 16);        // 4 + 4 + 8, no master copy
  CHECK(total(Precision::bf16, Optimizer::adamw) == 8);         // pure bf16: 2 + 2 + 2·2
  CHECK(total(Precision::fp32, Optimizer::sgd) == 8);
  CHECK(total(Precision::fp32, Optimizer::sgd_momentum) == 12);
  CHECK(total(Precision::fp16_mixed, Optimizer::sgd) == 8);     // 2 + 2 + 4 master
  CHECK(total(Precision::fp16_mixed, Optimizer::lion) == 12);   // Chen et al. 2023: momentum only
  // Dettmers et al. 2022: 8-bit Adam stores m and v in one byte each.
  CHECK(total(Precision::fp16_mixed, Optimizer::adam_8bit) == 10);
  // Adafactor's factored second moment is about 2/h values per parameter.
  CHECK(total(Precision::fp32, Optimizer::adafactor) == Approx(8 + 4.0 * 2 / 4096));
}

// Hugging Face accelerate, docs/source/usage_guides/model_size_estimator.md (commit
// 00e4d264): bert-base-cased, float32, "Training using Adam" 1.61 GB (GiB), computed in
// src/accelerate/commands/estimate.py as 4 × the fp32 size: 16 bytes per parameter.
TEST_CASE("fp32 Adam model states match accelerate's estimate for bert-base-cased", "[memory][reference]") {
  Workload bert = preset_workload("bert-base");
  bert.model.vocab = 28996;  // bert-base-cased's vocabulary; the preset is the uncased model
  bert.parameters = count_parameters(bert.model);
  CHECK(bert.parameters.total == 108310272.0);
  bert.precision = Precision::fp32;
  bert.optimizer = Optimizer::adam;
  const double gib = model_states(estimate_memory(bert, 1, zero(0))) / k_gib;
  CHECK(gib == Approx(1.614).margin(0.0005));  // accelerate prints 1.61 GB
}

// Megatron-LM docs/source/api-guide/dist_optimizer.md: bytes per parameter "bf16 param,
// fp32 grads: 18" without the distributed optimizer and "6 + 12/d" with it (ZeRO-1);
// "fp32 param, fp32 grads: 16" and "8 + 8/d".
TEST_CASE("bf16-mixed and fp32 model states match Megatron-LM's documented bytes per parameter", "[memory][reference]") {
  Workload w = workload_for_params(7e9);
  for (const double d : {1.0, 8.0, 64.0}) {
    INFO("data parallel " << d);
    const int devices = static_cast<int>(d);
    w.precision = Precision::bf16_mixed;
    CHECK(model_states(estimate_memory(w, devices, zero(0))) == Approx(18 * 7e9));
    CHECK(model_states(estimate_memory(w, devices, zero(1))) == Approx((6 + 12 / d) * 7e9));
    w.precision = Precision::fp32;
    CHECK(model_states(estimate_memory(w, devices, zero(0))) == Approx(16 * 7e9));
    CHECK(model_states(estimate_memory(w, devices, zero(1))) == Approx((8 + 8 / d) * 7e9));
  }
}

// DeepSpeed docs/code-docs/source/memory.rst (commit 3f043807): t5-3b, 2851M params, one
// node of 8 GPUs, ZeRO-3 without offload: 6.09 "GB" (GiB) per GPU, from
// estimate_zero3_model_states_mem_needs: 18 bytes/param / 8 + 4 × largest layer (32M).
TEST_CASE("ZeRO-3 model states against DeepSpeed's estimator for t5-3b", "[memory][reference]") {
  const double params = 2851e6;
  const double largest_layer = 32e6;
  const double deepspeed_gib = (18.0 * params / 8 + 4.0 * largest_layer) / k_gib;
  CHECK(deepspeed_gib == Approx(6.09).margin(0.005));  // DeepSpeed's formula reproduces its table
  Workload t5 = workload_for_params(params);
  t5.model.vocab = 32128;  // t5-3b: d_model 1024, the shared embedding 32128 × 1024 is its largest module
  t5.model.hidden = 1024;
  t5.model.intermediate = 16384;
  t5.model.heads = 32;
  t5.model.head_dim = 128;
  t5.model.kv_heads = 32;
  t5.parameters.total = params;
  CHECK(largest_module_parameters(t5.model) == Approx(32.9e6).epsilon(0.01));
  const double mlsize_gib = model_states(estimate_memory(t5, 8, zero(3))) / k_gib;
  // The estimator counts an fp32 gradient partition (4 bytes) where DeepSpeed's engine
  // keeps the gradients at bf16 under ZeRO (engine.py get_data_types): 2 bytes less per
  // parameter and rank; the gathered module is the same.
  CHECK(mlsize_gib == Approx(deepspeed_gib - 2.0 * params / 8 / k_gib).epsilon(0.005));
}

// DeepSpeed accumulates gradients in fp32 under bf16 only without ZeRO; ZeRO-2 and -3
// partitions are 16-bit, as FSDP's 16 bytes (fp32 shards double as master weights).
TEST_CASE("bf16-mixed: fp32 gradients unsharded, 16-bit gradient partitions from ZeRO-2", "[memory][reference]") {
  const Workload w = workload_for_params(7e9);
  CHECK(estimate_memory(w, 8, zero(2)).gradients.value == Approx(2 * 7e9 / 8));
  CHECK(model_states(estimate_memory(w, 8, zero(2))) == Approx((2 + 14.0 / 8) * 7e9));
  const double gathered = 4 * largest_module_parameters(w.model);
  CHECK(model_states(estimate_memory(w, 8, zero(3))) == Approx(16 * 7e9 / 8 + gathered));
}

// DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs
// with cpu_offload=True: 2Ψ on the GPU, Ψ · max(4 · gpus, 16) · 1.5 on the host. The
// ZeRO-Offload paper (Ren et al. 2021, abstract and §4.1) trains 13B on one V100 32GB.
TEST_CASE("ZeRO-Offload keeps only 16-bit weights on the device, as DeepSpeed's estimator", "[memory][reference]") {
  for (const double params : {1.3e9, 6.7e9, 13e9}) {
    Workload w = workload_for_params(params);
    w.precision = Precision::fp16_mixed;
    Strategy st = zero(2, Recompute::full);
    st.offload = Offload::optimizer;
    // One micro-step per step, as the estimator assumes: nothing accumulates between them.
    w.global_batch = static_cast<double>(w.micro_batch) * w.sequence_length;
    const MemoryBreakdown m = estimate_memory(w, 1, st);
    INFO(params);
    CHECK(model_states(m) == Approx(2 * params));           // DeepSpeed: gpu_mem = 2 · total_params
    CHECK(m.host.value * 1.5 == Approx(params * 16 * 1.5));  // DeepSpeed: cpu_mem with its 1.5 factor
    // With gradient accumulation the 16-bit gradients wait on the host between micro-steps
    // (stage_1_and_2.py, accumulated_grads_in_cpu): 2 bytes more.
    w.global_batch.reset();
    CHECK(estimate_memory(w, 1, st).host.value == Approx(params * 18));
    // Spread over 8 devices, each holds its shard on the host (DeepSpeed's max(4 · gpus, 16)
    // counts 4 bytes per GPU per parameter while the model loads).
    CHECK(estimate_memory(w, 8, st).host.value == Approx(params * 18 / 8));
  }
}

// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models", Table 2 (activation bytes per layer, 16-bit).
TEST_CASE("per-layer activations follow every row of Korthikanti et al. Table 2", "[memory][reference]") {
  const double s = 2048, b = 1, h = 12288, a = 96, t = 8;
  const Workload w = one_layer(h, a);
  // Strip the §4.3 terms outside the layers: embedding mask sbh and output 4sbh/t (v = 0).
  const auto per_layer = [&](Strategy st) {
    const double outside = s * b * h + 4 * s * b * h / st.tensor_parallel;
    return training_activation_bytes(w, st).value - outside;
  };
  Strategy st;
  CHECK(per_layer(st) == Approx(s * b * h * (34 + 5 * a * s / h)));  // no parallelism
  st.tensor_parallel = 8;
  CHECK(per_layer(st) == Approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))));  // tensor parallel
  st.sequence_parallel = true;
  CHECK(per_layer(st) == Approx(s * b * h * (34 / t + 5 * a * s / (h * t))));  // + sequence parallel
  st.sequence_parallel = false;
  st.recompute = Recompute::selective;
  CHECK(per_layer(st) == Approx(s * b * h * (10 + 24 / t)));  // + selective recomputation
  st.sequence_parallel = true;
  CHECK(per_layer(st) == Approx(s * b * h * 34 / t));  // + sequence parallel + selective
}

TEST_CASE("full recomputation keeps 2sbh per layer plus one live layer", "[memory][reference]") {
  Workload w = one_layer(4096, 32);
  w.model.layers = 32;
  const double s = 2048, b = 1, h = 4096;
  const double per_layer = s * b * h * (34 + 5 * 32 * s / h);
  const double outside = s * b * h + 4 * s * b * h;
  CHECK(training_activation_bytes(w, zero(0, Recompute::full)).value ==
        Approx(2 * s * b * h * 32 + per_layer + outside));
}

TEST_CASE("flash attention removes the s² term and keeps the fp32 log-sum-exp", "[memory]") {
  Workload w = one_layer(4096, 32);
  const double s = 2048, b = 1, h = 4096, a = 32;
  const double standard = training_activation_bytes(w, Strategy{}).value;
  w.attention = Attention::flash;
  const double flash = training_activation_bytes(w, Strategy{}).value;
  CHECK(standard - flash == Approx(5 * a * s * s * b - 4 * a * s * b));
  CHECK(flash == Approx(s * b * h * 34 + 4 * a * s * b + s * b * h + 4 * s * b * h));
}

TEST_CASE("GQA shrinks the K and V activations", "[memory]") {
  Workload w = one_layer(4096, 32);
  const double mha = training_activation_bytes(w, Strategy{}).value;
  w.model.kv_heads = 8;  // 4 query heads per KV head
  const double gqa = training_activation_bytes(w, Strategy{}).value;
  const double s = 2048, b = 1;
  CHECK(mha - gqa == Approx(4 * s * b * (4096 - 1024)));  // K and V: 2 bytes each per value
}

TEST_CASE("pipeline parallelism: the first stage holds all L layers' activations", "[memory][reference]") {
  // Korthikanti §4.2.3: with 1F1B the first stage stores p micro-batches of L/p layers.
  Workload w = one_layer(4096, 32);
  w.model.layers = 32;
  Strategy st;
  const double no_pp = training_activation_bytes(w, st).value;
  st.pipeline_parallel = 4;
  const double s = 2048, b = 1, h = 4096;
  const double output = 4 * s * b * h;
  CHECK(training_activation_bytes(w, st).value == Approx(no_pp - output));
}

// Kwon et al. 2023, "Efficient Memory Management for LLM Serving with PagedAttention",
// §3: OPT-13B's KV cache takes 800 KB per token (2 × 5120 × 40 × 2 bytes) and up to
// 1.6 GB for one 2048-token request.
TEST_CASE("KV cache matches vLLM's 800 KB per token for OPT-13B", "[memory][reference]") {
  Workload opt = workload_for_params(13e9);
  opt.model.layers = 40;
  opt.model.hidden = 5120;
  opt.model.heads = 40;
  opt.model.kv_heads = 40;
  opt.model.head_dim = 128;
  opt.task = Task::inference;
  opt.kv_format = KvFormat::fp16;
  opt.batch = 1;
  opt.context = 1;
  CHECK(kv_cache_bytes(opt, Strategy{}).value == 819200.0);
  opt.context = 2048;
  CHECK(kv_cache_bytes(opt, Strategy{}).value == 1677721600.0);  // 1.6 GB (1.5625 GiB)
}

TEST_CASE("KV cache under GQA, MLA, sliding windows, quantisation and tensor parallelism", "[memory]") {
  Workload llama = preset_workload("llama-2-70b");  // 80 layers, 8 KV heads of 128
  llama.task = Task::inference;
  llama.context = 4096;
  llama.batch = 8;
  const double expected = 2.0 * 80 * 8 * 128 * 4096 * 8 * 2;
  CHECK(kv_cache_bytes(llama, Strategy{}).value == expected);
  llama.kv_format = KvFormat::fp8;
  CHECK(kv_cache_bytes(llama, Strategy{}).value == expected / 2);
  Strategy tp;
  tp.tensor_parallel = 8;
  CHECK(kv_cache_bytes(llama, tp).value == expected / 2 / 8);
  tp.tensor_parallel = 16;  // more ranks than KV heads: each keeps one head
  CHECK(kv_cache_bytes(llama, tp).value == expected / 2 / 8);

  Workload mistral = preset_workload("mistral-7b");  // sliding window 4096
  mistral.task = Task::inference;
  mistral.context = 32768;
  mistral.batch = 1;
  CHECK(kv_cache_bytes(mistral, Strategy{}).value == 2.0 * 32 * 8 * 128 * 4096 * 2);

  // DeepSeek-V2 §2.1.2: MLA caches (d_c + d_h^R) = 512 + 64 values per token per layer.
  Workload deepseek = preset_workload("deepseek-v2-lite");
  deepseek.task = Task::inference;
  deepseek.context = 1;
  deepseek.batch = 1;
  CHECK(kv_cache_bytes(deepseek, Strategy{}).value == 27.0 * (512 + 64) * 2);
}

TEST_CASE("inference weights by format: NF4 and GPTQ quantise linear layers only", "[memory]") {
  Workload llama = preset_workload("llama-2-7b");
  llama.task = Task::inference;
  const double n = llama.parameters.total;
  const double linear = llama.parameters.linear;
  llama.weight_format = WeightFormat::bf16;
  CHECK(estimate_memory(llama, 1, Strategy{}).weights.value == Approx(2 * n));
  llama.weight_format = WeightFormat::nf4;  // QLoRA §3: 4 + 0.127 bits
  CHECK(estimate_memory(llama, 1, Strategy{}).weights.value ==
        Approx(linear * 4.126953125 / 8 + (n - linear) * 2));
  llama.weight_format = WeightFormat::q4_k_m;  // GGUF: every tensor
  CHECK(estimate_memory(llama, 1, Strategy{}).weights.value == Approx(n * 4.90 / 8));
}

// Dettmers et al. 2023, "QLoRA" abstract: finetunes a 65B model on a single 48GB GPU
// (LoRA r = 64 on all linear layers, bf16 adapters, paged 32-bit AdamW, gradient
// checkpointing, sequence 512; artidoro/qlora scripts/finetune_guanaco_65b.sh).
TEST_CASE("QLoRA fine-tuning of LLaMA-65B fits one 48 GB GPU", "[memory][reference]") {
  Workload llama = workload_for_params(65.2e9);
  Architecture& m = llama.model;  // LLaMA-65B (Touvron et al. 2023, Table 2)
  m.layers = 80;
  m.hidden = 8192;
  m.heads = 64;
  m.kv_heads = 64;
  m.head_dim = 128;
  m.intermediate = 22016;
  m.vocab = 32000;
  m.mlp = MlpKind::gated;
  m.tied_embeddings = false;
  llama.parameters = count_parameters(m);
  CHECK(llama.parameters.total == Approx(65.2e9).epsilon(0.01));
  llama.task = Task::qlora;
  llama.lora_rank = 64;
  llama.sequence_length = 512;
  llama.micro_batch = 1;
  const MemoryBreakdown memory = estimate_memory(llama, 1, zero(0, Recompute::full));
  INFO("total " << memory.total().value / 1e9 << " GB");
  CHECK(memory.total().value < 48e9);
  // §2: the 4-bit base of LLaMA-7B takes 5,048 MB; ours for the 65B base is ~34.5 GB.
  CHECK(memory.weights.value > 34e9);
}

// Stanford Alpaca README (tatsu-lab/stanford_alpaca@7f085321): LLaMA-7B full fine-tuning
// on 4 A100 80G GPUs, bf16, batch 4 per GPU, max length 512, no gradient checkpointing.
TEST_CASE("LLaMA-7B full fine-tuning fits 4× A100 80GB with ZeRO-2 and not one 24 GB GPU", "[memory][reference]") {
  Workload llama = preset_workload("llama-2-7b");
  llama.task = Task::finetune;
  llama.sequence_length = 512;
  llama.micro_batch = 4;
  const MemoryBreakdown four = estimate_memory(llama, 4, zero(2));
  INFO("4 devices, ZeRO-2: " << four.total().value / 1e9 << " GB");
  CHECK(four.total().value < 80e9);
  const MemoryBreakdown one = estimate_memory(llama, 1, zero(0));
  CHECK(model_states(one) == Approx(18 * llama.parameters.total));  // "7 x 4 x 4 = 112 GB" + fp32 gradients
  CHECK(one.total().value > 24e9);
}

TEST_CASE("LoRA trains only the adapters, the frozen base has no gradients", "[memory]") {
  Workload llama = preset_workload("llama-2-7b");
  llama.task = Task::lora;
  llama.lora_rank = 8;
  llama.lora_targets = k_lora_q | k_lora_v;  // the LoRA paper's choice (Hu et al. 2021, §7.1)
  const double adapters = lora_parameters(llama.model, 8, llama.lora_targets);
  CHECK(adapters == 32.0 * 8 * 2 * (4096 + 4096));  // 4,194,304: PEFT prints this for Llama-2-7B
  const MemoryBreakdown memory = estimate_memory(llama, 1, zero(0));
  CHECK(memory.weights.value == Approx(2 * llama.parameters.total + 4 * adapters));
  CHECK(memory.gradients.value == Approx(4 * adapters));
  CHECK(memory.optimizer.value == Approx(8 * adapters));
}

TEST_CASE("MoE: memory counts every expert, expert parallelism splits them", "[memory]") {
  Workload mixtral = preset_workload("mixtral-8x7b");
  CHECK(mixtral.parameters.total == 46702792704.0);
  const double experts = routed_expert_parameters(mixtral.model);
  CHECK(experts == 32.0 * 8 * 3 * 4096 * 14336);
  const double one = model_states(estimate_memory(mixtral, 8, zero(0)));
  CHECK(one == Approx(18 * mixtral.parameters.total));
  Strategy ep = zero(0);
  ep.expert_parallel = 8;
  CHECK(model_states(estimate_memory(mixtral, 8, ep)) == Approx(18 * (mixtral.parameters.total - experts + experts / 8)));
}

TEST_CASE("tensor and pipeline parallelism divide the model states", "[memory]") {
  Workload w = workload_for_params(70e9);
  Strategy st;
  st.tensor_parallel = 8;
  st.pipeline_parallel = 4;
  CHECK(model_states(estimate_memory(w, 32, st)) == Approx(18 * 70e9 / 32));
}

TEST_CASE("optimizer offload moves gradients and optimizer states to host memory", "[memory]") {
  const Workload w = workload_for_params(7e9);
  Strategy st = zero(2);
  st.offload = Offload::optimizer;
  const MemoryBreakdown m = estimate_memory(w, 4, st);
  CHECK(m.optimizer.value == 0);
  CHECK(m.gradients.value == 0);
  // fp32 gradients, master, moments, and the 16-bit gradients accumulated between micro-steps
  CHECK(m.host.value == Approx(18 * 7e9 / 4));
}

TEST_CASE("overhead and allocator margin", "[memory]") {
  Workload w = workload_for_params(1e9);
  w.overhead = Bytes(1e9);
  w.allocator_margin = 0.1;
  const MemoryBreakdown m = estimate_memory(w, 1, Strategy{});
  CHECK(m.overhead.value == Approx(1e9 + 0.1 * m.activations.value));
}

// A parameter count that is exactly a released model's gets that model's shape: the real
// configs in data/models, and Brown et al. 2020, Table 2.1 for GPT-3 350M (24 x 1024).
TEST_CASE("architecture_from_params reproduces the reference models' shapes", "[architecture][reference]") {
  for (const char* name : {"llama-2-7b", "llama-2-13b", "llama-2-70b"}) {
    const Architecture real = *model_preset(name);
    const Architecture guessed = architecture_from_params(count_parameters(real).total);
    CHECK(guessed.layers == real.layers);
    CHECK(guessed.hidden == real.hidden);
    CHECK(guessed.heads == real.heads);
    CHECK(guessed.kv_heads == real.kv_heads);
    CHECK(guessed.intermediate == real.intermediate);
    CHECK(guessed.vocab == real.vocab);
    CHECK(guessed.mlp == MlpKind::gated);
    CHECK(count_parameters(guessed).total == count_parameters(real).total);
  }
  CHECK(architecture_from_params(350e6).hidden == 1024);
  CHECK(architecture_from_params(350e6).layers == 24);
}

TEST_CASE("architecture_from_params follows modern families between and beyond the rows", "[architecture]") {
  CHECK(architecture_from_params(7e9).hidden == 4096);
  CHECK(architecture_from_params(7e9).layers == 33);  // Llama-2-7B's width, one layer more for 7.0B
  // Grouped-query attention with 8 KV heads from about 30B, as the Llama family has it.
  CHECK(architecture_from_params(30e9).kv_heads == 8);
  CHECK(architecture_from_params(30e9).hidden == 8192);
  CHECK(architecture_from_params(13e9).kv_heads == 40);
  CHECK(architecture_from_params(3e9).hidden == 3072);  // Llama-3.2-3B: tied, 128k vocabulary
  CHECK(architecture_from_params(3e9).tied_embeddings);
  CHECK(architecture_from_params(400e6).hidden == 1024);  // GPT-3 350M is nearer than 760M
  CHECK(architecture_from_params(1e6).layers == 1);       // tiny models keep at least one layer
}

TEST_CASE("the KV cache of --params 70B is that of a real 70B model", "[architecture][memory]") {
  // The GPT-3 shapes gave 70B 38 layers x 12288 with 96 KV heads: 5.7x Llama-3-70B's cache.
  Workload guessed = workload_for_params(70e9);
  guessed.task = Task::inference;
  Workload real = guessed;
  real.model = *model_preset("llama-3-70b");
  const double ratio = kv_cache_bytes(guessed, Strategy{}).value / kv_cache_bytes(real, Strategy{}).value;
  CHECK(ratio == Approx(81.0 / 80).epsilon(1e-9));  // same heads; one layer more for 70.0B
}

TEST_CASE("fp32 training stores 4-byte activations", "[memory]") {
  Workload w = one_layer(4096, 32);
  const double bf16 = training_activation_bytes(w, Strategy{}).value;
  w.precision = Precision::fp32;
  CHECK(training_activation_bytes(w, Strategy{}).value == Approx(2 * bf16));
}

TEST_CASE("framework hf: DDP's all-reduce buckets copy the gradients, ZeRO and Megatron's buffer do not",
          "[memory]") {
  // PyTorch DDP docs, gradient_as_bucket_view: the view "can reduce peak memory usage,
  // where the saved memory size will be equal to the total gradients size" (default off).
  Workload w = testing::workload_for_params(7e9);
  w.framework = Framework::hf;
  Strategy ddp;
  const double one_device = estimate_memory(w, 1, ddp, nullptr).gradients.value;
  CHECK(one_device == Approx(7e9 * 4));  // fp32 gradients under autocast
  CHECK(estimate_memory(w, 8, ddp, nullptr).gradients.value == Approx(2 * one_device));
  Strategy zero1;
  zero1.zero_stage = 1;
  CHECK(estimate_memory(w, 8, zero1, nullptr).gradients.value == Approx(one_device));
  w.framework = Framework::megatron;
  CHECK(estimate_memory(w, 8, ddp, nullptr).gradients.value == Approx(7e9 * 4));  // fp32 main_grad buffer
}

// HSDP shards the states over its group, not every data-parallel rank: ZeRO's stage-3 formula
// (2 + 2 + K)Ψ/Nd (Rajbhandari et al. 2020, §5.3, Figure 1) with Nd the group. The paper's
// 7.5B on 64 devices in groups of 8: 120 GB / 8 = 15.0 GB, against Figure 1's 1.9 GB over 64.
TEST_CASE("HSDP shards model states over the shard group only", "[memory]") {
  Workload workload = workload_for_params(7.5e9);
  workload.precision = Precision::fp16_mixed;
  Strategy hsdp = zero(3);
  hsdp.shard_group = 8;
  const double gathered = 4 * largest_module_parameters(workload.model);
  CHECK((model_states(estimate_memory(workload, 64, hsdp)) - gathered) / 1e9 == Approx(15.0).margin(0.05));
  // A group of every rank is ZeRO-3's sharding.
  hsdp.shard_group = 64;
  CHECK(model_states(estimate_memory(workload, 64, hsdp)) == model_states(estimate_memory(workload, 64, zero(3))));
}
