#include "cli/workload_options.hpp"

#include "cli/input_file.hpp"

#include <mlsize/catalog_loader.hpp>
#include <mlsize/error.hpp>
#include <mlsize/quantity.hpp>
#include <mlsize/text_distance.hpp>

#include <charconv>
#include <optional>

namespace mlsize::cli {
namespace {

// Calls `parse`, adding the flag name to any error it throws.
template <class Parse>
auto parse_flag(const std::string& flag, Parse parse) {
  try {
    return parse();
  } catch (Error& error) {
    error.at_flag(flag);
    throw;
  }
}

template <class Enum>
Enum parse_choice(const std::string& text, const std::string& flag, std::optional<Enum> (*parse)(std::string_view),
                  std::span<const std::string_view> names) {
  if (auto value = parse(text)) return *value;
  std::string hint = did_you_mean(text, names);
  flag_error(flag, "\"" + text + "\" is not one of " + join_names(names), hint);
}

}  // namespace

void add_workload_options(CLI::App& command, WorkloadOptions& options) {
  command.add_option("--params", options.params, "Trainable parameters, e.g. 7B, 350M, 6.7e9")->required();
  command.add_option("--data", options.data, "Dataset size in bytes of text, e.g. 200GB, 1.5TiB");
  command.add_option("--tokens", options.tokens, "Dataset size in tokens per epoch, e.g. 50B (overrides --data)");
  command.add_option("--epochs", options.epochs, "Passes over the dataset (default 1)");
  command.add_option("--bytes-per-token", options.bytes_per_token, "Bytes of text per token for --data (default 4)");
  command.add_option("--task", options.task, "pretrain | finetune (full fine-tuning; same memory and FLOPs per token) (default pretrain)");
  command.add_option("--precision", options.precision, "bf16-mixed | fp16-mixed | fp32 (default bf16-mixed)");
  command.add_option("--optimizer", options.optimizer, "adamw | adam | sgd | sgd-momentum | adam-8bit (default adamw)");
  command.add_option("--seq-len", options.sequence_length, "Sequence length in tokens (default 2048)");
  command.add_option("--micro-batch", options.micro_batch, "Sequences per device per step (default 1)");
  command.add_option("--mfu", options.mfu, "Model FLOPs utilisation, 0 < MFU <= 1 (default 0.40)");
  command.add_option("--budget", options.budget, "Most money to spend, e.g. 20k, $1.5M");
  command.add_option("--deadline", options.deadline, "Longest run time, e.g. 36h, 7d, 2w");
  command.add_option("--pricing", options.pricing, "on-demand | spot (default on-demand)");
  command.add_option("--catalog", options.catalog_files, "Catalogue YAML laid over the default; repeatable");
  command.add_option("--format", options.format, "table | json (default table)");
}

void flag_error(const std::string& flag, std::string message, std::string hint) {
  Error error(ErrorKind::usage, std::move(message), std::move(hint));
  error.at_flag(flag);
  throw error;
}

void check_format(const WorkloadOptions& options) {
  if (options.format != "table" && options.format != "json") {
    flag_error("--format", "\"" + options.format + "\" is not one of table, json");
  }
}

int parse_int_flag(const std::string& text, const std::string& flag, int minimum, int maximum) {
  const std::string accepted = "a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum);
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < minimum || value > maximum) {
    flag_error(flag, "\"" + text + "\" is not " + accepted);
  }
  return static_cast<int>(value);
}

Workload build_workload(const WorkloadOptions& options) {
  Workload workload;
  workload.params = parse_flag("--params", [&] { return parse_count(options.params); });
  workload.task = parse_choice<Task>(options.task, "--task", parse_task, task_names());
  workload.precision = parse_choice<Precision>(options.precision, "--precision", parse_precision, precision_names());
  workload.optimizer = parse_choice<Optimizer>(options.optimizer, "--optimizer", parse_optimizer, optimizer_names());
  if (!options.epochs.empty()) {
    workload.epochs = parse_flag("--epochs", [&] { return parse_positive_number(options.epochs, "a number of epochs"); });
  }
  if (!options.bytes_per_token.empty()) {
    workload.bytes_per_token = parse_flag(
        "--bytes-per-token", [&] { return parse_positive_number(options.bytes_per_token, "a number of bytes"); });
  }
  if (!options.tokens.empty()) {
    workload.tokens = parse_flag("--tokens", [&] { return parse_count(options.tokens); }) * workload.epochs;
    if (!options.data.empty()) workload.dataset_bytes = parse_flag("--data", [&] { return parse_bytes(options.data); });
  } else if (!options.data.empty()) {
    workload.dataset_bytes = parse_flag("--data", [&] { return parse_bytes(options.data); });
    workload.tokens = tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, workload.epochs);
  } else {
    flag_error("--data", "the dataset size is missing", "give --data (e.g. 200GB) or --tokens (e.g. 50B)");
  }
  if (!options.sequence_length.empty()) {
    workload.sequence_length = parse_int_flag(options.sequence_length, "--seq-len", 1, 10'000'000);
  }
  if (!options.micro_batch.empty()) workload.micro_batch = parse_int_flag(options.micro_batch, "--micro-batch", 1, 1'000'000);
  if (!options.mfu.empty()) {
    workload.mfu = parse_flag("--mfu", [&] { return parse_positive_number(options.mfu, "a utilisation"); });
    if (workload.mfu > 1.0) {
      flag_error("--mfu", "\"" + options.mfu + "\" is above 1", "a fraction such as 0.4 (40% of peak)");
    }
  }
  if (!options.budget.empty()) workload.budget = parse_flag("--budget", [&] { return parse_money(options.budget); });
  if (!options.deadline.empty()) {
    workload.deadline = parse_flag("--deadline", [&] { return parse_duration(options.deadline); });
  }
  return workload;
}

CostSettings build_cost_settings(const WorkloadOptions& options) {
  CostSettings settings;
  if (options.pricing == "spot") {
    settings.pricing = Pricing::spot;
  } else if (options.pricing != "on-demand") {
    flag_error("--pricing", "\"" + options.pricing + "\" is not one of on-demand, spot");
  }
  return settings;
}

Catalog build_catalog(const WorkloadOptions& options) {
  Catalog catalog = load_default_catalog();
  for (const std::string& path : options.catalog_files) {
    load_catalog_yaml(catalog, read_input_file(path, k_max_catalog_file_bytes), path);
  }
  catalog.check_references();
  return catalog;
}

}  // namespace mlsize::cli
