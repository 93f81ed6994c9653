#pragma once
// A plan: hardware, how many devices, and how the training is split across them.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/serving.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/estimate/vision.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/boxed.hpp>
#include <mlsize/support/units.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace mlsize {

struct Plan {
  const Offering* offering = nullptr;  // null when only a device was named
  const Device* device = nullptr;
  int units = 1;         // offering units rented or bought
  int device_count = 1;  // units × devices per unit; all data parallel
  Strategy strategy;
  // Serving a load: the units are the user's (--gpus h200-sxm:8), not sized to the load; the
  // fleet is what they hold, if the load fits in them (PlanEstimator::estimate_serving).
  bool fixed_units = false;
};

// Everything mlsize estimates for one plan.
struct PlanEstimate {
  Plan plan;
  MemoryBreakdown memory;  // per device
  Bytes capacity;          // memory of one device
  Bytes usable;            // what the plan may fill of it (usable_memory): `fits` is total() ≤ usable
  bool fits = false;
  // With offloading: whether a unit's host RAM holds what its devices offload; absent when
  // nothing is offloaded or the offering states no host RAM.
  std::optional<bool> host_fits;
  Flops flops;
  double peak_flops_per_s = 0;      // per device, at the workload's precision
  double mfu = 0;                   // training: the MFU this device reaches (effective_mfu)
  Seconds setup{0};                 // the run's fixed setup time, included in `time`
  Seconds time;                     // compute_time + communication.exposed() + setup
  Seconds compute_time;             // FLOPs / (devices × peak × MFU); gbdt: cell visits / throughput
  std::optional<GbdtRun> gbdt;      // gbdt: the workers, their visits per second and the speed-up
  std::optional<VisionRun> vision;  // vision: the GPUs' and the input pipeline's images per second
  // Diffusion generation: a device's batch, its latency and images per second, the fleet.
  std::optional<DiffusionRun> diffusion;
  // Transcription: a device's batch of windows, its time and the audio it gets through
  // (boxed: only speech plans have one).
  Boxed<SpeechRun> speech;
  Communication communication;  // what communication and pipeline bubbles add to the compute
  std::optional<Usd> price_per_unit_hour;
  std::optional<Usd> cost;      // absent when the plan has no price
  std::optional<Usd> purchase;  // cash up front: on-premise hardware not owned (purchase_cash)
  // Under --pricing reserved-*, with a reservation price: what reserving the plan's units
  // commits, every hour of the term at the reserved rate (commitment_cost); the run's
  // share of it is `cost`.
  std::optional<Usd> commitment;
  // Under --pricing spot: the run time expected to be lost to interruptions (redone work
  // since the last checkpoint and restarts), included in `time` (docs/methodology.md#spot).
  Seconds preemption{0};
  Precision precision = Precision::bf16_mixed;  // the workload's, as the plan was estimated
  // Serving a load (Workload::serving): the replicas' batch, latencies and throughput.
  // `time` is then the time per output token and `cost` the fleet's cost per hour.
  Boxed<ServingEstimate> serving;
};

}  // namespace mlsize
