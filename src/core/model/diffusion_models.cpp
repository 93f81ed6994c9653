#include <mlsize/model/diffusion.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace mlsize {
namespace {

// The UNets' levels, counted from diffusers' UNet2DConditionModel configs (block_out_channels,
// layers_per_block 2: two ResNet blocks a level on the way down, three on the way up, two in
// the middle; transformer_layers_per_block; bench/results/issue50-published-figures.md A15-A18):
// SD 1.x/2.x: CrossAttnDownBlock2D ×3 then DownBlock2D, a cross-attention middle block;
// SDXL: DownBlock2D then two CrossAttnDownBlock2D of 2 and 10 transformer blocks, the middle's 10.
constexpr std::array<UNetLevel, 4> k_sd_levels{{{1, 320, 5, 5}, {2, 640, 5, 5}, {4, 1280, 5, 5}, {8, 1280, 7, 1}}};
constexpr std::array<UNetLevel, 4> k_sdxl_levels{{{1, 320, 5, 0}, {2, 640, 5, 10}, {4, 1280, 7, 60}, {}}};

// CLIP ViT-L/14's text tower (SD 1.x, SDXL's first, Flux's pooled one), OpenCLIP ViT-H/14's
// (SD 2.x) and ViT-bigG/14's (SDXL's second), T5-v1.1-XXL's encoder (PixArt-α, Flux).
constexpr double k_clip_l = 123'060'480;      // A5
constexpr double k_openclip_h = 354.03e6;     // A10
constexpr double k_openclip_bigg = 694.66e6;  // A11
constexpr double k_t5_xxl = 4.76e9;           // G24: 9.52 GB in bf16
constexpr double k_sd_vae = 83'653'863;       // A7

// Built on first use: only diffusion runs read them.
const std::array<DiffusionModel, 6>& models() {
  // clang-format off
  static const std::array<DiffusionModel, 6> k_models{{
    {"sd-1.5", "Stable Diffusion 1.5", DenoiserFamily::unet, 859'520'964, 512, 4, 8,
     // T-GATE (Liu et al. 2024) Table 2 / diffusers docs/source/en/optimization/tgate.md: 16.938T MACs an image with
     // calflops over 25 steps of 2 passes (classifier-free guidance): 338.8 G a pass, BK-SDM's 339 G.
     16.938e12 / 50, k_sd_levels, 0, 0, 0, 0, 77, 768, k_clip_l, "CLIP ViT-L/14", k_sd_vae, {128, 256, 512, 512},
     false, 50,
     "UNet 859,520,964 params (fast.ai count; calflops 859.520M, diffusers tgate.md); text encoder CLIP ViT-L/14 "
     "123,060,480; VAE 83,653,863; MACs: T-GATE Table 2 (16.938T per image, 25 steps × 2 passes)",
     "stable-diffusion-v1-5/stable-diffusion-v1-5"},
    {"sd-2.1", "Stable Diffusion 2.1", DenoiserFamily::unet, 865'785'000, 768, 4, 8,
     38.041e12 / 50, k_sd_levels, 0, 0, 0, 0, 77, 1024, k_openclip_h, "OpenCLIP ViT-H/14", k_sd_vae,
     {128, 256, 512, 512}, false, 50,
     "UNet 865.785M params and 38.041T MACs per 768x768 image (25 steps × 2 passes; calflops, T-GATE Table 2); "
     "text encoder OpenCLIP ViT-H/14 text tower 354.03M (open_clip docs/model_profile.csv); VAE as SD 1.x",
     "stabilityai/stable-diffusion-2-1"},
    {"sdxl", "SDXL base 1.0", DenoiserFamily::unet, 2.570e9, 1024, 4, 8,
     // The same table's LCM-SDXL row, 11.955T over 4 single-pass steps, gives the same 2.989T a pass.
     149.438e12 / 50, k_sdxl_levels, 0, 0, 0, 0, 77, 2048, k_clip_l + k_openclip_bigg,
     "CLIP ViT-L/14 + OpenCLIP ViT-bigG/14", k_sd_vae, {128, 256, 512, 512}, false, 50,
     "UNet 2.570B params and 149.438T MACs per 1024x1024 image (25 steps × 2 passes; calflops, T-GATE Table 2); "
     "text encoders CLIP ViT-L/14 123.06M + OpenCLIP ViT-bigG/14 694.66M (open_clip model_profile.csv); "
     "levels from the diffusers config (block_out_channels [320,640,1280], transformer depth [0,2,10])",
     "stabilityai/stable-diffusion-xl-base-1.0"},
    {"dit-xl-2", "DiT-XL/2", DenoiserFamily::dit, 675e6, 256, 4, 8,
     0, {}, 2, 1152, 28, 0, 0, 0, 0, "none (class-conditional)", k_sd_vae, {128, 256, 512, 512}, false, 250,
     "facebookresearch/DiT models.py L328-329 @ed81ce2 (depth 28, hidden 1152, patch 2, heads 16); 675M params and "
     "119 Gflops at 256x256 (README L63-66); sample.py's 250 steps, cfg-scale 4",
     "facebook/DiT-XL-2-256"},
    {"pixart-alpha", "PixArt-α XL-2-1024", DenoiserFamily::dit, 611'350'000, 1024, 4, 8,
     0, {}, 2, 1152, 28, 0, 120, 1152, k_t5_xxl, "T5-v1.1-XXL encoder", k_sd_vae, {128, 256, 512, 512}, false, 20,
     "PixArt-alpha README @cac2fd3 (0.6B, 28 blocks of 1152 like DiT-XL/2, T5 120 tokens projected to 1152 for "
     "cross-attention); 611.350M params (calflops, T-GATE Table 2); PixArtAlphaPipeline's 20 steps",
     "PixArt-alpha/PixArt-XL-2-1024-MS"},
    {"flux.1-dev", "FLUX.1 [dev]", DenoiserFamily::mmdit, 11'901'408'320, 1024, 16, 8,
     0, {}, 2, 3072, 57, 19, 512, 4096, k_t5_xxl + k_clip_l, "T5-v1.1-XXL + CLIP ViT-L/14", 83.8e6,
     {128, 256, 512, 512}, true, 28,
     "11,901,408,320 transformer params (diffusers' LoRA print, huggingface/blog flux-qlora.md); 19 double- and 38 "
     "single-stream blocks of 3072, 512 T5 tokens (diffusers FluxTransformer2DModel); components T5 9.52 GB, "
     "CLIP 246 MB, VAE 168 MB in bf16 (huggingface/blog diffusers-quantization.md); FluxPipeline's 28 steps, "
     "guidance-distilled (one pass a step)",
     "black-forest-labs/FLUX.1-dev"},
  }};
  // clang-format on
  return k_models;
}

// Other spellings users type: the Hub's repository names.
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> k_aliases{{
    {"sd1.5", "sd-1.5"},
    {"sd15", "sd-1.5"},
    {"stable-diffusion-v1-5", "sd-1.5"},
    {"stable-diffusion-1.5", "sd-1.5"},
    {"sd2.1", "sd-2.1"},
    {"stable-diffusion-2-1", "sd-2.1"},
    {"sdxl-base", "sdxl"},
    {"stable-diffusion-xl-base-1.0", "sdxl"},
    {"dit-xl/2", "dit-xl-2"},
    {"pixart-alpha-xl-2-1024-ms", "pixart-alpha"},
    {"flux", "flux.1-dev"},
}};

// A transformer block's linears per token: q, k, v and output (4·h²) and an MLP of 4·h (8·h²).
constexpr double k_block_macs_per_width2 = 12;
// With cross-attention: its query and output projections on the image tokens (2·h² more).
constexpr double k_cross_block_macs_per_width2 = 14;

double pixels(int height, int width) {
  return static_cast<double>(height) * width;
}

}  // namespace

std::span<const DiffusionModel> diffusion_models() {
  return models();
}

const DiffusionModel* find_diffusion_model(std::string_view id) {
  std::string lower(id);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::array<DiffusionModel, 6>& all = models();
  const auto find = [&](std::string name) -> const DiffusionModel* {
    for (const auto& [alias, target] : k_aliases) {
      if (name == alias) name = target;
    }
    const auto found = std::find_if(all.begin(), all.end(), [&](const DiffusionModel& m) { return m.id == name; });
    return found == all.end() ? nullptr : &*found;
  };
  if (const DiffusionModel* model = find(lower)) return model;
  // A Hub repository's name without its organisation: stabilityai/stable-diffusion-xl-base-1.0.
  const std::size_t slash = lower.rfind('/');
  return slash == std::string::npos ? nullptr : find(lower.substr(slash + 1));
}

double latent_positions(const DiffusionModel& model, int height, int width) {
  return pixels(height, width) / (static_cast<double>(model.vae_downsample) * model.vae_downsample);
}

double denoiser_tokens(const DiffusionModel& model, int height, int width) {
  if (model.patch <= 0) return 0;
  return latent_positions(model, height, width) / (static_cast<double>(model.patch) * model.patch);
}

double denoiser_forward_macs(const DiffusionModel& model, int height, int width) {
  const double t = model.text_tokens;
  if (model.family == DenoiserFamily::unet) {
    const double scale = pixels(height, width) / pixels(model.resolution, model.resolution);
    double attention = 0;
    for (const UNetLevel& level : model.levels) {
      if (level.transformer_blocks == 0) continue;
      const double s =
          latent_positions(model, height, width) / (static_cast<double>(level.downsample) * level.downsample);
      // QK^T and the product with V over the latent (self) and over the text (cross).
      attention += level.transformer_blocks * (2 * s * s * level.channels + 2 * s * t * level.channels);
    }
    return model.unet_linear_macs * scale + attention;
  }
  const double s = denoiser_tokens(model, height, width);
  const double h = model.hidden;
  const double embed = s * h * model.latent_channels * model.patch * model.patch;
  if (model.family == DenoiserFamily::mmdit) {
    // Image and text tokens through every block's linears (the double blocks' text stream has
    // weights of its own, of the same size) and through one joint attention.
    const double n = s + t;
    return embed + model.layers * (k_block_macs_per_width2 * h * h * n + 2 * n * n * h);
  }
  double per_block = k_block_macs_per_width2 * h * h * s + 2 * s * s * h;
  if (model.context_dim > 0) {
    // Cross-attention: k and v of the text tokens, and the attention over them.
    per_block += (k_cross_block_macs_per_width2 - k_block_macs_per_width2) * h * h * s + 2 * t * model.context_dim * h +
                 2 * s * t * h;
  }
  return embed + model.layers * per_block;
}

double denoiser_activation_elements(const DiffusionModel& model, int height, int width) {
  if (model.family == DenoiserFamily::unet) {
    double elements = 0;
    for (const UNetLevel& level : model.levels) {
      if (level.channels == 0) continue;
      const double s =
          latent_positions(model, height, width) / (static_cast<double>(level.downsample) * level.downsample);
      // A ResNet block: two GroupNorms, two SiLUs, two convolutions and the residual sum. A
      // transformer block: norms, q/k/v, attention and output for self- and cross-attention,
      // a GEGLU of 2 × 4c and its product, the sums: 31·c·s, and 2 more for its module's
      // proj_in/proj_out shared over its blocks.
      elements += level.channels * s * (7.0 * level.resnets + 33.0 * level.transformer_blocks);
    }
    return elements;
  }
  const double tokens =
      denoiser_tokens(model, height, width) + (model.family == DenoiserFamily::mmdit ? model.text_tokens : 0);
  const double per_token_width = model.family == DenoiserFamily::dit && model.context_dim > 0 ? 20.0 : 17.0;
  return per_token_width * tokens * model.hidden * model.layers;
}

namespace {

// The VAE's levels, from the full resolution (level 0) down: (pixels at that level, width).
template <class F>
void for_vae_levels(const DiffusionModel& model, int height, int width, F&& f) {
  double s = pixels(height, width);
  for (std::size_t i = 0; i < model.vae_channels.size(); ++i, s /= 4) {
    f(static_cast<int>(i), s, static_cast<double>(model.vae_channels[i]));
  }
}

// Two 3×3 convolutions of c channels over s positions.
double resnet_macs(double c, double s) {
  return 2 * 9 * c * c * s;
}

// The middle: two ResNet blocks and one self-attention over the smallest level.
double vae_middle_macs(double c, double s) {
  return 2 * resnet_macs(c, s) + 4 * c * c * s + 2 * s * s * c;
}

}  // namespace

double vae_encoder_macs(const DiffusionModel& model, int height, int width) {
  double macs = 0;
  for_vae_levels(model, height, width, [&](int i, double s, double c) {
    macs += 2 * resnet_macs(c, s);
    if (i < 3) macs += 9 * c * c * s / 4;  // the stride-2 convolution to the next level
    if (i == 3) macs += vae_middle_macs(c, s);
  });
  return macs;
}

double vae_decoder_macs(const DiffusionModel& model, int height, int width) {
  double macs = 0;
  for_vae_levels(model, height, width, [&](int i, double s, double c) {
    macs += 3 * resnet_macs(c, s);
    if (i > 0) macs += 9 * c * c * s * 4;  // upsampled, then a 3×3 convolution at the level above
    if (i == 3) macs += vae_middle_macs(c, s);
  });
  return macs;
}

double vae_activation_elements(const DiffusionModel& model, int height, int width, bool decoder) {
  double elements = 0;
  for_vae_levels(model, height, width, [&](int, double s, double c) { elements += (decoder ? 3 : 2) * 7 * c * s; });
  return elements;
}

double vae_decoder_peak_elements(const DiffusionModel& model, int height, int width) {
  // The second level's width upsampled to the full resolution, entering the last level.
  return model.vae_channels[1] * pixels(height, width);
}

double text_encoder_macs(const DiffusionModel& model) {
  return model.text_encoder_params * model.text_tokens;
}

double diffusion_lora_parameters(const DiffusionModel& model, int rank) {
  const double r = rank;
  if (model.family == DenoiserFamily::unet) {
    double params = 0;
    for (const UNetLevel& level : model.levels) {
      const double c = level.channels;
      // Self-attention's four c→c projections, cross-attention's q and out (c→c) and k and
      // v (context→c): r·(in + out) each.
      params += level.transformer_blocks * (6 * r * 2 * c + 2 * r * (model.context_dim + c));
    }
    return params;
  }
  const double h = model.hidden;
  if (model.family == DenoiserFamily::mmdit) {
    // Double-stream blocks: to_q, to_k, to_v, to_out on the image stream; single-stream
    // blocks: to_q, to_k, to_v (their output is the MLP's shared proj_out).
    const int doubles = std::min(model.double_blocks, model.layers);
    return doubles * 4 * r * 2 * h + (model.layers - doubles) * 3 * r * 2 * h;
  }
  double per_block = 4 * r * 2 * h;
  if (model.context_dim > 0) per_block += 2 * r * 2 * h + 2 * r * (model.context_dim + h);
  return model.layers * per_block;
}

}  // namespace mlsize
