#include <mlsize/model/vision.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace mlsize {
namespace {

// Parameters and forward MACs at the native resolution from each model's card or paper;
// activations from timm's benchmark (results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv,
// huggingface/pytorch-image-models@aa4b5850, column infer_macts: fvcore's count of the
// outputs of convolutions, linears and matmuls), scaled from the benchmark's resolution to
// the native one by the pixels. Detectors have no published count: ResNet-50's activations
// per MAC stand in (docs/methodology.md#vision).
// clang-format off
// Built on first use, not at start-up: its strings are heap allocations every command would
// pay for, and only vision runs read them.
const std::array<VisionModel, 43>& models() {
  static const std::array<VisionModel, 43> k_models{{
    {"resnet-18", "ResNet-18", VisionFamily::conv, 1.16895e+07, 224, 1.81e+09, 2.486e+06,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet18.html (ResNet18_Weights.IMAGENET1K_V1 num_params 11689512; GFLOPS 1.81); activations: timm resnet18 infer_macts 4.11M at 288 px, scaled to 224 px", "resnet18"},
    {"resnet-34", "ResNet-34", VisionFamily::conv, 2.17977e+07, 224, 3.66e+09, 3.739e+06,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet34.html (ResNet34_Weights.IMAGENET1K_V1 num_params 21797672; GFLOPS 3.66); activations: timm resnet34 infer_macts 6.18M at 288 px, scaled to 224 px", "resnet34"},
    {"resnet-50", "ResNet-50", VisionFamily::conv, 2.5557e+07, 224, 4.089e+09, 1.111e+07,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html (GFLOPS 4.09 on page); torchvision/models/resnet.py ResNet50_Weights _ops 4.089; activations: timm resnet50 infer_macts 18.37M at 288 px, scaled to 224 px", "resnet50"},
    {"resnet-101", "ResNet-101", VisionFamily::conv, 4.45492e+07, 224, 7.801e+09, 1.623e+07,
     "torchvision/models/resnet.py ResNet101_Weights.IMAGENET1K_V1 meta (num_params 44549160; _ops 7.801); activations: timm resnet101 infer_macts 26.83M at 288 px, scaled to 224 px", "resnet101"},
    {"resnet-152", "ResNet-152", VisionFamily::conv, 6.01928e+07, 224, 1.151e+10, 2.255e+07,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet152.html (num_params 60192808; GFLOPS 11.51); activations: timm resnet152 infer_macts 37.28M at 288 px, scaled to 224 px", "resnet152"},
    {"resnet-50-v1.5", "ResNet-50 v1.5", VisionFamily::conv, 2.5557e+07, 224, 4.089e+09, 1.111e+07,
     "NVIDIA/DeepLearningExamples PyTorch/Classification/ConvNets/resnet50v1.5/README.md @291f0d02 (defines v1.5 = stride 2 on 3x3 conv; inference 224 crop) + torchvision resnet50 meta (same architecture); activations: timm resnet50 infer_macts 18.37M at 288 px, scaled to 224 px", "resnet50"},
    {"efficientnet-b0", "EfficientNet-B0", VisionFamily::depthwise, 5.3e+06, 224, 3.9e+08, 6.75e+06,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm tf_efficientnet_b0 infer_macts 6.75M at 224 px, scaled to 224 px", "efficientnet_b0"},
    {"efficientnet-b1", "EfficientNet-B1", VisionFamily::depthwise, 7.8e+06, 240, 7e+08, 1.074e+07,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm efficientnet_b1 infer_macts 15.46M at 288 px, scaled to 240 px", "efficientnet_b1"},
    {"efficientnet-b2", "EfficientNet-B2", VisionFamily::depthwise, 9.2e+06, 260, 1e+09, 1.32e+07,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm efficientnet_b2 infer_macts 16.2M at 288 px, scaled to 260 px", "efficientnet_b2"},
    {"efficientnet-b3", "EfficientNet-B3", VisionFamily::depthwise, 1.2e+07, 300, 1.8e+09, 2.331e+07,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm efficientnet_b3 infer_macts 26.52M at 320 px, scaled to 300 px", "efficientnet_b3"},
    {"efficientnet-b4", "EfficientNet-B4", VisionFamily::depthwise, 1.9e+07, 380, 4.2e+09, 4.949e+07,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm tf_efficientnet_b4 infer_macts 49.49M at 380 px, scaled to 380 px", "efficientnet_b4"},
    {"efficientnet-b5", "EfficientNet-B5", VisionFamily::depthwise, 3e+07, 456, 9.9e+09, 9.693e+07,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm efficientnet_b5 infer_macts 93.56M at 448 px, scaled to 456 px", "efficientnet_b5"},
    {"efficientnet-b6", "EfficientNet-B6", VisionFamily::depthwise, 4.3e+07, 528, 1.9e+10, 1.674e+08,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm efficientnet_b6 infer_macts 167.39M at 528 px, scaled to 528 px", "efficientnet_b6"},
    {"efficientnet-b7", "EfficientNet-B7", VisionFamily::depthwise, 6.6e+07, 600, 3.7e+10, 2.899e+08,
     "Tan & Le 2019 arXiv:1905.11946 Table 2 (values via transcription shengjiex98/Uncertain-Linear-System efficientnet-surface.jl; paper PDF table not opened directly); activations: timm tf_efficientnet_b7 infer_macts 289.94M at 600 px, scaled to 600 px", "efficientnet_b7"},
    {"convnext-t", "ConvNeXt-T", VisionFamily::convnext, 2.8e+07, 224, 4.5e+09, 1.343e+07,
     "facebookresearch/ConvNeXt README.md @048efcea 'ImageNet-1K trained models' table (= paper Liu et al. 2022); activations: timm convnext_tiny infer_macts 39.48M at 384 px, scaled to 224 px", "convnext_tiny"},
    {"convnext-s", "ConvNeXt-S", VisionFamily::convnext, 5e+07, 224, 8.7e+09, 2.156e+07,
     "facebookresearch/ConvNeXt README.md @048efcea 'ImageNet-1K trained models' table (= paper Liu et al. 2022); activations: timm convnext_small infer_macts 63.37M at 384 px, scaled to 224 px", "convnext_small"},
    {"convnext-b", "ConvNeXt-B", VisionFamily::convnext, 8.9e+07, 224, 1.54e+10, 2.875e+07,
     "facebookresearch/ConvNeXt README.md @048efcea 'ImageNet-1K trained models' table (= paper Liu et al. 2022); activations: timm convnext_base infer_macts 84.49M at 384 px, scaled to 224 px", "convnext_base"},
    {"convnext-l", "ConvNeXt-L", VisionFamily::convnext, 1.98e+08, 224, 3.44e+10, 4.313e+07,
     "facebookresearch/ConvNeXt README.md @048efcea 'ImageNet-1K trained models' table (= paper Liu et al. 2022); activations: timm convnext_large infer_macts 126.74M at 384 px, scaled to 224 px", "convnext_large"},
    {"mobilenetv3-large", "MobileNetV3-Large", VisionFamily::depthwise, 5.48303e+06, 224, 2.17e+08, 4.41e+06,
     "torchvision/models/mobilenetv3.py MobileNet_V3_Large_Weights meta (num_params 5483032, _ops 0.217); https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v3_large.html; activations: timm mobilenetv3_large_100 infer_macts 4.41M at 224 px, scaled to 224 px", "mobilenetv3_large_100"},
    {"mobilenetv3-small", "MobileNetV3-Small", VisionFamily::depthwise, 2.54286e+06, 224, 5.7e+07, 1.42e+06,
     "torchvision/models/mobilenetv3.py MobileNet_V3_Small_Weights meta (num_params 2542856, _ops 0.057); https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v3_small.html; activations: timm mobilenetv3_small_100 infer_macts 1.42M at 224 px, scaled to 224 px", "mobilenetv3_small_100"},
    {"regnety-16gf", "RegNetY-16GF", VisionFamily::conv, 8.35901e+07, 224, 1.5912e+10, 2.303e+07,
     "torchvision/models/regnet.py RegNet_Y_16GF_Weights.IMAGENET1K_V1 meta (num_params 83590140, _ops 15.912); https://pytorch.org/vision/stable/models/generated/torchvision.models.regnet_y_16gf.html; activations: timm regnety_160 infer_macts 67.67M at 384 px, scaled to 224 px", "regnety_160"},
    {"vit-b-16", "ViT-B/16", VisionFamily::vit, 8.65677e+07, 224, 1.756e+10, 2.39e+07,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.vit_b_16.html (ViT_B_16_Weights.IMAGENET1K_V1 num_params 86567656; GFLOPS 17.56); activations: timm vit_base_patch16_224 infer_macts 23.9M at 224 px, scaled to 224 px", "vit_base_patch16_224", 16, 768, 12, 12},
    {"vit-b-16-384", "ViT-B/16 at 384", VisionFamily::vit, 8.68595e+07, 384, 5.5484e+10, 1.016e+08,
     "torchvision/models/vision_transformer.py ViT_B_16_Weights.IMAGENET1K_SWAG_E2E_V1 meta (crop 384; num_params 86859496; _ops 55.484); activations: timm vit_base_patch16_384 infer_macts 101.56M at 384 px, scaled to 384 px", "vit_base_patch16_384", 16, 768, 12, 12},
    {"vit-l-16", "ViT-L/16", VisionFamily::vit, 3.04327e+08, 224, 6.155e+10, 6.352e+07,
     "https://pytorch.org/vision/stable/models/generated/torchvision.models.vit_l_16.html (ViT_L_16_Weights.IMAGENET1K_V1 num_params 304326632; GFLOPS 61.55); activations: timm vit_large_patch16_224 infer_macts 63.52M at 224 px, scaled to 224 px", "vit_large_patch16_224", 16, 1024, 24, 16},
    {"vit-h-14", "ViT-H/14", VisionFamily::vit, 6.32046e+08, 224, 1.67295e+11, 1.394e+08,
     "torchvision/models/vision_transformer.py ViT_H_14_Weights.IMAGENET1K_SWAG_LINEAR_V1 meta (crop 224; num_params 632045800; _ops 167.295); https://pytorch.org/vision/stable/models/generated/torchvision.models.vit_h_14.html; activations: timm vit_huge_patch14_224 infer_macts 139.41M at 224 px, scaled to 224 px", "vit_huge_patch14_224", 14, 1280, 32, 16},
    {"deit-ti", "DeiT-Ti", VisionFamily::vit, 5.72e+06, 224, 1.26e+09, 5.97e+06,
     "huggingface/pytorch-image-models@aa4b5850 results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv L51 (deit_tiny_patch16_224: param_count, infer_gmacs); arch timm/models/deit.py L255; activations: timm deit_tiny_patch16_224 infer_macts 5.97M at 224 px, scaled to 224 px", "deit_tiny_patch16_224", 16, 192, 12, 3},
    {"deit-s", "DeiT-S", VisionFamily::vit, 2.205e+07, 224, 4.61e+09, 1.195e+07,
     "huggingface/pytorch-image-models@aa4b5850 results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv L191 (deit_small_patch16_224: param_count, infer_gmacs); arch timm/models/deit.py L265; activations: timm deit_small_patch16_224 infer_macts 11.95M at 224 px, scaled to 224 px", "deit_small_patch16_224", 16, 384, 12, 6},
    {"deit-b", "DeiT-B", VisionFamily::vit, 8.657e+07, 224, 1.758e+10, 2.39e+07,
     "huggingface/pytorch-image-models@aa4b5850 results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv L615 (deit_base_patch16_224: param_count, infer_gmacs); arch timm/models/deit.py L275; activations: timm deit_base_patch16_224 infer_macts 23.9M at 224 px, scaled to 224 px", "deit_base_patch16_224", 16, 768, 12, 12},
    {"swin-t", "Swin-T", VisionFamily::swin, 2.82884e+07, 224, 4.491e+09, 1.706e+07,
     "torchvision/models/swin_transformer.py Swin_T_Weights.IMAGENET1K_V1 meta (num_params, _ops); https://pytorch.org/vision/stable/models/generated/torchvision.models.swin_t.html; activations: timm swin_tiny_patch4_window7_224 infer_macts 17.06M at 224 px, scaled to 224 px", "swin_tiny_patch4_window7_224"},
    {"swin-s", "Swin-S", VisionFamily::swin, 4.96063e+07, 224, 8.741e+09, 2.747e+07,
     "torchvision/models/swin_transformer.py Swin_S_Weights.IMAGENET1K_V1 meta (num_params, _ops); https://pytorch.org/vision/stable/models/generated/torchvision.models.swin_s.html; activations: timm swin_small_patch4_window7_224 infer_macts 27.47M at 224 px, scaled to 224 px", "swin_small_patch4_window7_224"},
    {"swin-b", "Swin-B", VisionFamily::swin, 8.77682e+07, 224, 1.5431e+10, 3.663e+07,
     "torchvision/models/swin_transformer.py Swin_B_Weights.IMAGENET1K_V1 meta (num_params, _ops); https://pytorch.org/vision/stable/models/generated/torchvision.models.swin_b.html; activations: timm swin_base_patch4_window7_224 infer_macts 36.63M at 224 px, scaled to 224 px", "swin_base_patch4_window7_224"},
    {"yolov8n", "YOLOv8n", VisionFamily::detector, 3.2e+06, 640, 4.35e+09, 1.182e+07,
     "ultralytics/ultralytics docs/en/models/yolov8.md @0059318a (Detection COCO table); T4 from docs/en/compare/yolo11-vs-yolov8.md @3c036766 (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolov8s", "YOLOv8s", VisionFamily::detector, 1.12e+07, 640, 1.43e+10, 3.885e+07,
     "ultralytics/ultralytics docs/en/models/yolov8.md @0059318a (Detection COCO table); T4 from docs/en/compare/yolo11-vs-yolov8.md @3c036766 (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolov8m", "YOLOv8m", VisionFamily::detector, 2.59e+07, 640, 3.945e+10, 1.072e+08,
     "ultralytics/ultralytics docs/en/models/yolov8.md @0059318a (Detection COCO table); T4 from docs/en/compare/yolo11-vs-yolov8.md @3c036766 (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolov8l", "YOLOv8l", VisionFamily::detector, 4.37e+07, 640, 8.26e+10, 2.244e+08,
     "ultralytics/ultralytics docs/en/models/yolov8.md @0059318a (Detection COCO table); T4 from docs/en/compare/yolo11-vs-yolov8.md @3c036766 (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolov8x", "YOLOv8x", VisionFamily::detector, 6.82e+07, 640, 1.289e+11, 3.502e+08,
     "ultralytics/ultralytics docs/en/models/yolov8.md @0059318a (Detection COCO table); T4 from docs/en/compare/yolo11-vs-yolov8.md @3c036766 (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolo11n", "YOLO11n", VisionFamily::detector, 2.6e+06, 640, 3.25e+09, 8.83e+06,
     "ultralytics/ultralytics docs/en/macros/yolo-det-perf.md @500415dc (included by docs/en/models/yolo11.md) (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolo11s", "YOLO11s", VisionFamily::detector, 9.4e+06, 640, 1.075e+10, 2.921e+07,
     "ultralytics/ultralytics docs/en/macros/yolo-det-perf.md @500415dc (included by docs/en/models/yolo11.md) (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolo11m", "YOLO11m", VisionFamily::detector, 2.01e+07, 640, 3.4e+10, 9.238e+07,
     "ultralytics/ultralytics docs/en/macros/yolo-det-perf.md @500415dc (included by docs/en/models/yolo11.md) (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolo11l", "YOLO11l", VisionFamily::detector, 2.53e+07, 640, 4.345e+10, 1.181e+08,
     "ultralytics/ultralytics docs/en/macros/yolo-det-perf.md @500415dc (included by docs/en/models/yolo11.md) (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"yolo11x", "YOLO11x", VisionFamily::detector, 5.69e+07, 640, 9.745e+10, 2.648e+08,
     "ultralytics/ultralytics docs/en/macros/yolo-det-perf.md @500415dc (included by docs/en/models/yolo11.md) (FLOPs / 2); activations: ResNet-50's per MAC (no published count)", "", 0, 0, 0, 0, 4},
    {"retinanet-r50-fpn", "RetinaNet R50-FPN", VisionFamily::detector, 3.4015e+07, 800, 1.5154e+11, 4.117e+08,
     "torchvision/models/detection/retinanet.py RetinaNet_ResNet50_FPN_Weights.COCO_V1 meta (num_params 34014999; _ops 151.54; box_map 36.4); https://pytorch.org/vision/stable/models/generated/torchvision.models.detection.retinanet_resnet50_fpn.html; activations: ResNet-50's per MAC (no published count)", ""},
    {"maskrcnn-r50-fpn", "Mask R-CNN R50-FPN", VisionFamily::detector, 4.44014e+07, 800, 1.3438e+11, 3.651e+08,
     "torchvision/models/detection/mask_rcnn.py MaskRCNN_ResNet50_FPN_Weights.COCO_V1 meta (num_params 44401393; _ops 134.38; box_map 37.9, mask_map 34.6); https://pytorch.org/vision/stable/models/generated/torchvision.models.detection.maskrcnn_resnet50_fpn.html; activations: ResNet-50's per MAC (no published count)", ""},
}};
  return k_models;
}

// clang-format on

// Other spellings users type: torchvision's function names (timm's are each preset's `timm`).
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> k_aliases{{
    {"resnet50-v1.5", "resnet-50-v1.5"},
    {"mobilenet_v3_large", "mobilenetv3-large"},
    {"regnet_y_16gf", "regnety-16gf"},
    {"vit_b_16", "vit-b-16"},
    {"vit_l_16", "vit-l-16"},
    {"vit_h_14", "vit-h-14"},
    {"swin_t", "swin-t"},
    {"swin_b", "swin-b"},
    {"yolov8", "yolov8m"},
}};

// The classifier's input: RGB.
constexpr double k_channels = 3;
// A ViT's MLP is 4 × its width (ViT, DeiT: mlp_ratio 4): 12·h² MACs per token and layer.
constexpr double k_vit_macs_per_token_per_width2 = 12;

}  // namespace

std::span<const VisionModel> vision_models() {
  return models();
}

const VisionModel* find_vision_model(std::string_view id) {
  std::string lower(id);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& [alias, target] : k_aliases) {
    if (lower == alias) lower = target;
  }
  const std::array<VisionModel, 43>& all = models();
  const auto found = std::find_if(all.begin(), all.end(), [&](const VisionModel& m) {
    return m.id == lower || (!m.timm.empty() && m.timm == lower);
  });
  return found == all.end() ? nullptr : &*found;
}

double vision_tokens(const VisionModel& model, int height, int width) {
  if (model.family != VisionFamily::vit || model.patch <= 0) return 0;
  return static_cast<double>(height / model.patch) * static_cast<double>(width / model.patch) + 1;
}

double vision_forward_macs(const VisionModel& model, int height, int width) {
  if (model.family == VisionFamily::vit && model.hidden > 0) {
    const double s = vision_tokens(model, height, width);
    const double h = model.hidden;
    const double patches = s - 1;
    const double embedding = patches * h * k_channels * model.patch * model.patch;
    return embedding + model.layers * (k_vit_macs_per_token_per_width2 * h * h * s + 2 * s * s * h);
  }
  const double pixels =
      static_cast<double>(height) * width / (static_cast<double>(model.resolution) * model.resolution);
  return model.macs * pixels;
}

double vision_activation_elements(const VisionModel& model, int height, int width) {
  if (model.family == VisionFamily::vit && model.hidden > 0) {
    // The outputs of q/k/v, the projection and the two MLP linears, 9·h per token and layer:
    // fused attention (F.scaled_dot_product_attention) writes no s² scores, which fvcore's
    // count (timm's infer_macts) includes.
    return 9.0 * model.hidden * vision_tokens(model, height, width) * model.layers;
  }
  const double pixels =
      static_cast<double>(height) * width / (static_cast<double>(model.resolution) * model.resolution);
  return model.activations * pixels;
}

}  // namespace mlsize
