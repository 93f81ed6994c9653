#include <mlsize/catalog/same_price.hpp>
#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/kernels.hpp>
#include <mlsize/launch/launch.hpp>
#include <mlsize/model/model_config.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>
#include <utility>

namespace mlsize {

namespace {

// A plan named by its device alone (estimate --device) has no machines: eight devices to a
// node, the size of the HGX and DGX boards and of the clouds' largest GPU instances.
constexpr int k_devices_per_node_unstated = 8;

// The disk a cloud node needs besides the data, which a run streams from a bucket: the
// image, CUDA and the Python environment; SkyPilot's default disk is 256 GB
// (sky/resources.py, DEFAULT_DISK_SIZE_GB).
constexpr double k_environment_disk_gb = 50;
constexpr double k_least_disk_gb = 256;
constexpr double k_disk_step_gb = 50;
// Bytes per trained parameter of a checkpoint that can resume: 16-bit weights, fp32 master
// weights and Adam's two moments (Rajbhandari et al. 2020, §3.1: 2 + 12 bytes).
constexpr double k_checkpoint_bytes_per_param = 14;
constexpr int k_checkpoints_kept = 2;  // the last one and the one being written

// The accelerator name SkyPilot gives `offering`'s device, and how many a node has.
std::pair<std::string, int> skypilot_accelerator(const Offering& offering, const Device& device) {
  // A TPU slice is one accelerator named as the instance is (tpu-v5p-16, tpu-v5litepod-8).
  if (device.kind == DeviceKind::tpu) return {offering.name, 1};
  if (device.kind == DeviceKind::cpu) return {};
  // GCP's A3 Mega machines carry H100s under their own name.
  if (offering.provider == "gcp" && offering.name.starts_with("a3-megagpu"))
    return {"H100-MEGA", offering.devices_per_unit};
  const std::string_view name = skypilot_accelerator_name(offering.provider, device.id);
  if (name.empty()) return {};
  return {std::string(name), offering.devices_per_unit};
}

// Training: the micro-batch of the plan and the micro-batches per optimizer step, as the
// estimate counts them (communication.cpp, schedule_of): the global batch of
// global_batch_tokens over data-parallel × micro-batch sequences, rounded up.
void set_batch(const Workload& workload, const Plan& plan, LaunchSpec& spec) {
  Workload grown = workload;
  if (plan.strategy.micro_batch > 0) grown.micro_batch = plan.strategy.micro_batch;
  spec.micro_batch = grown.micro_batch;
  spec.sequence_length = workload.sequence_length;
  const double batch_tokens = global_batch_tokens(grown, spec.data_parallel);
  const double micro_tokens = static_cast<double>(spec.data_parallel) * grown.micro_batch * grown.sequence_length;
  spec.gradient_accumulation = std::max(1, static_cast<int>(std::ceil(batch_tokens / micro_tokens - 1e-9)));
}

// A node's disk: the environment, the weights and, training, the node's share of the
// checkpoints: all of them under plain data parallelism (rank 0 saves), else a shard
// (sharded state dicts: each rank saves its own).
// The words of --lora-targets for `targets`: a group's name when it is one, else the layers.
std::string lora_target_words(unsigned targets) {
  std::string words;
  for (const EnumName<LoraTarget>& entry : enum_names(LoraTarget{})) {
    const auto bits = static_cast<unsigned>(entry.value);
    if (is_lora_group(entry.value)) {
      if (targets == bits) return std::string(entry.name);
      continue;
    }
    if ((targets & bits) == 0) continue;
    if (!words.empty()) words += ',';
    words += entry.name;
  }
  return words;
}

// A Hugging Face repository id, "owner/name" (huggingface_hub utils/_validators.py,
// validate_repo_id: word characters, '-' and '.', no "--" or ".."); a path is none.
bool is_repo_id(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos || text.find('/', slash + 1) != std::string_view::npos) return false;
  if (text.find("--") != std::string_view::npos || text.find("..") != std::string_view::npos) return false;
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (const std::string_view part : {text.substr(0, slash), text.substr(slash + 1)}) {
    if (part.empty() || !alnum(part.front()) || !alnum(part.back())) return false;
    for (const char c : part) {
      if (!alnum(c) && c != '_' && c != '-' && c != '.') return false;
    }
  }
  return true;
}

// The checkpoint an engine loads the model from, when mlsize can name it: a preset's, or a
// config's _name_or_path when that is a repository id. A config without _name_or_path is
// named by its file's path (model_config.cpp, read_architecture: the source then reads
// "Hugging Face config PATH"), which is no checkpoint.
std::string checkpoint_of(const Architecture& model) {
  if (const std::string_view id = preset_model_id(model.name); !id.empty()) return std::string(id);
  const std::string config_source = "Hugging Face config " + model.name;
  if (model.source.starts_with(config_source)) {
    const std::string_view rest = std::string_view(model.source).substr(config_source.size());
    if (rest.empty() || rest.starts_with(" (") || rest.starts_with(";")) return {};
  }
  return is_repo_id(model.name) ? model.name : std::string();
}

// How vLLM loads weights of `format` (docs/launch.md#vllm): its --quantization, and whether
// the checkpoint must already hold them so (`stored_as`, a checkpoint_format), or vLLM
// quantises a 16-bit one as it loads (fp8: docs.vllm.ai features/quantization/fp8, dynamic
// quantisation; bitsandbytes 4-bit: features/quantization/bnb, in-flight 4-bit only).
struct VllmWeights {
  std::string_view quantization;
  std::string_view stored_as;  // empty: a 16-bit checkpoint does
  bool slow_kernel = false;
};
VllmWeights vllm_weights(WeightFormat format, bool marlin) {
  using enum WeightFormat;
  switch (format) {
    case fp8: return {"fp8", {}};
    case mxfp4: return {"mxfp4", "mxfp4"};
    // AWQ and GPTQ checkpoints decode at the weights' bandwidth in the Marlin kernels; vLLM
    // keeps its older kernels when --quantization names awq or gptq itself (awq_marlin.py,
    // override_quantization_method: "forcing awq. Use quantization=awq_marlin for faster
    // inference"). Marlin runs on NVIDIA Ampere and later (docs.vllm.ai features/quantization/
    // supported_hardware).
    case awq: return {marlin ? "awq_marlin" : "awq", "awq", !marlin};
    case gptq: return {marlin ? "gptq_marlin" : "gptq", "gptq", !marlin};
    // mlsize's int4 (4 bits, one fp16 scale per 128 weights) is a symmetric GPTQ checkpoint.
    case int4: return {marlin ? "gptq_marlin" : "gptq", "gptq", !marlin};
    // bitsandbytes dequantises in its own kernels, below the bandwidth bound; vLLM quantises
    // in flight to 4 bits only, so 8-bit weights come from an 8-bit checkpoint.
    case int8: return {"bitsandbytes", "int8", true};
    case nf4: return {"bitsandbytes", {}, true};
    default: return {};
  }
}

// The longest sequence the engine admits: the model's context when the plan's KV memory
// holds one sequence of it (vLLM refuses to start otherwise, and refuses a length past
// max_position_embeddings), else k_request_multiple × the load's mean request within both.
void set_model_length(const Workload& workload, const PlanEstimate& estimate, LaunchSpec& spec) {
  spec.model_positions = workload.model.max_positions;
  if (!workload.serving) {
    spec.max_model_length = workload.context;
    spec.max_model_length_rule = ModelLengthRule::context;
    return;
  }
  const int request = workload.serving->prompt_tokens + workload.serving->output_tokens;
  spec.request_tokens = request;
  if (estimate.serving) spec.kv_tokens = static_cast<long long>(estimate.serving->replica.batch_capacity) * request;
  const int positions = spec.model_positions;
  if (positions > 0 && spec.kv_tokens >= positions) {
    spec.max_model_length = positions;
    spec.max_model_length_rule = ModelLengthRule::model_positions;
    return;
  }
  long long length = static_cast<long long>(k_request_multiple) * request;
  if (positions > 0) length = std::min<long long>(length, positions);
  if (spec.kv_tokens > 0) length = std::min(length, spec.kv_tokens);
  spec.max_model_length = static_cast<int>(std::max<long long>(length, request));
  spec.max_model_length_rule = ModelLengthRule::request_multiple;
}

double disk_gb(const Workload& workload, const LaunchSpec& spec) {
  const double params = workload.parameters.total;
  double bytes = 2 * params;  // the 16-bit weights, downloaded
  if (workload.is_training()) {
    const double trained = workload.is_adapter_tuning() ? adapter_parameters(workload) : params;
    const bool sharded = spec.zero_stage > 0 || spec.tensor_parallel * spec.pipeline_parallel > 1;
    bytes += k_checkpoints_kept * k_checkpoint_bytes_per_param * trained / (sharded ? spec.nodes : 1);
  }
  const double gb = k_environment_disk_gb + bytes / 1e9;
  return std::max(k_least_disk_gb, std::ceil(gb / k_disk_step_gb) * k_disk_step_gb);
}

// HSDP (spec.shard_group) as the launchers run it (docs/launch.md#hsdp): FSDP's HYBRID_SHARD
// shards within one node and replicates across nodes (torch/distributed/fsdp/api.py;
// pytorch/pytorch#117470 asks for larger groups), which accelerate's config
// (fsdp_sharding_strategy: HYBRID_SHARD) and the Trainer's --fsdp hybrid_shard set.
// DeepSpeed has no such sharding: ZeRO++'s hpZ (zero_hpz_partition_size; Wang et al. 2023,
// §3.2) keeps a secondary copy of the 16-bit weights within the group but shards the
// gradients and optimizer states over every rank and still gathers for the forward and
// reduce-scatters over every rank, so neither its memory nor its traffic is the plan's.
std::optional<std::string> hybrid_unsupported(LaunchKind kind, const LaunchSpec& spec) {
  if (spec.shard_group <= 0) return std::nullopt;
  if (kind == LaunchKind::deepspeed) {
    return "DeepSpeed has no hybrid sharding: ZeRO++'s hpZ (zero_hpz_partition_size) shards the optimizer states "
           "over every rank and gathers the forward's weights across nodes; --emit accelerate or torchrun "
           "(FSDP HYBRID_SHARD)";
  }
  if (spec.shard_group != spec.processes_per_node) {
    return "FSDP's HYBRID_SHARD shards within one node (" + std::to_string(spec.processes_per_node) +
           " devices), not a group of " + std::to_string(spec.shard_group) +
           "; a larger group needs a 2-D device mesh in the script (fully_shard(mesh=...))";
  }
  return std::nullopt;
}

// Gradient-boosted trees: a worker per GPU (dask-cuda's one process per GPU, Spark's one GPU
// per executor) or per CPU machine, each with its share of the machine's vCPUs and host RAM.
void set_trees(const Workload& workload, const PlanEstimate& estimate, LaunchSpec& spec) {
  const Plan& plan = estimate.plan;
  spec.library = workload.library;
  spec.rounds = workload.rounds;
  spec.max_depth = workload.max_depth;
  spec.bins = workload.bins;
  spec.external_memory = plan.strategy.trees_external_memory();
  const bool on_gpu = plan.strategy.trees_on_gpu;
  const int per_machine = on_gpu ? std::max(1, spec.processes_per_node) : 1;
  spec.tree_workers = on_gpu ? plan.device_count : std::max(1, plan.units);
  spec.worker_data_gb = (on_gpu ? estimate.memory.host : estimate.memory.total()).value / 1e9;
  if (plan.offering == nullptr) return;
  if (plan.offering->vcpus) spec.worker_threads = std::max(1, *plan.offering->vcpus / per_machine);
  if (plan.offering->host_memory) {
    spec.worker_memory_gb = plan.offering->host_memory->value * (1 - workload.memory_headroom) / per_machine / 1e9;
  }
}

}  // namespace

std::string skypilot_cloud(const std::string& provider) {
  return std::string(skypilot_cloud_name(provider));
}

// The regions where `offering` costs what it costs in its chosen one under `pricing`
// (same_price), the chosen one first; empty when it is the only one.
std::vector<std::string> regions_priced_alike(const Offering& offering, Pricing pricing) {
  const std::optional<UnitPrice> chosen = unit_price(offering, offering.price, pricing);
  if (!chosen) return {};
  std::vector<std::string> regions{offering.price.region};
  for (const RegionalPrice& price : offering.other_regions) {
    const std::optional<UnitPrice> other = unit_price(offering, price, pricing);
    if (other && same_price(chosen->per_hour.value, other->per_hour.value)) regions.push_back(price.region);
  }
  if (regions.size() == 1) regions.clear();
  return regions;
}

// The diffusers example script that trains a diffusion plan, or what trains it instead
// (docs/launch.md#diffusion).
void set_diffusion(const Workload& workload, LaunchSpec& spec) {
  const DiffusionWorkload& d = *workload.diffusion;
  spec.diffusion = true;
  spec.image_height = d.height;
  spec.image_width = d.width;
  spec.native_resolution = d.model.resolution;
  spec.epochs = workload.epochs;
  spec.optimizer = workload.optimizer;
  spec.hub_model = d.model.hub;
  spec.cache_latents = d.cached;
  const std::string& id = d.model.id;
  const bool sd = id == "sd-1.5" || id == "sd-2.1";
  if (workload.task == Task::inference) {
    spec.diffusers_gap =
        "generation runs your own pipeline (diffusers' StableDiffusionXLPipeline, FluxPipeline, ...), "
        "which mlsize does not emit; the fleet's devices and batch are in the report";
  } else if (workload.task == Task::pretrain) {
    spec.diffusers_gap =
        "pre-training from scratch runs with MosaicML's diffusion or NVIDIA NeMo, whose configs mlsize "
        "does not write; diffusers' scripts fine-tune a checkpoint (--task finetune or lora)";
  } else if (workload.task == Task::qlora) {
    spec.diffusers_gap =
        "QLoRA of a diffusion model runs diffusers' research_projects/flux_lora_quantization, which "
        "mlsize does not write; --task lora has a script";
  } else if (d.height != d.width) {
    spec.diffusers_gap = "diffusers' training scripts train square crops at one --resolution; give a square one";
  } else if (sd || id == "sdxl") {
    const bool lora = workload.task == Task::lora;
    spec.diffusers_script = std::string("examples/text_to_image/train_text_to_image") + (lora ? "_lora" : "") +
                            (id == "sdxl" ? "_sdxl" : "") + ".py";
  } else if (id == "flux.1-dev" && workload.task == Task::lora) {
    spec.diffusers_script = "examples/dreambooth/train_dreambooth_lora_flux.py";
    spec.dreambooth = true;
  } else {
    spec.diffusers_gap = d.model.name + " " + std::string(to_string(workload.task)) +
                         " has no diffusers example script mlsize writes (it writes SD 1.5, SD 2.1 and SDXL "
                         "fine-tunes and LoRA, and Flux LoRA)";
  }
}

LaunchSpec launch_spec(const Workload& workload, const PlanEstimate& estimate, const CostSettings& cost) {
  const Plan& plan = estimate.plan;
  const Strategy& strategy = plan.strategy;
  LaunchSpec spec;
  spec.task = workload.task;
  spec.jax = workload.framework_named && workload.framework == Framework::jax && workload.is_training();
  // A preset's checkpoint, or a config's _name_or_path when it is a Hugging Face id
  // ("meta-llama/Llama-2-7b-hf"); a shape from --params or a config without one has none.
  spec.model = checkpoint_of(workload.model);
  spec.precision = estimate.precision;
  if (plan.device != nullptr) {
    spec.device_kind = plan.device->kind;
    spec.device_id = plan.device->id;
    spec.device_vendor = plan.device->vendor;
    spec.runtime = stack_of(*plan.device);
  }

  if (plan.offering != nullptr) {
    spec.nodes = plan.units;
    spec.processes_per_node = plan.offering->devices_per_unit;
  } else {
    const bool split =
        plan.device_count > k_devices_per_node_unstated && plan.device_count % k_devices_per_node_unstated == 0;
    spec.processes_per_node = split ? k_devices_per_node_unstated : plan.device_count;
    spec.nodes = plan.device_count / spec.processes_per_node;
  }

  spec.tensor_parallel = strategy.tensor_parallel;
  spec.pipeline_parallel = strategy.pipeline_parallel;
  spec.expert_parallel = strategy.expert_parallel;
  spec.sequence_parallel = strategy.sequence_parallel;
  spec.data_parallel = strategy.data_parallel(plan.device_count);
  if (workload.is_training()) {
    spec.zero_stage = strategy.zero_stage;
    spec.offload = strategy.offload;
    spec.recompute = strategy.recompute;
    spec.fsdp = strategy.zero_stage == 0   ? FsdpSharding::no_shard
                : strategy.zero_stage == 3 ? FsdpSharding::full_shard
                                           : FsdpSharding::shard_grad_op;
    if (strategy.hybrid_sharded(plan.device_count)) {
      spec.fsdp = FsdpSharding::hybrid_shard;
      spec.shard_group = strategy.shard_group;
    }
    set_batch(workload, plan, spec);
    if (workload.is_adapter_tuning()) {
      spec.lora_rank = workload.lora_rank;
      spec.lora_targets = lora_target_words(workload.lora_targets);
    }
  }

  if (workload.task == Task::inference) {
    // A replica is its tensor-parallel devices, or its expert-parallel ones (experts split,
    // attention data-parallel: serving.hpp, Replica).
    const int width = strategy.tensor_parallel * std::max(1, strategy.expert_parallel);
    spec.replicas = plan.device_count / width;
    spec.replicas_per_node = std::max(1, spec.processes_per_node / width);
    spec.weight_format = workload.weight_format;
    spec.kv_format = workload.kv_format;
    spec.engine = workload.engine;
    spec.memory_fraction = 1 - workload.memory_headroom;
    const VllmWeights weights =
        vllm_weights(workload.weight_format, plan.device != nullptr && runs_marlin(*plan.device));
    spec.quantization = weights.quantization;
    spec.slow_kernel = weights.slow_kernel;
    // A checkpoint stored otherwise (the 16-bit one of a preset) cannot be named: vLLM stops
    // on it ("Cannot find the config file for awq": vllm/model_executor/model_loader/
    // weight_utils.py, get_quant_config, which reads the quantisation config the checkpoint
    // holds).
    if (!weights.stored_as.empty()) {
      spec.prequantized = true;
      if (workload.model.checkpoint_format != weights.stored_as) {
        spec.base_model = std::move(spec.model);
        spec.model.clear();
      }
    }
    if (workload.serving) {
      spec.max_sequences = estimate.serving ? estimate.serving->replica.batch : workload.serving->max_batch;
      spec.max_step_tokens = workload.serving->max_step_tokens;
    } else {
      spec.max_sequences = workload.batch;
    }
    set_model_length(workload, estimate, spec);
  }

  if (workload.task == Task::gbdt) set_trees(workload, estimate, spec);
  if (workload.diffusion) set_diffusion(workload, spec);
  spec.speech = workload.speech.has_value();
  if (workload.vision) {
    const VisionWorkload& v = *workload.vision;
    spec.vision = true;
    spec.timm_model = v.model.timm;
    spec.detector = v.model.family == VisionFamily::detector;
    spec.convolutional = v.model.family != VisionFamily::vit && v.model.family != VisionFamily::swin;
    spec.image_height = v.height;
    spec.image_width = v.width;
    spec.native_resolution = v.model.resolution;
    spec.epochs = workload.epochs;
    spec.optimizer = workload.optimizer;
    spec.dali = v.loader == DataLoader::dali;
    if (plan.offering != nullptr && plan.offering->vcpus && spec.processes_per_node > 0) {
      const int per_node = *plan.offering->vcpus / std::max(1, machines_per_unit(*plan.offering));
      spec.loader_workers = std::max(1, (per_node - spec.processes_per_node) / spec.processes_per_node);
    }
  }

  if (plan.offering != nullptr) {
    spec.offering_kind = plan.offering->kind;
    spec.provider = plan.offering->provider;
    spec.cloud = skypilot_cloud(plan.offering->provider);
    spec.instance_type = plan.offering->name;
    spec.region = plan.offering->price.region;
    spec.regions_alike = regions_priced_alike(*plan.offering, cost.pricing);
    spec.spot = cost.pricing == Pricing::spot;
    if (plan.device != nullptr) {
      auto [name, count] = skypilot_accelerator(*plan.offering, *plan.device);
      spec.accelerator = std::move(name);
      spec.accelerators_per_node = count;
    }
  }
  spec.disk_gb = disk_gb(workload, spec);
  return spec;
}

namespace {

// Gradient-boosted trees run as a Dask or Spark job (or one Python process), never under the
// deep-learning launchers.
std::optional<std::string> trees_unsupported(LaunchKind kind, const LaunchSpec& spec) {
  using enum LaunchKind;
  if (spec.external_memory) {
    return "XGBoost's external memory is one process fed by a DataIter over your data's batches (XGBoost "
           "doc/tutorials/external_memory.rst), which neither xgboost.dask, xgboost.spark nor SkyPilot's Dask "
           "cluster runs: --emit writes in-core plans (more GPUs, or a GPU with more memory)";
  }
  if (kind == dask) {
    if (spec.library == GbdtLibrary::sklearn) {
      return "scikit-learn has no Dask trainer for its trees; the plan is one machine: --emit skypilot gives it";
    }
    return std::nullopt;
  }
  if (kind == spark) {
    if (spec.library == GbdtLibrary::xgboost) return std::nullopt;
    if (spec.library == GbdtLibrary::lightgbm) {
      return "LightGBM on Spark is SynapseML's, which mlsize does not emit; --emit dask gives lightgbm.dask";
    }
    return "scikit-learn has no Spark trainer for its trees; the plan is one machine: --emit skypilot gives it";
  }
  return "gradient-boosted trees are a Dask or Spark job, not " + std::string(to_string(kind)) + "'s: --emit " +
         std::string(spec.library == GbdtLibrary::sklearn   ? "skypilot"
                     : spec.library == GbdtLibrary::xgboost ? "dask, spark or skypilot"
                                                            : "dask or skypilot");
}

}  // namespace

// The accelerators whose software is not CUDA's or ROCm's: what the launchers mlsize writes
// (torchrun, DeepSpeed, accelerate, vLLM, and SkyPilot tasks that run them) cannot start.
std::optional<std::string> runtime_unsupported(const LaunchSpec& spec) {
  switch (spec.runtime) {
    case Stack::xla:
      return "TPUs run JAX or PyTorch/XLA code, which mlsize does not write: the slice and its layout are in the "
             "report (a TPU task for SkyPilot names tpu-vm images and its own setup); --kind gpu ranks plans it "
             "launches";
    case Stack::neuron:
      return "Trainium and Inferentia run the AWS Neuron SDK, not CUDA: training through NeuronX Distributed, "
             "serving through NxD Inference or vLLM's Neuron backend, each compiled ahead of time; mlsize does not "
             "write their configs (the plan's instances and layout are in the report); --kind gpu ranks plans it "
             "launches";
    case Stack::gaudi:
      return "Gaudi runs SynapseAI through optimum-habana (and Habana's DeepSpeed fork), not CUDA; mlsize does not "
             "write its configs; --kind gpu ranks plans it launches";
    case Stack::mps: return "Apple GPUs run PyTorch's MPS backend on one machine, without these launchers";
    case Stack::cuda:
    case Stack::cuda_consumer:
    case Stack::rocm:
    case Stack::cpu: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> unsupported(LaunchKind kind, const LaunchSpec& spec) {
  using enum LaunchKind;
  const bool trains = spec.task != Task::inference && spec.task != Task::gbdt;
  if (spec.jax) {
    return "--framework jax plans train with JAX (MaxText's mesh of data, fsdp, tensor and stage axes), whose "
           "config mlsize does not write; the plan's layout is in the report, and --framework hf, deepspeed or "
           "megatron ranks plans it launches";
  }
  if (spec.speech) {
    return spec.task == Task::inference
               ? "transcription runs faster-whisper, openai-whisper or transformers' pipeline, whose scripts mlsize "
                 "does not write; the plan's devices, engine and batch of windows are in the report"
               : "fine-tuning Whisper runs transformers' examples/pytorch/speech-recognition/"
                 "run_speech_recognition_seq2seq.py, whose flags mlsize does not write yet; the plan's devices, "
                 "batch and precision are in the report";
  }
  if (spec.diffusion) {
    if (spec.diffusers_script.empty()) return spec.diffusers_gap;
    if (kind != accelerate && kind != skypilot) {
      return "diffusers' training scripts launch with accelerate: --emit accelerate (its config and the command) or "
             "skypilot";
    }
    if (spec.device_kind != DeviceKind::gpu) return "diffusers' training scripts run on CUDA GPUs";
    if (kind == skypilot && spec.zero_stage > 0) {
      return "a ZeRO/FSDP plan needs accelerate's config file: --emit accelerate writes it and the command";
    }
    return std::nullopt;
  }
  if (kind == skypilot) {
    if (spec.task == Task::gbdt && spec.external_memory) return trees_unsupported(kind, spec);
    // Its run is a CUDA (or ROCm) torchrun or vLLM command: a TPU, Trainium or Gaudi task
    // would install CUDA wheels and run code that does not start there.
    if (spec.task != Task::gbdt) {
      if (const std::optional<std::string> why = runtime_unsupported(spec)) return why;
    }
    if (spec.provider.empty()) return "SkyPilot launches cloud offerings; give --offering";
    if (spec.offering_kind != OfferingKind::cloud || spec.cloud.empty()) {
      return "SkyPilot launches on aws, gcp, azure, lambda, runpod, nebius, cudo, paperspace and digitalocean, "
             "not on " +
             spec.provider;
    }
    return std::nullopt;
  }
  if (spec.task == Task::gbdt) return trees_unsupported(kind, spec);
  if (spec.vision) {
    if (spec.task == Task::inference) {
      return "scoring images runs your own script (or timm's inference.py), which mlsize does not emit; the plan's "
             "devices and batch are in the report";
    }
    if (spec.detector || spec.timm_model.empty()) {
      return "detectors train with their own tools (Ultralytics' `yolo train`, torchvision's detection references), "
             "which mlsize does not emit; the plan's devices, batch and epochs are in the report";
    }
    if (kind != torchrun) {
      return "a vision model trains with timm's train.py under torchrun (DDP): --emit torchrun or skypilot";
    }
    return std::nullopt;
  }
  if (kind == dask || kind == spark) {
    return "Dask and Spark jobs are emitted for gradient-boosted trees (--task gbdt); " +
           std::string(trains ? "a training plan takes --emit deepspeed, torchrun, accelerate or skypilot"
                              : "an inference plan takes --emit vllm or skypilot");
  }
  if (const std::optional<std::string> why = runtime_unsupported(spec)) return why;
  if (spec.device_kind == DeviceKind::cpu) return "a CPU plan has no accelerators to launch on; --emit skypilot";
  // The launch serves with vLLM: a plan sized for another engine's memory, batch and step
  // costs would be a different plan under it.
  if (!trains && (kind == vllm || kind == skypilot) && !is_vllm(spec.engine)) {
    return "the launch serves with vLLM, and the plan was sized for --engine " + std::string(to_string(spec.engine)) +
           " (its KV memory, batch and step costs): plan it with --engine vllm";
  }
  if (kind == vllm) {
    if (trains) return "vLLM serves models; a training plan takes --emit deepspeed, torchrun, accelerate or skypilot";
    // One vllm serve is one expert-parallel group, TP × DP wide: two groups on a node would
    // be two commands on their own GPUs, which mlsize does not write.
    if (spec.expert_parallel > 1 && spec.replicas_per_node > 1) {
      return "the plan puts " + std::to_string(spec.replicas_per_node) +
             " expert-parallel replicas on each node, which run as separate vllm serve commands on their own GPUs "
             "(CUDA_VISIBLE_DEVICES); mlsize writes one command per node";
    }
    const WeightFormat f = spec.weight_format;
    if (f >= WeightFormat::q8_0) {
      return "GGUF weights (" + std::string(to_string(f)) + ") are llama.cpp's; vLLM's GGUF loader is experimental";
    }
    // AWQ, GPTQ and bitsandbytes run on NVIDIA GPUs only (docs.vllm.ai
    // features/quantization/supported_hardware).
    if (!spec.quantization.empty() && spec.quantization != "fp8" && spec.quantization != "mxfp4" &&
        spec.device_vendor != "nvidia") {
      return "vLLM runs " + std::string(to_string(f)) + " weights (--quantization " + spec.quantization +
             ") on NVIDIA GPUs only, not on " + spec.device_vendor + "'s; --quant fp8 or bf16";
    }
    if (spec.kv_format == KvFormat::int8 || spec.kv_format == KvFormat::int4) {
      return "vLLM's --kv-cache-dtype takes auto, fp8, fp8_e4m3 or fp8_e5m2, not " +
             std::string(to_string(spec.kv_format));
    }
    return std::nullopt;
  }
  if (!trains) return "an inference plan: --emit vllm or skypilot";
  const bool model_parallel = spec.tensor_parallel > 1 || spec.pipeline_parallel > 1;
  if (const std::optional<std::string> why = hybrid_unsupported(kind, spec)) return why;
  switch (kind) {
    case deepspeed:
      if (spec.pipeline_parallel > 1 && spec.tensor_parallel > 1) {
        return "DeepSpeed's config sets no tensor parallelism inside a pipeline (Megatron-DeepSpeed takes it on "
               "the command line); --emit torchrun gives Megatron-LM's";
      }
      if (spec.pipeline_parallel > 1 && spec.zero_stage > 1) {
        return "DeepSpeed's pipeline engine takes ZeRO stage 0 or 1, not " + std::to_string(spec.zero_stage);
      }
      if (spec.tensor_parallel > 1 && spec.zero_stage > 2) {
        return "DeepSpeed's AutoTP trains with ZeRO stages 0-2, not 3; estimate the plan with --zero 2";
      }
      return std::nullopt;
    case torchrun:
      // Tensor and pipeline parallelism: Megatron-LM, whose distributed optimizer is ZeRO-1.
      if (model_parallel && spec.zero_stage > 1) {
        return "Megatron-LM shards optimizer states only (--use-distributed-optimizer, ZeRO-1), not ZeRO stage " +
               std::to_string(spec.zero_stage) + " with tensor or pipeline parallelism; --emit deepspeed (AutoTP)";
      }
      if (model_parallel && spec.offload != Offload::none) {
        return "Megatron-LM offloads no model states; --emit deepspeed";
      }
      if (model_parallel && (spec.task == Task::lora || spec.task == Task::qlora)) {
        return "Megatron-LM's pretrain_gpt.py trains every weight, not LoRA adapters; adapters train data "
               "parallel (PEFT with DDP, ZeRO or FSDP): estimate the plan without --tp and --pp";
      }
      return std::nullopt;
    case accelerate:
      if (model_parallel) {
        return "accelerate's config launches tensor and pipeline parallelism only through Megatron-LM's own "
               "scripts; --emit torchrun gives Megatron-LM's command, --emit deepspeed AutoTP's config";
      }
      return std::nullopt;
    case skypilot:
    case vllm:
    case dask:
    case spark: break;
  }
  return std::nullopt;
}

}  // namespace mlsize
