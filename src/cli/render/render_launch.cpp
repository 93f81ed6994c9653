#include "cli/render/render_launch.hpp"

#include "cli/render/json_text.hpp"
#include "cli/render/render_trees_launch.hpp"
#include "cli/render/render_vllm.hpp"
#include "cli/render/shell_command.hpp"
#include "cli/render/yaml_scalar.hpp"
#include "core/support/text_lines.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize::cli {

namespace {

using Json = nlohmann::ordered_json;

// torchrun's rendezvous port on the first node: Megatron-LM's and PyTorch's examples' 29500.
constexpr int k_rendezvous_port = 29500;
// DeepSpeed's and Megatron-LM's default clip; the recipes of Llama 2 and GPT-3 use 1.0 too.
constexpr double k_gradient_clipping = 1.0;

bool is_fp16(Precision p) {
  return p == Precision::fp16_mixed;
}
// bf16 compute: bf16-mixed, pure bf16, and fp8-mixed (whose FP8 matmuls sit inside bf16).
bool runs_in_bf16(Precision p) {
  return p != Precision::fp32 && !is_fp16(p);
}

// "1 node", "4 nodes".
std::string count_of(int count, std::string_view noun, std::string_view plural_suffix = "s") {
  std::string text = std::to_string(count);
  text += ' ';
  text += noun;
  if (count != 1) text += plural_suffix;
  return text;
}

std::string layout_line(const LaunchSpec& s) {
  if (s.task == Task::gbdt) return trees_layout_line(s);
  std::string line = count_of(s.world_size(), "process", "es") + ": " + count_of(s.nodes, "node") + " × " +
                     count_of(s.processes_per_node, "device");
  if (s.task == Task::inference) {
    line += "; " + count_of(s.replicas, "replica") + " of tensor parallel " + std::to_string(s.tensor_parallel);
    return line;
  }
  line += "; data " + std::to_string(s.data_parallel) + " × tensor " + std::to_string(s.tensor_parallel) +
          " × pipeline " + std::to_string(s.pipeline_parallel) + "; ZeRO-" + std::to_string(s.zero_stage);
  if (s.shard_group > 0) line += " sharded within groups of " + std::to_string(s.shard_group) + " (HSDP)";
  line += "; micro-batch " + std::to_string(s.micro_batch) + " × accumulation " +
          std::to_string(s.gradient_accumulation) + " × data " + std::to_string(s.data_parallel) + " = " +
          std::to_string(s.global_batch()) +
          (s.vision || s.diffusion ? fmt::format(" images of {}×{} per step", s.image_height, s.image_width)
                                   : " sequences of " + std::to_string(s.sequence_length) + " tokens per step");
  return line;
}

// What a launcher's config cannot switch on by itself, said once for every kind.
std::string precision_notes(const LaunchSpec& s) {
  if (s.precision == Precision::fp8_mixed) {
    return "mlsize: note: FP8 matmuls come from NVIDIA Transformer Engine in the model (te.fp8_autocast); the config "
           "keeps bf16 around them\n";
  }
  if (s.precision == Precision::bf16) {
    return "mlsize: note: the plan keeps no fp32 master weights (pure bf16); the launchers' bf16 mode keeps them, so "
           "load the model in bfloat16 and use an optimizer that steps in bf16\n";
  }
  return {};
}

// LoRA and QLoRA: the adapters are the script's (PEFT), which no launcher config holds.
// Whether a data-parallel plan runs under DeepSpeed rather than FSDP (add_script_args).
bool uses_deepspeed(const LaunchSpec& s) {
  return s.zero_stage == 1 || s.offload != Offload::none;
}

// TrainingArguments' FSDP run (train_arguments, --fsdp): its fsdp_config sets
// FSDP_CPU_RAM_EFFICIENT_LOADING when the script creates TrainingArguments, so a model loaded
// after that is read by the first rank alone ("When using 🤗 Trainer API, the distributed
// process group is initialized when you create an instance of TrainingArguments":
// huggingface.co/docs/accelerate/usage_guides/fsdp).
std::string fsdp_loading_note(const LaunchSpec& s) {
  const bool fsdp = !s.vision && s.tensor_parallel == 1 && s.pipeline_parallel == 1 && !uses_deepspeed(s) &&
                    s.zero_stage >= 2 && s.task != Task::inference && s.task != Task::gbdt;
  if (!fsdp) return {};
  return "mlsize: note: create TrainingArguments before from_pretrained: only then does the first rank alone read "
         "the checkpoint (cpu_ram_efficient_loading), one copy in each machine's RAM instead of one per rank\n";
}

std::string adapter_note(const LaunchSpec& s) {
  if (s.task != Task::lora && s.task != Task::qlora) return {};
  // PEFT's target_modules: "all-linear" as it is, the layers by their Llama names.
  std::string modules;
  if (s.lora_targets == "all-linear") {
    modules = "\"all-linear\"";
  } else {
    const std::string layers = s.lora_targets == "attention" ? "q,k,v,o" : s.lora_targets;
    std::size_t start = 0;
    while (start <= layers.size()) {
      const std::size_t end = std::min(layers.find(',', start), layers.size());
      modules += modules.empty() ? "[" : ", ";
      modules += '"';
      modules += layers.substr(start, end - start);
      modules += "_proj\"";
      start = end + 1;
    }
    modules += ']';
  }
  std::string note = "mlsize: note: the plan trains LoRA adapters of rank " + std::to_string(s.lora_rank) + " on " +
                     s.lora_targets + ": PEFT LoraConfig(r=" + std::to_string(s.lora_rank) +
                     ", target_modules=" + modules + ")";
  if (s.task == Task::qlora) note += " over a 4-bit NF4 base (bitsandbytes)";
  return note + "\n";
}

std::string recompute_note(const LaunchSpec& s) {
  if (s.recompute == Recompute::none) return {};
  return std::string("mlsize: note: the plan recomputes activations (") + std::string(to_string(s.recompute)) +
         "): switch it on in the model (model.gradient_checkpointing_enable(), or Megatron-LM's "
         "--recompute-granularity)\n";
}

LaunchText deepspeed_config(const LaunchSpec& s, const std::string& title) {
  Json config;
  // runtime/config.py, _batch_assertion: train_batch_size = micro × accumulation × the
  // data-parallel world size (the world divided by the model-parallel ranks).
  config["train_batch_size"] = s.global_batch();
  config["train_micro_batch_size_per_gpu"] = s.micro_batch;
  config["gradient_accumulation_steps"] = s.gradient_accumulation;
  config["gradient_clipping"] = k_gradient_clipping;
  if (is_fp16(s.precision)) {
    // Dynamic loss scaling: loss_scale 0, DeepSpeed's documented defaults for the rest.
    config["fp16"] = {{"enabled", true},           {"loss_scale", 0}, {"initial_scale_power", 16},
                      {"loss_scale_window", 1000}, {"hysteresis", 2}, {"min_loss_scale", 1}};
  } else if (runs_in_bf16(s.precision)) {
    config["bf16"] = {{"enabled", true}};
  }
  Json zero = {{"stage", s.zero_stage}, {"overlap_comm", true}, {"contiguous_gradients", true}};
  if (s.offload != Offload::none) zero["offload_optimizer"] = {{"device", "cpu"}, {"pin_memory", true}};
  if (s.offload == Offload::optimizer_and_params) zero["offload_param"] = {{"device", "cpu"}, {"pin_memory", true}};
  if (s.zero_stage == 3) zero["stage3_gather_16bit_weights_on_model_save"] = true;
  config["zero_optimization"] = std::move(zero);
  if (s.tensor_parallel > 1) config["tensor_parallel"] = {{"autotp_size", s.tensor_parallel}};
  if (s.recompute != Recompute::none) {
    config["activation_checkpointing"] = {{"partition_activations", s.tensor_parallel > 1},
                                          {"contiguous_memory_optimization", false},
                                          {"cpu_checkpointing", false}};
  }
  config["steps_per_print"] = 100;
  LaunchText out;
  out.text = json_text(config);
  out.notes = "mlsize: " + title + "\nmlsize: " + layout_line(s) + "\n" + precision_notes(s) + recompute_note(s) +
              adapter_note(s);
  if (s.pipeline_parallel > 1) {
    out.notes += "mlsize: note: DeepSpeed takes the pipeline's " + std::to_string(s.pipeline_parallel) +
                 " stages from the model: PipelineModule(layers, num_stages=" + std::to_string(s.pipeline_parallel) +
                 ")\n";
  }
  if (s.offload != Offload::none) {
    // DeepSpeed's engine raises ZeRORuntimeException ("You are using ZeRO-Offload with a client
    // provided optimizer") for a torch optimizer under offload; the learning rate is the user's.
    out.notes +=
        "mlsize: note: offloaded optimizer states step in DeepSpeedCPUAdam, and DeepSpeed refuses a torch "
        "optimizer under offload: add \"optimizer\": {\"type\": \"AdamW\", \"params\": {\"lr\": ...}} to this "
        "config (\"lr\": \"auto\" with the Trainer), or pass a DeepSpeedCPUAdam\n";
  }
  // Several nodes: DeepSpeed's launcher reaches them through a hostfile ("hostname slots=N").
  out.notes += "mlsize: launch with: deepspeed" + std::string(s.nodes > 1 ? " --hostfile hostfile" : "") +
               " --num_nodes " + std::to_string(s.nodes) + " --num_gpus " + std::to_string(s.processes_per_node) +
               " train.py --deepspeed --deepspeed_config ds_config.json\n";
  return out;
}

// timm's train.py (huggingface/pytorch-image-models train.py), one process per GPU: the
// per-GPU batch (-b), the DataLoader workers each process gets of the node's vCPUs (-j),
// AMP in the plan's 16-bit type, channels-last for CNNs, activation checkpointing where the
// plan recomputes, and the optimizer the plan was sized for (docs/launch.md#vision).
void add_timm_args(const LaunchSpec& s, Command& command) {
  command.arg("train.py");
  command.arg("--data-dir", "\"${DATA:?an ImageNet-style folder of train/ and validation/}\"");
  command.arg("--model", s.timm_model);
  if (s.image_height != s.native_resolution || s.image_width != s.native_resolution) {
    command.arg("--input-size", "3 " + std::to_string(s.image_height) + " " + std::to_string(s.image_width));
  }
  command.arg("-b", s.micro_batch);
  if (s.gradient_accumulation > 1) command.arg("--grad-accum-steps", s.gradient_accumulation);
  command.arg("--epochs", static_cast<long long>(std::ceil(s.epochs)));
  if (s.loader_workers > 0) command.arg("-j", s.loader_workers);
  if (is_fp16(s.precision) || runs_in_bf16(s.precision)) {
    command.arg("--amp");
    if (runs_in_bf16(s.precision)) command.arg("--amp-dtype", "bfloat16");
  }
  if (s.convolutional) command.arg("--channels-last");
  if (s.recompute != Recompute::none) command.arg("--grad-checkpointing");
  const bool sgd = s.optimizer == Optimizer::sgd || s.optimizer == Optimizer::sgd_momentum;
  command.arg("--opt", sgd ? "sgd" : "adamw");
  if (s.optimizer == Optimizer::sgd_momentum) command.arg("--momentum", "0.9");
}

// The script's flags: Megatron-LM's pretrain_gpt.py for tensor or pipeline parallelism, else
// a Hugging Face Trainer script (TrainingArguments).
void add_script_args(const LaunchSpec& s, Command& command) {
  const bool megatron = s.tensor_parallel > 1 || s.pipeline_parallel > 1;
  if (megatron) {
    command.arg("pretrain_gpt.py");
    command.arg("--tensor-model-parallel-size", s.tensor_parallel);
    command.arg("--pipeline-model-parallel-size", s.pipeline_parallel);
    if (s.sequence_parallel) command.arg("--sequence-parallel");
    if (s.expert_parallel > 1) command.arg("--expert-model-parallel-size", s.expert_parallel);
    command.arg("--micro-batch-size", s.micro_batch);
    command.arg("--global-batch-size", s.global_batch());
    command.arg("--seq-length", s.sequence_length);
    if (s.zero_stage == 1) command.arg("--use-distributed-optimizer");
    if (is_fp16(s.precision)) command.arg("--fp16");
    if (runs_in_bf16(s.precision)) command.arg("--bf16");
    if (s.precision == Precision::fp8_mixed) command.arg("--fp8-format", "hybrid");
    if (s.recompute == Recompute::selective) command.arg("--recompute-granularity", "selective");
    if (s.recompute == Recompute::full) {
      command.arg("--recompute-granularity", "full").arg("--recompute-method", "uniform");
      command.arg("--recompute-num-layers", 1);
    }
    command.arg("--clip-grad", format_general(k_gradient_clipping));
    return;
  }
  if (s.vision) {
    add_timm_args(s, command);
    return;
  }
  command.arg("train.py");
  command.arg("--per_device_train_batch_size", s.micro_batch);
  command.arg("--gradient_accumulation_steps", s.gradient_accumulation);
  if (is_fp16(s.precision)) command.arg("--fp16");
  if (runs_in_bf16(s.precision)) command.arg("--bf16");
  if (s.recompute != Recompute::none) command.arg("--gradient_checkpointing");
  command.arg("--max_grad_norm", format_general(k_gradient_clipping));
  // FSDP has no optimizer-only sharding (ZeRO-1), and its CPU offload steps the optimizer in
  // torch's Adam on the CPU where the plan's time is DeepSpeedCPUAdam's (Ren et al. 2021,
  // §5.1): DeepSpeed's config takes those plans (Trainer's --deepspeed).
  if (uses_deepspeed(s)) {
    command.arg("--deepspeed", "ds_config.json");
  } else if (s.zero_stage >= 2) {
    // TrainingArguments' fsdp options (transformers trainer_utils.py, FSDPOption).
    std::string fsdp = s.fsdp == FsdpSharding::full_shard     ? "full_shard"
                       : s.fsdp == FsdpSharding::hybrid_shard ? "hybrid_shard"
                                                              : "shard_grad_op";
    fsdp += " auto_wrap";
    command.arg("--fsdp", "'" + fsdp + "'");
    // Only the first rank reads the checkpoint, the others start empty and take its weights
    // (accelerate's fsdp_cpu_ram_efficient_loading, which needs sync_module_states): the host
    // holds one copy, as the host check assumes (ranker.hpp, k_checkpoint_bytes_per_parameter),
    // not one per rank. TrainingArguments reads a JSON fsdp_config (its _VALID_DICT_FIELDS).
    command.arg("--fsdp_config", "'{\"cpu_ram_efficient_loading\": true, \"sync_module_states\": true}'");
  }
}

// torchrun's command; `sky`: with SkyPilot's environment for the nodes rather than the user's.
Command torchrun_command(const LaunchSpec& s, bool sky) {
  Command command("torchrun");
  if (sky) {
    command.arg("--nnodes=\"$SKYPILOT_NUM_NODES\"").arg("--nproc-per-node=\"$SKYPILOT_NUM_GPUS_PER_NODE\"");
    command.arg("--node-rank=\"$SKYPILOT_NODE_RANK\"").arg("--master-addr=\"$MASTER_ADDR\"");
    command.arg("--master-port=" + std::to_string(k_rendezvous_port));
  } else if (s.nodes == 1) {
    command.arg("--standalone").arg("--nproc-per-node=" + std::to_string(s.processes_per_node));
  } else {
    command.arg("--nnodes=" + std::to_string(s.nodes)).arg("--nproc-per-node=" + std::to_string(s.processes_per_node));
    command.arg("--rdzv-backend=c10d");
    command.arg("--rdzv-endpoint=\"${MASTER_ADDR:?the first node's address}:" + std::to_string(k_rendezvous_port) +
                "\"");
    command.arg("--rdzv-id=\"${RUN_ID:-mlsize}\"");
  }
  add_script_args(s, command);
  return command;
}

std::string shell_header(const LaunchSpec& s, const std::string& title) {
  return "#!/bin/sh\n# mlsize: " + title + "\n# " + layout_line(s) + "\n";
}

LaunchText torchrun_script(const LaunchSpec& s, const std::string& title) {
  LaunchText out;
  out.text = shell_header(s, title);
  const bool megatron = s.tensor_parallel > 1 || s.pipeline_parallel > 1;
  out.text += s.vision   ? "# train.py: timm's (pytorch-image-models); DATA: an ImageNet-style folder\n"
              : megatron ? "# pretrain_gpt.py: Megatron-LM's (its data and model flags are yours to add)\n"
                         : "# train.py: your Hugging Face Trainer script; the flags are TrainingArguments'\n";
  if (!megatron && uses_deepspeed(s)) {
    out.text += "# ds_config.json: the same mlsize command with --emit deepspeed\n";
  }
  if (s.nodes > 1)
    out.text += "# Run it on each of the " + std::to_string(s.nodes) + " nodes with the same MASTER_ADDR\n";
  out.text += torchrun_command(s, false).text();
  out.notes = precision_notes(s) + adapter_note(s) + fsdp_loading_note(s);
  return out;
}

// `key: value` for a string value, quoted where YAML would retype it (retyped_by_yaml), so
// the tool reads the string mlsize wrote.
void put_string(YAML::Emitter& out, std::string_view key, const std::string& value) {
  out << YAML::Key << std::string(key) << YAML::Value;
  put_yaml_string(out, value);
}

// The emitter's document, ending in one newline.
std::string yaml_text(const YAML::Emitter& out) {
  std::string text = out.c_str();
  while (text.ends_with("\n\n")) text.pop_back();
  if (!text.ends_with('\n')) text += '\n';
  return text;
}

// The script's file name, fetched into the working directory.
std::string script_file(const LaunchSpec& s) {
  return s.diffusers_script.substr(s.diffusers_script.rfind('/') + 1);
}

// A diffusers example script under accelerate launch (docs/launch.md#diffusion): the
// checkpoint, the images, the resolution, the per-GPU batch and accumulation, the epochs, the
// mixed precision, checkpointing where the plan recomputes, 8-bit Adam where it was sized so,
// the adapters' rank, cached latents where the script has the flag. `sky`: across SkyPilot's
// nodes, from its environment, rather than with the config file --emit accelerate writes.
Command diffusers_command(const LaunchSpec& s, bool sky) {
  Command command("accelerate launch");
  if (sky) {
    if (s.world_size() > 1) command.arg("--multi_gpu");
    command.arg("--num_machines", "\"$SKYPILOT_NUM_NODES\"");
    command.arg("--num_processes", "$((SKYPILOT_NUM_NODES * SKYPILOT_NUM_GPUS_PER_NODE))");
    command.arg("--machine_rank", "\"$SKYPILOT_NODE_RANK\"");
    command.arg("--main_process_ip", "\"$MASTER_ADDR\"");
    command.arg("--main_process_port", static_cast<long long>(k_rendezvous_port));
  } else {
    command.arg("--config_file", "accelerate.yaml");
  }
  command.arg(script_file(s));
  command.arg("--pretrained_model_name_or_path",
              s.hub_model.empty() ? std::string("\"${MODEL:?the diffusers checkpoint to train}\"") : s.hub_model);
  if (s.dreambooth) {
    command.arg("--instance_data_dir", "\"${DATA:?a folder of the subject's images}\"");
    command.arg("--instance_prompt", "\"${PROMPT:?the prompt that names the subject}\"");
  } else {
    command.arg("--train_data_dir", "\"${DATA:?an imagefolder of images and a metadata.jsonl of captions}\"");
  }
  command.arg("--resolution", s.image_height);
  command.arg("--train_batch_size", s.micro_batch);
  command.arg("--gradient_accumulation_steps", s.gradient_accumulation);
  command.arg("--num_train_epochs", static_cast<long long>(std::ceil(s.epochs)));
  command.arg("--mixed_precision", is_fp16(s.precision) ? "fp16" : runs_in_bf16(s.precision) ? "bf16" : "no");
  if (s.recompute != Recompute::none) command.arg("--gradient_checkpointing");
  if (s.optimizer == Optimizer::adam_8bit) command.arg("--use_8bit_adam");
  if (s.task == Task::lora) command.arg("--rank", s.lora_rank);
  if (s.cache_latents && s.dreambooth) command.arg("--cache_latents");
  command.arg("--output_dir", "out");
  return command;
}

// What the diffusers command leaves to the user, and what its script does of its own.
std::string diffusers_notes(const LaunchSpec& s) {
  std::string notes = "mlsize: note: fetch " + script_file(s) +
                      " from https://github.com/huggingface/diffusers/tree/main/" + s.diffusers_script +
                      " (and its requirements) into the working directory\n";
  if (s.cache_latents && !s.dreambooth) {
    notes += s.diffusers_script.ends_with("_sdxl.py") && s.task != Task::lora
                 ? "mlsize: note: the script precomputes the text embeddings and VAE latents itself\n"
                 : "mlsize: note: the script has no --cache_latents: it encodes every step, which the plan, sized "
                   "with cached latents, does not count\n";
  }
  if (s.optimizer != Optimizer::adamw && s.optimizer != Optimizer::adam_8bit) {
    notes += "mlsize: note: the script steps AdamW (or 8-bit Adam), not " + std::string(to_string(s.optimizer)) +
             "; the plan's optimizer memory is " + std::string(to_string(s.optimizer)) + "'s\n";
  }
  return notes;
}

// The offload devices of Accelerate's DeepSpeed plugin.
std::string offload_device(bool offloaded) {
  return offloaded ? "cpu" : "none";
}

LaunchText accelerate_config(const LaunchSpec& s, const std::string& title) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::Comment(yaml_comment("mlsize: " + title)) << YAML::Newline;
  out << YAML::Comment(yaml_comment(layout_line(s)));
  out << YAML::BeginMap;
  put_string(out, "compute_environment", "LOCAL_MACHINE");
  const bool deepspeed = uses_deepspeed(s);
  const char* type = deepspeed ? "DEEPSPEED" : s.zero_stage >= 2 ? "FSDP" : s.world_size() > 1 ? "MULTI_GPU" : "NO";
  put_string(out, "distributed_type", type);
  const char* mixed = is_fp16(s.precision)                  ? "fp16"
                      : s.precision == Precision::fp8_mixed ? "fp8"
                      : runs_in_bf16(s.precision)           ? "bf16"
                                                            : "no";
  put_string(out, "mixed_precision", mixed);
  out << YAML::Key << "num_machines" << YAML::Value << s.nodes;
  out << YAML::Key << "num_processes" << YAML::Value << s.world_size();
  out << YAML::Key << "machine_rank" << YAML::Value << 0;
  put_string(out, "main_training_function", "main");
  put_string(out, "rdzv_backend", "static");
  out << YAML::Key << "same_network" << YAML::Value << true;
  out << YAML::Key << "use_cpu" << YAML::Value << false;
  if (deepspeed) {
    out << YAML::Key << "deepspeed_config" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "zero_stage" << YAML::Value << s.zero_stage;
    put_string(out, "offload_optimizer_device", offload_device(s.offload != Offload::none));
    put_string(out, "offload_param_device", offload_device(s.offload == Offload::optimizer_and_params));
    out << YAML::Key << "gradient_accumulation_steps" << YAML::Value << s.gradient_accumulation;
    out << YAML::Key << "gradient_clipping" << YAML::Value << k_gradient_clipping;
    out << YAML::Key << "zero3_init_flag" << YAML::Value << (s.zero_stage == 3);
    if (s.nodes > 1) put_string(out, "deepspeed_multinode_launcher", "standard");
    out << YAML::EndMap;
  } else if (s.zero_stage >= 2) {
    out << YAML::Key << "fsdp_config" << YAML::Value << YAML::BeginMap;
    put_string(out, "fsdp_sharding_strategy", std::string(to_string(s.fsdp)));
    out << YAML::Key << "fsdp_offload_params" << YAML::Value << false;  // offload plans run DeepSpeed
    put_string(out, "fsdp_auto_wrap_policy", "TRANSFORMER_BASED_WRAP");
    put_string(out, "fsdp_backward_prefetch", "BACKWARD_PRE");
    put_string(out, "fsdp_state_dict_type", "SHARDED_STATE_DICT");
    out << YAML::Key << "fsdp_use_orig_params" << YAML::Value << true;
    out << YAML::Key << "fsdp_sync_module_states" << YAML::Value << true;
    out << YAML::Key << "fsdp_cpu_ram_efficient_loading" << YAML::Value << true;
    out << YAML::Key << "fsdp_activation_checkpointing" << YAML::Value << (s.recompute != Recompute::none);
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  LaunchText text;
  text.text = yaml_text(out);
  if (s.diffusion) {
    // The command that reads this config, as comments after it.
    std::string command = diffusers_command(s, false).text();
    text.text += "# " + yaml_comment("run (each node with --machine_rank and --main_process_ip when several):") + "\n";
    std::size_t start = 0;
    while (start < command.size()) {
      const std::size_t end = command.find('\n', start);
      text.text += "# " + yaml_comment(command.substr(start, end - start)) + "\n";
      start = end + 1;
    }
    text.notes = precision_notes(s) + diffusers_notes(s);
    return text;
  }
  text.notes = precision_notes(s) + adapter_note(s);
  if (!deepspeed) {
    text.notes +=
        "mlsize: note: give the script the micro-batch (" + std::to_string(s.micro_batch) +
        " per device) and Accelerator(gradient_accumulation_steps=" + std::to_string(s.gradient_accumulation) + ")\n";
  }
  if (s.nodes > 1) {
    text.notes +=
        "mlsize: note: on each node, accelerate launch --config_file FILE --machine_rank RANK --main_process_ip "
        "FIRST_NODE --main_process_port " +
        std::to_string(k_rendezvous_port) + " train.py\n";
  }
  if (s.zero_stage < 2 || deepspeed) text.notes += recompute_note(s);
  return text;
}

LaunchText vllm_script(const LaunchSpec& s, const std::string& title) {
  LaunchText out;
  out.text = shell_header(s, title);
  if (s.nodes > 1) {
    out.text += "# Run it on each of the " + std::to_string(s.nodes) +
                " nodes, behind one load balancer (--emit skypilot: a SkyServe service of " + std::to_string(s.nodes) +
                " replicas)\n";
  }
  out.text += vllm_comments(s) + vllm_command(s).text();
  out.notes = vllm_notes(s);
  return out;
}

// A serving fleet of several nodes is a SkyServe service: each replica one node running the
// server, behind SkyServe's load balancer (docs.skypilot.co, "Service YAML": `service:` with
// `readiness_probe` and `replicas`; sky/utils/schemas.py, get_service_schema). The probe is
// the path of SkyPilot's own vLLM service (llm/vllm/service.yaml), which vLLM answers once
// the model is loaded; SkyServe ignores failures for its first 1,200 s by default.
bool is_service(const LaunchSpec& s) {
  return s.task == Task::inference && s.nodes > 1;
}

// What `run` needs installed on each node, once, before it (SkyPilot's `setup:`): the
// serving engine, or the training stack of the launch line, then the project's own
// requirements.txt from the workdir when it has one.
std::string skypilot_setup(const LaunchSpec& s, bool serves) {
  std::string packages;
  if (serves) {
    packages = "vllm";
  } else if (s.diffusion) {
    // The diffusers example script, fetched beside the workdir's files unless it has its own.
    std::string diffusers = "pip install torch diffusers transformers accelerate datasets";
    if (s.task == Task::lora) diffusers += " peft";
    if (s.optimizer == Optimizer::adam_8bit) diffusers += " bitsandbytes";
    if (s.dreambooth) diffusers += " sentencepiece protobuf";  // Flux's T5 tokenizer
    return diffusers + "\nif [ ! -f " + script_file(s) +
           " ]; then curl -fsSLO https://raw.githubusercontent.com/huggingface/diffusers/main/" + s.diffusers_script +
           "; fi\nif [ -f requirements.txt ]; then pip install -r requirements.txt; fi";
  } else if (s.vision) {
    // timm's train.py, fetched beside the workdir's files unless the workdir has its own.
    return "pip install torch torchvision timm\n"
           "if [ ! -f train.py ]; then curl -fsSLO "
           "https://raw.githubusercontent.com/huggingface/pytorch-image-models/main/train.py; fi\n"
           "if [ -f requirements.txt ]; then pip install -r requirements.txt; fi";
  } else if (s.tensor_parallel > 1 || s.pipeline_parallel > 1) {
    packages = "torch megatron-core";  // pretrain_gpt.py: the workdir is a Megatron-LM checkout
  } else {
    packages = "torch transformers accelerate";  // the Trainer needs accelerate
    if (uses_deepspeed(s)) packages += " deepspeed";
    if (s.task == Task::lora || s.task == Task::qlora) packages += " peft";
    if (s.task == Task::qlora) packages += " bitsandbytes";
  }
  return "pip install " + packages + "\nif [ -f requirements.txt ]; then pip install -r requirements.txt; fi";
}

LaunchText skypilot_task(const LaunchSpec& s, const std::string& title) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::Comment(yaml_comment("mlsize: " + title)) << YAML::Newline;
  out << YAML::Comment(yaml_comment(layout_line(s)));
  out << YAML::BeginMap;
  put_string(out, "name", "mlsize-plan");
  const bool serves = !unsupported(LaunchKind::vllm, s);
  if (is_service(s)) {
    out << YAML::Key << "service" << YAML::Value << YAML::BeginMap;
    put_string(out, "readiness_probe", "/v1/models");
    out << YAML::Key << "replicas" << YAML::Value << s.nodes;
    out << YAML::EndMap;
  } else {
    out << YAML::Key << "num_nodes" << YAML::Value << s.nodes;
  }
  // A checkpoint mlsize cannot name: SkyPilot refuses to launch until --env MODEL=... gives
  // it (a null env is required: docs.skypilot.co, "Environment Variables and Secrets").
  if (serves && vllm_model_unnamed(s)) {
    out << YAML::Key << "envs" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "MODEL" << YAML::Value << YAML::Null;
    out << YAML::EndMap;
  }
  // The images' folder, which only the user knows: required at launch (and the subject's
  // prompt for DreamBooth, the checkpoint of a model read from a config).
  if (s.vision || s.diffusion) {
    out << YAML::Key << "envs" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "DATA" << YAML::Value << YAML::Null;
    if (s.dreambooth) out << YAML::Key << "PROMPT" << YAML::Value << YAML::Null;
    if (s.diffusion && s.hub_model.empty()) out << YAML::Key << "MODEL" << YAML::Value << YAML::Null;
    out << YAML::EndMap;
  }
  // The trees' data and label column, which only the user knows: required at launch.
  if (s.task == Task::gbdt) {
    out << YAML::Key << "envs" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "DATA" << YAML::Value << YAML::Null;
    out << YAML::Key << "LABEL" << YAML::Value << YAML::Null;
    out << YAML::EndMap;
  }
  // The directory `sky launch` runs in (train.py, requirements.txt) goes to every node's
  // ~/sky_workdir, where setup and run start (docs.skypilot.co, "SkyPilot YAML": workdir).
  put_string(out, "workdir", ".");
  out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
  // Regions priced alike are all offered (any_of), so that SkyPilot tries the next when one
  // has no capacity: with one region named, "auto-failover retries only within the
  // specified location" (docs.skypilot.co, examples/auto-failover).
  if (s.regions_alike.empty()) {
    put_string(out, "infra", s.region.empty() ? s.cloud : s.cloud + "/" + s.region);
  } else {
    out << YAML::Key << "any_of" << YAML::Value << YAML::BeginSeq;
    for (const std::string& region : s.regions_alike) {
      out << YAML::BeginMap;
      put_string(out, "infra", s.cloud + "/" + region);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!s.accelerator.empty()) {
    put_string(out, "accelerators", s.accelerator + ":" + std::to_string(s.accelerators_per_node));
  }
  // A TPU slice is its accelerator; the other clouds' instances are named.
  if (s.device_kind != DeviceKind::tpu) put_string(out, "instance_type", s.instance_type);
  out << YAML::Key << "use_spot" << YAML::Value << s.spot;
  out << YAML::Key << "disk_size" << YAML::Value << static_cast<long long>(s.disk_gb);
  if (s.task == Task::inference) out << YAML::Key << "ports" << YAML::Value << k_vllm_port;
  out << YAML::EndMap;
  std::string run;
  if (s.task == Task::gbdt) {
    run = trees_skypilot_run(s);
  } else if (serves) {
    run = vllm_comments(s) + vllm_command(s).text();
  } else if (s.diffusion) {
    run = "MASTER_ADDR=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\n" + diffusers_command(s, true).text();
  } else if (!unsupported(LaunchKind::torchrun, s)) {
    run = "MASTER_ADDR=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\n" + torchrun_command(s, true).text();
  } else {
    run = "python train.py\n";
  }
  out << YAML::Key << "setup" << YAML::Value << YAML::Literal
      << yaml_block(s.task == Task::gbdt ? trees_skypilot_setup(s) : skypilot_setup(s, serves));
  out << YAML::Key << "run" << YAML::Value << YAML::Literal << yaml_block(run);
  out << YAML::EndMap;
  LaunchText text;
  text.text = yaml_text(out);
  if (!s.regions_alike.empty()) {
    text.notes = "mlsize: note: " + s.provider + " prices " + s.instance_type + " alike in " +
                 std::to_string(s.regions_alike.size()) +
                 " regions: the task offers them all (any_of), so SkyPilot tries the next when one has no "
                 "capacity (--region REGION keeps to one)\n";
  }
  if (s.accelerator.empty() && s.device_kind != DeviceKind::cpu) {
    text.notes += "mlsize: note: SkyPilot's name for " + s.device_id +
                  " is not known to mlsize; the instance type alone "
                  "picks it\n";
  }
  if (!serves && (s.tensor_parallel > 1 || s.pipeline_parallel > 1)) {
    text.notes +=
        "mlsize: note: run sky launch in a Megatron-LM checkout: run calls its pretrain_gpt.py (workdir: .)\n";
  }
  if (s.task == Task::gbdt) {
    text.notes += trees_skypilot_notes(s);
  } else if (s.diffusion) {
    text.notes += precision_notes(s) + diffusers_notes(s);
  } else if (s.task != Task::inference) {
    text.notes += precision_notes(s) + adapter_note(s) + fsdp_loading_note(s);
  }
  // Spot training: a managed job is relaunched after a preemption, a cluster from `sky
  // launch` is not ("SkyPilot supports managed jobs (sky jobs), which can automatically
  // retry failures, recover from spot instance preemptions": docs.skypilot.co,
  // examples/managed-jobs). The plan's time counts the work lost between checkpoints.
  if (s.spot && s.task != Task::inference) {
    text.notes +=
        "mlsize: note: spot: launch with: sky jobs launch task.yaml (a managed job comes back after a preemption; "
        "a cluster from sky launch does not), and save checkpoints to a bucket the job mounts, resuming from the "
        "latest: the plan's time counts the work lost between them\n";
  }
  if (serves) text.notes += vllm_notes(s);
  if (serves && vllm_model_unnamed(s)) {
    text.notes += "mlsize: note: launch with: sky " + std::string(is_service(s) ? "serve up" : "launch") +
                  " task.yaml --env MODEL=...\n";
  } else if (is_service(s)) {
    text.notes += "mlsize: note: launch with: sky serve up task.yaml\n";
  }
  return text;
}

}  // namespace

LaunchText render_launch(LaunchKind kind, const LaunchSpec& spec, const std::string& title) {
  switch (kind) {
    case LaunchKind::deepspeed: return deepspeed_config(spec, title);
    case LaunchKind::torchrun: return torchrun_script(spec, title);
    case LaunchKind::accelerate: return accelerate_config(spec, title);
    case LaunchKind::skypilot: return skypilot_task(spec, title);
    case LaunchKind::vllm: return vllm_script(spec, title);
    case LaunchKind::dask: return dask_job(spec, title);
    case LaunchKind::spark: return spark_script(spec, title);
  }
  return {};
}

}  // namespace mlsize::cli
