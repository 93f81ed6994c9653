#pragma once
// Model shapes from Hugging Face transformers `config.json` text, and the built-in presets.

#include <mlsize/model/architecture.hpp>
#include <mlsize/model/diffusion.hpp>
#include <mlsize/model/speech.hpp>
#include <mlsize/model/vision.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mlsize {

// Larger config texts are refused before parsing (a real config.json is a few KiB).
inline constexpr std::size_t k_max_config_bytes = 4 * 1024 * 1024;
// Deeper nesting is refused before parsing: nlohmann::json recurses without a limit.
inline constexpr int k_max_config_nesting = 64;
// Larger dimensions (width, layers, heads, vocabulary, ...) are refused as implausible.
inline constexpr double k_max_config_dimension = 1e7;

// The shape described by a transformers config.json. Reads the key names of each
// model family (n_embd, d_model, num_local_experts, kv_lora_rank, ...); an unknown
// model_type is read as a llama-like decoder and `source` says so. `source_name`
// names the text in errors. Throws Error (input) with file:line:column and a hint.
Architecture architecture_from_hf_config(std::string_view json_text, std::string_view source_name);

// A config.json parsed once: a diffusers one (diffusion_config.hpp), a vision model's (ViT
// and DeiT read; other vision families such as swin, convnext, resnet refused by name with the
// preset to use), a Whisper's (speech_config.hpp) or a language model's
// (architecture_from_hf_config).
using ModelFromConfig = std::variant<Architecture, VisionModel, DiffusionModel, SpeechModel>;
ModelFromConfig model_from_hf_config(std::string_view json_text, std::string_view source_name);

// The built-in model called `name` (data/models/<name>.json), or nothing: read from the
// snapshot the build made of the presets (model_snapshot.hpp), no JSON is parsed.
std::optional<Architecture> model_preset(std::string_view name);

// The same parsed from its embedded config.json with every check: what the build's
// snapshot is made from, and what tests compare it with.
std::optional<Architecture> load_model_preset_json(std::string_view name);

// The Hugging Face checkpoint a preset's config belongs to ("meta-llama/Llama-2-7b-hf");
// empty for a name that is no preset.
std::string_view preset_model_id(std::string_view name);

// The preset names, sorted.
std::vector<std::string> model_preset_names();

}  // namespace mlsize
