#pragma once
// Training time and memory of a vision model (docs/methodology.md#vision): FLOPs per image
// from its structure, a per-family efficiency fitted to published throughput, the activations
// a training step keeps, and the input pipeline as a second bound.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>

namespace mlsize {

// Training throughput is a roofline (docs/methodology.md#vision-time): a step takes the
// longer of its FLOPs at a share of the peak and its memory traffic at the memory bandwidth.
// The traffic is the activations, read and written this many times per element over the
// forward and backward passes (BatchNorm, activation functions and residual adds each read and
// write whole feature maps; cuDNN's convolutions re-read them): fitted to NVIDIA
// DeepLearningExamples' ResNet-50 v1.5 on 8 GPUs with AMP (PyTorch 21.03, DALI, batch 256):
// DGX A100 80GB 16,621 img/s and DGX-1 V100 16GB 8,322 img/s, 981 and 865 MB an image at
// 2,039 and 900 GB/s, over 11.1 M activations of 2 bytes: the geometric mean.
inline constexpr double k_vision_traffic_per_activation = 41.4;
// The share of the peak a compute-bound step reaches: ViT-B/16 on an RTX 3090 with AMP
// (timm's results/benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv: 391 img/s × 105 GFLOPs =
// 58% of 71.2 TFLOP/s) and ResNet-50 in fp32 on V100s (DeepLearningExamples DGX-1 FP32,
// 2,855 img/s on 8: 56% of 15.7 TFLOP/s).
inline constexpr double k_vision_compute_efficiency = 0.57;

// The share of `device`'s peak (at the compute type, peak_flops_per_s) `workload`'s vision
// model trains at: the roofline above as a utilisation, times the stack's factor
// (stack_efficiency). A GPU without a stated memory bandwidth gets the compute bound alone.
double vision_efficiency(const Device& device, const Workload& workload);

// Training FLOPs of the whole run: forward 2·MACs, backward twice that, per image and epoch
// (full recomputation runs the forward again: 8·MACs).
Flops vision_run_flops(const Workload& workload, Recompute recompute);

// Saved tensors per activation element of a CNN in training: a convolution's output kept for
// its BatchNorm and the activation's for the next convolution, an in-place ReLU sharing one
// (PyTorch autograd); fitted so that timm's ResNet-50 at batch 512 with AMP fits an RTX 3090's
// 24 GB, as its training benchmark ran it (2 would not).
inline constexpr double k_cnn_saved_per_activation = 1.75;

// Activation bytes one device holds for its micro-batch: a ViT's from Korthikanti et al.
// (34·s·h bytes per layer in 16 bits with fused attention, as timm's F.scaled_dot_product_attention
// runs it; 2·s·h with full recomputation), a CNN's from its activation count.
Bytes vision_activation_bytes(const Workload& workload, const Strategy& strategy);

// Inference keeps no tensors for a backward pass: only a layer's input and output are live.
// ResNet-50's largest, its first convolution's 112 × 112 × 64 output, is 7% of its 11.1 M
// activations: input and output together, 15%.
inline constexpr double k_vision_inference_live_share = 0.15;
// Inference reads and writes each activation once in the forward pass; a training step does
// that and the backward pass, twice as much again: a third of k_vision_traffic_per_activation.
inline constexpr double k_vision_inference_traffic_share = 1.0 / 3;

// Activation bytes one device holds running inference on its batch of images.
Bytes vision_inference_activation_bytes(const Workload& workload);

// Images a second the host's vCPUs decode and augment with Pillow (RandomResizedCrop, flip,
// normalise) per DataLoader worker: timm issue #1491, ResNet-50 on an A100 with 10 workers
// fed 1,923 img/s from ImageNet JPEGs (2,600 from synthetic data): 192 per worker. Scaled by
// the stored bytes per image against ImageNet's (decoding is about linear in them).
inline constexpr double k_pil_images_per_vcpu_s = 192;

// What a run pays per epoch besides its steps: the validation pass, the data loader's
// restart and a checkpoint. Fitted to the DeepLearningExamples ResNet-50 90-epoch time on a
// DGX A100 with AMP (~3 hours against 1.93 hours of its training throughput): 43 s an
// ImageNet epoch, scaled by the epoch's images (a validation set and a loader's restart grow
// with the data; CIFAR's 50,000 images pay 1.7 s, not 43).
inline constexpr double k_vision_epoch_overhead_s = 43;
inline constexpr double k_vision_epoch_overhead_images = 1'281'167;
Seconds vision_epoch_overhead(const Workload& workload);

// The input pipeline of a plan: what the hosts' vCPUs can feed, or nothing where it is not a
// bound (DALI decodes on the GPUs) or the offering states no vCPUs.
struct VisionPipeline {
  int vcpus = 0;            // decoding: the units' vCPUs less one per GPU's training process
  double images_per_s = 0;  // what they decode and augment
};
std::optional<VisionPipeline> vision_pipeline(const Workload& workload, const Offering* offering, int units,
                                              int devices);

// What bounds a vision run's steps (PlanEstimate::vision): the devices' rate at the plan's
// compute and communication, the input pipeline's, and the time a run pays per epoch.
struct VisionRun {
  double device_images_per_s = 0;          // all devices together
  std::optional<VisionPipeline> pipeline;  // the hosts' decoding, where it is a bound
  Seconds epoch_overhead{0};               // vision_epoch_overhead
  // A CPU plan: the same cores train and decode, in turn rather than overlapped.
  bool shared_cores = false;
  bool loader_bound() const { return !shared_cores && pipeline && pipeline->images_per_s < device_images_per_s; }
  double images_per_s() const {
    if (shared_cores && pipeline) return 1 / (1 / device_images_per_s + 1 / pipeline->images_per_s);
    return loader_bound() ? pipeline->images_per_s : device_images_per_s;
  }
};

}  // namespace mlsize
