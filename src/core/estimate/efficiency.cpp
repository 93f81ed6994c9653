#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/kernels.hpp>

#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/vision.hpp>

#include <mlsize/estimate/compute.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace mlsize {
namespace {

// Each stack's MFU as a multiple of datacenter NVIDIA's; sources and arithmetic in
// docs/methodology.md#efficiency.
// GeForce: one RTX 4090 reached ~55% of its FP32-accumulate peak on GPT-2 124M (nanoGPT
// issue #182); no discount. Their missing NVLink is in the communication model.
constexpr double k_consumer_efficiency = 1.0;
// MI300X: "within 75% of H100/H200 performance" only with AMD's engineers' help, i.e.
// 0.75 × 989/1307 = 0.57 of NVIDIA's MFU; GEMMs 620 of 1307 vs 720 of 989 TFLOP/s = 0.65
// (SemiAnalysis, 2024-12-22); MLPerf Training v5.0 Llama 2 70B LoRA, AMD's best case, 0.72.
constexpr double k_rocm_efficiency = 0.6;
// TPUs with MaxText: 57-65% MFU on Llama 2 70B (v4, v5p, v5e), 45-50% on v6e (AI-Hypercomputer
// tpu-recipes), against 52-58% for tuned NVIDIA (torchtitan): about even.
constexpr double k_xla_efficiency = 1.0;
// Trainium1: 27-37% MFU on Llama 2 7B/13B/70B with NeuronX Distributed (AWS Neuron
// training performance tables), 0.67-0.92 of 0.40; Trainium2 has no published figure.
constexpr double k_neuron_efficiency = 0.7;

}  // namespace

Stack stack_of(const Device& device) {
  if (device.kind == DeviceKind::cpu) return Stack::cpu;
  if (device.kind == DeviceKind::tpu) return Stack::xla;
  if (device.vendor == "aws") return Stack::neuron;
  if (device.vendor == "amd") return Stack::rocm;
  if (device.vendor == "intel") return Stack::gaudi;
  if (device.vendor == "apple") return Stack::mps;
  if (device.name.find("GeForce") != std::string::npos) return Stack::cuda_consumer;
  return Stack::cuda;
}

double stack_efficiency(Stack stack) {
  switch (stack) {
    case Stack::cuda: return 1.0;
    case Stack::cuda_consumer: return k_consumer_efficiency;
    case Stack::rocm: return k_rocm_efficiency;
    case Stack::xla: return k_xla_efficiency;
    case Stack::neuron: return k_neuron_efficiency;
    case Stack::gaudi:
    case Stack::mps:
    case Stack::cpu: return 1.0;
  }
  return 1.0;
}

double generation_efficiency(const Device& device) {
  // Volta (V100, Titan V: 7.0) and Turing (T4, T4G, Quadro RTX, GeForce RTX 20: 7.5).
  const std::optional<int> capability = compute_capability(device);
  return capability && *capability >= 70 && *capability < 80 ? k_volta_turing_efficiency : 1.0;
}

double size_efficiency(double parameters) {
  if (parameters <= 0 || parameters >= k_size_efficiency_reference) return 1.0;
  const double decades = std::log10(k_size_efficiency_reference / parameters);
  return std::max(k_size_efficiency_floor, 1.0 - k_size_efficiency_per_decade * decades);
}

bool fine_grained_experts(const Architecture& model) {
  return model.is_moe() && model.hidden > 0 &&
         model.moe.expert_intermediate <= k_fine_grained_expert_width * model.hidden;
}

double moe_efficiency(const Architecture& model, DType compute_dtype) {
  if (!model.is_moe() || model.hidden <= 0) return 1.0;
  if (!fine_grained_experts(model)) return k_coarse_moe_efficiency;
  return compute_dtype == DType::fp8 ? k_fine_grained_moe_efficiency_fp8 : k_fine_grained_moe_efficiency;
}

double cpu_gemm_efficiency(const Device& device, DType compute_dtype) {
  if (device.kind != DeviceKind::cpu) return 1.0;
  return compute_dtype == DType::bf16 || compute_dtype == DType::int8 ? k_cpu_amx_efficiency : 1.0;
}

double effective_mfu(const Device& device, const Workload& workload) {
  // A vision model's efficiency is its family's, fitted to published throughput (vision.hpp).
  if (workload.vision && !workload.mfu_pinned) return vision_efficiency(device, workload);
  // A diffusion model's is its parts' roofline, the same fit (diffusion.hpp).
  if (workload.diffusion && !workload.mfu_pinned) return diffusion_efficiency(device, workload);
  // Transcription's is its batch's (speech.hpp); fine-tuning a speech model is a transformer's.
  if (workload.speech && workload.task == Task::inference && !workload.mfu_pinned) {
    return speech_efficiency(device, workload);
  }
  double mfu = workload.mfu_pinned ? workload.mfu
                                   : workload.mfu * stack_efficiency(stack_of(device)) * generation_efficiency(device);
  const std::optional<DType> dtype = compute_dtype(device, workload);
  if (!workload.mfu_pinned && dtype) mfu *= cpu_gemm_efficiency(device, *dtype);
  // A language model's size and experts (vision models have their own fit, trees no MFU).
  if (!workload.mfu_pinned && workload.is_training()) {
    mfu *= size_efficiency(workload.parameters.active);
    if (dtype) mfu *= moe_efficiency(workload.model, *dtype);
  }
  if (workload.is_adapter_tuning()) mfu *= k_lora_efficiency;
  if (workload.task == Task::qlora) mfu /= k_qlora_slowdown;
  return mfu;
}

}  // namespace mlsize
