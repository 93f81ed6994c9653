#include <mlsize/estimate/compute.hpp>

#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/vision.hpp>

#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/memory.hpp>

#include <algorithm>

namespace mlsize {

Flops training_flops(double active_params, double tokens, Recompute recompute, Task task) {
  const bool adapters = task == Task::lora || task == Task::qlora;
  // Forward 2ND, backward 4ND (input and weight gradients, 2ND each); adapters skip the
  // frozen weights' gradients (Hu et al. 2021, §4.2 reports ~25% faster training).
  double per_param_token = adapters ? 4.0 : 6.0;
  if (recompute == Recompute::full) per_param_token += 2.0;
  return Flops(per_param_token * active_params * tokens);
}

Flops inference_flops(double active_params, double tokens) {
  return Flops(2.0 * active_params * tokens);
}

Flops run_flops(const Workload& workload, Recompute recompute) {
  if (workload.vision) return vision_run_flops(workload, recompute);
  if (workload.diffusion) return diffusion_run_flops(workload, recompute);
  if (workload.speech) return speech_run_flops(workload, recompute);
  const double active = workload.parameters.active;
  if (workload.task == Task::inference) return inference_flops(active, workload.tokens);
  Flops flops = training_flops(active, workload.tokens, recompute, workload.task);
  if (recompute == Recompute::selective && workload.attention == Attention::standard) {
    // Selective recomputation runs the attention core's forward again (Korthikanti et al.
    // 2022, §5): QK^T and the product with V, 4·s·h FLOPs per token and layer, which 6·N·D
    // does not count ("2.7% FLOPs overhead" for GPT-3 175B in their Table 4).
    const Architecture& m = workload.model;
    flops = Flops(flops.value + workload.tokens * (m.layers + m.encoder_layers) * 4.0 * workload.sequence_length *
                                    static_cast<double>(m.heads) * m.head_dim);
  }
  return flops;
}

DType compute_dtype(Precision precision) {
  switch (precision) {
    case Precision::bf16_mixed:
    case Precision::bf16: return DType::bf16;
    case Precision::fp16_mixed: return DType::fp16;
    case Precision::fp8_mixed: return DType::fp8;
    // PyTorch leaves TF32 off for matmuls by default (torch.backends.cuda.matmul.allow_tf32),
    // so fp32 training runs at the fp32 rate.
    case Precision::fp32: return DType::fp32;
  }
  return DType::bf16;
}

std::optional<DType> compute_dtype(const Device& device, const Workload& workload) {
  if (workload.task != Task::inference) {
    // PyTorch runs fp32 convolutions in TF32 where the GPU has it
    // (torch.backends.cudnn.allow_tf32 defaults to True): a vision or diffusion model's fp32 is TF32.
    if (workload.images_are_tokens() && workload.precision == Precision::fp32 && device.kind == DeviceKind::gpu &&
        device.peak(DType::tf32)) {
      return DType::tf32;
    }
    const DType dtype = compute_dtype(workload.precision);
    return device.peak(dtype) ? std::optional<DType>(dtype) : std::nullopt;
  }
  if (workload.weight_format == WeightFormat::fp8 && device.peak(DType::fp8)) return DType::fp8;
  if (workload.weight_format == WeightFormat::fp32 && device.peak(DType::fp32)) return DType::fp32;
  // Quantised weights are dequantised to 16 bits for the matrix multiplications.
  if (device.peak(DType::bf16)) return DType::bf16;
  if (device.peak(DType::fp16)) return DType::fp16;
  // A GPU that states only an FP32 rate (Apple's: half precision runs at the FP32 rate)
  // computes at it.
  if (device.kind == DeviceKind::gpu && device.peak(DType::fp32)) return DType::fp32;
  return std::nullopt;
}

Precision precision_for(const Device& device, const Workload& workload, Precision preferred) {
  if (!workload.is_training() || device.peak(compute_dtype(preferred))) return preferred;
  for (Precision fallback : {Precision::bf16_mixed, Precision::fp16_mixed, Precision::fp32}) {
    if (device.peak(compute_dtype(fallback))) return fallback;
  }
  return preferred;  // no rate at all: rejected for precision, naming the preferred one
}

std::optional<double> peak_flops_per_s(const Device& device, const Workload& workload) {
  const std::optional<DType> dtype = compute_dtype(device, workload);
  return dtype ? device.peak(*dtype) : std::nullopt;
}

std::optional<int> rented_cores(const Offering& offering) {
  if (!offering.vcpus) return std::nullopt;
  return std::max(1, *offering.vcpus / offering.threads_per_core.value_or(k_threads_per_core));
}

double cpu_core_share(const Device& device, const Offering* offering) {
  if (device.kind != DeviceKind::cpu || !device.cores || offering == nullptr || !offering->vcpus) return 1.0;
  return *rented_cores(*offering) / static_cast<double>(*device.cores);
}

std::optional<double> peak_flops_per_s(const Device& device, const Workload& workload, const Offering* offering) {
  const std::optional<double> peak = peak_flops_per_s(device, workload);
  return peak ? std::optional<double>(*peak * cpu_core_share(device, offering)) : std::nullopt;
}

double cpu_bandwidth_share(const Device& device, const Offering* offering) {
  return std::min(1.0, cpu_core_share(device, offering));
}

std::optional<double> memory_bandwidth_bytes_per_s(const Device& device, const Offering* offering) {
  const std::optional<double> bandwidth = device.memory_bandwidth_bytes_per_s;
  return bandwidth ? std::optional<double>(*bandwidth * cpu_bandwidth_share(device, offering)) : std::nullopt;
}

Seconds training_seconds(Flops flops, int devices, double peak_flops_per_s_per_device, double mfu) {
  return Seconds(flops.value / (devices * peak_flops_per_s_per_device * mfu));
}

Seconds inference_seconds(const Workload& workload, const Device& device, int devices, int replicas,
                          double peak_flops_per_s_per_device, double mfu, double bandwidth_bytes_per_s, Bytes weights,
                          Bytes kv_cache) {
  const double devices_per_replica = static_cast<double>(devices) / replicas;
  const double steps = workload.tokens / (static_cast<double>(workload.batch) * replicas);
  // One decode step generates one token per sequence of the batch.
  const double step_flops_per_device = 2.0 * workload.parameters.active * workload.batch / devices_per_replica;
  double step = step_flops_per_device /
                (peak_flops_per_s_per_device * mfu * weight_only_compute_efficiency(workload.weight_format, device));
  // Pope et al. 2022 (§2): small-batch decoding is bound by reading weights and KV cache.
  const double rate =
      bandwidth_bytes_per_s * workload.bandwidth_efficiency * engine_bandwidth_factor(workload.engine, device);
  // The input embedding table is gathered, not read (input_embedding_bytes). A mixture of
  // experts reads only the routed experts its batch's tokens choose, as serving does
  // (routed_share_read): DeepSeek-V3 at a batch of 8 reads 8 × 8 of its 256 experts a layer
  // at most, not all of them (issue 48).
  const double all_weights = std::max(0.0, weights.value - input_embedding_bytes(workload) / devices_per_replica);
  const double total = workload.parameters.total;
  const double routed =
      total > 0 && workload.model.is_moe() ? std::min(1.0, routed_expert_parameters(workload.model) / total) : 0.0;
  const double read = all_weights * (1.0 - routed * (1.0 - routed_share_read(workload.model, workload.batch)));
  step = std::max(step, read / (rate * weight_kernel_efficiency(workload, device)) + kv_cache.value / rate);
  return Seconds(steps *
                 (step + fixed_step_cost(workload).value +
                  sequence_step_cost(workload.engine, workload.batch, static_cast<int>(devices_per_replica)).value));
}

}  // namespace mlsize
