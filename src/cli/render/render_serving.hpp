#pragma once
// What the table renderers say of serving (docs/cli.md#serving-fields): a load's fleets or
// an offline job's plans, the summary sentence, why nothing serves, and estimate's lines.

#include "cli/render/text_table.hpp"

#include <mlsize/estimate/plan.hpp>
#include <mlsize/estimate/serving.hpp>
#include <mlsize/rank/report.hpp>

#include <string>
#include <string_view>

namespace mlsize::cli {

// "3 replicas of TP 4, 43 sequences each in flight at the load (at most 96: tpot)".
std::string fleet_text(const PlanEstimate& e);
// The summary sentence of a load's ranking (#1's fleet, its cost and latencies).
std::string serving_summary(const Report& report);
// The recommendations as a table: a load's fleets, or an offline job's plans.
std::string serving_table(const Report& report, int top, const TableStyle& style);

// Hardware to buy (render_purchases.cpp): the cash it needs, this run's share of it, and how
// many such runs make buying cheaper than renting; empty without --include-purchase.
std::string purchases_table(const Report& report, int top, const TableStyle& style);
// Why nothing is ranked, serving: the replica nearest to the targets, or the load too big
// for every offering; empty when memory is what failed.
std::string no_serving_sentence(const Report& report, std::string_view none);

// estimate: a decode step and the roofline it stays under; a serving plan's lines; and
// with --explain, the serving formulas with their inputs.
std::string decode_line(const DecodeStep& d, const PlanEstimate& e, const Workload& w);
std::string serving_lines(const PlanEstimate& e, const ServingLoad& load);
std::string serving_formulas(const PlanEstimate& e, const Workload& w);

}  // namespace mlsize::cli
