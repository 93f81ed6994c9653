#include "cli/render/render_vllm.hpp"

#include <mlsize/support/number_format.hpp>

#include <string_view>

namespace mlsize::cli {

namespace {

// How a checkpoint stores weights of `format`, as its model card says it.
std::string_view stored_as(WeightFormat format) {
  switch (format) {
    case WeightFormat::awq: return "AWQ";
    case WeightFormat::gptq: return "GPTQ";
    // mlsize's int4 is GPTQ's symmetric 4 bits with a scale per 128 weights.
    case WeightFormat::int4: return "4-bit GPTQ (group size 128)";
    case WeightFormat::int8: return "bitsandbytes 8-bit";
    case WeightFormat::mxfp4: return "MXFP4";
    default: return {};
  }
}

// The checkpoint `${MODEL}` must be.
std::string wanted_checkpoint(const LaunchSpec& s) {
  if (!s.prequantized) return "the Hugging Face id or path of the model";
  return "a checkpoint of " + (s.base_model.empty() ? std::string("the model") : s.base_model) + " quantised with " +
         std::string(stored_as(s.weight_format));
}

std::string model_length_reason(const LaunchSpec& s) {
  switch (s.max_model_length_rule) {
    case ModelLengthRule::context: return "--context";
    case ModelLengthRule::model_positions:
      return "the model's context (max_position_embeddings), which the plan's KV memory holds (" +
             std::to_string(s.kv_tokens) + " tokens a replica)";
    case ModelLengthRule::request_multiple: break;
  }
  std::string reason = std::to_string(k_request_multiple) + " × the mean request (" + std::to_string(s.request_tokens) +
                       " prompt + output tokens)";
  std::string within;
  if (s.model_positions > 0) within = "the model's " + std::to_string(s.model_positions) + " positions";
  if (s.kv_tokens > 0) {
    within += within.empty() ? "" : " and ";
    within += "the " + std::to_string(s.kv_tokens) + " tokens the plan's KV memory holds a replica";
  }
  if (!within.empty()) reason += ", within " + within;
  return reason;
}

}  // namespace

bool vllm_model_unnamed(const LaunchSpec& s) {
  return s.model.empty();
}

Command vllm_command(const LaunchSpec& s) {
  Command command("vllm serve " + (s.model.empty() ? "\"${MODEL:?" + wanted_checkpoint(s) + "}\"" : s.model));
  command.arg("--tensor-parallel-size", s.tensor_parallel);
  int engines = 1;
  if (s.expert_parallel > 1) {
    // An expert-parallel replica: attention data-parallel over its devices, the experts
    // split over the same ranks, vLLM's expert parallelism being TP × DP wide (docs.vllm.ai,
    // "Expert Parallel Deployment": --data-parallel-size N --enable-expert-parallel).
    engines = s.expert_parallel;
    command.arg("--data-parallel-size", engines);
    command.arg("--enable-expert-parallel");
  } else if (s.replicas_per_node > 1) {
    // Replicas on one node: vLLM's data parallelism, one engine per replica behind one API
    // server (docs.vllm.ai, "Data Parallel Deployment").
    command.arg("--data-parallel-size", s.replicas_per_node);
  }
  // --max-num-seqs bounds each engine (data-parallel rank): the replica's batch shared out.
  command.arg("--max-num-seqs", (s.max_sequences + engines - 1) / engines);
  command.arg("--max-model-len", s.max_model_length);
  if (s.max_step_tokens > 0) command.arg("--max-num-batched-tokens", s.max_step_tokens);
  command.arg("--gpu-memory-utilization", format_fixed(s.memory_fraction, 2));
  if (!s.quantization.empty()) command.arg("--quantization", s.quantization);
  if (s.weight_format == WeightFormat::bf16) command.arg("--dtype", "bfloat16");
  if (s.weight_format == WeightFormat::fp16) command.arg("--dtype", "float16");
  if (s.weight_format == WeightFormat::fp32) command.arg("--dtype", "float32");
  if (s.kv_format == KvFormat::fp8) command.arg("--kv-cache-dtype", "fp8");
  command.arg("--port", k_vllm_port);
  return command;
}

std::string vllm_comments(const LaunchSpec& s) {
  std::string text;
  if (s.model.empty()) text += "# MODEL: " + wanted_checkpoint(s) + "\n";
  text += "# --max-model-len " + std::to_string(s.max_model_length) + ": " + model_length_reason(s) + "\n";
  return text;
}

std::string vllm_notes(const LaunchSpec& s) {
  std::string notes;
  if (s.model.empty()) {
    notes += "mlsize: note: set MODEL to " + wanted_checkpoint(s);
    if (s.prequantized) {
      notes += ": --quantization " + s.quantization +
               " reads the quantisation the checkpoint stores, and a 16-bit "
               "checkpoint has none";
    } else {
      notes += ": mlsize cannot name it";
    }
    notes += "\n";
  }
  if (s.slow_kernel) {
    notes += "mlsize: note: vLLM's " + s.quantization +
             " kernels decode below the memory-bandwidth bound the plan's decode time assumes";
    if (s.quantization == "awq" || s.quantization == "gptq")
      notes += " (its Marlin kernels need NVIDIA Ampere or later)";
    notes += "\n";
  }
  return notes;
}

}  // namespace mlsize::cli
