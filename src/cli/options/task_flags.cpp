#include "cli/options/task_flags.hpp"

#include "cli/options/choice.hpp"

#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <optional>

namespace mlsize::cli {

void resolve_inference_precision(const WorkloadOptions& options, Workload& workload) {
  // A pre-quantised checkpoint is served as stored unless --quant or --precision says otherwise.
  if (!options.quant && !options.precision && !workload.model.checkpoint_format.empty()) {
    if (const std::optional<WeightFormat> stored = parse_name<WeightFormat>(workload.model.checkpoint_format)) {
      workload.weight_format = *stored;
    }
  }
  if (!options.precision) return;
  const std::string text = lower_case(*options.precision);
  // A mixed-precision name means its 16- or 8-bit half.
  WeightFormat format = WeightFormat::bf16;
  if (text == "bf16-mixed") {
    format = WeightFormat::bf16;
  } else if (text == "fp16-mixed") {
    format = WeightFormat::fp16;
  } else if (text == "fp8-mixed") {
    format = WeightFormat::fp8;
  } else {
    format = parse_choice<WeightFormat>("--precision", text, k_inference_precisions);
  }
  if (options.quant && workload.weight_format != format) {
    flag_error("--precision",
               fmt::format("inference weights are {} by --precision but {} by --quant", to_string(format),
                           to_string(workload.weight_format)),
               "give one of them");
  }
  workload.weight_format = format;
  // Training's precision names the same width, for the summary and the compute dtype.
  if (format == WeightFormat::fp32) workload.precision = Precision::fp32;
  if (format == WeightFormat::fp16) {
    workload.precision = Precision::fp16_mixed;
    // An fp16 model caches fp16 keys and values (vLLM's kv_cache_dtype "auto": the model's).
    if (!options.kv_cache_dtype) workload.kv_format = KvFormat::fp16;
  }
}

std::string task_flag_warnings(const WorkloadOptions& options, const Workload& workload) {
  std::string text;
  const auto warn = [&](const std::optional<std::string>& value, const char* flag, const char* applies) {
    if (value) {
      text += fmt::format("mlsize: warning: {} applies to {}; ignored for --task {}\n", flag, applies,
                          to_string(workload.task));
    }
  };
  if (workload.is_training() || workload.task == Task::gbdt) {
    warn(options.quant, "--quant", "inference (training sets --precision)");
    warn(options.kv_cache_dtype, "--kv-cache-dtype", "inference");
  }
  if (workload.task == Task::inference || workload.task == Task::gbdt) {
    warn(options.optimizer, "--optimizer", "training");
    // An image model's inference takes its images per device from it (a batch of images).
    if (!workload.samples_are_tokens()) warn(options.micro_batch, "--micro-batch", "training (inference sets --batch)");
    warn(options.global_batch, "--global-batch", "training");
  }
  if (workload.task != Task::lora && workload.task != Task::qlora) {
    warn(options.lora_rank, "--lora-rank", "--task lora and qlora");
    warn(options.lora_targets, "--lora-targets", "--task lora and qlora");
  }
  if (workload.task != Task::inference) {
    warn(options.context, "--context", "inference (training sets --seq-len)");
    warn(options.batch, "--batch", "inference (training sets --micro-batch)");
    warn(options.bandwidth_efficiency, "--bandwidth-efficiency", "inference");
    warn(options.engine, "--engine", "inference");
    warn(options.step_overhead, "--step-overhead", "inference");
  }
  if (workload.task == Task::gbdt) {
    warn(options.sequence_length, "--seq-len", "transformers");
    warn(options.attention, "--attention", "transformers");
    warn(options.framework, "--framework", "transformers");
  }
  // --tokens counts what is trained on; --data beside it only sizes the dataset.
  if (options.tokens && options.data && workload.is_training() && workload.dataset_bytes) {
    text += fmt::format(
        "mlsize: note: --tokens {} sets the tokens trained on; --data {} only sizes the dataset (at {} bytes/token "
        "it would be {} tokens)\n",
        *options.tokens, *options.data, format_general(workload.bytes_per_token),
        format_count(tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, 1.0)));
  }
  // Trees: --data sets the bytes the working set is made of; --rows × --features beside it
  // only splits them, so say when the two disagree by more than a factor of 2.
  if (options.rows && options.data && workload.task == Task::gbdt && workload.dataset_bytes) {
    const double values_bytes = workload.rows * workload.features * k_gbdt_bytes_per_value;
    const double ratio = workload.dataset_bytes->value / values_bytes;
    if (ratio > 2 || ratio < 0.5) {
      text += fmt::format(
          "mlsize: note: --data {} sets the data's size (the memory is sized from it); --rows {} × {} features "
          "would be {} of float32 values\n",
          *options.data, *options.rows, format_general(workload.features), format_bytes(Bytes(values_bytes)));
    }
  }
  if (options.data_file && workload.task == Task::gbdt) {
    text += fmt::format("mlsize: note: --data-file {}: {} rows, {} features{} ({} as float32)\n", *options.data_file,
                        format_count(workload.rows), format_count(workload.features),
                        options.features ? " (--features)" : " (every column but one, the label)",
                        format_bytes(Bytes(workload.rows * workload.features * k_gbdt_bytes_per_value)));
  }
  // Serving a load sizes its own batch and sequences: a --batch or --context beside it would
  // otherwise be dropped without a word.
  if (workload.serving && !workload.serving->sizing) {
    if (options.batch) {
      text +=
          "mlsize: warning: --batch is replaced when serving: each replica runs the largest batch its memory, "
          "the engine (--max-batch) and the targets allow\n";
    }
    if (options.context) {
      text += fmt::format(
          "mlsize: warning: --context is replaced when serving: a sequence holds --prompt-tokens + --output-tokens "
          "({} tokens)\n",
          workload.serving->prompt_tokens + workload.serving->output_tokens);
    }
  }
  return text;
}

}  // namespace mlsize::cli
