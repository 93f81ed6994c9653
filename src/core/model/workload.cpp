#include <mlsize/model/workload.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

namespace mlsize {
namespace {

// Names are listed in enum order, so an enum value indexes its name.
constexpr std::array<std::string_view, 6> k_task_names{"pretrain", "finetune", "lora", "qlora", "inference", "gbdt"};
constexpr std::array<std::string_view, 5> k_precision_names{"bf16-mixed", "fp16-mixed", "fp32", "bf16",
                                                            "fp8-mixed"};
constexpr std::array<std::string_view, 7> k_optimizer_names{"adamw",     "adam",      "sgd", "sgd-momentum",
                                                            "adam-8bit", "adafactor", "lion"};
constexpr std::array<std::string_view, 3> k_recompute_names{"none", "selective", "full"};
constexpr std::array<std::string_view, 2> k_attention_names{"flash", "standard"};
constexpr std::array<std::string_view, 2> k_framework_names{"megatron", "hf"};
constexpr std::array<std::string_view, 16> k_weight_format_names{
    "bf16", "fp16", "fp32", "fp8", "int8", "int4", "nf4", "gptq", "awq",
    "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k"};
constexpr std::array<std::string_view, 5> k_kv_format_names{"bf16", "fp16", "fp8", "int8", "int4"};
constexpr std::array<std::string_view, 4> k_profile_names{"none", "startup", "team", "enterprise"};

template <class Enum, std::size_t N>
std::optional<Enum> parse_name(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

template <class Enum, std::size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, Enum value) {
  return names[static_cast<std::size_t>(value)];
}

}  // namespace

double tokens_from_bytes(Bytes bytes, double bytes_per_token, double epochs) {
  return bytes.value / bytes_per_token * epochs;
}

ParameterCount parameter_count_from_params(double params, const Architecture& shape) {
  ParameterCount count;
  count.total = params;
  count.active = params;
  count.embedding = std::min(params, static_cast<double>(shape.vocab) * shape.hidden);
  const double block_linears = 12.0 * shape.layers * static_cast<double>(shape.hidden) * shape.hidden;
  count.linear = std::min(block_linears, params - count.embedding);
  return count;
}

double bits_per_weight(WeightFormat format) {
  switch (format) {
    case WeightFormat::bf16:
    case WeightFormat::fp16: return 16.0;
    case WeightFormat::fp32: return 32.0;
    case WeightFormat::fp8: return 8.0;
    case WeightFormat::int8: return 8.0;  // LLM.int8(): int8 rows; scales and outliers are negligible
    // Group-wise 4-bit with one fp16 scale per 128 weights.
    case WeightFormat::int4: return 4.0 + 16.0 / 128.0;
    // QLoRA (Dettmers et al. 2023, §3): NF4 with double-quantised block constants,
    // 4 + 8/64 + 32/(64·256) bits.
    case WeightFormat::nf4: return 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
    // GPTQ / AWQ checkpoints: group 128, fp16 scale and a 4-bit zero point per group.
    case WeightFormat::gptq:
    case WeightFormat::awq: return 4.0 + (16.0 + 4.0) / 128.0;
    // llama.cpp GGUF files: whole-file bits per weight of Llama-3-8B (8,030,261,248 params)
    // from the sizes in tools/quantize/quantize.cpp QUANT_OPTIONS (GiB), embeddings and
    // output tensor included (docs/reference-figures.md §9).
    case WeightFormat::q8_0: return 8.51;
    case WeightFormat::q6_k: return 6.57;
    case WeightFormat::q5_k_m: return 5.70;
    case WeightFormat::q4_k_m: return 4.90;
    case WeightFormat::q4_0: return 4.64;
    case WeightFormat::q3_k_m: return 4.00;
    case WeightFormat::q2_k: return 3.17;
  }
  return 16.0;
}

bool is_mixed_precision(Precision precision) {
  return precision == Precision::bf16_mixed || precision == Precision::fp16_mixed ||
         precision == Precision::fp8_mixed;
}

bool quantizes_linear_only(WeightFormat format) {
  switch (format) {
    case WeightFormat::int8:
    case WeightFormat::int4:
    case WeightFormat::nf4:
    case WeightFormat::gptq:
    case WeightFormat::awq: return true;
    default: return false;
  }
}

double bytes_per_kv_value(KvFormat format) {
  switch (format) {
    case KvFormat::bf16:
    case KvFormat::fp16: return 2.0;
    case KvFormat::fp8:
    case KvFormat::int8: return 1.0;
    case KvFormat::int4: return 0.5;
  }
  return 2.0;
}

std::string_view to_string(Task task) { return name_of(k_task_names, task); }
std::string_view to_string(Precision precision) { return name_of(k_precision_names, precision); }
std::string_view to_string(Optimizer optimizer) { return name_of(k_optimizer_names, optimizer); }
std::string_view to_string(Recompute recompute) { return name_of(k_recompute_names, recompute); }
std::string_view to_string(Attention attention) { return name_of(k_attention_names, attention); }
std::string_view to_string(Framework framework) { return name_of(k_framework_names, framework); }
std::string_view to_string(WeightFormat format) { return name_of(k_weight_format_names, format); }
std::string_view to_string(KvFormat format) { return name_of(k_kv_format_names, format); }
std::string_view to_string(Profile profile) { return name_of(k_profile_names, profile); }

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
std::optional<Attention> parse_attention(std::string_view text) {
  return parse_name<Attention>(k_attention_names, text);
}

std::optional<Framework> parse_framework(std::string_view text) {
  return parse_name<Framework>(k_framework_names, text);
}
std::optional<WeightFormat> parse_weight_format(std::string_view text) {
  return parse_name<WeightFormat>(k_weight_format_names, text);
}
std::optional<KvFormat> parse_kv_format(std::string_view text) { return parse_name<KvFormat>(k_kv_format_names, text); }
std::optional<Profile> parse_profile(std::string_view text) { return parse_name<Profile>(k_profile_names, text); }

std::optional<unsigned> parse_lora_targets(std::string_view text) {
  if (text == "all-linear") return k_lora_all_linear;
  if (text == "attention") return k_lora_q | k_lora_k | k_lora_v | k_lora_o;
  constexpr std::array<std::pair<std::string_view, unsigned>, 7> k_names{{{"q", k_lora_q},
                                                                          {"k", k_lora_k},
                                                                          {"v", k_lora_v},
                                                                          {"o", k_lora_o},
                                                                          {"gate", k_lora_gate},
                                                                          {"up", k_lora_up},
                                                                          {"down", k_lora_down}}};
  unsigned targets = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view name = text.substr(0, comma);
    const auto found = std::find_if(k_names.begin(), k_names.end(), [&](const auto& entry) { return entry.first == name; });
    if (found == k_names.end()) return std::nullopt;
    targets |= found->second;
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  if (targets == 0) return std::nullopt;
  return targets;
}

std::span<const std::string_view> task_names() { return k_task_names; }
std::span<const std::string_view> precision_names() { return k_precision_names; }
std::span<const std::string_view> optimizer_names() { return k_optimizer_names; }
std::span<const std::string_view> recompute_names() { return k_recompute_names; }
std::span<const std::string_view> attention_names() { return k_attention_names; }
std::span<const std::string_view> framework_names() { return k_framework_names; }
std::span<const std::string_view> weight_format_names() { return k_weight_format_names; }
std::span<const std::string_view> kv_format_names() { return k_kv_format_names; }
std::span<const std::string_view> profile_names() { return k_profile_names; }

}  // namespace mlsize
