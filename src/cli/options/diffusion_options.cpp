#include "cli/options/diffusion_options.hpp"

#include <mlsize/model/vision.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>

namespace mlsize::cli {
namespace {

// The widest UNet level, or the transformer's width: Adafactor's factored moments read it.
int denoiser_width(const DiffusionModel& model) {
  if (model.family != DenoiserFamily::unet) return model.hidden;
  int widest = 0;
  for (const UNetLevel& level : model.levels) widest = std::max(widest, level.channels);
  return widest;
}

// A generation fleet (--rate images a second); the language-model serving flags do not apply.
void resolve_image_rate(const WorkloadOptions& options, Workload& workload) {
  DiffusionWorkload& d = *workload.diffusion;
  const std::pair<const std::optional<std::string>&, const char*> text_flags[] = {
      {options.tokens_per_day, "--tokens-per-day"},
      {options.prompt_tokens, "--prompt-tokens"},
      {options.output_tokens, "--output-tokens"},
      {options.ttft, "--ttft"},
      {options.tpot, "--tpot"},
      {options.max_batch, "--max-batch"},
      {options.max_step_tokens, "--max-step-tokens"},
      {options.percentile, "--percentile"},
      {options.batching, "--batching"}};
  for (const auto& [value, flag] : text_flags) {
    if (value) {
      flag_error(flag, std::string(flag) + " describes a language model's requests",
                 "a diffusion model serves --rate images a second");
    }
  }
  if (!options.rate) {
    for (const auto& [value, flag] : {std::pair{options.replica_utilisation.has_value(), "--replica-utilisation"},
                                      std::pair{options.redundancy.has_value(), "--redundancy"}}) {
      if (value) flag_error(flag, std::string(flag) + " sizes a fleet", "add --rate (images a second)");
    }
    return;
  }
  if (workload.task != Task::inference) flag_error("--rate", "--rate sizes a serving fleet", "add --task inference");
  if (options.images) flag_error("--images", "--rate and --images both give the work", "give one of them");
  if (options.budget) {
    flag_error("--budget", "--budget bounds a run's cost, not a service's",
               "drop it: the ranking gives $/hour and $ per 1,000 images");
  }
  if (options.deadline) flag_error("--deadline", "--deadline bounds a run, not a service", "drop it");
  d.images_per_s =
      parse_flag("--rate", [&] { return parse_positive_number(*options.rate, "a rate in images per second"); });
  if (options.replica_utilisation) {
    d.utilisation = parse_fraction_flag(*options.replica_utilisation, "--replica-utilisation");
  }
  if (options.redundancy) d.redundancy = parse_int_flag(*options.redundancy, "--redundancy", 0, 1'000'000);
}

}  // namespace

void set_diffusion_model(const DiffusionModel& model, Workload& workload) {
  if (workload.task == Task::gbdt) {
    flag_error("--task", "diffusion models are sized for pretrain, finetune, lora, qlora and inference (generation)",
               "drop --task, or give --task lora or inference");
  }
  workload.diffusion = DiffusionWorkload{model};
  DiffusionWorkload& d = *workload.diffusion;
  d.height = d.width = model.resolution;
  d.steps = model.default_steps;
  workload.model = Architecture{};
  workload.model.name = model.name;
  workload.model.family = "diffusion";
  workload.model.source = model.source;
  workload.model.hidden = denoiser_width(model);
  workload.parameters.total = workload.parameters.active = workload.parameters.linear = model.denoiser_params;
  workload.sequence_length = 1;
  workload.attention = Attention::flash;  // PyTorch 2's scaled_dot_product_attention, diffusers' default
  workload.framework = Framework::hf;     // diffusers under accelerate: fp32 weights under autocast
  workload.optimizer = Optimizer::adamw;  // the training scripts' default (--use_8bit_adam: adam-8bit)
  // Images per device per step: MosaicML's SD 2 pre-training (8 a GPU at 512²), which the
  // search halves to 1; one for fine-tuning, as diffusers' READMEs run it with gradient
  // accumulation; one at a time for generation, the latency a user waits.
  workload.micro_batch = workload.task == Task::pretrain ? 8 : 1;
}

void check_diffusion_flags(const WorkloadOptions& options, const Workload& workload) {
  if (workload.diffusion) return;
  for (const auto& [given, flag] :
       {std::pair{options.steps.has_value(), "--steps"}, std::pair{options.guidance.has_value(), "--guidance"},
        std::pair{options.cache_latents, "--cache-latents"}, std::pair{options.vae_slicing, "--vae-slicing"},
        std::pair{options.model_cpu_offload, "--model-cpu-offload"}}) {
    if (given) flag_error(flag, std::string(flag) + " is for diffusion models", "give --model sd-1.5, sdxl, ...");
  }
}

void resolve_diffusion(const WorkloadOptions& options, Workload& workload) {
  DiffusionWorkload& d = *workload.diffusion;
  const bool generation = workload.task == Task::inference;
  if (options.tokens) flag_error("--tokens", "a diffusion model works on images", "give --images (e.g. 10k)");
  if (options.data) flag_error("--data", "a diffusion model is sized by its images", "give --images (e.g. 10k)");
  if (options.bytes_per_image || options.data_loader) {
    flag_error(options.bytes_per_image ? "--bytes-per-image" : "--data-loader",
               "a diffusion job's input pipeline is not sized (its steps are the bound)", "drop it");
  }
  resolve_image_rate(options, workload);
  if (options.images) {
    // A bare count is taken as it is: DreamBooth fine-tunes on 5 to 20 images.
    d.images = parse_flag("--images", [&] { return parse_count(*options.images); });
    if (d.images < 1) flag_error("--images", "\"" + *options.images + "\" is below 1", "e.g. 20, 10k, 600M");
  } else if (d.images_per_s <= 0) {
    flag_error("--images", "the number of images is missing",
               generation ? "give --images (e.g. 10k to generate) or --rate (images a second to serve)"
                          : "give --images (e.g. 10k training images)");
  }
  if (options.resolution) {
    std::tie(d.height, d.width) = parse_resolution_flag(*options.resolution);
    // The latent is the image over the VAE's factor, halved three times by a UNet or cut
    // into patches by a transformer.
    const int multiple = d.model.vae_downsample * (d.model.family == DenoiserFamily::unet ? 8 : d.model.patch);
    if (d.height % multiple != 0 || d.width % multiple != 0) {
      flag_error("--resolution", fmt::format("{} is not a multiple of {} pixels", *options.resolution, multiple),
                 fmt::format("e.g. {} or {}", d.model.resolution, d.model.resolution / 2));
    }
  }
  if (options.steps) {
    if (!generation) flag_error("--steps", "--steps sets a generation's denoising steps", "add --task inference");
    d.steps = parse_int_flag(*options.steps, "--steps", 1, 10'000);
  }
  if (options.guidance) {
    if (!generation) flag_error("--guidance", "--guidance is a generation's", "add --task inference");
    const double scale = parse_flag(
        "--guidance", [&] { return parse_non_negative_number(*options.guidance, "a guidance scale, e.g. 7.5 or 1"); });
    d.guidance = scale > 1;
  }
  if (options.cache_latents) {
    if (generation) flag_error("--cache-latents", "--cache-latents is for training", "drop it");
    d.cached = true;
  }
  for (const auto& [given, flag] :
       {std::pair{options.vae_slicing, "--vae-slicing"}, std::pair{options.model_cpu_offload, "--model-cpu-offload"}}) {
    if (given && !generation)
      flag_error(flag, std::string(flag) + " is a generation pipeline's", "add --task inference");
  }
  d.vae_slicing = options.vae_slicing;
  d.model_offload = options.model_cpu_offload;
  if (generation && options.epochs) flag_error("--epochs", "generation makes each image once", "drop --epochs");
  workload.tokens = d.images * (generation ? 1.0 : workload.epochs);
  // The stored images, for the rules' data-size tiers and the disk: ImageNet's JPEG size, as a
  // vision model's default (LAION's at 512 are alike).
  if (!generation) workload.dataset_bytes = Bytes(d.images * k_imagenet_bytes_per_image);
  // A fleet runs on: an hour of it stands for the run (its cost is the fleet's $/hour).
  if (d.images_per_s > 0) workload.tokens = d.images_per_s * k_seconds_per_hour;
}

}  // namespace mlsize::cli
