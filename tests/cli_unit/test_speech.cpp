// Speech models (issue 50; docs/methodology.md#speech): the Whisper family's structure against
// published parameter counts, the Hub config read, transcription and fine-tuning as a
// practitioner would size them, and clear errors. The time and memory comparisons with
// published figures are tests/speech/check_speech_figures.py. Each figure names its row in
// bench/results/issue50-published-figures.md (Xn) or issue50-more-figures.md (Qn-m).
#include "json_report.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/model/speech.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace mlsize;
using mlsize::testing::json_of;
using mlsize::testing::run_cli;

namespace {

const SpeechModel& preset(const char* id) {
  const SpeechModel* model = find_speech_model(id);
  REQUIRE(model != nullptr);
  return *model;
}

std::string config_path(const char* name) {
  return std::string(MLSIZE_SOURCE_DIR) + "/tests/data/whisper-configs/" + name;
}

double transcription_hours(const std::vector<std::string>& flags) {
  std::vector<std::string> args{"estimate", "--task", "inference"};
  args.insert(args.end(), flags.begin(), flags.end());
  const nlohmann::json report = json_of(args);
  return (report["time"]["seconds"].get<double>() - report["time"]["setup_seconds"].get<double>()) / 3600;
}

}  // namespace

TEST_CASE("speech: Whisper's parameters from its structure match the published counts", "[speech]") {
  // PEFT's Whisper blog prints "trainable params: 15728640 || all params: 1559033600" for
  // large-v2 with LoRA r=32 on q_proj and v_proj (huggingface/blog fine-tune-whisper-peft.md):
  // the model alone is the difference, to the parameter.
  CHECK(speech_lora_parameters(preset("whisper-large-v2"), 32) == 15'728'640);
  CHECK(speech_parameters(preset("whisper-large-v2")) == 1'559'033'600.0 - 15'728'640);
  // openai/whisper README (A29, A30): 39 M, 74 M, 244 M, 769 M, 1550 M, turbo 809 M (rounded;
  // tiny's and base's counts there include what HF's 37.8 M and 72.6 M do not name).
  CHECK(speech_parameters(preset("whisper-small")) == Approx(244e6).epsilon(0.01));
  CHECK(speech_parameters(preset("whisper-medium")) == Approx(769e6).epsilon(0.01));
  CHECK(speech_parameters(preset("whisper-large-v3")) == Approx(1550e6).epsilon(0.01));
  CHECK(speech_parameters(preset("whisper-large-v3-turbo")) == Approx(809e6).epsilon(0.01));
  CHECK(speech_parameters(preset("whisper-tiny")) == Approx(39e6).epsilon(0.05));
  CHECK(speech_parameters(preset("whisper-base")) == Approx(74e6).epsilon(0.03));
  // distil-whisper README (A33): distil-large-v3 756 M, large-v3's encoder under 2 decoder layers.
  CHECK(speech_parameters(preset("distil-large-v3")) == Approx(756e6).epsilon(0.005));
  // The encoder dominates the work of a window: large-v3's ~1.1 TMACs against ~0.9 GMACs a
  // decoded token (so a window's 105 tokens are a tenth of its FLOPs, but most of its time).
  const SpeechModel& large = preset("whisper-large-v3");
  CHECK(speech_encoder_macs(large) == Approx(1.14e12).epsilon(0.02));
  CHECK(speech_token_macs(large, 50) < speech_encoder_macs(large) / 1000);
}

TEST_CASE("speech: presets are found by their ids, openai-whisper's names and the Hub's", "[speech]") {
  CHECK(find_speech_model("openai/whisper-large-v3")->id == "whisper-large-v3");
  CHECK(find_speech_model("whisper-large")->id == "whisper-large-v2");
  CHECK(find_speech_model("WHISPER-TURBO")->id == "whisper-large-v3-turbo");
  CHECK(find_speech_model("distil-whisper/distil-large-v3")->id == "distil-large-v3");
  CHECK(find_speech_model("whisper-huge") == nullptr);
}

TEST_CASE("speech: the Hub config of Whisper is read as the preset of its shape", "[speech]") {
  // Before issue 50: "model_type \"whisper\" is a speech encoder-decoder (Whisper): not supported".
  const nlohmann::json large = json_of({"estimate", "--model-config", config_path("whisper-large-v3.json"), "--task",
                                        "inference", "--audio-hours", "10", "--gpus", "a100-80gb-sxm:1"});
  CHECK(large["workload"]["speech"]["model"] == "whisper-large-v3");
  CHECK(large["workload"]["speech"]["encoder_params"].get<double>() +
            large["workload"]["speech"]["decoder_params"].get<double>() ==
        Approx(1'543'490'560.0));
  const nlohmann::json tiny = json_of({"estimate", "--model-config", config_path("whisper-tiny-finetuned.json"),
                                       "--task", "finetune", "--audio-hours", "10", "--gpus", "t4:1"});
  CHECK(tiny["workload"]["speech"]["model"] == "whisper-tiny");

  // A layout mlsize does not size is refused at the key, not misread.
  const std::string path = (mlsize::testing::fresh_directory("mlsize-test-speech") / "whisper-odd.json").string();
  std::ofstream(path) << "{\"model_type\": \"whisper\", \"d_model\": 384, \"encoder_layers\": 4, "
                         "\"decoder_layers\": 4, \"encoder_attention_heads\": 6, \"encoder_ffn_dim\": 1536, "
                         "\"vocab_size\": 51865,\n \"max_source_positions\": 750}";
  const auto odd = run_cli({"estimate", "--model-config", path, "--task", "inference", "--audio-hours", "1"});
  CHECK(odd.exit_code != 0);
  CHECK(odd.out.empty());
  CHECK(odd.err.find("whisper-odd.json:2:") != std::string::npos);
  CHECK(odd.err.find("30-second windows") != std::string::npos);
}

TEST_CASE("speech: transcription scales with the decoder's depth and the engine's batching", "[speech]") {
  const std::vector<std::string> a100{"--audio-hours", "100", "--gpus", "a100-80gb-sxm:1", "--micro-batch", "1"};
  auto with = [&](std::vector<std::string> flags) {
    flags.insert(flags.end(), a100.begin(), a100.end());
    return transcription_hours(flags);
  };
  // Decoding, not the encoder, sets the time: turbo (4 decoder layers) and distil-large-v3 (2)
  // are several times faster than large-v3 on the same encoder (openai/whisper README: turbo
  // ~8x; distil-whisper README: 6.3x).
  const double large = with({"--model", "whisper-large-v3", "--engine", "openai-whisper"});
  CHECK(large / with({"--model", "whisper-large-v3-turbo", "--engine", "openai-whisper"}) > 4);
  CHECK(large / with({"--model", "distil-large-v3", "--engine", "openai-whisper"}) > 4);
  // Batching windows shares each step's fixed cost and weight reads (faster-whisper's
  // README: batch 8 is 3.7x faster than one window at a time on the same GPU).
  const double one = with({"--model", "whisper-large-v3", "--engine", "faster-whisper"});
  std::vector<std::string> eight{"--model",  "whisper-large-v3", "--engine",     "faster-whisper",
                                 "--audio-hours", "100",         "--gpus",       "a100-80gb-sxm:1",
                                 "--micro-batch", "8"};
  CHECK(one / transcription_hours(eight) > 2.5);
  // Greedy decoding does fewer sequences' work than a beam of 5.
  CHECK(with({"--model", "whisper-large-v3", "--engine", "openai-whisper", "--beam", "1"}) < large);
}

TEST_CASE("speech: openai-whisper holds fp32 weights unless halved, faster-whisper int8 halves fp16", "[speech]") {
  auto weights = [](std::vector<std::string> flags) {
    std::vector<std::string> args{"estimate",     "--model", "whisper-large-v2", "--task", "inference",
                                  "--audio-hours", "1",      "--gpus",           "rtx-4090:1"};
    args.insert(args.end(), flags.begin(), flags.end());
    return json_of(args)["memory"]["per_device"]["weights_bytes"].get<double>();
  };
  // whisper/model.py loads the checkpoint into fp32 parameters and casts each as it is used:
  // the README's "~10 GB" for large against faster-whisper's 4.5 GB in fp16 (W3, W6).
  CHECK(weights({"--engine", "openai-whisper"}) == Approx(4 * 1'543'304'960.0));
  CHECK(weights({"--engine", "openai-whisper", "--quant", "fp16"}) == Approx(2 * 1'543'304'960.0));
  CHECK(weights({"--engine", "faster-whisper", "--quant", "int8"}) == Approx(1'543'304'960.0));
  const auto refused = run_cli({"estimate", "--model", "whisper-large-v2", "--task", "inference", "--audio-hours", "1",
                                "--engine", "openai-whisper", "--quant", "int8"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err.find("--quant") != std::string::npos);
  CHECK(refused.err.find("faster-whisper") != std::string::npos);
}

TEST_CASE("speech: fine-tuning fits where Hugging Face's recipes say it does", "[speech]") {
  auto fits = [](std::vector<std::string> flags) {
    std::vector<std::string> args{"estimate", "--audio-hours", "12", "--clip-seconds", "5", "--precision",
                                  "fp16-mixed", "--recompute", "full"};
    args.insert(args.end(), flags.begin(), flags.end());
    return json_of(args)["memory"]["fits"].get<bool>();
  };
  // huggingface/community-events whisper-fine-tuning-event README (W18, held-out): on a V100
  // 16 GB, small at batch 16 and medium at batch 2 with gradient checkpointing; on an A100
  // 40 GB, small at 64 and medium at 32.
  CHECK(fits({"--model", "whisper-small", "--task", "finetune", "--gpus", "v100-sxm2-16gb:1", "--micro-batch", "16"}));
  // Medium at batch 2 on the V100 is a miss by a whisker: 16.0 GB of fp32 weights, gradients
  // and AdamW states, autocast's copies and the framework's overhead against the 15.1 GB mlsize
  // lets a plan use (docs/methodology.md#speech-accuracy); 8-bit Adam, its first way out, fits.
  CHECK(fits({"--model", "whisper-medium", "--task", "finetune", "--gpus", "v100-sxm2-16gb:1", "--micro-batch", "2",
              "--optimizer", "adam-8bit"}));
  CHECK(fits({"--model", "whisper-small", "--task", "finetune", "--gpus", "a100-40gb-sxm:1", "--micro-batch", "64"}));
  CHECK(fits({"--model", "whisper-medium", "--task", "finetune", "--gpus", "a100-40gb-sxm:1", "--micro-batch", "32"}));
  // PEFT's Whisper blog: large-v2 in 8 bits with LoRA r=32 at batch 8 on a free T4 16 GB
  // (gradient checkpointing on, prepare_model_for_int8_training's default). QLoRA's 4-bit base
  // is smaller still; the full fine-tune ("~24GB of GPU VRAM", W16) is not on a T4.
  CHECK(fits({"--model", "whisper-large-v2", "--task", "qlora", "--gpus", "t4:1", "--micro-batch", "8", "--lora-rank",
              "32"}));
  CHECK_FALSE(fits({"--model", "whisper-large-v2", "--task", "finetune", "--gpus", "t4:1", "--micro-batch", "1"}));
}

TEST_CASE("speech: recommend ranks a transcription job and picks batched plans", "[speech]") {
  // The request: 1,000 hours of audio overnight with large-v3.
  const nlohmann::json report = json_of({"recommend", "--model", "whisper-large-v3", "--task", "inference",
                                         "--audio-hours", "1000", "--deadline", "12h"});
  REQUIRE(!report["recommendations"].empty());
  const nlohmann::json& best = report["recommendations"][0];
  CHECK(best["time"]["seconds"].get<double>() <= 12 * 3600);
  // Decoding one window at a time wastes a GPU: the cheapest plan batches windows.
  CHECK(best["compute"]["speech"]["batch"].get<int>() > 1);
  const double compute = best["time"]["seconds"].get<double>() - best["time"]["setup_seconds"].get<double>();
  CHECK(best["compute"]["speech"]["audio_seconds_per_second"].get<double>() * compute ==
        Approx(1000 * 3600.0).epsilon(0.02));
  // CTranslate2 runs on NVIDIA GPUs and CPUs: no TPU or AMD plan is offered for faster-whisper.
  for (const nlohmann::json& row : report["recommendations"]) {
    const std::string device = row["device"]["id"].get<std::string>();
    CHECK(device.find("tpu") == std::string::npos);
    CHECK(device.find("mi300") == std::string::npos);
  }
}

TEST_CASE("speech: bad input names the flag and what is accepted", "[speech]") {
  const std::vector<std::vector<std::string>> cases{
      {"--model", "whisper-small", "--task", "inference"},                                   // no hours
      {"--model", "whisper-small", "--task", "inference", "--audio-hours", "0"},             // not positive
      {"--model", "whisper-small", "--task", "inference", "--audio-hours", "1", "--engine", "vllm"},
      {"--model", "whisper-small", "--task", "inference", "--audio-hours", "1", "--tokens", "1B"},
      {"--model", "whisper-small", "--task", "inference", "--audio-hours", "1", "--clip-seconds", "5"},
      {"--model", "whisper-small", "--task", "finetune", "--audio-hours", "1", "--clip-seconds", "45"},
      {"--model", "whisper-small", "--task", "inference", "--audio-hours", "1", "--beam", "0"},
      {"--model", "whisper-small", "--task", "gbdt", "--audio-hours", "1"},
      {"--params", "7B", "--audio-hours", "1"},
  };
  const std::vector<std::string> flags{"--audio-hours", "--audio-hours", "--engine",      "--tokens", "--clip-seconds",
                                       "--clip-seconds", "--beam",       "--task",        "--audio-hours"};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<std::string> args{"estimate"};
    args.insert(args.end(), cases[i].begin(), cases[i].end());
    const auto result = run_cli(args);
    INFO(result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(result.err.find(flags[i]) != std::string::npos);
  }
}
