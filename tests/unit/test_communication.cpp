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
  CHECK(data_parallel_communication(w, stage(0), 1, device, {8, std::nullopt}, Seconds(1e5)).exposed.value == 0);
  Workload serve = w;
  serve.task = Task::inference;
  CHECK(data_parallel_communication(serve, stage(0), 8, device, {8, std::nullopt}, Seconds(1e5)).exposed.value == 0);
  Device cpu;
  cpu.id = "cpu";
  CHECK(data_parallel_communication(w, stage(0), 8, cpu, {8, std::nullopt}, Seconds(1e5)).bandwidth_bytes_per_s == 0);
}

TEST_CASE("per-step volumes follow the ZeRO paper: DP 2Ψ, ZeRO-1/2 2Ψ, ZeRO-3 3Ψ (1.5× DP)") {
  // No gradient accumulation: the global batch is one micro-batch per replica.
  Workload w = seven_billion(1e9);
  w.global_batch = 8.0 * 2048;
  const Device device = nvlink_device();
  const Topology node{8, std::nullopt};
  const double psi = 7e9 * 2 * 7.0 / 8.0;  // bf16 gradients, ring factor (n − 1)/n
  const Communication dp = data_parallel_communication(w, stage(0), 8, device, node, Seconds(1e5));
  CHECK(dp.micro_steps_per_step == 1);
  CHECK(dp.bytes_per_step == Approx(2 * psi));
  CHECK(data_parallel_communication(w, stage(1), 8, device, node, Seconds(1e5)).bytes_per_step == Approx(2 * psi));
  CHECK(data_parallel_communication(w, stage(2), 8, device, node, Seconds(1e5)).bytes_per_step == Approx(2 * psi));
  const Communication z3 = data_parallel_communication(w, stage(3), 8, device, node, Seconds(1e5));
  CHECK(z3.bytes_per_step == Approx(1.5 * dp.bytes_per_step));
  CHECK(dp.bandwidth_bytes_per_s == 300e9);  // half the bidirectional NVLink figure
}

TEST_CASE("DDP hides its all-reduce behind the last backward; the rest is exposed, step by step") {
  Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  // 8 replicas, micro-batch 1, 2048 tokens: 4M-token steps are 256 micro-steps.
  const double steps = 1e9 / 4194304.0;
  const double micro_steps = 4194304.0 / (8 * 2048);
  const double psi = 7e9 * 2 * 7.0 / 8.0;
  const double all_reduce = 2 * psi / 300e9;  // 0.082 s
  for (double compute : {1e4, 2e5}) {
    const double backward = compute / (steps * micro_steps) * 2.0 / 3.0;
    const Communication c = data_parallel_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(compute));
    INFO("compute " << compute << " s, backward of one micro-step " << backward << " s");
    CHECK(c.steps == Approx(steps));
    CHECK(c.micro_steps_per_step == micro_steps);
    CHECK(c.exposed.value == Approx(steps * std::max(0.0, all_reduce - backward)));
  }
  // Slow compute hides all of it.
  CHECK(data_parallel_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(1e7)).exposed.value == 0);
}

TEST_CASE("across nodes the node's network bounds the collective; without a figure 100 Gbit/s is assumed") {
  const Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  // AWS p4d.24xlarge: 8 A100 per node, 400 Gbit/s EFA = 50 GB/s per node.
  const Communication p4d = data_parallel_communication(w, stage(3), 64, device, {8, 400.0}, Seconds(1e3));
  CHECK(p4d.bandwidth_bytes_per_s == 50e9);
  CHECK_FALSE(p4d.network_assumed);
  const Communication unknown = data_parallel_communication(w, stage(3), 64, device, {8, std::nullopt}, Seconds(1e3));
  CHECK(p4d.exposed.value > 0);
  CHECK(unknown.network_assumed);
  CHECK(unknown.bandwidth_bytes_per_s == 12.5e9);
  CHECK(unknown.exposed.value > p4d.exposed.value);
  // Within one node the network is not used.
  const Communication one_node = data_parallel_communication(w, stage(3), 8, device, {8, std::nullopt}, Seconds(1e5));
  CHECK_FALSE(one_node.network_assumed);
  CHECK(one_node.bandwidth_bytes_per_s == 300e9);
}

TEST_CASE("LoRA synchronises only the adapters") {
  Workload w = seven_billion(1e9);
  w.task = Task::lora;
  const Communication c = data_parallel_communication(w, stage(0), 8, nvlink_device(), {8, std::nullopt}, Seconds(1e5));
  // Rank-16 adapters on every linear layer of a 7B model: about 41M fp32 parameters, so
  // about 1% of the full model's 16-bit gradient traffic.
  CHECK(c.bytes_per_step < 0.02 * 2 * 7e9 * 2);
}
