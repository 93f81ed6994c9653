#include <mlsize/compute.hpp>

namespace mlsize {

Flops training_flops(double params, double tokens, Recompute recompute) {
  const double flops_per_param_token = recompute == Recompute::full ? 8.0 : 6.0;
  return Flops(flops_per_param_token * params * tokens);
}

DType compute_dtype(Precision precision) {
  switch (precision) {
    case Precision::bf16_mixed: return DType::bf16;
    case Precision::fp16_mixed: return DType::fp16;
    // PyTorch leaves TF32 off for matmuls by default (torch.backends.cuda.matmul.allow_tf32),
    // so fp32 training runs at the fp32 rate.
    case Precision::fp32: return DType::fp32;
  }
  return DType::bf16;
}

std::optional<double> peak_flops_per_s(const Device& device, Precision precision) {
  return device.peak(compute_dtype(precision));
}

Seconds training_seconds(Flops flops, int devices, double peak_flops_per_s_per_device, double mfu) {
  return Seconds(flops.value / (devices * peak_flops_per_s_per_device * mfu));
}

}  // namespace mlsize
