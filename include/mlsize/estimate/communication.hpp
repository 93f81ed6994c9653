#pragma once
// Time that training spends communicating and the compute does not hide: data-parallel
// synchronisation, tensor-parallel collectives inside each layer, pipeline bubbles and
// sends. Formulas and citations: docs/methodology.md#communication.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>

namespace mlsize {

// Inter-node bandwidth assumed for a multi-node plan whose offering states none: the
// 100 Gbit/s of a typical cloud VM network (docs/methodology.md#communication).
inline constexpr double k_assumed_network_gbps = 100.0;

// The share of a link's line rate that NCCL's ring collectives reach: "450GB/s is the line
// rate. With the protocol overhead (~20%) NCCL can get an effective NVLink bandwidth of
// 370GB/s" (S. Jeaugey, NCCL maintainer, NVIDIA/nccl-tests issue #212, 2024-05-06).
inline constexpr double k_collective_efficiency = 0.8;

// NCCL's latency model for a ring all-gather or reduce-scatter of n ranks over m nodes
// (all-reduce: twice the steps): base + (n − 1 − (m − 1)) × the hop within a node + (m − 1)
// × the hop across nodes, Simple protocol, as NCCL's tuner costs it (NVIDIA/nccl
// src/graph/tuning.cc at 5067397c, ncclTunerConstantsDefaults: baseLatencies Ring/Simple
// 8.4 µs, line 151; hwLatencies Ring/Simple NVLink 3.4 µs, line 159, PCI 5.7 µs, line 165,
// NET 14 µs, line 171; the sum in ncclTopoTuneModel, line 412). docs/methodology.md#communication.
inline constexpr double k_ring_base_latency_s = 8.4e-6;
inline constexpr double k_ring_nvlink_hop_latency_s = 3.4e-6;
inline constexpr double k_ring_pcie_hop_latency_s = 5.7e-6;
inline constexpr double k_ring_network_hop_latency_s = 14.0e-6;

// The gradient bucket whose collective starts only when backward has ended, so nothing
// hides it: PyTorch DDP's bucket_cap_mb = 25 (Li et al. 2020, "PyTorch Distributed", §3.2.3
// and §5.2; torch/nn/parallel/distributed.py) and DeepSpeed ZeRO-1/2's reduce_bucket_size
// of 5e8 elements (deepspeed/runtime/zero/config.py), at the gradients' width.
inline constexpr double k_ddp_bucket_bytes = 25.0 * 1024 * 1024;
inline constexpr double k_zero_reduce_bucket_elements = 5e8;

// ZeRO-Offload's optimizer step on the host, per parameter of every shard a node's CPUs
// update: DeepSpeed's ZeRO-Offload tutorial logs optimizer_step at 6.2-6.5 s for a 10B
// model on one V100 (a DGX-2 host, 2 × Xeon 8168), the CPU-Adam update and the copies over
// PCIe together (docs/methodology.md#offload-time). The paper's CPU-Adam kernel alone
// takes 2.57 s (Ren et al. 2021, Table 4).
inline constexpr double k_offload_step_seconds_per_param = 0.64e-9;
// The physical cores of that host, which the step is scaled by: a host with fewer steps
// proportionally slower (a 16-vCPU slice of a cloud node, 8 cores: 6×), one with more no
// faster (the step also streams 28 bytes per parameter through memory). NVIDIA's DGX-2
// datasheet: two Xeon Platinum 8168, 24 cores each.
inline constexpr double k_offload_reference_host_cores = 48;
// What one device moves to and from host memory: 12.0 GB/s with one GPU of a DGX-2, 3.0
// GB/s each with all 16 (Rajbhandari et al. 2021, ZeRO-Infinity, Figure 2b; "each GPU
// achieves about 3GB/s", deepspeedai/DeepSpeed#1137): full speed for up to four devices
// of a node, shared beyond.
inline constexpr double k_host_link_bytes_per_s = 12e9;
inline constexpr double k_host_links_at_full_speed = 4;

// Where the devices sit: `devices_per_node` of them share a node's device interconnect,
// nodes talk over `network_gbps` (per node).
struct Topology {
  int devices_per_node = 1;
  std::optional<double> network_gbps;
  // Whether the devices reach each other's memory directly (peer_to_peer(device)); absent:
  // found from the device on each call, which a caller timing many plans does once.
  std::optional<bool> peer_to_peer = std::nullopt;
  // The link between the node's devices where it is not the device's own (an offering's
  // `interconnect`, a VM slice without NVLink); absent: the device's.
  std::optional<Interconnect> interconnect = std::nullopt;
  // The physical cores of a node's host that step offloaded states (an offering's vcpus
  // over its threads per core); absent: the reference host's (a device without an offering).
  std::optional<double> host_cores = std::nullopt;
};

// GeForce cards have no peer-to-peer access in NVIDIA's driver (the reason for
// tinygrad/open-gpu-kernel-modules, which patches it back for the RTX 4090): NCCL stages
// each transfer through host memory, so it crosses PCIe twice.
bool peer_to_peer(const Device& device);

struct Communication {
  Seconds data_parallel{0};          // gradient and parameter synchronisation not hidden
  Seconds tensor_parallel{0};        // the collectives inside each layer (on the critical path)
  Seconds pipeline{0};               // the pipeline bubble and the sends between stages
  Seconds offload{0};                // ZeRO-Offload: the host's optimizer step and weight upload
  double steps = 0;                  // optimizer steps
  double micro_steps_per_step = 0;   // gradient accumulation (micro-batches per pipeline)
  double bytes_per_step = 0;         // data parallel: sent by each device per optimizer step
  double bandwidth_bytes_per_s = 0;  // data parallel: per device, one direction, the slowest link
  double tensor_bytes_per_step = 0;  // tensor parallel: sent by each device per optimizer step
  bool network_assumed = false;      // multi-node and the offering states no network_gbps
  // ZeRO-2 and -3: whether the compute hides all of the micro-steps' communication. Never
  // true for them since each micro-step leaves its last bucket (ZeRO-2), or its first
  // all-gather, last reduce-scatter and copies (ZeRO-3), exposed.
  bool micro_steps_hidden = true;

  // What the run adds to its compute time.
  Seconds exposed() const {
    return Seconds(data_parallel.value + tensor_parallel.value + pipeline.value + offload.value);
  }
};

// Tokens per optimizer step: --global-batch, else 4M tokens for pre-training (Llama 2)
// and 128 sequences for fine-tuning (Alpaca); never fewer than one micro-batch per replica.
double global_batch_tokens(const Workload& workload, int data_parallel);
// Micro-steps (gradient accumulation) per optimizer step: the global batch over one
// micro-batch of every data-parallel replica, rounded up.
double micro_steps_per_step(const Workload& workload, int data_parallel);

// Communication of training `workload` with `strategy` on `device_count` devices whose
// compute alone takes `compute`. Nothing for inference; data parallel only with more than
// one replica, tensor and pipeline parallel only with t > 1 and p > 1.
Communication training_communication(const Workload& workload, const Strategy& strategy, int device_count,
                                     const Device& device, const Topology& topology, Seconds compute);

// What of training_communication nothing hides, the tensor-parallel collectives and the
// pipeline's bubble and sends: the least time communication adds to the plan.
Seconds unhidden_communication(const Workload& workload, const Strategy& strategy, int device_count,
                               const Device& device, const Topology& topology, Seconds compute);

}  // namespace mlsize
