#pragma once
// Whisper configs (transformers' WhisperConfig) read by model_config.cpp's
// model_from_hf_config (speech_config.cpp). Private to the core.

#include "core/model/config_reader.hpp"

#include <mlsize/model/speech.hpp>

#include <optional>
#include <string_view>

namespace mlsize {

// A config.json of model_type "whisper": its shape (d_model, layers, heads, MLP width, mel
// bins, vocabulary), named as the preset it matches; nothing for another model type.
std::optional<SpeechModel> speech_model_from_root(const ConfigText& source, const Json& root,
                                                  std::string_view source_name);

}  // namespace mlsize
