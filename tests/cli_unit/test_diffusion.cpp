// Diffusion models (issue 50; docs/methodology.md#diffusion): their structure against published
// counts (MACs, LoRA parameters, the VAE), memory fits where diffusers' and kohya's READMEs say
// a run fits, what makes a run fit, generation fleets, and clear errors. The latency, memory and
// throughput comparisons with published figures are tests/diffusion/check_diffusion_figures.py.
// Each figure names its row in bench/results/issue50-published-figures.md (Xn) or
// issue50-more-figures.md (Qn-m), and whether it is in the fitting or the held-out set.
#include "json_report.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/model/diffusion.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using namespace mlsize;
using mlsize::testing::json_of;
using mlsize::testing::run_cli;

namespace {

const DiffusionModel& preset(const char* id) {
  const DiffusionModel* model = find_diffusion_model(id);
  REQUIRE(model != nullptr);
  return *model;
}

// Attention's own matmuls (QK^T and the product with V) of a transformer denoiser, which
// calflops does not count (it patches no scaled_dot_product_attention: Q1-7).
double transformer_attention_macs(const DiffusionModel& m, int px) {
  const double s = denoiser_tokens(m, px, px);
  return m.layers * (2 * s * s * m.hidden + 2 * s * m.text_tokens * m.hidden);
}

bool fits(const std::vector<std::string>& args) {
  std::vector<std::string> estimate{"estimate"};
  estimate.insert(estimate.end(), args.begin(), args.end());
  return json_of(estimate)["memory"]["fits"].get<bool>();
}

}  // namespace

TEST_CASE("diffusion: a transformer denoiser's MACs from its structure match the published counts", "[diffusion]") {
  const DiffusionModel& dit = preset("dit-xl-2");
  // DiT paper Table 4: 118.64 GFLOPs at 256 and 524.60 at 512, which are MACs (A22, held-out).
  CHECK(denoiser_forward_macs(dit, 256, 256) == Approx(118.64e9).epsilon(0.01));
  CHECK(denoiser_forward_macs(dit, 512, 512) == Approx(524.60e9).epsilon(0.01));
  CHECK(denoiser_tokens(dit, 256, 256) == 256);
  // PixArt-α at 1024: calflops' 2.1406 T a pass (T-GATE Table 2 / 50 passes, Q1-5) leaves out
  // the attention matmuls; the rest of the structure matches it.
  const DiffusionModel& pixart = preset("pixart-alpha");
  CHECK(denoiser_forward_macs(pixart, 1024, 1024) - transformer_attention_macs(pixart, 1024) ==
        Approx(2.1406e12).epsilon(0.02));
}

TEST_CASE("diffusion: a UNet's MACs scale with the pixels, its attention with their square", "[diffusion]") {
  const DiffusionModel& sd21 = preset("sd-2.1");
  // T-GATE Table A6: SD-2.1 without guidance, 0.761 T a step at 768 and 1.351 T at 1024
  // (calflops, attention matmuls excluded; Q1-4, held-out): the linear part scales with pixels.
  CHECK(sd21.unet_linear_macs == Approx(0.761e12).epsilon(0.001));
  CHECK(sd21.unet_linear_macs * (1024.0 * 1024) / (768.0 * 768) == Approx(1.351e12).epsilon(0.01));
  // onnx-tool counts SD 1.4's UNet at 512 with its attention einsums: 888,870 M MACs for the
  // guidance batch of 2, 444.4 G an image (Q2-4, held-out); the structure is within 15%.
  const DiffusionModel& sd15 = preset("sd-1.5");
  CHECK(denoiser_forward_macs(sd15, 512, 512) == Approx(444.4e9).epsilon(0.15));
  // Attention grows with the square of the positions: at 1024 the UNet costs more than 4×.
  CHECK(denoiser_forward_macs(sd15, 1024, 1024) > 4.2 * denoiser_forward_macs(sd15, 512, 512));
}

TEST_CASE("diffusion: the VAE's MACs from its widths match onnx-tool's counts", "[diffusion]") {
  const DiffusionModel& sd15 = preset("sd-1.5");
  // onnx-tool README: SD 1.4's VAE decoder 1,271,959 M MACs (Q2-1, fitting set: nothing was
  // tuned on it) and encoder 566,371 M (Q2-2, held-out) at 512.
  CHECK(vae_decoder_macs(sd15, 512, 512) == Approx(1271.959e9).epsilon(0.12));
  CHECK(vae_encoder_macs(sd15, 512, 512) == Approx(566.371e9).epsilon(0.12));
}

TEST_CASE("diffusion: LoRA's trainable parameters match what the training scripts print", "[diffusion]") {
  // huggingface/blog flux-qlora.md: rank 4 on to_k, to_q, to_v, to_out.0 of FLUX.1-dev:
  // "trainable params: 4,669,440" (A28, held-out).
  CHECK(diffusion_lora_parameters(preset("flux.1-dev"), 4) == 4'669'440);
  // huggingface/blog lora.md: an SD LoRA (rank 4, attention) is "a single 3.29 MB file"; its
  // fp32 tensors, and the file's keys besides (F7, fitting set).
  CHECK(diffusion_lora_parameters(preset("sd-1.5"), 4) * 4 == Approx(3.29e6).epsilon(0.05));
  const nlohmann::json report =
      json_of({"estimate", "--model", "sdxl", "--task", "lora", "--images", "10k", "--device", "rtx-4090"});
  CHECK(report["workload"]["lora_trainable_params"].get<double>() ==
        diffusion_lora_parameters(preset("sdxl"), 16));
}

TEST_CASE("diffusion: runs fit where diffusers' and kohya's READMEs say they do", "[diffusion]") {
  // diffusers examples/dreambooth/README.md (F1, fitting set): DreamBooth of SD's UNet on a
  // 16 GB GPU with gradient checkpointing and 8-bit Adam, batch 1 with prior preservation
  // (2 images a step); not without them (F8: "at least 24 GB" for AdamW).
  const std::vector<std::string> dreambooth{"--model", "sd-1.5", "--task", "finetune", "--images", "1k",
                                            "--device", "t4", "--micro-batch", "2"};
  std::vector<std::string> small = dreambooth;
  small.insert(small.end(), {"--optimizer", "adam-8bit", "--recompute", "full"});
  CHECK(fits(small));
  CHECK(!fits(dreambooth));
  // examples/text_to_image/README.md (F5, fitting set): a full fine-tune on one 24 GB GPU with
  // gradient checkpointing and mixed precision, AdamW.
  CHECK(fits({"--model", "sd-1.5", "--task", "finetune", "--images", "10k", "--device", "rtx-3090", "--precision",
              "fp16-mixed", "--recompute", "full"}));
  // huggingface/blog lora.md (F6, held-out): SD 1.5 LoRA in 11 GB without 8-bit optimizers.
  CHECK(fits({"--model", "sd-1.5", "--task", "lora", "--images", "10k", "--device", "rtx-3060", "--precision",
              "fp16-mixed"}));
  // README_sdxl.md (F9, fitting set): SDXL DreamBooth LoRA in under 16 GB with checkpointing
  // and 8-bit Adam at 1024.
  CHECK(fits({"--model", "sdxl", "--task", "lora", "--images", "1k", "--device", "rtx-4060-ti-16gb", "--recompute",
              "full", "--optimizer", "adam-8bit", "--precision", "fp16-mixed"}));
  // kohya-ss/sd-scripts (F11, fitting set): SDXL LoRA "with 8GB GPU memory (10GB recommended)",
  // U-Net only, cached latents and text encoder outputs, checkpointing.
  CHECK(fits({"--model", "sdxl", "--task", "lora", "--images", "1k", "--device", "rtx-3060", "--recompute", "full",
              "--cache-latents"}));
  // README_flux.md (F13, fitting set): FLUX.1-dev LoRA rank 16 "can exceed 40GB" at 512.
  CHECK(!fits({"--model", "flux.1-dev", "--task", "lora", "--images", "1k", "--device", "a100-40gb-sxm",
               "--resolution", "512"}));
}

TEST_CASE("diffusion: SDXL LoRA on an RTX 4090 fits with its memory broken down, and a full fine-tune is told what fits",
          "[diffusion]") {
  const auto text = run_cli({"recommend", "--model", "sdxl", "--task", "lora", "--images", "10k", "--epochs", "5",
                             "--resolution", "1024", "--gpus", "rtx-4090:1", "--owned", "on-prem-rtx-4090"});
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("on-prem-rtx-4090"));
  const nlohmann::json e = json_of({"estimate", "--model", "sdxl", "--task", "lora", "--images", "10k", "--epochs",
                                    "5", "--resolution", "1024", "--device", "rtx-4090"});
  CHECK(e["memory"]["fits"] == true);
  const auto& m = e["memory"]["per_device"];
  // The frozen UNet in 16 bits and the text encoders and VAE, the adapters' fp32 weights, their
  // gradients and Adam's moments, one image's activations at 1024.
  const double frozen = (2.570e9 + 123'060'480 + 694.66e6 + 83'653'863) * 2;
  const double adapters = diffusion_lora_parameters(preset("sdxl"), 16);
  CHECK(m["weights_bytes"].get<double>() == Approx(frozen + adapters * 4).epsilon(0.001));
  CHECK(m["gradients_bytes"].get<double>() == Approx(adapters * 4).epsilon(0.001));
  CHECK(m["activations_bytes"].get<double>() > 4e9);
  const auto estimate_text = run_cli({"estimate", "--model", "sdxl", "--task", "lora", "--images", "10k", "--device",
                                      "rtx-4090"});
  CHECK_THAT(estimate_text.out, Catch::Contains("Weights: the denoiser"));
  CHECK_THAT(estimate_text.out, Catch::Contains("VAE 1.8 GB (frozen, 16-bit)"));
  // A full fine-tune of SDXL does not fit 24 GB with AdamW: the ways to fit name 8-bit Adam,
  // LoRA and cached latents as a practitioner would try them.
  const nlohmann::json full = json_of({"estimate", "--model", "sdxl", "--task", "finetune", "--images", "10k",
                                       "--device", "rtx-4090"});
  CHECK(full["memory"]["fits"] == false);
  std::vector<std::string> kinds;
  for (const auto& way : full["ways_to_fit"]) kinds.push_back(way["change"].get<std::string>());
  CHECK(std::find(kinds.begin(), kinds.end(), "lora") != kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "cache-latents") != kinds.end());
}

TEST_CASE("diffusion: cached latents drop the VAE and text encoders and their time", "[diffusion]") {
  const std::vector<std::string> base{"estimate", "--model", "sd-2.1", "--resolution", "512", "--images", "1M",
                                      "--device", "a100-80gb-sxm", "--count", "8", "--micro-batch", "8"};
  std::vector<std::string> cached = base;
  cached.push_back("--cache-latents");
  const nlohmann::json online = json_of(base);
  const nlohmann::json offline = json_of(cached);
  const double frozen = (354.03e6 + 83'653'863) * 2;
  CHECK(online["memory"]["per_device"]["weights_bytes"].get<double>() -
            offline["memory"]["per_device"]["weights_bytes"].get<double>() ==
        Approx(frozen).epsilon(0.001));
  // MosaicML: computing the latents during training "would take 1.4x" longer (Q3-4, held-out).
  const double ratio = online["time"]["seconds"].get<double>() / offline["time"]["seconds"].get<double>();
  CHECK(ratio > 1.2);
  CHECK(ratio < 1.8);
}

TEST_CASE("diffusion: SD 2 pre-training on MosaicML's schedule costs within 35% of its A100-hours", "[diffusion]") {
  // mosaicml/diffusion README (Q3-4/Q3-5, held-out): SD 2 base from scratch, 1,126,400,000
  // images at 256 then 1,740,800,000 at 512, latents precomputed, 128 A100s: 16,937 A100-hours.
  double hours = 0;
  for (const auto& [images, px] : {std::pair{"1126.4M", "256"}, std::pair{"1740.8M", "512"}}) {
    const nlohmann::json e =
        json_of({"estimate", "--model", "sd-2.1", "--task", "pretrain", "--images", images, "--resolution", px,
                 "--device", "a100-40gb-sxm", "--count", "128", "--micro-batch", "16", "--cache-latents", "--zero", "2"});
    hours += (e["time"]["seconds"].get<double>() - e["time"]["setup_seconds"].get<double>()) / 3600 * 128;
  }
  CHECK(hours == Approx(16'937).epsilon(0.35));
}

TEST_CASE("diffusion: a generation fleet is sized for its rate and priced per 1,000 images", "[diffusion]") {
  const auto fleet = [](const char* rate) {
    return json_of({"recommend", "--model", "sdxl", "--task", "inference", "--rate", rate, "--steps", "30", "--gpus",
                    "a100-80gb-sxm", "--top", "1"})["recommendations"][0];
  };
  const nlohmann::json two = fleet("2");
  const auto& run = two["compute"]["diffusion"];
  const double per_device = run["images_per_s_per_device"].get<double>();
  // The replicas the rate needs at 80% of each one's rate; whole units and a spare one more.
  CHECK(run["replicas_needed"].get<int>() == static_cast<int>(std::ceil(2 / (0.8 * per_device))));
  CHECK(run["replicas"].get<int>() > run["replicas_needed"].get<int>());
  // $ per 1,000 images is the fleet's $/hour over the images it serves in an hour.
  CHECK(run["usd_per_1000_images"].get<double>() ==
        Approx(two["cost"]["usd"].get<double>() / (2 * 3600) * 1000).epsilon(0.001));
  // Ten times the rate: about ten times the replicas, about the same per image.
  const nlohmann::json twenty = fleet("20");
  CHECK(twenty["compute"]["diffusion"]["replicas_needed"].get<int>() >= 9 * run["replicas_needed"].get<int>());
  CHECK(twenty["compute"]["diffusion"]["usd_per_1000_images"].get<double>() <
        run["usd_per_1000_images"].get<double>() * 1.1);
  // A free tier's sessions end: no fleet runs on one.
  const nlohmann::json small =
      json_of({"recommend", "--model", "sd-1.5", "--task", "inference", "--rate", "1", "--top", "20"});
  for (const auto& plan : small["recommendations"]) {
    CHECK(plan["offering"]["id"].get<std::string>().find("colab") == std::string::npos);
  }
}

TEST_CASE("diffusion: VAE slicing and model CPU offload are ways for a generator to fit a small card", "[diffusion]") {
  // SDXL decoding 4 images at 1024 on a 24 GB card: the decode's peak does not fit; slicing
  // it (one image at a time) does, as diffusers' memory guide suggests.
  const nlohmann::json e = json_of({"estimate", "--model", "sdxl", "--task", "inference", "--images", "1k",
                                    "--micro-batch", "4", "--device", "rtx-4090"});
  CHECK(e["memory"]["fits"] == false);
  bool slicing = false;
  for (const auto& way : e["ways_to_fit"]) slicing = slicing || (way["change"] == "vae-slicing" && way["fits"] == true);
  CHECK(slicing);
  const auto memory = [](const char* flag) {
    const nlohmann::json r = json_of({"estimate", "--model", "sdxl", "--task", "inference", "--images", "1k",
                                      "--micro-batch", "4", "--device", "a100-40gb-sxm", flag});
    return r["memory"]["per_device"]["total_bytes"].get<double>();
  };
  const double plain = memory("--steps=50");
  // Offloaded, the text encoders' 1.6 GB (16-bit) are off the GPU at the decode's peak; their
  // move from the host each batch is timed.
  CHECK(plain - memory("--model-cpu-offload") == Approx((123'060'480 + 694.66e6) * 2).epsilon(0.001));
  CHECK(memory("--vae-slicing") < plain - 5e9);
  const auto refused = run_cli({"estimate", "--model", "sdxl", "--task", "lora", "--images", "1k", "--vae-slicing"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--vae-slicing"));
}

TEST_CASE("diffusion: a batch job generates several images a device at once where memory allows", "[diffusion]") {
  // DiT-XL/2's 250 steps at batch 1 are bound by each step's fixed cost: a batch job shares it.
  const nlohmann::json ranked = json_of({"recommend", "--model", "dit-xl-2", "--task", "inference", "--images",
                                         "50k", "--gpus", "a100-80gb-sxm:1", "--top", "1"});
  const auto& best = ranked["recommendations"][0];
  CHECK(best["compute"]["diffusion"]["batch"].get<int>() > 1);
  const nlohmann::json alone = json_of({"estimate", "--model", "dit-xl-2", "--task", "inference", "--images", "50k",
                                        "--device", "a100-80gb-sxm", "--micro-batch", "1"});
  CHECK(best["time"]["seconds"].get<double>() < alone["time"]["seconds"].get<double>() / 2);
  // A fleet answers one image at a time (the latency a user waits).
  CHECK(json_of({"recommend", "--model", "dit-xl-2", "--task", "inference", "--rate", "1", "--gpus",
                 "a100-80gb-sxm", "--top", "1"})["recommendations"][0]["compute"]["diffusion"]["batch"] == 1);
}

TEST_CASE("diffusion: guidance doubles the denoiser's passes and a distilled model runs one", "[diffusion]") {
  const auto denoise = [](const char* model, const char* guidance) {
    return json_of({"estimate", "--model", model, "--task", "inference", "--images", "1k", "--device", "h100-sxm",
                    "--guidance", guidance})["compute"]["diffusion"]["denoise_seconds"]
        .get<double>();
  };
  // Two passes a step, batched: twice the passes' time, the step's fixed cost once.
  const double ratio = denoise("sdxl", "7.5") / denoise("sdxl", "1");
  CHECK(ratio > 1.6);
  CHECK(ratio < 2);
  CHECK(denoise("flux.1-dev", "3.5") == Approx(denoise("flux.1-dev", "1")));
}

TEST_CASE("diffusion: flags outside what is sized are refused by name", "[diffusion]") {
  const auto error = [](std::vector<std::string> args) {
    const auto result = run_cli(args);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    return result.err;
  };
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "inference", "--rate", "2", "--images", "1k"}),
             Catch::Contains("--images"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "lora", "--images", "1k", "--steps", "30"}),
             Catch::Contains("--steps"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "inference", "--images", "1k", "--cache-latents"}),
             Catch::Contains("--cache-latents"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "inference", "--rate", "2", "--deadline", "1d"}),
             Catch::Contains("--deadline"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "inference", "--rate", "2", "--prompt-tokens", "100"}),
             Catch::Contains("language model"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "lora", "--images", "1k", "--resolution", "1000"}),
             Catch::Contains("multiple of 64"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "lora"}), Catch::Contains("--images"));
  CHECK_THAT(error({"recommend", "--model", "sdxl", "--task", "lora", "--images", "0.5"}), Catch::Contains("below 1"));
  // DreamBooth's handful of images is a count as it is, not a unit left out.
  CHECK(json_of({"estimate", "--model", "sdxl", "--task", "lora", "--images", "20", "--epochs", "100", "--device",
                 "rtx-4090"})["workload"]["diffusion"]["images"] == 20);
  CHECK_THAT(error({"recommend", "--params", "7B", "--data", "1GB", "--steps", "30"}),
             Catch::Contains("diffusion models"));
}

TEST_CASE("diffusion: diffusers configs are read, the UNet's as its preset and a transformer's from its structure",
          "[diffusion]") {
  const std::string dir = std::string(MLSIZE_TEST_DATA_DIR) + "/diffusers-configs/";
  const auto workload = [&](const std::string& file) {
    return json_of({"estimate", "--model-config", dir + file, "--task", "lora", "--images", "1k", "--device",
                    "h100-sxm"})["workload"]["diffusion"];
  };
  // A UNet's layout (widths, the text width cross-attention reads, transformer depth) is the
  // preset's; sample_size × 8 the native resolution.
  CHECK(workload("runwayml--stable-diffusion-v1-5--unet.json")["denoiser_params"] == 859'520'964);
  const nlohmann::json sd2 = workload("stabilityai--stable-diffusion-2-1--unet.json");
  CHECK(sd2["height"] == 768);
  CHECK(sd2["text_encoder_params"].get<double>() == Approx(354.03e6).epsilon(0.001));
  CHECK(workload("stabilityai--stable-diffusion-xl-base-1.0--unet.json")["denoiser_params"] == 2.570e9);
  CHECK(workload("stabilityai--stable-diffusion-xl-base-1.0--model_index.json")["model"] == "sdxl");
  // FLUX.1-dev's transformer from its 19 double- and 38 single-stream blocks of 24 × 128: its
  // parameters within 1% of the 11,901,408,320 diffusers prints, its MACs the preset's.
  const nlohmann::json flux = workload("black-forest-labs--FLUX.1-dev--transformer.json");
  CHECK(flux["denoiser_params"].get<double>() == Approx(11'901'408'320.0).epsilon(0.01));
  CHECK(flux["denoiser_forward_macs"].get<double>() ==
        Approx(denoiser_forward_macs(preset("flux.1-dev"), 1024, 1024)).epsilon(1e-9));
  CHECK(flux["passes_per_step"] == 1);  // guidance_embeds: distilled
  // A pipeline whose index does not say its layout, and ones not sized, are refused by name.
  const auto refused = [&](const std::string& file) {
    const auto result = run_cli({"estimate", "--model-config", dir + file, "--images", "1k", "--device", "h100-sxm"});
    CHECK(result.exit_code != 0);
    CHECK(result.out.empty());
    return result.err;
  };
  CHECK_THAT(refused("stabilityai--stable-diffusion-3-medium--model_index.json"),
             Catch::Contains("\"StableDiffusion3Pipeline\" is not one mlsize sizes") &&
                 Catch::Contains("--model with a preset"));
  const auto temp = testing::fresh_directory("mlsize-diffusers-configs");
  const auto write = [&](const char* name, const char* text) {
    std::ofstream(temp / name) << text;
    return (temp / name).string();
  };
  CHECK_THAT(run_cli({"estimate", "--model-config",
                      write("sd.json", "{\"_class_name\": \"StableDiffusionPipeline\"}"), "--images", "1k"})
                 .err,
             Catch::Contains("unet/config.json"));
  CHECK_THAT(run_cli({"estimate", "--model-config",
                      write("vae.json", "{\"_class_name\": \"AutoencoderKL\", \"latent_channels\": 4}"), "--images",
                      "1k"})
                 .err,
             Catch::Contains("not its denoiser"));
  CHECK_THAT(run_cli({"estimate", "--model-config",
                      write("unet.json",
                            "{\"_class_name\": \"UNet2DConditionModel\", \"block_out_channels\": [320, 640], "
                            "\"cross_attention_dim\": 768}"),
                      "--images", "1k"})
                 .err,
             Catch::Contains("not one mlsize sizes") && Catch::Contains("unet.json:1:"));
}

namespace {

// The option strings of a diffusers script's parse_args (tests/launch/diffusers_args/).
std::vector<std::string> script_options(const std::string& script) {
  std::ifstream file(std::string(MLSIZE_SOURCE_DIR) + "/tests/launch/diffusers_args/" + script + ".txt");
  std::vector<std::string> options;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line.front() != '#') options.push_back(line);
  }
  return options;
}

// The flags of the command after the script's name, one "--flag value" per line.
std::vector<std::pair<std::string, std::string>> script_flags(const std::string& text, const std::string& script) {
  std::vector<std::pair<std::string, std::string>> flags;
  // The command's line naming the script (the setup may name it too, fetching it).
  const std::size_t at = text.find(script + ".py \\\n");
  REQUIRE(at != std::string::npos);
  std::size_t line = text.find('\n', at);
  while (line != std::string::npos && line + 1 < text.size()) {
    std::size_t end = text.find('\n', line + 1);
    std::string item = text.substr(line + 1, end == std::string::npos ? std::string::npos : end - line - 1);
    const std::size_t dash = item.find("--");
    if (dash == std::string::npos) break;
    item = item.substr(dash);
    if (item.ends_with(" \\")) item.resize(item.size() - 2);
    const std::size_t space = item.find(' ');
    flags.emplace_back(item.substr(0, space), space == std::string::npos ? "" : item.substr(space + 1));
    line = end;
  }
  return flags;
}

}  // namespace

TEST_CASE("diffusion: --emit accelerate and skypilot write diffusers' script with flags it parses", "[diffusion]") {
  struct Case {
    std::vector<std::string> request;
    std::string script;
  };
  const std::vector<Case> cases{
      {{"--model", "sd-1.5", "--task", "finetune", "--optimizer", "adam-8bit"}, "train_text_to_image"},
      {{"--model", "sd-2.1", "--task", "lora"}, "train_text_to_image_lora"},
      {{"--model", "sdxl", "--task", "finetune", "--cache-latents"}, "train_text_to_image_sdxl"},
      {{"--model", "sdxl", "--task", "lora", "--lora-rank", "8"}, "train_text_to_image_lora_sdxl"},
      {{"--model", "flux.1-dev", "--task", "lora", "--cache-latents", "--optimizer", "adam-8bit"},
       "train_dreambooth_lora_flux"},
  };
  for (const Case& c : cases) {
    for (const char* kind : {"accelerate", "skypilot"}) {
      std::vector<std::string> args{"recommend", "--images", "10k", "--gpus", "a100-80gb-sxm,h100-sxm", "--emit", kind};
      args.insert(args.end(), c.request.begin(), c.request.end());
      const auto result = run_cli(args);
      INFO(c.script << " " << kind << "\n" << result.out << result.err);
      REQUIRE(result.exit_code == 0);
      const std::vector<std::string> known = script_options(c.script);
      REQUIRE(!known.empty());
      const auto flags = script_flags(result.out, c.script);
      std::vector<std::string> names;
      for (const auto& [flag, value] : flags) {
        INFO(flag);
        CHECK(std::find(known.begin(), known.end(), flag) != known.end());
        names.push_back(flag);
        if (flag == "--mixed_precision") CHECK((value == "no" || value == "fp16" || value == "bf16"));
      }
      const auto has = [&](const char* flag) { return std::find(names.begin(), names.end(), flag) != names.end(); };
      // What each script requires: the checkpoint and one source of images (and the subject's
      // prompt for DreamBooth).
      CHECK(has("--pretrained_model_name_or_path"));
      if (c.script == "train_dreambooth_lora_flux") {
        CHECK(has("--instance_data_dir"));
        CHECK(has("--instance_prompt"));
        CHECK(has("--cache_latents"));
        CHECK(has("--use_8bit_adam"));
      } else {
        CHECK(has("--train_data_dir"));
      }
      CHECK(has("--rank") == (c.request[3] == "lora"));
    }
  }
  // What diffusers' scripts do not train is refused with what does.
  const auto refused = run_cli({"recommend", "--model", "sdxl", "--task", "pretrain", "--images", "1M", "--emit",
                                "accelerate"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("MosaicML"));
  const auto torchrun = run_cli({"recommend", "--model", "sdxl", "--task", "lora", "--images", "1k", "--emit",
                                 "torchrun"});
  CHECK_THAT(torchrun.err, Catch::Contains("--emit accelerate"));
}
