// The declarations of the flags shared by recommend and estimate: their groups, value
// names and help, with defaults read from the core's own defaults (Workload{},
// CostSettings{}).

#include "cli/options/catalog_options.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/serving_options.hpp"
#include "cli/options/task_flags.hpp"
#include "cli/options/workload_options.hpp"

#include <mlsize/estimate/cost.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/units.hpp>

#include <fmt/format.h>

#include <span>
#include <string>

namespace mlsize::cli {
namespace {

// "all-linear | attention | a list of q,k,v,o,gate,up,down (default all-linear)".
std::string lora_targets_help(unsigned default_targets) {
  const LoraTargetNames names = lora_target_names();
  std::string layers;
  for (std::string_view layer : names.layers) {
    if (!layers.empty()) layers += ',';
    layers += layer;
  }
  return choice_help(names.groups) + " | a list of " + layers + " (default " +
         std::string(to_string(static_cast<LoraTarget>(default_targets))) + ")";
}

// A default for help text: "1", "0.15".
std::string default_text(double value) {
  return fmt::format("{:g}", value);
}

}  // namespace

void add_workload_options(CLI::App& command, WorkloadOptions& options) {
  const Workload defaults;
  const CostSettings cost_defaults;
  CLI::App* in = &option_group(command, k_group_model);
  in->add_option("--params", options.params, "Model size in parameters, e.g. 7B, 350M, 6.7e9 (shape estimated)")
      ->type_name("COUNT");
  in->add_option("--model", options.model,
                 "A built-in model, e.g. llama-2-7b, mixtral-8x7b, resnet-50, vit-b-16 (see docs/cli.md)")
      ->type_name("NAME");
  in->add_option("--model-config", options.model_config, "A Hugging Face config.json to read the model from")
      ->type_name("FILE");
  in = &option_group(command, k_group_data);
  in->add_option("--data", options.data, "Dataset size in bytes of text, e.g. 200GB, 1.5TiB")->type_name("BYTES");
  in->add_option("--tokens", options.tokens, "Dataset size in tokens per epoch, e.g. 50B (overrides --data)")
      ->type_name("COUNT");
  in->add_option("--epochs", options.epochs, "Passes over the dataset (default " + default_text(defaults.epochs) + ")")
      ->type_name("N");
  in->add_option("--bytes-per-token", options.bytes_per_token,
                 "Bytes of text per token for --data (default " + default_text(defaults.bytes_per_token) + ")")
      ->type_name("N");
  in = &option_group(command, k_group_model);
  in->add_option("--task", options.task, choice_help(defaults.task))->type_name("TASK");
  in = &option_group(command, k_group_training);
  in->add_option("--precision", options.precision,
                 "Training: " + choice_help(defaults.precision) + "; inference: the weights, " +
                     choice_help(names_of(std::span<const WeightFormat>(k_inference_precisions))))
      ->type_name("PRECISION");
  in->add_option("--optimizer", options.optimizer, choice_help(defaults.optimizer))->type_name("OPTIMIZER");
  in->add_option("--seq-len", options.sequence_length,
                 "Sequence length in tokens (default " + std::to_string(defaults.sequence_length) + ")")
      ->type_name("TOKENS");
  in->add_option("--micro-batch", options.micro_batch,
                 "Sequences per device per step (default " + std::to_string(defaults.micro_batch) + ")")
      ->type_name("N");
  in->add_option("--mfu", options.mfu,
                 fmt::format("Model FLOPs utilisation, 0 < MFU <= 1, for every device (default {:.2f} on "
                             "datacenter NVIDIA GPUs, scaled per software stack)",
                             defaults.mfu))
      ->type_name("FRACTION");
  in->add_option("--setup-time", options.setup_time,
                 "Fixed time per run besides compute: provisioning, loading, checkpoints, e.g. 30m, 0 (default " +
                     default_text(k_default_setup_minutes) + "m)")
      ->type_name("DURATION");
  in->add_option("--global-batch", options.global_batch,
                 "Tokens per optimizer step, e.g. 4M (default: 4M for pretrain, 128 sequences for fine-tuning)")
      ->type_name("TOKENS");
  in->add_option("--attention", options.attention,
                 "Attention kernel; standard stores the s² scores: " + choice_help(defaults.attention))
      ->type_name("KERNEL");
  in->add_option("--framework", options.framework,
                 "Training stack: the activations it keeps, and named, only the layouts and devices it runs "
                 "(docs/methodology.md#frameworks): " +
                     choice_help(defaults.framework))
      ->type_name("FRAMEWORK");
  in->add_option("--lora-rank", options.lora_rank,
                 "LoRA rank r for --task lora/qlora (default " + std::to_string(defaults.lora_rank) + ")")
      ->type_name("N");
  in->add_option("--lora-targets", options.lora_targets, lora_targets_help(defaults.lora_targets))->type_name("LAYERS");
  in = &option_group(command, k_group_serving);
  in->add_option("--quant", options.quant, "Weights: " + choice_help(defaults.weight_format))->type_name("FORMAT");
  in->add_option("--kv-cache-dtype", options.kv_cache_dtype, choice_help(defaults.kv_format))->type_name("FORMAT");
  in->add_option("--context", options.context,
                 "Tokens per sequence, prompt + output (default " + std::to_string(defaults.context) + ")")
      ->type_name("TOKENS");
  in->add_option("--batch", options.batch, "Concurrent sequences (default " + std::to_string(defaults.batch) + ")")
      ->type_name("N");
  in->add_option(
        "--bandwidth-efficiency", options.bandwidth_efficiency,
        "Share of memory bandwidth decoding reaches (default " + format_general(defaults.bandwidth_efficiency) + ")")
      ->type_name("FRACTION");
  in->add_option("--engine", options.engine,
                 "Serving engine, for its fixed cost per step and KV pages: " + choice_help(defaults.engine) +
                     ", or a release (vllm-0.8.5, sglang-0.3.0: the preset that covers it); speech models: " +
                     choice_help(SpeechEngine::faster_whisper))
      ->type_name("ENGINE");
  in->add_option("--step-overhead", options.step_overhead,
                 "Fixed cost of each decode step beyond the roofline, e.g. 1ms (default: the engine's)")
      ->type_name("DURATION");
  add_serving_options(*in, options);
  in = &option_group(command, k_group_vision);
  in->add_option("--images", options.images, "Images per epoch, e.g. 1.28M (or --data at --bytes-per-image)")
      ->type_name("COUNT");
  in->add_option("--resolution", options.resolution, "Input size in pixels, 224 or 384x640 (default: the model's)")
      ->type_name("PX");
  in->add_option("--bytes-per-image", options.bytes_per_image,
                 "Stored bytes per image for --data (default 108KB, ImageNet's JPEGs)")
      ->type_name("BYTES");
  in->add_option("--data-loader", options.data_loader, "Decoding: pil (the host's vCPUs) or dali (on the GPUs)")
      ->type_name("LOADER");
  in->add_option("--steps", options.steps, "Diffusion: denoising steps per generated image (default: the pipeline's)")
      ->type_name("N");
  in->add_option("--guidance", options.guidance,
                 "Diffusion: guidance scale; above 1 runs the denoiser twice a step (default 7.5; 1: one pass)")
      ->type_name("SCALE");
  in->add_flag("--cache-latents", options.cache_latents,
               "Diffusion training: latents and text embeddings precomputed (no VAE or text encoder loaded)");
  in->add_flag("--vae-slicing", options.vae_slicing,
               "Diffusion generation: the VAE decodes one image at a time (diffusers' enable_vae_slicing)");
  in->add_flag("--model-cpu-offload", options.model_cpu_offload,
               "Diffusion generation: components on the GPU only for their turn (enable_model_cpu_offload)");
  in->add_option("--audio-hours", options.audio_hours,
                 "Speech: hours of audio to transcribe, or to fine-tune on per epoch, e.g. 1000")
      ->type_name("HOURS");
  in->add_option("--clip-seconds", options.clip_seconds,
                 "Speech fine-tuning: seconds per training clip, each padded to 30 (default 30)")
      ->type_name("SECONDS");
  in->add_option("--beam", options.beam, "Speech: beam width (default: the engine's; 1: greedy)")->type_name("N");
  in = &option_group(command, k_group_trees);
  in->add_option("--rows", options.rows, "Examples, e.g. 50M (default: --data / (features × 4 bytes))")
      ->type_name("COUNT");
  in->add_option("--features", options.features, "Columns (default " + default_text(defaults.features) + ")")
      ->type_name("N");
  in->add_option("--rounds", options.rounds, "Boosting rounds (default " + std::to_string(defaults.rounds) + ")")
      ->type_name("N");
  in->add_option("--max-depth,--depth", options.max_depth,
                 "Tree depth (default " + std::to_string(defaults.max_depth) + ")")
      ->type_name("N");
  in->add_option("--bins", options.bins,
                 "Histogram bins per feature (default " + std::to_string(defaults.bins) + ", XGBoost's max_bin)")
      ->type_name("N");
  in->add_option("--library", options.library, "Tree library: " + choice_help(defaults.library))->type_name("LIBRARY");
  in->add_option("--data-file", options.data_file,
                 "A CSV or Parquet file: its rows and features (and the data's size) are read from it")
      ->type_name("FILE");
  in = &option_group(command, k_group_memory);
  in->add_option(
        "--overhead", options.overhead,
        "Framework overhead per device, e.g. 2GiB (default " + default_text(defaults.overhead.value / k_gibi) + "GiB)")
      ->type_name("BYTES");
  in->add_option("--memory-margin", options.memory_margin,
                 "Allocator margin as a fraction of activations + KV cache, e.g. 0.1 (default " +
                     default_text(defaults.allocator_margin) + ")")
      ->type_name("FRACTION");
  in->add_option("--memory-headroom", options.memory_headroom,
                 "Fraction of each device's memory a plan leaves free, 0 to below 1 (default " +
                     default_text(defaults.memory_headroom) + ")")
      ->type_name("FRACTION");
  in = &option_group(command, k_group_constraints);
  in->add_option("--budget", options.budget, "Most money to spend, e.g. 20k, $1.5M")->type_name("USD");
  in->add_option("--deadline", options.deadline, "Longest run time, e.g. 36h, 7d, 2w")->type_name("DURATION");
  in->add_option("--pricing", options.pricing, choice_help(cost_defaults.pricing))->type_name("PRICING");
  in->add_option("--region", options.region,
                 "Price cloud offerings in this region only, e.g. us-east-1 (default: each offering's cheapest)")
      ->type_name("REGION");
  in->add_option("--max-price-age", options.max_price_age,
                 "Months after which the report warns that its prices are old; 0: never (default 12)")
      ->type_name("MONTHS");
  in->add_option("--today", options.today,
                 "Date the prices' age is measured to, YYYY-MM-DD (default: today), for reports that must "
                 "not change")
      ->type_name("DATE");
  in->add_option("--profile", options.profile, "Budget profile for the rules: " + choice_help(defaults.profile))
      ->type_name("PROFILE");
  add_catalog_options(command, options.catalog_files, options.no_user_catalog);
  in = &option_group(command, k_group_sources);
  in->add_option("--calibration", options.calibration_files,
                 "Overlay written by mlsize calibrate: plans on its device at its precision use the MFU, "
                 "bandwidth efficiency and overhead it measured; repeatable")
      ->type_name("FILE");
  in->add_flag("--no-defaults", options.no_defaults,
               "Ignore the team's defaults: the config file and MLSIZE_* variables (docs/cli.md#defaults)");
  in = &option_group(command, k_group_constraints);
  in->add_option("--amortization-years", options.amortization_years,
                 "Years over which on-premise hardware is written off (default " +
                     default_text(cost_defaults.amortization_years) + ")")
      ->type_name("YEARS");
  in->add_option("--utilisation", options.utilisation,
                 "Share of those years hardware to buy runs jobs, 0 < U <= 1; each run carries its hours' "
                 "share of the purchase at this use (default " +
                     default_text(cost_defaults.utilisation) + ")")
      ->type_name("FRACTION");
  in->add_option("--electricity-price", options.electricity_price,
                 "On-premise electricity price per kWh, e.g. 0.25 or $0.25 (default " +
                     default_text(cost_defaults.electricity_usd_per_kwh) + ")")
      ->type_name("USD");
  in->add_option("--price-factor", options.price_factors,
                 "PROVIDER=FACTOR: multiply that provider's cloud prices, e.g. aws=0.8; repeatable")
      ->type_name("PROVIDER=FACTOR");
  in->add_option("--owned", options.owned,
                 "On-premise offering you already have (costed at its electricity), e.g. on-prem-dgx-b200; "
                 "repeatable")
      ->type_name("ID");
  in = &option_group(command, k_group_output);
  in->add_option("--format", options.format, format_help(options.formats))->type_name("FORMAT");
  add_output_file_options(*in, options.output_path, options.force_output);
}

}  // namespace mlsize::cli
