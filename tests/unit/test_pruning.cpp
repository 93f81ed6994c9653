// The planner skips the training plans a fitting plan dominates (docs/methodology.md#pruning). The search stays
// exhaustive over the documented space: with and without pruning, recommend() must say the same thing, figure for
// figure (issue 12, must-have 3). Nor may the number of threads that plan the offerings.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/rules/rules.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

#include <initializer_list>
#include <random>
#include <string>

using namespace mlsize;

namespace {

Workload preset(const char* name, double tokens, Task task = Task::pretrain) {
  Workload w;
  w.model = *model_preset(name);
  w.parameters = count_parameters(w.model);
  w.tokens = tokens;
  w.task = task;
  return w;
}

void check_same_plan(const PlanEstimate& a, const PlanEstimate& b) {
  CHECK(a.plan.offering == b.plan.offering);
  CHECK(a.plan.device_count == b.plan.device_count);
  CHECK(a.plan.strategy.zero_stage == b.plan.strategy.zero_stage);
  CHECK(a.plan.strategy.recompute == b.plan.strategy.recompute);
  CHECK(a.plan.strategy.tensor_parallel == b.plan.strategy.tensor_parallel);
  CHECK(a.plan.strategy.pipeline_parallel == b.plan.strategy.pipeline_parallel);
  CHECK(a.plan.strategy.micro_batch == b.plan.strategy.micro_batch);
  CHECK(a.plan.strategy.offload == b.plan.strategy.offload);
  CHECK(a.host_fits == b.host_fits);
  CHECK(a.precision == b.precision);
  CHECK(a.time.value == b.time.value);
  CHECK(a.cost.has_value() == b.cost.has_value());
  if (a.cost && b.cost) CHECK(a.cost->value == b.cost->value);
  CHECK(a.memory.total().value == b.memory.total().value);
}

void check_same_report(const Report& a, const Report& b) {
  REQUIRE(a.recommendations.size() == b.recommendations.size());
  for (std::size_t i = 0; i < a.recommendations.size(); ++i) {
    INFO("recommendation " << i << ": " << a.recommendations[i].plan.offering->id);
    check_same_plan(a.recommendations[i], b.recommendations[i]);
    CHECK(a.recommendations[i].rule_score == b.recommendations[i].rule_score);
    CHECK(a.recommendations[i].pareto == b.recommendations[i].pareto);
  }
  REQUIRE(a.purchases.size() == b.purchases.size());
  for (std::size_t i = 0; i < a.purchases.size(); ++i) check_same_plan(a.purchases[i], b.purchases[i]);
  REQUIRE(a.rejected.size() == b.rejected.size());
  for (std::size_t i = 0; i < a.rejected.size(); ++i) {
    const Rejection& x = a.rejected[i];
    const Rejection& y = b.rejected[i];
    INFO("rejection " << x.offering->id);
    CHECK(x.offering == y.offering);
    CHECK(x.reason == y.reason);
    REQUIRE((x.nearest != nullptr) == (y.nearest != nullptr));
    if (x.nearest) check_same_plan(*x.nearest, *y.nearest);
  }
  REQUIRE(a.fastest_fitting.has_value() == b.fastest_fitting.has_value());
  if (a.fastest_fitting) check_same_plan(*a.fastest_fitting, *b.fastest_fitting);
  REQUIRE(a.advice.size() == b.advice.size());
  for (std::size_t i = 0; i < a.advice.size(); ++i) CHECK(a.advice[i].rule == b.advice[i].rule);
}

}  // namespace

TEST_CASE("pruning dominated plans changes nothing in the report", "[ranker][pruning]") {
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  // Rules that score layouts apart (the search then prunes by score, Slowness): one that
  // makes slower layouts win (tensor parallelism preferred threefold), one that penalizes
  // larger clusters, on top of the defaults (whose fine-tuning rule penalizes tensor and
  // pipeline layouts).
  RuleSet layout_rules = load_default_rules();
  layout_rules.load_yaml(R"(rules:
  - id: test-prefer-tensor-parallel
    description: prefers tensor-parallel layouts
    when: plan.tensor_parallel > 1 and workload.task == "pretrain"
    action: prefer
    factor: 3
  - id: test-penalize-clusters
    description: penalizes more than 16 devices
    when: plan.device_count > 16 or plan.pipeline_parallel > 2
    action: penalize
    factor: 1.5
)",
                         "<test>");
  struct Case {
    std::string name;
    Workload workload;
    RecommendSettings settings;
  };
  std::vector<Case> cases;
  const auto add = [&](std::string name, Workload w) {
    RecommendSettings settings;
    settings.rules = &rules;
    cases.push_back({std::move(name), std::move(w), settings});
    return &cases.back();
  };
  add("7B pre-training, 50B tokens (the main job)", testing::workload_for_params(7e9, 50e9));
  add("Llama-3-70B pre-training within a week", preset("llama-3-70b", 2e11))->workload.deadline = Seconds(7 * 86400.0);
  {
    Workload w = preset("llama-2-7b", 2e9, Task::finetune);
    w.framework = Framework::hf;
    w.budget = Usd(500);
    add("Llama-2-7B fine-tuning (transformers) under $500", w);
  }
  add("Llama-2-13B LoRA", preset("llama-2-13b", 1e8, Task::lora));
  add("Llama-2-70B QLoRA", preset("llama-2-70b", 1e8, Task::qlora));
  add("1B pre-training, optimised for time", testing::workload_for_params(1e9, 2e10))->settings.objective =
      Objective::time;
  add("13B pre-training, balanced", testing::workload_for_params(13e9, 1e11))->settings.objective = Objective::balanced;
  {
    Workload w = testing::workload_for_params(3e9, 1e10);
    w.precision = Precision::fp32;
    add("3B fp32, no rules, purchases too", w);
    cases.back().settings.rules = nullptr;
    cases.back().settings.include_purchase = true;
    cases.back().settings.precision_per_device = false;
  }
  {
    Workload w = preset("llama-3-8b", 5e10);
    w.deadline = Seconds(3600);
    add("Llama-3-8B within an hour: nothing meets it", w);
  }
  {
    // Clusters over the network, where data-parallel communication is exposed and other
    // layouts compete with plain data parallelism.
    Workload w = preset("llama-3-70b", 1e11);
    w.budget = Usd(400000);
    Case* c = add("Llama-3-70B on 16, 32 or 64 H100s under $400k", w);
    c->settings.device_counts["h100-sxm"] = {16, 32, 64};
  }
  {
    // Everything hides at this size: times tie at the compute, and the tie-breaks decide.
    Case* c = add("125M pre-training, balanced", testing::workload_for_params(1.25e8, 2.5e9));
    c->settings.objective = Objective::balanced;
  }
  {
    Workload w = preset("llama-3-8b", 1e9, Task::finetune);
    w.micro_batch = 4;
    w.micro_batch_pinned = true;
    w.global_batch = 4.0 * 1024 * 1024;
    Case* c = add("Llama-3-8B fine-tuning, micro-batch 4 pinned, 4M-token batches, for time", w);
    c->settings.objective = Objective::time;
  }
  {
    // Offload plans (docs/methodology.md#offload-in-the-search): the only ones that fit one
    // H100, and on 8 A100s the only full fine-tune of 70B; some hosts are too small.
    Case* c = add("Llama-3-8B full fine-tune on one H100 (ZeRO-Offload)", preset("llama-3-8b", 5e7, Task::finetune));
    c->settings.device_counts["h100-sxm"] = {1};
    c = add("Llama-2-70B full fine-tune on 8 A100 80GB", preset("llama-2-70b", 5e7, Task::finetune));
    c->settings.device_counts["a100-80gb-sxm"] = {8};
    c = add("Llama-2-70B full fine-tune, any hardware, for time", preset("llama-2-70b", 5e7, Task::finetune));
    c->settings.objective = Objective::time;
  }
  {
    // Scored by layout: the defaults' fine-tuning rule alone, then with the rules above.
    Case* c = add("Llama-3-8B full fine-tune, 1B tokens", preset("llama-3-8b", 1e9, Task::finetune));
    c = add("Llama-3-8B full fine-tune, layouts scored apart", preset("llama-3-8b", 1e9, Task::finetune));
    c->settings.rules = &layout_rules;
    c = add("7B pre-training, tensor parallelism preferred", testing::workload_for_params(7e9, 5e10));
    c->settings.rules = &layout_rules;
    c = add("Llama-3-70B pre-training for time, layouts scored apart", preset("llama-3-70b", 2e11));
    c->settings.rules = &layout_rules;
    c->settings.objective = Objective::time;
    c = add("Llama-2-70B full fine-tune, layouts scored apart, balanced", preset("llama-2-70b", 5e7, Task::finetune));
    c->settings.rules = &layout_rules;
    c->settings.objective = Objective::balanced;
  }
  add("Llama-3-70B serving a billion tokens", preset("llama-3-70b", 1e9, Task::inference));
  {
    Workload w = preset("llama-3-8b", 2e6, Task::inference);
    w.batch = 64;
    w.deadline = Seconds(600);
    add("Llama-3-8B serving a few batches within ten minutes: replicas idle", w);
  }
  std::size_t pruned = 0;
  std::size_t serving_pruned = 0;
  std::size_t scored_pruned = 0;  // of the cases whose rules score layouts apart
  for (Case& c : cases) {
    INFO(c.name);
    RecommendSettings unpruned = c.settings;
    unpruned.prune = false;
    const Report with = recommend(c.workload, catalog, c.settings);
    const Report without = recommend(c.workload, catalog, unpruned);
    CHECK(without.plans_pruned == 0);
    CHECK(with.plans_evaluated + with.plans_pruned == without.plans_evaluated);
    check_same_report(with, without);
    pruned += with.plans_pruned;
    if (c.workload.task == Task::inference) serving_pruned += with.plans_pruned;
    if (c.workload.task == Task::finetune || c.settings.rules == &layout_rules) scored_pruned += with.plans_pruned;
  }
  CHECK(pruned > 10000);  // the comparison is not vacuous
  CHECK(serving_pruned > 500);
  CHECK(scored_pruned > 10000);
}

TEST_CASE("no training plan is faster than its least time, and hidden communication meets it", "[pruning]") {
  // Slowness prunes on PlanEstimator::least_time: it must bound every plan's time from
  // below, and meet it when only the unhidden communication shows (the ties it breaks).
  const Catalog catalog = load_default_catalog();
  const CostSettings cost;
  std::size_t met = 0;
  std::size_t checked = 0;
  for (const Workload& w :
       {testing::workload_for_params(7e9, 5e10), preset("llama-3-70b", 1e11), preset("llama-2-13b", 1e8, Task::lora)}) {
    for (const Offering& offering : catalog.offerings()) {
      const Device& device = *catalog.find_device(offering.device_id);
      if (!peak_flops_per_s(device, w) || !device_capacity(device, &offering)) continue;
      PlanEstimator estimator(w, device, &offering, cost);
      for (const Plan& plan : candidate_plans(w, offering, device, 64, {})) {
        INFO(offering.id << " on " << plan.device_count << ", t" << plan.strategy.tensor_parallel << " p"
                         << plan.strategy.pipeline_parallel << " ZeRO-" << plan.strategy.zero_stage);
        const std::optional<Seconds> least = estimator.least_time(plan);
        REQUIRE(least.has_value());
        const PlanEstimate e = estimator.estimate(plan);
        CHECK(least->value <= e.time.value * (1 + 1e-12));
        // The least of the layout: at the workload's micro-batch without recomputation.
        const bool least_of_layout = plan.strategy.micro_batch == 0 && plan.strategy.recompute == Recompute::none;
        if (least_of_layout && e.communication.data_parallel.value == 0) {
          CHECK(least->value == Approx(e.time.value).epsilon(1e-12));
          ++met;
        }
        ++checked;
      }
    }
  }
  CHECK(checked > 10000);
  CHECK(met > 1000);
}

TEST_CASE("random rules that score layouts change nothing that pruning reports", "[ranker][pruning]") {
  // Slowness keeps the fastest plan of each rule score when rules score layouts apart
  // (docs/methodology.md#rules-that-score-layouts): rules drawn at random over the layout's
  // fields, preferring or penalizing by small and large factors, must leave the report as
  // estimating every plan gives it.
  const Catalog catalog = load_default_catalog();
  std::mt19937 draw(49);  // fixed: the same rules on every run
  const auto pick = [&](std::initializer_list<const char*> among) {
    return *(among.begin() + std::uniform_int_distribution<std::size_t>(0, among.size() - 1)(draw));
  };
  const auto term = [&] {
    return std::string(pick({"plan.device_count > 8", "plan.device_count >= 64", "plan.device_count == 1",
                             "plan.tensor_parallel > 1", "plan.tensor_parallel >= 4", "plan.pipeline_parallel > 1",
                             "plan.pipeline_parallel >= 4", "not plan.tensor_parallel == 8"}));
  };
  std::vector<Workload> workloads{testing::workload_for_params(7e9, 5e10), preset("llama-3-70b", 2e11),
                                  preset("llama-3-8b", 1e9, Task::finetune)};
  std::size_t pruned = 0;
  for (int round = 0; round < 6; ++round) {
    std::string yaml = "rules:\n";
    for (int r = 0; r < 3; ++r) {
      const std::string when = term() + pick({" and ", " or "}) + term();
      yaml += "  - id: test-random-" + std::to_string(r) + "\n    description: drawn\n    when: " + when +
              "\n    action: " + pick({"prefer", "penalize"}) + "\n    factor: " + pick({"1.05", "1.5", "3"}) + "\n";
    }
    RuleSet rules = load_default_rules();
    rules.load_yaml(yaml, "<test>");
    RecommendSettings settings;
    settings.rules = &rules;
    settings.objective = round % 2 == 0 ? Objective::cost : Objective::time;
    const Workload& w = workloads[static_cast<std::size_t>(round) % workloads.size()];
    INFO(yaml << (settings.objective == Objective::cost ? "for cost" : "for time"));
    RecommendSettings unpruned = settings;
    unpruned.prune = false;
    const Report with = recommend(w, catalog, settings);
    const Report without = recommend(w, catalog, unpruned);
    CHECK(with.plans_evaluated + with.plans_pruned == without.plans_evaluated);
    check_same_report(with, without);
    pruned += with.plans_pruned;
  }
  CHECK(pruned > 10000);
}

TEST_CASE("a rule that reads plan fields turns pruning off for the plans it judges", "[ranker][pruning]") {
  // A rule could prefer exactly the plans pruning would skip: with it open, nothing is.
  const Catalog catalog = load_default_catalog();
  RuleSet rules = load_default_rules();
  rules.load_yaml(R"(rules:
  - id: test-prefer-recompute
    description: prefers full recomputation
    when: plan.recompute == "full"
    action: prefer
    factor: 3
)",
                  "<test>");
  RecommendSettings settings;
  settings.rules = &rules;
  const Workload w = testing::workload_for_params(7e9, 5e10);
  const Report report = recommend(w, catalog, settings);
  CHECK(report.plans_pruned == 0);
  REQUIRE_FALSE(report.recommendations.empty());
  CHECK(report.recommendations.front().plan.strategy.recompute == Recompute::full);
}

TEST_CASE("the report is the same on any number of threads", "[ranker]") {
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  RecommendSettings settings;
  settings.rules = &rules;
  Workload deadline = preset("llama-3-8b", 5e10);
  deadline.deadline = Seconds(3600);
  for (const Workload& w : {testing::workload_for_params(7e9, 5e10), deadline}) {
    const Report one = recommend(w, catalog, settings);
    RecommendSettings many = settings;
    many.threads = 4;
    const Report four = recommend(w, catalog, many);
    CHECK(one.plans_evaluated == four.plans_evaluated);
    CHECK(one.plans_pruned == four.plans_pruned);
    check_same_report(one, four);
  }
}

// Offerings of one shape share their estimates, priced per offering (issue 49): the report
// must be the one estimating every offering apart gives, figure for figure, wherever the
// price enters (spot interruptions, reservations, a fleet's cost per hour, purchases).
TEST_CASE("sharing the estimates of offerings of one shape changes nothing in the report", "[ranker][shapes]") {
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  struct Case {
    std::string name;
    Workload workload;
    RecommendSettings settings;
  };
  std::vector<Case> cases;
  const auto add = [&](std::string name, Workload w) {
    RecommendSettings settings;
    settings.rules = &rules;
    cases.push_back({std::move(name), std::move(w), settings});
    return &cases.back();
  };
  add("7B pre-training, 50B tokens (the main job)", testing::workload_for_params(7e9, 50e9));
  add("7B pre-training on spot", testing::workload_for_params(7e9, 50e9))->settings.cost.pricing = Pricing::spot;
  add("7B pre-training, reserved a year", testing::workload_for_params(7e9, 50e9))->settings.cost.pricing =
      Pricing::reserved_1y;
  {
    Workload w = preset("llama-2-7b", 2e9, Task::finetune);
    w.budget = Usd(300);
    add("Llama-2-7B fine-tuning under $300, purchases too", w)->settings.include_purchase = true;
  }
  add("Llama-2-70B QLoRA, for time", preset("llama-2-70b", 1e8, Task::qlora))->settings.objective = Objective::time;
  {
    Workload w = preset("llama-3-70b", 1e9, Task::inference);
    w.serving = ServingLoad{};
    w.serving->requests_per_s = 20;
    w.serving->tpot = Seconds(0.05);
    add("Llama-3-70B serving 20 requests a second", w);
  }
  {
    Workload w = preset("llama-3-8b", 1e9, Task::inference);
    w.serving = ServingLoad{};
    w.serving->sizing = true;
    add("Llama-3-8B sized without a load", w);
  }
  {
    Workload w = preset("llama-3-8b", 1e9, Task::inference);
    w.serving = ServingLoad{};
    w.serving->requests_per_s = 0;
    add("Llama-3-8B offline, a billion tokens, on spot", w)->settings.cost.pricing = Pricing::spot;
  }
  {
    // Trees read the host (its vCPUs, its RAM for the rows): offerings of one shape and
    // another host share nothing.
    Workload w;
    w.task = Task::gbdt;
    w.dataset_bytes = Bytes(20e9);
    add("XGBoost on 20 GB, spot", w)->settings.cost.pricing = Pricing::spot;
  }
  std::size_t offerings = 0;
  for (Case& c : cases) {
    INFO(c.name);
    RecommendSettings apart = c.settings;
    apart.share_shapes = false;
    const Report shared = recommend(c.workload, catalog, c.settings);
    const Report alone = recommend(c.workload, catalog, apart);
    CHECK(shared.plans_evaluated == alone.plans_evaluated);
    CHECK(shared.plans_pruned == alone.plans_pruned);
    check_same_report(shared, alone);
    for (std::size_t i = 0; i < shared.recommendations.size(); ++i) {
      const RankedPlan& a = shared.recommendations[i];
      const RankedPlan& b = alone.recommendations[i];
      CHECK(a.preemption.value == b.preemption.value);
      CHECK(a.commitment.has_value() == b.commitment.has_value());
      CHECK(a.purchase.has_value() == b.purchase.has_value());
      REQUIRE(a.serving.has_value() == b.serving.has_value());
      if (a.serving) {
        CHECK(a.serving->per_hour.value == b.serving->per_hour.value);
        CHECK(a.serving->per_million_output_tokens.value == b.serving->per_million_output_tokens.value);
        CHECK(a.plan.units == b.plan.units);
      }
    }
    offerings += shared.recommendations.size();
  }
  CHECK(offerings > 200);  // the comparison is not vacuous
}

TEST_CASE("offerings of one shape differ only in what a plan's physics does not read", "[planner][shapes]") {
  const Catalog catalog = load_default_catalog();
  const Offering& base = *catalog.find_offering("aws-p4d.24xlarge");
  Offering other = base;
  other.id = "elsewhere";
  other.provider = "another";
  other.name = "another name";
  other.price.on_demand = Usd(1);
  other.terms = SharedTerms{};
  CHECK(same_shape(base, other));
  CHECK_FALSE(shape_before(base, other));
  CHECK_FALSE(shape_before(other, base));
  const auto differs = [&](auto edit) {
    Offering changed = base;
    edit(changed);
    CHECK_FALSE(same_shape(base, changed));
    CHECK(shape_before(base, changed) != shape_before(changed, base));
  };
  differs([](Offering& o) { o.devices_per_unit = 4; });
  differs([](Offering& o) { o.vcpus.reset(); });
  differs([](Offering& o) { o.host_memory.reset(); });
  differs([](Offering& o) { o.max_units = 2; });
  differs([](Offering& o) { o.network_gbps = 100.0; });
  differs([](Offering& o) { o.interconnect = Interconnect{"pcie", 64e9}; });
  differs([](Offering& o) { o.device_id = "h100-sxm"; });
  differs([](Offering& o) { o.kind = OfferingKind::on_prem; });
  // Another host of the same shape: the plans that read it are estimated again.
  CHECK(same_host(base, other));
  const auto another_host = [&](auto edit) {
    Offering changed = base;
    edit(changed);
    CHECK(same_shape(base, changed));
    CHECK_FALSE(same_host(base, changed));
    CHECK(shape_before(base, changed) != shape_before(changed, base));
  };
  another_host([](Offering& o) { o.vcpus = 8; });
  another_host([](Offering& o) { o.threads_per_core = 1; });
  another_host([](Offering& o) { o.host_memory = Bytes(1e9); });
}
