// Vision models (issue 47; docs/methodology.md#vision): their structure (MACs and activations
// at a resolution), the config reader, memory fits at published batch sizes, the input pipeline
// as a bound that changes the ranking, and clear errors for what is not sized. The throughput
// and time-to-train comparisons with published figures are tests/vision/check_vision_figures.py.
#include "json_report.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/model/vision.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace mlsize;
using mlsize::testing::json_of;
using mlsize::testing::run_cli;

namespace {

const VisionModel& preset(const char* id) {
  const VisionModel* model = find_vision_model(id);
  REQUIRE(model != nullptr);
  return *model;
}

}  // namespace

TEST_CASE("vision: a ViT's MACs from its structure match the published counts", "[vision]") {
  // torchvision's model cards (GFLOPS, in MACs) and timm's benchmark for DeiT.
  for (const char* id : {"vit-b-16", "vit-l-16", "vit-h-14", "deit-ti", "deit-s", "deit-b", "vit-b-16-384"}) {
    const VisionModel& m = preset(id);
    INFO(id);
    CHECK(vision_forward_macs(m, m.resolution, m.resolution) == Approx(m.macs).epsilon(0.01));
  }
  const VisionModel& vit = preset("vit-b-16");
  CHECK(vision_tokens(vit, 224, 224) == 197);
  CHECK(vision_tokens(vit, 384, 384) == 577);
  // A CNN's MACs scale with the pixels: ResNet-50 at 448 is four times 224.
  const VisionModel& resnet = preset("resnet50");  // torchvision's spelling
  CHECK(vision_forward_macs(resnet, 448, 448) == Approx(4 * 4.089e9));
  // Ultralytics' FLOPs are halved to MACs: YOLOv8m's 78.9 GFLOPs at 640.
  CHECK(preset("yolov8m").macs == Approx(39.45e9));
}

TEST_CASE("vision: ViT-B/16 fine-tuned at 384 fits and ranks, its activations grown as its tokens", "[vision]") {
  const nlohmann::json ranked = json_of({"recommend", "--model", "vit-b-16", "--task", "finetune", "--images", "100k",
                                         "--epochs", "10", "--resolution", "384", "--top", "3"});
  REQUIRE(!ranked["recommendations"].empty());
  CHECK(ranked["workload"]["vision"]["height"] == 384);
  const auto activations = [](const char* resolution) {
    return json_of({"estimate", "--model", "vit-b-16", "--task", "finetune", "--images", "100k", "--resolution",
                    resolution, "--device", "a100-80gb", "--micro-batch", "32"})["memory"]["per_device"]
                  ["activations_bytes"]
                      .get<double>();
  };
  // The same plan and micro-batch: activations in proportion to the tokens, 577 / 197.
  CHECK(activations("384") / activations("224") == Approx(577.0 / 197.0).epsilon(0.01));
}

TEST_CASE("vision: memory fits at the batch sizes the published runs used", "[vision]") {
  const auto fits = [](const char* model, const char* device, const char* batch, const char* precision) {
    return json_of({"estimate", "--model", model, "--images", "1M", "--device", device, "--micro-batch", batch,
                    "--precision", precision})["memory"]["fits"]
        .get<bool>();
  };
  // DeepLearningExamples: ResNet-50 with AMP at 256 per V100 16GB; FP32 at 112 (TF: 128, not 256).
  CHECK(fits("resnet-50", "v100-sxm2-16gb", "256", "fp16-mixed"));
  CHECK(fits("resnet-50", "v100-sxm2-16gb", "112", "fp32"));
  CHECK(!fits("resnet-50", "v100-sxm2-16gb", "256", "fp32"));
  // timm's RTX 3090 training benchmark ran ViT-L/16 at 64 (not 128) and ViT-B/16 at 192.
  CHECK(fits("vit-l-16", "rtx-3090", "64", "fp16-mixed"));
  CHECK(!fits("vit-l-16", "rtx-3090", "128", "fp16-mixed"));
  CHECK(fits("vit-b-16", "rtx-3090", "192", "fp16-mixed"));
  // EfficientNet-B4 at 380 px: 32 per V100 16GB (DeepLearningExamples' AMP batch).
  CHECK(fits("efficientnet-b4", "v100-sxm2-16gb", "32", "fp16-mixed"));
}

TEST_CASE("vision: a host with too few vCPUs per GPU is data-loader bound and ranks below a balanced one",
          "[vision]") {
  const auto dir = testing::fresh_directory("mlsize-vision-hosts");
  const auto overlay = dir / "hosts.yaml";
  std::ofstream(overlay) << "providers:\n  - {id: vision-lab, source: test, as_of: \"2026-12-01\"}\n"
                            "offerings:\n"
                            "  - {id: lab-a100x8-16vcpu, provider: vision-lab, kind: cloud, name: \"8x A100, 16 vCPUs\", "
                            "device: a100-80gb-sxm, devices_per_unit: 8, vcpus: 16, host_memory_gib: 512, "
                            "price_per_hour_usd: 10, region: us-east-1, source: test, as_of: \"2026-12-01\"}\n"
                            "  - {id: lab-a100x8-128vcpu, provider: vision-lab, kind: cloud, name: \"8x A100, 128 vCPUs\", "
                            "device: a100-80gb-sxm, devices_per_unit: 8, vcpus: 128, host_memory_gib: 512, "
                            "price_per_hour_usd: 10, region: us-east-1, source: test, as_of: \"2026-12-01\"}\n";
  const std::vector<std::string> args{"recommend", "--model",    "resnet-50", "--images",  "1.28M",
                                      "--epochs",  "90",         "--catalog", overlay.string(), "--provider",
                                      "vision-lab", "--gpus", "a100-80gb-sxm:8"};
  const nlohmann::json report = json_of(args);
  const auto& plans = report["recommendations"];
  REQUIRE(plans.size() == 2);
  CHECK(plans[0]["offering"]["id"] == "lab-a100x8-128vcpu");
  CHECK(plans[1]["offering"]["id"] == "lab-a100x8-16vcpu");
  CHECK(plans[1]["compute"]["vision"]["loader_bound"] == true);
  CHECK(plans[0]["compute"]["vision"]["loader_bound"] == false);
  CHECK(plans[1]["compute"]["vision"]["loader_vcpus"] == 8);  // one of 16 per GPU runs training
  // 8 vCPUs decode a tenth of what eight A100s take: the run is several times longer.
  CHECK(plans[1]["time"]["seconds"].get<double>() > 3 * plans[0]["time"]["seconds"].get<double>());
  const auto text = run_cli(args);
  CHECK_THAT(text.out, Catch::Contains("#2 is data-loader bound"));
  // DALI decodes on the GPUs: the bound is lifted.
  std::vector<std::string> dali = args;
  dali.insert(dali.end(), {"--data-loader", "dali"});
  // Kept alive: a range-for over a temporary's member reads freed memory (ASan).
  const nlohmann::json with_dali = json_of(dali);
  for (const auto& plan : with_dali["recommendations"]) CHECK(plan["compute"]["vision"]["loader_bound"] == false);
}

TEST_CASE("vision: a Hub ViT config.json is read, other vision families are refused by name", "[vision]") {
  const nlohmann::json report = json_of({"estimate", "--model-config",
                                         MLSIZE_TEST_DATA_DIR "/hf-configs/facebook--dino-vitb16.json", "--images",
                                         "1M", "--device", "a100-80gb"});
  // torchvision's ViT-B/16 (86,567,656) less its 1000-class head: the same layers.
  CHECK(report["workload"]["params"].get<double>() == Approx(86'567'656 - 769'000).epsilon(0.001));
  CHECK(report["workload"]["vision"]["family"] == "vit");
  CHECK(report["workload"]["vision"]["forward_macs"].get<double>() == Approx(17.56e9 - 768'000).epsilon(0.01));

  // A timm config: its architecture is a preset's timm name, at its pretrained input size.
  const nlohmann::json timm = json_of({"estimate", "--model-config",
                                       MLSIZE_TEST_DATA_DIR "/hf-configs/timm--resnet50.a1_in1k.json", "--images", "1M",
                                       "--device", "a100-80gb"});
  CHECK(timm["workload"]["vision"]["model"] == "resnet-50");
  CHECK(timm["workload"]["params"].get<double>() == Approx(25'557'032));

  const auto dir = testing::fresh_directory("mlsize-vision-config");
  const auto big = dir / "timm-384.json";
  std::ofstream(big) << R"({"architecture": "resnet50", "pretrained_cfg": {"input_size": [3, 448, 448]}})";
  CHECK(json_of({"estimate", "--model-config", big.string(), "--images", "1M", "--device", "a100-80gb"})["workload"]
               ["vision"]["forward_macs"]
                   .get<double>() == Approx(4 * 4.089e9));
  const auto unknown = dir / "timm-unknown.json";
  std::ofstream(unknown) << R"({"architecture": "resnet51", "num_classes": 1000})";
  const auto refused_timm =
      run_cli({"estimate", "--model-config", unknown.string(), "--images", "1M", "--device", "a100-80gb"});
  CHECK(refused_timm.exit_code == 1);
  CHECK_THAT(refused_timm.err, Catch::Contains("timm architecture \"resnet51\""));
  CHECK_THAT(refused_timm.err, Catch::Contains("resnet50"));
  const auto swin = dir / "config.json";
  std::ofstream(swin) << R"({"model_type": "swin", "embed_dim": 96, "depths": [2, 2, 6, 2]})";
  const auto refused = run_cli({"estimate", "--model-config", swin.string(), "--images", "1M", "--device", "a100-80gb"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.out.empty());
  CHECK_THAT(refused.err, Catch::Contains("model_type \"swin\" is a vision model"));
  CHECK_THAT(refused.err, Catch::Contains("--model swin-t"));
  CHECK_THAT(refused.err, !Catch::Contains("vocab_size"));
}

TEST_CASE("vision: inputs that do not fit a vision job are clear errors", "[vision]") {
  struct Case {
    std::vector<std::string> args;
    const char* flag;
  };
  const std::vector<Case> cases{
      {{"recommend", "--params", "7B", "--data", "200GB", "--images", "1M"}, "--images"},
      {{"recommend", "--model", "resnet-50"}, "--images"},
      {{"recommend", "--model", "resnet-50", "--tokens", "1B"}, "--tokens"},
      {{"recommend", "--model", "vit-b-16", "--images", "1M", "--resolution", "250"}, "--resolution"},
      {{"recommend", "--model", "resnet-50", "--images", "1M", "--task", "lora"}, "--task"},
      {{"recommend", "--model", "resnet-50", "--images", "1M", "--task", "inference", "--rate", "100"}, "--rate"},
      {{"recommend", "--model", "resnet-50", "--images", "1M", "--task", "inference", "--epochs", "2"}, "--epochs"},
      {{"recommend", "--model", "resnet-50", "--images", "1M", "--data-loader", "ffcv"}, "--data-loader"},
  };
  for (const Case& c : cases) {
    const auto result = run_cli(c.args);
    INFO(result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK_THAT(result.err, Catch::Contains(c.flag));
  }
  // --data counts images at ImageNet's 108 KB, or --bytes-per-image.
  CHECK(json_of({"estimate", "--model", "resnet-50", "--data", "138GB", "--device", "a100-80gb"})["workload"]["vision"]
                ["images"] == Approx(1'281'167).epsilon(0.001));
  CHECK(json_of({"estimate", "--model", "resnet-50", "--data", "100GB", "--bytes-per-image", "1MB", "--device",
                 "a100-80gb"})["workload"]["vision"]["images"] == Approx(100'000));
}

TEST_CASE("vision: a CPU trains at its memory bandwidth and decodes on the same cores", "[vision]") {
  // MLPerf Training v1.0: ResNet-50 on eight Cooper Lake sockets (224 cores) in 943.6
  // minutes, about 3.8 img/s a core; Sapphire Rapids' AMX may double or triple that.
  const nlohmann::json cpu = json_of({"estimate", "--model", "resnet-50", "--images", "1.28M", "--epochs", "90",
                                      "--offering", "aws-c7i.48xlarge"});
  const auto& vision = cpu["compute"]["vision"];
  const double per_core = vision["images_per_s"].get<double>() / 96;
  CHECK(per_core > 3.8);
  CHECK(per_core < 3 * 3.8);
  // Decoding takes turns with training: slower than either alone.
  CHECK(vision["images_per_s"].get<double>() < vision["device_images_per_s"].get<double>());
  CHECK(vision["loader_bound"] == false);
}

TEST_CASE("vision: the search lowers the per-GPU batch before checkpointing", "[vision]") {
  // ViT-B/16 at 384 px does not fit a T4 at 128 images; 32 without checkpointing is faster
  // than 128 with it.
  const nlohmann::json report = json_of({"recommend", "--model", "vit-b-16", "--task", "finetune", "--images", "100k",
                                         "--epochs", "10", "--resolution", "384", "--gpus", "t4:1", "--top", "1"});
  REQUIRE(!report["recommendations"].empty());
  const auto& strategy = report["recommendations"][0]["strategy"];
  CHECK(strategy["recompute"] == "none");
  CHECK(strategy["micro_batch"].get<int>() < 128);
}

TEST_CASE("vision: YOLO decodes four images a sample (mosaic)", "[vision]") {
  const auto rate = [](const char* model) {
    return json_of({"estimate", "--model", model, "--images", "118k", "--offering", "aws-g5.2xlarge"})["compute"]
                  ["vision"]["loader_images_per_s"]
                      .get<double>();
  };
  CHECK(rate("yolov8m") == Approx(rate("resnet-50") / 4));
}

TEST_CASE("vision: inference scores a batch of images on every device, forward only", "[vision]") {
  const auto run = [](const char* task, const char* count) {
    std::vector<std::string> args{"estimate", "--model", "resnet-50", "--images", "10M", "--device", "a100-80gb",
                                  "--count", count};
    if (std::string(task) == "inference") args.insert(args.end(), {"--task", "inference"});
    return json_of(args);
  };
  const nlohmann::json one = run("inference", "1");
  const nlohmann::json eight = run("inference", "8");
  const nlohmann::json training = run("pretrain", "1");
  // A forward pass: a third of a training step's FLOPs, and its traffic a third too.
  CHECK(one["compute"]["total_flops"].get<double>() == Approx(training["compute"]["total_flops"].get<double>() / 3));
  CHECK(one["compute"]["vision"]["images_per_s"].get<double>() ==
        Approx(3 * training["compute"]["vision"]["images_per_s"].get<double>()).epsilon(0.01));
  // Replicas share the images: eight devices, eight times the rate.
  CHECK(eight["compute"]["vision"]["images_per_s"].get<double>() ==
        Approx(8 * one["compute"]["vision"]["images_per_s"].get<double>()).epsilon(0.01));
  // No gradients, no optimizer states, no epochs.
  CHECK(one["memory"]["per_device"]["gradients_bytes"] == 0);
  CHECK(one["compute"]["vision"]["epoch_overhead_seconds"] == 0);
  const nlohmann::json ranked =
      json_of({"recommend", "--model", "resnet-50", "--task", "inference", "--images", "10M", "--top", "3"});
  CHECK(!ranked["recommendations"].empty());
}
