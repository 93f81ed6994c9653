#include "cli/render/format.hpp"
#include "cli/render/price_note.hpp"
#include "cli/render/ranking_notes.hpp"
#include "cli/render/render_serving.hpp"
#include "cli/render/renderers.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <span>
#include <vector>

namespace mlsize::cli {

namespace {

// Plans shown, at most, when none is within the budget.
constexpr std::size_t k_nearest_over_budget = 5;

// The offerings rejected for the budget alone, cheapest first (by the cash the budget is
// checked against).
std::vector<const Rejection*> over_budget(const Report& report) {
  std::vector<const Rejection*> over;
  for (const Rejection& rejection : report.rejected) {
    if (rejection.reason == RejectionReason::budget && rejection.nearest && rejection.nearest->cost) {
      over.push_back(&rejection);
    }
  }
  const auto cash = [](const Rejection* r) { return budget_cash(*r->nearest).value; };
  std::stable_sort(over.begin(), over.end(), [&](const Rejection* a, const Rejection* b) { return cash(a) < cash(b); });
  // One row per plan: another host shape of the same provider's plan is the same choice.
  const auto same = [](const Rejection* a, const Rejection* b) {
    const PlanEstimate& x = *a->nearest;
    const PlanEstimate& y = *b->nearest;
    return a->offering->provider == b->offering->provider && x.plan.device == y.plan.device &&
           x.plan.device_count == y.plan.device_count && x.time.value == y.time.value;
  };
  std::vector<const Rejection*> distinct;
  for (const Rejection* r : over) {
    if (std::none_of(distinct.begin(), distinct.end(), [&](const Rejection* d) { return same(d, r); })) {
      distinct.push_back(r);
    }
  }
  return distinct;
}

// Why nothing is ranked: the fastest plan that fits and the limit it is over, if any.
std::string no_plan_sentence(const Report& report, std::string_view none) {
  if (report.workload.serving) {
    if (std::string text = no_serving_sentence(report, none); !text.empty()) return text;
  }
  // The fastest plan that fits, and the time limit it is over.
  const auto over = [&](Seconds limit, std::string_view what) {
    const PlanEstimate& fastest = *report.fastest_fitting;
    return fmt::format("{} meets the constraints. The fastest plan that fits is {} with {}: {}, over the {} {}.", none,
                       describe_hardware(fastest.plan),
                       describe_strategy(fastest.plan.strategy, fastest.plan.device_count, report.workload.task),
                       format_duration(fastest.time), format_duration(limit), what);
  };
  // Only when it is over: a plan within the deadline may have been rejected for the budget.
  if (report.fastest_fitting && report.workload.deadline && report.fastest_fitting->time > *report.workload.deadline) {
    return over(*report.workload.deadline, "deadline");
  }
  if (report.fastest_fitting && report.run_time_limit && report.fastest_fitting->time > *report.run_time_limit) {
    return over(*report.run_time_limit, "run-time limit (--max-run-time allows longer runs)");
  }
  if (!report.fastest_fitting) {
    // Every offering left is hardware to buy: memory was never the question.
    const auto to_buy = [](const Rejection& r) {
      return r.reason == RejectionReason::purchase || r.reason == RejectionReason::cards_only;
    };
    if (!report.rejected.empty() && std::all_of(report.rejected.begin(), report.rejected.end(), to_buy)) {
      return fmt::format(
          "{} is left to rent: the offerings of this hardware are to buy ({}). --owned ID ranks one you have at its "
          "electricity; --include-purchase weighs buying one.",
          none, report.rejected.front().offering->id);
    }
    const std::optional<RankedPlan> nearest = nearest_to_fitting(report);
    if (!nearest) {
      return std::string(none) + " fits in memory on the offerings considered (rejected ones and why: --format json).";
    }
    const PlanEstimate& e = *nearest;
    const std::string plan = fmt::format("{} with {}", describe_hardware(e.plan),
                                         describe_strategy(e.plan.strategy, e.plan.device_count, report.workload.task));
    if (e.fits) {
      // It fits its devices: the host's RAM is short.
      const Offering& offering = *e.plan.offering;
      return fmt::format(
          "{} fits on the offerings considered: the nearest, {}, offloads {} GB to a host with {} GB usable of {} GB "
          "(rejected ones and why: --format json).",
          none, plan, format_gb(offloaded_per_unit(e.plan, e.memory)),
          format_gb(*offering.host_memory * (1 - report.workload.memory_headroom)), format_gb(*offering.host_memory));
    }
    return fmt::format(
        "{} fits in memory on the offerings considered: the nearest, {}, needs {} GB per device of {} GB usable{} "
        "(rejected ones and why: --format json).",
        none, plan, format_gb(e.memory.total()), format_gb(e.usable), unplanned_offload_note(e.plan, report.workload));
  }
  if (const std::vector<const Rejection*> nearest = over_budget(report); !nearest.empty() && report.workload.budget) {
    const PlanEstimate& cheapest = *nearest.front()->nearest;
    const Usd cash = budget_cash(cheapest);
    std::string ways = report.workload.is_adapter_tuning() || report.workload.task == Task::inference
                           ? "a smaller model or fewer tokens"
                           : "fine-tuning with LoRA or QLoRA (--task lora, qlora) instead of full training, fewer "
                             "tokens, or a smaller model";
    if (report.cost.pricing == Pricing::on_demand) ways = "spot capacity (--pricing spot), " + ways;
    return fmt::format(
        "{} meets the constraints: the budget is {}, and the cheapest plan that meets the others is {} with {}: {} "
        "over {}. A budget of {} would do, or {} (the nearest plans are below).",
        none, format_usd(*report.workload.budget), describe_hardware(cheapest.plan),
        describe_strategy(cheapest.plan.strategy, cheapest.plan.device_count, report.workload.task), format_usd(cash),
        format_duration(cheapest.time), format_usd(cash), ways);
  }
  return std::string(none) + " meets the constraints.";
}

// The rules' messages: warnings in full; the rest in full with --verbose, else their rule ids
// and rows on a line (issue 51: the table and the answer on one screen).
std::string advice_text(const Report& report, bool full) {
  if (report.advice.empty()) return {};
  std::string text = "\nRules that shaped this ranking, and advice (--format json for sources):\n";
  std::vector<std::string> brief;
  for (const RuleMessage& note : report.advice) {
    const std::string rank = note.rank ? fmt::format("#{}: ", *note.rank) : "";
    if (!full && note.rule->severity != Severity::warn) {
      brief.push_back(fmt::format("{}[{}]", rank, note.rule->id));
      continue;
    }
    text += fmt::format("  [{}] {}{}{}\n", note.rule->id, rank,
                        note.rule->severity == Severity::warn ? "warning: " : "", note.message);
  }
  if (!brief.empty()) text += fmt::format("  advice (--verbose says it): {}\n", join(brief, ", "));
  return text;
}

// What an offload plan asks of its host (docs/methodology.md#offload-in-the-search).
std::string offload_sentence(const PlanEstimate& e, const Workload& workload) {
  if (e.plan.strategy.offload == Offload::none || !e.host_fits || e.plan.offering == nullptr) return {};
  const Offering& offering = *e.plan.offering;
  return fmt::format(
      " It offloads {} GB of {} to each unit's host RAM ({} GB usable of {} GB), whose optimizer steps and "
      "transfers add {}.",
      format_gb(offloaded_per_unit(e.plan, e.memory)),
      e.plan.strategy.offload == Offload::optimizer ? "optimizer states" : "optimizer states and weights",
      format_gb(*offering.host_memory * (1 - workload.memory_headroom)), format_gb(*offering.host_memory),
      format_duration(e.communication.offload));
}

// Gradient-boosted trees on XGBoost's external memory: where the cache is and what streaming
// it costs (docs/methodology.md#gbdt-external-memory).
std::string external_memory_sentence(const PlanEstimate& e, const Workload& workload) {
  if (!e.gbdt || !e.gbdt->extmem) return {};
  const ExtMemCache& cache = *e.gbdt->extmem;
  return fmt::format(
      " It runs XGBoost's external memory (ExtMemQuantileDMatrix fed by a DataIter of yours; experimental in "
      "XGBoost 3): {} GB of the quantised "
      "cache in host RAM, streamed over {} at {} GB/s {} times a tree ({} in all, {} the compute), {} GB on the "
      "GPU.",
      format_gb(Bytes(cache.on_host)), e.plan.strategy.trees_extmem_c2c ? "NVLink-C2C" : "PCIe",
      format_general(e.gbdt->link_bytes_per_s / 1e9, 3),
      format_general(gbdt_extmem_passes_per_tree(workload.max_depth), 3), format_duration(e.gbdt->transfer),
      e.gbdt->transfer > e.gbdt->compute() ? "longer than" : "hidden under", format_gb(Bytes(cache.on_device)));
}

}  // namespace

std::string summary_sentence(const Report& report) {
  if (report.workload.diffusion && report.workload.serves_a_fleet() && !report.recommendations.empty()) {
    // An image-generation fleet (docs/methodology.md#diffusion-serving).
    const RankedPlan& best = report.recommendations.front();
    return fmt::format(
        "{} is the {} fleet that serves {} images a second: {} an hour, {} per 1,000 images, {} an "
        "image ({} of {} offerings have a plan that meets the constraints).",
        describe_hardware(best.plan), report.objective == Objective::time ? "fastest" : "cheapest",
        format_general(report.workload.diffusion->images_per_s), format_usd(*best.cost),
        best.diffusion->per_1000_images ? format_usd(*best.diffusion->per_1000_images) : "-",
        format_latency(best.diffusion->batch.latency()), report.recommendations.size(), offering_count(report));
  }
  const bool offline = report.workload.serving && report.workload.serving->offline();
  if (!report.recommendations.empty() && report.recommendations.front().serving && !offline) {
    return serving_summary(report);
  }
  if (report.recommendations.empty()) {
    // Purchases are not in the ranking; when some meet the constraints, say where they are.
    std::string to_buy;
    if (!report.purchases.empty()) {
      const std::size_t n = report.purchases.size();
      to_buy = fmt::format(" {} plan{} to buy meet{} the constraints: see \"To buy\".", n, n == 1 ? "" : "s",
                           n == 1 ? "s" : "");
    }
    return no_plan_sentence(report, report.purchases_weighed ? "No rental or owned plan" : "No plan") + to_buy;
  }

  const RankedPlan& best = report.recommendations.front();
  // Rules scale the objective: a preferred plan can rank first without being the cheapest
  // or the fastest. Say so, rather than claim what is not true.
  // Whether #1's figure is the best, up to a factor `slack` (1 + k_near_tie: within a
  // near-tie of the best, where the other axis ranked it first).
  const auto beats = [&](auto figure, double slack) {
    return std::all_of(report.recommendations.begin(), report.recommendations.end(),
                       [&](const RankedPlan& other) { return figure(best) <= figure(other) * slack; });
  };
  const auto cost = [](const RankedPlan& e) { return e.cost->value; };
  const auto time = [](const RankedPlan& e) { return e.time.value; };
  const bool cheapest = beats(cost, 1.0);
  const bool fastest = beats(time, 1.0);
  const bool near_cheapest = beats(cost, 1 + k_near_tie);
  const bool near_fastest = beats(time, 1 + k_near_tie);
  const std::string tie = format_percent(k_near_tie);
  std::string role;
  switch (report.objective) {
    case Objective::cost:
      role = cheapest        ? "the cheapest plan that fits"
             : near_cheapest ? "within " + tie + " of the cheapest and first by the tie-break"
                             : "first by cost after the rules";
      break;
    case Objective::time:
      role = fastest        ? "the fastest plan that fits"
             : near_fastest ? "the cheapest plan within " + tie + " of the fastest"
                            : "first by time after the rules";
      break;
    case Objective::balanced: role = "the best balance of cost and time"; break;
  }
  std::string text = fmt::format("{} is {}: {} over {}", describe_hardware(best.plan), role, format_usd(*best.cost),
                                 format_duration(best.time));
  const Offering* offering = best.plan.offering;
  if (offering != nullptr && offering->kind == OfferingKind::on_prem) {
    text += " (owned: its electricity)";
  }
  if (report.recommendations.size() > 1) {
    const PlanEstimate& next = report.recommendations[1];
    // A ratio that rounds to 1.0 says nothing: below 5% apart, #2's figures say more.
    constexpr double k_telling_ratio = 1.05;
    if (report.objective == Objective::time && fastest && next.time / best.time >= k_telling_ratio) {
      text += fmt::format(", {}× faster than #2", format_fixed(next.time / best.time, 1));
    } else if (report.objective == Objective::cost && cheapest && best.cost->value > 0 &&
               *next.cost / *best.cost >= k_telling_ratio) {
      text += fmt::format(", {}× cheaper than #2", format_fixed(*next.cost / *best.cost, 1));
    } else {
      // The knee, or a plan the rules lifted: neither claim need hold, so give #2's figures.
      text += fmt::format("; #2 costs {} over {}", format_usd(*next.cost), format_duration(next.time));
    }
  }
  if (offline) {
    const ServingEstimate& s = *best.serving;
    text += fmt::format("; {}, {} output tokens/s, {} per million", fleet_text(best),
                        format_throughput(s.fleet_output_tokens_per_s), format_usd(s.per_million_output_tokens));
  }
  text += fmt::format(" ({} of {} offerings have a plan that meets the constraints).", report.recommendations.size(),
                      offering_count(report));
  return text + offload_sentence(best, report.workload) + external_memory_sentence(best, report.workload);
}

namespace {

// Nothing ranked: each way out with the flags that select it, and the plan it ranks first
// (docs/methodology.md#ways-out). `columns`: the ranking's, the first one the flags.
std::string ways_out_table(const Report& report, std::vector<TableColumn> columns, const TableStyle& style) {
  columns.front() = {"change", false};
  const std::vector<std::vector<std::string>> rows = ways_out_rows(report, style.wide);
  if (rows.empty()) return {};
  return "Ways out, one change each (the plan that ranks first with it, or the nearest to fitting):\n" +
         render_table(columns, rows, style) + "\n";
}

// A fleet generating images at a rate (docs/methodology.md#diffusion-serving): the replicas
// it needs and spares, a batch's latency, each replica's rate, $/hour and $ per 1,000 images.
std::string image_fleet_table(const Report& report, int top, const TableStyle& style) {
  const std::vector<TableColumn> columns{{"#", true},           {"hardware", false},   {"replicas", true},
                                         {"latency", true},     {"images/s", true, 2}, {"$/hour", true},
                                         {"$/1k images", true}, {"memory", true, 1}};
  std::vector<std::vector<std::string>> rows;
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  for (std::size_t i = 0; i < shown; ++i) {
    const RankedPlan& e = report.recommendations[i];
    const DiffusionRun& run = *e.diffusion;
    rows.push_back({rank_cell(i + 1, e, i + 1 < shown), hardware_cell(e.plan, style.wide, style.wide),
                    fmt::format("{}+{}", run.replicas_needed, std::max(0, run.replicas - run.replicas_needed)),
                    format_latency(run.batch.latency()), format_general(run.batch.images_per_s(), 3),
                    format_usd(*e.cost), run.per_1000_images ? format_usd(*run.per_1000_images) : "-",
                    style.wide ? memory_cell(e) : format_percent(e.memory.total().value / e.capacity.value)});
  }
  if (rows.empty()) return {};
  return render_table(columns, rows, style) + "\n" + summary_sentence(report) + "\n" +
         fmt::format(
             "Ranked by {} (--optimize: cost is the fleet's $/hour, time an image's latency). replicas: "
             "devices the rate needs at {} of each one's images/s (--replica-utilisation), + the spare "
             "units' (--redundancy); latency: prompt to decoded image at one image per device. GB = 10^9 "
             "bytes.\n",
             to_string(report.objective), format_percent(report.workload.diffusion->utilisation));
}

std::string recommend_table(const Report& report, int top, const Provenance& provenance, const TableStyle& style) {
  std::string text = workload_line(report.workload) + "\n";
  if (report.workload.diffusion && report.workload.serves_a_fleet()) {
    text += image_fleet_table(report, top, style);
    if (report.recommendations.empty()) text += summary_sentence(report) + "\n";
    text += ranking_notes(report, top, style.verbose);
    text += rejected_summary(report, style.verbose);
    text += price_footer(report, top, provenance);
    return text + advice_text(report, style.verbose);
  }
  // What the narrow serving table leaves out (render_serving.cpp).
  const std::string narrow_note =
      style.wide ? ""
                 : " memory: the share of each device's memory a replica takes; --wide adds devices, tokens/s and GB.";
  if (report.workload.serving && report.workload.serving->offline()) {
    text += serving_table(report, top, style);
    text += summary_sentence(report) + "\n";
    text += fmt::format(
        "Ranked by {} (--optimize) of the run. Each replica decodes at its largest batch (what bounds it: kv_memory, "
        "max_batch, tpot, ttft, step_tokens); tokens/s: output tokens the replicas give together; $/M tokens: the "
        "run's cost per "
        "million output tokens. GB = 10^9 bytes.{}\n",
        to_string(report.objective), narrow_note);
    return text + rejected_summary(report, style.verbose) + price_footer(report, top, provenance) +
           purchases_table(report, top, style) + advice_text(report, style.verbose);
  }
  if (report.workload.serving) {
    // docs/cli.md#serving-fields; without a load, docs/methodology.md#sizing
    text += serving_table(report, top, style);
    text += summary_sentence(report) + "\n";
    if (report.workload.serving->sizing) {
      text += fmt::format(
          "No load given (--rate or --tokens-per-day sizes a fleet): per offering, one replica on the fewest devices "
          "that hold the weights and the KV cache of {} sequences, ranked by the $/hour of the units it needs "
          "(--optimize: time is the TPOT at batch 1). tokens/s at 1: one user's decode speed; batch: the most "
          "sequences a replica decodes at once (what bounds it); tokens/s: every replica of the units at that batch; "
          "$/M tokens: per million output tokens at that rate.\n",
          k_sizing_sequences);
      text += ranking_notes(report, top, style.verbose);
      return text + rejected_summary(report, style.verbose) + price_footer(report, top, provenance) +
             advice_text(report, style.verbose);
    }
    text += fmt::format(
        "Ranked by {} (--optimize: cost is the fleet's $/hour, time the TPOT). batch: sequences a replica holds in "
        "flight at the load, and at most (sized for), with what bounds the most (kv_memory, max_batch, tpot, ttft, "
        "step_tokens). "
        "TTFT and TPOT at the load's {} (--percentile), waits for admission included; engine {} "
        "(--engine). tokens/s: output tokens the fleet can give; $/M "
        "tokens: per million output tokens at the load. GB = 10^9 bytes.{}\n",
        to_string(report.objective),
        report.workload.serving->percentile == 50 ? std::string("median")
                                                  : fmt::format("p{}", report.workload.serving->percentile),
        to_string(report.workload.engine), narrow_note);
    text += serving_notes(report);
    text += ranking_notes(report, top, style.verbose);
    text += rejected_summary(report, style.verbose);
    // Every table carries the prices' age and its warning (issue 51), a fleet's as a run's.
    text += price_footer(report, top, provenance);
    return text + advice_text(report, style.verbose);
  }
  // "memory GB" (per device, as the note below says) unless --wide. Too wide for the
  // terminal, the $/hour goes first (the cost and time give it), then the memory (every
  // ranked plan fits), then the strategy (#1's is in the next: line).
  const std::vector<TableColumn> columns{{"#", true},
                                         {"hardware", false},
                                         {"devices", true},
                                         {"strategy", false, 1},
                                         {style.wide ? "memory/device GB" : "memory GB", true, 2},
                                         {"time", true},
                                         {"$/hour", true, 3},
                                         {"cost USD", true}};
  std::vector<std::vector<std::string>> rows;
  const std::size_t shown = std::min(report.recommendations.size(), static_cast<std::size_t>(top));
  bool pareto_shown = false;
  for (std::size_t i = 0; i < shown; ++i) {
    const RankedPlan& e = report.recommendations[i];
    pareto_shown = pareto_shown || e.pareto;
    const std::string per_hour = per_hour_cell(e);
    // A device without the workload's precision trains at its best one: say which.
    std::string strategy = describe_strategy(e.plan.strategy, e.plan.device_count, report.workload.task);
    if (e.precision != report.workload.precision) strategy += fmt::format(", {}", to_string(e.precision));
    // The devices column gives the count, the units are in --wide and the summary.
    rows.push_back({rank_cell(i + 1, e, i + 1 < shown), hardware_cell(e.plan, style.wide, style.wide),
                    std::to_string(e.plan.device_count), strategy, memory_cell(e), format_duration(e.time), per_hour,
                    format_usd(*e.cost)});
  }
  if (!rows.empty()) text += render_table(columns, rows, style) + "\n";
  if (rows.empty()) {
    // Nothing within the budget: the nearest plans over it, so that the answer has figures.
    const std::vector<const Rejection*> over = over_budget(report);
    for (std::size_t i = 0; i < std::min({over.size(), static_cast<std::size_t>(top), k_nearest_over_budget}); ++i) {
      const PlanEstimate& e = *over[i]->nearest;
      rows.push_back({"-", hardware_cell(e.plan, style.wide, style.wide), std::to_string(e.plan.device_count),
                      describe_strategy(e.plan.strategy, e.plan.device_count, report.workload.task), memory_cell(e),
                      format_duration(e.time), per_hour_cell(e), format_usd(*e.cost)});
    }
    if (!rows.empty()) text += "Nearest plans, over the budget:\n" + render_table(columns, rows, style) + "\n";
  }
  text += summary_sentence(report) + "\n";
  text += ways_out_table(report, columns, style);
  text += fmt::format(
      "Ranked by {} (--optimize). GB = 10^9 bytes; memory is per device against its capacity, of which {} is kept "
      "free (--memory-headroom).\n",
      to_string(report.objective), format_percent(report.workload.memory_headroom));
  // The front counts figures within k_near_tie as equal (ordering.cpp), as the ranking does:
  // the legend says so, or a cheapest plan left unstarred would contradict it (issue 51).
  if (pareto_shown) {
    text += fmt::format(
        "* on the time-cost Pareto front: no other recommendation is both cheaper and faster (figures within {} "
        "count as equal).\n",
        format_percent(k_near_tie));
  }
  text += ranking_notes(report, top, style.verbose);
  text += rejected_summary(report, style.verbose);
  text += purchases_table(report, top, style);
  text += price_footer(report, top, provenance);
  return text + advice_text(report, style.verbose);
}

}  // namespace

// The overlays and rules files in force close the report: an answer a team's catalog.d
// changed says so where it is read.
std::string render_recommend_table(const Report& report, int top, const Provenance& provenance,
                                   const TableStyle& style) {
  const std::string text = recommend_table(report, top, provenance, style) + provenance_footer(provenance);
  if (style.markdown) return markdown_paragraphs(text);
  return style.wide ? text : wrap_prose(text, style.width);
}

}  // namespace mlsize::cli
