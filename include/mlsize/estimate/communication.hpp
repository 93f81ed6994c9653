#pragma once
// Time data parallelism spends synchronising gradients and parameters that the compute
// does not hide. Formulas and citations: docs/methodology.md#communication.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>

namespace mlsize {

// Inter-node bandwidth assumed for a multi-node plan whose offering states none: the
// 100 Gbit/s of a typical cloud VM network (docs/methodology.md#communication).
inline constexpr double k_assumed_network_gbps = 100.0;

// Where the data-parallel replicas sit: `devices_per_node` of them share a node's
// device interconnect, nodes talk over `network_gbps` (per node).
struct Topology {
  int devices_per_node = 1;
  std::optional<double> network_gbps;
};

struct Communication {
  Seconds exposed{0};                // added to the compute time over the whole run
  double steps = 0;                  // optimizer steps
  double micro_steps_per_step = 0;   // gradient accumulation
  double bytes_per_step = 0;         // sent by each device per optimizer step
  double bandwidth_bytes_per_s = 0;  // per device, one direction: the slowest link used
  bool network_assumed = false;      // multi-node and the offering states no network_gbps
};

// Tokens per optimizer step: --global-batch, else 4M tokens for pre-training (Llama 2)
// and 128 sequences for fine-tuning (Alpaca); never fewer than one micro-batch per replica.
double global_batch_tokens(const Workload& workload, int data_parallel);

// Exposed communication of training `workload` with `strategy` on `device_count` devices
// whose compute alone takes `compute`. Nothing for one replica or for inference.
Communication data_parallel_communication(const Workload& workload, const Strategy& strategy, int device_count,
                                          const Device& device, const Topology& topology, Seconds compute);

}  // namespace mlsize
