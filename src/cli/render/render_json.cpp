#include "cli/render/format.hpp"
#include "cli/render/json_object.hpp"
#include "cli/render/json_text.hpp"
#include "cli/render/json_whole.hpp"
#include "cli/render/price_note.hpp"
#include "cli/render/ranking_notes.hpp"
#include "cli/render/renderers.hpp"

#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/kernels.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/launch/launch.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/units.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order: deterministic, readable

Json model_json(const Architecture& m) {
  Json json;
  json["name"] = m.name;
  json["family"] = m.family;
  json["source"] = m.source;
  json["layers"] = m.layers;
  json["encoder_layers"] = m.encoder_layers;
  json["hidden"] = m.hidden;
  json["heads"] = m.heads;
  json["kv_heads"] = m.kv_heads;
  json["head_dim"] = m.head_dim;
  json["intermediate"] = m.intermediate;
  json["vocab"] = m.vocab;
  json["mlp"] = m.mlp == MlpKind::gated ? "gated" : "standard";
  json["tied_embeddings"] = m.tied_embeddings;
  json["sliding_window"] = m.sliding_window ? Json(*m.sliding_window) : Json(nullptr);
  json["max_positions"] = m.max_positions > 0 ? Json(m.max_positions) : Json(nullptr);
  json["experts"] = m.moe.experts;
  json["experts_per_token"] = m.moe.experts_per_token;
  json["mla_kv_lora_rank"] = m.mla ? Json(m.mla->kv_lora_rank) : Json(nullptr);
  return json;
}

Json workload_json(const Workload& workload) {
  Json json;
  json["params"] = json_whole(workload.parameters.total);
  json["active_params"] = json_whole(workload.parameters.active);
  json["tokens"] = json_whole(workload.tokens);
  json["dataset_bytes"] = workload.dataset_bytes ? json_whole(workload.dataset_bytes->value) : Json(nullptr);
  json["epochs"] = workload.epochs;
  json["bytes_per_token"] = workload.bytes_per_token;
  json["task"] = to_string(workload.task);
  if (workload.is_training()) {
    json["precision"] = to_string(workload.precision);
    json["optimizer"] = to_string(workload.optimizer);
    json["sequence_length"] = workload.sequence_length;
    json["micro_batch"] = workload.micro_batch;
    json["attention"] = to_string(workload.attention);
    json["framework"] = to_string(workload.framework);
    json["global_batch_tokens"] = global_batch_tokens(workload, 1);
  }
  if (workload.is_adapter_tuning()) {
    json["lora_rank"] = workload.lora_rank;
    json["lora_trainable_params"] = json_whole(adapter_parameters(workload));
  }
  if (workload.task == Task::inference) {
    json["weight_format"] = to_string(workload.weight_format);
    json["weight_bits"] = bits_per_weight(workload.weight_format);
    json["kv_cache_dtype"] = to_string(workload.kv_format);
    json["context"] = workload.context;
    json["batch"] = workload.batch;
    json["bandwidth_efficiency"] = workload.bandwidth_efficiency;
    json["engine"] = to_string(workload.engine);
    json["step_overhead_seconds"] = step_overhead(workload).value;
    if (workload.serving) {
      const ServingLoad& load = *workload.serving;
      json["serving"] = json_object({{"requests_per_s", load.requests_per_s},
                                     {"saturated", load.saturated},
                                     {"prompt_tokens", load.prompt_tokens},
                                     {"output_tokens", load.output_tokens},
                                     {"ttft_seconds", load.ttft ? Json(load.ttft->value) : Json(nullptr)},
                                     {"tpot_seconds", load.tpot ? Json(load.tpot->value) : Json(nullptr)},
                                     {"max_batch", load.max_batch},
                                     {"max_step_tokens", load.max_step_tokens},
                                     {"utilisation", load.utilisation},
                                     {"percentile", load.percentile},
                                     {"batching", to_string(load.batching)}});
    }
  }
  if (workload.task == Task::gbdt) {
    json["gbdt"] = json_object({{"rows", gbdt_rows(workload)},
                                {"features", workload.features},
                                {"rounds", workload.rounds},
                                {"max_depth", workload.max_depth},
                                {"bins", workload.bins},
                                {"library", to_string(workload.library)}});
  }
  if (workload.vision) {
    const VisionWorkload& v = *workload.vision;
    json["vision"] = json_object({{"model", v.model.id},
                                  {"family", to_string(v.model.family)},
                                  {"images", v.images},
                                  {"height", v.height},
                                  {"width", v.width},
                                  {"forward_macs", vision_forward_macs(v.model, v.height, v.width)},
                                  {"bytes_per_image", v.bytes_per_image},
                                  {"data_loader", to_string(v.loader)}});
  }
  if (workload.diffusion) {
    const DiffusionWorkload& d = *workload.diffusion;
    const DiffusionModel& m = d.model;
    json["diffusion"] = json_object({{"model", m.id},
                                     {"family", to_string(m.family)},
                                     {"images", d.images},
                                     {"images_per_s", d.images_per_s > 0 ? Json(d.images_per_s) : Json(nullptr)},
                                     {"height", d.height},
                                     {"width", d.width},
                                     {"steps", workload.task == Task::inference ? Json(d.steps) : Json(nullptr)},
                                     {"passes_per_step", d.passes_per_step()},
                                     {"latents_cached", d.cached},
                                     {"denoiser_params", m.denoiser_params},
                                     {"text_encoder_params", m.text_encoder_params},
                                     {"vae_params", m.vae_params},
                                     {"denoiser_forward_macs", denoiser_forward_macs(m, d.height, d.width)},
                                     {"vae_decoder_macs", vae_decoder_macs(m, d.height, d.width)}});
  }
  if (workload.speech) {
    const SpeechWorkload& s = *workload.speech;
    const SpeechModel& m = s.model;
    const bool transcription = workload.task == Task::inference;
    json["speech"] = json_object({{"model", m.id},
                                  {"audio_hours", s.audio_hours},
                                  {"windows", workload.tokens},
                                  {"engine", transcription ? Json(to_string(s.engine)) : Json(nullptr)},
                                  {"beams", transcription ? Json(s.beams) : Json(nullptr)},
                                  {"clip_seconds", transcription ? Json(nullptr) : Json(s.clip_seconds)},
                                  {"transcript_tokens_per_window", s.transcript_tokens(k_speech_window_seconds)},
                                  {"encoder_params", speech_encoder_parameters(m)},
                                  {"decoder_params", speech_decoder_parameters(m)},
                                  {"encoder_macs_per_window", speech_encoder_macs(m)}});
  }
  json["mfu"] = workload.mfu;
  json["mfu_pinned"] = workload.mfu_pinned;
  json["setup_seconds"] = workload.setup_time.value;
  json["overhead_bytes"] = json_whole(workload.overhead.value);
  json["allocator_margin"] = workload.allocator_margin;
  json["memory_headroom"] = workload.memory_headroom;
  json["budget_usd"] = workload.budget ? Json(workload.budget->value) : Json(nullptr);
  json["deadline_seconds"] = workload.deadline ? Json(workload.deadline->value) : Json(nullptr);
  json["model"] = model_json(workload.model);
  return json;
}

// A serving plan's replicas and fleet (docs/cli.md#serving-fields).
Json serving_json(const ServingEstimate& s, const Strategy& strategy) {
  const ReplicaEstimate& r = s.replica;
  const TailLatency& tail = s.tail;
  const auto finite = [](Seconds t) { return std::isfinite(t.value) ? Json(t.value) : Json(nullptr); };
  return json_object({{"replicas", s.replicas},
                      {"replicas_needed", s.replicas_needed},
                      {"spare_replicas", s.spare_replicas},
                      {"tensor_parallel", strategy.tensor_parallel},
                      {"expert_parallel", strategy.expert_parallel},
                      {"attention_data_parallel", strategy.expert_parallel > 1},
                      {"batch", r.batch},
                      {"batch_limit", to_string(s.limit)},
                      {"batch_capacity", r.batch_capacity},
                      {"full_context_capacity", r.full_context_capacity},
                      {"batch_at_load", s.at_load.batch},
                      {"ttft_seconds", s.at_load.ttft.value},
                      {"tpot_seconds", s.at_load.decode_step.value},
                      {"percentile", tail.percentile},
                      {"ttft_seconds_at_percentile", finite(tail.ttft)},
                      {"tpot_seconds_at_percentile", tail.tpot.value},
                      {"queueing_seconds_at_percentile", finite(tail.queueing)},
                      {"prefill_utilisation", tail.prefill_utilisation},
                      {"tpot_seconds_single_stream", s.single_stream_tpot.value},
                      {"output_tokens_per_s_per_sequence", s.tail.tpot.value > 0 ? 1 / s.tail.tpot.value : 0.0},
                      {"ttft_seconds_at_batch", r.ttft.value},
                      {"tpot_seconds_at_batch", r.decode_step.value},
                      {"prefill_seconds", r.prefill.value},
                      {"all_reduce_seconds_per_step", r.all_reduce.value},
                      {"linear_layers_seconds_per_step", r.linear_layers.value},
                      {"attention_seconds_per_step", r.attention.value},
                      {"step_overhead_seconds", r.step_overhead.value},
                      {"decode_memory_bound", r.memory_bound},
                      {"output_tokens_per_s_per_replica", r.output_tokens_per_s},
                      {"requests_per_s_per_replica", r.requests_per_s},
                      {"fleet_output_tokens_per_s", s.fleet_output_tokens_per_s},
                      {"utilisation", s.utilisation},
                      {"usd_per_hour", s.per_hour.value > 0 ? Json(s.per_hour.value) : Json(nullptr)},
                      {"usd_per_million_output_tokens",
                       s.per_hour.value > 0 ? Json(s.per_million_output_tokens.value) : Json(nullptr)}});
}

// Where a cloud plan's hourly price comes from (PriceBasis); null for hardware to buy or
// a device without an offering.
Json price_basis_json(const PlanEstimate& e, const CostSettings& cost) {
  const Offering* offering = e.plan.offering;
  if (offering == nullptr || offering->kind == OfferingKind::on_prem) return nullptr;
  const std::optional<UnitPrice> unit = unit_price(*offering, offering->price, cost.pricing);
  return unit ? Json(to_string(unit->basis)) : Json(nullptr);
}

// How a plan lays out its devices.
Json strategy_json(const Plan& plan) {
  const Strategy& st = plan.strategy;
  Json json = json_object({{"data_parallel", st.data_parallel(plan.device_count)},
                           {"tensor_parallel", st.tensor_parallel},
                           {"pipeline_parallel", st.pipeline_parallel},
                           {"sequence_parallel", st.sequence_parallel},
                           {"expert_parallel", st.expert_parallel},
                           {"zero_stage", st.zero_stage},
                           {"recompute", to_string(st.recompute)},
                           {"offload", to_string(st.offload)},
                           {"micro_batch", st.micro_batch > 0 ? Json(st.micro_batch) : Json(nullptr)}});
  // HSDP only: the ranks sharding the states; the others are their replicas.
  if (st.hybrid_sharded(plan.device_count)) json["shard_group"] = st.shard_group;
  return json;
}

Json plan_json(const PlanEstimate& e, bool timed) {
  const Plan& plan = e.plan;
  Json json;
  if (plan.offering != nullptr) {
    const Offering& offering = *plan.offering;
    json["offering"] = json_object(
        {{"id", offering.id},
         {"provider", offering.provider},
         {"name", offering.name},
         {"kind", to_string(offering.kind)},
         {"units", plan.units},
         {"devices_per_unit", offering.devices_per_unit},
         {"host_memory_bytes", offering.host_memory ? json_whole(offering.host_memory->value) : Json(nullptr)},
         {"network_gbps", offering.network_gbps ? Json(*offering.network_gbps) : Json(nullptr)},
         {"region", offering.price.region.empty() ? Json(nullptr) : Json(offering.price.region)},
         {"as_of", offering.as_of}});
  } else {
    json["offering"] = nullptr;
  }
  const bool has_device = plan.device != nullptr;
  if (has_device) {
    const std::optional<int> capability = compute_capability(*plan.device);
    json["device"] =
        json_object({{"id", plan.device->id},
                     {"name", plan.device->name},
                     {"kind", to_string(plan.device->kind)},
                     {"host_arch", to_string(plan.device->host_arch)},
                     {"runtime", to_string(stack_of(*plan.device))},
                     {"compute_capability", capability ? Json(compute_capability_text(*capability)) : Json(nullptr)}});
  } else {
    json["device"] = nullptr;
  }
  json["device_count"] = plan.device_count;
  const Strategy& st = plan.strategy;
  json["strategy"] = strategy_json(plan);
  json["precision"] = to_string(e.precision);
  const MemoryBreakdown& m = e.memory;
  Json memory = json_object({{"per_device", json_object({{"weights_bytes", json_whole(m.weights.value)},
                                                         {"gradients_bytes", json_whole(m.gradients.value)},
                                                         {"optimizer_bytes", json_whole(m.optimizer.value)},
                                                         {"activations_bytes", json_whole(m.activations.value)},
                                                         {"kv_cache_bytes", json_whole(m.kv_cache.value)},
                                                         {"overhead_bytes", json_whole(m.overhead.value)},
                                                         {"total_bytes", json_whole(m.total().value)}})},
                             {"capacity_bytes", has_device ? json_whole(e.capacity.value) : Json(nullptr)},
                             {"usable_bytes", has_device ? json_whole(e.usable.value) : Json(nullptr)},
                             {"fits", has_device ? Json(e.fits) : Json(nullptr)}});
  if (st.offload != Offload::none || st.trees_on_gpu) {
    memory["host_bytes"] = json_whole(m.host.value);
    memory["host_fits"] = e.host_fits ? Json(*e.host_fits) : Json(nullptr);
  }
  json["memory"] = std::move(memory);
  const std::optional<double> bandwidth =
      has_device ? memory_bandwidth_bytes_per_s(*plan.device, plan.offering) : std::nullopt;
  json["compute"] =
      json_object({{"total_flops", e.flops.value},
                   {"peak_flops_per_s_per_device", has_device ? Json(e.peak_flops_per_s) : Json(nullptr)},
                   {"memory_bandwidth_bytes_per_s_per_device", bandwidth ? Json(*bandwidth) : Json(nullptr)},
                   {"mfu", e.mfu > 0 ? Json(e.mfu) : Json(nullptr)}});
  if (e.vision) {
    const VisionRun& run = *e.vision;
    json["compute"]["vision"] =
        json_object({{"images_per_s", run.images_per_s()},
                     {"device_images_per_s", run.device_images_per_s},
                     {"loader_vcpus", run.pipeline ? Json(run.pipeline->vcpus) : Json(nullptr)},
                     {"loader_images_per_s", run.pipeline ? Json(run.pipeline->images_per_s) : Json(nullptr)},
                     {"loader_bound", run.loader_bound()},
                     {"epoch_overhead_seconds", run.epoch_overhead.value}});
  }
  if (e.diffusion) {
    const DiffusionRun& run = *e.diffusion;
    json["compute"]["diffusion"] =
        json_object({{"batch", run.batch.batch},
                     {"latency_seconds", run.batch.latency().value},
                     {"text_encoder_seconds", run.batch.text.value},
                     {"denoise_seconds", run.batch.denoise.value},
                     {"decode_seconds", run.batch.decode.value},
                     {"images_per_s_per_device", run.batch.images_per_s()},
                     {"replicas", run.fleet ? Json(run.replicas) : Json(nullptr)},
                     {"replicas_needed", run.fleet ? Json(run.replicas_needed) : Json(nullptr)},
                     {"usd_per_1000_images", run.per_1000_images ? Json(run.per_1000_images->value) : Json(nullptr)}});
  }
  if (e.speech) {
    const SpeechRun& run = *e.speech;
    json["compute"]["speech"] = json_object({{"batch", run.batch.batch},
                                             {"beams", run.batch.beams},
                                             {"latency_seconds", run.batch.latency().value},
                                             {"features_seconds", run.batch.host.value},
                                             {"encoder_seconds", run.batch.encoder.value},
                                             {"decode_steps", run.batch.steps},
                                             {"decode_step_seconds", run.batch.step.value},
                                             {"audio_seconds_per_second", run.audio_speed}});
  }
  if (e.gbdt) {
    json["compute"]["gbdt"] = json_object({{"cell_visits", e.gbdt->cell_visits},
                                           {"workers", e.gbdt->throughput.workers},
                                           {"visits_per_s_per_worker", e.gbdt->throughput.visits_per_s_per_worker},
                                           {"speedup", e.gbdt->speedup},
                                           {"machines", e.gbdt->throughput.machines},
                                           {"communication_seconds", e.gbdt->communication.value}});
    const std::optional<ExtMemCache>& extmem = e.gbdt->extmem;
    json["compute"]["gbdt"]["external_memory"] =
        extmem ? json_object({{"host_cache_bytes", json_whole(extmem->on_host)},
                              {"device_cache_bytes", json_whole(extmem->on_device)},
                              {"pages_in_flight_bytes", json_whole(extmem->pages)},
                              {"link_bytes_per_s", e.gbdt->link_bytes_per_s},
                              {"transfer_seconds", e.gbdt->transfer.value}})
               : Json(nullptr);
  }
  json["time"] = has_device && timed
                     ? json_object({{"seconds", e.time.value},
                                    {"days", e.time.value / k_seconds_per_day},
                                    {"setup_seconds", e.setup.value}})
                     : json_object({{"seconds", nullptr}, {"days", nullptr}, {"setup_seconds", nullptr}});
  const Communication& c = e.communication;
  if (has_device && timed && (c.bandwidth_bytes_per_s > 0 || c.exposed().value > 0)) {
    json["time"]["compute_seconds"] = e.compute_time.value;
    json["time"]["communication"] = json_object({{"exposed_seconds", c.exposed().value},
                                                 {"data_parallel_seconds", c.data_parallel.value},
                                                 {"tensor_parallel_seconds", c.tensor_parallel.value},
                                                 {"pipeline_seconds", c.pipeline.value},
                                                 {"offload_seconds", c.offload.value},
                                                 {"steps", c.steps},
                                                 {"micro_steps_per_step", c.micro_steps_per_step},
                                                 {"bytes_per_device_per_step", c.bytes_per_step},
                                                 {"tensor_parallel_bytes_per_device_per_step", c.tensor_bytes_per_step},
                                                 {"bandwidth_bytes_per_s", c.bandwidth_bytes_per_s},
                                                 {"network_assumed", c.network_assumed}});
  }
  json["cost"] =
      json_object({{"usd", e.cost && timed ? Json(e.cost->value) : Json(nullptr)},
                   {"usd_per_unit_hour", e.price_per_unit_hour ? Json(e.price_per_unit_hour->value) : Json(nullptr)},
                   {"commitment_usd", e.commitment ? Json(e.commitment->value) : Json(nullptr)}});
  if (e.preemption.value > 0 && std::isfinite(e.preemption.value) && json["time"]["seconds"].is_number()) {
    json["time"]["preemption_seconds"] = e.preemption.value;
  }
  if (e.serving) {
    // A service is not a run: its figures are per hour and per token (`serving`). An
    // offline job is a run.
    if (!e.serving->offline) {
      json["time"] = json_object({{"seconds", nullptr}, {"days", nullptr}, {"setup_seconds", nullptr}});
      json["cost"]["usd"] = nullptr;
    }
    json["serving"] = serving_json(*e.serving, st);
  }
  return json;
}

// The --emit kinds that run a plan (launch.hpp's unsupported()), in the names table's order.
Json launchers_json(const Workload& workload, const PlanEstimate& e, const CostSettings& cost) {
  const LaunchSpec spec = launch_spec(workload, e, cost);
  Json kinds = Json::array();
  for (const EnumName<LaunchKind>& kind : enum_names(LaunchKind{})) {
    if (!unsupported(kind.value, spec)) kinds.push_back(kind.name);
  }
  return kinds;
}

// Another plan of a recommendation's offering (RankedPlan::smallest, ::fastest), in brief.
Json other_plan_json(const PlanEstimate* e) {
  if (!e) return nullptr;
  return json_object({{"device_count", e->plan.device_count},
                      {"units", e->plan.units},
                      {"strategy", strategy_json(e->plan)},
                      {"seconds", e->time.value},
                      {"days", e->time.value / k_seconds_per_day},
                      {"cost_usd", e->cost ? Json(e->cost->value) : Json(nullptr)},
                      {"commitment_usd", e->commitment ? Json(e->commitment->value) : Json(nullptr)}});
}

// A recommendation: its plan, and what the rules did to it when any fired.
Json ranked_plan_json(const RankedPlan& e) {
  Json json = plan_json(e, true);
  const Offering* offering = e.plan.offering;
  if (e.beyond_on_demand && offering != nullptr) {
    // The reservations named that hold the plan (ranking_notes.hpp); null when none is named.
    const std::optional<std::vector<std::string>> covering =
        reservations_covering(e, e.serving.has_value() && !e.serving->offline);
    json["beyond_on_demand"] = json_object({{"limit_devices", *e.beyond_on_demand},
                                            {"takes", offering->terms->on_demand_limit.beyond},
                                            {"reservations", covering ? Json(*covering) : Json(nullptr)}});
  } else {
    json["beyond_on_demand"] = nullptr;
  }
  json["tie_with_next"] = e.tie_with_next;
  Json variants = Json::array();
  for (const Offering* variant : e.variants) variants.push_back(variant->id);
  json["variants"] = std::move(variants);
  // Training and batch runs; serving has no `smallest`/`fastest` (null).
  json["smallest_plan"] = other_plan_json(e.smallest.get());
  json["fastest_plan"] = other_plan_json(e.fastest.get());
  if (e.rule_score != 1.0 || !e.rule_notes.empty()) {
    Json notes = Json::array();
    for (const RuleMessage& note : e.rule_notes) {
      notes.push_back(
          json_object({{"rule", note.rule->id}, {"action", to_string(note.rule->action)}, {"message", note.message}}));
    }
    json["rules"] = json_object({{"score", e.rule_score}, {"fired", std::move(notes)}});
  }
  return json;
}

// Hardware to buy: its plan, then the cash it needs, this run's share of it and the
// break-even against the cheapest rental (docs/cli.md#recommend).
Json purchase_json(const PurchasePlan& p, std::size_t rank, const Report& report) {
  Json json;
  json["rank"] = rank;
  json_merge(json, ranked_plan_json(p));
  json["purchase_usd"] = p.purchase->value;
  json["amortised_usd"] = p.amortised.value;
  json["utilisation"] = p.utilisation;
  json["electricity_usd"] = p.electricity ? Json(p.electricity->value) : Json(nullptr);
  if (p.compared_with) {
    const RankedPlan& rental = report.recommendations[*p.compared_with];
    json["compared_with"] = json_object(
        {{"rank", *p.compared_with + 1}, {"offering_id", rental.plan.offering->id}, {"cost_usd", rental.cost->value}});
  } else {
    json["compared_with"] = nullptr;
  }
  const bool after = p.break_even && !p.break_even->never;
  json["break_even_runs"] = after ? Json(p.break_even->runs) : Json(nullptr);
  json["break_even_days"] = after ? Json(p.break_even->busy.value / k_seconds_per_day) : Json(nullptr);
  json["break_even_never"] = p.break_even ? Json(p.break_even->never) : Json(nullptr);
  json["pays_off"] = p.break_even ? Json(p.pays_off) : Json(nullptr);
  return json;
}

// The figure that failed and the limit it failed against, for scripts.
Json failed_figure(const Rejection& rejection, const Workload& workload) {
  const PlanEstimate& nearest = *rejection.nearest;
  switch (rejection.reason) {
    case RejectionReason::memory:
      return json_object({{"quantity", "memory_per_device_bytes"},
                          {"value", json_whole(nearest.memory.total().value)},
                          {"limit", json_whole(nearest.capacity.value)}});
    case RejectionReason::offload_host:
    case RejectionReason::host_memory:  // with a plan: --task gbdt, the rows its GPU workers load
      return json_object({{"quantity", "host_memory_per_unit_bytes"},
                          {"value", json_whole(offloaded_per_unit(nearest.plan, nearest.memory).value)},
                          {"limit", json_whole(rejection.offering->host_memory->value)}});
    case RejectionReason::session_limit:
      return json_object({{"quantity", "seconds"},
                          {"value", nearest.time.value},
                          {"limit", *rejection.offering->limits.session_hours * k_seconds_per_hour}});
    case RejectionReason::run_time:
      return json_object(
          {{"quantity", "seconds"}, {"value", nearest.time.value}, {"limit", rejection.run_time_limit->value}});
    case RejectionReason::deadline:
      return json_object({{"quantity", "seconds"}, {"value", nearest.time.value}, {"limit", workload.deadline->value}});
    case RejectionReason::budget:
      if (nearest.purchase) {
        return json_object(
            {{"quantity", "purchase_usd"}, {"value", nearest.purchase->value}, {"limit", workload.budget->value}});
      }
      return json_object(
          {{"quantity", "cost_usd"}, {"value", budget_cash(nearest).value}, {"limit", workload.budget->value}});
    case RejectionReason::ttft:
      return json_object({{"quantity", "ttft_seconds"},
                          {"value", nearest.serving->replica.ttft.value},
                          {"limit", workload.serving->ttft->value}});
    case RejectionReason::tpot:
      return json_object({{"quantity", "tpot_seconds"},
                          {"value", nearest.serving->replica.decode_step.value},
                          {"limit", workload.serving->tpot->value}});
    case RejectionReason::load:
      return json_object({{"quantity", "units"}, {"value", nearest.plan.units}, {"limit", rejection.max_units}});
    case RejectionReason::purchase:
    case RejectionReason::preemption:
    case RejectionReason::cards_only:
    case RejectionReason::precision:
    case RejectionReason::no_bandwidth:
    case RejectionReason::engine:
    case RejectionReason::framework:
    case RejectionReason::kernel:
    case RejectionReason::host_cpus:
    case RejectionReason::no_capacity:
    case RejectionReason::no_host_memory:
    case RejectionReason::no_price:
    case RejectionReason::device_count:
    case RejectionReason::rule: break;
  }
  return nullptr;
}

Json rejection_json(const Rejection& rejection, const Workload& workload) {
  Json json = json_object(
      {{"offering", json_object({{"id", rejection.offering->id}, {"provider", rejection.offering->provider}})},
       {"device", json_object({{"id", rejection.device->id}})},
       {"reason", to_string(rejection.reason)}});
  if (rejection.reason == RejectionReason::rule) json_add(json, "rule", rejection.rule.rule->id);
  if (rejection.reason == RejectionReason::device_count) json_add(json, "device_counts", rejection.device_counts);
  json_add(json, "message", describe_rejection(rejection, workload));
  if (rejection.nearest) {
    const PlanEstimate& nearest = *rejection.nearest;
    json_add(json, "failed", failed_figure(rejection, workload));
    json_add(json, "nearest_plan",
             json_object({{"device_count", nearest.plan.device_count},
                          {"zero_stage", nearest.plan.strategy.zero_stage},
                          {"recompute", to_string(nearest.plan.strategy.recompute)},
                          {"offload", to_string(nearest.plan.strategy.offload)},
                          {"memory_total_bytes", json_whole(nearest.memory.total().value)},
                          {"capacity_bytes", json_whole(nearest.capacity.value)},
                          {"seconds", nearest.time.value},
                          {"cost_usd", nearest.cost ? Json(nearest.cost->value) : Json(nullptr)}}));
  }
  return json;
}

std::string dump(const Json& json) {
  return json_text(json);
}

}  // namespace

std::string render_recommend_json(const Report& report, int top, const Provenance& provenance) {
  Json json = json_document({"recommend", provenance});
  json["provenance"]["prices"] = price_json(report, top, provenance);
  json["workload"] = workload_json(report.workload);
  json["objective"] = to_string(report.objective);
  json["max_devices"] = report.max_devices;
  json["plans_evaluated"] = report.plans_evaluated;
  json["plans_pruned"] = report.plans_pruned;
  json["summary"] = summary_sentence(report);
  Json recommendations = Json::array();
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  for (std::size_t i = 0; i < shown; ++i) {
    Json item;
    item["rank"] = i + 1;
    item["pareto"] = report.recommendations[i].pareto;
    item["launchers"] = launchers_json(report.workload, report.recommendations[i], report.cost);
    json_merge(item, ranked_plan_json(report.recommendations[i]));
    item["cost"]["price_basis"] = price_basis_json(report.recommendations[i], report.cost);
    recommendations.push_back(std::move(item));
  }
  json["recommendations"] = std::move(recommendations);
  json["feasible_count"] = report.recommendations.size();
  if (report.purchases_weighed) {
    Json purchases = Json::array();
    const std::size_t bought = std::min(report.purchases.size(), static_cast<std::size_t>(top));
    for (std::size_t i = 0; i < bought; ++i) purchases.push_back(purchase_json(report.purchases[i], i + 1, report));
    json["purchases"] = std::move(purchases);
  } else {
    json["purchases"] = nullptr;  // not asked for (--include-purchase)
  }
  Json rejected = Json::array();
  for (const Rejection& rejection : report.rejected) rejected.push_back(rejection_json(rejection, report.workload));
  json["rejected"] = std::move(rejected);
  // docs/methodology.md#ways-out: empty unless nothing is ranked.
  Json alternatives = Json::array();
  for (const WayOut& way : report.ways_out) {
    Json item = json_object({{"change", to_string(way.change)}, {"flags", way_out_flags(way)}, {"fits", way.fits}});
    item["plan"] = plan_json(way.plan, way.fits);
    alternatives.push_back(std::move(item));
  }
  json["alternatives"] = std::move(alternatives);
  Json advice = Json::array();
  for (const RuleMessage& note : report.advice) {
    advice.push_back(json_object({{"rule", note.rule->id},
                                  {"severity", to_string(note.rule->severity)},
                                  {"rank", note.rank ? Json(*note.rank) : Json(nullptr)},
                                  {"message", note.message},
                                  {"source", note.rule->source}}));
  }
  json["advice"] = std::move(advice);
  return json_text_kept(std::move(json));
}

std::string render_estimate_json(const EstimateResult& result) {
  Json json = json_document({"estimate", result.provenance});
  json["workload"] = workload_json(result.workload);
  json_merge(json, plan_json(result.estimate, result.timed()));
  Json changes = Json::array();
  for (const FitChange& change : result.fit_changes) {
    const PlanEstimate& e = change.estimate;
    changes.push_back(json_object(
        {{"change", to_string(change.kind)},
         {"flags", fit_change_flags(change, result.estimate.plan)},
         {"device_count", e.plan.device_count},
         {"memory_per_device_bytes", json_whole(e.memory.total().value)},
         {"capacity_bytes", json_whole(e.capacity.value)},
         {"seconds", result.timed() && std::isfinite(e.time.value) ? Json(e.time.value) : Json(nullptr)},
         {"cost_usd", result.timed() && e.cost && std::isfinite(e.cost->value) ? Json(e.cost->value) : Json(nullptr)},
         {"fits", change.fits}}));
  }
  json["ways_to_fit"] = std::move(changes);
  if (const std::optional<PlanEstimate>& faster = result.faster_micro_batch) {
    json["faster_micro_batch"] = json_object({{"micro_batch", faster->plan.strategy.micro_batch},
                                              {"memory_per_device_bytes", json_whole(faster->memory.total().value)},
                                              {"seconds", faster->time.value},
                                              {"cost_usd", faster->cost ? Json(faster->cost->value) : Json(nullptr)}});
  } else {
    json["faster_micro_batch"] = nullptr;
  }
  if (!result.explanation.empty()) {
    Json terms = Json::array();
    for (const ExplainedTerm& term : result.explanation) {
      terms.push_back(json_object({{"term", term.term},
                                   {"formula", term.formula},
                                   {"inputs", term.inputs},
                                   {"bytes", json_whole(term.value.value)}}));
    }
    json["explain"] = std::move(terms);
  }
  if (result.decode) {
    const DecodeStep& d = *result.decode;
    json["decode"] = json_object({{"step_seconds", d.step.value},
                                  {"tokens_per_s_per_sequence", d.tokens_per_s_per_sequence()},
                                  {"bytes_per_device_per_step", json_whole(d.bytes.value)},
                                  {"flops_per_device_per_step", d.flops},
                                  {"bandwidth_efficiency", d.bandwidth_efficiency},
                                  {"compute_efficiency", d.compute_efficiency},
                                  {"all_reduce_seconds", d.all_reduce.value},
                                  {"step_overhead_seconds", d.step_overhead.value},
                                  {"weight_kernel_efficiency", d.weight_kernel_efficiency},
                                  {"memory_bound", d.memory_bound}});
  }
  json["constraints"] =
      json_object({{"meets_deadline", result.meets_deadline ? Json(*result.meets_deadline) : Json(nullptr)},
                   {"within_budget", result.within_budget ? Json(*result.within_budget) : Json(nullptr)},
                   {"feasible", result.feasible()}});
  return dump(json);
}

}  // namespace mlsize::cli
