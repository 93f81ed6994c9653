#include <mlsize/estimate/speech.hpp>

#include "core/estimate/roofline.hpp"

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/vision.hpp>

#include <algorithm>
#include <array>

namespace mlsize {
namespace {

// Eager PyTorch dispatches each of a decoder layer's ~20 kernels from Python at ~10 µs.
constexpr Seconds k_eager_layer_overhead{200e-6};

// Each engine's one fitted constant is set by one figure of the fitting set
// (tests/speech/figures.csv, docs/methodology.md#speech-time); the rest is sourced.
const std::array<SpeechEngineProfile, 3> k_profiles{{
    // openai-whisper's transcribe(), one window at a time: beam 5 is its command line's
    // default (--beam_size 5); log_mel_spectrogram runs torch.stft on the GPU. Its time
    // grows with the decoder's layers (README: tiny ~10x, base ~7x, small ~4x, medium ~2x the
    // speed of large), so its fixed cost is per layer. Fitted: W5, large-v2 in fp16 on an
    // RTX 3070 Ti, 13 min of audio in 2 min 23 s (faster-whisper README).
    {5, 1, 30, true, Seconds(1.406e-3), Seconds(0), true, Seconds(0), false,
     "openai/whisper transcribe.py (beam 5 from its CLI), model.py; fitted to faster-whisper README @65882ee L24"},
    // faster-whisper's BatchedInferencePipeline (batch_size 16 by default in its transcribe);
    // CTranslate2 runs the step in C++, its cost the layers' kernels. The numpy log-mel
    // extractor takes 10.36 ms per 30 s on 4 cores (faster-whisper PR #1106). Fitted: W7,
    // large-v2 fp16, batch 8, RTX 3070 Ti, 13 min in 17 s.
    {5, 16, 30, false, Seconds(1.019e-3), Seconds(0), false, Seconds(10.36e-3), true,
     "SYSTRAN/faster-whisper BatchedInferencePipeline; fitted to its README @65882ee L28"},
    // transformers' pipeline with chunk_length_s=30: chunks overlap by stride_length_s =
    // chunk_length_s / 6 on each side (its default), so each brings 20 s of new audio; greedy
    // unless num_beams is set; WhisperFeatureExtractor's numpy log-mel (the extractor
    // faster-whisper ported: 39.55 ms per 30 s on 4 cores, PR #1106). generate() spends most
    // of a step in Python whatever the depth (distil-large-v2's 2 decoder layers take 80% of
    // large-v3's 32 layers' time), so its fixed cost is per step. Batches of 24 as
    // insanely-fast-whisper runs them; the search goes to 32. Fitted: Q4-3, distil-large-v2
    // fp16 with Flash Attention 2, batch 24, A100 80GB, 150 min in 78 s.
    {1, 32, 20, true, k_eager_layer_overhead, Seconds(26.57e-3), false, Seconds(39.55e-3), false,
     "transformers AutomaticSpeechRecognitionPipeline (chunk strides); fitted to insanely-fast-whisper README "
     "@9350efc"},
}};

double element_bytes(const Workload& w) {
  if (w.is_training()) return w.precision == Precision::fp32 ? 4.0 : 2.0;
  return w.weight_format == WeightFormat::fp32 ? 4.0 : 2.0;
}

// openai-whisper computing in fp16 on a GPU from the fp32 weights it loads.
bool casts_weights(const SpeechEngineProfile& engine, const Workload& w, const Device& device) {
  return engine.casts_weights && w.weight_format == WeightFormat::fp32 && device.kind != DeviceKind::cpu;
}

// Bytes of an activation or cached key: the weights' width, but fp16 where openai-whisper
// casts its fp32 weights (the memory estimate takes its GPU path; on a CPU it runs fp32).
double activation_element_bytes(const SpeechEngineProfile& engine, const Workload& w) {
  return engine.casts_weights && w.weight_format == WeightFormat::fp32 ? 2.0 : element_bytes(w);
}

// Decode steps per window: its transcript's tokens. The cache each step attends to grows
// from none to all of them: half on average.
double decode_steps(const SpeechWorkload& s) {
  return s.transcript_tokens(k_speech_window_seconds);
}

// A training clip's forward MACs: the encoder on its padded window, the cross-attention
// keys and values, every token of its transcript at once.
double clip_forward_macs(const SpeechWorkload& s) {
  const double tokens = s.transcript_tokens(s.clip_seconds);
  return speech_encoder_macs(s.model) + speech_cross_kv_macs(s.model) + tokens * speech_token_macs(s.model, tokens / 2);
}

// FLOPs per window: a training clip's step, or a transcribed window's encoder and decode.
double flops_per_window(const Workload& w) {
  const SpeechWorkload& s = *w.speech;
  if (w.is_training()) return (w.is_adapter_tuning() ? 4.0 : 6.0) * clip_forward_macs(s);
  const double steps = decode_steps(s);
  return 2 * (speech_encoder_macs(s.model) + speech_cross_kv_macs(s.model) +
              steps * s.beams * speech_token_macs(s.model, steps / 2));
}

}  // namespace

const SpeechEngineProfile& speech_engine_profile(SpeechEngine engine) {
  return k_profiles[static_cast<std::size_t>(engine)];
}

bool speech_engine_runs_on(SpeechEngine engine, const Device& device) {
  const Stack stack = stack_of(device);
  const bool nvidia = stack == Stack::cuda || stack == Stack::cuda_consumer;
  if (engine == SpeechEngine::faster_whisper) return nvidia || stack == Stack::cpu;
  return nvidia || stack == Stack::rocm || stack == Stack::mps || stack == Stack::cpu;
}

double speech_windows(const Workload& w) {
  const SpeechWorkload& s = *w.speech;
  const double seconds = s.audio_hours * k_seconds_per_hour;
  if (w.is_training()) return seconds / s.clip_seconds * w.epochs;
  return seconds / speech_engine_profile(s.engine).advance;
}

SpeechBatch speech_batch(const Device& device, const Workload& w) {
  const SpeechWorkload& s = *w.speech;
  const SpeechModel& m = s.model;
  const SpeechEngineProfile& engine = speech_engine_profile(s.engine);
  Roofline r = roofline_of(device, w);
  double bytes = element_bytes(w);
  double weight_traffic = bits_per_weight(w.weight_format) / 8;
  if (casts_weights(engine, w, device)) {
    // fp32 weights computed in fp16: each weight read, written as fp16 and read again.
    r.peak = device.peak(DType::fp16).value_or(0) * k_vision_compute_efficiency;
    bytes = activation_element_bytes(engine, w);
    weight_traffic = 4 + 2 + 2;
  }
  const double stack = std::max(1e-9, stack_efficiency(stack_of(device)));
  SpeechBatch batch;
  batch.batch = std::max(1, w.micro_batch);
  batch.beams = s.beams;
  batch.steps = decode_steps(s);
  const double windows = batch.batch;
  const double sequences = windows * s.beams;
  batch.host = Seconds(windows * engine.window_overhead.value);
  const Part encoder{2 * (speech_encoder_macs(m) + speech_cross_kv_macs(m)),
                     17.0 * m.source_positions * m.width * m.encoder_layers * bytes * k_vision_traffic_per_activation *
                         k_vision_inference_traffic_share};
  batch.encoder = Seconds(windows * r.seconds(encoder) / stack);
  // A step reads the decoder's weights once for the batch, and every sequence's keys and
  // values: the window's cross-attention ones (one copy a window, or one a beam) and its own,
  // half the transcript on average.
  const double cross_copies = engine.cross_kv_per_beam ? sequences : windows;
  const double read = speech_decoder_parameters(m) * weight_traffic +
                      cross_copies * speech_cross_kv_elements(m) * bytes +
                      sequences * speech_self_kv_elements(m, batch.steps / 2) * bytes;
  const double bandwidth = r.bandwidth * w.bandwidth_efficiency;
  const double memory = bandwidth > 0 ? read / bandwidth : 0;
  const double compute = r.peak > 0 ? 2 * sequences * speech_token_macs(m, batch.steps / 2) / r.peak : 0;
  batch.step = Seconds(std::max(memory, compute) / stack + engine.step_overhead.value +
                       m.decoder_layers * engine.layer_overhead.value);
  return batch;
}

double speech_efficiency(const Device& device, const Workload& w) {
  return speech_efficiency(device, w, speech_batch(device, w));
}

double speech_efficiency(const Device& device, const Workload& w, const SpeechBatch& batch) {
  const std::optional<DType> dtype = compute_dtype(device, w);
  const std::optional<double> peak = dtype ? device.peak(*dtype) : std::nullopt;
  const double seconds = batch.latency().value / batch.batch;
  if (!peak || *peak <= 0 || seconds <= 0) return k_vision_compute_efficiency;
  return flops_per_window(w) / (*peak * seconds);
}

Flops speech_run_flops(const Workload& w, Recompute recompute) {
  double per_window = flops_per_window(w);
  // Full recomputation runs the forward again.
  if (w.is_training() && recompute == Recompute::full) per_window += 2 * clip_forward_macs(*w.speech);
  return Flops(per_window * w.tokens);
}

Bytes speech_activation_bytes(const Workload& w, const Strategy& st) {
  const SpeechWorkload& s = *w.speech;
  const double clips = st.micro_batch > 0 ? st.micro_batch : w.micro_batch;
  return Bytes(
      clips *
      speech_activation_elements(s.model, s.transcript_tokens(s.clip_seconds), st.recompute == Recompute::full) *
      element_bytes(w));
}

Bytes speech_inference_cache_bytes(const Workload& w) {
  const SpeechWorkload& s = *w.speech;
  const double windows = std::max(1, w.micro_batch);
  const double sequences = windows * s.beams;
  const double cross_copies = speech_engine_profile(s.engine).cross_kv_per_beam ? sequences : windows;
  // The engines grow the self-attention cache with the transcript (torch.cat in
  // openai-whisper's hooks, transformers' DynamicCache, CTranslate2's): its length at the end.
  const double bytes = activation_element_bytes(speech_engine_profile(s.engine), w);
  return Bytes((cross_copies * speech_cross_kv_elements(s.model) +
                sequences * speech_self_kv_elements(s.model, decode_steps(s))) *
               bytes);
}

Bytes speech_inference_activation_bytes(const Workload& w) {
  const SpeechModel& m = w.speech->model;
  // One encoder layer at a time over the batch: its input, the attention's q, k, v and
  // output, and the MLP's inner width (4·d + 4·d per position with f = 4·d).
  const double windows = std::max(1, w.micro_batch);
  return Bytes(windows * m.source_positions * (5.0 * m.width + m.ffn) *
               activation_element_bytes(speech_engine_profile(w.speech->engine), w));
}

}  // namespace mlsize
