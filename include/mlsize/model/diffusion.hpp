#pragma once
// Latent diffusion models (issue 50): a denoiser (a UNet or a diffusion transformer) that runs
// once per denoising step on the VAE's latents, the frozen text encoders that condition it,
// and the VAE that encodes training images and decodes generated latents. Each part with its
// parameters, multiply-accumulates and activations at a resolution, from its structure.
// Presets, conventions and sources: docs/methodology.md#diffusion.

#include <mlsize/support/names.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace mlsize {

// UNet: Stable Diffusion 1.x/2.x and SDXL (diffusers' UNet2DConditionModel). dit: a plain
// transformer on patches of the latent, conditioned by adaLN (DiT) and cross-attention to a
// text encoder's tokens (PixArt-α). mmdit: image and text tokens in one joint attention
// (Flux.1: double-stream then single-stream blocks; SD3).
enum class DenoiserFamily { unet, dit, mmdit };
constexpr auto enum_names(DenoiserFamily) {
  using enum DenoiserFamily;
  return std::to_array<EnumName<DenoiserFamily>>({{unet, "unet"}, {dit, "dit"}, {mmdit, "mmdit"}});
}

// One resolution of a UNet: the latent downsampled `downsample` times (1, 2, 4, 8), its
// channels, and how many ResNet blocks and transformer blocks (self-attention, cross-attention
// to the text and a GEGLU feed-forward) run there over the down, middle and up paths.
struct UNetLevel {
  int downsample = 1;
  int channels = 0;
  int resnets = 0;
  int transformer_blocks = 0;
};

struct DiffusionModel {
  std::string id;    // sdxl
  std::string name;  // SDXL base 1.0
  DenoiserFamily family = DenoiserFamily::unet;
  double denoiser_params = 0;
  int resolution = 512;  // native square image, pixels a side
  int latent_channels = 4;
  int vae_downsample = 8;  // pixels per latent position, a side
  // UNet: multiply-accumulates of the convolutions and linear layers of one forward pass at
  // `resolution` (calflops, which does not count scaled_dot_product_attention: the attention's
  // own matmuls are added from `levels`); they scale with the pixels.
  double unet_linear_macs = 0;
  std::array<UNetLevel, 4> levels{};
  // Transformers: latent patch size, width, blocks (double- and single-stream together for
  // mmdit), and how each block sees the text: cross-attention (dit) or joint attention (mmdit).
  int patch = 0;
  int hidden = 0;
  int layers = 0;
  int double_blocks = 0;           // mmdit: the double-stream blocks among `layers` (Flux.1: 19 of 57)
  int text_tokens = 77;            // the text encoders' sequence (CLIP 77, T5 120 in PixArt, 512 in Flux)
  int context_dim = 0;             // the text embedding's width cross-attention reads (UNet, dit)
  double text_encoder_params = 0;  // all text encoders together; 0: class-conditional (DiT)
  std::string text_encoders;       // "CLIP ViT-L/14"
  double vae_params = 0;
  // The VAE's widths per resolution, from the image down ([128, 256, 512, 512] for SD's and
  // Flux's AutoencoderKL): its FLOPs and the decoder's peak memory follow from them.
  std::array<int, 4> vae_channels{128, 256, 512, 512};
  // Flux.1-dev is guidance-distilled: the guidance scale is an input of one pass, where the
  // others run the denoiser twice a step (classifier-free guidance).
  bool guidance_distilled = false;
  int default_steps = 50;  // the pipeline's num_inference_steps default
  std::string source;
  // The Hub checkpoint diffusers' scripts load (--pretrained_model_name_or_path); empty for a
  // model read from a config, whose checkpoint only the user knows.
  std::string hub;
};

// A diffusion job: which model, how many images at which resolution; for generation the
// denoising steps, guidance and the rate to serve. The epochs, precision, optimizer and
// per-device batch are the Workload's; `tokens` are images (× epochs).
struct DiffusionWorkload {
  DiffusionModel model;
  double images = 0;  // training: per epoch; generation: to generate (a batch job)
  int height = 512;
  int width = 512;
  int steps = 50;  // generation: denoising steps (--steps)
  // Generation: classifier-free guidance runs the denoiser on the prompt and the empty prompt
  // each step (two passes, batched together); off (--guidance 1, or a distilled model): one.
  bool guidance = true;
  // Training on precomputed latents and text embeddings (--cache-latents, diffusers'
  // --cache_latents and kohya's cache_text_encoder_outputs): the VAE encoder and the text
  // encoders neither run nor stay loaded.
  bool cached = false;
  // Generation on a small card, as diffusers' pipelines offer it: the VAE decodes one image
  // at a time (--vae-slicing, enable_vae_slicing); the text encoders leave the GPU once the
  // prompts are encoded (--model-cpu-offload, enable_model_cpu_offload), each component moved
  // over the host link when it runs.
  bool vae_slicing = false;
  bool model_offload = false;
  double images_per_s = 0;  // generation at a rate (--rate): a fleet; 0: a batch job
  // A fleet's share of each replica's throughput and its spare units, as a language model's
  // (ServingLoad: --replica-utilisation, --redundancy).
  double utilisation = 0.8;
  int redundancy = 1;
  int passes_per_step() const { return guidance && !model.guidance_distilled ? 2 : 1; }
};

// Every built-in preset (src/core/model/diffusion_models.cpp).
std::span<const DiffusionModel> diffusion_models();
// The preset with this id or alias (sd-1.5, stable-diffusion-v1-5, sdxl, flux.1-dev), or nothing.
const DiffusionModel* find_diffusion_model(std::string_view id);

// Latent positions at h × w pixels.
double latent_positions(const DiffusionModel& model, int height, int width);
// Tokens a transformer denoiser sees at h × w: the latent in patch × patch pieces.
double denoiser_tokens(const DiffusionModel& model, int height, int width);

// Forward multiply-accumulates of one denoiser pass on one image at h × w: a UNet's
// convolutions and linears scaled with the pixels plus its attention (2·s²·c per transformer
// block at each level); a transformer's 12·h² per token and block (14·h² with cross-attention)
// plus 2·s²·h for QK^T and the product with V.
double denoiser_forward_macs(const DiffusionModel& model, int height, int width);

// Output elements of the denoiser's layers in one forward pass at h × w (the tensors a
// training step saves and an inference pass reads and writes): 7·c·s per ResNet block and
// 33·c·s per transformer block of a UNet; 17·s·h per transformer block (Korthikanti et al.'s
// 34·s·h bytes in 16 bits, fused attention), 20·s·h with cross-attention.
double denoiser_activation_elements(const DiffusionModel& model, int height, int width);

// The VAE at h × w pixels: its encoder (training on images rather than cached latents) and
// decoder (every generated image), from its widths: two 3×3 convolutions per ResNet block,
// two blocks a level in the encoder and three in the decoder.
double vae_encoder_macs(const DiffusionModel& model, int height, int width);
double vae_decoder_macs(const DiffusionModel& model, int height, int width);
// Output elements of the VAE's layers at h × w (7·c·s per ResNet block, as a UNet's), which
// its convolutions and GroupNorms read and write: encoder or decoder.
double vae_activation_elements(const DiffusionModel& model, int height, int width, bool decoder);
// Elements of the decoder's largest feature map (its last level: channels × pixels), which
// sets its peak memory.
double vae_decoder_peak_elements(const DiffusionModel& model, int height, int width);

// Forward multiply-accumulates of the text encoders for one prompt: each weight once per token.
double text_encoder_macs(const DiffusionModel& model);

// Parameters LoRA adds at `rank` on the attention projections (to_q, to_k, to_v, to_out) of
// every transformer block, as diffusers' training scripts target them: a UNet's self- and
// cross-attention (k and v read the text at context_dim), a transformer's image-stream
// attention.
double diffusion_lora_parameters(const DiffusionModel& model, int rank);

}  // namespace mlsize
