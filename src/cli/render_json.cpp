#include "cli/format.hpp"
#include "cli/renderers.hpp"

#include <mlsize/units.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order: deterministic, readable

// Whole numbers as JSON integers while they fit in 64 bits, otherwise as doubles.
Json whole(double value) {
  if (std::isfinite(value) && std::abs(value) < 9.0e18) return static_cast<std::int64_t>(std::llround(value));
  return value;
}

Json workload_json(const Workload& workload, const Architecture& shape) {
  Json json;
  json["params"] = whole(workload.params);
  json["tokens"] = whole(workload.tokens);
  json["dataset_bytes"] = workload.dataset_bytes ? whole(workload.dataset_bytes->value) : Json(nullptr);
  json["epochs"] = workload.epochs;
  json["bytes_per_token"] = workload.bytes_per_token;
  json["task"] = to_string(workload.task);
  json["precision"] = to_string(workload.precision);
  json["optimizer"] = to_string(workload.optimizer);
  json["sequence_length"] = workload.sequence_length;
  json["micro_batch"] = workload.micro_batch;
  json["mfu"] = workload.mfu;
  json["budget_usd"] = workload.budget ? Json(workload.budget->value) : Json(nullptr);
  json["deadline_seconds"] = workload.deadline ? Json(workload.deadline->value) : Json(nullptr);
  json["architecture"] = {{"layers", shape.layers},
                          {"hidden", shape.hidden},
                          {"heads", shape.heads},
                          {"vocab", shape.vocab},
                          {"source", "nearest GPT-3 shape (Brown et al. 2020, Table 2.1), depth scaled to the parameter count"}};
  return json;
}

Json plan_json(const PlanEstimate& e) {
  const Plan& plan = e.plan;
  Json json;
  if (plan.offering != nullptr) {
    const Offering& offering = *plan.offering;
    json["offering"] = {{"id", offering.id},
                        {"provider", offering.provider},
                        {"name", offering.name},
                        {"kind", to_string(offering.kind)},
                        {"units", plan.units},
                        {"devices_per_unit", offering.devices_per_unit},
                        {"as_of", offering.as_of}};
  } else {
    json["offering"] = nullptr;
  }
  json["device"] = {{"id", plan.device->id}, {"name", plan.device->name}, {"kind", to_string(plan.device->kind)}};
  json["device_count"] = plan.device_count;
  json["strategy"] = {{"data_parallel", plan.device_count},
                      {"zero_stage", plan.strategy.zero_stage},
                      {"recompute", to_string(plan.strategy.recompute)}};
  const MemoryBreakdown& m = e.memory;
  json["memory"] = {{"per_device",
                     {{"weights_bytes", whole(m.weights.value)},
                      {"gradients_bytes", whole(m.gradients.value)},
                      {"optimizer_bytes", whole(m.optimizer.value)},
                      {"activations_bytes", whole(m.activations.value)},
                      {"overhead_bytes", whole(m.overhead.value)},
                      {"total_bytes", whole(m.total().value)}}},
                    {"capacity_bytes", whole(e.capacity.value)},
                    {"fits", e.fits}};
  json["compute"] = {{"total_flops", e.flops.value}, {"peak_flops_per_s_per_device", e.peak_flops_per_s}};
  json["time"] = {{"seconds", e.time.value}, {"days", e.time.value / k_seconds_per_day}};
  json["cost"] = {{"usd", e.cost ? Json(e.cost->value) : Json(nullptr)},
                  {"usd_per_unit_hour", e.price_per_unit_hour ? Json(e.price_per_unit_hour->value) : Json(nullptr)}};
  return json;
}

// The figure that failed and the limit it failed against, for scripts.
Json failed_figure(const Rejection& rejection, const Workload& workload) {
  const PlanEstimate& nearest = *rejection.nearest;
  switch (rejection.reason) {
    case RejectionReason::memory:
      return {{"quantity", "memory_per_device_bytes"},
              {"value", whole(nearest.memory.total().value)},
              {"limit", whole(nearest.capacity.value)}};
    case RejectionReason::session_limit:
      return {{"quantity", "seconds"},
              {"value", nearest.time.value},
              {"limit", *rejection.offering->limits.session_hours * k_seconds_per_hour}};
    case RejectionReason::deadline:
      return {{"quantity", "seconds"}, {"value", nearest.time.value}, {"limit", workload.deadline->value}};
    case RejectionReason::budget:
      return {{"quantity", "cost_usd"}, {"value", nearest.cost->value}, {"limit", workload.budget->value}};
    case RejectionReason::precision:
    case RejectionReason::no_capacity:
    case RejectionReason::no_price: break;
  }
  return nullptr;
}

Json rejection_json(const Rejection& rejection, const Workload& workload) {
  Json json;
  json["offering"] = {{"id", rejection.offering->id}, {"provider", rejection.offering->provider}};
  json["device"] = {{"id", rejection.device->id}};
  json["reason"] = to_string(rejection.reason);
  json["message"] = describe_rejection(rejection, workload);
  if (rejection.nearest) {
    const PlanEstimate& nearest = *rejection.nearest;
    json["failed"] = failed_figure(rejection, workload);
    json["nearest_plan"] = {{"device_count", nearest.plan.device_count},
                            {"zero_stage", nearest.plan.strategy.zero_stage},
                            {"recompute", to_string(nearest.plan.strategy.recompute)},
                            {"memory_total_bytes", whole(nearest.memory.total().value)},
                            {"capacity_bytes", whole(nearest.capacity.value)},
                            {"seconds", nearest.time.value},
                            {"cost_usd", nearest.cost ? Json(nearest.cost->value) : Json(nullptr)}};
  }
  return json;
}

std::string dump(const Json& json) { return json.dump(2) + "\n"; }

}  // namespace

std::string render_recommend_json(const Report& report, int top) {
  Json json;
  json["schema_version"] = 1;
  json["command"] = "recommend";
  json["workload"] = workload_json(report.workload, report.architecture);
  json["objective"] = to_string(report.objective);
  json["max_devices"] = report.max_devices;
  json["plans_evaluated"] = report.plans_evaluated;
  json["summary"] = summary_sentence(report);
  Json recommendations = Json::array();
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  for (std::size_t i = 0; i < shown; ++i) {
    Json item;
    item["rank"] = i + 1;
    item.update(plan_json(report.recommendations[i]));
    recommendations.push_back(std::move(item));
  }
  json["recommendations"] = std::move(recommendations);
  json["feasible_count"] = report.recommendations.size();
  Json rejected = Json::array();
  for (const Rejection& rejection : report.rejected) rejected.push_back(rejection_json(rejection, report.workload));
  json["rejected"] = std::move(rejected);
  return dump(json);
}

std::string render_estimate_json(const EstimateResult& result) {
  Json json;
  json["schema_version"] = 1;
  json["command"] = "estimate";
  json["workload"] = workload_json(result.workload, result.architecture);
  json.update(plan_json(result.estimate));
  json["constraints"] = {{"meets_deadline", result.meets_deadline ? Json(*result.meets_deadline) : Json(nullptr)},
                         {"within_budget", result.within_budget ? Json(*result.within_budget) : Json(nullptr)},
                         {"feasible", result.feasible()}};
  return dump(json);
}

}  // namespace mlsize::cli
