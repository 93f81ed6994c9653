#include <mlsize/estimate/vision.hpp>

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>

#include <algorithm>

namespace mlsize {
namespace {

// The efficiency of any model on any device stays below this: a bound for families fitted on
// 16-bit runs and timed in fp32 on the CUDA cores.
constexpr double k_most_vision_efficiency = 0.8;
// Bytes per element of a ViT's activations in the Korthikanti count (16 bits).
constexpr double k_vit_activation_bytes_per_sh = 34;
// What full recomputation keeps of a CNN's activations: the inputs of its checkpointed
// segments and one segment's own, about a quarter with four stages (ResNet's layer1-4,
// torch.utils.checkpoint.checkpoint_sequential as timm's --grad-checkpointing runs it).
constexpr double k_cnn_recompute_share = 0.25;

}  // namespace

double vision_efficiency(const Device& device, const Workload& workload) {
  const VisionWorkload& v = *workload.vision;
  const std::optional<DType> dtype = compute_dtype(device, workload);
  const std::optional<double> peak = dtype ? device.peak(*dtype) : std::nullopt;
  // A CPU's convolutions reach the share of its AMX peak its matrix multiplications do
  // (cpu_gemm_efficiency); its memory bound is the same roofline at its sockets' bandwidth
  // (an offering's share of both scales them alike).
  double efficiency = k_vision_compute_efficiency * (dtype ? cpu_gemm_efficiency(device, *dtype) : 1.0);
  if (peak && device.memory_bandwidth_bytes_per_s) {
    // A training step's FLOPs per image (forward and backward), or the forward pass's alone.
    const double flops = (workload.is_training() ? 6 : 2) * vision_forward_macs(v.model, v.height, v.width);
    const double element = workload.precision == Precision::fp32 ? 4.0 : 2.0;
    const double traffic = vision_activation_elements(v.model, v.height, v.width) * element *
                           k_vision_traffic_per_activation *
                           (workload.is_training() ? 1.0 : k_vision_inference_traffic_share);
    const double memory_seconds = traffic / *device.memory_bandwidth_bytes_per_s;
    efficiency = std::min(efficiency, flops / (*peak * memory_seconds));
  }
  return std::min(k_most_vision_efficiency, efficiency) * stack_efficiency(stack_of(device));
}

Flops vision_run_flops(const Workload& workload, Recompute recompute) {
  const VisionWorkload& v = *workload.vision;
  const double forward = 2 * vision_forward_macs(v.model, v.height, v.width);
  const double passes = !workload.is_training() ? 1.0 : recompute == Recompute::full ? 4.0 : 3.0;
  return Flops(passes * forward * workload.tokens);
}

Bytes vision_activation_bytes(const Workload& workload, const Strategy& strategy) {
  const VisionWorkload& v = *workload.vision;
  const double images = strategy.micro_batch > 0 ? strategy.micro_batch : workload.micro_batch;
  const double element = workload.precision == Precision::fp32 ? 4.0 : 2.0;
  if (v.model.family == VisionFamily::vit && v.model.hidden > 0) {
    const double sh = vision_tokens(v.model, v.height, v.width) * v.model.hidden;
    const double per_layer = strategy.recompute == Recompute::full ? 2 * sh : k_vit_activation_bytes_per_sh * sh;
    return Bytes(images * v.model.layers * per_layer * element / 2.0);
  }
  const double saved = vision_activation_elements(v.model, v.height, v.width) * k_cnn_saved_per_activation * element;
  return Bytes(images * saved * (strategy.recompute == Recompute::full ? k_cnn_recompute_share : 1.0));
}

Bytes vision_inference_activation_bytes(const Workload& workload) {
  const VisionWorkload& v = *workload.vision;
  const double element = workload.weight_format == WeightFormat::fp32 ? 4.0 : 2.0;
  return Bytes(workload.micro_batch * vision_activation_elements(v.model, v.height, v.width) * element *
               k_vision_inference_live_share);
}

Seconds vision_epoch_overhead(const Workload& workload) {
  if (!workload.is_training()) return Seconds(0);  // a pass over images to score: no epochs
  return Seconds(workload.epochs * k_vision_epoch_overhead_s * workload.vision->images /
                 k_vision_epoch_overhead_images);
}

std::optional<VisionPipeline> vision_pipeline(const Workload& workload, const Offering* offering, int units,
                                              int devices) {
  const VisionWorkload& v = *workload.vision;
  if (v.loader == DataLoader::dali || offering == nullptr || !offering->vcpus) return std::nullopt;
  VisionPipeline pipeline;
  // One vCPU per GPU runs its training process; the rest run DataLoader workers.
  pipeline.vcpus = std::max(1, units * *offering->vcpus - devices);
  pipeline.images_per_s = pipeline.vcpus * k_pil_images_per_vcpu_s * k_imagenet_bytes_per_image / v.bytes_per_image /
                          v.model.images_per_sample;
  return pipeline;
}

}  // namespace mlsize
