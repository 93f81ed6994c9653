#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

using namespace mlsize;

// Brown et al. 2020 (GPT-3), Table D.1 gives 3.14e23 training FLOPs for 175B parameters on
// 300B tokens: 6·N·D.
TEST_CASE("GPT-3 175B on 300B tokens takes about 3.14e23 FLOPs", "[compute][reference]") {
  const Flops flops = training_flops(175e9, 300e9, Recompute::none);
  CHECK(flops.value == Approx(3.14e23).epsilon(0.005));
}

TEST_CASE("full recomputation adds one forward pass: 8·N·D", "[compute]") {
  CHECK(training_flops(1e9, 1e9, Recompute::full).value == Approx(8e18));
}

// Touvron et al. 2023, "Llama 2", Table 2: pre-training took 184,320 (7B), 368,640 (13B) and
// 1,720,320 (70B) A100-80GB GPU-hours on 2T tokens. mlsize at its default 40% MFU on the
// A100's 312 dense bf16 TFLOP/s should land within 10%.
TEST_CASE("Llama 2 GPU-hours are reproduced within 10% at the default MFU", "[compute][reference]") {
  struct Case {
    double params;
    double published_gpu_hours;
  };
  // Parameter counts: 6.74B, 13.0B, 69.0B (Llama 2 configs).
  const Case cases[] = {{6.74e9, 184320}, {13.0e9, 368640}, {69.0e9, 1720320}};
  const double a100_bf16 = 312e12;
  for (const Case& c : cases) {
    const Flops flops = training_flops(c.params, 2e12, Recompute::none);
    const Seconds one_gpu = training_seconds(flops, 1, a100_bf16, 0.40);
    const double gpu_hours = one_gpu.value / 3600.0;
    INFO("params " << c.params << ": mlsize " << gpu_hours << " GPU-hours, published " << c.published_gpu_hours);
    CHECK(gpu_hours == Approx(c.published_gpu_hours).epsilon(0.10));
  }
}

TEST_CASE("time divides by devices, peak and MFU", "[compute]") {
  CHECK(training_seconds(Flops(1e18), 4, 1e15, 0.5).value == Approx(500.0));
}

TEST_CASE("precision selects the dense peak of the matching datatype", "[compute]") {
  Device v100;
  v100.peak_flops_per_s[static_cast<std::size_t>(DType::fp16)] = 125e12;
  v100.peak_flops_per_s[static_cast<std::size_t>(DType::fp32)] = 15.7e12;
  Workload w;
  w.precision = Precision::fp16_mixed;
  CHECK(peak_flops_per_s(v100, w) == Approx(125e12));
  w.precision = Precision::fp32;
  CHECK(peak_flops_per_s(v100, w) == Approx(15.7e12));
  w.precision = Precision::bf16_mixed;
  CHECK_FALSE(peak_flops_per_s(v100, w).has_value());  // V100 has no bf16
  w.task = Task::inference;  // inference falls back to fp16 where bf16 is missing
  CHECK(peak_flops_per_s(v100, w) == Approx(125e12));
}

TEST_CASE("cost is price per unit-hour times units times hours", "[cost]") {
  CHECK(run_cost(Usd(40.0), 2, Seconds(3 * 3600.0)).value == Approx(240.0));

  Offering cloud;
  cloud.price.on_demand = Usd(10.0);
  cloud.price.spot = Usd(3.0);
  CHECK(hourly_price_per_unit(cloud, CostSettings{})->value == 10.0);
  CostSettings spot;
  spot.pricing = Pricing::spot;
  CHECK(hourly_price_per_unit(cloud, spot)->value == 3.0);
  cloud.price.spot.reset();
  CHECK_FALSE(hourly_price_per_unit(cloud, spot).has_value());
}

TEST_CASE("on-premise hardware is amortised and pays for its power", "[cost]") {
  Offering card;
  card.kind = OfferingKind::on_prem;
  card.purchase_price = Usd(26280.0);  // 3 years × 8760 h = 26,280 h: $1 per hour
  card.power_w = 1000.0;               // 1 kWh per hour at $0.15
  CostSettings always_busy;
  always_busy.utilisation = 1.0;
  CHECK(hourly_price_per_unit(card, always_busy)->value == Approx(1.15));
  // At the default 80% use, each hour of use also carries the idle hours' share: $1 / 0.8.
  CHECK(hourly_price_per_unit(card, CostSettings{})->value == Approx(1.25 + 0.15));
}

TEST_CASE("selective recomputation repeats the attention core's forward: 4·s·h per token and layer",
          "[compute]") {
  // Korthikanti et al. 2022, §5: only the QK^T and attention-times-V products are recomputed.
  Workload w = testing::workload_for_params(7e9, 1e9);
  w.attention = Attention::standard;
  const double none = run_flops(w, Recompute::none).value;
  const double extra = 1e9 * w.model.layers * 4.0 * w.sequence_length * w.model.heads * w.model.head_dim;
  CHECK(run_flops(w, Recompute::selective).value == Approx(none + extra));
  CHECK(extra / none < 0.05);  // a few percent, far below full recomputation's 33%
  w.attention = Attention::flash;  // flash attention recomputes the core anyway: no change
  CHECK(run_flops(w, Recompute::selective).value == Approx(run_flops(w, Recompute::none).value));
}

// A CPU device's peak covers its `cores` (a socket); an offering rents vCPUs / 2 of them
// (docs/methodology.md#time). The 8488C: 48 cores, 118 TFLOP/s BF16 (AMX) per socket.
TEST_CASE("a CPU offering gets the share of the socket's peak that its vCPUs rent", "[compute]") {
  Device cpu;
  cpu.kind = DeviceKind::cpu;
  cpu.cores = 48;
  cpu.peak_flops_per_s[static_cast<std::size_t>(DType::bf16)] = 117.9648e12;
  Workload w;
  Offering small;
  small.vcpus = 8;  // c7i.2xlarge: 4 cores
  CHECK(cpu_core_share(cpu, &small) == Approx(4.0 / 48));
  CHECK(*peak_flops_per_s(cpu, w, &small) == Approx(117.9648e12 * 4 / 48));
  Offering two_sockets;
  two_sockets.vcpus = 192;  // c7i.48xlarge: 96 cores
  CHECK(*peak_flops_per_s(cpu, w, &two_sockets) == Approx(2 * 117.9648e12));
  Offering one_vcpu;
  one_vcpu.vcpus = 1;  // at least one core
  CHECK(cpu_core_share(cpu, &one_vcpu) == Approx(1.0 / 48));
  // Without vCPUs, without an offering, or without cores: the device's own peak.
  CHECK(cpu_core_share(cpu, nullptr) == 1.0);
  CHECK(cpu_core_share(cpu, &two_sockets) != 1.0);
  Offering unknown;
  CHECK(cpu_core_share(cpu, &unknown) == 1.0);
  Device accelerator = cpu;
  accelerator.kind = DeviceKind::gpu;
  CHECK(cpu_core_share(accelerator, &small) == 1.0);
  Device no_cores = cpu;
  no_cores.cores.reset();
  CHECK(cpu_core_share(no_cores, &small) == 1.0);
}

// Issue 27: a VM's cores share the socket's memory channels with the other tenants', so it gets
// its cores' fraction of the socket's bandwidth, never more than the socket (decode does not scale
// across NUMA nodes). GCP c3 on the Xeon 8481C: 44 cores, 8 x DDR5-4800 = 307.2 GB/s per socket.
TEST_CASE("a CPU offering gets its cores' share of the socket's memory bandwidth", "[compute]") {
  Device cpu;
  cpu.kind = DeviceKind::cpu;
  cpu.cores = 44;
  cpu.memory_bandwidth_bytes_per_s = 307.2e9;
  Offering c3_8;
  c3_8.vcpus = 8;  // 4 cores
  CHECK(*memory_bandwidth_bytes_per_s(cpu, &c3_8) == Approx(307.2e9 * 4 / 44));
  Offering c3_88;
  c3_88.vcpus = 88;  // the whole socket
  CHECK(*memory_bandwidth_bytes_per_s(cpu, &c3_88) == Approx(307.2e9));
  Offering c3_176;
  c3_176.vcpus = 176;  // two sockets: twice the compute, one socket's bandwidth
  CHECK(cpu_core_share(cpu, &c3_176) == Approx(2.0));
  CHECK(*memory_bandwidth_bytes_per_s(cpu, &c3_176) == Approx(307.2e9));
  CHECK(*memory_bandwidth_bytes_per_s(cpu, nullptr) == Approx(307.2e9));
  Device gpu = cpu;
  gpu.kind = DeviceKind::gpu;
  CHECK(*memory_bandwidth_bytes_per_s(gpu, &c3_8) == Approx(307.2e9));
  Device no_bandwidth = cpu;
  no_bandwidth.memory_bandwidth_bytes_per_s.reset();
  CHECK_FALSE(memory_bandwidth_bytes_per_s(no_bandwidth, &c3_8).has_value());
}

// Issue 27, checked against the world: Llama-3-70B Q4_K_M (39.59 GiB, llama-bench) decoding at
// batch 1 on one Sapphire Rapids socket (c3-standard-88: 44 cores of the 8481C). Published: llama.cpp
// on an AWS c7a.metal-48xl (2 x EPYC 9R14, 12 x DDR5-4800 per socket), 96 threads, tg128 = 2.85
// tokens/s (llama-bench build 928e0b70); llama.cpp on one EPYC 9554 socket (460.8 GB/s) reads
// 56-65% of its bandwidth (ahelpme.com/?p=6685: Phi-4 14B Q4_K_M 8.43 GiB at 28.74 tokens/s, Q8_0
// 14.51 GiB at 19.19), i.e. 4.0-4.7 tokens/s for 42.5 GB on 307.2 GB/s. Before issue 27 the
// c3 had no bandwidth and decoded at its AMX compute rate, ~517 tokens/s.
TEST_CASE("a 70B int4 model decodes at a few tokens/s on one Sapphire Rapids socket", "[compute][published]") {
  Device spr;
  spr.kind = DeviceKind::cpu;
  spr.cores = 44;
  spr.memory_bandwidth_bytes_per_s = 307.2e9;
  spr.peak_flops_per_s[static_cast<std::size_t>(DType::bf16)] = 121.6512e12;
  Offering socket;
  socket.vcpus = 88;
  Workload w = testing::workload_for_params(70.55e9, 1000);
  w.task = Task::inference;
  w.batch = 1;
  const Bytes weights(39.59 * 1024 * 1024 * 1024);  // the GGUF's size as llama-bench prints it
  const double peak = *peak_flops_per_s(spr, w, &socket);
  const Seconds t =
      inference_seconds(w, spr, 1, 1, peak, 0.6 * 0.3, *memory_bandwidth_bytes_per_s(spr, &socket), weights, Bytes(0));
  const double tokens_per_s = w.tokens / t.value;
  CHECK(tokens_per_s >= 2.85);  // no slower than the untuned two-socket llama.cpp run
  CHECK(tokens_per_s <= 5.0);   // within the brief's 2-5 tokens/s and the 56-65% llama.cpp reaches
}

// A batch job on a mixture of experts reads the experts its tokens choose, as serving does
// (issue 48): Mixtral-8x7B at a batch of 1 reads 2 of its 8 experts a layer (its routed
// experts are 97 % of its weights), so a token takes 0.28 of the time of reading every weight,
// plus the engine's per-layer costs; at a batch of 64 nearly all.
TEST_CASE("batch inference on a mixture of experts reads the experts its batch touches", "[compute]") {
  Device gpu;
  gpu.kind = DeviceKind::gpu;
  gpu.memory_bandwidth_bytes_per_s = 3.35e12;
  gpu.peak_flops_per_s[static_cast<std::size_t>(DType::bf16)] = 989e12;
  Workload w;
  w.model = *model_preset("mixtral-8x7b");
  w.parameters = count_parameters(w.model);
  w.task = Task::inference;
  w.tokens = 6400;
  w.step_overhead = Seconds(0);
  const Bytes weights(w.parameters.total * 2);
  const double read_all = weights.value / (gpu.memory_bandwidth_bytes_per_s.value() * w.bandwidth_efficiency);
  const auto per_step = [&](int batch) {
    w.batch = batch;
    const Seconds t = inference_seconds(w, gpu, 1, 1, 989e12, 0.6, 3.35e12, weights, Bytes(0));
    return t.value / (w.tokens / batch);
  };
  CHECK(per_step(1) / read_all > 0.27);
  CHECK(per_step(1) / read_all < 0.35);
  CHECK(per_step(64) / read_all == Approx(1.0).epsilon(0.05));
}
