// The serving model (docs/methodology.md#serving) against its own physics: the bandwidth
// roofline, the engine's fixed costs, the batch its limits allow, paged KV, tails, static
// batching, expert parallelism; and fleets ranked as a practitioner would. The published
// figures it is checked against are in test_serving_figures.cpp.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/serving.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/rules/rules.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

using namespace mlsize;

namespace {

const Catalog& catalog() {
  static const Catalog c = load_default_catalog();
  return c;
}

Workload serving(const char* model, WeightFormat weights = WeightFormat::bf16, KvFormat kv = KvFormat::bf16) {
  Workload w;
  w.task = Task::inference;
  w.model = *model_preset(model);
  w.parameters = count_parameters(w.model);
  w.weight_format = weights;
  w.kv_format = kv;
  return w;
}

ServingLoad lengths(int prompt, int output) {
  ServingLoad load;
  load.prompt_tokens = prompt;
  load.output_tokens = output;
  return load;
}

Replica replica(const Workload& w, const char* device, int tensor) {
  const std::optional<Replica> r = replica_of(w, *catalog().find_device(device), nullptr, tensor);
  REQUIRE(r.has_value());
  return *r;
}

ReplicaEstimate at(const Workload& w, const char* device, int tensor, int batch, int prompt, int output) {
  return estimate_replica(w, lengths(prompt, output), replica(w, device, tensor), batch);
}

constexpr auto fp8 = WeightFormat::fp8;
constexpr auto kv8 = KvFormat::fp8;

}  // namespace

TEST_CASE("decode never beats the bandwidth roofline", "[serving]") {
  // Each step reads every weight of the device's share but the input embedding table (of
  // which it gathers a row per token): tokens/s per sequence at batch 1 is at most bandwidth
  // ÷ bytes read, at the stated efficiency and less the engine's fixed costs.
  for (const char* device : {"a100-80gb-sxm", "h100-sxm", "l4", "rtx-4090"}) {
    const Workload w = serving("llama-2-7b");
    const ReplicaEstimate r = at(w, device, 1, 1, 100, 100);
    const double bandwidth = *catalog().find_device(device)->memory_bandwidth_bytes_per_s;
    INFO(device);
    CHECK(r.memory_bound);
    CHECK(r.step_bytes.value < r.memory.weights.value + r.memory.kv_cache.value);
    CHECK(r.step_bytes.value >= r.memory.weights.value - input_embedding_bytes(w) - 1);
    CHECK(1 / r.decode_step.value <= bandwidth / r.step_bytes.value);
    CHECK(r.decode_step.value >= r.step_bytes.value / (bandwidth * w.bandwidth_efficiency) +
                                     fixed_step_cost(w).value - 1e-12);
  }
}

TEST_CASE("a mixture of experts reads the experts its tokens choose", "[serving]") {
  // Mixtral-8x7B routes each token to 2 of 8 experts: one sequence's decode step reads
  // the active parameters' weights (12.9B of 46.7B), a large batch nearly all of them.
  const Workload w = serving("mixtral-8x7b");
  const Replica h200 = replica(w, "h200-sxm", 1);
  const double weights = at(w, "h200-sxm", 1, 1, 100, 100).memory.weights.value - input_embedding_bytes(w);
  const double routed = routed_expert_parameters(w.model) * 2;
  const DecodeStep one = decode_step(w, h200, 1, 200);
  const double kv = estimate_replica(w, lengths(199, 2), h200, 1).memory.kv_cache.value;
  CHECK(one.bytes.value - kv == Approx(weights - routed * 6 / 8).epsilon(1e-4));
  CHECK((one.bytes.value - kv) / weights == Approx(w.parameters.active / w.parameters.total).epsilon(0.02));
  const DecodeStep many = decode_step(w, h200, 64, 200);
  CHECK((many.bytes.value - kv * 64) / weights > 0.99);
  // A dense model reads all its weights at any batch.
  const Workload dense = serving("llama-3-8b");
  const DecodeStep dense_one = decode_step(dense, replica(dense, "h200-sxm", 1), 1, 200);
  CHECK(dense_one.bytes.value >=
        at(dense, "h200-sxm", 1, 1, 100, 100).memory.weights.value - input_embedding_bytes(dense));
}

TEST_CASE("the batch is the largest the KV memory, the engine and the targets allow", "[serving]") {
  const Workload w = serving("llama-3-8b");
  const Replica a100 = replica(w, "a100-80gb-sxm", 1);
  SECTION("memory and the engine") {
    ServingLoad load = lengths(2000, 500);
    const ChosenBatch free = choose_batch(w, load, a100);
    REQUIRE(free.replica.batch_capacity > 0);
    CHECK(free.replica.batch == std::min(load.max_batch, free.replica.batch_capacity));
    CHECK(free.replica.memory.total().value <= a100.capacity.value * (1 - w.memory_headroom) * 1.000001);
    load.max_batch = 4;
    const ChosenBatch capped = choose_batch(w, load, a100);
    CHECK(capped.replica.batch == 4);
    CHECK(capped.limit == BatchLimit::max_batch);
    // Nor more sequences than a step takes tokens with the prompts that replace finished
    // ones: 16 tokens a step hold 3 decodes and 3/500 of a 2,000-token prompt each (12).
    load.max_batch = 256;
    load.max_step_tokens = 16;
    CHECK(choose_batch(w, load, a100).replica.batch == 3);
    CHECK(choose_batch(w, load, a100).limit == BatchLimit::step_tokens);
  }
  SECTION("a time per output token") {
    ServingLoad load = lengths(1000, 200);
    const ReplicaEstimate one = estimate_replica(w, load, a100, 1);
    load.tpot = Seconds(one.decode_step.value * 2);
    const ChosenBatch chosen = choose_batch(w, load, a100);
    CHECK_FALSE(chosen.miss);
    CHECK(chosen.limit == BatchLimit::tpot);
    CHECK(chosen.replica.decode_step <= *load.tpot);
    CHECK(estimate_replica(w, load, a100, chosen.replica.batch + 1).decode_step > *load.tpot);
    CHECK(chosen.replica.output_tokens_per_s > one.output_tokens_per_s);
    load.tpot = Seconds(one.decode_step.value / 2);
    const ChosenBatch missed = choose_batch(w, load, a100);
    REQUIRE(missed.miss);
    CHECK(*missed.miss == ServingMiss::tpot);
  }
  SECTION("too big for the device") {
    const Workload big = serving("llama-3-70b");
    const ChosenBatch none = choose_batch(big, lengths(1000, 200), replica(big, "a100-80gb-sxm", 1));
    CHECK(none.replica.batch_capacity == 0);
  }
}

// ---------------------------------------------------------------------------------------
// Ranking a fleet, judged as a practitioner would: principles, not one fixed answer.

namespace {

Report serve(const char* model, double rate, std::optional<Seconds> tpot = std::nullopt,
             WeightFormat weights = WeightFormat::bf16) {
  static const RuleSet rules = load_default_rules();
  Workload w = serving(model, weights, weights == WeightFormat::fp8 ? KvFormat::fp8 : KvFormat::bf16);
  ServingLoad load = lengths(1000, 200);
  load.requests_per_s = rate;
  load.tpot = tpot;
  w.context = load.prompt_tokens + load.output_tokens;
  w.serving = load;
  RecommendSettings settings;
  settings.rules = &rules;
  return recommend(w, catalog(), settings);
}

}  // namespace

TEST_CASE("a light load gets one small replica, not a node", "[serving][ranker]") {
  // An engineer serving Llama-3-8B to one request a second rents one 24-48 GB GPU: a whole
  // 8-GPU node would idle at a few percent.
  const Report report = serve("llama-3-8b", 1.0);
  REQUIRE_FALSE(report.recommendations.empty());
  const RankedPlan& best = report.recommendations.front();
  REQUIRE(best.serving);
  CHECK(best.plan.device_count <= 2);
  CHECK(best.serving->replicas_needed == 1);
  CHECK(best.serving->utilisation <= 0.8);
  for (const RankedPlan& e : report.recommendations) CHECK(e.plan.offering->kind != OfferingKind::free_tier);
}

TEST_CASE("every recommended fleet meets the targets and carries the load", "[serving][ranker]") {
  const Report report = serve("llama-3-70b", 20.0, Seconds(0.05));
  REQUIRE(report.recommendations.size() >= 5);
  for (const RankedPlan& e : report.recommendations) {
    INFO(e.plan.offering->id);
    const ServingEstimate& s = *e.serving;
    CHECK(s.replica.decode_step.value <= 0.05);
    CHECK(s.replicas >= s.replicas_needed);
    CHECK(s.utilisation <= 0.8 + 1e-9);
    // 70B in 16 bits does not fit one 80 GB device with room for a KV cache.
    if (e.plan.device->memory->value <= 80e9) CHECK(e.plan.strategy.tensor_parallel >= 2);
    CHECK(s.per_hour.value > 0);
  }
  // Cheapest first.
  for (std::size_t i = 1; i < report.recommendations.size(); ++i) {
    CHECK(report.recommendations[i - 1].serving->per_hour.value <=
          report.recommendations[i].serving->per_hour.value * 1.02 + 1e-9);
  }
}

TEST_CASE("tighter latency, more load or wider weights never make the fleet cheaper", "[serving][ranker]") {
  // The cheapest fleet of the ranking (#1 may be a faster one within the 2% near-tie).
  const auto cheapest = [](const Report& r) {
    REQUIRE_FALSE(r.recommendations.empty());
    double least = r.recommendations.front().serving->per_hour.value;
    for (const RankedPlan& e : r.recommendations) least = std::min(least, e.serving->per_hour.value);
    return least;
  };
  const double loose = cheapest(serve("llama-3-70b", 10.0, Seconds(0.1)));
  const double tight = cheapest(serve("llama-3-70b", 10.0, Seconds(0.03)));
  CHECK(tight >= loose);
  const double more = cheapest(serve("llama-3-70b", 40.0, Seconds(0.1)));
  CHECK(more >= loose);
  // FP8 weights halve what each decode step reads and what each replica holds.
  const double fp8 = cheapest(serve("llama-3-70b", 10.0, Seconds(0.1), WeightFormat::fp8));
  CHECK(fp8 <= loose);
  // Four times the load for at most four times the cost: fuller units, no loss of scale.
  CHECK(more <= loose * 4 * 1.0001);
}

TEST_CASE("at a light load a replica holds few sequences and answers faster", "[serving]") {
  // Little's law: the sequences in flight are the arrival rate × output tokens × TPOT.
  const Workload w = serving("llama-3-8b");
  const ServingLoad load = lengths(1000, 200);
  const Replica h100 = replica(w, "h100-sxm", 1);
  const ChosenBatch most = choose_batch(w, load, h100);
  const ReplicaEstimate light = estimate_at_load(w, load, h100, most.replica.batch, 0.5);
  const ReplicaEstimate busy = estimate_at_load(w, load, h100, most.replica.batch, most.replica.requests_per_s * 0.8);
  CHECK(light.batch < busy.batch);
  CHECK(busy.batch <= most.replica.batch);
  CHECK(light.decode_step < busy.decode_step);
  CHECK(busy.decode_step <= most.replica.decode_step);
  CHECK(most.replica.requests_per_s * 0.8 * load.output_tokens * busy.decode_step.value <= busy.batch);
}

TEST_CASE("prompts beyond a step's tokens queue, and throughput follows them", "[serving]") {
  // 20,000-token prompts for 10-token answers: a step takes at most 8,192 tokens, so each
  // prompt needs three mixed steps and sequences finish only as fast as prompts get in.
  const Workload w = serving("llama-3-8b");
  const ServingLoad load = lengths(20000, 10);
  const ReplicaEstimate r = estimate_replica(w, load, replica(w, "h200-sxm", 1), 32);
  const double room = load.max_step_tokens - 32;
  CHECK(r.requests_per_s * r.decode_step.value <= room / 20000 * 1.000001);
  CHECK(r.ttft > r.prefill);
}

TEST_CASE("an offline job runs every replica at its largest batch and is costed as a run", "[serving][ranker]") {
  // Scoring a data set: 1B output tokens of Llama-3-8B, no latency target. An engineer
  // fills each GPU with as many sequences as fit and rents what finishes cheapest.
  static const RuleSet rules = load_default_rules();
  Workload w = serving("llama-3-8b");
  ServingLoad load = lengths(500, 100);
  load.requests_per_s = 0;
  w.serving = load;
  w.context = 600;
  w.tokens = 1e9;
  RecommendSettings settings;
  settings.rules = &rules;
  const Report report = recommend(w, catalog(), settings);
  REQUIRE_FALSE(report.recommendations.empty());
  for (const RankedPlan& e : report.recommendations) {
    INFO(e.plan.offering->id);
    const ServingEstimate& s = *e.serving;
    CHECK(s.replica.batch == std::min(load.max_batch, s.replica.batch_capacity));
    CHECK(e.time.value == Approx(w.tokens / s.fleet_output_tokens_per_s + w.setup_time.value).epsilon(1e-9));
    CHECK(s.per_million_output_tokens.value == Approx(e.cost->value / w.tokens * 1e6).epsilon(1e-9));
  }
  // Batches of a few hundred sequences cost cents per million tokens on a rented GPU.
  CHECK(report.recommendations.front().serving->per_million_output_tokens.value < 0.5);
}

// Issue 30, must-have 5: the largest batch the memory holds can starve prompt admission. At
// 128/128 with 8,192 tokens a step, B decodes and the B/128 new prompts' 128 tokens each fit
// while 2B ≤ 8,192: the batch stops at 4,096, where throughput is highest, not at the 7,481
// sequences fp8 KV memory holds on an H200 (which gave 4,571 tokens/s against 26,381).
TEST_CASE("the batch chosen leaves a step room for the prompts that replace finished sequences", "[serving]") {
  const Workload w = serving("llama-3-8b", fp8, kv8);
  ServingLoad load = lengths(128, 128);
  load.max_batch = 8192;
  const Replica r = replica(w, "h200-sxm", 1);
  const ChosenBatch chosen = choose_batch(w, load, r);
  CHECK(chosen.replica.batch == 4096);
  CHECK(chosen.limit == BatchLimit::step_tokens);
  CHECK(chosen.replica.batch_capacity > 4096);  // the memory would hold more
  // Throughput there is above that of any larger batch the memory holds.
  for (int larger : {4200, 5000, 6000, chosen.replica.batch_capacity}) {
    INFO(larger);
    CHECK(estimate_replica(w, load, r, larger).output_tokens_per_s < chosen.replica.output_tokens_per_s);
  }
  // Long outputs leave room: the bound is not reached at the engine's default batch.
  load = lengths(128, 1024);
  CHECK(choose_batch(w, load, r).limit != BatchLimit::step_tokens);
}

// Issue 30, must-have 5: whatever --max-batch allows, the replica never gives less for more.
TEST_CASE("throughput never falls as the engine's batch limit rises", "[serving]") {
  const Workload w = serving("llama-3-8b", fp8, kv8);
  const Replica r = replica(w, "h200-sxm", 1);
  for (const auto& [prompt, output] : {std::pair{128, 128}, {1000, 200}, {128, 2048}, {20000, 100}}) {
    ServingLoad load = lengths(prompt, output);
    double before = 0;
    for (int limit = 1; limit <= 16384; limit *= 2) {
      load.max_batch = limit;
      const double throughput = choose_batch(w, load, r).replica.output_tokens_per_s;
      INFO(prompt << "/" << output << " at --max-batch " << limit);
      CHECK(throughput >= before * (1 - 1e-9));
      before = throughput;
    }
  }
  // The case: 8,192 gives at least what 4,096 gives.
  ServingLoad load = lengths(128, 128);
  load.max_batch = 4096;
  const double at_4096 = choose_batch(w, load, r).replica.output_tokens_per_s;
  load.max_batch = 8192;
  CHECK(choose_batch(w, load, r).replica.output_tokens_per_s >= at_4096);
}

TEST_CASE("a paged KV cache holds sequences at their current length", "[serving]") {
  // vLLM's blocks hold what a sequence has so far, on average its prompt and half its
  // output: more sequences than at their full length (what vLLM reports at start), and
  // exactly as many for llama.cpp, whose slots hold the full context.
  Workload w = serving("llama-3-8b");
  const ServingLoad load = lengths(1000, 1000);
  const ReplicaEstimate paged = estimate_replica(w, load, replica(w, "h100-sxm", 1), 1);
  CHECK(paged.batch_capacity > paged.full_context_capacity);
  CHECK(static_cast<double>(paged.batch_capacity) / paged.full_context_capacity == Approx(2000.0 / 1504).epsilon(0.01));
  w.engine = Engine::llamacpp;
  const ReplicaEstimate slots = estimate_replica(w, load, replica(w, "h100-sxm", 1), 1);
  CHECK(slots.batch_capacity == slots.full_context_capacity);
}

TEST_CASE("the engine's fixed costs bound small models and wide splits", "[serving]") {
  // Per step: the engine's overhead and 45 µs a layer, whatever the bytes. Eight GPUs for a
  // 7B model at batch 1 are bound by them and by the all-reduces, not by the weights' read.
  Workload w = serving("llama-2-7b");
  w.engine = Engine::gptfast;
  const DecodeStep one = decode_step(w, replica(w, "a100-80gb-sxm", 1), 1, 100);
  const DecodeStep eight = decode_step(w, replica(w, "a100-80gb-sxm", 8), 1, 100);
  CHECK(one.step_overhead.value == Approx(32 * 45e-6));
  CHECK(eight.step.value > one.step.value / 4);  // far from the 8× of the bytes alone
  CHECK(eight.step.value > eight.step_overhead.value + eight.all_reduce.value);
  // --step-overhead replaces the engine's.
  w.step_overhead = Seconds(5e-3);
  CHECK(decode_step(w, replica(w, "a100-80gb-sxm", 1), 1, 100).step.value ==
        Approx(one.step.value + 5e-3).epsilon(1e-9));
}

TEST_CASE("low-bit weights read slower than their bytes alone", "[serving]") {
  // AWQ's 4.16 bits a weight are a quarter of bf16's bytes, but its kernels reach 0.8 of
  // bf16's bandwidth: decode is faster, not 3.85× faster.
  const Workload bf16 = serving("llama-3-70b", WeightFormat::bf16);
  const Workload awq = serving("llama-3-70b", WeightFormat::awq);
  const double bf16_step = decode_step(bf16, replica(bf16, "h100-sxm", 4), 1, 1000).step.value;
  const double awq_step = decode_step(awq, replica(awq, "h100-sxm", 4), 1, 1000).step.value;
  CHECK(bf16_step / awq_step > 1.5);
  CHECK(bf16_step / awq_step < 3.85 * 0.8);
  CHECK(weight_kernel_efficiency(awq, *catalog().find_device("h100-sxm")) == Approx(0.8));
  CHECK(weight_kernel_efficiency(awq, *catalog().find_device("t4")) < 0.8);  // no Marlin before Ampere
}

TEST_CASE("tail latencies grow with the percentile and the load", "[serving]") {
  // Erlang C: two servers at an offered load of 1 wait with probability 1/3.
  const Workload w = serving("llama-3-8b");
  ServingLoad load = lengths(1000, 200);
  const Replica h100 = replica(w, "h100-sxm", 1);
  const ChosenBatch most = choose_batch(w, load, h100);
  load.requests_per_s = most.replica.requests_per_s * 0.8;
  const ReplicaEstimate mean = estimate_at_load(w, load, h100, most.replica.batch, load.requests_per_s);
  TailLatency previous = tail_latency(w, load, h100, most.replica.batch, mean, 1);
  CHECK(previous.tpot == mean.decode_step);
  for (int p : {90, 99}) {
    load.percentile = p;
    const TailLatency tail = tail_latency(w, load, h100, most.replica.batch, mean, 1);
    INFO("p" << p);
    CHECK(tail.tpot >= previous.tpot);
    CHECK(tail.ttft >= previous.ttft);
    CHECK(tail.tpot <= most.replica.decode_step);  // the engine runs at most its batch
    previous = tail;
  }
  // Prompts that take more than the fleet's room queue without end.
  load.requests_per_s = most.replica.requests_per_s * 1000;
  CHECK(std::isinf(tail_latency(w, load, h100, most.replica.batch, mean, 1).ttft.value));
}

TEST_CASE("a p99 target on a fleet adds replicas where the median would not", "[serving][ranker]") {
  static const RuleSet rules = load_default_rules();
  Workload w = serving("llama-3-70b");
  ServingLoad load = lengths(1000, 200);
  load.requests_per_s = 20;
  load.tpot = Seconds(0.05);
  w.context = 1200;
  RecommendSettings settings;
  settings.rules = &rules;
  w.serving = load;
  const Report median = recommend(w, catalog(), settings);
  load.percentile = 99;
  w.serving = load;
  const Report p99 = recommend(w, catalog(), settings);
  REQUIRE_FALSE(median.recommendations.empty());
  REQUIRE_FALSE(p99.recommendations.empty());
  for (const RankedPlan& e : p99.recommendations) {
    INFO(e.plan.offering->id);
    CHECK(e.serving->tail.percentile == 99);
    CHECK(e.serving->tail.tpot.value <= 0.05);
    CHECK(e.time == e.serving->tail.tpot);  // what --optimize time ranks by
  }
  CHECK(p99.recommendations.front().serving->per_hour >= median.recommendations.front().serving->per_hour);
}

TEST_CASE("static batching waits for the batch in progress", "[serving]") {
  // Without continuous batching a request waits for the running batch to end: a longer first
  // token, and no more throughput than the same batch run continuously.
  const Workload w = serving("llama-2-7b");
  ServingLoad load = lengths(128, 128);
  const Replica a100 = replica(w, "a100-80gb-sxm", 1);
  const ReplicaEstimate continuous = estimate_replica(w, load, a100, 64);
  load.batching = Batching::fixed;
  const ReplicaEstimate fixed = estimate_replica(w, load, a100, 64);
  CHECK(fixed.ttft > continuous.ttft * 10);
  CHECK(fixed.output_tokens_per_s <= continuous.output_tokens_per_s * 1.05);
}

TEST_CASE("DeepSeek-V3 serves expert-parallel with attention data parallelism", "[serving][ranker]") {
  // 671B parameters in FP8 on eight H200s. Split by tensors, every rank repeats the MLA
  // cache of every sequence; split by experts, each device holds its own sequences': many
  // more fit. The ranking considers both.
  std::ifstream in(std::string(MLSIZE_TEST_DATA_DIR) + "/hf-configs/deepseek-ai--DeepSeek-V3.json");
  std::stringstream text;
  text << in.rdbuf();
  Workload w;
  w.task = Task::inference;
  w.model = architecture_from_hf_config(text.str(), "deepseek-ai--DeepSeek-V3.json");
  w.parameters = count_parameters(w.model);
  w.weight_format = fp8;
  const ServingLoad load = lengths(1000, 500);
  const ReplicaEstimate tensor = estimate_replica(w, load, replica(w, "h200-sxm", 8), 1);
  const std::optional<Replica> experts = replica_of(w, *catalog().find_device("h200-sxm"), nullptr, 1, 8);
  REQUIRE(experts);
  CHECK(experts->devices() == 8);
  const ReplicaEstimate expert = estimate_replica(w, load, *experts, 1);
  CHECK(expert.batch_capacity > 4 * tensor.batch_capacity);
  // Under a heavy load the capacity decides, and expert parallelism wins; under a light one
  // tensor parallelism's lower TPOT wins the tie at the same units (docs/methodology.md).
  static const RuleSet rules = load_default_rules();
  w.serving = load;
  w.serving->requests_per_s = 100;
  w.context = 1500;
  RecommendSettings settings;
  settings.rules = &rules;
  const Report report = recommend(w, catalog(), settings);
  REQUIRE_FALSE(report.recommendations.empty());
  const bool any_expert_parallel =
      std::any_of(report.recommendations.begin(), report.recommendations.end(),
                  [](const RankedPlan& e) { return e.plan.strategy.expert_parallel > 1; });
  CHECK(any_expert_parallel);
}

TEST_CASE("an engine runs only where it runs", "[serving][ranker]") {
  // TensorRT-LLM is NVIDIA's; llama.cpp has no Neuron, TPU or Gaudi backend; vLLM has no Metal.
  const Catalog& c = catalog();
  CHECK(engine_runs_on(Engine::trtllm, *c.find_device("h100-sxm")));
  CHECK_FALSE(engine_runs_on(Engine::trtllm, *c.find_device("mi300x")));
  CHECK_FALSE(engine_runs_on(Engine::llamacpp, *c.find_device("inferentia2")));
  CHECK_FALSE(engine_runs_on(Engine::llamacpp, *c.find_device("tpu-v5e")));
  CHECK(engine_runs_on(Engine::llamacpp, *c.find_device("apple-m2-ultra")));
  CHECK_FALSE(engine_runs_on(Engine::vllm, *c.find_device("apple-m2-ultra")));
  static const RuleSet rules = load_default_rules();
  Workload w = serving("llama-3-8b");
  w.engine = Engine::trtllm;
  ServingLoad load = lengths(1000, 200);
  load.requests_per_s = 5;
  w.serving = load;
  w.context = 1200;
  RecommendSettings settings;
  settings.rules = &rules;
  const Report report = recommend(w, c, settings);
  REQUIRE_FALSE(report.recommendations.empty());
  for (const RankedPlan& e : report.recommendations) CHECK(e.plan.device->vendor == "nvidia");
  const bool rejected_others = std::any_of(report.rejected.begin(), report.rejected.end(), [&](const Rejection& r) {
    return r.reason == RejectionReason::engine && c.find_device(r.offering->device_id)->vendor != "nvidia";
  });
  CHECK(rejected_others);
}

TEST_CASE("prompts queue for prefill at a busy replica, and the tail shows it", "[serving]") {
  // 1,000-token prompts for 20-token answers: prefill is most of the work. At 70% of the
  // replicas' prefill capacity the p99 first token waits well beyond the median.
  const Workload w = serving("llama-3-8b");
  ServingLoad load = lengths(1000, 20);
  const Replica a40 = replica(w, "a40", 1);
  const ChosenBatch most = choose_batch(w, load, a40);
  const double per_replica = 0.7 / (most.replica.prefill.value + k_first_token_overhead_s);
  load.requests_per_s = 4 * per_replica;
  const ReplicaEstimate mean = estimate_at_load(w, load, a40, most.replica.batch, per_replica);
  load.percentile = 50;
  const TailLatency median = tail_latency(w, load, a40, most.replica.batch, mean, 4);
  load.percentile = 99;
  const TailLatency p99 = tail_latency(w, load, a40, most.replica.batch, mean, 4);
  CHECK(p99.prefill_utilisation == Approx(0.7).epsilon(1e-6));
  CHECK(p99.ttft.value > 2 * median.ttft.value);
  CHECK(p99.queueing.value > 3 * (most.replica.prefill.value + k_first_token_overhead_s));
}

// A release names the preset that covers it (docs/methodology.md#engine-versions): vLLM 0.6.0
// moved its host work off the GPU's path and 0.14 scheduled a step ahead; SGLang 0.4 brought
// the overlap scheduler.
TEST_CASE("an engine's release takes the preset that covers it", "[serving][engine]") {
  CHECK(engine_of_release("vllm-0.4.3") == Engine::vllm_05);
  CHECK(engine_of_release("vllm-0.5") == Engine::vllm_05);
  CHECK(engine_of_release("vllm-0.6.0") == Engine::vllm_013);
  CHECK(engine_of_release("vllm-v0.8.5") == Engine::vllm_013);
  CHECK(engine_of_release("vllm-0.13") == Engine::vllm_013);
  CHECK(engine_of_release("vllm-0.14.0") == Engine::vllm);
  CHECK(engine_of_release("vllm-1.2") == Engine::vllm);
  CHECK(engine_of_release("sglang-0.3.0") == Engine::sglang_03);
  CHECK(engine_of_release("sglang-0.4") == Engine::sglang);
  // The presets' own names are releases of the versions they cover.
  for (Engine preset : {Engine::vllm_05, Engine::vllm_013, Engine::sglang_03}) {
    CHECK(engine_of_release(to_string(preset)) == preset);
  }
  CHECK_FALSE(engine_of_release("vllm").has_value());
  CHECK_FALSE(engine_of_release("vllm-").has_value());
  CHECK_FALSE(engine_of_release("vllm-0").has_value());
  CHECK_FALSE(engine_of_release("vllm-0.x").has_value());
  CHECK_FALSE(engine_of_release("vllm-0.8rc1").has_value());
  CHECK_FALSE(engine_of_release("trtllm-0.17").has_value());
  CHECK_FALSE(engine_of_release("-0.8").has_value());
}
