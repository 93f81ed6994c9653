#include <mlsize/model/model_config.hpp>

#include <mlsize/support/embedded_data.hpp>

#include <algorithm>
#include <array>
#include <utility>

namespace mlsize {
namespace {

// The Hugging Face checkpoint each preset's config belongs to (data/models/README.md).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> k_preset_models{{
    {"bert-base", "google-bert/bert-base-uncased"},
    {"deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite"},
    {"falcon-7b", "tiiuae/falcon-7b"},
    {"flan-t5-base", "google/flan-t5-base"},
    {"gemma-2-9b", "google/gemma-2-9b"},
    {"gpt2", "openai-community/gpt2"},
    {"llama-2-13b", "meta-llama/Llama-2-13b-hf"},
    {"llama-2-70b", "meta-llama/Llama-2-70b-hf"},
    {"llama-2-7b", "meta-llama/Llama-2-7b-hf"},
    {"llama-3-70b", "meta-llama/Meta-Llama-3-70B"},
    {"llama-3-8b", "meta-llama/Meta-Llama-3-8B"},
    {"llama-3.1-70b", "meta-llama/Meta-Llama-3.1-70B"},
    {"mistral-7b", "mistralai/Mistral-7B-v0.1"},
    {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1"},
    {"phi-3-mini", "microsoft/Phi-3-mini-4k-instruct"},
    {"qwen1.5-moe-a2.7b", "Qwen/Qwen1.5-MoE-A2.7B"},
    {"qwen2-7b", "Qwen/Qwen2-7B"},
    {"t5-base", "google-t5/t5-base"},
}};

constexpr std::string_view k_json_suffix = ".json";

// The preset name of an embedded file, or "" for a file that is not a config.
std::string_view preset_name(std::string_view file_name) {
  if (!file_name.ends_with(k_json_suffix)) return {};
  return file_name.substr(0, file_name.size() - k_json_suffix.size());
}

}  // namespace

std::string_view preset_model_id(std::string_view name) {
  for (const auto& [preset, model] : k_preset_models) {
    if (preset == name) return model;
  }
  return {};
}

std::optional<Architecture> load_model_preset_json(std::string_view name) {
  for (const EmbeddedFile& file : model_preset_files()) {
    if (name.empty() || preset_name(file.name) != name) continue;
    Architecture a = architecture_from_hf_config(file.text, "<embedded>/data/models/" + std::string(file.name));
    a.name = std::string(name);
    a.source = "preset " + a.name;
    if (const std::string_view model = preset_model_id(name); !model.empty()) {
      a.source += " (" + std::string(model) + " config.json)";
    }
    a.source += ", data/models/" + std::string(file.name);
    return a;
  }
  return std::nullopt;
}

std::vector<std::string> model_preset_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& file : model_preset_files()) {
    if (!preset_name(file.name).empty()) names.emplace_back(preset_name(file.name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace mlsize
