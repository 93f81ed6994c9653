// --rate max and the engine's FP8 KV default (issue 52; docs/methodology.md#saturation).

#include "run_capture.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using mlsize::testing::run_cli;

namespace {

const std::vector<std::string> k_llama8b_fp8{"estimate",      "--model",         "llama-3-8b", "--task",
                                             "inference",     "--engine",        "trtllm",     "--quant",
                                             "fp8",           "--gpus",          "h100:1",     "--prompt-tokens",
                                             "1000",          "--output-tokens", "1000",       "--format",
                                             "json"};

nlohmann::json run_json(std::vector<std::string> args) {
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

}  // namespace

TEST_CASE("saturation: --rate max is an offline job costed per million output tokens", "[saturation]") {
  std::vector<std::string> args = k_llama8b_fp8;
  args.insert(args.end(), {"--rate", "max"});
  const nlohmann::json report = run_json(args);
  CHECK(report["workload"]["tokens"].get<double>() == 1e6);
  CHECK(report["workload"]["serving"]["saturated"] == true);
  const double tokens_per_s = report["serving"]["output_tokens_per_s_per_replica"].get<double>();
  CHECK(tokens_per_s > 5000);
  // Its cost is the $ per million output tokens: a million tokens at the saturated rate,
  // no setup. Sized with --tokens it is an ordinary offline job at the same speed.
  CHECK(report["time"]["seconds"].get<double>() == Approx(1e6 / tokens_per_s).epsilon(0.01));
  args.insert(args.end(), {"--tokens", "100M"});
  const nlohmann::json sized = run_json(args);
  CHECK(sized["serving"]["output_tokens_per_s_per_replica"].get<double>() == Approx(tokens_per_s));
  CHECK(sized["workload"]["tokens"].get<double>() == 1e8);
}

TEST_CASE("saturation: --rate max refuses a run's bounds without a run, and other words", "[saturation]") {
  const auto budget = run_cli({"recommend", "--model", "llama-3-8b", "--task", "inference", "--rate", "max",
                               "--budget", "100"});
  CHECK(budget.exit_code == 2);
  CHECK(budget.err.find("--budget") != std::string::npos);
  const auto word = run_cli({"recommend", "--model", "llama-3-8b", "--task", "inference", "--rate", "most"});
  CHECK(word.exit_code == 2);
  CHECK(word.err.find("or max") != std::string::npos);
}

TEST_CASE("saturation: TensorRT-LLM's FP8 weights cache keys and values in FP8 unless told", "[saturation]") {
  std::vector<std::string> args = k_llama8b_fp8;
  args.insert(args.end(), {"--rate", "max"});
  const nlohmann::json fp8 = run_json(args);
  CHECK(fp8["workload"]["kv_cache_dtype"] == "fp8");
  args.insert(args.end(), {"--kv-cache-dtype", "bf16"});
  const nlohmann::json bf16 = run_json(args);
  CHECK(bf16["workload"]["kv_cache_dtype"] == "bf16");
  // Half the bytes a token: more sequences in flight, more tokens a second.
  CHECK(fp8["serving"]["output_tokens_per_s_per_replica"].get<double>() >
        1.2 * bf16["serving"]["output_tokens_per_s_per_replica"].get<double>());
  // vLLM's FP8 (online, dynamic) keeps a 16-bit cache.
  std::vector<std::string> vllm = k_llama8b_fp8;
  vllm[6] = "vllm";
  vllm.insert(vllm.end(), {"--rate", "max"});
  CHECK(run_json(vllm)["workload"]["kv_cache_dtype"] == "bf16");
}

// TensorRT-LLM sizes its KV cache as 0.9 of the memory free once the model is loaded
// (KvCacheConfig free_gpu_memory_fraction) and admits a request only when its whole context
// is free (GUARANTEED_NO_EVICT); vLLM takes 0.9 of the whole device and pages as sequences
// grow. Llama-3.1-70B in FP8 on one H100 leaves ~10 GB: vLLM keeps 8 of its 80 GB free and has
// room for a few sequences, TensorRT-LLM keeps 1 GB free and serves 840 output tokens/s at
// 1,000/1,000 (perf-overview.md, v0.17: 839.97).
TEST_CASE("saturation: TensorRT-LLM keeps its headroom of what the model leaves and reserves whole contexts",
          "[saturation]") {
  std::vector<std::string> args = k_llama8b_fp8;
  args[2] = "llama-3-70b";
  args.insert(args.end(), {"--rate", "max"});
  const nlohmann::json trtllm = run_json(args);
  const nlohmann::json& memory = trtllm["memory"];
  const double capacity = memory["capacity_bytes"].get<double>();
  const double total = memory["per_device"]["total_bytes"].get<double>();
  const double kv = memory["per_device"]["kv_cache_bytes"].get<double>();
  const double usable = memory["usable_bytes"].get<double>();
  CHECK(usable == Approx(capacity - 0.1 * (capacity - (total - kv))).epsilon(1e-6));
  CHECK(total <= usable);
  const int batch = trtllm["serving"]["batch"].get<int>();
  REQUIRE(batch > 0);
  // Each sequence holds 2,016 tokens (2,000 in 32-token blocks), not its average 1,500.
  const nlohmann::json one = run_json({"estimate", "--model", "llama-3-70b", "--task", "inference", "--quant", "fp8",
                                       "--kv-cache-dtype", "fp8", "--context", "2016", "--batch", "1", "--format",
                                       "json"});
  CHECK(kv / batch == Approx(one["memory"]["per_device"]["kv_cache_bytes"].get<double>()).epsilon(0.001));
  const double tokens_per_s = trtllm["serving"]["output_tokens_per_s_per_replica"].get<double>();
  CHECK(tokens_per_s == Approx(839.97).epsilon(0.25));

  std::vector<std::string> vllm = args;
  vllm[6] = "vllm";
  vllm.insert(vllm.end(), {"--kv-cache-dtype", "fp8"});
  const nlohmann::json paged = run_json(vllm);
  CHECK(paged["memory"]["usable_bytes"].get<double>() == Approx(0.9 * capacity).epsilon(1e-6));
  CHECK(paged["serving"]["batch"].get<int>() < batch);

  // --explain shows the rule it applied.
  std::vector<std::string> explain = args;
  explain.erase(explain.end() - 4, explain.end() - 2);  // --format json
  explain.push_back("--explain");
  const auto text = run_cli(explain);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("usable = capacity − headroom × (capacity − weights − activations − overhead)") !=
        std::string::npos);
  CHECK(text.out.find("reserved on admission") != std::string::npos);
}

namespace {

double saturated(const std::string& engine, std::vector<std::string> model) {
  std::vector<std::string> args{"estimate", "--task",  "inference", "--engine", engine, "--prompt-tokens", "202",
                                "--output-tokens", "179", "--rate", "max", "--max-batch", "256", "--format", "json"};
  args.insert(args.end(), model.begin(), model.end());
  return run_json(args)["serving"]["output_tokens_per_s_per_replica"].get<double>();
}

// A million tokens decoded one sequence at a time by Llama-3-8B on one H100 under `engine`.
double batch1_decode_seconds(const std::string& engine) {
  return run_json({"estimate", "--model", "llama-3-8b", "--task", "inference", "--gpus", "h100:1", "--batch", "1",
                   "--tokens", "1M", "--format", "json", "--engine", engine})["time"]["seconds"]
      .get<double>();
}

}  // namespace

// vLLM before 0.6.0 spent most of a loaded step on the host (vLLM blog 2024-09-05: 62% for
// Llama 3 8B on one H100). Its per-sequence costs were fitted to LambdaLabsML/vllm-benchmark's
// v0.5.4 Llama-3.1-8B and 70B runs; this checks a figure they were not fitted to: Llama-3.1-405B
// FP8 on 8 H100s, 1,280 ShareGPT prompts at rate inf, 1,220.26 output tokens/s (benchmark_v0.md,
// "vLLM v0.5.4 v.s. v0.6.0"), where the current engine's preset says twice that.
TEST_CASE("engine versions: vLLM 0.5's host work per sequence holds up the GPU", "[saturation]") {
  const std::vector<std::string> llama405b{"--model-config",
                                           std::string(MLSIZE_TEST_DATA_DIR) +
                                               "/hf-configs/meta-llama--Meta-Llama-3.1-405B.json",
                                           "--gpus", "h100:8", "--tp", "8", "--quant", "fp8"};
  const double old_engine = saturated("vllm-0.5", llama405b);
  CHECK(old_engine == Approx(1220.26).epsilon(0.25));
  CHECK(saturated("vllm-0.13", llama405b) > 1.5 * old_engine);
  // The host cost is per sequence: one sequence alone decodes nearly as fast as on the
  // versions after it that still schedule between steps.
  CHECK(batch1_decode_seconds("vllm-0.5") > batch1_decode_seconds("vllm-0.13"));
  CHECK(batch1_decode_seconds("vllm-0.5") < 1.05 * batch1_decode_seconds("vllm-0.13"));
}

// SGLang 0.4's overlap scheduler "achieves a 1.1x speedup against its previous version ...
// most significant on small models and large tensor parallelism sizes" (SGLang v0.4 blog,
// 2024-12-04): before it, the host's step is paid, and what it costs at full load is a few
// percent, no more than the blog's 10%, and more on the small model.
TEST_CASE("engine versions: SGLang before 0.4 waits for its scheduler", "[saturation]") {
  const std::vector<std::string> llama8b{"--model", "llama-3-8b", "--gpus", "h100:1"};
  const std::vector<std::string> llama70b{"--model", "llama-3.1-70b", "--gpus", "h100:4", "--tp", "4"};
  const double small = saturated("sglang", llama8b) / saturated("sglang-0.3", llama8b);
  const double large = saturated("sglang", llama70b) / saturated("sglang-0.3", llama70b);
  CHECK(small > 1.01);
  CHECK(small <= 1.1);
  CHECK(large > 1.0);
  CHECK(small > large);
  CHECK(batch1_decode_seconds("sglang-0.3") > batch1_decode_seconds("sglang"));
}

// vLLM 0.14 schedules the next step while the GPU runs this one (v0.14.0 release notes: async
// scheduling on by default, #27614), as SGLang's overlap scheduler does: the host time a step
// waited through before is gone, and at full load the same memory and steps give nearly the
// same throughput, the steps being long.
TEST_CASE("engine versions: vLLM 0.14's asynchronous scheduling hides the host's step", "[saturation]") {
  const double current = batch1_decode_seconds("vllm");
  CHECK(current < batch1_decode_seconds("vllm-0.13"));
  CHECK(current == Approx(batch1_decode_seconds("sglang")).epsilon(0.02));
  const std::vector<std::string> llama8b{"--model", "llama-3-8b", "--gpus", "h100:1"};
  CHECK(saturated("vllm", llama8b) > saturated("vllm-0.13", llama8b));
  CHECK(saturated("vllm", llama8b) < 1.1 * saturated("vllm-0.13", llama8b));
}

// A step's time is its linear layers and its attention, each bound by its own bytes or FLOPs,
// plus the all-reduces and the engine's fixed costs (serving.cpp): the report gives each
// part, and they add up to the TPOT it reports, for engines with and without host work per
// sequence, on one device and split across four.
TEST_CASE("a serving step's parts add up to its TPOT", "[saturation]") {
  for (const char* engine : {"vllm", "vllm-0.5", "trtllm", "sglang-0.3"}) {
    for (const char* gpus : {"h100:1", "h100:4"}) {
      std::vector<std::string> args{"estimate", "--task", "inference", "--model", "llama-3-8b", "--gpus", gpus,
                                    "--rate", "2", "--engine", engine, "--format", "json"};
      if (std::string(gpus) == "h100:4") args.insert(args.end(), {"--tp", "4"});
      const nlohmann::json s = run_json(args)["serving"];
      INFO(engine << " on " << gpus);
      const double parts = s["linear_layers_seconds_per_step"].get<double>() +
                           s["attention_seconds_per_step"].get<double>() +
                           s["all_reduce_seconds_per_step"].get<double>() + s["step_overhead_seconds"].get<double>();
      CHECK(parts == Approx(s["tpot_seconds_at_batch"].get<double>()).epsilon(1e-9));
      CHECK(s["linear_layers_seconds_per_step"].get<double>() > 0);
      CHECK(s["attention_seconds_per_step"].get<double>() > 0);
    }
  }
}

// SGLang runs a prefill batch whenever prompts wait and decodes otherwise
// (--enable-mixed-chunk is off by default): a decoding sequence waits through each prompt's
// step of its own, where vLLM's chunked prefill carries the prompt inside a decode step. Both
// overlap their host work (0.1 ms a step): alone they decode alike, and the gap opens with
// the load (docs/methodology.md#serving-engines).
TEST_CASE("SGLang's prefills are steps of their own that decoding sequences wait through", "[saturation]") {
  const auto serving = [](const char* engine, const char* rate) {
    return run_json({"estimate", "--task", "inference", "--model", "llama-3-8b", "--gpus", "a100-80gb-sxm:1", "--rate",
                     rate, "--prompt-tokens", "202", "--output-tokens", "194", "--engine", engine, "--format",
                     "json"})["serving"];
  };
  const nlohmann::json sglang4 = serving("sglang", "4");
  const nlohmann::json sglang8 = serving("sglang", "8");
  const nlohmann::json vllm4 = serving("vllm", "4");
  const nlohmann::json vllm8 = serving("vllm", "8");
  const auto tpot = [](const nlohmann::json& s) { return s["tpot_seconds"].get<double>(); };
  CHECK(sglang8["tpot_seconds_single_stream"].get<double>() ==
        Approx(vllm8["tpot_seconds_single_stream"].get<double>()).epsilon(0.01));
  CHECK(tpot(sglang8) > 1.05 * tpot(vllm8));
  CHECK(tpot(sglang8) - tpot(sglang4) > tpot(vllm8) - tpot(vllm4));
}
