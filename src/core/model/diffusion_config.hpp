#pragma once
// diffusers configs read by model_config.cpp's model_from_hf_config (diffusion_config.cpp).
// Private to the core.

#include "core/model/config_reader.hpp"

#include <mlsize/model/diffusion.hpp>

#include <optional>
#include <string_view>

namespace mlsize {

// A diffusers config (its "_class_name"): a pipeline's model_index.json (the preset of its
// pipeline), a UNet2DConditionModel (the preset of its layout), a Flux, PixArt or DiT
// transformer (read from its structure); other diffusers classes refused by name with the
// presets; nothing for a config that is not a diffusers one.
std::optional<DiffusionModel> diffusion_model_from_root(const ConfigText& source, const Json& root,
                                                        std::string_view source_name);

}  // namespace mlsize
