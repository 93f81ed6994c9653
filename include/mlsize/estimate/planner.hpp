#pragma once
// Enumerating candidate plans and estimating each one.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace mlsize {

// The device memory a plan may use: the device's own, or the host RAM for CPUs.
std::optional<Bytes> device_capacity(const Device& device, const Offering* offering);

// The most units of `offering` one plan may use: its max_units where units form a cluster
// (a stated network, or inference replicas), else one; gbdt runs on one machine.
// `max_devices` bounds it too, so it may be 0 when one unit is already too many.
int max_plan_units(const Workload& workload, const Offering& offering, int max_devices);

// The largest micro-batch the search tries for offload plans, as a multiple of the
// workload's: every micro-step sends the gradients over PCIe, and practitioners run
// ZeRO-Offload at the largest micro-batch that fits, up to the global batch (DeepSpeed's
// ZeRO-Offload tutorial raises the batch size to the largest that fits).
inline constexpr int k_largest_offload_micro_batch_factor = 128;

// Plans for one offering: 1, 2, 4, 8, ... units (at most max_plan_units), or with
// `device_counts` exactly those counts of devices, each made of whole units (a count no
// allowed number of units makes gives no plan). Training: each as DDP and ZeRO-1/2/3 (one
// device: DDP only), each with and without full recomputation, then ZeRO-Offload and
// ZeRO-Infinity where the host's RAM is stated (docs/methodology.md#candidate-plans). Inference: tensor parallel
// over 1, 2, 4, ... devices of a unit, the other devices serving as replicas.
std::vector<Plan> candidate_plans(const Workload& workload, const Offering& offering, const Device& device,
                                  int max_devices, std::span<const int> device_counts = {});
// The same into `plans` (cleared first), whose memory a caller planning many offerings reuses.
void candidate_plans(std::vector<Plan>& plans, const Workload& workload, const Offering& offering, const Device& device,
                     int max_devices, std::span<const int> device_counts = {});

// What a unit's host holds of an offload plan: each of the unit's devices offloads its
// `memory.host` (a plan on fewer devices than a unit, those).
Bytes offloaded_per_unit(const Plan& plan, const MemoryBreakdown& memory);

// Whether offerings `a` and `b` (of the same device) have the same candidate plans, and the
// same physics (memory, time, fit) for every plan that does not read the host (reads_host):
// they agree on every other field that candidate_plans and PlanEstimator::estimate_physics
// read (devices, network, link, unit limit, whether the host's RAM and vCPUs are stated) and
// on their kind. Prices, regions, names, billing and free-tier limits may differ (issue 49:
// the default catalogue's 514 offerings are 181 shapes).
bool same_shape(const Offering& a, const Offering& b);
// Whether their hosts are the same: vCPUs, threads per core, RAM.
bool same_host(const Offering& a, const Offering& b);
// An order that puts offerings of one shape next to each other, and within a shape those of
// one host: offerings sort by their keys (ShapeKey's `<`), each read once rather than at
// every comparison (issue 49: sorting a serving run's 514 offerings read them ~8,000 times).
using ShapeKey =
    std::tuple<std::string_view, int, OfferingKind, std::optional<int>, std::optional<double>, bool, std::string_view,
               double, bool, bool, std::optional<int>, std::optional<int>, std::optional<Bytes>>;
ShapeKey shape_key(const Offering& offering);
bool shape_before(const Offering& a, const Offering& b);
// Whether `plan`'s physics reads its offering's host (its vCPUs or RAM): plans that offload,
// any plan on a CPU (its cores and RAM are the host's), trees and vision (their input).
bool reads_host(const Workload& workload, const Plan& plan);

// Inference: the replicas of `plan` that have sequences to serve (at least one); the
// others idle, and still cost.
int busy_replicas(const Workload& workload, const Plan& plan);

// What the plans of one run share across devices and offerings, remembered by what it
// depends on besides the workload (the same for all of them but its precision):
// - training activations per device, by precision, tensor and pipeline degree, sequence
//   parallelism, recomputation and micro-batch (plans that differ only in ZeRO stage,
//   device count or device have the same); direct-mapped: a key that collides is computed
//   again, so no entry is ever wrong and nothing is allocated;
// - serving memory per device, by precision and tensor degree (the other devices are
//   replicas: the same at every device count, on every device);
// - the workload at a plan's own micro-batch (the search tries larger ones), one copy made
//   again only when the precision changes, not one per offering (issue 49: 0.44 M
//   instructions of the main job copied the 1.5 KB workload for each).
class EstimateCache {
 public:
  // The activations under `key`, from `compute` when not remembered.
  template <class Compute>
  double activations(std::uint64_t key, const Compute& compute) {
    Slot& slot = m_slots[(key * 0x9E3779B97F4A7C15ull) >> (64 - k_bits)];
    if (slot.key != key) slot = {key, compute()};
    return slot.value;
  }
  // The serving memory at `precision` and tensor degree 2^`log2_tensor` (< 8), from
  // `compute` when not remembered.
  template <class Compute>
  const MemoryBreakdown& serving_memory(Precision precision, int log2_tensor, const Compute& compute) {
    ServingSlot& slot = m_serving[static_cast<std::size_t>(log2_tensor)];
    if (!slot.memory || slot.precision != precision) slot = {precision, compute()};
    return *slot.memory;
  }
  // `workload` at `micro_batch`.
  const Workload& at_micro_batch(const Workload& workload, int micro_batch);

 private:
  static constexpr int k_bits = 10;
  struct Slot {
    std::uint64_t key = ~std::uint64_t{0};  // no key packs to all ones
    double value = 0;
  };
  std::array<Slot, std::size_t{1} << k_bits> m_slots{};
  struct ServingSlot {
    Precision precision = Precision::bf16_mixed;
    std::optional<MemoryBreakdown> memory;
  };
  std::array<ServingSlot, 8> m_serving{};
  std::optional<Workload> m_grown;
};

// Estimates the plans of one workload on one device (and offering), computing what they
// share once: the device's peak and MFU, the run's FLOPs, the capacity and the price.
class PlanEstimator {
 public:
  // `offering` may be null (a device alone); all must outlive the estimator. `cache` may be
  // null; given, it must serve this workload only (its precision may differ).
  PlanEstimator(const Workload& workload, const Device& device, const Offering* offering,
                const CostSettings& cost_settings, EstimateCache* cache = nullptr);

  // Estimates `plan`, which runs on this device and offering; throws a usage Error when
  // the device has no peak throughput for the workload's compute datatype.
  PlanEstimate estimate(const Plan& plan);
  // The same into `estimate`, which is overwritten (the planner reuses one):
  // estimate_physics, then price.
  void estimate_into(const Plan& plan, PlanEstimate& estimate);
  // All of it that does not depend on the offering's price (same_shape): memory, time,
  // fit, a fleet's size, with no price, cost or spot interruptions yet. Without
  // `time_unfitting`, a training plan that does not fit its devices is left untimed: its
  // time is NaN (untimed), for a search that compares such plans by memory alone.
  void estimate_physics(const Plan& plan, PlanEstimate& estimate, bool time_unfitting = true);
  // Whether estimate_physics left `estimate` untimed.
  static bool untimed(const PlanEstimate& estimate) { return std::isnan(estimate.time.value); }
  // Prices an estimate from estimate_physics (of a plan of this offering's shape) at this
  // offering: the time spot interruptions add, the purchase, the cost and commitment of a
  // run, a fleet's cost per hour and per million output tokens.
  void price(PlanEstimate& estimate) const;
  // `plan`'s memory per device alone (PlanEstimate::memory), and whether it fits its device
  // with the headroom free (PlanEstimate::fits).
  MemoryBreakdown memory(const Plan& plan) { return memory(workload_of(plan), plan); }
  bool fits(const Plan& plan);
  // With offloading: whether a unit's host RAM, with the workload's headroom free, holds
  // what its devices offload (PlanEstimate::host_fits); absent for a plan that offloads
  // nothing or an estimator without an offering.
  std::optional<bool> host_holds(const Plan& plan, const MemoryBreakdown& memory) const;
  Bytes capacity() const { return m_capacity; }
  // The least time a training plan can take: its compute and what of its communication
  // nothing hides (unhidden_communication), as estimate_into adds them up. Absent for
  // inference and gradient-boosted trees, and when the device has no throughput for the
  // workload.
  std::optional<Seconds> least_time(const Plan& plan);

 private:
  const Workload& workload_of(const Plan& plan);
  Topology topology_of(const Plan& plan) const;
  Seconds least_unhidden_communication(const Plan& plan);
  Flops flops(Recompute recompute);
  MemoryBreakdown memory(const Workload& workload, const Plan& plan);
  bool within_capacity(const Workload& workload, const MemoryBreakdown& memory) const;
  double decode_bandwidth() const;
  void estimate_network_time(const Workload& workload, const Plan& plan, PlanEstimate& estimate);
  void add_input_pipeline(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const;
  void estimate_generation(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const;
  void estimate_transcription(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const;
  void estimate_serving(const Plan& plan, PlanEstimate& estimate);
  void add_setup(PlanEstimate& estimate) const;
  // External memory: the cache's host part streamed at every pass over the host link.
  void add_extmem_transfer(const Workload& workload, const Strategy& strategy, PlanEstimate& estimate) const;
  void estimate_offline(const Plan& plan, const ChosenBatch& chosen, ServingEstimate& serving, PlanEstimate& estimate);
  void estimate_sizing(const ChosenBatch& chosen, const Replica& replica, ServingEstimate& serving,
                       PlanEstimate& estimate);

  const Workload* m_workload;
  std::optional<Workload> m_grown;  // the workload at a plan's own micro-batch
  const Device& m_device;
  const Offering* m_offering;
  const CostSettings& m_cost;
  std::optional<double> m_peak;
  double m_mfu;
  Bytes m_capacity;
  Topology m_topology;  // devices_per_node: the plan's own without an offering
  std::optional<Usd> m_price;
  std::array<std::optional<Flops>, 3> m_flops;  // by Recompute: none, selective, full
  EstimateCache* m_cache;
  struct UnhiddenCommunication {
    int devices = 0;  // the layout: device count, tensor and pipeline degrees
    int tensor = 0;
    int pipeline = 0;
    Seconds seconds;
  };
  UnhiddenCommunication m_unhidden;  // least_unhidden_communication's, for one layout
};

// Estimates one plan (PlanEstimator, for a plan alone).
PlanEstimate estimate_plan(const Workload& workload, const Plan& plan, const CostSettings& cost_settings);

}  // namespace mlsize
