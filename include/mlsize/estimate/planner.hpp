#pragma once
// Enumerating candidate plans and estimating each one.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>

#include <optional>
#include <vector>

namespace mlsize {

// The device memory a plan may use: the device's own, or the host RAM for CPUs.
std::optional<Bytes> device_capacity(const Device& device, const Offering* offering);

// Plans for one offering: 1, 2, 4, 8, ... units (at most `max_devices` devices and the
// offering's max_units). Training: each as DDP and ZeRO-1/2/3 (one device: DDP only), each
// with and without full recomputation. Inference: tensor parallel over 1, 2, 4, ... devices
// of a unit, the other devices serving as replicas.
std::vector<Plan> candidate_plans(const Workload& workload, const Offering& offering, const Device& device,
                                  int max_devices);

// Estimates `plan`; throws a usage Error when the device has no peak throughput for the
// workload's compute datatype.
PlanEstimate estimate_plan(const Workload& workload, const Plan& plan, const CostSettings& cost_settings);

}  // namespace mlsize
