#include <mlsize/planner.hpp>

#include <mlsize/compute.hpp>
#include <mlsize/error.hpp>

#include <algorithm>
#include <string>

namespace mlsize {

std::optional<Bytes> device_capacity(const Device& device, const Offering* offering) {
  if (device.memory) return device.memory;
  if (offering != nullptr) return offering->host_memory;
  return std::nullopt;
}

std::vector<Plan> candidate_plans(const Offering& offering, const Device& device, int max_devices) {
  std::vector<Plan> plans;
  const int unit_limit = offering.max_units.value_or(max_devices);
  for (int units = 1; units <= unit_limit && units * offering.devices_per_unit <= max_devices; units *= 2) {
    const int devices = units * offering.devices_per_unit;
    const int highest_stage = devices > 1 ? 3 : 0;
    for (int stage = 0; stage <= highest_stage; ++stage) {
      for (Recompute recompute : {Recompute::none, Recompute::full}) {
        plans.push_back(Plan{&offering, &device, units, devices, Strategy{stage, recompute}});
      }
    }
  }
  return plans;
}

PlanEstimate estimate_plan(const Workload& workload, const Architecture& shape, const Plan& plan,
                           const CostSettings& cost_settings) {
  PlanEstimate estimate;
  estimate.plan = plan;
  estimate.memory =
      training_memory(workload, shape, plan.device_count, plan.strategy.zero_stage, plan.strategy.recompute);
  estimate.capacity = device_capacity(*plan.device, plan.offering).value_or(Bytes(0));
  estimate.fits = estimate.memory.total() <= estimate.capacity;
  estimate.flops = training_flops(workload.params, workload.tokens, plan.strategy.recompute);
  const std::optional<double> peak = peak_flops_per_s(*plan.device, workload.precision);
  if (!peak) {
    throw Error(ErrorKind::usage,
                "device \"" + plan.device->id + "\" has no " + std::string(to_string(compute_dtype(workload.precision))) +
                    " throughput in the catalogue",
                "choose another --precision or device");
  }
  estimate.peak_flops_per_s = *peak;
  estimate.time = training_seconds(estimate.flops, plan.device_count, *peak, workload.mfu);
  if (plan.offering != nullptr) {
    estimate.price_per_unit_hour = hourly_price_per_unit(*plan.offering, cost_settings);
    if (estimate.price_per_unit_hour) {
      estimate.cost = run_cost(*estimate.price_per_unit_hour, plan.units, estimate.time);
    }
  }
  return estimate;
}

}  // namespace mlsize
