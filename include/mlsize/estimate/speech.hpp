#pragma once
// Transcription and fine-tuning time and memory of a Whisper-family model
// (docs/methodology.md#speech): the encoder's FLOPs per 30-second window on the roofline the
// vision models are fitted to, then the decoder's steps, each reading its weights and every
// sequence's cross-attention keys and values at the memory bandwidth, plus what the engine
// spends per step and per layer.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <string_view>

namespace mlsize {

struct SpeechEngineProfile {
  int beams = 1;       // the default beam width
  int max_batch = 1;   // windows decoded at once: the largest batch the search tries
  double advance = 0;  // seconds of new audio each window brings (30; 20 with 5-second strides)
  // Beam search repeats each window's encoder output per beam (openai-whisper's
  // repeat_interleave, transformers' expand): the cross-attention keys and values are kept
  // and read once per beam. CTranslate2 keeps one copy a window (faster-whisper's VRAM: +224 MB
  // a window from 1 to 8, one large-v2 copy's 246 MB; W6 against W7).
  bool cross_kv_per_beam = true;
  // A decoder layer's fixed cost in a step beyond its bytes and FLOPs: its ~20 small kernels'
  // launches and latencies, and for eager PyTorch their Python dispatch and the KV-cache hooks.
  Seconds layer_overhead;
  // The work per decode step besides its layers: the search's bookkeeping and logit filters
  // on the host.
  Seconds step_overhead;
  // openai-whisper keeps the checkpoint's weights in fp32 (load_model) and casts each to
  // fp16 as it is used (whisper/model.py's Linear: F.linear(x, self.weight.to(x.dtype))): a
  // decode step reads 4 bytes a weight, writes 2 and reads them again.
  bool casts_weights = false;
  // The host's work per window before the encoder: its log-mel features (numpy on the CPU for
  // faster-whisper and transformers; torch on the GPU for openai-whisper).
  Seconds window_overhead;
  bool int8 = false;  // int8 weights (CTranslate2's int8_float16)
  std::string_view source;
};

const SpeechEngineProfile& speech_engine_profile(SpeechEngine engine);

// Whether the engine runs on the device's stack: CTranslate2 (faster-whisper) on NVIDIA GPUs
// and CPUs only; PyTorch's (openai-whisper, transformers) on NVIDIA and AMD GPUs, Apple's
// and CPUs, not on TPUs, Trainium or Gaudi without their own ports.
bool speech_engine_runs_on(SpeechEngine engine, const Device& device);

// Windows in the job: training clips (each padded to one window) × epochs, or the windows the
// engine cuts the audio into.
double speech_windows(const Workload& workload);

// One device transcribing a batch of windows (Workload::micro_batch): the time from their
// features to their transcripts, what each part takes, and the audio it gets through.
struct SpeechBatch {
  int batch = 1;
  int beams = 1;
  double steps = 0;    // decode steps: the tokens of a window's transcript
  Seconds host{0};     // the windows' features on the host
  Seconds encoder{0};  // the encoder and the cross-attention keys and values
  Seconds step{0};     // one decode step: bytes or FLOPs, and the engine's fixed costs
  Seconds latency() const { return Seconds(host.value + encoder.value + steps * step.value); }
  // Seconds of audio per second of wall time (the real-time factor's inverse).
  double speed(double advance) const { return latency().value > 0 ? batch * advance / latency().value : 0; }
};
SpeechBatch speech_batch(const Device& device, const Workload& workload);

// The share of the peak a speech job runs at on `device`: transcription, its FLOPs per window
// over the batch's time per window; fine-tuning, the language models' (effective_mfu).
double speech_efficiency(const Device& device, const Workload& workload);
// The same from a batch already timed (the planner's, which it also reports).
double speech_efficiency(const Device& device, const Workload& workload, const SpeechBatch& batch);

// FLOPs of the whole run: per window, the encoder, the cross-attention projections and each
// token's decoder pass (× beams in transcription); training 6·MACs (4 for adapters, 8 with
// full recomputation).
Flops speech_run_flops(const Workload& workload, Recompute recompute);

// Activation bytes a training device saves for its micro-batch of clips
// (speech_activation_elements at the precision's width).
Bytes speech_activation_bytes(const Workload& workload, const Strategy& strategy);

// Transcription's memory beyond the weights: every sequence's cross-attention keys and
// values and self-attention cache in 16 bits, and the encoder's live tensors over the batch.
Bytes speech_inference_cache_bytes(const Workload& workload);
Bytes speech_inference_activation_bytes(const Workload& workload);

// A transcription plan's figures (PlanEstimate::speech).
struct SpeechRun {
  SpeechBatch batch;
  double windows = 0;      // in the job
  double audio_speed = 0;  // seconds of audio per second, all the plan's devices together
};

}  // namespace mlsize
