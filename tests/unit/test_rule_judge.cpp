// The ranking judges plans with a RuleJudge: the rules decided as soon as the fields they
// read are known (once per run from the workload, once per offering from the device and
// offering), the rest per plan. It must decide exactly what one evaluation of every rule
// decides (issue 12: "evaluated where their inputs change").

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rule_judge.hpp>
#include <mlsize/rules/rules.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

using namespace mlsize;

namespace {

Expression parse(std::string_view text) {
  return Expression::parse(text, rule_fields());
}

}  // namespace

TEST_CASE("an expression is refuted by a false term over known fields", "[rules]") {
  FieldValues values = rule_field_values(testing::workload_for_params(7e9));  // workload fields only
  const std::size_t known = k_first_device_field;
  CHECK(parse("workload.params <= 100M and plan.device_count > 1").refuted(values, known));
  CHECK(parse("plan.device_count > 1 and workload.params <= 100M").refuted(values, known));
  CHECK(
      parse("(plan.zero_stage == 3 and workload.task == \"gbdt\") and device.kind == \"gpu\"").refuted(values, known));
  // Terms that hold, or read unknown fields, cannot refute; neither can `or` or `not` over them.
  CHECK_FALSE(parse("workload.params > 1B and plan.device_count > 1").refuted(values, known));
  CHECK_FALSE(parse("workload.params <= 100M or plan.device_count > 1").refuted(values, known));
  CHECK_FALSE(parse("not (workload.params > 1B and plan.device_count > 1)").refuted(values, known));
  CHECK_FALSE(parse("device.kind == \"tpu\"").refuted(values, known));
  CHECK_FALSE(Expression().refuted(values, known));
  // A term over known fields that reads a missing value is false, as it will be then.
  CHECK(parse("workload.budget_usd > 100 and plan.device_count > 1").refuted(values, known));
  CHECK(parse("not (workload.params > 1B) and plan.device_count > 1").refuted(values, known));
}

TEST_CASE("once known terms are dropped, the terms left decide what the whole expression does", "[rules]") {
  // The judge evaluates for each plan only the top-level `and` terms the known fields do not
  // settle (issue 49): for any plan's fields, holds_all over them must be evaluate().
  FieldValues values = rule_field_values(testing::workload_for_params(7e9));
  const std::size_t known = k_first_device_field;
  const Expression e = parse(
      "workload.params > 1B and (plan.tensor_parallel > 1 or plan.pipeline_parallel > 1) and "
      "not workload.framework in [\"jax\"] and plan.device_count >= 2");
  REQUIRE_FALSE(e.refuted(values, known));
  const Expression::Terms left = e.unknown_terms(values, known);
  CHECK(left.size() == 2);  // the two terms over plan fields
  for (int devices : {1, 2, 8}) {
    for (int tensor : {1, 2}) {
      for (int pipeline : {1, 4}) {
        values[field_id(RuleField::plan_device_count)] = devices;
        values[field_id(RuleField::plan_tensor_parallel)] = tensor;
        values[field_id(RuleField::plan_pipeline_parallel)] = pipeline;
        INFO(devices << " devices, t " << tensor << ", p " << pipeline);
        CHECK(e.holds_all(left, values) == e.evaluate(values));
      }
    }
  }
  // Nothing known: every term is left; an expression of known terms that hold leaves none.
  CHECK(e.unknown_terms(values, 0).size() == 4);
  CHECK(parse("workload.params > 1B").unknown_terms(values, known).empty());
  CHECK(Expression().unknown_terms(values, known).empty());
}

TEST_CASE("the judge decides what one evaluation of every rule decides", "[rules]") {
  const Catalog catalog = load_default_catalog();
  RuleSet rules = load_default_rules();
  // Rules of the kinds users write: a require over plan fields, an or across scopes.
  rules.load_yaml(R"(rules:
  - id: test-require-small-tp
    description: tensor parallelism of at most 4 on GPUs
    when: device.kind == "gpu" and workload.params > 1B
    action: require
    require: plan.tensor_parallel <= 4
    message: at most 4
  - id: test-prefer-fits-or-cheap
    description: an or across scopes
    when: estimate.memory_fraction < 0.5 or offering.kind == "on-prem"
    action: prefer
    factor: 1.5
  - id: test-penalize-big
    description: a workload term that holds, then a plan term
    when: workload.tokens > 0 and plan.device_count >= 16
    action: penalize
    factor: 2
)",
                  "<test>");
  std::vector<Workload> workloads{testing::workload_for_params(7e9, 50e9), testing::workload_for_params(1e8, 1e8),
                                  testing::workload_for_params(1e9, 1e9), testing::workload_for_params(70e9, 1e9)};
  workloads[1].task = Task::finetune;
  workloads[1].deadline = Seconds(3600);
  workloads[1].profile = Profile::startup;
  workloads[3].task = Task::qlora;
  std::size_t compared = 0;
  std::size_t excluded = 0;
  std::size_t scored = 0;
  for (const Workload& w : workloads) {
    const RuleJudge run = RuleJudge(rules).narrowed(rule_field_values(w), k_first_device_field);
    for (const Offering& offering : catalog.offerings()) {
      const Device* device = catalog.find_device(offering.device_id);
      if (device == nullptr || !peak_flops_per_s(*device, w) || !device_capacity(*device, &offering)) continue;
      const RuleJudge judge = run.narrowed(rule_field_values(w, device, &offering), k_first_plan_field);
      for (const Plan& plan : candidate_plans(w, offering, *device, 64)) {
        const PlanEstimate e = estimate_plan(w, plan, CostSettings{});
        const FieldValues values = rule_field_values(w, device, &offering, &e);
        const Verdict verdict = judge.judge(values);
        const RuleOutcome all = rules.evaluate(values);
        INFO(offering.id << ", " << plan.device_count << " devices");
        CHECK(verdict.excluded == all.excluded());
        if (!all.excluded()) CHECK(verdict.score == Approx(all.score));
        if (!judge.open()) CHECK(verdict.excluded == judge.decided().excluded);
        if (all.excluded()) ++excluded;
        if (all.score != 1.0) ++scored;
        ++compared;
      }
    }
  }
  CHECK(compared > 1000);
  CHECK(excluded > 100);  // the comparison saw both verdicts, and scores
  CHECK(scored > 100);
}

TEST_CASE("with the default rules, the main job judges no plan by its own fields", "[rules]") {
  // The point of narrowing: `recommend --params 7B --data 200GB` needs no per-plan rule
  // (the plan-field rules are advice, or ruled out by the model's size).
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  const Workload w = testing::workload_for_params(7e9, 50e9);
  const RuleJudge run = RuleJudge(rules).narrowed(rule_field_values(w), k_first_device_field);
  for (const Offering& offering : catalog.offerings()) {
    const Device* device = catalog.find_device(offering.device_id);
    if (device == nullptr) continue;
    INFO(offering.id);
    CHECK_FALSE(run.narrowed(rule_field_values(w, device, &offering), k_first_plan_field).open());
  }
}

TEST_CASE("a judge scales by layout only when every open rule scores and reads layout fields alone", "[rules]") {
  // The search prunes a full fine-tune by layout (docs/methodology.md#pruning) only while
  // the plans of one layout share a verdict and no rule drops a plan.
  RuleSet rules;
  rules.load_yaml(R"(rules:
  - id: layout-penalty
    description: penalizes model-parallel layouts
    when: workload.task == "finetune" and (plan.tensor_parallel > 1 or plan.pipeline_parallel > 1)
    action: penalize
    factor: 1.1
)",
                  "<test>");
  Workload w = testing::workload_for_params(7e9, 1e9);
  w.task = Task::finetune;
  const FieldValues values = rule_field_values(w);
  const auto judge_of = [&](const RuleSet& set) { return RuleJudge(set).narrowed(values, k_first_device_field); };
  REQUIRE(judge_of(rules).open());
  CHECK(judge_of(rules).scales_only_by(k_layout_fields, k_first_plan_field));

  RuleSet by_stage = rules;  // a field that differs within a layout
  by_stage.load_yaml(R"(rules:
  - id: stage-prefer
    description: prefers ZeRO-3
    when: plan.zero_stage == 3
    action: prefer
    factor: 2
)",
                     "<test>");
  CHECK_FALSE(judge_of(by_stage).scales_only_by(k_layout_fields, k_first_plan_field));

  RuleSet excluding = rules;  // a rule that drops plans of some layouts
  excluding.load_yaml(R"(rules:
  - id: no-pipelines
    description: excludes pipelines
    when: plan.pipeline_parallel > 1
    action: exclude
    message: no pipelines
)",
                      "<test>");
  CHECK_FALSE(judge_of(excluding).scales_only_by(k_layout_fields, k_first_plan_field));

  // A rule the workload refutes is not open, and constrains nothing.
  Workload pretrain = w;
  pretrain.task = Task::pretrain;
  const RuleJudge refuted = RuleJudge(by_stage).narrowed(rule_field_values(pretrain), k_first_device_field);
  CHECK(refuted.open());  // the stage rule is
  CHECK_FALSE(refuted.scales_only_by(k_layout_fields, k_first_plan_field));
  RuleSet only_layout = rules;
  CHECK_FALSE(RuleJudge(only_layout).narrowed(rule_field_values(pretrain), k_first_device_field).open());
}
