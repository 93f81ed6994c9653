#pragma once
// Flags whose meaning depends on the task: --precision names inference's weights, a
// pre-quantised checkpoint sets them, and a flag the task ignores is warned about.

#include "cli/options/workload_options.hpp"

#include <mlsize/model/workload.hpp>

#include <array>
#include <string>

namespace mlsize::cli {

// What --precision accepts for inference: the weights' width, as --quant (fp16, the most
// common inference dtype, included).
inline constexpr std::array<WeightFormat, 4> k_inference_precisions{WeightFormat::fp32, WeightFormat::fp16,
                                                                    WeightFormat::bf16, WeightFormat::fp8};

// Inference's weight format from --precision, else the checkpoint's quantization_config
// (Architecture::checkpoint_format), else --quant's; --precision and --quant must agree.
void resolve_inference_precision(const WorkloadOptions& options, Workload& workload);

// "mlsize: warning: ..." lines for flags the workload's task ignores (empty when none).
std::string task_flag_warnings(const WorkloadOptions& options, const Workload& workload);

}  // namespace mlsize::cli
