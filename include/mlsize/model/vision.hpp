#pragma once
// Vision models (issue 47): CNNs, vision transformers and detectors, each with the structure
// that sizes it: parameters, multiply-accumulates and activations per image at a resolution.
// Presets, conventions and sources: docs/methodology.md#vision.

#include <mlsize/support/names.hpp>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mlsize {

// The family's layout: dense convolutions (ResNet, RegNet), depthwise-separable ones
// (EfficientNet, MobileNet), ConvNeXt, ViT/DeiT (plain transformer encoders: FLOPs and
// activations from their structure), Swin (windowed attention: scales with the pixels) and
// detectors. It sets the defaults a practitioner starts from (batch, optimizer).
enum class VisionFamily { conv, depthwise, convnext, vit, swin, detector };
constexpr auto enum_names(VisionFamily) {
  using enum VisionFamily;
  return std::to_array<EnumName<VisionFamily>>({{conv, "conv"},
                                                {depthwise, "depthwise"},
                                                {convnext, "convnext"},
                                                {vit, "vit"},
                                                {swin, "swin"},
                                                {detector, "detector"}});
}

struct VisionModel {
  std::string id;    // resnet-50
  std::string name;  // ResNet-50
  VisionFamily family = VisionFamily::conv;
  double params = 0;     // all trainable parameters
  int resolution = 224;  // native square input, pixels a side
  // Forward multiply-accumulates per image at `resolution` (torchvision's "GFLOPS" column and
  // most papers count MACs; Ultralytics' FLOPs are 2 × MACs and are halved here).
  double macs = 0;
  // Output elements of the convolutions, linears and matmuls of one forward pass at
  // `resolution` (fvcore's activation count, timm's `infer_macts`), for a CNN's saved tensors.
  double activations = 0;
  std::string source;
  // The model's name in timm (pytorch-image-models), which `--emit torchrun` trains with
  // (resnet50, vit_base_patch16_224); empty where timm has none (detectors).
  std::string timm;
  // Vision transformers: patch size, width, depth and heads (the token count and the
  // attention term scale with the resolution); zero for CNNs.
  int patch = 0;
  int hidden = 0;
  int layers = 0;
  int heads = 0;
  // Images decoded per training sample: 4 for Ultralytics' YOLO, whose mosaic augmentation
  // "combines four training images into one" (Ultralytics docs, Data Augmentation: Mosaic,
  // on for all but the last 10 epochs: close_mosaic); 1 otherwise.
  int images_per_sample = 1;
};

// How images reach the GPUs (--data-loader): PyTorch's DataLoader with Pillow decoding and
// augmenting JPEGs on the host's vCPUs (torchvision's and timm's default), or NVIDIA DALI
// decoding on the GPU (nvJPEG), which lifts the host's bound.
enum class DataLoader { pil, dali };
constexpr auto enum_names(DataLoader) {
  return std::to_array<EnumName<DataLoader>>({{DataLoader::pil, "pil"}, {DataLoader::dali, "dali"}});
}

// ImageNet-1k's training set: 1,281,167 JPEGs in 138 GB (the ILSVRC2012 train tar), about
// 108 KB an image: --data in bytes counts images at this size unless --bytes-per-image says.
inline constexpr double k_imagenet_bytes_per_image = 138e9 / 1'281'167;

// A vision job: which model, how many images at which resolution, and how they are loaded.
// The epochs, precision, optimizer and per-device batch are the Workload's.
struct VisionWorkload {
  VisionModel model;
  double images = 0;  // per epoch
  int height = 224;
  int width = 224;
  double bytes_per_image = k_imagenet_bytes_per_image;  // the stored (compressed) images
  DataLoader loader = DataLoader::pil;
};

// Every built-in preset (src/core/model/vision_models.cpp).
std::span<const VisionModel> vision_models();
// The preset with this id or alias ("resnet50", "vit_base_patch16_224" as timm names it),
// or nothing.
const VisionModel* find_vision_model(std::string_view id);

// Tokens a ViT sees at h × w: (h / p)·(w / p) patches and the class token; 0 for CNNs.
double vision_tokens(const VisionModel& model, int height, int width);

// Forward MACs per image at h × w. A CNN's scale with the pixels (every layer's output is
// a fixed fraction of the input's area); a ViT's from its structure: per layer 12·h² per
// token (q, k, v, output, and an MLP of 4h) and 2·s²·h for QK^T and the product with V,
// plus the patch embedding; a Swin's attention is windowed, so it scales with the pixels.
double vision_forward_macs(const VisionModel& model, int height, int width);

// Activation elements per image at h × w: a CNN's count scaled with the pixels; a ViT's
// linear outputs, 9·h per token and layer (fused attention writes no scores).
double vision_activation_elements(const VisionModel& model, int height, int width);

}  // namespace mlsize
