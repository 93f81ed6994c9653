#include "core/model/speech_config.hpp"

#include <mlsize/support/names.hpp>
#include <mlsize/support/utf8.hpp>

#include <string>

namespace mlsize {

std::optional<SpeechModel> speech_model_from_root(const ConfigText& source, const Json& root,
                                                  std::string_view source_name) {
  if (!root.is_object()) return std::nullopt;
  const ConfigReader config(source, root);
  if (config.text("model_type") != "whisper") return std::nullopt;
  SpeechModel model;
  model.width = config.required({"d_model"}, "the model's width");
  model.encoder_layers = config.required({"encoder_layers"}, "the encoder's layers");
  model.decoder_layers = config.required({"decoder_layers"}, "the decoder's layers");
  model.heads = config.required({"encoder_attention_heads"}, "the attention heads");
  model.ffn = config.required({"encoder_ffn_dim"}, "the MLP's width");
  if (const std::optional<int> decoder_ffn = config.count({"decoder_ffn_dim"});
      decoder_ffn && *decoder_ffn != model.ffn) {
    config.fail("decoder_ffn_dim", "\"decoder_ffn_dim\" differs from \"encoder_ffn_dim\": not supported",
                "every released Whisper has one MLP width (4 × d_model)");
  }
  if (model.width % model.heads != 0) {
    config.fail("encoder_attention_heads", "\"d_model\" is not a multiple of \"encoder_attention_heads\"");
  }
  model.mel_bins = config.count({"num_mel_bins"}).value_or(80);
  model.vocab = config.required({"vocab_size"}, "the vocabulary");
  model.source_positions = config.count({"max_source_positions"}).value_or(1500);
  model.target_positions = config.count({"max_target_positions"}).value_or(448);
  // 1,500 positions are 3,000 mel frames of 10 ms: the 30-second window everything is sized by.
  if (model.source_positions != 1500) {
    config.fail("max_source_positions", "\"max_source_positions\" is " + std::to_string(model.source_positions) +
                                            ": mlsize sizes Whisper's 30-second windows (1500)");
  }
  // The preset of the same shape lends its name and checkpoint.
  for (const SpeechModel& preset : speech_models()) {
    if (preset.width == model.width && preset.encoder_layers == model.encoder_layers &&
        preset.decoder_layers == model.decoder_layers && preset.heads == model.heads && preset.ffn == model.ffn &&
        preset.mel_bins == model.mel_bins && preset.vocab == model.vocab) {
      model.id = preset.id;
      model.name = preset.name;
      model.hub = preset.hub;
      model.source = preset.source + "; read from Hugging Face config " + escape_unprintable(source_name);
      return model;
    }
  }
  const std::string name_or_path = config.text("_name_or_path");
  model.id = name_or_path.empty() ? escape_unprintable(source_name) : escape_unprintable(name_or_path);
  model.name = model.id;
  model.source = "Hugging Face config " + escape_unprintable(source_name) + " (model_type whisper)";
  return model;
}

}  // namespace mlsize
