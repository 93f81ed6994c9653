#pragma once
// Enumerating candidate plans and estimating each one.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace mlsize {

// The device memory a plan may use: the device's own, or the host RAM for CPUs.
std::optional<Bytes> device_capacity(const Device& device, const Offering* offering);

// The most units of `offering` one plan may use: its max_units where units form a cluster
// (a stated network, or inference replicas), else one; gbdt runs on one machine.
// `max_devices` bounds it too, so it may be 0 when one unit is already too many.
int max_plan_units(const Workload& workload, const Offering& offering, int max_devices);

// Plans for one offering: 1, 2, 4, 8, ... units (at most max_plan_units), or with
// `device_counts` exactly those counts of devices, each made of whole units (a count no
// allowed number of units makes gives no plan). Training: each as DDP and ZeRO-1/2/3 (one
// device: DDP only), each with and without full recomputation. Inference: tensor parallel
// over 1, 2, 4, ... devices of a unit, the other devices serving as replicas.
std::vector<Plan> candidate_plans(const Workload& workload, const Offering& offering, const Device& device,
                                  int max_devices, std::span<const int> device_counts = {});

// Estimates the plans of one workload on one device (and offering), computing what they
// share once: the device's peak and MFU, the run's FLOPs, the capacity and the price.
class PlanEstimator {
 public:
  // `offering` may be null (a device alone); all three must outlive the estimator.
  PlanEstimator(const Workload& workload, const Device& device, const Offering* offering,
                const CostSettings& cost_settings);

  // Estimates `plan`, which runs on this device and offering; throws a usage Error when
  // the device has no peak throughput for the workload's compute datatype.
  PlanEstimate estimate(const Plan& plan);

 private:
  Flops flops(Recompute recompute);
  void estimate_network_time(const Plan& plan, PlanEstimate& estimate);

  Workload m_workload;  // its micro-batch is the plan's (Strategy::micro_batch)
  int m_micro_batch;    // the workload's own
  const Device& m_device;
  const Offering* m_offering;
  const CostSettings& m_cost;
  std::optional<double> m_peak;
  double m_mfu;
  Bytes m_capacity;
  std::optional<Usd> m_price;
  std::array<std::optional<Flops>, 3> m_flops;  // by Recompute: none, selective, full
};

// Estimates one plan (PlanEstimator, for a plan alone).
PlanEstimate estimate_plan(const Workload& workload, const Plan& plan, const CostSettings& cost_settings);

}  // namespace mlsize
