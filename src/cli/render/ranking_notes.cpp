// What the ranking decided beside the objective, in lines under the table: the offering's
// other plans, ties, host-shape variants, the on-demand limit, Arm hosts, spot and spares.

#include "cli/render/ranking_notes.hpp"

#include "cli/render/format.hpp"

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

// What a plan on more devices than the provider gives on demand takes (OnDemandLimit).
std::string on_demand_takes(const Offering& offering) {
  if (!offering.terms->on_demand_limit.beyond.empty()) return offering.terms->on_demand_limit.beyond;
  return fmt::format("a reservation, capacity block or quota request ({} states no limit; {} devices assumed)",
                     offering.provider, k_default_on_demand_devices);
}

// Whether `e`'s run fits its provider's reservations, as a sentence (reservations_covering);
// empty when the provider names none.
std::string channel_verdict(const RankedPlan& e, bool service) {
  const std::optional<std::vector<std::string>> covering = reservations_covering(e, service);
  if (!covering) return {};
  const Offering& offering = *e.plan.offering;
  const int machines = e.plan.units * machines_per_unit(offering);
  const std::string size =
      fmt::format("{} machine{} ({} devices){}", machines, machines == 1 ? "" : "s", e.plan.device_count,
                  service ? "" : fmt::format(" for {} days", std::ceil(e.time.value / 86400.0)));
  if (!covering->empty()) return fmt::format(" Its {} fit {}.", size, covering->front());
  std::string bounds;
  for (const ReservationChannel& c : offering.terms->on_demand_limit.channels) {
    std::vector<std::string> limits;
    if (c.max_machines) limits.push_back(fmt::format("at most {} machines", *c.max_machines));
    if (c.min_devices) limits.push_back(fmt::format("{} to {} devices", *c.min_devices, c.max_devices.value_or(0)));
    if (c.max_days && !service) limits.push_back(fmt::format("at most {} days", format_general(*c.max_days)));
    bounds += (bounds.empty() ? "" : "; ") + c.name + (limits.empty() ? "" : ": " + join(limits, ", "));
  }
  return fmt::format(" Its {} fit none of the reservations named ({}): a quota request, or a plan on fewer machines.",
                     size, bounds);
}

// Another plan of #1's offering, in a few words: "8 devices (1 unit), 3.4 d, $4,300".
std::string other_plan_words(const PlanEstimate& e, Task task) {
  return fmt::format("{} ({} unit{}, {}), {}, {}", describe_strategy(e.plan.strategy, e.plan.device_count, task),
                     e.plan.units, e.plan.units == 1 ? "" : "s",
                     fmt::format("{} device{}", e.plan.device_count, e.plan.device_count == 1 ? "" : "s"),
                     format_duration(e.time), format_usd(*e.cost));
}

// "#1, #3 and #5": the rows a grouped note is about.
std::string rows_text(const std::vector<std::size_t>& rows) {
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == rows.size() ? " and " : ", ") + fmt::format("#{}", rows[i] + 1);
  }
  return text;
}

// The shown rows for which `applies` holds.
template <class Applies>
std::vector<std::size_t> rows_where(const Report& report, std::size_t shown, Applies applies) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < shown; ++i) {
    if (applies(report.recommendations[i])) rows.push_back(i);
  }
  return rows;
}

// The shown recommendations that other offerings repeat (RankedPlan::variants): each with
// its offerings when `full`, else one line naming the rows (issue 51: a line per kind).
std::string variant_notes(const Report& report, std::size_t shown, bool full) {
  const std::vector<std::size_t> rows =
      rows_where(report, shown, [](const RankedPlan& e) { return !e.variants.empty(); });
  if (rows.empty()) return {};
  if (!full) {
    return fmt::format("{} {} also offered on other host shapes, the same plan{} (--verbose names them).\n",
                       rows_text(rows), rows.size() == 1 ? "is" : "are", rows.size() == 1 ? "" : "s");
  }
  std::string text;
  for (std::size_t i : rows) {
    std::vector<std::string> ids;
    for (const Offering* offering : report.recommendations[i].variants) ids.push_back(offering->id);
    text += fmt::format("#{} is also offered as {} (the same plan on another host shape).\n", i + 1, join(ids, ", "));
  }
  return text;
}

}  // namespace

std::optional<std::vector<std::string>> reservations_covering(const RankedPlan& e, bool service) {
  if (e.plan.offering == nullptr || e.plan.offering->terms->on_demand_limit.channels.empty()) return std::nullopt;
  const Offering& offering = *e.plan.offering;
  const int machines = e.plan.units * machines_per_unit(offering);
  const double days = service ? 0.0 : std::ceil(e.time.value / 86400.0);
  std::vector<std::string> covering;
  for (const ReservationChannel& c : offering.terms->on_demand_limit.channels) {
    if (c.covers(machines, e.plan.device_count, days)) covering.push_back(c.name);
  }
  return covering;
}

std::string rejected_summary(const Report& report, bool full) {
  if (report.rejected.empty()) return {};
  std::map<RejectionReason, std::vector<std::string>> by_reason;
  for (const Rejection& rejection : report.rejected) by_reason[rejection.reason].push_back(rejection.offering->id);
  if (!full) {
    // The counts alone, the largest first (issue 51: a compact form; --verbose has an example each).
    std::vector<std::pair<std::size_t, RejectionReason>> counts;
    for (const auto& [reason, ids] : by_reason) counts.emplace_back(ids.size(), reason);
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> parts;
    for (const auto& [count, reason] : counts) parts.push_back(fmt::format("{} {}", count, to_string(reason)));
    return fmt::format("Rejected {} offerings: {} (--verbose: an example of each; --format json: every one).\n",
                       report.rejected.size(), join(parts, ", "));
  }
  std::string text = fmt::format("Rejected {} offerings:", report.rejected.size());
  for (const auto& [reason, ids] : by_reason) {
    text += fmt::format(" {} {}", ids.size(), to_string(reason));
    text += fmt::format(" (e.g. {})", ids.front());
    text += ";";
  }
  text.back() = '.';
  return text + " Reasons per offering: --format json.\n";
}

// What the ranking decided beyond the objective, said under the table: #1's offering's
// other plans, the tie-break, plans beyond the on-demand limit, spot interruptions.
std::string ranking_notes(const Report& report, int top, bool full) {
  if (report.recommendations.empty()) return {};
  std::string text;
  const RankedPlan& best = report.recommendations.front();
  const Task task = report.workload.task;
  const auto differs = [&](const std::shared_ptr<const PlanEstimate>& other) {
    return other && other->cost && other->plan.device_count != best.plan.device_count;
  };
  if (differs(best.smallest)) {
    text += "#1's offering on the fewest devices that meet the constraints: " + other_plan_words(*best.smallest, task) +
            ".\n";
  }
  if (differs(best.fastest) &&
      (!best.smallest || best.fastest->plan.device_count != best.smallest->plan.device_count)) {
    text += "#1's offering at its fastest within the constraints: " + other_plan_words(*best.fastest, task) + ".\n";
  }
  if (best.tie_with_next && report.objective != Objective::balanced) {
    text += report.objective == Objective::cost
                ? fmt::format(
                      "#1 and #2 cost within {} of each other (after the rules' factors): the tie went to "
                      "the plan easier to get and run (within the on-demand limit, on fewer machines, with no "
                      "commitment), then to the faster.\n",
                      format_percent(k_near_tie))
                : fmt::format("#1 and #2 are within {} of each other in time: the tie went to the cheaper.\n",
                              format_percent(k_near_tie));
  }
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  text += variant_notes(report, shown, full);
  // Vision plans the host's decoding bounds: the binding resource, and the way out.
  for (std::size_t i = 0; i < std::min(report.recommendations.size(), static_cast<std::size_t>(top)); ++i) {
    const RankedPlan& plan = report.recommendations[i];
    if (plan.vision && plan.vision->loader_bound()) {
      text +=
          fmt::format("#{} is data-loader bound: {}; {}.\n", i + 1, vision_throughput(*plan.vision), vision_way_out());
    }
  }
  const std::size_t shown_rows = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  // Marked only above a row that is shown (rank_cell).
  if (shown_rows > 1 &&
      std::any_of(report.recommendations.begin(),
                  report.recommendations.begin() + static_cast<std::ptrdiff_t>(shown_rows - 1),
                  [](const RankedPlan& e) { return e.ranked_by_tie_break; }) &&
      report.objective != Objective::balanced) {
    text += report.objective == Objective::cost
                ? fmt::format(
                      "~ ranked above the next row, which costs less by at most {}: within {} the plan easier to "
                      "get and run goes first (within the on-demand limit, on fewer machines, with no commitment), "
                      "then the faster.\n",
                      format_percent(k_near_tie), format_percent(k_near_tie))
                : fmt::format(
                      "~ ranked above the next row, which is quicker by at most {}: within {} the cheaper goes "
                      "first.\n",
                      format_percent(k_near_tie), format_percent(k_near_tie));
  }
  const std::vector<std::size_t> beyond =
      rows_where(report, shown, [](const RankedPlan& e) { return e.beyond_on_demand && e.plan.offering != nullptr; });
  if (!full && beyond.size() > 1) {
    text += fmt::format(
        "{} need more devices than their providers give on demand: a quota request or a reservation (--verbose says "
        "which).\n",
        rows_text(beyond));
  }
  for (std::size_t i : beyond) {
    if (!full && beyond.size() > 1) break;
    const RankedPlan& e = report.recommendations[i];
    text += fmt::format("#{} needs {} devices, more than {} gives on demand ({}): it takes {}.{}\n", i + 1,
                        e.plan.device_count, e.plan.offering->provider, *e.beyond_on_demand,
                        on_demand_takes(*e.plan.offering),
                        channel_verdict(e, e.serving.has_value() && !e.serving->offline));
  }
  // Where the rows run outside x86-64 and CUDA: one line per kind, naming the rows.
  const std::vector<std::size_t> arm = rows_where(report, shown, [](const RankedPlan& e) {
    return e.plan.device != nullptr && e.plan.device->host_arch == HostArch::arm64;
  });
  if (!arm.empty()) {
    text += fmt::format(
        "{} run{} on an Arm (aarch64) host: wheels and containers built for x86-64 do not run there; check that your "
        "framework, kernels and images have aarch64 builds.\n",
        rows_text(arm), arm.size() == 1 ? "s" : "");
  }
  const auto on_stack = [&](Stack stack) {
    return rows_where(report, shown, [&](const RankedPlan& e) {
      return e.plan.device != nullptr && report.workload.task != Task::gbdt && stack_of(*e.plan.device) == stack;
    });
  };
  if (const std::vector<std::size_t> rows = on_stack(Stack::neuron); !rows.empty()) {
    text += fmt::format(
        "{} run{} on AWS Neuron, not CUDA: {} through NeuronX Distributed (tensor, pipeline and ZeRO-1 layouts, "
        "ahead-of-time compilation with neuron_parallel_compile), not the CUDA launchers of --emit.\n",
        rows_text(rows), rows.size() == 1 ? "s" : "",
        report.workload.task == Task::inference ? "serving" : "training is ported to and runs");
  }
  if (const std::vector<std::size_t> rows = on_stack(Stack::xla); !rows.empty()) {
    text += fmt::format(
        "{} run{} on a TPU: JAX or PyTorch/XLA code (and XLA's compilation), not the CUDA launchers of --emit.\n",
        rows_text(rows), rows.size() == 1 ? "s" : "");
  }
  if (const std::vector<std::size_t> rows = on_stack(Stack::gaudi); !rows.empty()) {
    text +=
        fmt::format("{} run{} on Intel Gaudi: SynapseAI through optimum-habana, not the CUDA launchers of --emit.\n",
                    rows_text(rows), rows.size() == 1 ? "s" : "");
  }
  if (report.cost.pricing == Pricing::spot && best.preemption.value > 0 && best.plan.offering != nullptr) {
    const Offering& offering = *best.plan.offering;
    text += fmt::format(
        "Spot: times include the work expected to be lost to interruptions ({} per instance-hour at {}; a checkpoint "
        "every sqrt(2 × checkpoint time / interruption rate), Young 1974; each restart takes the setup time): #1 loses "
        "{} of its {}.\n",
        format_general(
            offering.terms->spot_interruptions.per_instance_hour.value_or(k_default_spot_interruptions_per_hour)),
        offering.provider, format_duration(best.preemption), format_duration(best.time));
  }
  return text;
}

// A fleet's spares and what spot means for a service.
std::string serving_notes(const Report& report) {
  if (report.recommendations.empty()) return {};
  const ServingLoad& load = *report.workload.serving;
  std::string text = load.redundancy > 0
                         ? fmt::format(
                               "Replicas: what the load needs on whole units, + {} spare unit{} "
                               "(--redundancy), so that losing a machine keeps the others within {} "
                               "utilisation.\n",
                               load.redundancy, load.redundancy == 1 ? "" : "s", format_percent(load.utilisation))
                         : "Replicas: no spare (--redundancy 0): losing a machine overloads the others.\n";
  if (report.cost.pricing == Pricing::spot) {
    text +=
        "warning: a spot fleet can lose every replica at once when the provider takes its capacity back: keep at least "
        "one replica on demand for a service that must stay up.\n";
  }
  return text;
}

}  // namespace mlsize::cli
