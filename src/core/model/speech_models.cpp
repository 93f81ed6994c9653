#include <mlsize/model/speech.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace mlsize {
namespace {

// openai/whisper's ModelDimensions per size (whisper/__init__.py's checkpoints; the Hub
// config.json of each: d_model, encoder_layers, decoder_layers, encoder_attention_heads,
// encoder_ffn_dim, num_mel_bins, vocab_size; bench/results/issue50-published-figures.md
// A29-A33). large-v3 takes 128 mel bins and one more token (Cantonese); turbo and the
// distilled models keep large-v3's encoder under 4 and 2 decoder layers.
constexpr std::string_view k_openai_source =
    "openai/whisper README @c0d2f62 (sizes) and the Hub config.json (d_model, layers, heads, mel bins, vocab)";
constexpr std::string_view k_distil_source =
    "huggingface/distil-whisper README @cc96130 (large-v3's encoder, 2 decoder layers; 756 M parameters)";

const std::array<SpeechModel, 9>& models() {
  // clang-format off
  static const std::array<SpeechModel, 9> k_models{{
    {"whisper-tiny", "Whisper tiny", 384, 4, 4, 6, 1536, 80, 51865, 1500, 448, std::string(k_openai_source), "openai/whisper-tiny"},
    {"whisper-base", "Whisper base", 512, 6, 6, 8, 2048, 80, 51865, 1500, 448, std::string(k_openai_source), "openai/whisper-base"},
    {"whisper-small", "Whisper small", 768, 12, 12, 12, 3072, 80, 51865, 1500, 448, std::string(k_openai_source), "openai/whisper-small"},
    {"whisper-medium", "Whisper medium", 1024, 24, 24, 16, 4096, 80, 51865, 1500, 448, std::string(k_openai_source), "openai/whisper-medium"},
    {"whisper-large-v2", "Whisper large-v2", 1280, 32, 32, 20, 5120, 80, 51865, 1500, 448, std::string(k_openai_source), "openai/whisper-large-v2"},
    {"whisper-large-v3", "Whisper large-v3", 1280, 32, 32, 20, 5120, 128, 51866, 1500, 448, std::string(k_openai_source), "openai/whisper-large-v3"},
    {"whisper-large-v3-turbo", "Whisper large-v3-turbo", 1280, 32, 4, 20, 5120, 128, 51866, 1500, 448, std::string(k_openai_source), "openai/whisper-large-v3-turbo"},
    {"distil-large-v2", "Distil-Whisper large-v2", 1280, 32, 2, 20, 5120, 80, 51865, 1500, 448, std::string(k_distil_source), "distil-whisper/distil-large-v2"},
    {"distil-large-v3", "Distil-Whisper large-v3", 1280, 32, 2, 20, 5120, 128, 51866, 1500, 448, std::string(k_distil_source), "distil-whisper/distil-large-v3"},
  }};
  // clang-format on
  return k_models;
}

// The names people type: openai-whisper's own (large, turbo), the Hub repositories' last part.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> k_aliases{{
    {"whisper-large", "whisper-large-v2"},  // large-v1 has large-v2's shape
    {"whisper-large-v1", "whisper-large-v2"},
    {"whisper-turbo", "whisper-large-v3-turbo"},
    {"large-v3", "whisper-large-v3"},
    {"distil-whisper-large-v3", "distil-large-v3"},
    {"distil-whisper-large-v2", "distil-large-v2"},
}};

// Self-attention's four projections (biases on q, v and the output, none on k) and two
// LayerNorms with biases.
double attention_parameters(double d) {
  return 4 * d * d + 3 * d;
}
double mlp_parameters(double d, double f) {
  return 2 * d * f + f + d;
}

}  // namespace

std::span<const SpeechModel> speech_models() {
  return models();
}

const SpeechModel* find_speech_model(std::string_view id) {
  std::string lower(id);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto find = [](std::string name) -> const SpeechModel* {
    for (const auto& [alias, target] : k_aliases) {
      if (name == alias) name = target;
    }
    const std::array<SpeechModel, 9>& all = models();
    const auto found = std::find_if(all.begin(), all.end(), [&](const SpeechModel& m) { return m.id == name; });
    return found == all.end() ? nullptr : &*found;
  };
  if (const SpeechModel* model = find(lower)) return model;
  // A Hub repository's name without its organisation: openai/whisper-large-v3.
  const std::size_t slash = lower.rfind('/');
  return slash == std::string::npos ? nullptr : find(lower.substr(slash + 1));
}

double speech_encoder_parameters(const SpeechModel& m) {
  const double d = m.width;
  const double f = m.ffn;
  const double convolutions = (m.mel_bins * 3.0 * d + d) + (d * 3.0 * d + d);
  const double layer = attention_parameters(d) + mlp_parameters(d, f) + 2 * 2 * d;
  return convolutions + m.source_positions * d + m.encoder_layers * layer + 2 * d;
}

double speech_decoder_parameters(const SpeechModel& m) {
  const double d = m.width;
  const double f = m.ffn;
  // Self- and cross-attention, three LayerNorms.
  const double layer = 2 * attention_parameters(d) + mlp_parameters(d, f) + 3 * 2 * d;
  return static_cast<double>(m.vocab) * d + m.target_positions * d + m.decoder_layers * layer + 2 * d;
}

double speech_parameters(const SpeechModel& m) {
  return speech_encoder_parameters(m) + speech_decoder_parameters(m);
}

double speech_encoder_macs(const SpeechModel& m) {
  const double d = m.width;
  const double n = m.source_positions;
  // Kernel 3: the first convolution over 2·n mel frames, the second (stride 2) gives n.
  const double convolutions = 2 * n * m.mel_bins * 3 * d + n * d * 3 * d;
  return convolutions + m.encoder_layers * (n * (4 * d * d + 2 * d * m.ffn) + 2 * n * n * d);
}

double speech_cross_kv_macs(const SpeechModel& m) {
  return m.decoder_layers * 2.0 * m.source_positions * m.width * m.width;
}

double speech_token_macs(const SpeechModel& m, double context) {
  const double d = m.width;
  const double per_layer = 6 * d * d + 2 * d * m.ffn + 2 * (context + m.source_positions) * d;
  return m.decoder_layers * per_layer + static_cast<double>(m.vocab) * d;
}

double speech_cross_kv_elements(const SpeechModel& m) {
  return 2.0 * m.decoder_layers * m.source_positions * m.width;
}

double speech_self_kv_elements(const SpeechModel& m, double tokens) {
  return 2.0 * m.decoder_layers * tokens * m.width;
}

double speech_activation_elements(const SpeechModel& m, double tokens, bool recompute) {
  const double d = m.width;
  const double n = m.source_positions;
  // The convolutions' outputs and their GELUs: 2·n frames then n positions.
  const double stem = 2 * (2 * n * d + n * d);
  const double logits = 3 * tokens * m.vocab;
  const double encoder_layer = 17 * n * d;
  const double decoder_layer = 20 * tokens * d + 2 * n * d;
  if (!recompute) return stem + logits + m.encoder_layers * encoder_layer + m.decoder_layers * decoder_layer;
  // Gradient checkpointing per layer (transformers' gradient_checkpointing_enable): each
  // layer's input, and the largest layer's outputs while it is recomputed.
  return stem + logits + m.encoder_layers * n * d + m.decoder_layers * tokens * d +
         std::max(encoder_layer, decoder_layer);
}

double speech_lora_parameters(const SpeechModel& m, int rank) {
  const double attentions = m.encoder_layers + 2.0 * m.decoder_layers;
  return attentions * 2 * rank * 2.0 * m.width;
}

}  // namespace mlsize
