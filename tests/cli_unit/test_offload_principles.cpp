// Offload in the search and the ways out (issue 34): requests of our own from users with
// one card or one node, each saying what an expert picks and which published run it
// mirrors. They check principles that hold of any right answer, not one offering's price.

#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
using Json = nlohmann::json;

namespace {

using Args = std::vector<std::string>;

Json run_json(const std::string& command, const Args& request, int expected_exit = 0) {
  Args args{command};
  args.insert(args.end(), request.begin(), request.end());
  args.insert(args.end(), {"--format", "json"});
  if (command == "recommend") args.insert(args.end(), {"--top", "1000"});
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == expected_exit);
  return Json::parse(result.out);
}

// One RTX 4090 in a workstation of one's own with `ram_gib` of RAM and 16 cores (an overlay,
// as a user describes their machine).
std::string workstation(const char* name, int ram_gib) {
  const std::filesystem::path dir = mlsize::testing::fresh_directory(name);
  const std::filesystem::path path = dir / "workstation.yaml";
  std::ofstream(path) << "offerings:\n"
                         "  - id: lab-rtx-4090\n"
                         "    provider: on-prem\n"
                         "    kind: on-prem\n"
                         "    name: \"RTX 4090 workstation\"\n"
                         "    device: rtx-4090\n"
                         "    devices_per_unit: 1\n"
                         "    max_units: 1\n"
                      << "    host_memory_gib: " << ram_gib << "\n"
                      << "    vcpus: 32\n"
                      << "    purchase_price_usd: 3500\n"
                         "    power_w: 700\n"
                         "    source: \"a test's own machine\"\n"
                         "    as_of: \"2026-12-01\"\n";
  return path.string();
}

const Json& first(const Json& report) {
  REQUIRE_FALSE(report["recommendations"].empty());
  return report["recommendations"][0];
}

// What a unit's host holds of an offload plan, against the RAM it has.
void check_host_holds(const Json& plan) {
  INFO(plan["offering"]["id"]);
  const int per_unit = std::min(plan["device_count"].get<int>(), plan["offering"]["devices_per_unit"].get<int>());
  const double held = plan["memory"]["host_bytes"].get<double>() * per_unit;
  CHECK(plan["memory"]["host_fits"] == true);
  CHECK(held <= plan["offering"]["host_memory_bytes"].get<double>() * 0.9);
}

}  // namespace

// DeepSpeed's ZeRO-Offload tutorial trains a 10B model on one V100 32GB, and the paper "up to
// 13 billion parameters" on one GPU (Ren et al. 2021, §1): the 16-bit weights stay on the card,
// 16 bytes per parameter of fp32 states go to the host, and 2 more of 16-bit gradients between
// micro-steps. So a 7B full fine-tune fits one 24 GB card if the host has the 126 GB (a 192 GB
// workstation; DeepSpeed's estimator, with its 1.5 safety factor, asks 168 GB); with 64 GB of
// RAM it does not, and LoRA is the way out.
TEST_CASE("principles: one 24 GB card fine-tunes 7B in full with ZeRO-Offload, given the host RAM", "[principles]") {
  const Args request{"--params", "7B", "--task", "finetune", "--tokens", "50M", "--gpus", "rtx-4090:1", "--owned",
                     "lab-rtx-4090"};
  Args big = request;
  big.insert(big.end(), {"--catalog", workstation("mlsize-offload-192", 192)});
  const Json ranked = run_json("recommend", big);
  const Json& plan = first(ranked);
  CHECK(plan["offering"]["id"] == "lab-rtx-4090");
  // ZeRO-Offload, or ZeRO-Infinity with the weights streamed too: either holds 7B on 24 GB.
  CHECK(plan["strategy"]["offload"] != "none");
  CHECK(plan["strategy"]["zero_stage"].get<int>() >= 2);  // DeepSpeed offloads a ZeRO stage's states
  CHECK(plan["memory"]["host_bytes"].get<double>() == Approx(18 * 7e9).epsilon(0.02));
  check_host_holds(plan);
  // The micro-batch is searched: the gradients cross PCIe once per micro-step, so a larger
  // one amortises them, and the host's share stays below half the compute (ZeRO-2 at
  // micro-batch 1 would spend 10× the compute there).
  CHECK(plan["strategy"]["micro_batch"].is_number());
  const Json& time = plan["time"];
  CHECK(time["communication"]["offload_seconds"].get<double>() < 0.5 * time["compute_seconds"].get<double>());

  Args small = request;
  small.insert(small.end(), {"--catalog", workstation("mlsize-offload-64", 64)});
  const Json refused = run_json("recommend", small, 3);
  bool host_named = false;
  for (const Json& rejection : refused["rejected"]) {
    if (rejection["offering"]["id"] != "lab-rtx-4090") continue;
    CHECK(rejection["reason"] == "offload_host");
    CHECK(rejection["failed"]["value"].get<double>() > rejection["failed"]["limit"].get<double>() * 0.9);
    host_named = true;
  }
  CHECK(host_named);
  bool lora = false;
  for (const Json& way : refused["alternatives"]) {
    if (way["change"] == "lora" && way["fits"] == true) {
      CHECK(way["flags"] == "--task lora");
      CHECK(way["plan"]["memory"]["fits"] == true);
      lora = true;
    }
  }
  CHECK(lora);
}

// Llama-3-8B in full needs 8B × 16 bytes = 128 GB of states, more than one H100's 80 GB:
// on one H100 only ZeRO-Offload runs it (as the tutorial's 10B on one V100), at the largest
// micro-batch that fits, on a host that holds 145 GB. Llama-2-13B would need 234 GB on the
// host, more than any one-H100 VM's RAM less the headroom (DeepSpeed's estimator asks 312
// GB): the ways out are more H100s or LoRA.
TEST_CASE("principles: one H100 runs an 8B full fine-tune by offloading, and 13B needs more H100s or LoRA",
          "[principles]") {
  const Json report =
      run_json("recommend", {"--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M", "--gpus", "h100:1"});
  for (const Json& plan : report["recommendations"]) {
    CHECK(plan["device_count"] == 1);
    CHECK(plan["strategy"]["offload"] != "none");
    check_host_holds(plan);
    // Micro-batch 1 would send the gradients 128 times a step (17 of 19 h).
    CHECK(plan["strategy"]["micro_batch"].get<int>() >= 8);
  }
  bool short_host = false;
  for (const Json& rejection : report["rejected"]) short_host = short_host || rejection["reason"] == "offload_host";
  CHECK(short_host);  // the small shapes of the same card (Cudo's 24 GB hosts)
  // A host with fewer cores steps the optimizer more slowly (docs/methodology.md#offload-time):
  // the same plan on Nebius's 16-vCPU H100 VM and Lambda's 26-vCPU one.
  const auto offload_seconds = [](const char* offering) {
    const Json e = run_json("estimate", {"--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M",
                                         "--offering", offering, "--zero", "2", "--offload", "optimizer",
                                         "--micro-batch", "16", "--recompute", "full"});
    return e["time"]["communication"]["offload_seconds"].get<double>();
  };
  CHECK(offload_seconds("nebius-gpu-h100-sxm_1gpu-16vcpu-200gb") > offload_seconds("lambda-gpu_1x_h100_sxm5"));

  const Json thirteen =
      run_json("recommend", {"--model", "llama-2-13b", "--task", "finetune", "--tokens", "50M", "--gpus", "h100:1"}, 3);
  for (const Json& rejection : thirteen["rejected"]) CHECK(rejection["reason"] != "memory");
  std::vector<std::string> fitting;
  for (const Json& way : thirteen["alternatives"]) {
    if (way["fits"] == true) fitting.push_back(way["change"]);
  }
  CHECK(std::find(fitting.begin(), fitting.end(), "more-devices") != fitting.end());
  CHECK(std::find(fitting.begin(), fitting.end(), "lora") != fitting.end());
  // The plan launches as DeepSpeed runs it: stage 2, the optimizer on the CPU, pinned.
  const auto emitted = run_cli({"recommend", "--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M",
                                "--gpus", "h100:1", "--emit", "deepspeed"});
  REQUIRE(emitted.exit_code == 0);
  const Json config = Json::parse(emitted.out);
  CHECK(config["zero_optimization"]["stage"] == 2);
  CHECK(config["zero_optimization"]["offload_optimizer"]["device"] == "cpu");
  CHECK(config["zero_optimization"]["offload_optimizer"]["pin_memory"] == true);
  CHECK_FALSE(config["zero_optimization"].contains("offload_param"));
  CHECK(config["train_micro_batch_size_per_gpu"].get<int>() >= 8);
  // DeepSpeed refuses a torch optimizer under offload (ZeRORuntimeException): the note says
  // to name one in the config.
  CHECK(emitted.err.find("DeepSpeed refuses a torch optimizer under offload") != std::string::npos);
}

// Eight A100 40GB: 30B in full is 480 GB of states, 60 GB per GPU even with ZeRO-3, so the
// optimizer goes to the host (ZeRO-3 Offload); 70B needs the parameters there too
// (ZeRO-Infinity, Rajbhandari et al. 2021, which fine-tunes a trillion parameters on one
// DGX-2 node). Larger models take more of the host.
TEST_CASE("principles: eight A100 40GB fine-tune 30B and 70B with ZeRO-3 offload, the larger offloading more",
          "[principles]") {
  const Json thirty = run_json("recommend", {"--params", "30B", "--task", "finetune", "--tokens", "50M", "--gpus",
                                             "a100-40gb:8"});
  const Json seventy = run_json("recommend", {"--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M",
                                              "--gpus", "a100-40gb:8"});
  for (const Json* report : {&thirty, &seventy}) {
    for (const Json& plan : (*report)["recommendations"]) {
      CHECK(plan["strategy"]["zero_stage"] == 3);
      CHECK(plan["strategy"]["offload"] != "none");
      check_host_holds(plan);
    }
  }
  CHECK(first(seventy)["memory"]["host_bytes"].get<double>() > first(thirty)["memory"]["host_bytes"].get<double>());
  CHECK(first(seventy)["time"]["seconds"].get<double>() > first(thirty)["time"]["seconds"].get<double>());
}

// Offloading costs time (the host's optimizer steps, the PCIe transfers): where the states
// fit the devices, a practitioner does not offload, and neither does the ranking.
TEST_CASE("principles: nothing offloads where the devices hold the states", "[principles]") {
  for (const Args& request : std::vector<Args>{{"--params", "7B", "--data", "200GB"},
                                               {"--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M",
                                                "--gpus", "h100:8"},
                                               {"--model", "llama-2-13b", "--task", "lora", "--tokens", "50M"}}) {
    INFO(request[1]);
    const Json report = run_json("recommend", request);
    for (const Json& plan : report["recommendations"]) CHECK(plan["strategy"]["offload"] == "none");
    CHECK(report["alternatives"].empty());
  }
}

// Nothing fits: the answer still has figures. Llama-2-70B on the one 4090 one owns fits no
// way (LoRA's 16-bit weights are 138 GB, QLoRA's 4-bit 35 GB): each change shows its nearest
// plan and memory. On eight A100 80GB it ranks (ZeRO-3 with the optimizer on the host).
TEST_CASE("principles: when nothing fits, each way out is shown with its figures", "[principles]") {
  const Json none = run_json("recommend", {"--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M", "--gpus",
                                           "rtx-4090:1", "--owned", "on-prem-rtx-4090"},
                             3);
  std::vector<std::string> changes;
  for (const Json& way : none["alternatives"]) {
    changes.push_back(way["change"]);
    CHECK_FALSE(way["flags"].get<std::string>().empty());
    CHECK(way["plan"]["memory"]["per_device"]["total_bytes"].get<double>() > 0);
    if (way["fits"] == false) CHECK(way["plan"]["time"]["seconds"].is_null());
  }
  CHECK(changes == std::vector<std::string>{"adam-8bit", "lora", "qlora"});
  // The nearer the change, the less memory: QLoRA's 4-bit base below LoRA's 16-bit one.
  CHECK(none["alternatives"][2]["plan"]["memory"]["per_device"]["total_bytes"].get<double>() <
        none["alternatives"][1]["plan"]["memory"]["per_device"]["total_bytes"].get<double>());
  const auto table = run_cli({"recommend", "--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M", "--gpus",
                              "rtx-4090:1", "--owned", "on-prem-rtx-4090"});
  CHECK(table.exit_code == 3);
  CHECK(table.out.find("Ways out") != std::string::npos);
  CHECK(table.out.find("--task qlora") != std::string::npos);

  const Json ranked = run_json("recommend", {"--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M",
                                             "--gpus", "a100-80gb:8"});
  CHECK(first(ranked)["strategy"]["offload"] != "none");
  CHECK(ranked["alternatives"].empty());

  // A deadline one H100 cannot meet: more H100s, the same request otherwise.
  const Json late = run_json("recommend",
                             {"--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M", "--gpus", "h100:1",
                              "--deadline", "1h"},
                             3);
  bool more = false;
  for (const Json& way : late["alternatives"]) {
    if (way["change"] != "more-devices") continue;
    more = true;
    CHECK(way["plan"]["device_count"].get<int>() > 1);
    CHECK(way["plan"]["time"]["seconds"].get<double>() <= 3600);
  }
  CHECK(more);
}

// estimate: the same changes, with their figures, and the micro-batch an offload plan wants.
TEST_CASE("estimate lists the changes that make a plan fit, and an offload plan's faster micro-batch", "[principles]") {
  // Llama-2-7B LoRA on one 4090 fills 98% of it at micro-batch 1 without recomputation.
  const Json lora = run_json("estimate", {"--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--device",
                                          "rtx-4090"},
                             3);
  int fitting = 0;
  for (const Json& change : lora["ways_to_fit"]) {
    if (change["fits"] != true) continue;
    ++fitting;
    CHECK(change["memory_per_device_bytes"].get<double>() < change["capacity_bytes"].get<double>());
    CHECK(change["seconds"].get<double>() > 0);
  }
  CHECK(fitting >= 2);  // full recomputation, QLoRA (and a second card)

  // ZeRO-Offload at micro-batch 1 spends 17 h sending gradients for 1.7 h of compute.
  const Json slow = run_json("estimate", {"--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M", "--device",
                                          "h100-sxm", "--count", "1", "--zero", "2", "--offload", "optimizer"});
  REQUIRE(slow["faster_micro_batch"].is_object());
  CHECK(slow["faster_micro_batch"]["micro_batch"].get<int>() >= 4);
  CHECK(slow["faster_micro_batch"]["seconds"].get<double>() < 0.5 * slow["time"]["seconds"].get<double>());
}

// 8-bit Adam (bitsandbytes) steps on the GPU; DeepSpeed's host kernels are Adam, AdamW, Lion
// and Adagrad. A plan offloading it is one no launcher runs: refused, naming the flag.
TEST_CASE("estimate refuses to offload an optimizer DeepSpeed cannot step on the host", "[principles]") {
  const auto result = run_cli({"estimate", "--params", "7B", "--task", "finetune", "--tokens", "50M", "--device",
                               "h100-sxm", "--offload", "optimizer", "--optimizer", "adam-8bit"});
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK(result.err.find("--offload") != std::string::npos);
  CHECK(result.err.find("adam-8bit") != std::string::npos);
}
