// The #1 runs on the user's stack (issue 48): requests of our own whose every ranked plan must
// start as emitted, checked as principles (what holds of any right answer), not one offering.

#include "run_capture.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using mlsize::testing::run_cli;
using Json = nlohmann::json;

namespace {

using Args = std::vector<std::string>;

Json recommend_json(const Args& request) {
  Args args{"recommend"};
  args.insert(args.end(), request.begin(), request.end());
  args.insert(args.end(), {"--format", "json", "--top", "100"});
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return Json::parse(result.out);
}

// "8.0" → 80
int capability(const Json& device) {
  const std::string text = device["compute_capability"].get<std::string>();
  const std::size_t dot = text.find('.');
  return std::stoi(text.substr(0, dot)) * 10 + std::stoi(text.substr(dot + 1));
}

}  // namespace

// vLLM's AWQ kernels need compute capability 7.5 (docs.vllm.ai, features/quantization/
// supported_hardware): a V100 fleet would not start. An expert ranks Turing or later only,
// and says why the V100s are out.
TEST_CASE("stack: AWQ serving ranks no Volta GPU and names the kernel's requirement", "[stack]") {
  const Json report = recommend_json({"--model", "llama-3-70b", "--task", "inference", "--quant", "awq", "--rate", "5",
                                      "--tpot", "60ms", "--pricing", "spot", "--provider", "aws"});
  REQUIRE_FALSE(report["recommendations"].empty());
  for (const Json& plan : report["recommendations"]) {
    INFO(plan["offering"]["id"]);
    REQUIRE(plan["device"]["runtime"] == "cuda");
    CHECK(capability(plan["device"]) >= 75);
  }
  bool v100_named = false;
  for (const Json& rejected : report["rejected"]) {
    if (rejected["device"]["id"].get<std::string>().starts_with("v100")) {
      CHECK(rejected["reason"] == "kernel");
      CHECK(rejected["message"].get<std::string>().find("AWQ needs 7.5 (Turing) or later") != std::string::npos);
      v100_named = true;
    }
  }
  CHECK(v100_named);
}

// Beyond the on-demand limit both plans take a reservation, and a smaller block is easier to
// get (EC2 Capacity Blocks stop at 64 instances): an expert takes the 256 B200s that meet
// the deadline at the same cost, not 1,024. Principle: #1 is its offering's smallest plan
// that meets the constraints whenever that plan costs within 2 % of it.
TEST_CASE("stack: beyond the on-demand limit a near-tie goes to fewer machines", "[stack]") {
  const Json report = recommend_json({"--params", "175B", "--tokens", "300B", "--deadline", "30d", "--max-devices", "2048"});
  const Json& first = report["recommendations"][0];
  REQUIRE(first["beyond_on_demand"].is_object());
  const Json& smallest = first["smallest_plan"];
  REQUIRE(smallest.is_object());
  if (smallest["cost_usd"].get<double>() <= 1.02 * first["cost"]["usd"].get<double>()) {
    CHECK(smallest["device_count"] == first["device_count"]);
  }
  CHECK(first["device_count"].get<int>() <= 256);
}

// XGBoost builds trees at a rate per SM (GBM-perf: H100 3.6 s, A10G 5 s on 10M rows; docs/
// methodology.md#gbdt-run-time): at 10 TB every GPU is busy on its data, and an H100 must
// count as faster than an A10G, not as the same (256 A10Gs had won the job).
TEST_CASE("stack: trees on GPUs at each GPU's own rate", "[stack]") {
  const Json report = recommend_json({"--task", "gbdt", "--data", "10TB"});
  double h100 = 0;
  double a10g = 0;
  for (const Json& plan : report["recommendations"]) {
    const std::string device = plan["device"]["id"];
    const double rate = plan["compute"]["gbdt"]["visits_per_s_per_worker"];
    if (device == "h100-sxm") h100 = rate;
    if (device == "a10g") a10g = rate;
  }
  REQUIRE(h100 > 0);
  REQUIRE(a10g > 0);
  CHECK(h100 / a10g == Approx(132.0 / 80).epsilon(0.01));
  CHECK(report["recommendations"][0]["device"]["id"] != "a10g");
}

// The HF Trainer and accelerate run DDP, ZeRO and FSDP (docs/methodology.md#frameworks): a
// fine-tune on that stack ranks no tensor or pipeline layout, and accelerate launches its #1.
// Unnamed, a full fine-tune's model-parallel plan leads only when over 10 % cheaper.
TEST_CASE("stack: a fine-tune on the HF stack ranks data-parallel plans that accelerate launches", "[stack]") {
  const Args request{"--model", "llama-2-7b", "--task", "finetune", "--tokens", "50M"};
  Args named = request;
  named.insert(named.end(), {"--framework", "hf"});
  const Json on_hf = recommend_json(named);  // kept: a range-for over a temporary's member dangles
  REQUIRE_FALSE(on_hf["recommendations"].empty());
  for (const Json& plan : on_hf["recommendations"]) {
    CHECK(plan["strategy"]["tensor_parallel"] == 1);
    CHECK(plan["strategy"]["pipeline_parallel"] == 1);
  }
  Args emit{"recommend"};
  emit.insert(emit.end(), named.begin(), named.end());
  emit.insert(emit.end(), {"--emit", "accelerate"});
  const auto launched = run_cli(emit);
  INFO(launched.err);
  CHECK(launched.exit_code == 0);

  const Json report = recommend_json(request);
  const Json& first = report["recommendations"][0];
  const bool model_parallel = first["strategy"]["tensor_parallel"] != 1 || first["strategy"]["pipeline_parallel"] != 1;
  if (model_parallel) {
    for (const Json& plan : report["recommendations"]) {
      if (plan["strategy"]["tensor_parallel"] == 1 && plan["strategy"]["pipeline_parallel"] == 1) {
        CHECK(first["cost"]["usd"].get<double>() * 1.1 <= plan["cost"]["usd"].get<double>());
      }
    }
  }
}

// Trainium runs the Neuron SDK (NeuronX Distributed: tensor, pipeline, ZeRO-1), not CUDA: a
// Trainium plan ranks with such a layout and says so, and no CUDA launcher is offered for it.
TEST_CASE("stack: Trainium ranks with a NeuronX layout, and the CUDA launchers refuse it", "[stack]") {
  const Args request{"--model", "llama-2-13b", "--task", "finetune", "--tokens", "100M", "--provider", "aws-sagemaker"};
  const Json report = recommend_json(request);
  bool trainium = false;
  for (const Json& plan : report["recommendations"]) {
    if (plan["device"]["runtime"] != "neuron") continue;
    trainium = true;
    CHECK(plan["strategy"]["zero_stage"].get<int>() <= 1);
    CHECK(plan["strategy"]["offload"] == "none");
    CHECK(plan["launchers"].empty());
  }
  CHECK(trainium);
  Args table{"recommend"};
  table.insert(table.end(), request.begin(), request.end());
  const auto shown = run_cli(table);
  if (report["recommendations"][0]["device"]["runtime"] == "neuron") {
    CHECK(shown.out.find("#1 runs on AWS Neuron, not CUDA") != std::string::npos);
    for (const char* kind : {"deepspeed", "torchrun", "accelerate", "skypilot"}) {
      Args emit = table;
      emit.insert(emit.end(), {"--emit", kind});
      const auto refused = run_cli(emit);
      CHECK(refused.exit_code == 2);
      CHECK(refused.out.empty());
      CHECK(refused.err.find("Neuron SDK") != std::string::npos);
    }
  }
}

// vLLM needs 2 + N physical cores on a machine of N GPUs (docs.vllm.ai, configuration/
// optimization), and SGLang runs as many processes (its HTTP server and tokenizer, a scheduler
// per GPU, the detokenizer: sglang's entrypoints/engine.py): a 2-vCPU VM does not serve, and
// no ranked plan's machine is below it.
TEST_CASE("stack: no serving plan on a host with fewer cores than the engine's processes", "[stack]") {
  const Json catalog = [] {
    const auto listed = run_cli({"catalog", "list", "--format", "json"});
    REQUIRE(listed.exit_code == 0);
    return Json::parse(listed.out);
  }();
  for (const char* engine : {"vllm", "sglang"}) {
    INFO(engine);
    const Json report =
        recommend_json({"--model", "llama-2-7b", "--task", "inference", "--rate", "2", "--engine", engine});
    REQUIRE_FALSE(report["recommendations"].empty());
    bool rejected = false;
    for (const Json& r : report["rejected"]) rejected = rejected || r["reason"] == "host_cpus";
    CHECK(rejected);
    for (const Json& plan : report["recommendations"]) {
      const std::string id = plan["offering"]["id"];
      for (const Json& offering : catalog["offerings"]) {
        if (offering["id"] != id || !offering["vcpus"].is_number()) continue;
        const int gpus = offering["devices_per_unit"];
        const int machines = std::max(1, (gpus + 7) / 8);
        INFO(id);
        CHECK(offering["vcpus"].get<int>() / 2 >= (2 + gpus / machines) * machines);
      }
    }
  }
}

// A trainer runs a process per GPU and a DataLoader worker beside it (stas00/ml-engineering,
// compute/cpu), each process holding about 2 GB of host RAM for CUDA (pytorch/pytorch#113326),
// and the host reads the 16-bit checkpoint once: no ranked training plan's machine is below
// that, and the small shapes that were (Cudo's 2 × H100 with 16 GB for a 7B model) are
// rejected, saying why.
TEST_CASE("stack: no training plan on a host below the floor of CPUs and RAM per GPU", "[stack]") {
  const Json catalog = [] {
    const auto listed = run_cli({"catalog", "list", "--format", "json"});
    REQUIRE(listed.exit_code == 0);
    return Json::parse(listed.out);
  }();
  for (const Args& request : {Args{"--model", "llama-2-7b", "--task", "finetune", "--tokens", "50M"},
                              Args{"--params", "7B", "--tokens", "20B"},
                              Args{"--model", "gpt2", "--task", "pretrain", "--tokens", "2B"}}) {
    const Json report = recommend_json(request);
    REQUIRE_FALSE(report["recommendations"].empty());
    const double parameters = report["workload"]["params"].get<double>();
    for (const Json& plan : report["recommendations"]) {
      const std::string id = plan["offering"]["id"];
      for (const Json& offering : catalog["offerings"]) {
        if (offering["id"] != id || !offering["vcpus"].is_number() || plan["device"]["kind"] == "cpu") continue;
        const int gpus = offering["devices_per_unit"];
        const int machines = std::max(1, (gpus + 7) / 8);
        INFO(id);
        CHECK(offering["vcpus"].get<int>() >= 2 * gpus);
        if (offering["host_memory_bytes"].is_number()) {
          CHECK(offering["host_memory_bytes"].get<double>() / machines >= 2 * parameters + 2e9 * gpus / machines);
        }
      }
    }
  }
  const Json small = recommend_json({"--params", "7B", "--tokens", "20B", "--provider", "cudo"});
  bool named = false;
  for (const Json& r : small["rejected"]) {
    named = named || (r["offering"]["id"] == "cudo-sapphire-rapids-h100_2x8v16gb" && r["reason"] == "host_memory");
  }
  CHECK(named);
}

// Each named framework ranks only what its stack trains with, on devices it runs on
// (docs/methodology.md#frameworks), and the rest is rejected as `framework`.
TEST_CASE("stack: each --framework ranks its own layouts on its own devices", "[stack]") {
  const Args request{"--model", "llama-2-7b", "--task", "finetune", "--tokens", "50M"};
  const auto ranked = [&](const char* framework) {
    Args named = request;
    named.insert(named.end(), {"--framework", framework});
    return recommend_json(named);
  };
  const auto rejected_for_framework = [](const Json& report) {
    for (const Json& r : report["rejected"]) {
      if (r["reason"] == "framework") return true;
    }
    return false;
  };
  const Json neuron = ranked("neuron");
  REQUIRE_FALSE(neuron["recommendations"].empty());
  for (const Json& plan : neuron["recommendations"]) {
    CHECK(plan["device"]["runtime"] == "neuron");
    CHECK(plan["strategy"]["zero_stage"].get<int>() <= 1);
    CHECK(plan["strategy"]["offload"] == "none");
  }
  CHECK(rejected_for_framework(neuron));

  const Json deepspeed = ranked("deepspeed");
  REQUIRE_FALSE(deepspeed["recommendations"].empty());
  for (const Json& plan : deepspeed["recommendations"]) {
    const Json& s = plan["strategy"];
    CHECK_FALSE((s["tensor_parallel"] != 1 && s["pipeline_parallel"] != 1));
    if (s["pipeline_parallel"] != 1) CHECK(s["zero_stage"].get<int>() <= 1);
    if (s["tensor_parallel"] != 1) CHECK(s["zero_stage"].get<int>() <= 2);
    CHECK(plan["device"]["runtime"] != "xla");
    CHECK(plan["device"]["runtime"] != "neuron");
  }

  const Json megatron = ranked("megatron");
  for (const Json& plan : megatron["recommendations"]) {
    CHECK((plan["device"]["runtime"] == "cuda" || plan["device"]["runtime"] == "rocm"));
    const Json& s = plan["strategy"];
    if (s["tensor_parallel"] != 1 || s["pipeline_parallel"] != 1) {
      CHECK(s["zero_stage"].get<int>() <= 1);
      CHECK(s["offload"] == "none");
    }
  }

  const Json jax = ranked("jax");
  REQUIRE_FALSE(jax["recommendations"].empty());
  for (const Json& plan : jax["recommendations"]) {
    const int stage = plan["strategy"]["zero_stage"];
    CHECK((stage == 0 || stage == 3));
    CHECK(plan["strategy"]["offload"] == "none");
    CHECK(plan["device"]["runtime"] != "neuron");
  }
  // mlsize writes no MaxText config: every launcher refuses a JAX plan, saying so.
  for (const char* kind : {"torchrun", "deepspeed", "accelerate", "skypilot"}) {
    Args emit{"recommend"};
    emit.insert(emit.end(), request.begin(), request.end());
    emit.insert(emit.end(), {"--framework", "jax", "--emit", kind});
    const auto refused = run_cli(emit);
    INFO(kind);
    CHECK(refused.exit_code == 2);
    CHECK(refused.out.empty());
    CHECK(refused.err.find("JAX") != std::string::npos);
  }
}

// TensorRT-LLM's FP8 needs Ada or later, its W4A16 Ampere or later, and it reads no GGUF
// (NVIDIA Model Optimizer's support matrix): no ranked device below, each rejection says why.
TEST_CASE("stack: TensorRT-LLM ranks only the generations its quantised kernels run on", "[stack]") {
  for (const auto& [quant, least] : {std::pair{"fp8", 89}, std::pair{"awq", 80}}) {
    const Json report =
        recommend_json({"--model", "llama-2-7b", "--task", "inference", "--rate", "2", "--engine", "trtllm", "--quant", quant});
    REQUIRE_FALSE(report["recommendations"].empty());
    for (const Json& plan : report["recommendations"]) {
      INFO(quant << " on " << plan["device"]["id"]);
      CHECK(capability(plan["device"]) >= least);
    }
    bool named = false;
    for (const Json& r : report["rejected"]) {
      named = named || (r["reason"] == "kernel" && r["message"].get<std::string>().find("Model Optimizer") != std::string::npos);
    }
    CHECK(named);
  }
  const auto gguf = run_cli({"recommend", "--model", "llama-2-7b", "--task", "inference", "--rate", "2", "--engine",
                             "trtllm", "--quant", "q4_k_m"});
  CHECK(gguf.exit_code == 3);  // no plan: every GPU rejected, saying why
  CHECK(gguf.out.find("kernel") != std::string::npos);
}
