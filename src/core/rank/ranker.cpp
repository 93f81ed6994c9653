#include <mlsize/rank/ranker.hpp>

#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/framework.hpp>
#include <mlsize/estimate/kernels.hpp>

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rule_judge.hpp>

#include "core/rank/ordering.hpp"
#include "core/rank/pruning.hpp"
#include "core/rank/purchases.hpp"
#include "core/rank/shape_memo.hpp"
#include "core/rank/ways_out.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace mlsize {
namespace {

using ordering::compare_plans;
using ordering::compare_values;
using ordering::dollars;
using ordering::Minima;

// Figures equal up to rounding (compare_values) are no better: the first plan keeps its
// place, whatever the last bits of a sum (and whichever plans pruning skipped).
bool lower_memory_fraction(const PlanEstimate& a, const PlanEstimate& b) {
  return compare_values(a.memory.total() / a.capacity, b.memory.total() / b.capacity) < 0;
}
// Offload plans whose host cannot hold the states: the share of its RAM they need.
double host_fraction(const PlanEstimate& e) {
  const Offering& offering = *e.plan.offering;
  return offloaded_per_unit(e.plan, e.memory) / *offering.host_memory;
}
bool less_host_memory(const PlanEstimate& a, const PlanEstimate& b) {
  return compare_values(host_fraction(a), host_fraction(b)) < 0;
}
bool faster(const PlanEstimate& a, const PlanEstimate& b) {
  return compare_values(a.time.value, b.time.value) < 0;
}

// The provider's on-demand limit when a plan of `devices` on `offering` is over it: rentals
// on demand or spot (a reservation is capacity held already). docs/catalogue.md#availability.
std::optional<int> beyond_on_demand(const Offering& offering, const PlanEstimate& e) {
  if (offering.kind != OfferingKind::cloud || e.commitment) return std::nullopt;
  const int limit = offering.terms->on_demand_limit.devices.value_or(k_default_on_demand_devices);
  return e.plan.device_count > limit ? std::optional<int>(limit) : std::nullopt;
}
bool sooner_first_token(const PlanEstimate& a, const PlanEstimate& b) {
  return compare_values(a.serving->replica.ttft.value, b.serving->replica.ttft.value) < 0;
}
bool needs_less_cash(const PlanEstimate& a, const PlanEstimate& b) {
  return compare_values(budget_cash(a).value, budget_cash(b).value) < 0;
}

// A worker thread is worth starting for this many offerings or more: starting one costs
// about what planning a few offerings does (tens of microseconds), so the default
// catalogue's ~300 offerings take at most 8 threads on a many-core machine.
constexpr std::size_t k_offerings_per_thread = 40;

// On-premise hardware the user does not own: a purchase, weighed apart from the ranking.
bool is_purchase(const Offering& offering, const CostSettings& cost) {
  return offering.kind == OfferingKind::on_prem && !cost.owns(offering);
}

// The catalogue marks cards and workstations priced as n × the card's launch price, without
// the host computer, power supply or cooling, with "card only" or "cards only" in the name
// (data/catalog/offerings.yaml, offerings-onprem.yaml; docs/catalogue.md#your-own-hardware).
// Their price is not what a working machine costs, and the catalogue has no sourced host
// price to add, so they are not offered as purchases; owned, they are ranked as usual.
bool cards_only(const Offering& offering) {
  std::string name;
  std::transform(offering.name.begin(), offering.name.end(), std::back_inserter(name),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return name.find("card only") != std::string::npos || name.find("cards only") != std::string::npos;
}

// A plan an outcome keeps by reference (issue 49): what the choices among plans compare,
// and its place among the offering's candidate plans, to estimate it again when its whole
// estimate is wanted (for the rows shown): 24 bytes, not a 1 KB estimate per offering.
struct PlanRef {
  std::uint32_t candidate = 0;
  int devices = 0;
  double seconds = 0;
  double cost = 0;  // ordering::ranked_cost
};
PlanRef ref_of(std::size_t candidate, const PlanEstimate& e) {
  return {static_cast<std::uint32_t>(candidate), e.plan.device_count, e.time.value, ordering::ranked_cost(e)};
}

// The device counts asked for `device` (--gpus h100:8), or none: any.
std::span<const int> counts_for(const RecommendSettings& settings, const Device& device) {
  const auto wanted = settings.device_counts.find(device.id);
  return wanted != settings.device_counts.end() ? std::span<const int>(wanted->second) : std::span<const int>();
}
// Faster; on the fewest devices, then cheaper; faster, then cheaper.
bool faster_ref(const PlanRef& a, const PlanRef& b) {
  return compare_values(a.seconds, b.seconds) < 0;
}
bool fewer_devices_ref(const PlanRef& a, const PlanRef& b) {
  if (a.devices != b.devices) return a.devices < b.devices;
  return compare_values(a.cost, b.cost) < 0;
}
bool faster_then_cheaper_ref(const PlanRef& a, const PlanRef& b) {
  const int time = compare_values(a.seconds, b.seconds);
  return time != 0 ? time < 0 : compare_values(a.cost, b.cost) < 0;
}

struct OfferingOutcome {
  const Offering* offering = nullptr;
  const Device* device = nullptr;
  // The rest are boxed: an outcome per offering stays small, the records it may hold are
  // allocated when there are some (issue 49).
  std::vector<RankedPlan> feasible;
  std::unique_ptr<Rejection> rejection;
  std::size_t evaluated = 0;  // plans estimated
  std::size_t pruned = 0;     // plans skipped as dominated
  // The fastest plan that fits (and no rule excludes), for Report::fastest_fitting;
  // purchases have none.
  std::optional<PlanRef> fastest;
  // Of the plans that meet every constraint, the one on the fewest devices and the fastest
  // (RankedPlan::smallest, ::fastest); none for serving a load.
  std::optional<PlanRef> smallest_meeting;
  std::optional<PlanRef> fastest_meeting;
};

// Keeps `plan` as the best so far, in an optional or in a box.
void keep(std::optional<RankedPlan>& best, const RankedPlan& plan) {
  best = plan;
}
void keep_if_better(std::optional<PlanRef>& best, const PlanRef& plan, bool (*better)(const PlanRef&, const PlanRef&)) {
  if (!best || better(plan, *best)) best = plan;
}

// What one worker of recommend() reuses from one offering to the next.
struct Scratch {
  Workload workload;  // the run's, at the precision of the offering in hand
  EstimateCache estimates;
  std::vector<Plan> plans;  // of the shape in hand (memo)
  ShapeMemo memo;
  FieldValues values;  // rule fields: the workload's at values_precision, then an offering's
  std::optional<Precision> values_precision;
};

// The messages of the prefer, penalize and advise rules that fired on a shown plan.
void note_rules(const Workload& workload, RankedPlan& plan, const RuleSet& rules) {
  const FieldValues values = rule_field_values(workload, plan.plan.device, plan.plan.offering, &plan);
  const RuleOutcome outcome = rules.evaluate(values);
  plan.rule_notes = outcome.scored;
  plan.rule_notes.insert(plan.rule_notes.end(), outcome.advice.begin(), outcome.advice.end());
}

// The rules' verdict on a plan of the offering `judge` was narrowed to; `values` hold the
// offering's fields, and take the plan's.
Verdict verdict_on(const RuleJudge& judge, FieldValues& values, const Workload& workload, const PlanEstimate& e) {
  if (!judge.open()) return judge.decided();
  fill_plan_rule_fields(values, workload, e);
  return judge.judge(values);
}

// `judge`: the ranking rules as the workload leaves them (null without rules); `shared`:
// whether the next offering the worker plans has this one's shape (what is estimated is
// then kept for it).
OfferingOutcome evaluate_offering(Scratch& scratch, const Offering& offering, const Device& device,
                                  const RecommendSettings& settings, const RuleJudge* judge,
                                  const std::optional<Recompute>& recompute, bool shared) {
  const Workload& workload = scratch.workload;
  OfferingOutcome outcome{&offering, &device, {}, nullptr, 0, 0, std::nullopt, std::nullopt, std::nullopt};
  auto note_rejection = [&](RejectionReason reason, std::optional<PlanEstimate> nearest) {
    std::shared_ptr<const PlanEstimate> kept;
    if (nearest) kept = std::make_shared<const PlanEstimate>(std::move(*nearest));
    outcome.rejection =
        std::make_unique<Rejection>(Rejection{&offering, &device, reason, std::move(kept), {}, {}, {}, 0});
  };
  // The outcome is the function's: moved out once, as the function returns.
  auto reject = [&](RejectionReason reason, std::optional<PlanEstimate> nearest) {
    note_rejection(reason, std::move(nearest));
    return std::move(outcome);
  };
  // Buying is another question than renting (docs/methodology.md#checks-in-order).
  const bool to_buy = is_purchase(offering, settings.cost);
  if (to_buy && !settings.include_purchase) return reject(RejectionReason::purchase, std::nullopt);
  if (to_buy && cards_only(offering)) return reject(RejectionReason::cards_only, std::nullopt);
  const bool serves = workload.task == Task::inference && workload.serving;
  const bool computes = workload.task == Task::gbdt
                            ? gbdt_throughput(workload, device, &offering, offering.devices_per_unit).has_value()
                            : peak_flops_per_s(device, workload).has_value();
  if (!computes) return reject(RejectionReason::precision, std::nullopt);
  // Every decode step reads the weights: an inference plan is timed by the bandwidth it is
  // bound by, never by compute alone (a CPU's AMX peak would decode 100× faster than its DRAM
  // allows).
  if (workload.task == Task::inference && !device.memory_bandwidth_bytes_per_s) {
    return reject(RejectionReason::no_bandwidth, std::nullopt);
  }
  if (workload.task == Task::inference && !workload.samples_are_tokens() && !engine_runs_on(workload.engine, device)) {
    return reject(RejectionReason::engine, std::nullopt);
  }
  if (workload.task == Task::inference && workload.speech && !speech_engine_runs_on(workload.speech->engine, device)) {
    return reject(RejectionReason::engine, std::nullopt);
  }
  // --framework neuron on an H100, --framework megatron on a TPU (framework.hpp).
  if (workload.is_training() && workload.task != Task::gbdt && workload.framework_named &&
      !framework_runs_on(workload.framework, device)) {
    return reject(RejectionReason::framework, std::nullopt);
  }
  // AWQ on a V100: the fleet would not start (kernels.hpp).
  if (workload.task == Task::inference && missing_weight_kernel(workload.engine, workload.weight_format, device)) {
    return reject(RejectionReason::kernel, std::nullopt);
  }
  const int gpus_per_machine = std::max(1, offering.devices_per_unit / machines_per_unit(offering));
  // A 2-vCPU VM starves vLLM's engine core, or a trainer's rank and its data loaders
  // (host_cpus_needed).
  if (device.kind != DeviceKind::cpu && offering.vcpus) {
    const int machines = machines_per_unit(offering);
    if (const std::optional<HostCpus> needed = host_cpus_needed(workload, gpus_per_machine)) {
      const int have = needed->physical ? *rented_cores(offering) : *offering.vcpus;
      if (have < needed->count * machines) return reject(RejectionReason::host_cpus, std::nullopt);
    }
  }
  if (!device_capacity(device, &offering)) return reject(RejectionReason::no_capacity, std::nullopt);
  // The host loads what the accelerators then take (host_must_hold); a CPU's memory is the
  // host's, checked with the plans.
  if (const std::optional<Bytes> held = host_must_hold(workload, gpus_per_machine);
      held && device.kind != DeviceKind::cpu) {
    // A rented host is a shape the provider states; a machine of your own (on-premise) is
    // yours to size, and training on one that states no RAM is not checked.
    if (!offering.host_memory && (workload.task == Task::gbdt || offering.kind != OfferingKind::on_prem)) {
      return reject(RejectionReason::no_host_memory, std::nullopt);
    }
    // A unit of many machines (a TPU slice) has its RAM spread over them. Trees' data is
    // split over the machines of a plan, so each plan checks its own share (host_fits).
    if (offering.host_memory && workload.task != Task::gbdt) {
      const Bytes per_machine = *offering.host_memory / static_cast<double>(machines_per_unit(offering));
      if (*held > per_machine) return reject(RejectionReason::host_memory, std::nullopt);
    }
  }
  if (!hourly_price_per_unit(offering, settings.cost)) return reject(RejectionReason::no_price, std::nullopt);
  // A service stays up: a free tier's sessions end (Colab, Kaggle).
  if (workload.serves_a_fleet() && offering.limits.session_hours) {
    return reject(RejectionReason::session_limit, std::nullopt);
  }

  // The counts asked for this device (--gpus h100:8), or any.
  const std::span<const int> counts = counts_for(settings, device);
  std::vector<Plan>& planned = scratch.plans;
  ShapeMemo& memo = scratch.memo;
  if (memo.holds(offering, workload.precision)) {
    for (Plan& plan : planned) plan.offering = &offering;
    memo.enter(offering, workload, planned);
  } else {
    candidate_plans(planned, workload, offering, device, settings.max_devices, counts);
    memo.start(offering, workload.precision, planned.size());
  }
  if (planned.empty()) {
    note_rejection(RejectionReason::device_count, std::nullopt);
    outcome.rejection->device_counts.assign(counts.begin(), counts.end());
    outcome.rejection->max_units = max_plan_units(workload, offering, settings.max_devices);
    return outcome;
  }
  FieldValues& values = scratch.values;  // the workload's, device's and offering's
  std::optional<RuleJudge> offering_judge;
  if (judge != nullptr && !judge->open()) {
    offering_judge = *judge;  // the workload decided every rule
  } else if (judge != nullptr) {
    if (scratch.values_precision != workload.precision) {
      fill_rule_fields(values, workload, nullptr, nullptr, nullptr);
      scratch.values_precision = workload.precision;
    }
    fill_offering_rule_fields(values, device, offering);
    offering_judge = judge->narrowed(values, k_first_plan_field);
  }
  // The plans stream through the checks of docs/methodology.md#checks-in-order; kept are
  // only the contenders for the offering's best plan, and for each check the plan nearest
  // to passing it, which a rejection shows.
  const double session_seconds = offering.limits.session_hours ? *offering.limits.session_hours * k_seconds_per_hour
                                                               : std::numeric_limits<double>::infinity();
  const Seconds time_limit = workload.deadline ? *workload.deadline : settings.max_run_time;
  const auto improves = [](auto& best, const RankedPlan& plan, auto better) {
    if (best && !better(plan, *best)) return false;
    keep(best, plan);
    return true;
  };
  std::optional<PlanRef> fastest_ref;            // `fastest`'s
  std::optional<RankedPlan> excluded_fitting;    // the first plan a rule excluded, of those that fit
  std::optional<RankedPlan> excluded_too_big;    // ... of those that do not
  std::optional<RankedPlan> least_memory;        // not excluded, too big: the nearest to fitting
  std::optional<RankedPlan> least_host;          // fits its devices, offloads more than the host holds
  std::optional<RankedPlan> fastest;             // fits, not excluded: nearest to the session limit
  std::optional<RankedPlan> fastest_in_session;  // within the session: nearest to the time limit
  std::optional<RankedPlan> least_cash;          // within the time limit: nearest to the budget
  std::optional<RankedPlan> quickest_replica;    // serving, missing a target: nearest to it
  std::optional<RankedPlan> most_per_unit;       // serving, too many units: the fewest needed
  bool preempted = false;                        // spot: a fitting plan that would never finish
  // Counts the user asked for bound a serving fleet too.
  int most_units = max_plan_units(workload, offering, settings.max_devices);
  if (!counts.empty())
    most_units = std::min(most_units, *std::max_element(counts.begin(), counts.end()) / offering.devices_per_unit);
  ordering::Contenders contenders(settings.objective);
  PlanEstimator estimator(workload, device, &offering, settings.cost, &scratch.estimates);
  // Pruning needs every plan of a layout to get the same rule verdict, and no rule to drop
  // a plan: rules that read no plan field, or only a layout's (scored by layout, not under
  // the balanced objective, whose ties the pruner breaks plan by plan).
  const bool scored_by_layout = offering_judge && offering_judge->open() && settings.objective != Objective::balanced &&
                                offering_judge->scales_only_by(k_layout_fields, k_first_plan_field);
  const bool prunes =
      settings.prune && workload.task != Task::gbdt && !serves &&
      (!offering_judge || (!offering_judge->decided().excluded && (!offering_judge->open() || scored_by_layout)));
  // The search an offering of the shape before made, when it is this one's (ShapeMemo::Search);
  // not where layouts are scored, whose pruning the offering's rules decide.
  const bool replays = prunes && !scored_by_layout && settings.cost.pricing != Pricing::spot;
  const ShapeMemo::Search* known_search = replays ? memo.search() : nullptr;
  const bool records = replays && shared && known_search == nullptr;  // this one's search, for the next
  if (records) memo.begin_search();
  std::optional<pruning::Pruner> pruner;
  if (prunes && known_search == nullptr) {
    pruner.emplace(planned, estimator, recompute, workload, settings.objective, memo.least_times(),
                   scored_by_layout ? &*offering_judge : nullptr, &values);
  }
  RankedPlan e;
  const std::size_t searched = known_search != nullptr ? known_search->plans.size() : planned.size();
  for (std::size_t k = 0; k < searched; ++k) {
    const std::size_t i = known_search != nullptr ? known_search->plans[k] : k;
    const Plan& plan = planned[i];
    if (recompute && plan.strategy.recompute != *recompute) continue;  // decided by a `set` rule
    if (pruner && pruner->skips(i)) {
      ++outcome.pruned;
      continue;
    }
    if (records) memo.searched(i);
    if (const PlanEstimate* known = memo.estimate(i); known != nullptr && (prunes || !PlanEstimator::untimed(*known))) {
      static_cast<PlanEstimate&>(e) = *known;
      e.plan.offering = &offering;
    } else {
      // Where every plan gets the same rule verdict, one that does not fit is weighed by its
      // memory alone (least_memory), and timed only if a rejection shows it.
      estimator.estimate_physics(plan, e, !prunes);
      if (shared) memo.keep(i, e);
    }
    estimator.price(e);
    e.rule_score = 1.0;
    e.beyond_on_demand = beyond_on_demand(offering, e);
    ++outcome.evaluated;
    if (offering_judge) {
      const Verdict verdict = verdict_on(*offering_judge, values, workload, e);
      if (verdict.excluded) {
        std::optional<RankedPlan>& first = e.fits ? excluded_fitting : excluded_too_big;
        if (!first) first = e;
        continue;
      }
      e.rule_score = verdict.score;
    }
    if (pruner) pruner->estimated(i, e);
    if (!e.fits) {
      improves(least_memory, e, lower_memory_fraction);
      continue;
    }
    if (!e.host_fits.value_or(true)) {
      improves(least_host, e, less_host_memory);
      continue;
    }
    if (!std::isfinite(e.time.value)) {
      preempted = true;
      continue;
    }
    if (e.serving && e.serving->miss) {
      improves(quickest_replica, e, *e.serving->miss == ServingMiss::tpot ? faster : sooner_first_token);
      continue;
    }
    if (e.serving && e.plan.units > most_units) {
      improves(most_per_unit, e,
               [](const PlanEstimate& a, const PlanEstimate& b) { return a.plan.units < b.plan.units; });
      continue;
    }
    if (improves(fastest, e, faster)) fastest_ref = ref_of(i, e);
    if (e.time.value > session_seconds) continue;
    improves(fastest_in_session, e, faster);
    if (e.time > time_limit) continue;
    improves(least_cash, e, needs_less_cash);
    if (workload.budget && budget_cash(e) > *workload.budget) continue;
    if (!serves || workload.serving->offline()) {
      const PlanRef ref = ref_of(i, e);
      keep_if_better(outcome.smallest_meeting, ref, fewer_devices_ref);
      keep_if_better(outcome.fastest_meeting, ref, faster_then_cheaper_ref);
    }
    contenders.offer(e);
  }
  if (known_search != nullptr) outcome.pruned = known_search->pruned;
  const bool skipped_layout =
      pruner ? pruner->skipped_a_layout() : known_search != nullptr && known_search->skipped_layout;
  if (records) memo.end_search(outcome.pruned, skipped_layout);
  if (!fastest && !least_host && skipped_layout) {
    // Nothing fits: the plan nearest to fitting, over every plan (those of skipped layouts
    // too), from their memory alone, in plan order as improves() would find it; only that
    // one is estimated in full.
    std::optional<std::size_t> nearest;
    double least = 0;
    outcome.evaluated = 0;
    outcome.pruned = 0;
    for (std::size_t i = 0; i < planned.size(); ++i) {
      if (recompute && planned[i].strategy.recompute != *recompute) continue;
      ++outcome.evaluated;
      const double fraction = estimator.memory(planned[i]).total() / estimator.capacity();
      if (!nearest || compare_values(fraction, least) < 0) {
        nearest = i;
        least = fraction;
      }
    }
    least_memory = RankedPlan(estimator.estimate(planned[*nearest]));
    if (offering_judge) least_memory->rule_score = verdict_on(*offering_judge, values, workload, *least_memory).score;
  }
  if (!fastest) {
    // Nothing fits (rules judged every plan, so a rule's rejection is told from a memory
    // one: exclusions come before the memory check), or no replica that fits meets the
    // serving targets, or the load needs too many units.
    // A replica that meets the targets but needs too many units says more than one that
    // misses them.
    if (most_per_unit) {
      note_rejection(RejectionReason::load, std::move(most_per_unit));
      outcome.rejection->max_units = most_units;
      return outcome;
    }
    if (quickest_replica) {
      const RejectionReason reason =
          *quickest_replica->serving->miss == ServingMiss::tpot ? RejectionReason::tpot : RejectionReason::ttft;
      return reject(reason, std::move(quickest_replica));
    }
    if (preempted) return reject(RejectionReason::preemption, std::nullopt);
    // A plan that fits its devices but not its host's RAM is nearer than any that does not.
    if (least_host) {
      const bool loads = workload.task == Task::gbdt;  // the rows GPU workers load, not offloaded states
      return reject(loads ? RejectionReason::host_memory : RejectionReason::offload_host, std::move(least_host));
    }
    if (least_memory) {
      if (PlanEstimator::untimed(*least_memory)) {
        const Plan nearest = least_memory->plan;
        estimator.estimate_physics(nearest, *least_memory);
        estimator.price(*least_memory);
      }
      return reject(RejectionReason::memory, std::move(least_memory));
    }
    const std::optional<RankedPlan>& excluded = excluded_fitting ? excluded_fitting : excluded_too_big;
    if (!excluded) return reject(RejectionReason::device_count, std::nullopt);  // a `set` rule left no plan
    // The first exclusion in rule order, with its message, as one evaluation of every rule
    // finds it.
    const RuleMessage exclusion =
        settings.rules->evaluate(rule_field_values(workload, &device, &offering, &*excluded)).exclusions.front();
    outcome.rejection = std::make_unique<Rejection>(
        Rejection{&offering, &device, RejectionReason::rule, nullptr, exclusion, {}, {}, 0});
    return outcome;
  }
  // The summary's "fastest plan that fits" speaks of the ranking, which purchases are not in.
  if (!to_buy) outcome.fastest = fastest_ref;
  if (!fastest_in_session) return reject(RejectionReason::session_limit, std::move(fastest));
  if (!least_cash) {
    if (workload.deadline) return reject(RejectionReason::deadline, std::move(fastest_in_session));
    note_rejection(RejectionReason::run_time, std::move(fastest_in_session));
    outcome.rejection->run_time_limit = settings.max_run_time;
    return outcome;
  }
  std::vector<RankedPlan>& kept = contenders.plans();
  if (kept.empty()) return reject(RejectionReason::budget, std::move(least_cash));
  if (settings.objective == Objective::balanced) {
    outcome.feasible = std::move(kept);  // its score needs every offering's minima
  } else {
    // Under cost and time the offering's best plan is chosen from its own plans alone
    // (first_of reads no minima): one record per offering is kept, not its contenders.
    outcome.feasible.push_back(ordering::first_of(kept, settings.objective, Minima{}));
  }
  return outcome;
}

// The front's corners over the feasible plans of the outcomes `of_kind` selects.
template <class OfKind>
Minima minima_of(const std::vector<OfferingOutcome>& outcomes, OfKind of_kind) {
  const double infinity = std::numeric_limits<double>::infinity();
  Minima minima{infinity, infinity, infinity, infinity};
  for (const OfferingOutcome& outcome : outcomes) {
    if (!of_kind(outcome)) continue;
    for (const PlanEstimate& e : outcome.feasible) {
      minima.cost = std::min(minima.cost, dollars(e));
      minima.seconds = std::min(minima.seconds, e.time.value);
    }
  }
  for (const OfferingOutcome& outcome : outcomes) {
    if (!of_kind(outcome)) continue;
    for (const PlanEstimate& e : outcome.feasible) {
      if (compare_values(e.time.value, minima.seconds) == 0) {
        minima.cost_of_fastest = std::min(minima.cost_of_fastest, dollars(e));
      }
      if (compare_values(dollars(e), minima.cost) == 0) {
        minima.seconds_of_cheapest = std::min(minima.seconds_of_cheapest, e.time.value);
      }
    }
  }
  return minima;
}

// The best plan of each outcome `of_kind` selects, best first under the objective.
// The offerings' chosen plans and alternatives are moved out of `outcomes`.
template <class OfKind>
std::vector<RankedPlan> rank_outcomes(std::vector<OfferingOutcome>& outcomes, Objective objective, OfKind of_kind) {
  const Minima minima = minima_of(outcomes, of_kind);
  const auto ranks_before = [&](const RankedPlan& a, const RankedPlan& b) {
    return compare_plans(a, b, objective, minima) < 0;
  };
  std::vector<RankedPlan> best;
  best.reserve(static_cast<std::size_t>(std::count_if(outcomes.begin(), outcomes.end(), [&](const OfferingOutcome& o) {
    return of_kind(o) && !o.rejection && !o.feasible.empty();
  })));
  for (OfferingOutcome& outcome : outcomes) {
    if (of_kind(outcome) && !outcome.rejection && !outcome.feasible.empty()) {
      // The offering's best plan, near-ties broken as in the ranking.
      const auto chosen = &ordering::first_of(outcome.feasible, objective, minima) - outcome.feasible.data();
      best.emplace_back(std::move(outcome.feasible[static_cast<std::size_t>(chosen)]));
      outcome.feasible = {};  // its memory too: 100,000 offerings held 112 MB of them
    }
  }
  // Ordered by pointer, then moved into place once, following each cycle of the order (a
  // ranked record is 696 bytes: sorting the records moved them about n log n times).
  std::vector<const RankedPlan*> order(best.size());
  for (std::size_t i = 0; i < best.size(); ++i) order[i] = &best[i];
  std::sort(order.begin(), order.end(), [&](const RankedPlan* a, const RankedPlan* b) { return ranks_before(*a, *b); });
  ordering::order_near_ties(order, objective, minima);
  std::vector<std::size_t> from(order.size());  // the place of the record that goes at i
  for (std::size_t i = 0; i < order.size(); ++i) from[i] = static_cast<std::size_t>(order[i] - best.data());
  for (std::size_t start = 0; start < from.size(); ++start) {
    if (from[start] == start) continue;
    RankedPlan moving = std::move(best[start]);
    std::size_t at = start;
    while (from[at] != start) {
      const std::size_t next = from[at];
      best[at] = std::move(best[next]);
      from[at] = at;
      at = next;
    }
    best[at] = std::move(moving);
    from[at] = at;
  }
  return best;
}

// Whether `b` is `a` on another host shape of the same provider: the same device, device
// count, layout and time.
bool same_plan(const RankedPlan& a, const RankedPlan& b) {
  if (a.plan.offering == nullptr || b.plan.offering == nullptr) return false;
  const Strategy& x = a.plan.strategy;
  const Strategy& y = b.plan.strategy;
  return a.plan.offering->provider == b.plan.offering->provider && a.plan.device == b.plan.device &&
         a.plan.device_count == b.plan.device_count && a.plan.units == b.plan.units &&
         std::tie(x.tensor_parallel, x.pipeline_parallel, x.zero_stage, x.recompute, x.micro_batch, x.offload) ==
             std::tie(y.tensor_parallel, y.pipeline_parallel, y.zero_stage, y.recompute, y.micro_batch, y.offload) &&
         compare_values(a.time.value, b.time.value) == 0;
}

// Folds each recommendation that repeats a better-ranked one on another host shape into it
// (RankedPlan::variants), in place. Candidates are found by what same_plan compares
// exactly (a map, not a scan of every kept plan: 100,000 offerings of a compiled catalogue).
void fold_variants(std::vector<RankedPlan>& ranked) {
  using Key = std::tuple<std::string_view, const Device*, int, int, int, int, int, int, int, int>;
  const auto key = [](const RankedPlan& e) {
    const Strategy& st = e.plan.strategy;
    return Key{e.plan.offering->provider,
               e.plan.device,
               e.plan.device_count,
               e.plan.units,
               st.tensor_parallel,
               st.pipeline_parallel,
               st.zero_stage,
               static_cast<int>(st.recompute),
               st.micro_batch,
               static_cast<int>(st.offload)};
  };
  std::map<Key, std::vector<std::size_t>> kept_by_key;  // places in the kept prefix
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    RankedPlan& e = ranked[i];
    std::vector<std::size_t>* same = nullptr;
    if (e.plan.offering != nullptr) {
      same = &kept_by_key[key(e)];
      const auto first =
          std::find_if(same->begin(), same->end(), [&](std::size_t k) { return same_plan(ranked[k], e); });
      if (first != same->end()) {
        ranked[*first].variants.push_back(e.plan.offering);
        continue;
      }
    }
    if (same != nullptr) same->push_back(kept);
    if (kept != i) ranked[kept] = std::move(e);
    ++kept;
  }
  ranked.erase(ranked.begin() + static_cast<std::ptrdiff_t>(kept), ranked.end());
}

}  // namespace

std::optional<HostCpus> host_cpus_needed(const Workload& workload, int gpus) {
  // (A language model served; an image or speech model's batch job has no such engine.)
  const bool sglang = workload.engine == Engine::sglang || workload.engine == Engine::sglang_03;
  if (workload.task == Task::inference && !workload.samples_are_tokens() && (is_vllm(workload.engine) || sglang)) {
    return HostCpus{2 + gpus, true};
  }
  if (workload.is_training() && workload.task != Task::gbdt && !workload.vision)
    return HostCpus{k_training_cpus_per_gpu * gpus, false};
  return std::nullopt;
}

std::optional<Bytes> host_must_hold(const Workload& workload, int gpus) {
  if (workload.task == Task::gbdt) return gbdt_dataset_bytes(workload);
  if (workload.is_training() && workload.parameters.total > 0) {
    return Bytes(workload.parameters.total * k_checkpoint_bytes_per_parameter + gpus * k_rank_host_bytes);
  }
  return std::nullopt;
}

Usd budget_cash(const PlanEstimate& e) {
  if (e.purchase) return *e.purchase;
  const Usd run = e.cost.value_or(Usd(0));
  // A reservation is paid for every hour of its term, used or not.
  return e.commitment && *e.commitment > run ? *e.commitment : run;
}

Report recommend(const Workload& workload, const Catalog& catalog, const RecommendSettings& settings) {
  Report report;
  report.workload = workload;
  report.objective = settings.objective;
  report.cost = settings.cost;
  report.purchases_weighed = settings.include_purchase;
  report.max_devices = settings.max_devices;
  if (!workload.deadline) report.run_time_limit = settings.max_run_time;

  // `set` rules decide planner defaults from the workload alone.
  std::optional<Recompute> recompute;
  if (settings.rules != nullptr) {
    const RuleSettings decided = settings.rules->settings(rule_field_values(workload));
    recompute = decided.recompute;
    if (decided.recompute_rule != nullptr) {
      report.advice.push_back({decided.recompute_rule,
                               "recomputation set to " + std::string(to_string(*decided.recompute)) + " by this rule",
                               std::nullopt});
    }
  }
  // The ranking rules as the workload leaves them, once per run for each precision planned.
  std::map<Precision, RuleJudge> judges;
  const auto judge_for = [&](Precision precision) -> const RuleJudge* {
    if (settings.rules == nullptr) return nullptr;
    auto found = judges.find(precision);
    if (found == judges.end()) {
      Workload at = workload;
      at.precision = precision;
      found =
          judges.emplace(precision, RuleJudge(*settings.rules).narrowed(rule_field_values(at), k_first_device_field))
              .first;
    }
    return &found->second;
  };
  struct Job {
    const Offering* offering;
    const Device* device;
    Precision precision;
    const RuleJudge* judge;
    const Calibration* calibration;  // mlsize calibrate's for the device at the precision, if any
  };
  std::vector<Job> jobs;
  jobs.reserve(catalog.offerings().size());
  for (const Offering& offering : catalog.offerings()) {
    const Device* device = catalog.find_device(offering.device_id);
    if (device == nullptr) continue;  // Catalog::check_references() reports these
    // Precision is a plan dimension: each device trains at the best precision it supports
    // unless the user pinned one (--precision).
    const Precision precision =
        settings.precision_per_device ? precision_for(*device, workload, workload.precision) : workload.precision;
    jobs.push_back(Job{&offering, device, precision, judge_for(precision),
                       calibration_for(settings.calibrations, *device, precision)});
  }
  // Offerings are independent: workers take the offerings of a shape (same_shape) in turn,
  // each outcome lands in its offering's place, and they are merged in catalogue order, so
  // that the report is the same for any number of threads. Offerings of one shape share
  // their estimates (ShapeMemo): one shape after another, as their shape keys order them.
  std::vector<std::size_t> order(jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (settings.share_shapes) {
    std::vector<ShapeKey> keys;
    keys.reserve(jobs.size());
    for (const Job& job : jobs) keys.push_back(shape_key(*job.offering));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  }
  const auto shares = [&](std::size_t a, std::size_t b) {
    return settings.share_shapes && jobs[a].precision == jobs[b].precision &&
           same_shape(*jobs[a].offering, *jobs[b].offering);
  };
  std::vector<std::size_t> shape_starts;  // in `order`
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || !shares(order[k - 1], order[k])) shape_starts.push_back(k);
  }
  shape_starts.push_back(order.size());
  std::vector<OfferingOutcome> outcomes(jobs.size());
  std::vector<std::exception_ptr> errors(jobs.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    Scratch scratch{workload, {}, {}, {}, {}, std::nullopt};
    for (std::size_t shape = next++; shape + 1 < shape_starts.size(); shape = next++) {
      for (std::size_t k = shape_starts[shape]; k < shape_starts[shape + 1]; ++k) {
        const std::size_t i = order[k];
        const Job& job = jobs[i];
        scratch.workload.precision = job.precision;
        // The serving memory the cache remembers holds the overhead a calibration sets.
        if (apply_calibration(scratch.workload, workload, job.calibration)) {
          scratch.estimates = EstimateCache{};
          scratch.memo.forget();
        }
        if (!settings.share_shapes) scratch.memo.forget();
        const bool shared = k + 1 < shape_starts[shape + 1];
        try {
          outcomes[i] = evaluate_offering(scratch, *job.offering, *job.device, settings, job.judge, recompute, shared);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    }
  };
  {
    const std::size_t threads = std::clamp<std::size_t>(settings.threads, 1, jobs.size() / k_offerings_per_thread + 1);
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);  // the first in catalogue order, as one thread would
  }
  // A plan an outcome kept by reference, estimated again as the workers estimated it.
  Workload at = workload;  // at each job's precision and calibration in turn
  std::vector<Plan> candidates;
  std::optional<std::size_t> candidates_of;  // the job `candidates` are of: a shown row asks twice
  const auto estimate_again = [&](std::size_t i, const PlanRef& ref) {
    at.precision = jobs[i].precision;
    apply_calibration(at, workload, jobs[i].calibration);
    const Offering& offering = *jobs[i].offering;
    const Device& device = *jobs[i].device;
    if (candidates_of != i) {
      candidate_plans(candidates, at, offering, device, settings.max_devices, counts_for(settings, device));
      candidates_of = i;
    }
    return PlanEstimator(at, device, &offering, settings.cost).estimate(candidates.at(ref.candidate));
  };
  std::optional<std::size_t> fastest_fitting;  // its outcome
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const OfferingOutcome& outcome = outcomes[i];
    report.plans_evaluated += outcome.evaluated;
    report.plans_pruned += outcome.pruned;
    if (outcome.fastest && (!fastest_fitting || faster_ref(*outcome.fastest, *outcomes[*fastest_fitting].fastest))) {
      fastest_fitting = i;
    }
  }
  if (fastest_fitting) {
    report.fastest_fitting = estimate_again(*fastest_fitting, *outcomes[*fastest_fitting].fastest);
  }
  // The offerings' other plans that meet the constraints, for the rows that show them.
  std::unordered_map<const Offering*, std::size_t> outcome_of;
  const auto add_alternatives = [&](RankedPlan& e) {
    if (outcome_of.empty()) {
      for (std::size_t i = 0; i < outcomes.size(); ++i) outcome_of.emplace(outcomes[i].offering, i);
    }
    const std::size_t i = outcome_of.at(e.plan.offering);
    const OfferingOutcome& outcome = outcomes[i];
    if (outcome.smallest_meeting) {
      e.smallest = std::make_shared<const PlanEstimate>(estimate_again(i, *outcome.smallest_meeting));
    }
    if (outcome.fastest_meeting) {
      e.fastest = std::make_shared<const PlanEstimate>(estimate_again(i, *outcome.fastest_meeting));
    }
  };
  // The workload as each shown plan ran it: only the precision differs.
  Workload planned = workload;

  // Rentals (and owned hardware) are ranked among themselves exactly as without purchases;
  // purchases are ordered among themselves by the same objective.
  const auto purchase_outcome = [&](const OfferingOutcome& o) { return is_purchase(*o.offering, settings.cost); };
  const auto rental_outcome = [&](const OfferingOutcome& o) { return !purchase_outcome(o); };
  report.recommendations = rank_outcomes(outcomes, settings.objective, rental_outcome);
  fold_variants(report.recommendations);
  ordering::mark_ties(report.recommendations, settings.objective);
  for (RankedPlan& plan : rank_outcomes(outcomes, settings.objective, purchase_outcome)) {
    report.purchases.emplace_back(std::move(plan));
  }
  // Rejections by reason, then offering id: their order sorted, then each moved once (a
  // Rejection is large to swap about).
  std::vector<Rejection*> rejected;
  for (OfferingOutcome& outcome : outcomes) {
    if (outcome.rejection) rejected.push_back(&*outcome.rejection);
  }
  std::sort(rejected.begin(), rejected.end(), [](const Rejection* a, const Rejection* b) {
    return std::tie(a->reason, a->offering->id) < std::tie(b->reason, b->offering->id);
  });
  report.rejected.reserve(rejected.size());
  for (Rejection* rejection : rejected) report.rejected.push_back(std::move(*rejection));
  ordering::mark_pareto_front(report.recommendations);
  const std::size_t detailed = std::min(report.recommendations.size(), settings.alternatives_for);
  for (RankedPlan& e : std::span(report.recommendations).first(detailed)) add_alternatives(e);
  for (RankedPlan& e : report.purchases) add_alternatives(e);
  if (settings.rules != nullptr) {
    // The advice is gathered from the notes (below): those plans need them too.
    const std::size_t noted =
        std::min(report.recommendations.size(), std::max(settings.notes_for, settings.advice_from));
    for (RankedPlan& e : std::span(report.recommendations).first(noted)) {
      planned.precision = e.precision;
      note_rules(planned, e, *settings.rules);
    }
    for (RankedPlan& e : report.purchases) {
      planned.precision = e.precision;
      note_rules(planned, e, *settings.rules);
    }
  }
  weigh_purchases(report);
  // Advice comes from the plans the user sees, led by #1: a warning about TPUs under a
  // ranking that shows none is noise.
  // A rule that reads a plan's fields speaks of that plan: its rank goes with it.
  const std::size_t advising = std::min(report.recommendations.size(), settings.advice_from);
  for (std::size_t rank = 1; rank <= advising; ++rank) {
    for (const RuleMessage& note : report.recommendations[rank - 1].rule_notes) {
      if (note.rule->severity == Severity::tip && !settings.tips) continue;
      const bool seen = std::any_of(report.advice.begin(), report.advice.end(),
                                    [&](const RuleMessage& m) { return m.rule == note.rule; });
      if (seen) continue;
      RuleMessage& added = report.advice.emplace_back(note);
      if (reads_plan(*note.rule)) added.rank = rank;
    }
  }
  if (settings.ways_out) report.ways_out = find_ways_out(workload, catalog, settings, report);
  return report;
}

}  // namespace mlsize
