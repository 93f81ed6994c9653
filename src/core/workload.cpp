#include <mlsize/workload.hpp>

#include <array>
#include <cstddef>

namespace mlsize {
namespace {

// Names are listed in enum order, so an enum value indexes its name.
constexpr std::array<std::string_view, 2> k_task_names{"pretrain", "finetune"};
constexpr std::array<std::string_view, 3> k_precision_names{"bf16-mixed", "fp16-mixed", "fp32"};
constexpr std::array<std::string_view, 5> k_optimizer_names{"adamw", "adam", "sgd", "sgd-momentum",
                                                            "adam-8bit"};
constexpr std::array<std::string_view, 2> k_recompute_names{"none", "full"};

template <class Enum, std::size_t N>
std::optional<Enum> parse_name(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace

double tokens_from_bytes(Bytes bytes, double bytes_per_token, double epochs) {
  return bytes.value / bytes_per_token * epochs;
}

std::string_view to_string(Task task) { return k_task_names[static_cast<std::size_t>(task)]; }
std::string_view to_string(Precision precision) { return k_precision_names[static_cast<std::size_t>(precision)]; }
std::string_view to_string(Optimizer optimizer) { return k_optimizer_names[static_cast<std::size_t>(optimizer)]; }
std::string_view to_string(Recompute recompute) { return k_recompute_names[static_cast<std::size_t>(recompute)]; }

std::optional<Task> parse_task(std::string_view text) { return parse_name<Task>(k_task_names, text); }
std::optional<Precision> parse_precision(std::string_view text) {
  return parse_name<Precision>(k_precision_names, text);
}
std::optional<Optimizer> parse_optimizer(std::string_view text) {
  return parse_name<Optimizer>(k_optimizer_names, text);
}
std::optional<Recompute> parse_recompute(std::string_view text) {
  return parse_name<Recompute>(k_recompute_names, text);
}

std::span<const std::string_view> task_names() { return k_task_names; }
std::span<const std::string_view> precision_names() { return k_precision_names; }
std::span<const std::string_view> optimizer_names() { return k_optimizer_names; }
std::span<const std::string_view> recompute_names() { return k_recompute_names; }

}  // namespace mlsize
