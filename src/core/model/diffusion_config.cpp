// diffusers configs (issue 50; docs/methodology.md#diffusion-configs): a pipeline's
// model_index.json, a UNet's unet/config.json and a transformer's transformer/config.json.
// A UNet is matched to the preset of its layout (its FLOPs are calflops' count); a
// transformer's size is read from its structure. Other classes are refused by name.

#include "core/model/diffusion_config.hpp"

#include <mlsize/support/names.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace mlsize {
namespace {

// The pipelines model_index.json names, each with its preset; a StableDiffusionPipeline's
// index does not say whether its UNet is SD 1.x's or 2.x's, so it needs unet/config.json.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> k_pipelines{{
    {"StableDiffusionXLPipeline", "sdxl"},
    {"FluxPipeline", "flux.1-dev"},
    {"PixArtAlphaPipeline", "pixart-alpha"},
    {"DiTPipeline", "dit-xl-2"},
}};

const DiffusionModel& preset(std::string_view id) {
  return *find_diffusion_model(id);
}

// The native resolution, sample_size latent positions a side: within what --resolution takes.
void read_resolution(const ConfigReader& config, DiffusionModel& model) {
  const std::optional<int> sample = config.count({"sample_size"});
  if (!sample) return;
  constexpr int k_most_pixels = 16384;
  if (*sample > k_most_pixels / model.vae_downsample) {
    config.fail("sample_size", "\"sample_size\" is " + std::to_string(*sample) + " latent positions a side, above " +
                                   std::to_string(k_most_pixels) + " pixels");
  }
  model.resolution = *sample * model.vae_downsample;
}

std::string presets_hint() {
  std::string hint = "give --model with a preset (";
  bool first = true;
  for (const DiffusionModel& m : diffusion_models()) {
    hint += (first ? "" : ", ") + m.id;
    first = false;
  }
  return hint + "), or a unet/ or transformer/config.json of one of their layouts";
}

// A JSON array of whole numbers under `key`, or one number repeated `size` times.
std::vector<int> ints(const ConfigReader& config, const Json& root, std::string_view key, std::size_t size) {
  const auto found = root.find(key);
  if (found == root.end()) return {};
  if (found->is_number_integer()) return std::vector<int>(size, found->get<int>());
  std::vector<int> values;
  if (found->is_array()) {
    for (const Json& value : *found) {
      if (!value.is_number_integer()) config.fail(key, in_quotes(key) + " must hold whole numbers");
      values.push_back(value.get<int>());
    }
  }
  if (values.empty()) config.fail(key, in_quotes(key) + " must be a whole number or a list of them");
  return values;
}

// A UNet2DConditionModel matched to the preset of its layout: the widths of its levels, the
// width cross-attention reads (the text encoder's) and the transformer blocks a level.
DiffusionModel unet_model(const ConfigText& source, const Json& root, std::string_view source_name) {
  const ConfigReader config(source, root);
  const std::vector<int> widths = ints(config, root, "block_out_channels", 0);
  const std::vector<int> context = ints(config, root, "cross_attention_dim", 1);
  const std::vector<int> depth = ints(config, root, "transformer_layers_per_block", widths.size());
  const bool sd =
      widths == std::vector<int>{320, 640, 1280, 1280} && (depth.empty() || depth == std::vector<int>(4, 1));
  const bool sdxl = widths == std::vector<int>{320, 640, 1280} && depth == std::vector<int>{1, 2, 10};
  const int text_width = context.empty() ? 0 : context.front();
  const char* id = sd && text_width == 768      ? "sd-1.5"
                   : sd && text_width == 1024   ? "sd-2.1"
                   : sdxl && text_width == 2048 ? "sdxl"
                                                : nullptr;
  if (id == nullptr) {
    config.fail("block_out_channels",
                "a UNet2DConditionModel of this layout (block_out_channels, cross_attention_dim, "
                "transformer_layers_per_block) is not one mlsize sizes",
                "the UNets sized are SD 1.x ([320, 640, 1280, 1280], 768), SD 2.x (the same, 1024) and SDXL ([320, "
                "640, 1280], 2048, [1, 2, 10]); " +
                    presets_hint());
  }
  DiffusionModel model = preset(id);
  read_resolution(config, model);
  model.source += "; read as the " + model.name + " layout from diffusers config " + escape_unprintable(source_name);
  model.hub.clear();  // the user's checkpoint, not the preset's
  return model;
}

// A diffusion transformer read from its structure: blocks, heads × head width, patch.
DiffusionModel transformer_model(const ConfigText& source, const Json& root, std::string_view class_name,
                                 std::string_view source_name) {
  const ConfigReader config(source, root);
  const bool flux = class_name == "FluxTransformer2DModel";
  const std::string norm = config.text("norm_type");
  const bool pixart = class_name == "PixArtTransformer2DModel" || norm == "ada_norm_single";
  DiffusionModel model = preset(flux ? "flux.1-dev" : pixart ? "pixart-alpha" : "dit-xl-2");
  const int heads = config.required({"num_attention_heads"}, "attention heads");
  const int head_width = config.required({"attention_head_dim"}, "width of a head");
  if (static_cast<double>(heads) * head_width > k_max_config_dimension) {
    config.fail("num_attention_heads", "heads × attention_head_dim is above the limit of 10000000",
                "no transformer dimension comes near this; check the values");
  }
  model.hidden = heads * head_width;
  const double h = model.hidden;
  if (flux) {
    // FluxPipeline packs 2 × 2 latent patches into in_channels (64 = 16 × 4).
    model.double_blocks = config.required({"num_layers"}, "double-stream blocks");
    model.layers = model.double_blocks + config.count({"num_single_layers"}, 0).value_or(0);
    model.latent_channels = config.count({"in_channels"}, 4).value_or(64) / 4;
    const auto guidance = root.find("guidance_embeds");
    model.guidance_distilled = guidance != root.end() && guidance->is_boolean() && guidance->get<bool>();
    // A double-stream block: two streams of q, k, v, out and an MLP of 4h (12·h² each) with
    // their adaLN modulations (6·h² each); a single-stream block 12·h² and 3·h²; the text
    // embedder from the T5 width.
    const double text_width = config.count({"joint_attention_dim"}).value_or(4096);
    model.denoiser_params =
        model.double_blocks * 36 * h * h + (model.layers - model.double_blocks) * 15 * h * h + text_width * h;
  } else {
    model.layers = config.required({"num_layers"}, "transformer blocks");
    model.patch = config.count({"patch_size"}).value_or(model.patch);
    model.latent_channels = config.count({"in_channels"}).value_or(model.latent_channels);
    // A DiT block: q, k, v, out and an MLP of 4h (12·h²) and its adaLN-Zero modulation (6·h²);
    // a PixArt block adds cross-attention's four projections (4·h²) and shares one adaLN.
    model.denoiser_params = model.layers * (pixart ? 16.0 : 18.0) * h * h;
  }
  read_resolution(config, model);
  model.source = "diffusers config " + escape_unprintable(source_name) + " (" + std::string(class_name) +
                 ", read from its structure); text encoders and VAE as " + model.name;
  // The id stays the family's preset (what trains and serves it); the name says it is a layout.
  model.name = model.name + " layout (" + std::string(class_name) + ")";
  model.hub.clear();
  return model;
}

}  // namespace

std::optional<DiffusionModel> diffusion_model_from_root(const ConfigText& source, const Json& root,
                                                        std::string_view source_name) {
  if (!root.is_object() || !root.contains("_class_name")) return std::nullopt;
  const ConfigReader config(source, root);
  const std::string class_name = config.text("_class_name");
  if (class_name.ends_with("Pipeline")) {
    for (const auto& [pipeline, id] : k_pipelines) {
      if (class_name != pipeline) continue;
      DiffusionModel model = preset(id);
      model.source += "; the " + std::string(pipeline) + " of diffusers model_index " + escape_unprintable(source_name);
      return model;
    }
    if (class_name == "StableDiffusionPipeline") {
      config.fail("_class_name",
                  "a StableDiffusionPipeline's model_index.json does not say whether its UNet is SD 1.x's or 2.x's",
                  "give its unet/config.json, or --model sd-1.5 or sd-2.1");
    }
    config.fail("_class_name", "diffusers pipeline " + in_quotes(class_name) + " is not one mlsize sizes",
                presets_hint());
  }
  if (class_name == "UNet2DConditionModel") return unet_model(source, root, source_name);
  const std::string norm = config.text("norm_type");
  const bool adaptive = norm == "ada_norm_single" || norm == "ada_norm_zero";
  if (class_name == "FluxTransformer2DModel" || class_name == "PixArtTransformer2DModel" ||
      class_name == "DiTTransformer2DModel" || (class_name == "Transformer2DModel" && adaptive)) {
    return transformer_model(source, root, class_name, source_name);
  }
  if (class_name == "AutoencoderKL" || class_name.ends_with("Scheduler")) {
    config.fail("_class_name", "this is a diffusion pipeline's " + class_name + ", not its denoiser",
                "give the pipeline's model_index.json, or its unet/ or transformer/config.json");
  }
  config.fail("_class_name", "diffusers class " + in_quotes(class_name) + " is not a layout mlsize sizes",
              presets_hint());
}

}  // namespace mlsize
