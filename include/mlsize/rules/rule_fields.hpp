#pragma once
// The fields rules may read (docs/rules.md#fields), and their values for one workload,
// device, offering and plan.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/expr/field_set.hpp>
#include <mlsize/model/workload.hpp>

#include <array>
#include <cstddef>

namespace mlsize {

// Field ids; the order of rule_fields(). Numbers are SI: bytes, seconds, US dollars.
enum class RuleField : std::size_t {
  workload_params,
  workload_active_params,
  workload_tokens,
  workload_dataset_bytes,
  workload_task,
  workload_precision,
  workload_optimizer,
  workload_weight_format,
  workload_budget_usd,
  workload_deadline_seconds,
  workload_sequence_length,
  workload_micro_batch,
  workload_model_family,
  workload_framework,
  workload_profile,
  workload_model_states_bytes,
  workload_requests_per_s,
  device_id,
  device_kind,
  device_vendor,
  device_memory_bytes,
  device_capacity_bytes,
  device_bf16,
  device_fp8,
  offering_id,
  offering_provider,
  offering_kind,
  offering_region,
  offering_price_per_hour_usd,
  offering_devices_per_unit,
  offering_marketplace,
  offering_session_hours,
  plan_device_count,
  plan_zero_stage,
  plan_tensor_parallel,
  plan_pipeline_parallel,
  plan_expert_parallel,
  plan_recompute,
  plan_tokens_per_step,
  estimate_fits,
  estimate_memory_fraction,
  estimate_memory_bytes,
  estimate_activations_fraction,
  estimate_model_states_bytes,
  estimate_seconds,
  estimate_cost_usd,
  estimate_deadline_fraction,
  estimate_utilisation,
  count,  // the number of fields, not a field
};

// The closed set of fields offered to rules, with types, units and descriptions.
const FieldSet& rule_fields();

// The id of `field` in rule_fields().
constexpr std::size_t field_id(RuleField field) {
  return static_cast<std::size_t>(field);
}

// Fields before this one describe the workload; from it on, the device, the offering, the
// plan and its estimate.
inline constexpr std::size_t k_first_device_field = field_id(RuleField::device_id);

// Fields before this one describe the workload, the device and the offering; from it on,
// the plan and its estimate (what changes from one plan of an offering to the next).
inline constexpr std::size_t k_first_plan_field = field_id(RuleField::plan_device_count);

// The plan fields every plan of one training layout shares (its device count, tensor and
// pipeline degrees): a rule that reads no other plan field judges a layout's plans alike
// (issue 49: the search prunes by layout then, docs/methodology.md#pruning).
inline constexpr std::array<std::size_t, 3> k_layout_fields = {field_id(RuleField::plan_device_count),
                                                               field_id(RuleField::plan_tensor_parallel),
                                                               field_id(RuleField::plan_pipeline_parallel)};

// Fills `values` (resized to rule_fields().size()) for one evaluation. Any pointer may
// be null; its fields are then missing (nullopt). When `device` or `offering` is null
// and `estimate` is not, they are taken from estimate->plan. Reusing one vector across
// plans avoids reallocating it.
void fill_rule_fields(FieldValues& values, const Workload& workload, const Device* device, const Offering* offering,
                      const PlanEstimate* estimate);

// Replaces the device, offering, plan and estimate fields of `values` (filled by
// fill_rule_fields for a workload) with those of `device` and `offering`: the planner
// fills the workload's once for all its offerings.
void fill_offering_rule_fields(FieldValues& values, const Device& device, const Offering& offering);

// Replaces only the plan and estimate fields of `values` (filled by fill_rule_fields for
// the plan's workload, device and offering) with those of `estimate`.
void fill_plan_rule_fields(FieldValues& values, const Workload& workload, const PlanEstimate& estimate);

// Replaces only the k_layout_fields of `values` with those of `plan`, leaving the plan's
// other fields as they were: enough to judge rules that read no others.
void fill_layout_rule_fields(FieldValues& values, const Plan& plan);

// The same, into a new vector.
FieldValues rule_field_values(const Workload& workload, const Device* device = nullptr,
                              const Offering* offering = nullptr, const PlanEstimate* estimate = nullptr);

}  // namespace mlsize
