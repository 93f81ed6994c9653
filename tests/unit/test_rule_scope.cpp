// Rules that read only workload, device and offering fields decide once per offering
// (RuleScope::offering); the rest once per plan. Together they must decide exactly what
// one evaluation of every rule decides (issue 12: "evaluated where their inputs change").

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rules.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

#include <set>

using namespace mlsize;

namespace {

std::set<const Rule*> fired(const RuleOutcome& outcome) {
  std::set<const Rule*> rules;
  for (const auto* list : {&outcome.exclusions, &outcome.scored, &outcome.advice}) {
    for (const RuleMessage& m : *list) rules.insert(m.rule);
  }
  return rules;
}

}  // namespace

TEST_CASE("a rule reads plan fields or not, and is scoped by it", "[rules]") {
  const RuleSet rules = load_default_rules();
  CHECK_FALSE(rules.find("tpu-needs-xla")->per_plan);          // device.kind
  CHECK_FALSE(rules.find("data-large-distributed")->per_plan);  // workload fields only
  CHECK(rules.find("recompute-when-activations-dominate")->per_plan);
  CHECK(rules.find("deadline-tight-margin")->per_plan);
}

TEST_CASE("per-offering and per-plan rules together decide what all rules decide", "[rules]") {
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  std::vector<Workload> workloads{testing::workload_for_params(7e9, 50e9), testing::workload_for_params(1e8, 1e8)};
  workloads[1].task = Task::finetune;
  workloads[1].deadline = Seconds(3600);
  workloads.push_back(testing::workload_for_params(70e9, 1e9));
  workloads.back().task = Task::qlora;
  std::size_t compared = 0;
  for (const Workload& w : workloads) {
    for (const Offering& offering : catalog.offerings()) {
      const Device* device = catalog.find_device(offering.device_id);
      if (device == nullptr || !peak_flops_per_s(*device, w) || !device_capacity(*device, &offering)) continue;
      FieldValues values;
      fill_rule_fields(values, w, device, &offering, nullptr);
      RuleOutcome shared;
      rules.evaluate(values, shared, false, RuleScope::offering);
      for (const Plan& plan : candidate_plans(w, offering, *device, 64)) {
        const PlanEstimate e = estimate_plan(w, plan, CostSettings{});
        fill_plan_rule_fields(values, w, e);
        RuleOutcome per_plan;
        rules.evaluate(values, per_plan, false, RuleScope::plan);
        const RuleOutcome all = rules.evaluate(rule_field_values(w, device, &offering, &e));
        INFO(offering.id << ", " << plan.device_count << " devices");
        CHECK((shared.excluded() || per_plan.excluded()) == all.excluded());
        CHECK(shared.score * per_plan.score == Approx(all.score));
        std::set<const Rule*> both = fired(shared);
        both.merge(fired(per_plan));
        CHECK(both == fired(all));
        ++compared;
      }
    }
  }
  CHECK(compared > 1000);
}
