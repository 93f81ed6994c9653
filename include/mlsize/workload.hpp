#pragma once
// What the user wants to run: model size, data, task, precision, optimizer, constraints.

#include <mlsize/units.hpp>

#include <optional>
#include <span>
#include <string_view>

namespace mlsize {

enum class Task { pretrain, finetune };
enum class Precision { bf16_mixed, fp16_mixed, fp32 };
enum class Optimizer { adamw, adam, sgd, sgd_momentum, adam_8bit };
enum class Recompute { none, full };

struct Workload {
  double params = 0.0;                  // N, trainable parameters
  double tokens = 0.0;                  // D, tokens processed over all epochs
  std::optional<Bytes> dataset_bytes;   // when the data was given as bytes
  double epochs = 1.0;
  double bytes_per_token = 4.0;         // see docs/methodology.md#bytes-per-token
  Task task = Task::pretrain;
  Precision precision = Precision::bf16_mixed;
  Optimizer optimizer = Optimizer::adamw;
  int sequence_length = 2048;           // s, see docs/methodology.md#activations
  int micro_batch = 1;                  // b, sequences per device per forward pass
  double mfu = 0.40;                    // model FLOPs utilisation, see docs/methodology.md#mfu
  std::optional<Usd> budget;
  std::optional<Seconds> deadline;
};

// Tokens in `bytes` of text at `bytes_per_token`, times `epochs`.
double tokens_from_bytes(Bytes bytes, double bytes_per_token, double epochs);

std::string_view to_string(Task task);
std::string_view to_string(Precision precision);
std::string_view to_string(Optimizer optimizer);
std::string_view to_string(Recompute recompute);

std::optional<Task> parse_task(std::string_view text);
std::optional<Precision> parse_precision(std::string_view text);
std::optional<Optimizer> parse_optimizer(std::string_view text);
std::optional<Recompute> parse_recompute(std::string_view text);

std::span<const std::string_view> task_names();
std::span<const std::string_view> precision_names();
std::span<const std::string_view> optimizer_names();
std::span<const std::string_view> recompute_names();

}  // namespace mlsize
