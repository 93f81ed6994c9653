#include <mlsize/estimate/communication.hpp>

#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/memory.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace mlsize {
namespace {

// The width of one gradient on the wire: bf16-mixed keeps fp32 gradients
// (state_bytes_per_param) but reduces them in 16 bits, as DeepSpeed's ZeRO and
// Megatron-LM's --grad-reduce-in-bf16 do; fp32 gradients of the hf framework travel as
// fp32; LoRA's adapters as estimate_memory keeps them.
double gradient_width(const Workload& w) {
  if (w.is_adapter_tuning()) return w.task == Task::qlora ? 2.0 : 4.0;  // as in estimate_memory
  const StateBytesPerParam states = state_bytes_per_param(w.precision, w.optimizer, w.model.hidden, w.framework);
  return states.weights == 2.0 ? 2.0 : states.gradients;
}

// Bytes of one replica's gradients as they cross the network: the trained parameters of
// its model-parallel share (LoRA and QLoRA: their adapters only) at gradient_width.
double gradient_bytes_per_replica(const Workload& w, const Strategy& st) {
  const double params = w.is_adapter_tuning() ? adapter_parameters(w) : w.parameters.total;
  return params * gradient_width(w) / st.model_parallel();
}

// Bytes ZeRO-3 gathers for one forward or backward pass: every sharded parameter, the
// frozen base of LoRA (16-bit) and QLoRA (4-bit NF4, Dettmers et al. 2023) included.
double gathered_bytes_per_replica(const Workload& w, const Strategy& st) {
  double bytes = state_bytes_per_param(w.precision, w.optimizer, w.model.hidden, w.framework).weights;
  if (w.is_adapter_tuning()) bytes = w.task == Task::qlora ? 0.5 : 2.0;
  return w.parameters.total * bytes / st.model_parallel();
}

// Bytes of one activation element as it crosses devices: 16-bit, fp32 under fp32 training.
double activation_element_bytes(const Workload& w) {
  return w.precision == Precision::fp32 ? 4.0 : 2.0;
}

// The links a plan's collectives run over, each at the bus bandwidth NCCL reaches.
struct Links {
  double node = 0;          // within a node: half the bidirectional device link; 0 when unknown
  double network = 0;       // a node's network, shared by the rings that cross it
  int per_node = 1;         // devices of the plan in one node
  bool multi_node = false;  // the plan spans several nodes
  bool assumed = false;     // the network figure is assumed
  double hop_latency = 0;   // one ring step within a node (NCCL's NVLink or PCI figure)
  double memory = 0;        // the device's memory bandwidth; 0 when unknown
};

Links links_of(const Device& device, const Topology& topology, int device_count) {
  Links links;
  const std::optional<Interconnect>& link = topology.interconnect ? topology.interconnect : device.interconnect;
  if (link) links.node = link->bandwidth_bytes_per_s / 2 * k_collective_efficiency;
  const bool direct = topology.peer_to_peer ? *topology.peer_to_peer : peer_to_peer(device);
  if (!direct) links.node /= 2;
  const bool nvlink = direct && link && link->kind != "pcie";
  links.hop_latency = nvlink ? k_ring_nvlink_hop_latency_s : k_ring_pcie_hop_latency_s;
  links.memory = device.memory_bandwidth_bytes_per_s.value_or(0.0);
  links.per_node = std::max(1, std::min(topology.devices_per_node, device_count));
  links.multi_node = device_count > links.per_node;
  links.assumed = !topology.network_gbps;
  links.network = topology.network_gbps.value_or(k_assumed_network_gbps) * 1e9 / 8 * k_collective_efficiency;
  return links;
}

// One data-parallel group's collectives: its bus bandwidth and NCCL's ring latency.
struct Ring {
  double bandwidth = 0;  // bytes per second per device, one direction
  double latency = 0;    // one all-gather or reduce-scatter (an all-reduce takes twice)
};

// NCCL's ring latency (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel): a base, one
// hop per step within a node and one per step across nodes; an all-gather or
// reduce-scatter of n ranks takes n − 1 steps, m − 1 of them across the m nodes.
double ring_latency(int ranks, int nodes, double hop) {
  const int across = std::max(0, nodes - 1);
  return k_ring_base_latency_s + (ranks - 1 - across) * hop + across * k_ring_network_hop_latency_s;
}

// Megatron-LM orders ranks tensor, then data, then pipeline: a data-parallel group leaves
// the node once t·dp devices exceed it, and then the t rings of a node share its network
// (NCCL runs one ring per NIC, so a node carries each ring's traffic once).
Ring ring_of(const Strategy& st, int dp, const Links& links, Communication& c) {
  Ring ring{links.node, 0};
  int nodes = 1;
  if (links.multi_node && st.tensor_parallel * dp > links.per_node) {
    c.network_assumed = c.network_assumed || links.assumed;
    const double network = links.network / st.tensor_parallel;
    ring.bandwidth = ring.bandwidth > 0 ? std::min(ring.bandwidth, network) : network;
    const int ranks_per_node = std::max(1, links.per_node / st.tensor_parallel);
    nodes = (dp + ranks_per_node - 1) / ranks_per_node;
  }
  ring.latency = ring_latency(dp, nodes, links.hop_latency);
  return ring;
}

// A collective of `total` seconds behind `cover` seconds of backward whose last bucket of
// `last` seconds starts only when backward ends: that bucket is exposed, and what of the
// rest the backward does not cover (Li et al. 2020, PyTorch DDP, §3.2.3).
double behind_backward(double total, double last, double cover) {
  last = std::min(last, total);
  return last + std::max(0.0, total - last - cover);
}

// ZeRO-3 (FSDP FULL_SHARD), one micro-step, one unit per layer as the Llama recipes wrap:
// each layer's all-gather is prefetched behind the previous layer's compute (FSDP's
// implicit forward and explicit backward prefetch; DeepSpeed's stage3_prefetch_bucket_size),
// so a layer exposes what its collectives take beyond its compute, forward and backward
// apart. The first all-gather has nothing to overlap ("The 1st all-gather will not be
// able to overlap with anything", PyTorch FSDP notes, docs/notes/fsdp.rst) and the last
// reduce-scatter nothing after it. FSDP2 copies each gathered buffer out into the
// parameters and the gradients into the reduce-scatter buffer on the compute stream
// (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py, foreach_all_gather_copy_out
// and foreach_reduce): a read and a write of each at the memory bandwidth, not hidden.
double zero3_micro_step(const Workload& w, double gathered, double psi, const Ring& ring, const Links& links,
                        double micro_compute, double ring_share) {
  const double layers = std::max(1, w.model.layers + w.model.encoder_layers);
  const double gather = ring.latency + gathered * ring_share / ring.bandwidth / layers;
  const double reduce = ring.latency + psi * ring_share / ring.bandwidth / layers;
  const double forward = micro_compute / 3.0 / layers;         // 2 of the 6·N·D
  const double backward = micro_compute * 2.0 / 3.0 / layers;  // 4 of the 6·N·D
  double exposed = gather + reduce;
  exposed += (layers - 1) * (std::max(0.0, gather - forward) + std::max(0.0, gather + reduce - backward));
  if (links.memory > 0) exposed += (2 * 2 * gathered + 2 * psi) / links.memory;
  return exposed;
}

// HSDP (ZeRO-3 within shard groups of `group` ranks, replicated across dp / group of them):
// per micro-step the layer-by-layer gathers and reduce-scatters of zero3_micro_step, run
// inside the group (over the node's link when the group is one node); then, once per
// optimizer step, each rank all-reduces its shard of the gradients with the ranks holding
// the same shard in the other groups (PyTorch FSDP HYBRID_SHARD: "Apply FULL_SHARD within a
// node, and replicate parameters across nodes", torch/distributed/fsdp/api.py
// ShardingStrategy; FSDP2's fully_shard on a 2-D
// mesh runs the all-reduce after the reduce-scatter in foreach_reduce, and with
// set_requires_all_reduce(False) only on the last micro-batch). That all-reduce goes unit
// by unit behind the last micro-step's backward, as DDP's buckets do (Li et al. 2020,
// §3.2.3): the unit reduced last, one layer's, is exposed. The groups of a node's ranks
// hold different shards, so their rings share the node's network. Sets `c.bytes_per_step`.
double hybrid_shard_step(const Workload& w, const Strategy& st, int dp, const Links& links, double micro_compute,
                         Communication& c) {
  const int group = st.shard_group;
  const int replicas = dp / group;
  const Ring ring = ring_of(st, group, links, c);
  const double share = static_cast<double>(group - 1) / group;
  const double gradients = gradient_bytes_per_replica(w, st);
  const double gathered = gathered_bytes_per_replica(w, st);
  const double micro_steps =
      c.micro_steps_per_step * zero3_micro_step(w, gathered, gradients, ring, links, micro_compute, share);

  // Across groups: one rank of each group per ring. Within one node over its link; across
  // nodes a ring per rank of a node, one member per node (the planner's groups are whole
  // nodes), all sharing the node's network.
  double network = links.node;
  int nodes = 1;
  if (links.multi_node) {
    c.network_assumed = c.network_assumed || links.assumed;
    const int rings_per_node = std::max(1, std::min(links.per_node / st.tensor_parallel, group));
    network = links.network / (st.tensor_parallel * rings_per_node);
    nodes = replicas;
  }
  const double layers = std::max(1, w.model.layers + w.model.encoder_layers);
  const double reduce_share = 2.0 * (replicas - 1) / replicas;  // ring all-reduce
  const double shard = gradients / group;
  const double latency = 2 * ring_latency(replicas, nodes, links.hop_latency);
  const double all_reduce = layers * latency + shard * reduce_share / network;
  const double last_unit = latency + shard / layers * reduce_share / network;
  c.bytes_per_step = (2 * gathered * share + gradients * share) * c.micro_steps_per_step + shard * reduce_share;
  c.bandwidth_bytes_per_s = std::min(ring.bandwidth, network);
  return micro_steps + behind_backward(all_reduce, last_unit, micro_compute * 2.0 / 3.0);
}

// Data-parallel synchronisation, volumes of the ZeRO paper (Rajbhandari et al. 2020, §7.2).
void data_parallel_sync(const Workload& w, const Strategy& st, int dp, const Links& links, double micro_compute,
                        Communication& c) {
  const Ring ring = ring_of(st, dp, links, c);
  if (ring.bandwidth <= 0) return;  // no link known (CPUs): not modelled
  c.bandwidth_bytes_per_s = ring.bandwidth;

  const double backward = micro_compute * 2.0 / 3.0;  // backward is 4 of the 6·N·D
  // Ring collectives move (n − 1)/n of the buffer per device (all-reduce twice that).
  const double share = static_cast<double>(dp - 1) / dp;
  const double gradients = gradient_bytes_per_replica(w, st);
  const double psi = gradients * share;
  const double link = ring.latency + psi / ring.bandwidth;  // one reduce-scatter or all-gather
  // DeepSpeed's last reduce bucket, at the gradients' width.
  const double zero_bucket =
      ring.latency + std::min(gradients, k_zero_reduce_bucket_elements * gradient_width(w)) * share / ring.bandwidth;
  double exposed_per_step = 0;
  double micro_steps_exposed = 0;  // what the micro-steps leave exposed (ZeRO-2 and -3)
  switch (st.zero_stage) {
    case 0: {
      // DDP all-reduces (2Ψ) once per step, in buckets behind the last micro-step's backward
      // (Li et al. 2020, PyTorch DDP, §3.2.3; no_sync during accumulation); the last bucket
      // waits for the end of backward.
      c.bytes_per_step = 2 * psi;
      const double bucket = 2 * (ring.latency + std::min(gradients, k_ddp_bucket_bytes) * share / ring.bandwidth);
      exposed_per_step = behind_backward(2 * link, bucket, backward);
      break;
    }
    case 1:
      // ZeRO-1 reduce-scatters the gradients (Ψ) behind the last backward and all-gathers
      // the updated parameters after the step (Ψ), which nothing hides.
      c.bytes_per_step = 2 * psi;
      exposed_per_step = behind_backward(link, zero_bucket, backward) + link;
      break;
    case 2:
      // ZeRO-2 reduce-scatters gradients every micro-step (Ψ) and all-gathers the updated
      // parameters after the step (Ψ), which nothing hides.
      c.bytes_per_step = psi * (c.micro_steps_per_step + 1);
      micro_steps_exposed = c.micro_steps_per_step * behind_backward(link, zero_bucket, backward);
      exposed_per_step = micro_steps_exposed + link;
      break;
    default:
      if (st.shard_group > 0 && st.shard_group < dp) {
        exposed_per_step = hybrid_shard_step(w, st, dp, links, micro_compute, c);
        micro_steps_exposed = exposed_per_step;
        break;
      }
      // ZeRO-3 gathers the parameters for forward and backward, frozen ones too, and
      // reduce-scatters the gradients every micro-step (ZeRO §5.3): re-gathered each
      // micro-batch under gradient accumulation.
      c.bytes_per_step = (2 * gathered_bytes_per_replica(w, st) * share + psi) * c.micro_steps_per_step;
      micro_steps_exposed = c.micro_steps_per_step * zero3_micro_step(w, gathered_bytes_per_replica(w, st), gradients,
                                                                      ring, links, micro_compute, share);
      exposed_per_step = micro_steps_exposed;
      break;
  }
  c.data_parallel = Seconds(c.steps * exposed_per_step);
  c.micro_steps_hidden = micro_steps_exposed == 0;
}

// Tensor parallelism (Shoeybi et al. 2019, §3): two all-reduces of the b·s·h activations
// per layer in the forward pass and two in the backward (with sequence parallelism an
// all-gather and a reduce-scatter each, the same volume: Korthikanti et al. 2022, §4.2.2);
// full recomputation repeats the forward's. They sit between the layer's matrix
// multiplications, so nothing hides them (Megatron-LM without its optional overlap).
void tensor_parallel_collectives(const Workload& w, const Strategy& st, double micro_batches, const Links& links,
                                 Communication& c) {
  if (links.node <= 0) return;
  const double t = st.tensor_parallel;
  const double buffer =
      static_cast<double>(w.micro_batch) * w.sequence_length * w.model.hidden * activation_element_bytes(w);
  const double per_layer = st.recompute == Recompute::full ? 6.0 : 4.0;
  const double layers = static_cast<double>(w.model.layers + w.model.encoder_layers) / st.pipeline_parallel;
  const double per_micro_batch = layers * per_layer * 2 * (t - 1) / t * buffer;
  c.tensor_bytes_per_step = per_micro_batch * c.micro_steps_per_step;
  c.tensor_parallel = Seconds(micro_batches * per_micro_batch / links.node);
}

// Pipeline parallelism with the 1F1B schedule (Narayanan et al. 2021, §2.2.1): the bubble
// is (p − 1)/m of the ideal time for m micro-batches per step; each micro-batch sends its
// activations forward and their gradients back across every stage boundary, split over
// the t ranks (§4.1, scatter/gather), over the network when the pipeline leaves the node.
void pipeline_schedule(const Workload& w, const Strategy& st, double micro_batches, const Links& links, Seconds compute,
                       Communication& c) {
  const double p = st.pipeline_parallel;
  const double bubble = compute.value * (p - 1) / c.micro_steps_per_step;
  double bandwidth = links.node;
  if (links.multi_node) {
    c.network_assumed = c.network_assumed || links.assumed;
    bandwidth = links.network / links.per_node;
  }
  double sends = 0;
  if (bandwidth > 0) {
    const double buffer = static_cast<double>(w.micro_batch) * w.sequence_length * w.model.hidden *
                          activation_element_bytes(w) / st.tensor_parallel;
    sends = micro_batches * 2 * buffer / bandwidth;
  }
  c.pipeline = Seconds(bubble + sends);
}

}  // namespace

bool peer_to_peer(const Device& device) {
  return stack_of(device) != Stack::cuda_consumer;
}

double global_batch_tokens(const Workload& w, int data_parallel) {
  const double micro_step = static_cast<double>(data_parallel) * w.micro_batch * w.sequence_length;
  // Llama 2 (Touvron et al. 2023, §2.2): "a global batch-size of 4M tokens"; Alpaca
  // (Taori et al. 2023) fine-tunes with a batch of 128 sequences.
  // A vision run's global batch is its per-device batch on every replica (DDP, the learning
  // rate scaled with it: Goyal et al. 2017), unless --global-batch says otherwise.
  const double wanted = w.global_batch             ? *w.global_batch
                        : w.samples_are_tokens()   ? micro_step
                        : w.task == Task::pretrain ? 4.0 * 1024 * 1024
                                                   : 128.0 * w.sequence_length;
  return std::max(wanted, micro_step);
}

double micro_steps_per_step(const Workload& w, int data_parallel) {
  return std::ceil(global_batch_tokens(w, data_parallel) /
                   (static_cast<double>(data_parallel) * w.micro_batch * w.sequence_length));
}

namespace {

// What every collective of a plan depends on; absent when the plan communicates nothing.
struct Schedule {
  int data_parallel = 1;
  double micro_batches = 0;  // per pipeline (each replica)
  double micro_compute = 0;  // one device's share of one micro-batch
  Links links;
};

// Sets the steps and micro-steps of `c`.
std::optional<Schedule> schedule_of(const Workload& w, const Strategy& st, int device_count, const Device& device,
                                    const Topology& topology, Seconds compute, Communication& c) {
  const int dp = st.data_parallel(device_count);
  if (!w.is_training() || dp < 1 || w.tokens <= 0 || compute.value <= 0) return std::nullopt;
  if (dp == 1 && st.model_parallel() == 1) return std::nullopt;

  c.steps = w.tokens / global_batch_tokens(w, dp);
  c.micro_steps_per_step = micro_steps_per_step(w, dp);
  Schedule schedule;
  schedule.data_parallel = dp;
  schedule.micro_batches = c.steps * c.micro_steps_per_step;
  schedule.micro_compute = compute.value / schedule.micro_batches;
  schedule.links = links_of(device, topology, device_count);
  return schedule;
}

}  // namespace

// ZeRO-Offload's host side per run (docs/methodology.md#offload-time): the node's CPUs step
// the optimizer of all its devices' shards; each micro-step's fp32 gradients cross PCIe
// behind the backward pass, and with offloaded parameters (ZeRO-Infinity) the 16-bit
// weights stream in for forward and backward behind the compute. `steps` gets the
// optimizer steps.
Seconds offload_seconds(const Workload& w, const Strategy& st, int device_count, const Topology& topology,
                        Seconds compute, double& steps) {
  if (st.offload == Offload::none || !w.is_training() || w.tokens <= 0) return Seconds(0);
  const int dp = st.data_parallel(device_count);
  const double trained = w.is_adapter_tuning() ? adapter_parameters(w) : w.parameters.total;
  const double shard = trained / st.model_parallel() / (st.zero_stage >= 1 ? st.shard_degree(device_count) : 1);
  const int sharing = std::min(device_count, std::max(1, topology.devices_per_node));
  const double batch = global_batch_tokens(w, dp);
  steps = w.tokens / batch;
  const double micro_steps = steps * micro_steps_per_step(w, dp);
  // The node's CPUs step every device's shard, slower on a host with fewer cores.
  const double cores = topology.host_cores.value_or(k_offload_reference_host_cores);
  const double slowdown = std::max(1.0, k_offload_reference_host_cores / std::max(1.0, cores));
  double seconds = steps * shard * sharing * k_offload_step_seconds_per_param * slowdown;
  // The node's host links: full speed for up to k_host_links_at_full_speed devices, shared beyond.
  const double link =
      k_host_link_bytes_per_s / std::max(1.0, static_cast<double>(sharing) / k_host_links_at_full_speed);
  const double micro_compute = micro_steps > 0 ? compute.value / micro_steps : 0.0;
  const double gradients = 4.0 * shard / link;  // fp32 on the wire (DeepSpeed issue #899)
  seconds += micro_steps * std::max(0.0, gradients - micro_compute * 2.0 / 3.0);
  if (st.offload == Offload::optimizer_and_params && st.zero_stage >= 3) {
    // 16-bit, for forward and backward, and again for the recomputed forward.
    const double fetches = st.recompute == Recompute::full ? 3.0 : 2.0;
    const double weights = fetches * 2.0 * shard / link;
    seconds += micro_steps * std::max(0.0, weights - micro_compute);
  }
  return Seconds(seconds);
}

Communication training_communication(const Workload& w, const Strategy& st, int device_count, const Device& device,
                                     const Topology& topology, Seconds compute) {
  Communication c;
  c.offload = offload_seconds(w, st, device_count, topology, compute, c.steps);
  if (c.offload.value > 0) {
    // One device offloading has no schedule below, and still accumulates micro-steps.
    c.micro_steps_per_step = micro_steps_per_step(w, st.data_parallel(device_count));
  }
  const std::optional<Schedule> s = schedule_of(w, st, device_count, device, topology, compute, c);
  if (!s) return c;
  if (s->data_parallel > 1) data_parallel_sync(w, st, s->data_parallel, s->links, s->micro_compute, c);
  if (st.tensor_parallel > 1) tensor_parallel_collectives(w, st, s->micro_batches, s->links, c);
  if (st.pipeline_parallel > 1) pipeline_schedule(w, st, s->micro_batches, s->links, compute, c);
  return c;
}

Seconds unhidden_communication(const Workload& w, const Strategy& st, int device_count, const Device& device,
                               const Topology& topology, Seconds compute) {
  Communication c;
  double steps = 0;
  const Seconds offload = offload_seconds(w, st, device_count, topology, compute, steps);
  // Without tensor or pipeline parallelism there is nothing else unhidden: no schedule to
  // work out (the pruner asks this of every offload plan, issue 49).
  if (st.model_parallel() == 1) return offload;
  const std::optional<Schedule> s = schedule_of(w, st, device_count, device, topology, compute, c);
  if (!s) return offload;
  if (st.tensor_parallel > 1) tensor_parallel_collectives(w, st, s->micro_batches, s->links, c);
  if (st.pipeline_parallel > 1) pipeline_schedule(w, st, s->micro_batches, s->links, compute, c);
  return Seconds(c.tensor_parallel.value + c.pipeline.value + offload.value);
}

}  // namespace mlsize
