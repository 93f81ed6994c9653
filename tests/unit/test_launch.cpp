// Launch settings (src/core/launch/launch.cpp): the batch identity DeepSpeed asserts, the
// layout of processes, the FSDP counterpart of each ZeRO stage, SkyPilot's names, and which
// kinds refuse which plans.

#include "workload_fixture.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/launch/launch.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>

#include <cmath>

namespace mlsize {
namespace {

const Catalog& catalog() {
  static const Catalog c = load_default_catalog();
  return c;
}

PlanEstimate planned(const Workload& workload, const char* offering_id, int units, Strategy strategy) {
  PlanEstimate estimate;
  estimate.plan.offering = catalog().find_offering(offering_id);
  REQUIRE(estimate.plan.offering != nullptr);
  estimate.plan.device = catalog().find_device(estimate.plan.offering->device_id);
  estimate.plan.units = units;
  estimate.plan.device_count = units * estimate.plan.offering->devices_per_unit;
  estimate.plan.strategy = strategy;
  estimate.precision = workload.precision;
  return estimate;
}

// An inference workload of a preset under the default serving load.
Workload serving_workload(const char* preset, WeightFormat format) {
  Workload w;
  w.model = *model_preset(preset);
  w.parameters = count_parameters(w.model);
  w.task = Task::inference;
  w.serving = ServingLoad{};
  w.weight_format = format;
  return w;
}

// `workload` served on one unit of `offering` per replica group, replicas of `tp` devices
// batching `batch` sequences, the KV memory holding 100 such sequences.
PlanEstimate serving_plan(const Workload& workload, const char* offering, int tp, int batch) {
  PlanEstimate e = planned(workload, offering, 1, Strategy{});
  e.plan.strategy.tensor_parallel = tp;
  e.serving = ServingEstimate{};
  e.serving->replica.batch = batch;
  e.serving->replica.batch_capacity = 100;
  return e;
}

Strategy zero(int stage) {
  Strategy s;
  s.zero_stage = stage;
  return s;
}

}  // namespace

TEST_CASE("launch: DeepSpeed's batch identity holds and the batch is the estimate's", "[launch]") {
  // deepspeed/runtime/config.py, _batch_assertion: train_batch_size = micro × accumulation ×
  // data-parallel world size. The estimate's step (communication.cpp) takes the global batch
  // of global_batch_tokens, rounded up to whole micro-batches.
  Workload w = testing::workload_for_params(7e9);
  w.task = Task::finetune;
  for (int units : {1, 2, 4}) {
    for (int micro : {1, 3}) {
      Strategy s = zero(3);
      s.micro_batch = micro;
      const LaunchSpec spec = launch_spec(w, planned(w, "aws-p5.48xlarge", units, s), {});
      INFO("units " << units << ", micro-batch " << micro);
      CHECK(spec.world_size() == 8 * units);
      CHECK(spec.data_parallel == 8 * units);
      CHECK(spec.micro_batch == micro);
      CHECK(spec.global_batch() == static_cast<long long>(spec.micro_batch) * spec.gradient_accumulation *
                                       spec.data_parallel);
      Workload grown = w;
      grown.micro_batch = micro;
      const double wanted = global_batch_tokens(grown, spec.data_parallel) / w.sequence_length;
      CHECK(static_cast<double>(spec.global_batch()) >= wanted);
      CHECK(static_cast<double>(spec.global_batch()) < wanted + static_cast<double>(micro * spec.data_parallel));
    }
  }
}

TEST_CASE("launch: fine-tuning's 128 sequences on 4 devices are 32 micro-batches of 1", "[launch]") {
  // Alpaca's batch of 128 sequences (communication.cpp), the default for fine-tuning.
  Workload w = testing::workload_for_params(7e9);
  w.task = Task::finetune;
  const LaunchSpec spec = launch_spec(w, planned(w, "aws-p4d.24xlarge", 1, zero(2)), {});
  CHECK(spec.global_batch() == 128);
  CHECK(spec.gradient_accumulation == 16);  // 8 devices
  CHECK(spec.fsdp == FsdpSharding::shard_grad_op);
}

TEST_CASE("launch: ZeRO stages map to FSDP's sharding strategies", "[launch]") {
  Workload w = testing::workload_for_params(1e9);
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), {}).fsdp == FsdpSharding::no_shard);
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(1)), {}).fsdp == FsdpSharding::shard_grad_op);
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(2)), {}).fsdp == FsdpSharding::shard_grad_op);
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(3)), {}).fsdp == FsdpSharding::full_shard);
}

TEST_CASE("launch: model parallelism divides the data-parallel world", "[launch]") {
  Workload w = testing::workload_for_params(70e9, 1e12);
  Strategy s = zero(1);
  s.tensor_parallel = 8;
  s.pipeline_parallel = 2;
  const LaunchSpec spec = launch_spec(w, planned(w, "aws-p5.48xlarge", 4, s), {});
  CHECK(spec.nodes == 4);
  CHECK(spec.processes_per_node == 8);
  CHECK(spec.data_parallel == 2);
  // 4M tokens of 2,048 = 2,048 sequences over 2 replicas of micro-batch 1.
  CHECK(spec.global_batch() == 2048);
  CHECK(spec.gradient_accumulation == 1024);
  CHECK(!unsupported(LaunchKind::torchrun, spec));  // Megatron-LM
  CHECK(unsupported(LaunchKind::deepspeed, spec));  // no TP inside DeepSpeed's pipeline
  CHECK(unsupported(LaunchKind::accelerate, spec)->find("--emit torchrun") != std::string::npos);
}

TEST_CASE("launch: a device without an offering puts eight on a node", "[launch]") {
  Workload w = testing::workload_for_params(7e9);
  PlanEstimate e;
  e.plan.device = catalog().find_device("h100-sxm");
  e.plan.device_count = 32;
  e.plan.strategy = zero(3);
  LaunchSpec spec = launch_spec(w, e, {});
  CHECK(spec.nodes == 4);
  CHECK(spec.processes_per_node == 8);
  e.plan.device_count = 4;
  spec = launch_spec(w, e, {});
  CHECK(spec.nodes == 1);
  CHECK(spec.processes_per_node == 4);
  CHECK(unsupported(LaunchKind::skypilot, spec)->find("--offering") != std::string::npos);
}

TEST_CASE("launch: SkyPilot's accelerator names, per cloud", "[launch]") {
  Workload w = testing::workload_for_params(7e9);
  const auto name = [&](const char* offering) {
    const LaunchSpec spec = launch_spec(w, planned(w, offering, 1, zero(0)), {});
    return spec.accelerator + ":" + std::to_string(spec.accelerators_per_node);
  };
  // skypilot-catalog vms.csv AcceleratorName (shared/reference/cloud-instances.csv).
  CHECK(name("aws-p5.48xlarge") == "H100:8");
  CHECK(name("aws-p4de.24xlarge") == "A100-80GB:8");
  CHECK(name("aws-p4d.24xlarge") == "A100:8");
  CHECK(name("gcp-a3-megagpu-8g") == "H100-MEGA:8");
  CHECK(name("gcp-tpu-v5litepod-8") == "tpu-v5litepod-8:1");
  CHECK(skypilot_cloud("digitalocean") == "do");
  CHECK(skypilot_cloud("aws-sagemaker").empty());
}

TEST_CASE("launch: spot pricing launches spot instances", "[launch]") {
  Workload w = testing::workload_for_params(7e9);
  CostSettings cost;
  cost.pricing = Pricing::spot;
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), cost).spot);
  CHECK_FALSE(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), {}).spot);
}

TEST_CASE("launch: every region priced as the plan's is offered, the plan's first", "[launch]") {
  Workload w = testing::workload_for_params(7e9);
  // Lambda prices its 17 regions of a B200 alike (data/catalog/prices-v9-lambda.yaml).
  const LaunchSpec lambda = launch_spec(w, planned(w, "lambda-gpu_1x_b200_sxm6", 1, zero(0)), {});
  REQUIRE(lambda.regions_alike.size() == 17);
  CHECK(lambda.regions_alike.front() == lambda.region);
  // AWS's p5.48xlarge: $55.04 on demand in three US regions, more elsewhere; its spot prices
  // all differ, so a spot task keeps to the cheapest region.
  const LaunchSpec p5 = launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), {});
  CHECK(p5.regions_alike == std::vector<std::string>{"us-east-1", "us-east-2", "us-west-2"});
  CostSettings spot;
  spot.pricing = Pricing::spot;
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), spot).regions_alike.empty());
}

TEST_CASE("launch: the disk holds the environment, the weights and the node's share of two checkpoints",
          "[launch]") {
  Workload w = testing::workload_for_params(70e9, 1e12);
  // 50 GB + 140 GB of weights + 2 × 14 B × 70e9 = 1,960 GB, all on one node under DDP...
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), {}).disk_gb == 2150);
  // ...an eighth of it on each of 8 nodes when ZeRO shards it: 190 + 245 → 450.
  CHECK(launch_spec(w, planned(w, "aws-p5.48xlarge", 8, zero(3)), {}).disk_gb == 450);
  // SkyPilot's default (256 GB) is the least.
  Workload small = testing::workload_for_params(1e9);
  CHECK(launch_spec(small, planned(small, "aws-p5.48xlarge", 1, zero(0)), {}).disk_gb == 256);
}

TEST_CASE("launch: serving takes the preset's checkpoint and the replica's batch", "[launch]") {
  Workload w = serving_workload("llama-2-7b", WeightFormat::bf16);
  PlanEstimate e = serving_plan(w, "aws-p5.48xlarge", 2, 96);
  const LaunchSpec spec = launch_spec(w, e, {});
  CHECK(spec.model == "meta-llama/Llama-2-7b-hf");
  CHECK(spec.replicas == 4);
  CHECK(spec.replicas_per_node == 4);
  CHECK(spec.max_sequences == 96);
  CHECK(spec.memory_fraction == Approx(0.9));
  CHECK(spec.quantization.empty());
  CHECK_FALSE(spec.prequantized);
  CHECK(!unsupported(LaunchKind::vllm, spec));
  CHECK(unsupported(LaunchKind::deepspeed, spec)->find("--emit vllm") != std::string::npos);
  w.weight_format = WeightFormat::q4_k_m;
  CHECK(unsupported(LaunchKind::vllm, launch_spec(w, e, {})));
}

TEST_CASE("launch: AWQ and GPTQ serve a pre-quantised checkpoint, never the 16-bit one", "[launch]") {
  // vLLM reads the quantisation from the checkpoint (weight_utils.py, get_quant_config:
  // "Cannot find the config file for awq" on a 16-bit one).
  for (const WeightFormat format : {WeightFormat::awq, WeightFormat::gptq, WeightFormat::int4, WeightFormat::int8}) {
    INFO(to_string(format));
    const Workload w = serving_workload("llama-3-70b", format);
    const LaunchSpec spec = launch_spec(w, serving_plan(w, "aws-p5.48xlarge", 4, 32), {});
    CHECK(spec.prequantized);
    CHECK(spec.model.empty());
    CHECK(spec.base_model == "meta-llama/Meta-Llama-3-70B");
  }
  // fp8 quantises a 16-bit checkpoint as it loads; so does bitsandbytes' 4-bit (nf4).
  for (const WeightFormat format : {WeightFormat::fp8, WeightFormat::nf4}) {
    INFO(to_string(format));
    const Workload w = serving_workload("llama-3-70b", format);
    const LaunchSpec spec = launch_spec(w, serving_plan(w, "aws-p5.48xlarge", 4, 32), {});
    CHECK_FALSE(spec.prequantized);
    CHECK(spec.model == "meta-llama/Meta-Llama-3-70B");
  }
  // A config that is such a checkpoint (its quantization_config) is named.
  Workload awq;
  awq.model = architecture_from_hf_config(
      R"({"_name_or_path": "TheBloke/Llama-2-7B-AWQ", "model_type": "llama", "hidden_size": 4096,
          "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000,
          "max_position_embeddings": 4096, "tie_word_embeddings": false,
          "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": true}})",
      "config.json");
  awq.parameters = count_parameters(awq.model);
  awq.task = Task::inference;
  awq.serving = ServingLoad{};
  awq.weight_format = WeightFormat::awq;
  const LaunchSpec named = launch_spec(awq, serving_plan(awq, "aws-p5.48xlarge", 1, 32), {});
  CHECK(named.model == "TheBloke/Llama-2-7B-AWQ");
  CHECK(named.quantization == "awq_marlin");
}

TEST_CASE("launch: 4-bit weights take the Marlin kernels the plan's decode speed assumes", "[launch]") {
  const auto quantization = [](WeightFormat format, const char* offering) {
    const Workload w = serving_workload("llama-2-7b", format);
    return launch_spec(w, serving_plan(w, offering, 1, 8), {});
  };
  CHECK(quantization(WeightFormat::awq, "aws-p5.48xlarge").quantization == "awq_marlin");
  CHECK(quantization(WeightFormat::gptq, "aws-p5.48xlarge").quantization == "gptq_marlin");
  const LaunchSpec int4 = quantization(WeightFormat::int4, "aws-p5.48xlarge");
  CHECK(int4.quantization == "gptq_marlin");  // not bitsandbytes
  CHECK_FALSE(int4.slow_kernel);
  // Marlin needs Ampere (a bf16 peak): a T4 gets GPTQ's own kernel, said to be slower.
  const LaunchSpec t4 = quantization(WeightFormat::int4, "aws-g4dn.xlarge");
  CHECK(t4.quantization == "gptq");
  CHECK(t4.slow_kernel);
  CHECK(quantization(WeightFormat::nf4, "aws-p5.48xlarge").quantization == "bitsandbytes");
  CHECK(quantization(WeightFormat::nf4, "aws-p5.48xlarge").slow_kernel);
  CHECK(quantization(WeightFormat::fp8, "aws-p5.48xlarge").quantization == "fp8");
  // AMD GPUs run none of AWQ, GPTQ or bitsandbytes in vLLM (its supported-hardware table).
  Workload w = serving_workload("llama-2-7b", WeightFormat::awq);
  PlanEstimate amd;
  amd.plan.device = catalog().find_device("mi300x");
  amd.plan.device_count = 1;
  amd.precision = w.precision;
  CHECK(unsupported(LaunchKind::vllm, launch_spec(w, amd, {}))->find("NVIDIA") != std::string::npos);
  w.weight_format = WeightFormat::fp8;
  CHECK(!unsupported(LaunchKind::vllm, launch_spec(w, amd, {})));
}

TEST_CASE("launch: a config without _name_or_path names no checkpoint", "[launch]") {
  const char* shape = R"("model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
      "num_attention_heads": 16, "intermediate_size": 5504, "vocab_size": 32000, "tie_word_embeddings": false)";
  const auto model_of = [&](const std::string& name_field) {
    Workload w;
    w.model = architecture_from_hf_config("{" + name_field + shape + "}", "models/my-model/config.json");
    w.parameters = count_parameters(w.model);
    w.task = Task::inference;
    return launch_spec(w, serving_plan(w, "aws-p5.48xlarge", 1, 8), {}).model;
  };
  CHECK(model_of("").empty());  // not "models/my-model/config.json"
  CHECK(model_of(R"("_name_or_path": "acme/tiny-llama",)") == "acme/tiny-llama");
  CHECK(model_of(R"("_name_or_path": "/home/me/checkpoints/run-3",)").empty());  // a local path
  CHECK(model_of(R"("_name_or_path": "models/my-model/config.json",)").empty());
}

TEST_CASE("launch: the longest request is the model's context when the KV memory holds it", "[launch]") {
  // llama-2-7b: 4,096 positions; the load's mean request is 1,000 + 200 tokens.
  const Workload w = serving_workload("llama-2-7b", WeightFormat::bf16);
  const auto length = [&](int capacity) {
    PlanEstimate e = serving_plan(w, "aws-p5.48xlarge", 1, 8);
    e.serving->replica.batch_capacity = capacity;
    return launch_spec(w, e, {});
  };
  const LaunchSpec roomy = length(100);  // 120,000 tokens of KV memory
  CHECK(roomy.max_model_length == 4096);
  CHECK(roomy.max_model_length_rule == ModelLengthRule::model_positions);
  CHECK(roomy.kv_tokens == 120000);
  // Three sequences of 1,200 (3,600 tokens) hold no 4,096: twice the request, within them.
  const LaunchSpec tight = length(3);
  CHECK(tight.max_model_length == 2 * 1200);
  CHECK(tight.max_model_length_rule == ModelLengthRule::request_multiple);
  CHECK(length(2).max_model_length == 2400);
  // Never below the request the plan was sized for.
  CHECK(length(1).max_model_length == 1200);
}

TEST_CASE("launch: each kind refuses what its tool cannot do", "[launch]") {
  Workload w = testing::workload_for_params(7e9);
  Strategy pipeline = zero(2);
  pipeline.pipeline_parallel = 2;
  CHECK(unsupported(LaunchKind::deepspeed, launch_spec(w, planned(w, "aws-p5.48xlarge", 1, pipeline), {})));
  Strategy autotp = zero(3);
  autotp.tensor_parallel = 2;
  const LaunchSpec tp3 = launch_spec(w, planned(w, "aws-p5.48xlarge", 1, autotp), {});
  CHECK(unsupported(LaunchKind::deepspeed, tp3));
  CHECK(unsupported(LaunchKind::torchrun, tp3));
  CHECK(unsupported(LaunchKind::vllm, tp3)->find("training") != std::string::npos);
  // On-premise hardware is no cloud.
  CHECK(unsupported(LaunchKind::skypilot, launch_spec(w, planned(w, "on-prem-dgx-a100-320gb", 1, zero(0)), {})));
  w.task = Task::gbdt;
  CHECK(unsupported(LaunchKind::torchrun, launch_spec(w, planned(w, "aws-p5.48xlarge", 1, zero(0)), {})));
}

}  // namespace mlsize
