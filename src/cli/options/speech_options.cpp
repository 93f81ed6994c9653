#include "cli/options/speech_options.hpp"

#include "cli/options/choice.hpp"

#include <mlsize/estimate/speech.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>

#include <fmt/format.h>

#include <utility>

namespace mlsize::cli {

// Stored audio per second for the rules' data-size tiers and the disk: 16 kHz 16-bit mono,
// the rate Whisper's features are computed at.
constexpr double k_audio_bytes_per_second = 16'000 * 2;

void set_speech_model(const SpeechModel& model, Workload& workload) {
  if (workload.task == Task::gbdt) {
    flag_error("--task", "speech models are sized for pretrain, finetune, lora, qlora and inference (transcription)",
               "drop --task, or give --task finetune or inference");
  }
  workload.speech = SpeechWorkload{model};
  workload.model = Architecture{};
  workload.model.name = model.name;
  workload.model.family = "whisper";
  workload.model.source = model.source;
  workload.model.hidden = model.width;
  workload.model.heads = model.heads;
  workload.model.layers = model.decoder_layers;
  workload.model.encoder_layers = model.encoder_layers;
  workload.model.vocab = model.vocab;
  workload.parameters.total = workload.parameters.active = workload.parameters.linear = speech_parameters(model);
  workload.sequence_length = 1;
  workload.attention = Attention::flash;  // transformers' SDPA, its default since 4.36
  workload.framework = Framework::hf;     // Seq2SeqTrainer: fp32 weights under autocast
  workload.optimizer = Optimizer::adamw;
  // Clips per device per step: Hugging Face's fine-tuning recipe (per_device_train_batch_size
  // 16; huggingface/blog fine-tune-whisper.md), which the search halves; one window at a time
  // for transcription until the search batches them.
  workload.micro_batch = workload.task == Task::inference ? 1 : 16;
}

void check_speech_flags(const WorkloadOptions& options, const Workload& workload) {
  if (workload.speech) return;
  for (const auto& [given, flag] :
       {std::pair{options.audio_hours.has_value(), "--audio-hours"}, std::pair{options.beam.has_value(), "--beam"},
        std::pair{options.clip_seconds.has_value(), "--clip-seconds"}}) {
    if (given) flag_error(flag, std::string(flag) + " is for speech models", "give --model whisper-large-v3, ...");
  }
}

void resolve_speech(const WorkloadOptions& options, Workload& workload) {
  SpeechWorkload& s = *workload.speech;
  const bool transcription = workload.task == Task::inference;
  for (const auto& [given, flag] :
       {std::pair{options.tokens.has_value(), "--tokens"}, std::pair{options.data.has_value(), "--data"},
        std::pair{options.images.has_value(), "--images"}, std::pair{options.rate.has_value(), "--rate"}}) {
    if (given) flag_error(flag, "a speech model is sized by its hours of audio", "give --audio-hours (e.g. 1000)");
  }
  if (!options.audio_hours) {
    flag_error("--audio-hours", "the hours of audio are missing",
               transcription ? "give --audio-hours (e.g. 1000 to transcribe)"
                             : "give --audio-hours (e.g. 10, the training set's length)");
  }
  s.audio_hours = parse_flag(
      "--audio-hours", [&] { return parse_positive_number(*options.audio_hours, "a number of hours, e.g. 1000"); });
  if (options.engine) s.engine = parse_choice<SpeechEngine>("--engine", *options.engine);
  const SpeechEngineProfile& engine = speech_engine_profile(s.engine);
  // openai-whisper's load_model keeps the weights in fp32 (casting each as it is used);
  // --quant fp16 stands for model.half().
  // The others run fp16 (CTranslate2's "default" compute type on CUDA, transformers' examples' torch_dtype).
  if (transcription && !options.quant) {
    workload.weight_format = engine.casts_weights ? WeightFormat::fp32 : WeightFormat::fp16;
  }
  s.beams = options.beam ? parse_int_flag(*options.beam, "--beam", 1, 16) : engine.beams;
  if (options.clip_seconds) {
    if (transcription) flag_error("--clip-seconds", "--clip-seconds describes training clips", "drop it");
    s.clip_seconds = parse_flag("--clip-seconds", [&] {
      const double seconds = parse_positive_number(*options.clip_seconds, "seconds from above 0 to 30");
      if (seconds > k_speech_window_seconds) {
        throw Error(ErrorKind::usage, "\"" + *options.clip_seconds + "\" is longer than Whisper's 30-second window",
                    "cut longer audio into clips of at most 30 s");
      }
      return seconds;
    });
  }
  if (transcription && options.epochs) flag_error("--epochs", "transcription reads the audio once", "drop --epochs");
  if (transcription && workload.weight_format != WeightFormat::bf16 && workload.weight_format != WeightFormat::fp16 &&
      !(engine.int8 && workload.weight_format == WeightFormat::int8) && workload.weight_format != WeightFormat::fp32) {
    flag_error("--quant",
               fmt::format("{} runs Whisper in fp16 or fp32{}", to_string(s.engine), engine.int8 ? ", or int8" : ""),
               "give --quant fp16, or --engine faster-whisper --quant int8");
  }
  workload.tokens = speech_windows(workload);
  workload.dataset_bytes = Bytes(s.audio_hours * k_seconds_per_hour * k_audio_bytes_per_second);
}

}  // namespace mlsize::cli
