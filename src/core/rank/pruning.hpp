#pragma once
// Which plans of one offering the planner may skip unestimated: those a plan it has
// estimated dominates, and those of a training layout none of whose plans can fit. The
// report is what estimating every plan gives (docs/methodology.md#pruning; a test
// compares). Valid only while every plan of a layout gets the same rule verdict, and no
// rule drops a plan.

#include <mlsize/estimate/planner.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/rules/rule_judge.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace mlsize::pruning {

// Training plans a fitting plan of the same layout dominates. In the time model, more
// recomputation never makes a plan faster (the FLOPs it adds are at least the
// communication they hide), and neither does ZeRO-1 over DDP or ZeRO-2 over ZeRO-1 at the
// same micro-batch (each sends what the lower stage sends, and more, hiding no more of
// it), nor a larger micro-batch once the workload's hides all the micro-steps'
// communication (nothing is left to hide, and the tensor-parallel collectives never
// shrink); the cost follows the time, and ties rank the lower stage and less
// recomputation first, and the workload's micro-batch before larger ones. So once a plan
// fits, those variants can neither rank above it nor be nearer a limit. Offload plans (after
// the others of their layout) are weighed only against their own group, by recomputation:
// a larger micro-batch shortens their transfers, so no other order holds for them (Slowness
// prunes them once a plan on the devices alone is faster than their host's optimizer steps).
class Dominance {
 public:
  // Whether a plan already seen dominates `plan`; a dominated plan counts as fitting for
  // the plans after it, which its dominator dominates too.
  bool dominated(const Plan& plan);
  // Records that `plan` fits, and whether its micro-steps' communication is all hidden
  // (Communication::micro_steps_hidden).
  void fits(const Plan& plan, bool micro_steps_hidden);
  // Offload plans: memory grows with the micro-batch and nothing else changes with it, so
  // once one does not fit its devices, neither does any larger micro-batch of its group and
  // recomputation (none can be nearer fitting either). `micro_batch`: the plan's own.
  void too_big(const Plan& plan, int micro_batch);
  bool larger_than_too_big(const Plan& plan, int micro_batch) const;

 private:
  int m_devices = 0;
  int m_tensor = 0;
  int m_pipeline = 0;
  // At the workload's micro-batch: by ZeRO stage and Recompute, whether a plan fits.
  std::array<std::array<bool, 3>, 4> m_fits{};
  // By ZeRO stage: the least recomputation at which a plan at the workload's micro-batch
  // fits and hides its micro-steps' communication.
  std::array<std::optional<std::size_t>, 4> m_hidden{};
  // The plans of one stage and micro-batch: whether one with less recomputation fits.
  int m_group_micro_batch = -1;
  int m_group_stage = -1;
  int m_group_shard = -1;
  Offload m_group_offload = Offload::none;
  bool m_group_fits = false;
  // Offload plans, by offload, ZeRO stage and Recompute: the least micro-batch that did not
  // fit its devices (0: none yet).
  std::array<std::array<std::array<int, 3>, 4>, 3> m_too_big{};
};

// Serving plans an earlier one dominates. A serving plan's memory depends on its tensor
// degree only (the other devices are replicas), so a degree that does not fit at one unit
// count fits at none; and once a degree's plan fits with replicas idle (busy_replicas),
// more units add only idle replicas: the same time for more cost, and ties go to fewer
// devices.
class ServingDominance {
 public:
  bool dominated(const Plan& plan) const { return m_done[slot(plan)]; }
  // After estimating `plan`: whether it fits, and (fitting) whether replicas idle.
  void estimated(const Plan& plan, bool fits, bool idle);

 private:
  static constexpr std::size_t k_degrees = 16;
  static std::size_t slot(const Plan& plan);
  std::array<bool, k_degrees> m_done{};  // by log2 of the tensor or expert degree (slot)
};

// Training plans the fastest fitting plan of their device count dominates: those whose
// least time (PlanEstimator::least_time: their compute, all communication hidden) is
// already beyond its time. At one device count the cost follows the time, so such a plan
// is slower and no cheaper, and can neither rank above the fastest nor be nearer a limit.
// On a tie the ranking's tie-break decides (compare_plans: the lower ZeRO stage and less
// recomputation first), and under the balanced objective always, since a span of times
// of zero makes its score blind to time.
// Rules may score layouts apart (a penalty on tensor-parallel layouts): the objective is
// then cost or time over the score, so a plan is dominated only by one with a score at
// least its own (a slower plan with a higher score may rank first), and tied only by one
// with its own score. The fastest is kept by score.
class Slowness {
 public:
  explicit Slowness(Objective objective) : m_objective(objective) {}
  // Whether a plan at `plan`'s device count may be dominated: a fitting plan is known there.
  bool may_dominate(const Plan& plan);
  // The rule score of the plans to come (those of one layout), until said again.
  void score(double score) { m_score = score; }
  // Whether `plan`, whose least time (PlanEstimator::least_time) is `least_time`, is dominated.
  bool dominated(const Plan& plan, const std::optional<Seconds>& least_time) const;
  // Records a fitting plan that was estimated.
  void fits(const Plan& plan, Seconds time);
  // Whether a least time is beyond the fastest fitting plan's time with a score at least
  // the plans' (after may_dominate).
  bool beyond_fastest(Seconds least_time) const;
  Objective objective() const { return m_objective; }

 private:
  using Rank = std::tuple<int, int, int>;  // offload, ZeRO stage and recomputation, as compare_plans ties them
  static Rank rank(const Plan& plan);
  void enter(int device_count);

  // The fastest fitting plan of one rule score at m_devices.
  struct Fastest {
    double score = 1.0;
    double time = 0;
    Rank rank;
  };
  // A few scores at most (each open rule's factor holds or not); a plan of a score beyond
  // these is not recorded, which only prunes less.
  static constexpr std::size_t k_scores = 4;

  Objective m_objective;
  double m_score = 1.0;
  int m_devices = 0;
  std::array<Fastest, k_scores> m_fastest{};
  std::size_t m_scores = 0;  // those of m_fastest recorded at m_devices
};

// The plans of one offering, in candidate_plans' order (by unit count, then layout, then
// stage, micro-batch and recomputation), as the planner goes through them.
class Pruner {
 public:
  // `plans` and `estimator` must outlive the pruner; `recompute`: the one a `set` rule
  // decided (plans with another are not searched); `objective`: the ranking's.
  // `least_times`: by plan, what is known of their least times across offerings of one
  // shape (NaN: not yet, negative: none), filled as they are needed; empty: none kept.
  // `layout_judge`: where rules score layouts apart (RuleJudge::scales_only_by the
  // k_layout_fields), the judge of the offering's plans and its field values, which the
  // pruner's layouts overwrite; null: every plan gets the same verdict.
  Pruner(const std::vector<Plan>& plans, PlanEstimator& estimator, const std::optional<Recompute>& recompute,
         const Workload& workload, Objective objective, std::span<double> least_times = {},
         const RuleJudge* layout_judge = nullptr, FieldValues* values = nullptr);

  // Before estimating plans[i] (a searched one): whether to skip it.
  bool skips(std::size_t i);
  // After estimating plans[i]: what it tells of the plans after it.
  void estimated(std::size_t i, const PlanEstimate& estimate);
  // Whether a whole layout was skipped for memory: when nothing of the offering fits, the
  // plan nearest to fitting is then to be found from every plan's memory.
  bool skipped_a_layout() const { return m_skipped_layout; }

 private:
  // Training layouts whose first plan does not fit are checked for any plan that can
  // (layout_can_fit); the rest of one that cannot is skipped.
  enum class Layout { unknown, fits, too_big };
  bool layout_can_fit(std::size_t first) const;
  // On the first plan of a layout: forgets the layout before, and tells whether to skip the
  // whole layout (layout_too_slow). Out of line, so that skips() stays inline.
  bool enter_layout(std::size_t first);
  // Whether every plan of the layout starting at `first` is slower than the fastest fitting
  // plan of its device count (Slowness), by a bound on their least times.
  bool layout_too_slow(std::size_t first);
  std::optional<Seconds> least_time(std::size_t i);
  int micro_batch_of(const Plan& plan) const {
    return plan.strategy.micro_batch > 0 ? plan.strategy.micro_batch : m_workload.micro_batch;
  }

  const std::vector<Plan>& m_plans;
  PlanEstimator& m_estimator;
  std::span<double> m_least_times;
  std::optional<Recompute> m_recompute;
  const Workload& m_workload;
  bool m_serving;
  Dominance m_dominance;
  Slowness m_slowness;
  ServingDominance m_serving_dominance;
  const RuleJudge* m_layout_judge;
  FieldValues* m_values;
  std::optional<std::size_t> m_layout_start;  // the first plan of the layout in hand
  Layout m_layout = Layout::unknown;
  // The layout in hand's least time by recomputation, for its plans that offload nothing
  // (NaN: not yet, negative: none): theirs depends on nothing else (PlanEstimator::least_time),
  // and a layout's ZeRO stages and micro-batches would each compute it again.
  std::array<double, 3> m_layout_least_times{};
  // The end of a layout skipped whole for its slowness (layout_too_slow): the plans before it
  // are skipped.
  std::size_t m_slow_until = 0;
  // By t and p (log2, capped): whether a layout of theirs at a smaller device count can fit.
  std::array<std::array<bool, 16>, 16> m_fits_from_here{};
  bool m_skipped_layout = false;
};

// Inline: called for every plan of the search.

inline bool same_layout(const Plan& a, const Plan& b) {
  return a.device_count == b.device_count && a.strategy.tensor_parallel == b.strategy.tensor_parallel &&
         a.strategy.pipeline_parallel == b.strategy.pipeline_parallel;
}

inline bool Dominance::dominated(const Plan& plan) {
  const Strategy& st = plan.strategy;
  if (plan.device_count != m_devices || st.tensor_parallel != m_tensor || st.pipeline_parallel != m_pipeline) {
    m_devices = plan.device_count;
    m_tensor = st.tensor_parallel;
    m_pipeline = st.pipeline_parallel;
    m_fits = {};
    m_hidden = {};
    m_too_big = {};
    m_group_micro_batch = -1;
    m_group_shard = -1;
  }
  // HSDP plans (a shard group) are a group of their own: the orders below compare plans of
  // one sharding.
  if (st.micro_batch != m_group_micro_batch || st.zero_stage != m_group_stage || st.shard_group != m_group_shard ||
      st.offload != m_group_offload) {
    m_group_micro_batch = st.micro_batch;
    m_group_stage = st.zero_stage;
    m_group_shard = st.shard_group;
    m_group_offload = st.offload;
    m_group_fits = false;
  }
  const auto recompute = static_cast<std::size_t>(st.recompute);
  const auto stage = static_cast<std::size_t>(st.zero_stage);
  bool dominated = m_group_fits;  // the same stage and micro-batch, less recomputation
  if (st.offload != Offload::none) {
    if (dominated) fits(plan, false);
    return dominated;
  }
  // A larger micro-batch than one that fits and hides its micro-steps, with as much
  // recomputation or more.
  if (st.micro_batch > 0 && st.shard_group == 0 && m_hidden[stage] && *m_hidden[stage] <= recompute) dominated = true;
  // ZeRO-1 and -2 at the workload's micro-batch: a lower stage that fits, with as much
  // recomputation or less.
  if (st.micro_batch == 0 && st.zero_stage <= 2) {
    for (std::size_t lower = 0; lower < stage && !dominated; ++lower) {
      for (std::size_t r = 0; r <= recompute && !dominated; ++r) dominated = m_fits[lower][r];
    }
  }
  if (dominated) fits(plan, false);
  return dominated;
}

inline void Dominance::fits(const Plan& plan, bool micro_steps_hidden) {
  m_group_fits = true;
  // m_fits and m_hidden order the plans sharded over all data-parallel ranks; HSDP's
  // micro-steps never hide (their first gather and the copies show), and it is never a
  // lower stage.
  if (plan.strategy.micro_batch != 0 || plan.strategy.shard_group != 0 || plan.strategy.offload != Offload::none)
    return;
  const auto stage = static_cast<std::size_t>(plan.strategy.zero_stage);
  const auto recompute = static_cast<std::size_t>(plan.strategy.recompute);
  m_fits[stage][recompute] = true;
  if (micro_steps_hidden && (!m_hidden[stage] || recompute < *m_hidden[stage])) m_hidden[stage] = recompute;
}

inline bool Dominance::larger_than_too_big(const Plan& plan, int micro_batch) const {
  const Strategy& st = plan.strategy;
  // Another layout's record says nothing (dominated() resets it on entering one).
  if (st.offload == Offload::none || plan.device_count != m_devices || st.tensor_parallel != m_tensor ||
      st.pipeline_parallel != m_pipeline) {
    return false;
  }
  const int least = m_too_big[static_cast<std::size_t>(st.offload)][static_cast<std::size_t>(st.zero_stage)]
                             [static_cast<std::size_t>(st.recompute)];
  return least > 0 && micro_batch > least;
}

// Always inlined: the planner calls it for every plan it searches (46,080 times for the main
// job), and GCC 12's growth limit for ranker.cpp as a whole (inline-unit-growth) had left it
// a call, 0.8 M instructions more.
[[gnu::always_inline]] inline bool Pruner::skips(std::size_t i) {
  const Plan& plan = m_plans[i];
  if (m_serving) return m_serving_dominance.dominated(plan);
  if (i < m_slow_until) return true;
  if ((!m_layout_start || !same_layout(plan, m_plans[*m_layout_start])) && enter_layout(i)) return true;
  if (m_layout == Layout::too_big) {
    m_skipped_layout = true;
    return true;
  }
  if (m_dominance.larger_than_too_big(plan, micro_batch_of(plan))) return true;
  if (m_dominance.dominated(plan)) return true;
  return m_slowness.may_dominate(plan) && m_slowness.dominated(plan, least_time(i));
}

}  // namespace mlsize::pruning
