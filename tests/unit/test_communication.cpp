// Data-parallel communication: volumes from the ZeRO paper (Rajbhandari et al. 2020, §7),
// ring collectives moving (n − 1)/n of the buffer, overlap with the backward pass.

#include <mlsize/estimate/communication.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

using namespace mlsize;

namespace {

// An A100-like device: NVLink at 600 GB/s (both directions together).
Device nvlink_device() {
  Device device;
  device.id = "test-gpu";
  device.interconnect = Interconnect{"nvlink", 600e9};
  return device;
}

Workload seven_billion(double tokens) {
  Workload w = testing::workload_for_params(7e9, tokens);
  w.task = Task::pretrain;
  return w;
}

Strategy stage(int zero) {
  Strategy st;
  st.zero_stage = zero;
  return st;
}

}  // namespace

TEST_CASE("global batch: 4M tokens for pre-training, 128 sequences for fine-tuning, at least one micro-batch each") {
  Workload w = seven_billion(1e9);
  CHECK(global_batch_tokens(w, 8) == 4194304.0);  // Llama 2, §2.2
  w.task = Task::finetune;
  CHECK(global_batch_tokens(w, 8) == 128.0 * 2048);  // Alpaca
  CHECK(global_batch_tokens(w, 1024) == 1024.0 * 2048);  // one micro-batch per replica
  w.global_batch = 1e6;
  CHECK(global_batch_tokens(w, 8) == 1e6);
}

TEST_CASE("one replica, inference and devices without a link need no communication") {
  const Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  CHECK(training_communication(w, stage(0), 1, device, {8, std::nullopt}, Seconds(1e5)).exposed().value == 0);
  Workload serve = w;
  serve.task = Task::inference;
  CHECK(training_communication(serve, stage(0), 8, device, {8, std::nullopt}, Seconds(1e5)).exposed().value == 0);
  Device cpu;
  cpu.id = "cpu";
  CHECK(training_communication(w, stage(0), 8, cpu, {8, std::nullopt}, Seconds(1e5)).bandwidth_bytes_per_s == 0);
}

TEST_CASE("per-step volumes follow the ZeRO paper: DP 2Ψ, ZeRO-1/2 2Ψ, ZeRO-3 3Ψ (1.5× DP)") {
  // No gradient accumulation: the global batch is one micro-batch per replica.
  Workload w = seven_billion(1e9);
  w.global_batch = 8.0 * 2048;
  const Device device = nvlink_device();
  const Topology node{8, std::nullopt};
  const double psi = 7e9 * 2 * 7.0 / 8.0;  // bf16 gradients, ring factor (n − 1)/n
  const Communication dp = training_communication(w, stage(0), 8, device, node, Seconds(1e5));
  CHECK(dp.micro_steps_per_step == 1);
  CHECK(dp.bytes_per_step == Approx(2 * psi));
  CHECK(training_communication(w, stage(1), 8, device, node, Seconds(1e5)).bytes_per_step == Approx(2 * psi));
  CHECK(training_communication(w, stage(2), 8, device, node, Seconds(1e5)).bytes_per_step == Approx(2 * psi));
  const Communication z3 = training_communication(w, stage(3), 8, device, node, Seconds(1e5));
  CHECK(z3.bytes_per_step == Approx(1.5 * dp.bytes_per_step));
  // Half the bidirectional NVLink figure, at the share of it NCCL reaches.
  CHECK(dp.bandwidth_bytes_per_s == Approx(300e9 * k_collective_efficiency));
}

TEST_CASE("DDP hides its all-reduce behind the last backward; the rest is exposed, step by step") {
  Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  // 8 replicas, micro-batch 1, 2048 tokens: 4M-token steps are 256 micro-steps.
  const double steps = 1e9 / 4194304.0;
  const double micro_steps = 4194304.0 / (8 * 2048);
  const double psi = 7e9 * 2 * 7.0 / 8.0;
  const double all_reduce = 2 * psi / (300e9 * k_collective_efficiency);  // 0.10 s
  for (double compute : {1e4, 2e5}) {
    const double backward = compute / (steps * micro_steps) * 2.0 / 3.0;
    const Communication c = training_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(compute));
    INFO("compute " << compute << " s, backward of one micro-step " << backward << " s");
    CHECK(c.steps == Approx(steps));
    CHECK(c.micro_steps_per_step == micro_steps);
    CHECK(c.exposed().value == Approx(steps * std::max(0.0, all_reduce - backward)));
  }
  // Slow compute hides all of it.
  CHECK(training_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(1e7)).exposed().value == 0);
}

TEST_CASE("across nodes the node's network bounds the collective; without a figure 100 Gbit/s is assumed") {
  const Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  // AWS p4d.24xlarge: 8 A100 per node, 400 Gbit/s EFA = 50 GB/s per node.
  const Communication p4d = training_communication(w, stage(3), 64, device, {8, 400.0}, Seconds(1e3));
  CHECK(p4d.bandwidth_bytes_per_s == Approx(50e9 * k_collective_efficiency));
  CHECK_FALSE(p4d.network_assumed);
  const Communication unknown = training_communication(w, stage(3), 64, device, {8, std::nullopt}, Seconds(1e3));
  CHECK(p4d.exposed().value > 0);
  CHECK(unknown.network_assumed);
  CHECK(unknown.bandwidth_bytes_per_s == Approx(12.5e9 * k_collective_efficiency));
  CHECK(unknown.exposed().value > p4d.exposed().value);
  // Within one node the network is not used.
  const Communication one_node = training_communication(w, stage(3), 8, device, {8, std::nullopt}, Seconds(1e5));
  CHECK_FALSE(one_node.network_assumed);
  CHECK(one_node.bandwidth_bytes_per_s == Approx(300e9 * k_collective_efficiency));
}

TEST_CASE("LoRA synchronises only the adapters") {
  Workload w = seven_billion(1e9);
  w.task = Task::lora;
  const Communication c = training_communication(w, stage(0), 8, nvlink_device(), {8, std::nullopt}, Seconds(1e5));
  // Rank-16 adapters on every linear layer of a 7B model: about 41M fp32 parameters, so
  // about 1% of the full model's 16-bit gradient traffic.
  CHECK(c.bytes_per_step < 0.02 * 2 * 7e9 * 2);
}

TEST_CASE("ZeRO-3 under LoRA gathers the frozen base, not only the adapters") {
  Workload w = seven_billion(1e9);
  w.task = Task::lora;
  const Topology node{8, std::nullopt};
  const Communication z0 = training_communication(w, stage(0), 8, nvlink_device(), node, Seconds(1e5));
  const Communication z3 = training_communication(w, stage(3), 8, nvlink_device(), node, Seconds(1e5));
  // Each micro-step gathers the 16-bit base twice (forward and backward): 2 × 7B × 2 bytes,
  // ring factor 7/8, far more than the adapters' gradients.
  const double gathers = 2 * w.parameters.total * 2 * 7.0 / 8.0;
  CHECK(z3.bytes_per_step / z3.micro_steps_per_step > gathers);
  CHECK(z3.bytes_per_step / z3.micro_steps_per_step < 1.05 * gathers);
  CHECK(z3.bytes_per_step > 50 * z0.bytes_per_step);
  w.task = Task::qlora;  // a 4-bit base gathers a quarter of that
  const Communication q3 = training_communication(w, stage(3), 8, nvlink_device(), node, Seconds(1e5));
  CHECK(q3.bytes_per_step / q3.micro_steps_per_step == Approx(gathers / 4).epsilon(0.05));
}

TEST_CASE("tensor parallelism: four all-reduces of b·s·h per layer and micro-batch, six with full recompute") {
  // Shoeybi et al. 2019, §3 (two all-reduces in the forward, two in the backward of each
  // layer); Korthikanti et al. 2022 (sequence parallelism moves the same volume).
  const Workload w = seven_billion(1e9);
  Strategy st = stage(0);
  st.tensor_parallel = 8;
  st.sequence_parallel = true;
  const Device device = nvlink_device();
  const Communication c = training_communication(w, st, 8, device, {8, std::nullopt}, Seconds(1e5));
  const double activations = 1.0 * 2048 * w.model.hidden * 2;  // b·s·h at 16 bits
  const double per_micro_batch = w.model.layers * 4 * 2 * 7.0 / 8.0 * activations;
  CHECK(c.micro_steps_per_step == 4194304.0 / 2048);  // one replica: every micro-batch passes all 8 devices
  CHECK(c.tensor_bytes_per_step == Approx(per_micro_batch * c.micro_steps_per_step));
  CHECK(c.tensor_parallel.value ==
        Approx(c.steps * c.micro_steps_per_step * per_micro_batch / (300e9 * k_collective_efficiency)));
  CHECK(c.data_parallel.value == 0);  // one replica
  st.recompute = Recompute::full;
  const Communication recomputed = training_communication(w, st, 8, device, {8, std::nullopt}, Seconds(1e5));
  CHECK(recomputed.tensor_bytes_per_step == Approx(1.5 * c.tensor_bytes_per_step));
  // A device without a link (CPUs) is not modelled.
  Device cpu;
  cpu.id = "cpu";
  CHECK(training_communication(w, st, 8, cpu, {8, std::nullopt}, Seconds(1e5)).tensor_parallel.value == 0);
}

TEST_CASE("pipeline parallelism: a bubble of (p − 1)/m of the compute, plus the sends between stages") {
  // Narayanan et al. 2021, §2.2.1 (1F1B schedule).
  Workload w = seven_billion(1e9);
  w.global_batch = 64.0 * 2048;  // 64 micro-batches per step for one replica
  Strategy st = stage(0);
  st.pipeline_parallel = 8;
  const double compute = 1e5;
  const Communication c = training_communication(w, st, 8, nvlink_device(), {8, std::nullopt}, Seconds(compute));
  CHECK(c.micro_steps_per_step == 64);
  const double bubble = compute * 7.0 / 64.0;
  CHECK(c.pipeline.value > bubble);
  CHECK(c.pipeline.value < 1.01 * bubble);  // the activation sends are small beside it
  // Twice the micro-batches, half the bubble.
  w.global_batch = 128.0 * 2048;
  const Communication longer = training_communication(w, st, 8, nvlink_device(), {8, std::nullopt}, Seconds(compute));
  CHECK(longer.pipeline.value == Approx(c.pipeline.value / 2).epsilon(0.01));
  // Across nodes with no stated network, the plan says it assumed one.
  const Communication nodes = training_communication(w, st, 8, nvlink_device(), {1, std::nullopt}, Seconds(compute));
  CHECK(nodes.network_assumed);
  CHECK(nodes.pipeline.value > longer.pipeline.value);
}

TEST_CASE("GeForce cards lack peer-to-peer: their collectives cross PCIe twice") {
  // NVIDIA's driver gives GeForce cards no P2P access (tinygrad/open-gpu-kernel-modules
  // exists to patch it back for the RTX 4090), so NCCL stages transfers in host memory.
  const Workload w = seven_billion(1e9);
  Device datacenter;
  datacenter.id = "pcie-datacenter";
  datacenter.vendor = "nvidia";
  datacenter.name = "NVIDIA L40S";
  datacenter.interconnect = Interconnect{"pcie", 64e9};
  Device geforce = datacenter;
  geforce.id = "pcie-geforce";
  geforce.name = "NVIDIA GeForce RTX 4090";
  const Topology box{4, std::nullopt};
  const Communication l40s = training_communication(w, stage(0), 4, datacenter, box, Seconds(1e5));
  const Communication rtx = training_communication(w, stage(0), 4, geforce, box, Seconds(1e5));
  CHECK(l40s.bandwidth_bytes_per_s == Approx(32e9 * k_collective_efficiency));
  CHECK(rtx.bandwidth_bytes_per_s == Approx(l40s.bandwidth_bytes_per_s / 2));
  CHECK(rtx.exposed().value > l40s.exposed().value);
}

// docs/methodology.md#offload-time: the host steps the optimizer (0.64 ns per parameter of
// the node's shards) and each micro-step's fp32 gradients cross PCIe at 12 GB/s behind the
// backward pass (two thirds of the micro-step's compute).
TEST_CASE("ZeRO-Offload adds the host's optimizer step and the gradient transfer backward does not hide",
          "[communication][offload]") {
  Workload w = testing::workload_for_params(13e9, 10e6);
  w.task = Task::finetune;  // 128 sequences of 2048 per step: 128 micro-steps on one device
  Strategy st = stage(2);
  st.offload = Offload::optimizer;
  const Device device = nvlink_device();
  const double steps = 10e6 / (128.0 * 2048);
  const double micro_steps = steps * 128;
  const auto offload = [&](double compute, int devices, int per_node) {
    return training_communication(w, st, devices, device, Topology{per_node, std::nullopt}, Seconds(compute)).offload;
  };
  // Ample compute: only the host step shows.
  const double slow = micro_steps * 100.0;
  CHECK(offload(slow, 1, 1).value == Approx(steps * 13e9 * 0.64e-9));
  // A fast device: 4 × 13e9 bytes take 4.33 s against a backward of 2 s per micro-step.
  const double fast = micro_steps * 3.0;
  CHECK(offload(fast, 1, 1).value == Approx(steps * 13e9 * 0.64e-9 + micro_steps * (4 * 13e9 / 12e9 - 2.0)));
  // Eight devices of a node offload their eighths: the host steps the same 13e9 parameters,
  // and each device's link runs at half speed (four at full speed per node).
  const Communication eight =
      training_communication(w, st, 8, device, Topology{8, std::nullopt}, Seconds(slow / 8));
  CHECK(eight.offload.value == Approx(w.tokens / global_batch_tokens(w, 8) * 13e9 * 0.64e-9));
  CHECK(eight.steps > 0);
}
