#pragma once
// Training and generation time and memory of a latent diffusion model
// (docs/methodology.md#diffusion): each part's FLOPs from its structure (model/diffusion.hpp),
// timed by the roofline vision models are fitted to (their activation traffic at the memory
// bandwidth against their FLOPs at a share of the peak), the frozen parts' weights, and the
// VAE decoder's peak, which sets a generator's memory.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

namespace mlsize {

// What a denoising step costs besides its passes: eager PyTorch launches each of the UNet's
// ~1,000 kernels from Python, and the scheduler's update. Fitted to Stable Diffusion 1.5 on
// an A100-SXM4-40GB at batch 1 (onnxruntime's stable_diffusion README, PyTorch 2.0: 1.5 s for
// 50 steps of 2 passes, bench/results/issue50-published-figures.md G11, in the fitting set):
// 30 ms a step, of which the passes' roofline is 17 ms.
inline constexpr double k_diffusion_step_overhead_s = 0.013;

// Bytes the VAE decoder holds per element of its largest feature map (vae_decoder_peak_elements)
// while it decodes: the map, its GroupNorm's and SiLU's outputs, the upsampling's and a
// convolution's workspace. Fitted to SDXL base at 1024² decoding 4 images (huggingface/blog
// simple_sdxl_optimizations.md: 21.72 GiB peak with fp16 and SDPA, G3 in the fitting set, of
// which 6.9 GB are the weights); the decode is SDXL's peak, not the UNet.
inline constexpr double k_vae_decode_bytes_per_element = 15.3;

// The share of the peak a diffusion job runs at on `device`: its FLOPs per image over what
// the roofline of each part takes (vision.hpp's constants), with a generator's fixed cost per
// step shared by its batch (Workload::micro_batch images), times the stack's factor.
double diffusion_efficiency(const Device& device, const Workload& workload);

// FLOPs of the whole run. Training, per image and epoch: the denoiser's forward and backward
// at one random timestep (6·MACs; 8 with full recomputation; 4 for adapters, whose frozen
// weights take no gradients), plus the VAE encoder and text encoders forward unless the
// latents are cached. Generation, per image: steps × passes × 2·MACs, the text encoders and
// the VAE decoder.
Flops diffusion_run_flops(const Workload& workload, Recompute recompute);

// Activation bytes one device saves for its micro-batch in training: the denoiser's outputs
// (denoiser_activation_elements) at the precision's width; with full recomputation a UNet
// keeps a quarter (its four levels' inputs, diffusers' gradient checkpointing per block) and a
// transformer each block's input (2·s·h bytes in 16 bits).
Bytes diffusion_activation_bytes(const Workload& workload, const Strategy& strategy);

// The frozen parts a training step keeps on each device: the text encoders and the VAE in 16
// bits (diffusers' training scripts cast them to the weight dtype), none when the latents and
// text embeddings are cached.
Bytes diffusion_frozen_bytes(const Workload& workload);

// Generation: the weights besides the denoiser's (text encoders and VAE, 16 bits), and the
// larger of the denoiser's live activations over its batch × passes and the VAE decoder's
// peak over the batch (one image with VAE slicing). With model CPU offload the text encoders
// are off the GPU at the peak: diffusers' hooks keep the denoiser through the decode (SDXL's
// 20.21 GiB with it against 21.72 without, the text encoders' 1.5 GiB; huggingface/blog
// simple_sdxl_optimizations.md, G5).
Bytes diffusion_inference_frozen_bytes(const Workload& workload);
Bytes diffusion_inference_activation_bytes(const Workload& workload);

// The largest batch of images a device generates at once in a batch job's search (diffusers'
// num_images_per_prompt; MLPerf's SDXL offline runs 8 per GPU on an H100).
inline constexpr int k_largest_generation_batch = 16;

// One device generating a batch of images (Workload::micro_batch): the time from the prompts
// to the decoded images, what each part takes, and the images per second it gives.
struct DiffusionBatch {
  int batch = 1;
  Seconds text{0};     // the text encoders
  Seconds denoise{0};  // steps × (passes + the step's fixed cost)
  Seconds decode{0};   // the VAE decoder
  Seconds offload{0};  // model CPU offload: each component moved to the GPU over the host link
  Seconds latency() const { return text + denoise + decode + offload; }
  double images_per_s() const { return latency().value > 0 ? batch / latency().value : 0; }
};
DiffusionBatch diffusion_batch(const Device& device, const Workload& workload);

// A diffusion plan's figures (PlanEstimate::diffusion): the generation batch, and for a rate
// of images the fleet of one-device replicas that serves it.
struct DiffusionRun {
  DiffusionBatch batch;     // generation: one device's batch
  bool fleet = false;       // serving --rate images a second: priced per hour
  int replicas = 0;         // devices of the fleet
  int replicas_needed = 0;  // what the rate needs at the utilisation
  std::optional<Usd> per_1000_images;
};

}  // namespace mlsize
