#include <mlsize/estimate/planner.hpp>

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/support/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>

namespace mlsize {

std::optional<Bytes> device_capacity(const Device& device, const Offering* offering) {
  if (device.memory) return device.usable_memory();
  if (offering != nullptr) return offering->host_memory;
  return std::nullopt;
}

namespace {

// The fields same_shape compares, then those same_host does, in shape_before's order.
auto shape_fields(const Offering& o) {
  const bool linked = o.interconnect.has_value();
  return std::make_tuple(std::string_view(o.device_id), o.devices_per_unit, o.kind, o.max_units, o.network_gbps, linked,
                         linked ? std::string_view(o.interconnect->kind) : std::string_view(),
                         linked ? o.interconnect->bandwidth_bytes_per_s : 0.0, o.vcpus.has_value(),
                         o.host_memory.has_value());
}
auto host_fields(const Offering& o) {
  return std::tie(o.vcpus, o.threads_per_core, o.host_memory);
}

}  // namespace

bool same_shape(const Offering& a, const Offering& b) {
  return shape_fields(a) == shape_fields(b);
}

bool same_host(const Offering& a, const Offering& b) {
  return host_fields(a) == host_fields(b);
}

ShapeKey shape_key(const Offering& offering) {
  return std::tuple_cat(shape_fields(offering), host_fields(offering));
}

bool shape_before(const Offering& a, const Offering& b) {
  return shape_key(a) < shape_key(b);
}

bool reads_host(const Workload& workload, const Plan& plan) {
  return plan.strategy.offload != Offload::none || plan.device->kind == DeviceKind::cpu ||
         workload.task == Task::gbdt || workload.vision.has_value();
}

int busy_replicas(const Workload& workload, const Plan& plan) {
  // Replicas split the sequences, not the tokens of one sequence: past one replica per
  // batch of sequences the others idle (and still cost).
  const double sequences = std::max(1.0, std::ceil(workload.tokens / std::max(1, workload.context)));
  const int busy = static_cast<int>(
      std::min<double>(plan.strategy.data_parallel(plan.device_count), std::ceil(sequences / workload.batch)));
  return std::max(1, busy);
}

PlanEstimator::PlanEstimator(const Workload& workload, const Device& device, const Offering* offering,
                             const CostSettings& cost_settings, EstimateCache* cache)
    : m_workload(&workload),
      m_device(device),
      m_offering(offering),
      m_cost(cost_settings),
      m_peak(workload.task == Task::gbdt ? std::nullopt : peak_flops_per_s(device, workload, offering)),
      m_mfu(effective_mfu(device, workload)),
      m_capacity(device_capacity(device, offering).value_or(Bytes(0))),
      m_cache(cache) {
  m_topology.peer_to_peer = peer_to_peer(device);
  if (offering != nullptr) {
    m_price = hourly_price_per_unit(*offering, cost_settings);
    m_topology.devices_per_node = offering->devices_per_unit;
    m_topology.network_gbps = offering->network_gbps;
    m_topology.interconnect = offering->interconnect;
    if (const std::optional<int> cores = rented_cores(*offering)) m_topology.host_cores = *cores;
  }
}

Flops PlanEstimator::flops(Recompute recompute) {
  std::optional<Flops>& flops = m_flops[static_cast<std::size_t>(recompute)];
  if (!flops) flops = run_flops(*m_workload, recompute);
  return *flops;
}

std::optional<Seconds> PlanEstimator::least_time(const Plan& plan) {
  const Workload& workload = *m_workload;
  if (!m_peak || workload.task == Task::inference || workload.task == Task::gbdt) return std::nullopt;
  // The same sums as estimate_network_time and estimate_into, with the data-parallel
  // communication at none (what hides behind compute may hide entirely).
  Seconds time = training_seconds(flops(plan.strategy.recompute), plan.device_count, *m_peak, m_mfu);
  if (plan.strategy.offload != Offload::none) {
    // The host's optimizer steps and the transfers the plan's own compute leaves exposed:
    // nothing else hides them (offload plans have no model parallelism).
    time = time + unhidden_communication(workload_of(plan), plan.strategy, plan.device_count, m_device,
                                         topology_of(plan), time);
  } else if (plan.strategy.model_parallel() > 1) {
    time = time + least_unhidden_communication(plan);
  }
  if (time.value > 0) time = Seconds(time.value + workload.setup_time.value);
  return time;
}

// The unhidden communication of the plan's layout at the workload's micro-batch without
// recomputation: the least of its plans, since recomputation adds compute to the bubble
// and full recomputation collectives, and a larger micro-batch sends as much over as many
// or more micro-steps (2·⌈n/2⌉ ≥ ⌈n⌉). Kept for the layout in hand.
Seconds PlanEstimator::least_unhidden_communication(const Plan& plan) {
  const Strategy& st = plan.strategy;
  UnhiddenCommunication& kept = m_unhidden;
  if (kept.devices == plan.device_count && kept.tensor == st.tensor_parallel && kept.pipeline == st.pipeline_parallel) {
    return kept.seconds;
  }
  Strategy layout;
  layout.tensor_parallel = st.tensor_parallel;
  layout.pipeline_parallel = st.pipeline_parallel;
  layout.sequence_parallel = st.sequence_parallel;
  const Seconds compute = training_seconds(flops(Recompute::none), plan.device_count, *m_peak, m_mfu);
  kept = {plan.device_count, st.tensor_parallel, st.pipeline_parallel,
          unhidden_communication(*m_workload, layout, plan.device_count, m_device, topology_of(plan), compute)};
  return kept.seconds;
}

Topology PlanEstimator::topology_of(const Plan& plan) const {
  Topology topology = m_topology;
  if (m_offering == nullptr) topology.devices_per_node = plan.device_count;
  return topology;
}

const Workload& EstimateCache::at_micro_batch(const Workload& workload, int micro_batch) {
  if (!m_grown || m_grown->precision != workload.precision) m_grown = workload;
  m_grown->micro_batch = micro_batch;
  return *m_grown;
}

const Workload& PlanEstimator::workload_of(const Plan& plan) {
  if (plan.strategy.micro_batch <= 0 || plan.strategy.micro_batch == m_workload->micro_batch) return *m_workload;
  // A plan may set its own micro-batch (the search tries larger ones where they hide
  // communication); everything then sees it. One copy serves every such plan, and with a
  // cache every offering's.
  if (m_cache != nullptr) return m_cache->at_micro_batch(*m_workload, plan.strategy.micro_batch);
  if (!m_grown) m_grown = *m_workload;
  m_grown->micro_batch = plan.strategy.micro_batch;
  return *m_grown;
}

MemoryBreakdown PlanEstimator::memory(const Workload& w, const Plan& plan) {
  const Strategy& st = plan.strategy;
  const int log2_tensor = std::countr_zero(static_cast<unsigned>(st.tensor_parallel));
  // (Serving memory depends on the tensor degree only; a batch of generated images on the
  // plan's micro-batch too, so it is not cached.)
  if (m_cache != nullptr && w.task == Task::inference && st.pipeline_parallel == 1 && !w.diffusion && !w.speech &&
      std::has_single_bit(static_cast<unsigned>(st.tensor_parallel)) && log2_tensor < 8) {
    return m_cache->serving_memory(w.precision, log2_tensor, [&] { return estimate_memory(w, plan.device_count, st); });
  }
  // The key packs what the activations depend on besides the workload; degrees too large
  // for it are not cached.
  constexpr std::uint64_t k_max = 1u << 16;
  const auto degree = [](int value) { return static_cast<std::uint64_t>(value); };
  if (m_cache == nullptr || !w.is_training() || degree(st.tensor_parallel) >= k_max ||
      degree(st.pipeline_parallel) >= k_max || degree(w.micro_batch) >= k_max) {
    return estimate_memory(w, plan.device_count, st);
  }
  const std::uint64_t key = degree(st.tensor_parallel) | degree(st.pipeline_parallel) << 16 |
                            degree(w.micro_batch) << 32 | static_cast<std::uint64_t>(st.recompute) << 48 |
                            static_cast<std::uint64_t>(st.sequence_parallel) << 50 |
                            static_cast<std::uint64_t>(w.precision) << 51;
  const double activations = m_cache->activations(key, [&] { return training_activation_bytes(w, st).value; });
  return estimate_memory(w, plan.device_count, st, Bytes(activations));
}

// FLOPs, time and communication of a neural network plan (training or inference).
void PlanEstimator::estimate_network_time(const Workload& workload, const Plan& plan, PlanEstimate& estimate) {
  if (!m_peak) {
    const std::string dtype = workload.task == Task::inference
                                  ? std::string("bf16 or fp16")
                                  : std::string(to_string(compute_dtype(workload.precision)));
    const bool fp16 = m_device.peak(DType::fp16).has_value() && workload.precision != Precision::fp16_mixed;
    throw Error(ErrorKind::usage, "device \"" + m_device.id + "\" has no " + dtype + " throughput in the catalogue",
                fp16 ? "it trains with --precision fp16-mixed (with loss scaling), or choose another device"
                     : "choose another --precision or device");
  }
  const double peak = *m_peak;
  estimate.peak_flops_per_s = peak;
  estimate.flops = flops(plan.strategy.recompute);
  if (workload.diffusion && workload.task == Task::inference) {
    estimate_generation(workload, plan, estimate);
  } else if (workload.speech && workload.task == Task::inference) {
    estimate_transcription(workload, plan, estimate);
  } else if (workload.vision && workload.task == Task::inference) {
    // Scoring images: every device a replica on its share of them, at the forward pass's
    // roofline (vision.hpp), bound by the host's decoding as training is.
    estimate.mfu = m_mfu;
    estimate.compute_time = training_seconds(estimate.flops, plan.device_count, peak, estimate.mfu);
    estimate.time = estimate.compute_time;
    add_input_pipeline(workload, plan, estimate);
  } else if (workload.task == Task::inference) {
    const double bandwidth = decode_bandwidth();
    const int replicas = busy_replicas(workload, plan);
    estimate.mfu = serving_mfu(workload, m_device, *compute_dtype(m_device, workload));
    estimate.compute_time =
        inference_seconds(workload, m_device, replicas * plan.strategy.model_parallel(), replicas, peak, estimate.mfu,
                          bandwidth, estimate.memory.weights, estimate.memory.kv_cache);
    estimate.time = estimate.compute_time;
  } else {
    estimate.mfu = m_mfu;
    estimate.compute_time = training_seconds(estimate.flops, plan.device_count, peak, estimate.mfu);
    estimate.communication = training_communication(workload, plan.strategy, plan.device_count, m_device,
                                                    topology_of(plan), estimate.compute_time);
    estimate.time = estimate.compute_time + estimate.communication.exposed();
    if (workload.vision) add_input_pipeline(workload, plan, estimate);
  }
}

// Generating images: every device a replica running its batch (diffusion_batch). A batch job
// shares the images among the devices; a rate of images is served by the replicas it needs
// at the utilisation, in whole units, plus the spare units (docs/methodology.md#diffusion-serving).
void PlanEstimator::estimate_generation(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const {
  const DiffusionWorkload& d = *workload.diffusion;
  DiffusionRun run;
  run.batch = diffusion_batch(m_device, workload);
  // The efficiency at this plan's batch (the step's fixed cost is shared by its images).
  estimate.mfu = workload.mfu_pinned ? m_mfu : diffusion_efficiency(m_device, workload);
  estimate.compute_time = training_seconds(estimate.flops, plan.device_count, *m_peak, estimate.mfu);
  estimate.time = estimate.compute_time;
  if (d.images_per_s > 0) {
    run.fleet = true;
    const double per_replica = run.batch.images_per_s();
    constexpr double k_most_replicas = 1e6;  // a rate no catalogue carries is rejected, not overflowed
    const double needed = per_replica > 0 ? std::ceil(d.images_per_s / (d.utilisation * per_replica)) : k_most_replicas;
    run.replicas_needed = static_cast<int>(std::min(needed, k_most_replicas));
    if (m_offering != nullptr) {
      const int per_unit = std::max(1, m_offering->devices_per_unit);
      const int needed_units = (run.replicas_needed + per_unit - 1) / per_unit;
      estimate.plan.units =
          plan.fixed_units && needed_units <= plan.units ? plan.units : std::max(1, needed_units + d.redundancy);
      estimate.plan.device_count = estimate.plan.units * per_unit;
    }
    run.replicas = estimate.plan.device_count;
    // A fleet's time is what a user waits for an image.
    estimate.time = run.batch.latency();
    estimate.compute_time = run.batch.latency();
  }
  estimate.diffusion = run;
}

// Transcribing audio: every device a replica decoding its batch of windows (speech_batch),
// the windows shared among the devices (docs/methodology.md#speech-time).
void PlanEstimator::estimate_transcription(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const {
  SpeechRun run;
  run.batch = speech_batch(m_device, workload);
  run.windows = workload.tokens;
  estimate.mfu = workload.mfu_pinned ? m_mfu : speech_efficiency(m_device, workload, run.batch);
  estimate.compute_time = training_seconds(estimate.flops, plan.device_count, *m_peak, estimate.mfu);
  estimate.time = estimate.compute_time;
  const double advance = speech_engine_profile(workload.speech->engine).advance;
  run.audio_speed = run.batch.speed(advance) * plan.device_count;
  estimate.speech = run;
}

// A vision run's steps take the longer of the devices' time and the input pipeline's: the
// host's vCPUs decode and augment every image (docs/methodology.md#vision-input-pipeline).
// Each epoch also validates, restarts the loader and checkpoints.
void PlanEstimator::add_input_pipeline(const Workload& workload, const Plan& plan, PlanEstimate& estimate) const {
  VisionRun run;
  const double images = workload.tokens;
  run.device_images_per_s = estimate.time.value > 0 ? images / estimate.time.value : 0;
  run.pipeline = vision_pipeline(workload, m_offering, plan.units, plan.device_count);
  // A CPU plan's cores both decode and train: the two take turns, they do not overlap.
  run.shared_cores = run.pipeline && m_device.kind == DeviceKind::cpu;
  if (run.shared_cores || run.loader_bound()) estimate.time = Seconds(images / run.images_per_s());
  run.epoch_overhead = vision_epoch_overhead(workload);
  estimate.time = estimate.time + run.epoch_overhead;
  estimate.vision = run;
}

// Decode reads every weight each step: without the device's memory bandwidth no decode time
// is known, and compute alone would time it 100× too fast on a CPU. The ranker rejects such
// devices first (no_bandwidth); a plan named on the command line gets this error.
double PlanEstimator::decode_bandwidth() const {
  const std::optional<double> bandwidth = memory_bandwidth_bytes_per_s(m_device, m_offering);
  if (!bandwidth) {
    throw Error(ErrorKind::usage, "device \"" + m_device.id + "\" has no memory bandwidth in the catalogue",
                "decode time is bound by it: choose another device, or give memory_bandwidth_gbs in an overlay "
                "(--catalog)");
  }
  return *bandwidth;
}

bool PlanEstimator::within_capacity(const Workload& workload, const MemoryBreakdown& memory) const {
  return memory.total() <= usable_memory(workload, m_capacity, memory);
}

Bytes offloaded_per_unit(const Plan& plan, const MemoryBreakdown& memory) {
  const int per_unit = plan.offering != nullptr ? plan.offering->devices_per_unit : plan.device_count;
  return memory.host * std::min(plan.device_count, per_unit);
}

std::optional<bool> PlanEstimator::host_holds(const Plan& plan, const MemoryBreakdown& memory) const {
  // Offloaded states, or the rows a GPU worker of gradient-boosted trees was given.
  const bool holds = plan.strategy.offload != Offload::none || plan.strategy.trees_on_gpu;
  if (!holds || m_offering == nullptr || !m_offering->host_memory) return std::nullopt;
  // The host runs the process, its data loader and the pinned buffers too: the same share is
  // kept free as on the devices (docs/methodology.md#offload-in-the-search).
  return offloaded_per_unit(plan, memory) <= *m_offering->host_memory * (1 - m_workload->memory_headroom);
}

bool PlanEstimator::fits(const Plan& plan) {
  const Workload& workload = workload_of(plan);
  return within_capacity(workload, memory(workload, plan));
}

PlanEstimate PlanEstimator::estimate(const Plan& plan) {
  PlanEstimate estimate;
  estimate_into(plan, estimate);
  return estimate;
}

void PlanEstimator::estimate_into(const Plan& plan, PlanEstimate& estimate) {
  estimate_physics(plan, estimate);
  price(estimate);
}

void PlanEstimator::estimate_physics(const Plan& plan, PlanEstimate& estimate, bool time_unfitting) {
  const Workload& workload = workload_of(plan);
  // Every field is set below but these, which only some plans have (assigning a whole new
  // PlanEstimate costs as much as a third of the estimate).
  estimate.host_fits.reset();
  estimate.gbdt.reset();
  estimate.vision.reset();
  estimate.diffusion.reset();
  estimate.speech.reset();
  estimate.communication = Communication{};
  estimate.flops = Flops(0);
  estimate.peak_flops_per_s = 0;
  estimate.mfu = 0;
  estimate.setup = Seconds(0);
  estimate.purchase.reset();
  estimate.price_per_unit_hour.reset();
  estimate.cost.reset();
  estimate.commitment.reset();
  estimate.preemption = Seconds(0);
  estimate.plan = plan;
  estimate.precision = workload.precision;
  estimate.serving.reset();
  if (workload.task == Task::inference && workload.serving) {
    estimate_serving(plan, estimate);
    return;
  }
  estimate.memory = memory(workload, plan);
  estimate.capacity = m_capacity;
  estimate.usable = usable_memory(workload, m_capacity, estimate.memory);
  // A plan must leave the headroom free: what max_memory_allocated reports is not all a
  // process needs (docs/methodology.md#capacity).
  estimate.fits = estimate.memory.total() <= estimate.usable;
  if (plan.strategy.offload != Offload::none && !steps_on_host(workload.optimizer)) {
    throw Error(ErrorKind::usage,
                "DeepSpeed steps offloaded states with its CPU Adam, AdamW, Lion or Adagrad, not " +
                    std::string(to_string(workload.optimizer)),
                "drop --offload, or train with --optimizer adamw")
        .at_flag("--offload");
  }
  if (plan.strategy.offload != Offload::none && m_offering != nullptr) {
    // What is offloaded must fit the host, whose cores step it: an offering that states no
    // host RAM (TPU v2 slices) or no vCPUs cannot be checked or timed, and is refused rather
    // than assumed to hold it.
    if (!m_offering->host_memory) {
      throw Error(ErrorKind::usage,
                  "offering \"" + m_offering->id + "\" states no host RAM: the offloaded states could not be checked",
                  "choose another offering, drop --offload, or give host_memory_gib in an overlay (--catalog)")
          .at_flag("--offload");
    }
    if (!m_offering->vcpus) {
      throw Error(ErrorKind::usage,
                  "offering \"" + m_offering->id + "\" states no vCPUs: the host's optimizer steps could not be timed",
                  "choose another offering, drop --offload, or give vcpus in an overlay (--catalog)")
          .at_flag("--offload");
    }
    estimate.host_fits = host_holds(plan, estimate.memory);
  }
  if (!estimate.fits && !time_unfitting && workload.task != Task::gbdt) {
    // Nearly half of the main job's estimates (issue 49); the search times only the one it
    // shows, if it shows one.
    estimate.compute_time = Seconds(std::numeric_limits<double>::quiet_NaN());
    estimate.time = estimate.compute_time;
    return;
  }
  if (workload.task == Task::gbdt) {
    const std::optional<GbdtThroughput> throughput = gbdt_throughput(workload, m_device, m_offering, plan.device_count);
    if (!throughput) {
      throw Error(ErrorKind::usage,
                  "device \"" + m_device.id + "\" has no " + std::string(to_string(workload.library)) +
                      " throughput for these machines",
                  "XGBoost, LightGBM and scikit-learn run on CPU offerings that state their vCPUs, XGBoost also on "
                  "NVIDIA GPUs; several machines need a stated network (docs/methodology.md#gbdt-run-time)");
    }
    estimate.host_fits = host_holds(plan, estimate.memory);
    estimate.gbdt = gbdt_run(workload, *throughput);
    if (plan.strategy.trees_external_memory()) add_extmem_transfer(workload, plan.strategy, estimate);
    estimate.compute_time = estimate.gbdt->compute();
    estimate.time = estimate.gbdt->seconds();  // and the machines' histogram all-reduces
  } else {
    estimate_network_time(workload, plan, estimate);
  }
  add_setup(estimate);
}

void PlanEstimator::add_extmem_transfer(const Workload& workload, const Strategy& strategy,
                                        PlanEstimate& estimate) const {
  const std::optional<double> link = extmem_link_bytes_per_s(m_device, m_offering);
  if (!link) {
    throw Error(ErrorKind::usage, "device \"" + m_device.id + "\" states no host link in the catalogue",
                "external memory streams the cache over it: give a PCIe or NVLink-C2C interconnect in an overlay "
                "(--catalog)");
  }
  GbdtRun& run = *estimate.gbdt;
  run.extmem = extmem_cache(gbdt_memory(workload, true, 1).quantised, strategy.trees_extmem_gpu_bytes,
                            strategy.trees_extmem_c2c);
  run.link_bytes_per_s = *link;
  run.transfer =
      Seconds(workload.rounds * gbdt_extmem_passes_per_tree(workload.max_depth) * run.extmem->on_host / *link);
}

void PlanEstimator::add_setup(PlanEstimate& estimate) const {
  // Every run also provisions, loads and checkpoints: minutes that matter for short runs. A
  // fleet's time is a request's latency: it is provisioned once.
  if (estimate.time.value > 0 && !m_workload->serves_a_fleet()) {
    estimate.setup = m_workload->setup_time;
    estimate.time = Seconds(estimate.time.value + estimate.setup.value);
  }
}

void PlanEstimator::price(PlanEstimate& estimate) const {
  if (m_offering == nullptr) return;
  const int units = estimate.plan.units;  // a serving fleet's as sized
  ServingEstimate* serving = estimate.serving ? &*estimate.serving : nullptr;
  // A fleet serving a load, or sized without one, is priced by the hour; a run (training,
  // an offline job) by its time.
  DiffusionRun* images = estimate.diffusion && estimate.diffusion->fleet ? &*estimate.diffusion : nullptr;
  const bool fleet = (serving != nullptr && !serving->offline) || images != nullptr;
  if (!fleet && m_cost.pricing == Pricing::spot && m_offering->kind == OfferingKind::cloud && estimate.time.value > 0) {
    // Interruptions over all the plan's instances stretch the run (preemption_share); at a
    // share of 1 or more it never finishes, and its time is infinite.
    const double per_instance =
        m_offering->terms->spot_interruptions.per_instance_hour.value_or(k_default_spot_interruptions_per_hour);
    const double per_hour = per_instance * units * machines_per_unit(*m_offering);
    const double share = preemption_share(per_hour, Seconds(k_checkpoint_write_seconds), m_workload->setup_time);
    const double stretched = share < 1 ? estimate.time.value / (1 - share) : std::numeric_limits<double>::infinity();
    estimate.preemption = Seconds(stretched - estimate.time.value);
    estimate.time = Seconds(stretched);
  }
  estimate.purchase = purchase_cash(*m_offering, units, m_cost);
  estimate.price_per_unit_hour = m_price;
  if (!m_price) return;
  if (!fleet) {
    estimate.cost = run_cost(*m_price, units, estimate.time, m_offering->terms->billing);
    estimate.commitment = commitment_cost(*m_offering, *m_price, units, m_cost.pricing);
    if (serving != nullptr) {
      const double tokens = m_workload->tokens;
      serving->per_hour = Usd(m_price->value * units);
      serving->per_million_output_tokens = Usd(tokens > 0 ? estimate.cost->value / tokens * 1e6 : 0);
    }
    return;
  }
  if (images != nullptr) {
    // A fleet of image generators: by the hour, and per 1,000 images at the rate it serves.
    estimate.cost = Usd(m_price->value * units);
    images->per_1000_images =
        Usd(estimate.cost->value / (m_workload->diffusion->images_per_s * k_seconds_per_hour) * 1000);
    return;
  }
  serving->per_hour = Usd(m_price->value * units);
  const ServingLoad& load = *m_workload->serving;
  if (load.sizing) {
    // Every replica of the units at its largest batch.
    const double tokens_per_hour = serving->fleet_output_tokens_per_s * k_seconds_per_hour;
    serving->per_million_output_tokens = Usd(tokens_per_hour > 0 ? serving->per_hour.value / tokens_per_hour * 1e6 : 0);
  } else {
    const double tokens_per_hour = load.requests_per_s * load.output_tokens * k_seconds_per_hour;
    serving->per_million_output_tokens = Usd(serving->per_hour.value / tokens_per_hour * 1e6);
  }
  estimate.cost = serving->per_hour;
}

// A fleet of replicas for the load (docs/methodology.md#serving): the batch each runs, the
// replicas the load needs at its utilisation, whole units of the offering for them.
void PlanEstimator::estimate_serving(const Plan& plan, PlanEstimate& estimate) {
  const Workload& workload = *m_workload;
  const ServingLoad& load = *workload.serving;
  decode_bandwidth();
  const std::optional<Replica> replica =
      replica_of(workload, m_device, m_offering, plan.strategy.tensor_parallel, plan.strategy.expert_parallel);
  if (!replica) {
    throw Error(ErrorKind::usage, "device \"" + m_device.id + "\" has no bf16 or fp16 throughput in the catalogue",
                "serving needs it: choose another device");
  }
  const int replica_devices = replica->devices();
  const ChosenBatch chosen = choose_batch(workload, load, *replica);
  ServingEstimate serving;
  serving.replica = chosen.replica;
  serving.limit = chosen.limit;
  serving.miss = chosen.miss;
  serving.single_stream_tpot = decode_step(workload, *replica, 1, load.prompt_tokens + load.output_tokens / 2).step;
  estimate.memory = chosen.replica.memory;
  estimate.capacity = m_capacity;
  estimate.usable = usable_memory(workload, m_capacity, estimate.memory);
  estimate.fits = chosen.replica.batch_capacity >= 1;
  estimate.peak_flops_per_s = replica->peak_flops_per_s;

  if (load.offline()) {
    estimate_offline(plan, chosen, serving, estimate);
    return;
  }
  if (load.sizing) {
    estimate_sizing(chosen, *replica, serving, estimate);
    return;
  }
  const double per_replica = chosen.replica.requests_per_s;
  // Counted in double and capped: a load no catalogue could carry must not overflow the
  // count (it is rejected as `load` all the same).
  constexpr double k_most_replicas = 1e6;
  const double needed = per_replica > 0 ? std::ceil(load.requests_per_s / (load.utilisation * per_replica)) : 0;
  serving.replicas_needed = static_cast<int>(std::min(needed, k_most_replicas));
  const int per_unit = m_offering != nullptr ? std::max(1, m_offering->devices_per_unit / replica_devices) : 1;
  const auto size_fleet = [&] {
    if (m_offering == nullptr || !estimate.fits) return;
    // Replicas fill whole units, and the spares are whole units more: a machine is what
    // fails (a GPU, its host, a maintenance event), taking every replica on it, so N+1 is
    // one unit beyond those the load needs. The devices of the last unit serve as well.
    const int needed_units = (serving.replicas_needed + per_unit - 1) / per_unit;
    // Units the user fixed stay, spare or not, while the load fits in them; a load that does
    // not is sized as it needs, which the ranker rejects as `load` against them.
    estimate.plan.units =
        plan.fixed_units && needed_units <= plan.units ? plan.units : std::max(1, needed_units + load.redundancy);
    estimate.plan.device_count = estimate.plan.units * m_offering->devices_per_unit;
  };
  const auto at_load = [&] {
    serving.replicas = estimate.plan.device_count / replica_devices;
    serving.spare_replicas = std::max(0, serving.replicas - serving.replicas_needed);
    const bool serves = serving.replicas > 0 && estimate.fits && !serving.miss;
    serving.at_load = serves ? estimate_at_load(workload, load, *replica, chosen.replica.batch,
                                                load.requests_per_s / serving.replicas)
                             : chosen.replica;
    serving.tail = serves
                       ? tail_latency(workload, load, *replica, chosen.replica.batch, serving.at_load, serving.replicas)
                       : untailed(load, serving.at_load);
  };
  size_fleet();
  at_load();
  // The targets hold at the load's percentile: where prompts queue past --ttft, more
  // replicas shorten the queue (a few steps of one more unit each; a fleet the user fixed
  // stays as it is).
  const auto misses_tail = [&] {
    return (load.ttft && serving.tail.ttft > *load.ttft) || (load.tpot && serving.tail.tpot > *load.tpot);
  };
  // A fleet that cannot carry the load is one the ranker rejects as `load` (too many units)
  // and estimate calls infeasible: its tail is not a latency miss.
  const auto carries = [&] { return per_replica > 0 && load.requests_per_s <= serving.replicas * per_replica; };
  constexpr int k_most_added_units = 64;
  for (int added = 0; misses_tail() && carries() && !plan.fixed_units && m_offering != nullptr && estimate.fits &&
                      !serving.miss && added < k_most_added_units;
       ++added) {
    serving.replicas_needed += per_unit;
    size_fleet();
    at_load();
  }
  if (!serving.miss && carries() && misses_tail()) {
    serving.miss = load.tpot && serving.tail.tpot > *load.tpot ? ServingMiss::tpot : ServingMiss::ttft;
  }
  serving.fleet_output_tokens_per_s = serving.replicas * chosen.replica.output_tokens_per_s;
  serving.utilisation = per_replica > 0 ? load.requests_per_s / (serving.replicas * per_replica) : 0;
  // The ranking's time: what a user of the loaded fleet waits per token, at the percentile.
  estimate.compute_time = serving.tail.tpot;
  estimate.time = serving.tail.tpot;
  estimate.serving = serving;
}

// An offline job (docs/methodology.md#serving): every replica of the plan's units at its
// largest batch until --tokens output tokens are out; costed as a run (price).
void PlanEstimator::estimate_offline(const Plan& plan, const ChosenBatch& chosen, ServingEstimate& serving,
                                     PlanEstimate& estimate) {
  const Workload& workload = *m_workload;
  serving.offline = true;
  serving.replicas = plan.device_count / (plan.strategy.tensor_parallel * plan.strategy.expert_parallel);
  serving.replicas_needed = serving.replicas;
  serving.at_load = chosen.replica;
  serving.tail = untailed(*workload.serving, serving.at_load);
  serving.fleet_output_tokens_per_s = serving.replicas * chosen.replica.output_tokens_per_s;
  serving.utilisation = 1;
  estimate.compute_time = Seconds(
      estimate.fits && serving.fleet_output_tokens_per_s > 0 ? workload.tokens / serving.fleet_output_tokens_per_s : 0);
  estimate.time = estimate.compute_time;
  add_setup(estimate);
  estimate.serving = serving;
}

// Sizing without a load (docs/methodology.md#sizing): the fewest whole units that hold one
// replica able to keep k_sizing_sequences sequences; its speed at batch 1 (what one user
// sees) and at its largest batch (what the units can give); priced per hour, and per million
// output tokens with every replica of the units at its largest batch (price).
void PlanEstimator::estimate_sizing(const ChosenBatch& chosen, const Replica& replica, ServingEstimate& serving,
                                    PlanEstimate& estimate) {
  const Workload& workload = *m_workload;
  const int tensor = replica.devices();
  estimate.fits = chosen.replica.batch_capacity >= k_sizing_sequences;
  if (m_offering != nullptr) {
    const int per_unit = m_offering->devices_per_unit;
    estimate.plan.units = std::max(1, (tensor + per_unit - 1) / per_unit);
    estimate.plan.device_count = estimate.plan.units * per_unit;
  }
  serving.replicas = estimate.plan.device_count / tensor;
  serving.replicas_needed = 1;
  serving.spare_replicas = 0;
  serving.at_load = estimate.fits ? estimate_replica(workload, *workload.serving, replica, 1) : chosen.replica;
  // One user alone: the single stream's decode step, no other prompt in it.
  serving.tail = untailed(*workload.serving, serving.at_load);
  if (estimate.fits) serving.tail.tpot = serving.single_stream_tpot;
  serving.fleet_output_tokens_per_s = serving.replicas * chosen.replica.output_tokens_per_s;
  serving.utilisation = 0;
  // The ranking's time: one user's wait per token.
  estimate.compute_time = serving.tail.tpot;
  estimate.time = serving.tail.tpot;
  estimate.serving = serving;
}

PlanEstimate estimate_plan(const Workload& workload, const Plan& plan, const CostSettings& cost_settings) {
  return PlanEstimator(workload, *plan.device, plan.offering, cost_settings).estimate(plan);
}

}  // namespace mlsize
