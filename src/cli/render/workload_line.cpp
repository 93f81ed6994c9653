// The lines every report starts with: the workload and the model's shape
// (docs/cli.md#output).

#include "cli/render/format.hpp"
#include "cli/render/renderers.hpp"

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/vision.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

namespace mlsize::cli {

namespace {

// A vision job: the model at its resolution, the images and epochs, and how they are loaded
// (docs/methodology.md#vision).
std::string vision_workload_line(const Workload& workload) {
  const VisionWorkload& v = *workload.vision;
  // The stored bytes, and the size per image they were counted at (ImageNet's JPEGs unless
  // --bytes-per-image says): it also sets the host's decoding rate.
  const std::string data = workload.dataset_bytes
                               ? fmt::format(" ({} GB at {} an image)", format_gb(*workload.dataset_bytes),
                                             format_bytes(Bytes(v.bytes_per_image)))
                               : std::string();
  // Three significant figures from a million: ImageNet's 1.28M is not "1M".
  const std::string images =
      v.images >= 1e6 ? format_general(v.images / 1e6, 3) + "M" : format_count_exact_below_10k(v.images);
  std::string text =
      workload.task == Task::inference
          ? fmt::format("Workload: {}, {} parameters, inference on {} images{} at {}×{} px with {} weights.\n",
                        v.model.name, format_count(v.model.params), images, data, v.height, v.width,
                        to_string(workload.weight_format))
          : fmt::format("Workload: {}, {} parameters, {} images{} × {} epochs at {}×{} px, {} {}, {}.\n", v.model.name,
                        format_count(v.model.params), images, data, format_general(workload.epochs), v.height, v.width,
                        to_string(workload.task), to_string(workload.precision), to_string(workload.optimizer));
  const double macs = vision_forward_macs(v.model, v.height, v.width);
  text += fmt::format("Model: {} GMACs an image forward", format_general(macs / 1e9, 3));
  if (v.model.family == VisionFamily::vit) {
    text += fmt::format(" ({} tokens, {} layers, hidden {})", format_general(vision_tokens(v.model, v.height, v.width)),
                        v.model.layers, v.model.hidden);
  }
  text += fmt::format("; micro-batch {} images per device; {} data loader", workload.micro_batch,
                      v.loader == DataLoader::pil ? "Pillow (the host's vCPUs decode)" : "DALI (GPU decode)");
  text += "; time a roofline of FLOPs and activation traffic.\n";
  return text;
}

// A diffusion job: the model's parts, the images at their resolution, and for generation the
// steps, guidance and rate (docs/methodology.md#diffusion).
std::string diffusion_workload_line(const Workload& workload) {
  const DiffusionWorkload& d = *workload.diffusion;
  const DiffusionModel& m = d.model;
  const std::string images =
      d.images >= 1e6 ? format_general(d.images / 1e6, 3) + "M" : format_count_exact_below_10k(d.images);
  std::string text;
  if (workload.task == Task::inference) {
    const std::string work = d.images_per_s > 0 ? fmt::format("{} images a second", format_general(d.images_per_s))
                                                : fmt::format("{} images", images);
    text = fmt::format("Workload: {}, generating {} at {}×{} px: {} steps × {}, {} weights.\n", m.name, work, d.height,
                       d.width, d.steps, d.passes_per_step() == 2 ? "2 passes (classifier-free guidance)" : "1 pass",
                       to_string(workload.weight_format));
  } else {
    std::string task(to_string(workload.task));
    if (workload.is_adapter_tuning()) {
      task += fmt::format(" (rank {}, {} trainable)", workload.lora_rank, format_count(adapter_parameters(workload)));
    }
    text = fmt::format("Workload: {}, {} images × {} epochs at {}×{} px, {} {}, {}{}.\n", m.name, images,
                       format_general(workload.epochs), d.height, d.width, task, to_string(workload.precision),
                       to_string(workload.optimizer), d.cached ? ", latents and text embeddings cached" : "");
  }
  const double macs = denoiser_forward_macs(m, d.height, d.width);
  const char* denoiser = m.family == DenoiserFamily::unet  ? "a UNet"
                         : m.family == DenoiserFamily::dit ? "a diffusion transformer (DiT)"
                                                           : "a joint-attention transformer (MMDiT)";
  text += fmt::format("Model: {} of {} parameters, {} {} a pass", denoiser, format_count(m.denoiser_params),
                      format_general(macs >= 1e12 ? macs / 1e12 : macs / 1e9, 3), macs >= 1e12 ? "TMACs" : "GMACs");
  if (m.family != DenoiserFamily::unet) {
    text += fmt::format(" ({} tokens, {} blocks, hidden {})", format_general(denoiser_tokens(m, d.height, d.width)),
                        m.layers, m.hidden);
  }
  text += fmt::format("; text encoders {} ({} parameters); VAE {} parameters; micro-batch {} images per device",
                      m.text_encoders, format_count(m.text_encoder_params), format_count(m.vae_params),
                      workload.micro_batch);
  text += "; time each part's roofline of FLOPs and activation traffic.\n";
  return text;
}

// A speech job: the hours of audio as windows, the engine and beam for transcription or the
// clips for fine-tuning, and the model's two stacks (docs/methodology.md#speech).
std::string speech_workload_line(const Workload& workload) {
  const SpeechWorkload& s = *workload.speech;
  const SpeechModel& m = s.model;
  const bool transcription = workload.task == Task::inference;
  std::string text;
  if (transcription) {
    const SpeechEngineProfile& engine = speech_engine_profile(s.engine);
    text = fmt::format(
        "Workload: {}, transcribing {} hour{} of audio with {}: {} windows of 30 s (each {} s of new audio), "
        "beam {}, {} weights.\n",
        m.name, format_general(s.audio_hours), s.audio_hours == 1 ? "" : "s", to_string(s.engine),
        format_count(workload.tokens), format_general(engine.advance), s.beams, to_string(workload.weight_format));
  } else {
    std::string task(to_string(workload.task));
    if (workload.is_adapter_tuning()) {
      task += fmt::format(" (rank {}, {} trainable)", workload.lora_rank, format_count(adapter_parameters(workload)));
    }
    text = fmt::format("Workload: {}, {} hour{} of audio in clips of {} s ({} clips) × {} epochs, {} {}, {}.\n", m.name,
                       format_general(s.audio_hours), s.audio_hours == 1 ? "" : "s", format_general(s.clip_seconds),
                       format_count(workload.tokens / workload.epochs), format_general(workload.epochs), task,
                       to_string(workload.precision), to_string(workload.optimizer));
  }
  const double macs = speech_encoder_macs(m);
  text += fmt::format(
      "Model: an encoder of {} layers ({} parameters, {} {} a 30 s window over {} positions) and a decoder of {} "
      "layers ({} parameters), width {}, {} heads; {} transcript tokens a {}; micro-batch {} {} per device.\n",
      m.encoder_layers, format_count(speech_encoder_parameters(m)),
      format_general(macs >= 1e12 ? macs / 1e12 : macs / 1e9, 3), macs >= 1e12 ? "TMACs" : "GMACs", m.source_positions,
      m.decoder_layers, format_count(speech_decoder_parameters(m)), m.width, m.heads,
      format_general(s.transcript_tokens(transcription ? k_speech_window_seconds : s.clip_seconds), 3),
      transcription ? "window" : "clip", workload.micro_batch,
      transcription ? (workload.micro_batch == 1 ? "window" : "windows")
                    : (workload.micro_batch == 1 ? "clip" : "clips"));
  return text;
}

}  // namespace

std::string workload_line(const Workload& workload) {
  if (workload.task == Task::gbdt) {
    const double rows = gbdt_rows(workload);
    return fmt::format(
        "Workload: gradient-boosted trees, {}, on {} of data: {} rows × {} features, {} rounds of "
        "depth {}, {} bins.\n",
        gbdt_library_text(workload.library), format_bytes(gbdt_dataset_bytes(workload)), format_count(rows),
        format_count(workload.features), workload.rounds, workload.max_depth, workload.bins);
  }
  if (workload.vision) return vision_workload_line(workload);
  if (workload.diffusion) return diffusion_workload_line(workload);
  if (workload.speech) return speech_workload_line(workload);
  const Architecture& m = workload.model;
  std::string params = format_count(workload.parameters.total) + " parameters";
  if (workload.parameters.active < workload.parameters.total) {
    params += " (" + format_count(workload.parameters.active) + " active)";
  }
  const bool estimated_shape = m.name == k_estimated_model_name;
  std::string model = estimated_shape ? "" : m.name + ", ";
  std::string text;
  if (workload.task == Task::inference && workload.serving && workload.serving->offline()) {
    const ServingLoad& load = *workload.serving;
    // --rate max without --tokens: a million tokens without setup (serving_options.cpp).
    const bool per_million = load.saturated && workload.tokens == k_saturation_tokens && workload.setup_time.value == 0;
    const std::string job = per_million ? "at the saturated throughput (--rate max), costed per million output tokens"
                                        : "an offline job: " + format_count(workload.tokens) + " output tokens" +
                                              (load.saturated ? " at the saturated throughput (--rate max)" : "");
    text = fmt::format(
        "Workload: {}{}, {} in requests of {} prompt + {} output tokens with {} weights "
        "({} bits), {} KV cache; at most {} sequences per replica.\n",
        model, params, job, load.prompt_tokens, load.output_tokens, to_string(workload.weight_format),
        format_general(bits_per_weight(workload.weight_format)), to_string(workload.kv_format), load.max_batch);
  } else if (workload.task == Task::inference && workload.serving) {
    const ServingLoad& load = *workload.serving;
    std::vector<std::string> targets;
    if (load.ttft) targets.push_back("TTFT ≤ " + format_latency(*load.ttft));
    if (load.tpot) targets.push_back("TPOT ≤ " + format_latency(*load.tpot));
    const std::string what = load.sizing ? fmt::format("sizing one replica for {} sequences", k_sizing_sequences)
                                         : fmt::format("serving {} requests/s", format_general(load.requests_per_s, 4));
    text = fmt::format(
        "Workload: {}{}, {} of {} prompt + {} output tokens{} with {} weights ({} bits), {} KV "
        "cache; at most {} sequences per replica, replicas sized for {} utilisation.\n",
        model, params, what, load.prompt_tokens, load.output_tokens,
        targets.empty() ? "" : " (" + join(targets, ", ") + ")", to_string(workload.weight_format),
        format_general(bits_per_weight(workload.weight_format)), to_string(workload.kv_format), load.max_batch,
        format_percent(load.utilisation));
  } else if (workload.task == Task::inference) {
    text = fmt::format(
        "Workload: {}{}, inference with {} weights ({} bits), {} KV cache; context {}, batch {}; "
        "{} tokens to generate.\n",
        model, params, to_string(workload.weight_format), format_general(bits_per_weight(workload.weight_format)),
        to_string(workload.kv_format), workload.context, workload.batch, format_count(workload.tokens));
  } else {
    std::string data;
    const bool tokens_from_data =
        workload.dataset_bytes &&
        tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, workload.epochs) == workload.tokens;
    if (tokens_from_data) {
      data = fmt::format(" ({} GB at {} bytes/token", format_gb(*workload.dataset_bytes),
                         format_general(workload.bytes_per_token));
      data += workload.epochs == 1.0 ? ")" : fmt::format(", {} epochs)", format_general(workload.epochs));
    } else if (workload.dataset_bytes) {
      // --tokens beside --data: the tokens are not the data's at bytes_per_token.
      data = fmt::format(" (given; the dataset is {} GB{})", format_gb(*workload.dataset_bytes),
                         workload.epochs == 1.0 ? "" : fmt::format(", {} epochs", format_general(workload.epochs)));
    } else if (workload.epochs != 1.0) {
      data = fmt::format(" ({} epochs)", format_general(workload.epochs));
    }
    std::string task(to_string(workload.task));
    if (workload.is_adapter_tuning()) {
      task += fmt::format(" (rank {}, {} trainable)", workload.lora_rank, format_count(adapter_parameters(workload)));
    }
    const std::string tokens = workload.tokens > 0 ? format_count(workload.tokens) + " tokens" + data : "no data given";
    text = fmt::format("Workload: {}{}, {}, {} {}, {}.\n", model, params, tokens, task, to_string(workload.precision),
                       to_string(workload.optimizer));
  }
  // A shape guessed from --params says which released model it follows.
  text += fmt::format("Model shape{}: {} layers, hidden {}, {} heads ({} KV), {} attention{}",
                      estimated_shape ? " (" + m.source + ")" : "", m.layers + m.encoder_layers, m.hidden, m.heads,
                      m.kv_heads, to_string(workload.attention), m.mla ? " (MLA)" : "");
  if (workload.is_training()) {
    text += fmt::format("; sequence {}, micro-batch {}", workload.sequence_length, workload.micro_batch);
    if (workload.framework == Framework::hf) text += "; framework hf (autocast, fp32 weights)";
  }
  if (workload.task == Task::inference && !workload.mfu_pinned) {
    // docs/methodology.md#serving
    return text + fmt::format("; MFU {} (16-bit), {} (FP8) in a serving engine.\n", format_percent(k_serving_mfu_16bit),
                              format_percent(k_serving_mfu_fp8));
  }
  if (workload.mfu_pinned || !workload.is_training())
    return text + fmt::format("; MFU {}.\n", format_percent(workload.mfu));
  return text + fmt::format("; MFU {} on datacenter NVIDIA GPUs, scaled per software stack and generation.\n",
                            format_percent(workload.mfu));
}

}  // namespace mlsize::cli
