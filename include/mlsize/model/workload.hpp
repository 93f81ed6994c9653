#pragma once
// What the user wants to run: the model, the data, the task, precision and optimizer,
// and the constraints. Built once at the edge (CLI) from flags, presets or a config.

#include <mlsize/model/architecture.hpp>
#include <mlsize/model/diffusion.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/model/speech.hpp>
#include <mlsize/model/vision.hpp>
#include <mlsize/support/names.hpp>
#include <mlsize/support/units.hpp>

#include <array>
#include <bit>
#include <optional>

namespace mlsize {

// The default fixed time per run besides its compute (Workload::setup_time).
inline constexpr double k_default_setup_minutes = 10;

// Each enum is followed by its names table (support/names.hpp): to_string, parse_name<E>
// and names<E> read it.
enum class Task { pretrain, finetune, lora, qlora, inference, gbdt };
constexpr auto enum_names(Task) {
  using enum Task;
  return std::to_array<EnumName<Task>>({{pretrain, "pretrain"},
                                        {finetune, "finetune"},
                                        {lora, "lora"},
                                        {qlora, "qlora"},
                                        {inference, "inference"},
                                        {gbdt, "gbdt"}});
}
enum class Precision { bf16_mixed, fp16_mixed, fp32, bf16, fp8_mixed };
constexpr auto enum_names(Precision) {
  using enum Precision;
  return std::to_array<EnumName<Precision>>({{bf16_mixed, "bf16-mixed"},
                                             {fp16_mixed, "fp16-mixed"},
                                             {fp32, "fp32"},
                                             {bf16, "bf16"},
                                             {fp8_mixed, "fp8-mixed"}});
}
enum class Optimizer { adamw, adam, sgd, sgd_momentum, adam_8bit, adafactor, lion };
constexpr auto enum_names(Optimizer) {
  using enum Optimizer;
  return std::to_array<EnumName<Optimizer>>({{adamw, "adamw"},
                                             {adam, "adam"},
                                             {sgd, "sgd"},
                                             {sgd_momentum, "sgd-momentum"},
                                             {adam_8bit, "adam-8bit"},
                                             {adafactor, "adafactor"},
                                             {lion, "lion"}});
}
enum class Recompute { none, selective, full };
constexpr auto enum_names(Recompute) {
  using enum Recompute;
  return std::to_array<EnumName<Recompute>>({{none, "none"}, {selective, "selective"}, {full, "full"}});
}
enum class Attention { flash, standard };
constexpr auto enum_names(Attention) {
  using enum Attention;
  return std::to_array<EnumName<Attention>>({{flash, "flash"}, {standard, "standard"}});
}
// The training code (docs/methodology.md#frameworks). It decides whose saved tensors the
// activation count follows: hf = Hugging Face transformers modules under torch.autocast with
// fp32 weights (Trainer, Accelerate); every other = 16-bit weights and fused kernels
// (Korthikanti et al.: Megatron-LM, NeMo, DeepSpeed's bf16 mode, NeuronX Distributed, and
// XLA's fusions in MaxText). Named, it also decides the layouts and devices (framework.hpp).
enum class Framework { megatron, hf, deepspeed, jax, neuron };
constexpr auto enum_names(Framework) {
  using enum Framework;
  return std::to_array<EnumName<Framework>>(
      {{megatron, "megatron"}, {hf, "hf"}, {deepspeed, "deepspeed"}, {jax, "jax"}, {neuron, "neuron"}});
}
// Budget profile (--profile): startup (free tiers and spot first), team (cloud), enterprise (on-premise).
enum class Profile { none, startup, team, enterprise };
constexpr auto enum_names(Profile) {
  using enum Profile;
  return std::to_array<EnumName<Profile>>(
      {{none, "none"}, {startup, "startup"}, {team, "team"}, {enterprise, "enterprise"}});
}

// The serving engine inference runs under (--engine): its fixed cost per step and how it
// pages the KV cache (docs/methodology.md#serving-engines).
// gpt-fast: PyTorch compiled with CUDA graphs and a static KV cache (also torchao's and
// transformers' static-cache generate).
// vllm: vLLM 0.14 and later, whose scheduler works one step ahead of the GPU; vllm-0.13:
// vLLM 0.6.0 to 0.13, each step scheduled after the last; vllm-0.5: vLLM before 0.6.0, whose
// scheduler, output processing and API server ran between the GPU's steps. sglang-0.3: SGLang
// before 0.4's overlap scheduler.
enum class Engine { vllm, vllm_013, vllm_05, sglang, sglang_03, trtllm, tgi, llamacpp, gptfast };
constexpr auto enum_names(Engine) {
  using enum Engine;
  return std::to_array<EnumName<Engine>>({{vllm, "vllm"},
                                          {vllm_013, "vllm-0.13"},
                                          {vllm_05, "vllm-0.5"},
                                          {sglang, "sglang"},
                                          {sglang_03, "sglang-0.3"},
                                          {trtllm, "trtllm"},
                                          {trtllm, "tensorrt-llm"},
                                          {tgi, "tgi"},
                                          {llamacpp, "llama.cpp"},
                                          {gptfast, "gpt-fast"}});
}
// Whether the engine is one of vLLM's versions: its kernels, its launch and its host's CPUs.
constexpr bool is_vllm(Engine engine) {
  return engine == Engine::vllm || engine == Engine::vllm_013 || engine == Engine::vllm_05;
}
// The library that grows the trees of --task gbdt (docs/methodology.md#gbdt-libraries):
// XGBoost and LightGBM on CPUs, XGBoost also on NVIDIA GPUs, both across machines with Dask
// or Spark; scikit-learn's HistGradientBoosting on the CPUs of one machine.
enum class GbdtLibrary { xgboost, lightgbm, sklearn };
constexpr auto enum_names(GbdtLibrary) {
  using enum GbdtLibrary;
  return std::to_array<EnumName<GbdtLibrary>>({{xgboost, "xgboost"}, {lightgbm, "lightgbm"}, {sklearn, "sklearn"}});
}
// How an engine batches requests (--batching): continuous batching admits a request whenever
// one finishes (vLLM, Orca); static batching runs a batch from its prompts to its last token
// before taking the next (Hugging Face generate, FasterTransformer, batch-size sweeps).
enum class Batching { continuous, fixed };
constexpr auto enum_names(Batching) {
  using enum Batching;
  return std::to_array<EnumName<Batching>>({{continuous, "continuous"}, {fixed, "static"}});
}

// How inference weights are stored; bits per weight in docs/methodology.md#inference.
enum class WeightFormat {
  bf16,
  fp16,
  fp32,
  fp8,
  int8,
  int4,
  nf4,
  gptq,
  awq,
  mxfp4,
  q8_0,
  q6_k,
  q5_k_m,
  q4_k_m,
  q4_0,
  q3_k_m,
  q2_k
};
constexpr auto enum_names(WeightFormat) {
  using enum WeightFormat;
  return std::to_array<EnumName<WeightFormat>>({{bf16, "bf16"},
                                                {fp16, "fp16"},
                                                {fp32, "fp32"},
                                                {fp8, "fp8"},
                                                {int8, "int8"},
                                                {int4, "int4"},
                                                {nf4, "nf4"},
                                                {gptq, "gptq"},
                                                {awq, "awq"},
                                                {mxfp4, "mxfp4"},
                                                {q8_0, "q8_0"},
                                                {q6_k, "q6_k"},
                                                {q5_k_m, "q5_k_m"},
                                                {q4_k_m, "q4_k_m"},
                                                {q4_0, "q4_0"},
                                                {q3_k_m, "q3_k_m"},
                                                {q2_k, "q2_k"}});
}
enum class KvFormat { bf16, fp16, fp8, int8, int4 };
constexpr auto enum_names(KvFormat) {
  using enum KvFormat;
  return std::to_array<EnumName<KvFormat>>(
      {{bf16, "bf16"}, {fp16, "fp16"}, {fp8, "fp8"}, {int8, "int8"}, {int4, "int4"}});
}

// Which linear layers of each block carry LoRA adapters (bit flags).
enum LoraTarget : unsigned {
  k_lora_q = 1u << 0,
  k_lora_k = 1u << 1,
  k_lora_v = 1u << 2,
  k_lora_o = 1u << 3,
  k_lora_gate = 1u << 4,
  k_lora_up = 1u << 5,
  k_lora_down = 1u << 6,
  k_lora_attention = k_lora_q | k_lora_k | k_lora_v | k_lora_o,
  k_lora_all_linear = (1u << 7) - 1,
};
// The groups first, then the single layers (--lora-targets).
constexpr auto enum_names(LoraTarget) {
  return std::to_array<EnumName<LoraTarget>>({{k_lora_all_linear, "all-linear"},
                                              {k_lora_attention, "attention"},
                                              {k_lora_q, "q"},
                                              {k_lora_k, "k"},
                                              {k_lora_v, "v"},
                                              {k_lora_o, "o"},
                                              {k_lora_gate, "gate"},
                                              {k_lora_up, "up"},
                                              {k_lora_down, "down"}});
}
// A named group of layers (all-linear, attention) rather than one layer.
constexpr bool is_lora_group(LoraTarget target) {
  return std::popcount(static_cast<unsigned>(target)) > 1;
}

// A load to serve (--rate): requests of a prompt and an output length, with latency targets
// (docs/methodology.md#serving). Without one, inference is a batch run over --tokens.
// Sizing without a load: the KV cache a replica must hold besides the weights, in sequences
// of prompt + output tokens. Eight: room for a few users at once, where one sequence would
// leave an engine no room to batch (vLLM refuses to start without one; docs/methodology.md#sizing).
inline constexpr int k_sizing_sequences = 8;
// The output tokens `--rate max` is costed for without --tokens: a million, so that its cost
// is the $ per million output tokens at saturation.
inline constexpr double k_saturation_tokens = 1e6;
// Sizing without a load: the latencies each user must get, MLPerf Inference's server bounds
// for Llama-2-70B (mlcommons/inference loadgen/mlperf.conf; docs/methodology.md#sizing).
inline constexpr double k_sizing_ttft_seconds = 2.0;
inline constexpr double k_sizing_tpot_seconds = 0.2;

struct ServingLoad {
  // Requests per second; 0: an offline job, --tokens output tokens as fast as the
  // hardware gives them (scoring a data set), costed as a run.
  double requests_per_s = 1.0;
  int prompt_tokens = 1000;  // per request
  int output_tokens = 200;
  std::optional<Seconds> ttft;  // time to first token, p50 without queueing
  std::optional<Seconds> tpot;  // time per output token after the first
  // The most sequences a replica decodes at once: vLLM's default max_num_seqs.
  int max_batch = 256;
  // The most tokens an engine puts through one step, decodes and prompt chunks together:
  // the default of TensorRT-LLM's max_num_tokens (8,192) and of vLLM's
  // max_num_batched_tokens on datacenter GPUs (--max-step-tokens).
  int max_step_tokens = 8192;
  // The share of a replica's throughput the load may take: the rest absorbs bursts and
  // keeps requests from queueing (docs/methodology.md#serving).
  double utilisation = 0.8;
  // Units (machines) beyond those the load needs, so that losing one (a failed GPU or host,
  // a maintenance event) leaves the other replicas within the utilisation: N+1 by default
  // (--redundancy).
  int redundancy = 1;
  Batching batching = Batching::continuous;
  // The latencies reported and checked against --ttft and --tpot: the median (50) or a tail
  // (90, 99) of the requests under the load, from a queueing model (docs/methodology.md#percentiles).
  int percentile = 50;
  // No load given (`--task inference` alone): per offering, one replica on the fewest devices
  // that hold the weights and the KV cache of k_sizing_sequences sequences, ranked by $/hour,
  // with its speed at batch 1 and at its largest batch (docs/methodology.md#sizing).
  bool sizing = false;
  // --rate max: an offline job at the replica's saturated throughput; without --tokens it is
  // costed per million output tokens (k_saturation_tokens, no setup time).
  bool saturated = false;
  bool offline() const { return !sizing && requests_per_s <= 0; }
};

struct Workload {
  Architecture model;                  // the shape
  ParameterCount parameters;           // N = parameters.total; compute uses parameters.active
  double tokens = 0.0;                 // D: training tokens over all epochs, or tokens to generate
  std::optional<Bytes> dataset_bytes;  // when the data was given as bytes
  double epochs = 1.0;
  double bytes_per_token = 4.0;  // docs/methodology.md#bytes-per-token
  Task task = Task::pretrain;
  Precision precision = Precision::bf16_mixed;
  Optimizer optimizer = Optimizer::adamw;
  Attention attention = Attention::flash;  // docs/methodology.md#activations
  Framework framework = Framework::megatron;
  bool framework_named = false;     // --framework given: plans are those its stack runs (framework.hpp)
  int sequence_length = 2048;       // s
  int micro_batch = 1;              // b: sequences per device per forward pass
  bool micro_batch_pinned = false;  // --micro-batch given: recommend searches no other
  double mfu = 0.40;                // datacenter NVIDIA GPUs: docs/methodology.md#mfu
  bool mfu_pinned = false;          // --mfu given: every device runs at `mfu`, whatever its stack
  // What a run spends besides its compute: provisioning, image pull, data staging, model
  // load, the final checkpoint (docs/methodology.md#efficiency).
  Seconds setup_time{k_default_setup_minutes * 60};
  std::optional<double> global_batch;  // tokens per optimizer step (docs/methodology.md#communication)

  int lora_rank = 16;  // docs/methodology.md#lora-and-qlora
  unsigned lora_targets = k_lora_all_linear;

  WeightFormat weight_format = WeightFormat::bf16;  // inference
  KvFormat kv_format = KvFormat::bf16;
  int context = 4096;                  // inference: tokens per sequence (prompt + output)
  int batch = 1;                       // inference: concurrent sequences
  std::optional<ServingLoad> serving;  // inference: a load to serve rather than a batch run
  // Inference: the fraction of the datasheet memory bandwidth a decode step's reads reach,
  // beyond the engine's fixed costs (engine.hpp): 0.8 with 45 µs per layer reproduces
  // gpt-fast's batch-1 Llama-2-7B and -70B on 1 to 8 A100s within 3% ("even a plain memory
  // copy struggles to break 85%", PyTorch's "GPT, Fast"; docs/methodology.md#inference-time).
  double bandwidth_efficiency = 0.8;
  Engine engine = Engine::vllm;
  // Host work per step that the device waits through (scheduling, sampling, launches);
  // absent: the engine's (--step-overhead; docs/methodology.md#serving-engines).
  std::optional<Seconds> step_overhead;

  // Gradient-boosted trees (docs/methodology.md#gbdt-run-time). Defaults: XGBoost's
  // max_depth (6); 500 rounds as in the LightGBM and XGBoost Higgs experiments.
  double rows = 0;        // examples; 0: the dataset bytes / (features × 4 bytes of float32)
  double features = 100;  // columns; only the rows-from-bytes split and memory depend on it
  int rounds = 500;       // boosting rounds (trees)
  int max_depth = 6;
  int bins = 256;  // histogram bins per feature: XGBoost's max_bin (LightGBM's is 255)
  GbdtLibrary library = GbdtLibrary::xgboost;

  // A vision model (docs/methodology.md#vision): its images stand for the tokens (`tokens` is
  // images × epochs, `sequence_length` 1, `micro_batch` images per device per step).
  std::optional<VisionWorkload> vision;
  // A latent diffusion model (docs/methodology.md#diffusion): its images stand for the tokens
  // as a vision model's do; generation sizes the denoising steps and the VAE decode.
  std::optional<DiffusionWorkload> diffusion;
  // A speech model (docs/methodology.md#speech): its 30-second windows stand for the tokens
  // (`tokens` is windows × epochs); inference transcribes them with an engine.
  std::optional<SpeechWorkload> speech;

  // Per device: workspaces and buffers beyond the estimate
  // (docs/methodology.md#framework-overhead-and-allocator-margin); the CUDA context is taken off the capacity instead
  // (Device::usable_memory).
  Bytes overhead{1.6 * k_gibi};
  double allocator_margin = 0.0;  // fraction added to the dynamic memory for fragmentation
  // Fraction of each device's memory a plan leaves free: the caching allocator's
  // fragmentation in training, the serving engine's reserve (docs/methodology.md#capacity).
  double memory_headroom = 0.10;

  std::optional<Usd> budget;
  std::optional<Seconds> deadline;
  Profile profile = Profile::none;

  // Training of a neural network (gbdt is classical machine learning, inference is serving).
  bool is_training() const { return task != Task::inference && task != Task::gbdt; }
  bool is_adapter_tuning() const { return task == Task::lora || task == Task::qlora; }
  // Images stand for the tokens (vision and diffusion models): data-parallel replicas, each
  // device its own batch of images, none of a language model's layouts.
  bool images_are_tokens() const { return vision.has_value() || diffusion.has_value(); }
  // Images or audio windows stand for the tokens: the same data-parallel plans.
  bool samples_are_tokens() const { return images_are_tokens() || speech.has_value(); }
  // A service sized for a load (tokens or images at a rate): priced by the hour, not a run.
  bool serves_a_fleet() const {
    return task == Task::inference && ((serving && !serving->offline()) || (diffusion && diffusion->images_per_s > 0));
  }
};

// Tokens in `bytes` of text at `bytes_per_token`, times `epochs`.
double tokens_from_bytes(Bytes bytes, double bytes_per_token, double epochs);

// The count for a model known only by its size: the embedding is V·h, the block
// linears 12·L·h² (capped so that they and the embedding fit in `params`).
ParameterCount parameter_count_from_params(double params, const Architecture& shape);

// Bits per stored weight of an inference weight format (average, incl. scales).
double bits_per_weight(WeightFormat format);
// Whether a format keeps embeddings and the output head in 16 bits (bitsandbytes,
// GPTQ, AWQ) rather than quantising every tensor (GGUF files, fp8/int8 casts).
bool quantizes_linear_only(WeightFormat format);
// 16-bit (or fp8) compute with fp32 master weights: bf16-mixed, fp16-mixed, fp8-mixed.
bool is_mixed_precision(Precision precision);
double bytes_per_kv_value(KvFormat format);

// One group ("all-linear", "attention") or a list of layers ("q,v"); nothing when a name
// is unknown or a group stands in a list.
std::optional<unsigned> parse_lora_targets(std::string_view text);

}  // namespace mlsize
