#include <mlsize/model/workload.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

namespace mlsize {

double tokens_from_bytes(Bytes bytes, double bytes_per_token, double epochs) {
  return bytes.value / bytes_per_token * epochs;
}

ParameterCount parameter_count_from_params(double params, const Architecture& shape) {
  ParameterCount count;
  count.total = params;
  count.active = params;
  const ParameterCount exact = count_parameters(shape);
  count.embedding = std::min(params, exact.embedding);
  count.linear = std::min(exact.linear, params - count.embedding);
  return count;
}

double bits_per_weight(WeightFormat format) {
  switch (format) {
    case WeightFormat::bf16:
    case WeightFormat::fp16: return 16.0;
    case WeightFormat::fp32: return 32.0;
    case WeightFormat::fp8: return 8.0;
    case WeightFormat::int8:
      return 8.0;  // LLM.int8(): int8 rows; scales and outliers are negligible
    // Group-wise 4-bit with one fp16 scale per 128 weights.
    case WeightFormat::int4: return 4.0 + 16.0 / 128.0;
    // QLoRA (Dettmers et al. 2023, §3): NF4 with double-quantised block constants,
    // 4 + 8/64 + 32/(64·256) bits.
    case WeightFormat::nf4: return 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
    // GPTQ / AWQ checkpoints: group 128, fp16 scale and a 4-bit zero point per group.
    case WeightFormat::gptq:
    case WeightFormat::awq: return 4.0 + (16.0 + 4.0) / 128.0;
    // OCP Microscaling MXFP4: 4-bit E2M1 values with one 8-bit E8M0 scale per 32 (OCP MX
    // spec v1.0, §5); gpt-oss stores its routed experts so.
    case WeightFormat::mxfp4: return 4.0 + 8.0 / 32.0;
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
  return precision == Precision::bf16_mixed || precision == Precision::fp16_mixed || precision == Precision::fp8_mixed;
}

bool quantizes_linear_only(WeightFormat format) {
  switch (format) {
    case WeightFormat::int8:
    case WeightFormat::int4:
    case WeightFormat::nf4:
    case WeightFormat::gptq:
    case WeightFormat::awq:
    case WeightFormat::mxfp4: return true;
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

std::optional<unsigned> parse_lora_targets(std::string_view text) {
  if (const auto group = parse_name<LoraTarget>(text); group && is_lora_group(*group)) return *group;
  unsigned targets = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::optional<LoraTarget> layer = parse_name<LoraTarget>(text.substr(0, comma));
    if (!layer || is_lora_group(*layer)) return std::nullopt;
    targets |= *layer;
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  if (targets == 0) return std::nullopt;
  return targets;
}

}  // namespace mlsize
