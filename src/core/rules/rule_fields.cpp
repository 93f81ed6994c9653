#include <mlsize/rules/rule_fields.hpp>

#include <mlsize/estimate/memory.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace mlsize {
namespace {

// The closed set of values of a field read from an enum: its names.
template <NamedEnum E>
std::vector<std::string> values_of() {
  const std::span<const std::string_view> names = mlsize::names<E>();
  return {names.begin(), names.end()};
}

FieldSpec number(std::string name, FieldUnit unit, std::string description) {
  return FieldSpec{std::move(name), ValueType::number, unit, std::move(description), {}};
}
FieldSpec text(std::string name, std::string description, std::vector<std::string> values = {}) {
  return FieldSpec{std::move(name), ValueType::string, FieldUnit::none, std::move(description), std::move(values)};
}
FieldSpec flag(std::string name, std::string description) {
  return FieldSpec{std::move(name), ValueType::boolean, FieldUnit::none, std::move(description), {}};
}

// In RuleField order; docs/rules.md#fields lists the same.
std::vector<FieldSpec> make_fields() {
  using U = FieldUnit;
  return {
      number("workload.params", U::count, "parameters in the model (MoE: all experts)"),
      number("workload.active_params", U::count, "parameters used per token (MoE: the routed top-k; dense: all)"),
      number("workload.tokens", U::count, "training tokens over all epochs, or tokens to generate (inference)"),
      number("workload.dataset_bytes", U::bytes,
             "training data in bytes: as given, else tokens per epoch × bytes per token; missing for inference"),
      text("workload.task", "the task (--task)", values_of<Task>()),
      text("workload.precision", "training precision (--precision)", values_of<Precision>()),
      text("workload.optimizer", "the optimizer (--optimizer)", values_of<Optimizer>()),
      text("workload.weight_format", "inference weight format (--quant)", values_of<WeightFormat>()),
      number("workload.budget_usd", U::usd, "the budget in US dollars; missing when none was given"),
      number("workload.deadline_seconds", U::seconds, "the deadline in seconds; missing when none was given"),
      number("workload.sequence_length", U::count, "tokens per training sequence"),
      number("workload.micro_batch", U::count, "sequences per device per forward pass"),
      text("workload.model_family",
           "the model's family (config model_type: llama, mistral, gpt2, ...); missing if unknown"),
      text("workload.framework", "the training stack named with --framework; missing when none was named",
           values_of<Framework>()),
      text("workload.profile", "budget profile (--profile)", values_of<Profile>()),
      number("workload.model_states_bytes", U::bytes,
             "weights + gradients + optimizer states of the whole model, unsharded, in bytes "
             "(pretrain and finetune only; missing otherwise)"),
      number("workload.requests_per_s", U::none,
             "serving a load: requests per second (--rate, --tokens-per-day); missing otherwise"),
      text("device.id", "the device's catalogue id, such as h100-80gb-sxm"),
      text("device.kind", "the kind of device", values_of<DeviceKind>()),
      text("device.vendor", "the vendor, such as nvidia, amd, google, intel"),
      number("device.memory_bytes", U::bytes, "memory of one device in bytes; missing for CPUs"),
      number("device.capacity_bytes", U::bytes,
             "what a framework can allocate on one device: its memory less the runtime's reserve, the capacity "
             "tables show (plans keep --memory-headroom of it free); missing for CPUs"),
      flag("device.bf16", "whether the catalogue gives the device a bf16 peak (Ampere and newer, TPUs)"),
      flag("device.fp8", "whether the catalogue gives the device an fp8 peak (Hopper, Ada and newer)"),
      text("offering.id", "the offering's catalogue id, such as aws-p4d.24xlarge"),
      text("offering.provider", "the provider, such as aws, gcp, azure, lambda, on-prem"),
      text("offering.kind", "the kind of offering", values_of<OfferingKind>()),
      text("offering.region", "the region the plan is priced in, such as us-east-1; missing for none"),
      number("offering.price_per_hour_usd", U::usd, "on-demand price per unit-hour in US dollars; missing if none"),
      number("offering.devices_per_unit", U::count, "devices in one unit (instance, machine, slice)"),
      flag("offering.marketplace", "whether the provider is a marketplace of hosts' listings (Vast)"),
      number("offering.session_hours", U::none,
             "the longest session of a notebook service (Colab, Kaggle) in hours; missing for machines that run on"),
      number("plan.device_count", U::count, "devices in the plan"),
      number("plan.zero_stage", U::none, "0 (plain data parallel) to 3 (ZeRO-3 / FSDP full shard)"),
      number("plan.tensor_parallel", U::count, "tensor-parallel degree"),
      number("plan.pipeline_parallel", U::count, "pipeline-parallel degree"),
      number("plan.expert_parallel", U::count, "expert-parallel degree (1: every device holds every expert)"),
      text("plan.recompute", "activation recomputation", values_of<Recompute>()),
      number("plan.tokens_per_step", U::count,
             "tokens per optimizer step before gradient accumulation: micro-batch × sequence × data-parallel size"),
      flag("estimate.fits", "whether the plan fits in device memory"),
      number("estimate.memory_fraction", U::fraction, "memory per device ÷ the device's capacity (1 = full)"),
      number("estimate.memory_bytes", U::bytes, "memory per device in bytes"),
      number("estimate.activations_fraction", U::fraction, "activations ÷ memory per device"),
      number("estimate.model_states_bytes", U::bytes,
             "weights + gradients + optimizer states per device after sharding, in bytes"),
      number("estimate.seconds", U::seconds, "estimated run time in seconds"),
      number("estimate.cost_usd", U::usd, "estimated cost in US dollars; missing when the plan has no price"),
      number("estimate.deadline_fraction", U::fraction,
             "estimated run time ÷ the deadline (1 = exactly on time); missing without a deadline"),
      number("estimate.utilisation", U::fraction,
             "serving a load: the load's share of the fleet's throughput; missing otherwise"),
  };
}

template <class T>
void put(FieldValues& values, RuleField field, T&& value) {
  values[field_id(field)].emplace(std::forward<T>(value));
}

template <class T>
void put_optional(FieldValues& values, RuleField field, const std::optional<T>& value) {
  if (value) {
    values[field_id(field)].emplace(value->value);
  } else {
    values[field_id(field)].reset();
  }
}

void clear(FieldValues& values, RuleField field) {
  values[field_id(field)].reset();
}

void fill_workload(FieldValues& v, const Workload& w) {
  using F = RuleField;
  put(v, F::workload_params, w.parameters.total);
  put(v, F::workload_active_params, w.parameters.active);
  put(v, F::workload_tokens, w.tokens);
  if (w.dataset_bytes) {
    put(v, F::workload_dataset_bytes, w.dataset_bytes->value);
  } else if (w.is_training() && w.epochs > 0) {
    put(v, F::workload_dataset_bytes, w.tokens / w.epochs * w.bytes_per_token);
  }
  put(v, F::workload_task, to_string(w.task));
  put(v, F::workload_precision, to_string(w.precision));
  put(v, F::workload_optimizer, to_string(w.optimizer));
  put(v, F::workload_weight_format, to_string(w.weight_format));
  put_optional(v, F::workload_budget_usd, w.budget);
  put_optional(v, F::workload_deadline_seconds, w.deadline);
  put(v, F::workload_sequence_length, w.sequence_length);
  put(v, F::workload_micro_batch, w.micro_batch);
  if (!w.model.family.empty()) put(v, F::workload_model_family, w.model.family);
  if (w.framework_named) put(v, F::workload_framework, to_string(w.framework));
  put(v, F::workload_profile, to_string(w.profile));
  if (w.serving && !w.serving->offline()) put(v, F::workload_requests_per_s, w.serving->requests_per_s);
  if (w.task == Task::pretrain || w.task == Task::finetune) {
    const StateBytesPerParam bytes = state_bytes_per_param(w.precision, w.optimizer, w.model.hidden, w.framework);
    put(v, F::workload_model_states_bytes,
        w.parameters.total * (bytes.weights + bytes.gradients + bytes.optimizer()) + autocast_cache_bytes(w));
  }
}

void fill_device(FieldValues& v, const Device& d) {
  using F = RuleField;
  put(v, F::device_id, d.id);
  put(v, F::device_kind, to_string(d.kind));
  put(v, F::device_vendor, d.vendor);
  put_optional(v, F::device_memory_bytes, d.memory);
  put_optional(v, F::device_capacity_bytes, d.usable_memory());
  put(v, F::device_bf16, d.peak(DType::bf16).has_value());
  put(v, F::device_fp8, d.peak(DType::fp8).has_value());
}

void fill_offering(FieldValues& v, const Offering& o) {
  using F = RuleField;
  put(v, F::offering_id, o.id);
  put(v, F::offering_provider, o.provider);
  put(v, F::offering_kind, to_string(o.kind));
  if (!o.price.region.empty()) put(v, F::offering_region, o.price.region);
  put_optional(v, F::offering_price_per_hour_usd, o.price.on_demand);
  put(v, F::offering_devices_per_unit, o.devices_per_unit);
  put(v, F::offering_marketplace, !o.terms->marketplace.empty());
  if (o.limits.session_hours) put(v, F::offering_session_hours, *o.limits.session_hours);
}

// Sets or clears every field from k_first_plan_field on: fill_plan_rule_fields reuses the
// values of the plan before without clearing them first (issue 49).
void fill_estimate(FieldValues& v, const Workload& w, const PlanEstimate& e) {
  using F = RuleField;
  static_assert(field_id(F::count) - k_first_plan_field == 16, "set or clear each new plan field below");
  const Plan& plan = e.plan;
  const Strategy& s = plan.strategy;
  fill_layout_rule_fields(v, plan);
  put(v, F::plan_zero_stage, s.zero_stage);
  put(v, F::plan_expert_parallel, s.expert_parallel);
  put(v, F::plan_recompute, to_string(s.recompute));
  if (s.model_parallel() > 0) {
    const double data_parallel = static_cast<double>(s.data_parallel(plan.device_count));
    put(v, F::plan_tokens_per_step,
        static_cast<double>(s.micro_batch > 0 ? s.micro_batch : w.micro_batch) *
            static_cast<double>(w.sequence_length) * data_parallel);
  } else {
    clear(v, F::plan_tokens_per_step);
  }
  put(v, F::estimate_fits, e.fits);
  const Bytes total = e.memory.total();
  if (e.capacity.value > 0) {
    put(v, F::estimate_memory_fraction, total / e.capacity);
  } else {
    clear(v, F::estimate_memory_fraction);
  }
  put(v, F::estimate_memory_bytes, total.value);
  if (total.value > 0) {
    put(v, F::estimate_activations_fraction, e.memory.activations / total);
  } else {
    clear(v, F::estimate_activations_fraction);
  }
  put(v, F::estimate_model_states_bytes, (e.memory.weights + e.memory.gradients + e.memory.optimizer).value);
  put(v, F::estimate_seconds, e.time.value);
  put_optional(v, F::estimate_cost_usd, e.cost);
  if (w.deadline && w.deadline->value > 0) {
    put(v, F::estimate_deadline_fraction, e.time.value / w.deadline->value);
  } else {
    clear(v, F::estimate_deadline_fraction);
  }
  // A load's: an offline job runs flat out, and sizing without a load has none.
  if (e.serving && !e.serving->offline && !(w.serving && w.serving->sizing)) {
    put(v, F::estimate_utilisation, e.serving->utilisation);
  } else {
    clear(v, F::estimate_utilisation);
  }
}

}  // namespace

const FieldSet& rule_fields() {
  static const FieldSet fields(make_fields());
  return fields;
}

void fill_rule_fields(FieldValues& values, const Workload& workload, const Device* device, const Offering* offering,
                      const PlanEstimate* estimate) {
  values.assign(rule_fields().size(), std::nullopt);
  if (estimate != nullptr) {
    if (device == nullptr) device = estimate->plan.device;
    if (offering == nullptr) offering = estimate->plan.offering;
  }
  fill_workload(values, workload);
  if (device != nullptr) fill_device(values, *device);
  if (offering != nullptr) fill_offering(values, *offering);
  if (estimate != nullptr) fill_estimate(values, workload, *estimate);
}

void fill_offering_rule_fields(FieldValues& values, const Device& device, const Offering& offering) {
  values.resize(rule_fields().size());
  std::fill(values.begin() + static_cast<std::ptrdiff_t>(k_first_device_field), values.end(), std::nullopt);
  fill_device(values, device);
  fill_offering(values, offering);
}

void fill_plan_rule_fields(FieldValues& values, const Workload& workload, const PlanEstimate& estimate) {
  fill_estimate(values, workload, estimate);
}

// The k_layout_fields.
void fill_layout_rule_fields(FieldValues& values, const Plan& plan) {
  using F = RuleField;
  put(values, F::plan_device_count, plan.device_count);
  put(values, F::plan_tensor_parallel, plan.strategy.tensor_parallel);
  put(values, F::plan_pipeline_parallel, plan.strategy.pipeline_parallel);
}

FieldValues rule_field_values(const Workload& workload, const Device* device, const Offering* offering,
                              const PlanEstimate* estimate) {
  FieldValues values;
  fill_rule_fields(values, workload, device, offering, estimate);
  return values;
}

}  // namespace mlsize
