// What makes a plan fit (docs/methodology.md#ways-to-fit): each change estimated in full, the
// ones that fit marked, nothing offered for a plan that fits.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/fit_changes.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace mlsize;

namespace {

const Catalog& catalog() {
  static const Catalog loaded = load_default_catalog();
  return loaded;
}

Workload preset(const char* name, Task task) {
  Workload w;
  w.model = *model_preset(name);
  w.parameters = count_parameters(w.model);
  w.tokens = 10e6;
  w.task = task;
  return w;
}

Plan on(const char* device, int count) {
  Plan plan;
  plan.device = catalog().find_device(device);
  plan.device_count = count;
  plan.units = count;
  return plan;
}

const FitChange* find(const std::vector<FitChange>& changes, FitChangeKind kind) {
  const auto found =
      std::find_if(changes.begin(), changes.end(), [&](const FitChange& c) { return c.kind == kind; });
  return found == changes.end() ? nullptr : &*found;
}

}  // namespace

// The case: Llama-2-7B LoRA on a 24 GB card fills 98% of it; full recomputation keeps
// one layer's activations instead of all of them, and QLoRA stores the frozen weights in 4 bits.
TEST_CASE("ways to fit: LoRA on a 24 GB card fits with full recomputation or QLoRA", "[fit]") {
  const Workload lora = preset("llama-2-7b", Task::lora);
  const Plan plan = on("rtx-4090", 1);
  REQUIRE_FALSE(estimate_plan(lora, plan, {}).fits);
  const std::vector<FitChange> changes = ways_to_fit(lora, plan, {}, 64);
  const FitChange* recompute = find(changes, FitChangeKind::recompute_full);
  const FitChange* qlora = find(changes, FitChangeKind::qlora);
  REQUIRE(recompute != nullptr);
  REQUIRE(qlora != nullptr);
  CHECK(recompute->fits);
  CHECK(qlora->fits);
  // Each is what estimating the changed plan gives: the weights shrink only under QLoRA.
  CHECK(recompute->estimate.memory.weights == estimate_plan(lora, plan, {}).memory.weights);
  CHECK(qlora->estimate.memory.weights.value < recompute->estimate.memory.weights.value / 3);
  // One device cannot shard: no ZeRO-3; LoRA is the task already.
  CHECK(find(changes, FitChangeKind::zero_3) == nullptr);
  CHECK(find(changes, FitChangeKind::lora) == nullptr);
  // More devices fit with ZeRO-3 over them.
  const FitChange* more = find(changes, FitChangeKind::more_devices);
  REQUIRE(more != nullptr);
  CHECK(more->fits);
  CHECK(more->estimate.plan.device_count == 2);
  CHECK(more->estimate.plan.strategy.zero_stage == 3);
}

TEST_CASE("ways to fit: none for a plan that fits, and 4-bit weights for a 70B model on one GPU", "[fit]") {
  CHECK(ways_to_fit(preset("llama-2-7b", Task::lora), on("h100-sxm", 1), {}, 64).empty());
  Workload inference = preset("llama-2-70b", Task::inference);
  const std::vector<FitChange> changes = ways_to_fit(inference, on("h100-sxm", 1), {}, 64);
  const FitChange* int8 = find(changes, FitChangeKind::int8_weights);
  const FitChange* int4 = find(changes, FitChangeKind::int4_weights);
  REQUIRE(int8 != nullptr);
  REQUIRE(int4 != nullptr);
  CHECK(int4->fits);  // 35 GB of weights
  CHECK(int4->estimate.memory.weights.value < int8->estimate.memory.weights.value);
  // Tensor parallelism over more devices of the node holds the 16-bit weights.
  const FitChange* more = find(changes, FitChangeKind::more_devices);
  REQUIRE(more != nullptr);
  CHECK(more->estimate.plan.strategy.tensor_parallel == more->estimate.plan.device_count);
  CHECK(more->estimate.plan.device_count <= 8);
}
