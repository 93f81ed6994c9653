// Data-parallel communication: volumes from the ZeRO paper (Rajbhandari et al. 2020, §7),
// ring collectives moving (n − 1)/n of the buffer, overlap with the backward pass.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/communication.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/rank/ranker.hpp>

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

TEST_CASE("DDP hides its all-reduce behind the last backward but its last bucket, the rest is exposed, step by step") {
  Workload w = seven_billion(1e9);
  const Device device = nvlink_device();
  // 8 replicas, micro-batch 1, 2048 tokens: 4M-token steps are 256 micro-steps.
  const double steps = 1e9 / 4194304.0;
  const double micro_steps = 4194304.0 / (8 * 2048);
  const double bandwidth = 300e9 * k_collective_efficiency;
  // NCCL's ring all-reduce latency: twice the base and the 7 NVLink hops (tuning.cc).
  const double latency = 2 * (k_ring_base_latency_s + 7 * k_ring_nvlink_hop_latency_s);
  const double all_reduce = latency + 2 * 7e9 * 2 * 7.0 / 8.0 / bandwidth;             // 0.10 s
  const double last_bucket = latency + 2 * k_ddp_bucket_bytes * 7.0 / 8.0 / bandwidth;  // 0.2 ms
  for (double compute : {1e4, 2e5}) {
    const double backward = compute / (steps * micro_steps) * 2.0 / 3.0;
    const Communication c = training_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(compute));
    INFO("compute " << compute << " s, backward of one micro-step " << backward << " s");
    CHECK(c.steps == Approx(steps));
    CHECK(c.micro_steps_per_step == micro_steps);
    CHECK(c.exposed().value == Approx(steps * (last_bucket + std::max(0.0, all_reduce - last_bucket - backward))));
  }
  // Slow compute hides all of it but the last bucket.
  const Communication slow = training_communication(w, stage(0), 8, device, {8, std::nullopt}, Seconds(1e7));
  CHECK(slow.exposed().value == Approx(steps * last_bucket));
}

TEST_CASE("across nodes the node's network bounds the collective, without a figure 100 Gbit/s is assumed") {
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

namespace {

// An H100 SXM-like device: NVLink 900 GB/s both directions, 3.35 TB/s HBM3.
Device h100_like() {
  Device device = nvlink_device();
  device.interconnect = Interconnect{"nvlink", 900e9};
  device.memory_bandwidth_bytes_per_s = 3.35e12;
  return device;
}

// Compute time of a run at `flops_per_s` per device: 6·N·D over the devices.
Seconds compute_of(const Workload& w, int devices, double flops_per_s) {
  return Seconds(6 * w.parameters.total * w.tokens / (devices * flops_per_s));
}

}  // namespace

TEST_CASE("ZeRO-3 exposes its first all-gather, last reduce-scatter and copies every micro-step", "[communication]") {
  // One node of 8, compute so slow that the old model hid everything: ZeRO-3 still leaves
  // per micro-step the first layer's gather, the last layer's reduce-scatter (each with
  // NCCL's ring latency) and the copies in and out of the gathered buffers.
  Workload w = seven_billion(1e9);
  const Device device = h100_like();
  const Communication c = training_communication(w, stage(3), 8, device, {8, std::nullopt}, Seconds(1e7));
  const double layers = w.model.layers;
  const double bandwidth = 450e9 * k_collective_efficiency;
  const double latency = k_ring_base_latency_s + 7 * k_ring_nvlink_hop_latency_s;
  const double weights = w.parameters.total * 2;  // 16-bit gathered and reduced
  const double first_and_last = 2 * (latency + weights * 7.0 / 8.0 / bandwidth / layers);
  const double copies = 6 * weights / 3.35e12;
  const double micro_steps = c.steps * c.micro_steps_per_step;
  CHECK_FALSE(c.micro_steps_hidden);
  CHECK(c.data_parallel.value == Approx(micro_steps * (first_and_last + copies)));
}

TEST_CASE("ZeRO-3's per-layer ring latency grows with the ranks, across nodes at NCCL's network hop",
          "[communication]") {
  // A 125M model on 512 devices (64 nodes of 8): the bytes are small, the per-collective
  // latency is not. NCCL's ring over 512 ranks on 64 nodes: 8.4 + 448 × 3.4 + 63 × 14 µs.
  Workload w = testing::workload_for_params(125e6, 1e9);
  w.task = Task::pretrain;
  const Device device = h100_like();
  const double across = k_ring_base_latency_s + 448 * k_ring_nvlink_hop_latency_s + 63 * k_ring_network_hop_latency_s;
  CHECK(across == Approx(2.42e-3).epsilon(0.01));
  const Communication wide = training_communication(w, stage(3), 512, device, {8, 3200.0}, Seconds(1e7));
  const Communication one_node = training_communication(w, stage(3), 8, device, {8, 3200.0}, Seconds(1e7));
  const double wide_micro_steps = wide.steps * wide.micro_steps_per_step;
  // At least the first gather and last reduce-scatter, each one ring latency.
  CHECK(wide.data_parallel.value / wide_micro_steps > 2 * across);
  CHECK(wide.data_parallel.value / wide_micro_steps >
        5 * one_node.data_parallel.value / (one_node.steps * one_node.micro_steps_per_step));
}

TEST_CASE("ZeRO-3 at 384 GPUs and 1k tokens per GPU exposes what ZeRO++ recovered (Wang et al. 2023)",
          "[communication]") {
  // ZeRO++ (Wang et al. 2023, arXiv:2306.10209; DeepSpeed's ZeRO++ blog, Figure 6): 384
  // V100 in DGX-2 nodes of 16, 4 × 100 Gbit/s InfiniBand per node, 1k tokens per GPU: cutting
  // ZeRO-3's volume 4× gave 1.28× to 1.56× the throughput (the figure's 1.56×; the text's
  // 28-36%, a typo per the author in deepspeedai/DeepSpeed#6781). Since ZeRO++'s own time is
  // at least its compute, ZeRO-3 exposed at least 1 − 1/1.28 = 22% of its step time; if
  // ZeRO++ hid all of its own, 1 − 1/1.56 = 36%. Here the 18B model of that paper at 50
  // TFLOP/s per V100 (40% of its 125 TFLOP/s fp16 peak, an assumption).
  Workload w = testing::workload_for_params(18e9, 1e9);
  w.task = Task::pretrain;
  w.precision = Precision::fp16_mixed;
  w.sequence_length = 1024;
  w.global_batch = 384.0 * 1024;  // one micro-batch per GPU
  Device v100;
  v100.id = "v100-like";
  v100.interconnect = Interconnect{"nvlink", 300e9};
  v100.memory_bandwidth_bytes_per_s = 900e9;
  const Seconds compute = compute_of(w, 384, 50e12);
  const Communication c = training_communication(w, stage(3), 384, v100, {16, 400.0}, compute);
  const double share = c.exposed().value / (compute.value + c.exposed().value);
  INFO("exposed share of ZeRO-3's step: " << share);
  CHECK(share > 0.22);
  CHECK(share < 0.45);
}

namespace {

// 70B pre-training on 512 H100 (64 nodes of 8, 3200 Gbit/s each), 4M-token steps, at 400
// TFLOP/s per device.
Workload seventy_b_pretraining() {
  Workload w = testing::workload_for_params(70e9, 1e12);
  w.task = Task::pretrain;
  w.sequence_length = 4096;
  return w;
}

}  // namespace

TEST_CASE("70B pre-training as pure ZeRO-3 over 64 nodes exposes communication", "[communication]") {
  const Workload w = seventy_b_pretraining();
  const Seconds compute = compute_of(w, 512, 400e12);
  const Communication c = training_communication(w, stage(3), 512, h100_like(), {8, 3200.0}, compute);
  INFO("exposed " << c.data_parallel.value << " s of " << compute.value << " s of compute");
  CHECK(c.data_parallel.value > 0.01 * compute.value);
  CHECK_FALSE(c.micro_steps_hidden);
}

TEST_CASE("on one node a model that fits with ZeRO-2 ranks ZeRO-1/2 or DDP above ZeRO-3", "[communication]") {
  // mlsize recommend --model llama-2-7b --task finetune --tokens 50M --gpus a100-80gb:4: what
  // practitioners run there is ZeRO-2 (Anyscale's LLMForge guide: "Use ZeRO-2 (or lower
  // stages) when you can fit the whole model onto a single GPU ... even on nodes with
  // NVLink"); ZeRO-3 gathers the weights twice every micro-step.
  const Catalog catalog = load_default_catalog();
  Workload w;
  w.model = *model_preset("llama-2-7b");
  w.parameters = count_parameters(w.model);
  w.task = Task::finetune;
  w.tokens = 50e6;
  RecommendSettings settings;
  settings.device_counts["a100-80gb-sxm"] = {4};  // a100-80gb is its alias
  const Report report = recommend(w, catalog, settings);
  int planned = 0;
  for (const PlanEstimate& e : report.recommendations) {
    if (e.plan.device->id != "a100-80gb-sxm") continue;
    INFO(e.plan.offering->id << ": ZeRO-" << e.plan.strategy.zero_stage);
    CHECK(e.plan.device_count == 4);
    CHECK(e.plan.strategy.zero_stage <= 2);
    ++planned;
  }
  CHECK(planned > 0);
}

namespace {

Strategy hybrid(int group) {
  Strategy st = stage(3);
  st.shard_group = group;
  return st;
}

}  // namespace

TEST_CASE("HSDP: gathers within the node every micro-step, one all-reduce of the shard across nodes per step",
          "[communication]") {
  // 7B on 2 nodes of 8 H100 (3200 Gbit/s each), groups of one node, compute so slow that
  // only what never hides shows: per micro-step the first gather, the last reduce-scatter
  // and the copies, all within the node (n = 8 ranks on 1 node); per step the all-reduce of
  // the last unit, one layer's 1/8 shard between the 2 replicas, the 8 rings of a node
  // sharing its network (FSDP HYBRID_SHARD; docs/methodology.md#communication).
  Workload w = seven_billion(1e9);
  const Device device = h100_like();
  const Communication c = training_communication(w, hybrid(8), 16, device, {8, 3200.0}, Seconds(1e7));
  const double layers = w.model.layers;
  const double node = 450e9 * k_collective_efficiency;
  const double latency = k_ring_base_latency_s + 7 * k_ring_nvlink_hop_latency_s;
  const double weights = w.parameters.total * 2;
  const double micro_step = 2 * (latency + weights * 7.0 / 8.0 / node / layers) + 6 * weights / 3.35e12;
  const double network = 3200e9 / 8 * k_collective_efficiency / 8;
  const double across = 2 * (k_ring_base_latency_s + k_ring_network_hop_latency_s);  // 2 ranks on 2 nodes
  const double last_unit = across + weights / 8 / layers * (2.0 * 1 / 2) / network;
  CHECK_FALSE(c.network_assumed);
  CHECK(c.data_parallel.value == Approx(c.steps * (c.micro_steps_per_step * micro_step + last_unit)));
  // Bytes: 3 × 7/8 Ψ per micro-step in the node, 2 × (1/2) × Ψ/8 per step across.
  CHECK(c.bytes_per_step == Approx(3 * weights * 7.0 / 8.0 * c.micro_steps_per_step + weights / 8));
}

TEST_CASE("HSDP is ZeRO-3 when its group is every data-parallel rank", "[communication]") {
  Workload w = seven_billion(1e9);
  const Communication full = training_communication(w, stage(3), 16, h100_like(), {8, 3200.0}, Seconds(1e5));
  const Communication group = training_communication(w, hybrid(16), 16, h100_like(), {8, 3200.0}, Seconds(1e5));
  CHECK(group.data_parallel.value == full.data_parallel.value);
  CHECK(group.bytes_per_step == full.bytes_per_step);
}

TEST_CASE("70B over 64 nodes: HSDP in a node exposes less than ZeRO-3 over every rank", "[communication]") {
  // The run of "70B pre-training as pure ZeRO-3 over 64 nodes" above: ZeRO-3's three
  // collectives per micro-step cross 64 nodes (2.4 ms of ring latency each per layer), HSDP's
  // stay on NVLink and the network carries one all-reduce of 2Ψ per step.
  const Workload w = seventy_b_pretraining();
  const Seconds compute = compute_of(w, 512, 400e12);
  const Communication zero3 = training_communication(w, stage(3), 512, h100_like(), {8, 3200.0}, compute);
  const Communication hsdp = training_communication(w, hybrid(8), 512, h100_like(), {8, 3200.0}, compute);
  INFO("ZeRO-3 exposes " << zero3.data_parallel.value << " s, HSDP " << hsdp.data_parallel.value << " s, of "
                         << compute.value << " s of compute");
  CHECK(hsdp.data_parallel.value < zero3.data_parallel.value);
  CHECK(hsdp.data_parallel.value > 0);
}
