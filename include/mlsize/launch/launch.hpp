#pragma once
// From a plan to a run: the settings the launchers and engines take (DeepSpeed, torchrun,
// Accelerate, SkyPilot, vLLM), worked out once from the plan, and which launcher can say
// what the plan does (docs/launch.md).

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <optional>
#include <string>

namespace mlsize {

// What --emit writes.
enum class LaunchKind { deepspeed, torchrun, accelerate, skypilot, vllm, dask, spark };
constexpr auto enum_names(LaunchKind) {
  using enum LaunchKind;
  return std::to_array<EnumName<LaunchKind>>({{deepspeed, "deepspeed"},
                                              {torchrun, "torchrun"},
                                              {accelerate, "accelerate"},
                                              {skypilot, "skypilot"},
                                              {vllm, "vllm"},
                                              {dask, "dask"},
                                              {spark, "spark"}});
}

// How the data-parallel ranks shard model states in PyTorch FSDP, the ZeRO stage's
// counterpart (torch.distributed.fsdp.ShardingStrategy; HYBRID_SHARD: "FULL_SHARD within a
// node, and replicate parameters across nodes", torch/distributed/fsdp/api.py).
enum class FsdpSharding { no_shard, shard_grad_op, full_shard, hybrid_shard };
constexpr auto enum_names(FsdpSharding) {
  using enum FsdpSharding;
  return std::to_array<EnumName<FsdpSharding>>({{no_shard, "NO_SHARD"},
                                                {shard_grad_op, "SHARD_GRAD_OP"},
                                                {full_shard, "FULL_SHARD"},
                                                {hybrid_shard, "HYBRID_SHARD"}});
}

// Why a serving engine's longest sequence is what it is (docs/launch.md#vllm).
enum class ModelLengthRule {
  context,          // inference without a load: --context
  model_positions,  // the model's context, which the plan's KV memory holds one sequence of
  request_multiple  // k_request_multiple × the load's mean request, within positions and KV memory
};
// A request may be this many times the load's mean prompt + output when the model's whole
// context is unknown or does not fit the plan's KV memory.
inline constexpr int k_request_multiple = 2;

// The plan as the launchers see it. Batch sizes count sequences, as DeepSpeed's do.
struct LaunchSpec {
  Task task = Task::pretrain;
  std::string model;  // the Hugging Face id (config's _name_or_path) when known, else empty
  Precision precision = Precision::bf16_mixed;
  DeviceKind device_kind = DeviceKind::gpu;
  std::string device_id;
  std::string device_vendor;
  Stack runtime = Stack::cuda;  // the device's software (efficiency.hpp): CUDA and ROCm launch here
  bool jax = false;             // --framework jax: MaxText's code, which no launcher here runs

  // Where the processes run: one per device, `processes_per_node` on each of `nodes`.
  int nodes = 1;
  int processes_per_node = 1;
  int world_size() const { return nodes * processes_per_node; }

  // Training.
  int data_parallel = 1;
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int expert_parallel = 1;
  bool sequence_parallel = false;
  int zero_stage = 0;
  Offload offload = Offload::none;
  Recompute recompute = Recompute::none;
  int sequence_length = 0;
  int micro_batch = 1;              // sequences per device per forward pass
  int gradient_accumulation = 1;    // micro-batches per optimizer step
  long long global_batch() const {  // sequences per optimizer step: DeepSpeed's train_batch_size
    return static_cast<long long>(micro_batch) * gradient_accumulation * data_parallel;
  }
  FsdpSharding fsdp = FsdpSharding::no_shard;
  int shard_group = 0;       // HSDP: the ranks sharding the states (Strategy::shard_group); 0: all
  int lora_rank = 0;         // LoRA and QLoRA
  std::string lora_targets;  // --lora-targets' words: "all-linear", "q,v"

  // Serving: replicas of `tensor_parallel` devices, each batching `max_sequences`.
  int replicas = 0;
  int replicas_per_node = 0;
  int max_sequences = 0;  // vLLM --max-num-seqs
  // The longest sequence (prompt + output) the engine admits, and why that length.
  int max_model_length = 0;
  ModelLengthRule max_model_length_rule = ModelLengthRule::context;
  int request_tokens = 0;   // the load's mean prompt + output tokens
  int model_positions = 0;  // the model's context (max_position_embeddings); 0: unstated
  long long kv_tokens = 0;  // tokens the plan's KV memory holds per replica; 0: not estimated
  int max_step_tokens = 0;  // vLLM --max-num-batched-tokens
  WeightFormat weight_format = WeightFormat::bf16;
  KvFormat kv_format = KvFormat::bf16;
  Engine engine = Engine::vllm;  // the engine the plan was sized for (--engine)
  // vLLM's --quantization for `weight_format` on this device; empty: the weights' own dtype.
  std::string quantization;
  // The weights must come pre-quantised (AWQ, GPTQ, bitsandbytes 8-bit, MXFP4): `model` is
  // then such a checkpoint or empty, and `base_model` names what it must be a quantisation of.
  bool prequantized = false;
  std::string base_model;
  // The kernel `quantization` selects decodes below the bandwidth bound the plan assumes.
  bool slow_kernel = false;
  double memory_fraction = 0.9;  // of each device the engine may take: 1 - --memory-headroom

  // Gradient-boosted trees: the library and its settings, and its workers (Dask workers or
  // Spark executors): one per GPU, or one per machine of a CPU plan (docs/launch.md#dask).
  GbdtLibrary library = GbdtLibrary::xgboost;
  int rounds = 0;
  int max_depth = 0;
  int bins = 0;
  int tree_workers = 0;
  int worker_threads = 0;        // the vCPUs each worker is given; 0: the offering states none
  double worker_memory_gb = 0;   // the host RAM each worker may take (less --memory-headroom)
  double worker_data_gb = 0;     // what the estimate puts in each worker's host RAM
  bool external_memory = false;  // XGBoost's ExtMemQuantileDMatrix on one GPU: not emitted

  // Vision models (docs/launch.md#vision): timm's train.py under torchrun.
  std::string timm_model;  // timm's name; empty: not a vision job, or one timm does not train
  bool vision = false;
  // Diffusion models (docs/launch.md#diffusion): a diffusers example script under accelerate
  // launch. `diffusers_script` empty: no diffusers script trains the plan (unsupported() says
  // why, from `diffusers_gap`).
  bool diffusion = false;
  // Speech models (docs/launch.md#speech): none emitted yet; unsupported() names what runs them.
  bool speech = false;
  std::string diffusers_script;  // examples/text_to_image/train_text_to_image_lora_sdxl.py
  std::string diffusers_gap;     // what trains the plan instead
  std::string hub_model;         // --pretrained_model_name_or_path; empty: $MODEL at launch
  bool dreambooth = false;       // the script takes --instance_data_dir and --instance_prompt
  bool cache_latents = false;
  bool detector = false;       // YOLO, RetinaNet, Mask R-CNN: trained by their own tools
  bool convolutional = false;  // channels-last helps CNNs' tensor-core convolutions
  int image_height = 0;
  int image_width = 0;
  int native_resolution = 0;
  double epochs = 0;
  Optimizer optimizer = Optimizer::adamw;
  // DataLoader worker processes per training process: the node's vCPUs less one per process,
  // shared out; 0 where the offering states no vCPUs.
  int loader_workers = 0;
  bool dali = false;

  // Cloud: the offering, for SkyPilot.
  OfferingKind offering_kind = OfferingKind::on_prem;
  std::string provider;
  std::string cloud;          // SkyPilot's name of the provider (skypilot_cloud); empty: none
  std::string instance_type;  // the offering's name, the cloud's instance type
  std::string region;
  // The regions where the offering costs what it costs in `region` under the plan's pricing,
  // `region` first, when there are several (Lambda prices all its regions alike) and no
  // --region was named; else empty. A task may offer them all, so that the cloud's
  // provisioner tries the next when one has no capacity (SkyPilot's auto-failover).
  std::vector<std::string> regions_alike;
  std::string accelerator;  // SkyPilot's name of the device on that cloud; empty: none (a CPU)
  int accelerators_per_node = 0;
  bool spot = false;
  double disk_gb = 0;  // for the checkpoints, the model and the data
};

// The launch settings of `estimate`, a plan estimated for `workload` costed with `cost`.
LaunchSpec launch_spec(const Workload& workload, const PlanEstimate& estimate, const CostSettings& cost);

// Why `kind` cannot launch `spec`, naming the --emit kinds that can; nothing when it can.
std::optional<std::string> unsupported(LaunchKind kind, const LaunchSpec& spec);

// SkyPilot's name of a provider's cloud (`infra:`); empty when SkyPilot launches none there.
std::string skypilot_cloud(const std::string& provider);

}  // namespace mlsize
