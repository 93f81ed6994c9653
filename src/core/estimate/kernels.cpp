#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/kernels.hpp>

namespace mlsize {
namespace {

// A serving engine's kernel for a weight format: the least NVIDIA compute capability, and
// whether ROCm runs it.
struct EngineKernel {
  std::string_view name;  // the table's row
  int least_capability;   // NVIDIA; 0: no NVIDIA kernel
  bool rocm;
};

// vLLM's table of quantisation kernels by hardware (docs.vllm.ai, features/quantization/
// supported_hardware; the same from v0.11.2 to v0.15.1): "Volta refers to SM 7.0, Turing to
// SM 7.5, Ampere to SM 8.0/8.6, Ada to SM 8.9, and Hopper to SM 9.0". Each row is a weight
// format as mlsize launches it (launch.cpp, vllm_weights).
std::optional<EngineKernel> vllm_kernel(WeightFormat format) {
  using enum WeightFormat;
  switch (format) {
    case awq: return EngineKernel{"AWQ", 75, false};
    case gptq:
    case int4: return EngineKernel{"GPTQ", 70, false};
    // FP8 W8A8 needs Ada or Hopper; Ampere loads FP8 weights in Marlin's weight-only kernel
    // (the table's "Marlin (GPTQ/AWQ/FP8)", 8.0 on), which weight_kernel_efficiency times.
    case fp8: return EngineKernel{"FP8 (W8A8), or Marlin's weight-only FP8 from Ampere", 80, true};
    // 8-bit and nf4 weights through bitsandbytes (vllm_weights): Volta on, NVIDIA only.
    case int8:
    case nf4: return EngineKernel{"bitsandbytes", 70, false};
    // gpt-oss's MXFP4 in Marlin: "Turing does not support Marlin MXFP4".
    case mxfp4: return EngineKernel{"Marlin MXFP4", 80, true};
    case q8_0:
    case q6_k:
    case q5_k_m:
    case q4_k_m:
    case q4_0:
    case q3_k_m:
    case q2_k: return EngineKernel{"GGUF", 70, true};
    case bf16:
    case fp16:
    case fp32: return std::nullopt;
  }
  return std::nullopt;
}

// TensorRT-LLM's quantised formats, from NVIDIA Model Optimizer's support matrix
// (nvidia.github.io/Model-Optimizer, guides/0_support_matrix: "FP8 ... GPUs: Ada and Later",
// "INT8 ... Smooth Quant ... Ampere and Later", "W4A16 (INT4 Weights Only) ... AWQ ...
// Ampere and Later"). TensorRT-LLM reads no bitsandbytes (nf4) or GGUF weights at all
// (least_capability 0). Others (MXFP4) are not encoded.
std::optional<EngineKernel> trtllm_kernel(WeightFormat format) {
  using enum WeightFormat;
  switch (format) {
    case fp8: return EngineKernel{"FP8 (W8A8)", 89, false};
    case int8: return EngineKernel{"INT8 SmoothQuant (W8A8)", 80, false};
    case awq:
    case gptq:
    case int4: return EngineKernel{"W4A16 (INT4 weights only)", 80, false};
    case nf4: return EngineKernel{"bitsandbytes NF4", 0, false};
    case q8_0:
    case q6_k:
    case q5_k_m:
    case q4_k_m:
    case q4_0:
    case q3_k_m:
    case q2_k: return EngineKernel{"GGUF", 0, false};
    case mxfp4:
    case bf16:
    case fp16:
    case fp32: return std::nullopt;
  }
  return std::nullopt;
}

// TensorRT-LLM runs on NVIDIA GPUs only (engine_runs_on rejects the rest first).
std::optional<std::string> missing_trtllm_kernel(WeightFormat format, const Device& device) {
  const std::optional<EngineKernel> kernel = trtllm_kernel(format);
  if (!kernel) return std::nullopt;
  const std::string source = " (NVIDIA Model Optimizer, guides/0_support_matrix)";
  const std::string weights = std::string(to_string(format));
  if (kernel->least_capability == 0) {
    return "TensorRT-LLM reads no " + std::string(kernel->name) + " weights (" + weights +
           "): quantise with Model Optimizer (--quant awq, int8 or fp8) or serve with llama.cpp or vLLM" + source;
  }
  const std::optional<int> capability = compute_capability(device);
  if (!capability || *capability >= kernel->least_capability) return std::nullopt;
  return "TensorRT-LLM has no " + std::string(kernel->name) + " kernel for " + weights + " weights on " + device.name +
         ", compute capability " + compute_capability_text(*capability) + " (" +
         std::string(nvidia_generation(*capability)) + "): it needs " +
         compute_capability_text(kernel->least_capability) + " (" +
         std::string(nvidia_generation(kernel->least_capability)) + ") or later" + source;
}

}  // namespace

std::string compute_capability_text(int capability) {
  return std::to_string(capability / 10) + "." + std::to_string(capability % 10);
}

std::string_view nvidia_generation(int capability) {
  if (capability >= 100) return "Blackwell";
  if (capability >= 90) return "Hopper";
  if (capability >= 89) return "Ada";
  if (capability >= 80) return "Ampere";
  if (capability >= 75) return "Turing";
  if (capability >= 70) return "Volta";
  if (capability >= 60) return "Pascal";
  return "Kepler";
}

std::optional<int> compute_capability(const Device& device) {
  if (device.compute_capability) return device.compute_capability;
  if (device.vendor != "nvidia" || device.kind != DeviceKind::gpu) return std::nullopt;
  if (device.peak(DType::fp8)) return 89;
  if (device.peak(DType::bf16)) return 80;
  return std::nullopt;
}

bool runs_marlin(const Device& device) {
  const std::optional<int> capability = compute_capability(device);
  return capability && *capability >= 80;
}

std::optional<std::string> missing_weight_kernel(Engine engine, WeightFormat format, const Device& device) {
  if (engine == Engine::trtllm) return missing_trtllm_kernel(format, device);
  // The other engines' tables are not encoded: their refusals are their own (engine_runs_on).
  if (!is_vllm(engine)) return std::nullopt;
  const std::optional<EngineKernel> kernel = vllm_kernel(format);
  if (!kernel) return std::nullopt;
  const std::string source = " (docs.vllm.ai, features/quantization/supported_hardware)";
  const std::string weights = std::string(to_string(format));
  switch (stack_of(device)) {
    case Stack::cuda:
    case Stack::cuda_consumer: {
      const std::optional<int> capability = compute_capability(device);
      if (!capability || *capability >= kernel->least_capability) return std::nullopt;
      return "vLLM has no kernel for " + weights + " weights on " + device.name + ", compute capability " +
             compute_capability_text(*capability) + " (" + std::string(nvidia_generation(*capability)) +
             "): " + std::string(kernel->name) + " needs " + compute_capability_text(kernel->least_capability) + " (" +
             std::string(nvidia_generation(kernel->least_capability)) + ") or later" + source;
    }
    case Stack::rocm:
      if (kernel->rocm) return std::nullopt;
      return "vLLM has no ROCm kernel for " + weights + " weights: " + std::string(kernel->name) +
             " runs on NVIDIA GPUs only" + source;
    case Stack::cpu: return std::nullopt;  // the CPU backend's own kernels (AWQ, GPTQ, INT8)
    case Stack::neuron:
      // vLLM's Neuron backend ran FP8 and INT8 W8A8 (the table's "AWS Neuron" column, v0.9.2).
      if (format == WeightFormat::fp8) return std::nullopt;
      [[fallthrough]];
    case Stack::xla:
    case Stack::gaudi:
    case Stack::mps:
      return "vLLM has no kernel for " + weights + " weights on " + device.name + ": " + std::string(kernel->name) +
             " runs on NVIDIA GPUs" + (kernel->rocm ? " and ROCm" : "") + " only" + source;
  }
  return std::nullopt;
}

}  // namespace mlsize
