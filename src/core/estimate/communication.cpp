#include <mlsize/estimate/communication.hpp>

#include <mlsize/estimate/memory.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {
namespace {

// Bytes of one replica's gradients (and of the parameters ZeRO-3 gathers): the trained
// parameters of its model-parallel share at the gradient precision.
double trained_bytes_per_replica(const Workload& w, const Strategy& st) {
  double params = w.parameters.total;
  double bytes = state_bytes_per_param(w.precision, w.optimizer, w.model.hidden, w.framework).gradients;
  if (w.is_adapter_tuning()) {
    params = lora_parameters(w.model, w.lora_rank, w.lora_targets);
    bytes = w.task == Task::qlora ? 2.0 : 4.0;  // as in estimate_memory
  }
  return params * bytes / st.model_parallel();
}

}  // namespace

double global_batch_tokens(const Workload& w, int data_parallel) {
  const double micro_step = static_cast<double>(data_parallel) * w.micro_batch * w.sequence_length;
  // Llama 2 (Touvron et al. 2023, §2.2): "a global batch-size of 4M tokens"; Alpaca
  // (Taori et al. 2023) fine-tunes with a batch of 128 sequences.
  const double wanted = w.global_batch             ? *w.global_batch
                        : w.task == Task::pretrain ? 4.0 * 1024 * 1024
                                                   : 128.0 * w.sequence_length;
  return std::max(wanted, micro_step);
}

Communication data_parallel_communication(const Workload& w, const Strategy& st, int device_count, const Device& device,
                                          const Topology& topology, Seconds compute) {
  Communication c;
  const int dp = st.data_parallel(device_count);
  if (!w.is_training() || dp <= 1 || w.tokens <= 0 || compute.value <= 0) return c;

  // The bus bandwidth of a ring collective: within a node, half the bidirectional device
  // link; across nodes, each node's network carries the whole ring traffic once (NCCL runs
  // one ring per NIC), so the node's bandwidth bounds every device's share.
  double bandwidth = device.interconnect ? device.interconnect->bandwidth_bytes_per_s / 2 : 0.0;
  const int per_node = std::max(1, std::min(topology.devices_per_node, device_count));
  if (device_count > per_node) {
    c.network_assumed = !topology.network_gbps;
    const double network = topology.network_gbps.value_or(k_assumed_network_gbps) * 1e9 / 8;
    bandwidth = bandwidth > 0 ? std::min(bandwidth, network) : network;
  }
  if (bandwidth <= 0) return c;  // no link known (CPUs): not modelled
  c.bandwidth_bytes_per_s = bandwidth;

  const double batch = global_batch_tokens(w, dp);
  const double micro_tokens = static_cast<double>(dp) * w.micro_batch * w.sequence_length;
  c.steps = w.tokens / batch;
  c.micro_steps_per_step = std::ceil(batch / micro_tokens);
  const double micro_compute = compute.value / (c.steps * c.micro_steps_per_step);
  const double backward = micro_compute * 2.0 / 3.0;  // backward is 4 of the 6·N·D

  // Ring collectives move (n − 1)/n of the buffer per device (all-reduce twice that).
  const double ring = static_cast<double>(dp - 1) / dp;
  const double psi = trained_bytes_per_replica(w, st) * ring;
  const double link = psi / bandwidth;  // one reduce-scatter or all-gather of the gradients
  double exposed_per_step = 0;
  switch (st.zero_stage) {
    case 0:
      // DDP all-reduces (2Ψ) once per step, in buckets behind the last micro-step's backward
      // (Li et al. 2020, PyTorch DDP, §3.2.3; no_sync during accumulation).
      c.bytes_per_step = 2 * psi;
      exposed_per_step = std::max(0.0, 2 * link - backward);
      break;
    case 1:
      // ZeRO-1 reduce-scatters the gradients (Ψ) behind the last backward and all-gathers
      // the updated parameters after the step (Ψ), which nothing hides.
      c.bytes_per_step = 2 * psi;
      exposed_per_step = std::max(0.0, link - backward) + link;
      break;
    case 2:
      // ZeRO-2 reduce-scatters gradients every micro-step (Ψ) and all-gathers the updated
      // parameters after the step (Ψ), which nothing hides.
      c.bytes_per_step = psi * (c.micro_steps_per_step + 1);
      exposed_per_step = c.micro_steps_per_step * std::max(0.0, link - backward) + link;
      break;
    default:
      // ZeRO-3 gathers parameters for forward and backward and reduce-scatters gradients
      // every micro-step (3Ψ), prefetched behind that micro-step's compute.
      c.bytes_per_step = 3 * psi * c.micro_steps_per_step;
      exposed_per_step = c.micro_steps_per_step * std::max(0.0, 3 * link - micro_compute);
      break;
  }
  c.exposed = Seconds(c.steps * exposed_per_step);
  return c;
}

}  // namespace mlsize
