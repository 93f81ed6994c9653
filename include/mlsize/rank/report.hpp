#pragma once
// The result of `recommend`: ranked plans and the offerings that could not serve.

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/fit_changes.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/rules/rules.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize {

enum class Objective { cost, time, balanced };
constexpr auto enum_names(Objective) {
  using enum Objective;
  return std::to_array<EnumName<Objective>>({{cost, "cost"}, {time, "time"}, {balanced, "balanced"}});
}

// Why an offering has no feasible plan, checked in this order.
enum class RejectionReason {
  purchase,        // hardware to buy: weighed only when asked (--include-purchase) or owned (--owned)
  cards_only,      // hardware to buy whose price leaves out the host computer: not a whole purchase
  precision,       // the device has no throughput figure for the workload's precision (gbdt: for trees)
  no_bandwidth,    // inference: the device states no memory bandwidth, which bounds every decode step
  engine,          // inference: the serving engine (--engine) does not run on the device
  framework,       // training: the named --framework does not run on the device's stack
  kernel,          // inference: the engine has no kernel for the weight format on the device (kernels.hpp)
  host_cpus,       // a machine has fewer CPUs than vLLM's or a trainer's processes (host_cpus_needed)
  no_capacity,     // neither the device nor the offering states a memory size
  no_host_memory,  // the host must hold something (gbdt on GPUs: the data) and its RAM is not stated
  host_memory,     // the host's RAM cannot hold what it must (gbdt on GPUs: the data it loads)
  no_price,        // no price of the requested kind (e.g. no spot price)
  device_count,    // no plan of an allowed size: a count asked for (--gpus ACC:N) or --max-devices
                   // that whole units of the offering cannot make
  rule,            // every plan was excluded by a rule (exclude, or require not met)
  memory,          // no plan fits in device memory
  offload_host,    // the only plans that fit the devices offload more than the host's RAM holds
  ttft,            // serving: no replica meets --ttft, even one sequence at a time
  tpot,            // serving: no replica meets --tpot, even one sequence at a time
  load,            // serving: the load needs more units than the offering has (or --max-devices allows)
  session_limit,   // a free tier's session is shorter than the fastest fitting plan
  run_time,        // without a deadline: no fitting plan finishes within the run-time limit
  deadline,        // no fitting plan finishes before the deadline
  budget,          // no fitting, timely plan is within the budget
  preemption,      // spot: interruptions would come faster than the run checkpoints and restarts
};
// The names JSON output gives as `reason`.
constexpr auto enum_names(RejectionReason) {
  using enum RejectionReason;
  return std::to_array<EnumName<RejectionReason>>({{purchase, "purchase"},
                                                   {cards_only, "cards_only"},
                                                   {precision, "precision"},
                                                   {no_bandwidth, "no_bandwidth"},
                                                   {engine, "engine"},
                                                   {framework, "framework"},
                                                   {kernel, "kernel"},
                                                   {host_cpus, "host_cpus"},
                                                   {no_capacity, "no_capacity"},
                                                   {no_host_memory, "no_host_memory"},
                                                   {host_memory, "host_memory"},
                                                   {no_price, "no_price"},
                                                   {device_count, "device_count"},
                                                   {rule, "rule"},
                                                   {memory, "memory"},
                                                   {offload_host, "offload_host"},
                                                   {ttft, "ttft"},
                                                   {tpot, "tpot"},
                                                   {load, "load"},
                                                   {session_limit, "session_limit"},
                                                   {run_time, "run_time"},
                                                   {deadline, "deadline"},
                                                   {budget, "budget"},
                                                   {preemption, "preemption"}});
}

// A plan that passed the rules, with what they did to it. The rule data lives here, not
// in PlanEstimate, so that the estimators know nothing of rules (docs/architecture.md).
struct RankedPlan : PlanEstimate {
  RankedPlan() = default;
  explicit RankedPlan(PlanEstimate estimate) : PlanEstimate(std::move(estimate)) {}
  double rule_score = 1.0;              // product of prefer factors ÷ penalize factors
  std::vector<RuleMessage> rule_notes;  // prefer, penalize and advise rules that fired
  // On the time-cost Pareto front of the recommendations: no other recommendation is both
  // as cheap and as fast, and better in one.
  bool pareto = false;
  // The offering's other plans that meet every constraint: the one on the fewest devices and
  // the fastest (each may be this plan). Training and batch runs; absent for serving. Shared
  // and immutable: a ranked record is copied while ranking, and these two estimates would
  // triple its size (issue 49).
  std::shared_ptr<const PlanEstimate> smallest;
  std::shared_ptr<const PlanEstimate> fastest;
  // Ranked before the next recommendation by a tie-break: the objective's figures are
  // within k_near_tie of each other.
  bool tie_with_next = false;
  // Ranked before the next although the objective alone puts the next first (it costs less,
  // or is quicker, by at most k_near_tie): the tie-break decided (the table marks it).
  bool ranked_by_tie_break = false;
  // More devices than the provider gives on demand without a reservation or quota request
  // (OnDemandLimit; the limit it is over).
  std::optional<int> beyond_on_demand;
  // Offerings of the same provider and device that give this very plan (as many devices,
  // the same layout and time: other host shapes or platforms), ranked after it and left out
  // of the ranking so that one choice takes one row.
  std::vector<const Offering*> variants;
};

// Hardware to buy (--include-purchase), weighed beside the ranking and never in it: a
// purchase is a capital decision, so it is shown with its price and its break-even
// against renting (docs/methodology.md#hardware-to-buy). `cost` is amortised + electricity.
struct PurchasePlan : RankedPlan {
  PurchasePlan() = default;
  explicit PurchasePlan(RankedPlan ranked) : RankedPlan(std::move(ranked)) {}
  Usd amortised;  // the run's share of the purchase at `utilisation`
  // The run's power on the bought hardware; absent when the offering states no power_w,
  // which then counts as nothing (in `cost` and the break-even alike).
  std::optional<Usd> electricity;
  double utilisation = 0;  // CostSettings::utilisation the share assumes
  // The index in Report::recommendations of the cheapest rental it is weighed against;
  // absent when no rental is feasible, or the workload is not timed (gbdt: no runs).
  std::optional<std::size_t> compared_with;
  std::optional<BreakEven> break_even;  // absent with compared_with
  // The break-even comes within the write-off period at the utilisation (busy ≤ years ×
  // utilisation); the same as amortised + electricity < the rental's cost per run.
  bool pays_off = false;
};

struct Rejection {
  const Offering* offering = nullptr;
  const Device* device = nullptr;
  RejectionReason reason = RejectionReason::memory;
  // The plan that came nearest: least memory for `memory`, fastest for `session_limit`
  // and `deadline`, cheapest for `budget`, the quickest replica for `ttft` and `tpot`, the
  // fleet of most throughput per unit for `load`; absent for `precision` and `no_price`.
  // Shared and immutable: most offerings of a run are rejected, and a rejection is copied
  // into the report (issue 49).
  std::shared_ptr<const PlanEstimate> nearest;
  RuleMessage rule;                       // for `rule`: the rule that excluded the offering's first plan, and why
  std::optional<Seconds> run_time_limit;  // for `run_time`: the limit it was over
  std::vector<int> device_counts;         // for `device_count`: the counts asked for; empty: any
  int max_units = 0;                      // for `device_count`: the most units one plan may use
};

// One change to a request that ranks nothing, and the plan the search then ranks first;
// when it ranks none either, the plan that came nearest to fitting (`fits` false).
struct WayOut {
  FitChangeKind change = FitChangeKind::more_devices;
  Workload workload;  // the request with the change (its precision the plan's)
  RankedPlan plan;
  bool fits = true;
};

struct Report {
  Workload workload;  // includes the model shape
  Objective objective = Objective::cost;
  CostSettings cost;  // what the plans were costed with
  int max_devices = 0;
  // The run-time limit applied when the workload has no deadline; absent with a deadline.
  std::optional<Seconds> run_time_limit;
  std::vector<RankedPlan> recommendations;  // best first, one per offering
  std::vector<Rejection> rejected;          // ordered by reason, then offering id
  // Hardware to buy that meets the constraints (--include-purchase), one plan per offering,
  // ordered as the recommendations are; never among the recommendations.
  std::vector<PurchasePlan> purchases;
  bool purchases_weighed = false;               // RecommendSettings::include_purchase: `purchases` was asked for
  std::size_t plans_evaluated = 0;              // estimated
  std::size_t plans_pruned = 0;                 // skipped unestimated: dominated (RecommendSettings::prune)
  std::optional<PlanEstimate> fastest_fitting;  // over every offering, before deadline and budget
  // `set` rules that chose a default, then the rules that fired (prefer, penalize, advise)
  // on the first RecommendSettings::advice_from recommendations, once per rule, in rank
  // order; messages of the first plan each fired on.
  std::vector<RuleMessage> advice;
  // When nothing is ranked (RecommendSettings::ways_out): the request with one change each,
  // searched again, and the plan each search ranks first (docs/methodology.md#ways-out).
  std::vector<WayOut> ways_out;
};

}  // namespace mlsize
