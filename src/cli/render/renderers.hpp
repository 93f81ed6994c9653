#pragma once
// Renderers: pure functions from results to the text written on stdout.

#include "cli/render/provenance.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/fit_changes.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/rules/rules.hpp>

#include <cmath>
#include <optional>
#include <string>

namespace mlsize::cli {

// The one plan of `mlsize estimate` with the constraints it was checked against.
struct EstimateResult {
  Workload workload;
  PlanEstimate estimate;               // without a device: memory and FLOPs only
  Explanation explanation;             // filled with --explain
  std::optional<bool> meets_deadline;  // absent without --deadline
  std::optional<bool> within_budget;   // absent without --budget or without a price
  // Inference on a device, without a load to serve: one decode step at --batch and
  // --context (docs/methodology.md#serving).
  std::optional<DecodeStep> decode;
  // A plan on a device that does not fit: the single changes that would, each estimated
  // (ways_to_fit).
  std::vector<FitChange> fit_changes;
  // An offload plan at the workload's micro-batch: a larger one that fits and is faster
  // (faster_offload_micro_batch).
  std::optional<PlanEstimate> faster_micro_batch;
  Provenance provenance;  // the version and catalogue behind the answer
  bool has_device() const { return estimate.plan.device != nullptr; }
  // Time and cost need a device and a number of tokens (--data or --tokens).
  bool timed() const { return has_device() && workload.tokens > 0; }
  bool feasible() const {
    // An infinite time: on spot, interruptions outrun the checkpoints (docs/methodology.md#spot).
    return (!has_device() || estimate.fits) && estimate.host_fits.value_or(true) && meets_deadline.value_or(true) &&
           within_budget.value_or(true) && std::isfinite(estimate.time.value) && serves();
  }
  // A served load: its replicas carry it, within the latency targets, prompts not queueing
  // without end (an offline job and sizing are timed as runs).
  bool serves() const {
    if (!estimate.serving || estimate.serving->offline) return true;
    const ServingEstimate& s = *estimate.serving;
    return !s.miss && s.utilisation <= 1 + 1e-9 && std::isfinite(s.tail.ttft.value);
  }
};

// "Workload: ...\nModel shape: ...\n": what the reports say first about the workload.
std::string workload_line(const Workload& workload);

// "8× A100 80GB ... is the cheapest plan that fits: ..." (or why nothing fits).
std::string summary_sentence(const Report& report);

std::string render_recommend_table(const Report& report, int top, const Provenance& provenance,
                                   const TableStyle& style);
std::string render_recommend_json(const Report& report, int top, const Provenance& provenance);
std::string render_estimate_table(const EstimateResult& result, const TableStyle& style);
// What the estimate table says under its memory terms: whether it fits (and what would
// make it), compute, time, cost; the HTML page says the same.
std::string estimate_findings(const EstimateResult& result);

// `explain`: the rules in force, what fired on each shown recommendation (the top ones,
// or only `offering`), and the offerings rules excluded.
std::string render_explain_table(const Report& report, const RuleSet& rules, const std::optional<std::string>& offering,
                                 int top, const TableStyle& style);
std::string render_explain_json(const Report& report, const RuleSet& rules, const std::optional<std::string>& offering,
                                int top, const Provenance& provenance);
std::string render_estimate_json(const EstimateResult& result);

// --format html: one self-contained page (inline CSS and SVG, no script, no link out) with
// the table, a time-cost chart of the ranked plans and the memory of the top ones
// (render_html.cpp, charts in render_svg.cpp).
// `next`: the command that shows #1 in full (training and batch runs), or empty.
std::string render_recommend_html(const Report& report, int top, const Provenance& provenance, const std::string& next);
std::string render_estimate_html(const EstimateResult& result);

}  // namespace mlsize::cli
