#pragma once
// Speech recognition models of the Whisper family (issue 50): an encoder over 30 seconds of
// audio (a log-mel spectrogram of 3,000 frames, two convolutions that halve it to 1,500
// positions, then transformer layers) and a text decoder that attends to those positions and
// writes the transcript a token at a time. Parameters, multiply-accumulates and activations
// from the structure (Radford et al. 2022, "Robust Speech Recognition via Large-Scale Weak
// Supervision", §2.2 and Table 1; openai/whisper model.py). Presets, engines and sources:
// docs/methodology.md#speech.

#include <mlsize/support/names.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace mlsize {

struct SpeechModel {
  std::string id;    // whisper-large-v3
  std::string name;  // Whisper large-v3
  int width = 0;     // d_model
  int encoder_layers = 0;
  int decoder_layers = 0;
  int heads = 0;
  int ffn = 0;                  // the MLP's inner width (4·d_model in every released size)
  int mel_bins = 80;            // 128 from large-v3
  int vocab = 51865;            // 51866 from large-v3 (one more language)
  int source_positions = 1500;  // encoder positions: 3,000 mel frames halved by the second convolution
  int target_positions = 448;   // the decoder's learned position table: the longest transcript of a window
  std::string source;
  std::string hub;  // the Hub checkpoint (openai/whisper-large-v3); empty for a model read from a config
};

// What runs the model. Each keeps its own defaults (beam width, windows at once, how far a
// window advances) and its own cost per decode step (estimate/speech.hpp).
// openai-whisper: the reference package's transcribe(): PyTorch eager, one window at a time,
//   beam search of 5 at temperature 0 (its command line's default), windows advancing 30 s.
// faster-whisper: CTranslate2 (C++), fp16 or int8 weights; its BatchedInferencePipeline
//   decodes several windows at once; beam 5.
// transformers: Hugging Face's pipeline("automatic-speech-recognition") with chunk_length_s=30
//   and batch_size: greedy, chunks of 30 s that advance 20 s (5 s strides each side).
enum class SpeechEngine { openai_whisper, faster_whisper, transformers };
constexpr auto enum_names(SpeechEngine) {
  using enum SpeechEngine;
  return std::to_array<EnumName<SpeechEngine>>(
      {{openai_whisper, "openai-whisper"}, {faster_whisper, "faster-whisper"}, {transformers, "transformers"}});
}

// Seconds of audio in one window: the encoder's fixed input.
inline constexpr double k_speech_window_seconds = 30;
// Text tokens per second of speech: about 150 words a minute of conversational English
// (2.5 a second) at 1.3 GPT-2 BPE tokens a word, plus the timestamp tokens Whisper writes at
// each segment's ends (two every few seconds): 3.5.
inline constexpr double k_speech_tokens_per_second = 3.5;

// A speech job: transcribing hours of audio (inference), or fine-tuning on them. Windows of
// 30 seconds stand for the tokens of the Workload (`tokens` is windows × epochs).
struct SpeechWorkload {
  SpeechModel model;
  double audio_hours = 0;
  SpeechEngine engine = SpeechEngine::faster_whisper;
  int beams = 5;  // beam width (--beam); 1: greedy
  // Text tokens the decoder writes per second of speech (docs/methodology.md#speech).
  double tokens_per_second = k_speech_tokens_per_second;
  // Fine-tuning: the seconds of each training clip (--clip-seconds). Every clip is padded to
  // a 30-second window, so the encoder's work is per clip; its transcript is the clip's.
  double clip_seconds = k_speech_window_seconds;
  // Tokens a window's (or a clip's) transcript has.
  double transcript_tokens(double seconds) const { return tokens_per_second * seconds; }
};

// Every built-in preset (src/core/model/speech_models.cpp).
std::span<const SpeechModel> speech_models();
// The preset with this id or Hub name (whisper-large-v3, openai/whisper-large-v3), or nothing.
const SpeechModel* find_speech_model(std::string_view id);

// Parameters from the structure: the encoder's two convolutions, its sinusoidal position
// table (stored, not trained) and layers; the decoder's token embedding (tied to the output
// projection), learned positions and layers (self-attention, cross-attention, MLP); LayerNorms
// with biases; no bias on the key projections.
double speech_encoder_parameters(const SpeechModel& model);
double speech_decoder_parameters(const SpeechModel& model);
double speech_parameters(const SpeechModel& model);

// Forward multiply-accumulates of the encoder on one window: the convolutions over 3,000 and
// 1,500 frames, 4·d² + 2·d·f per position and layer, and 2·n²·d per layer for QKᵀ and the
// product with V.
double speech_encoder_macs(const SpeechModel& model);
// The decoder's cross-attention keys and values of one window, computed once from the
// encoder's output: 2·d² per position and layer.
double speech_cross_kv_macs(const SpeechModel& model);
// One decoded token: 6·d² + 2·d·f per layer (self-attention's four projections, the
// cross-attention's query and output), attention over `context` earlier tokens and the
// window's positions, and the output projection onto the vocabulary.
double speech_token_macs(const SpeechModel& model, double context);

// Elements of the cross-attention keys and values one sequence keeps for a window (2 per
// layer, position and channel), and of its self-attention cache at `tokens`.
double speech_cross_kv_elements(const SpeechModel& model);
double speech_self_kv_elements(const SpeechModel& model, double tokens);

// Output elements of the layers of one training sample (a window and `tokens` of its
// transcript) that a backward pass reads: 17·n·d per encoder layer (Korthikanti et al. 2022
// §4.1's 34·s·h bytes in 16 bits, fused attention), 20·t·d per decoder layer and its
// cross-attention's keys and values of the window, the convolutions' outputs, and the logits
// (3 per token and vocabulary entry: 16-bit logits and their fp32 copy for the loss).
// With recompute, each layer's input and one layer's full set.
double speech_activation_elements(const SpeechModel& model, double tokens, bool recompute);

// Parameters LoRA adds at `rank` on the query and value projections of every attention (the
// encoder's self-attention, the decoder's self- and cross-attention), as PEFT's Whisper
// recipe targets them (target_modules=["q_proj", "v_proj"]): rank · 2·d each.
double speech_lora_parameters(const SpeechModel& model, int rank);

}  // namespace mlsize
