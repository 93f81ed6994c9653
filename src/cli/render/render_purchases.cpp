// The "To buy" table of recommend --include-purchase, beside the ranking.
#include "cli/render/format.hpp"
#include "cli/render/render_serving.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <vector>

namespace mlsize::cli {
namespace {

std::string break_even_cell(const PurchasePlan& p) {
  if (!p.break_even) return "no rental";
  if (p.break_even->never) return "never";
  // Buying is ahead from the first whole run past the break-even point.
  const double runs = std::max(1.0, std::ceil(p.break_even->runs));
  return fmt::format("{} run{}, {}{}", format_count_exact_below_10k(runs), runs == 1 ? "" : "s",
                     format_duration(p.break_even->busy), p.pays_off ? "" : " †");
}

}  // namespace

// Hardware to buy, beside the ranking (docs/cli.md#table-default): the cash it needs, this
// run's share of it, and how many such runs make buying cheaper than renting.
std::string purchases_table(const Report& report, int top, const TableStyle& style) {
  const CostSettings& cost = report.cost;
  if (!report.purchases_weighed) return {};
  const auto cards = std::count_if(report.rejected.begin(), report.rejected.end(),
                                   [](const Rejection& r) { return r.reason == RejectionReason::cards_only; });
  const std::string cards_note =
      cards == 0 ? ""
                 : fmt::format(
                       "Not offered to buy: {} offering{} priced as cards only, without the host computer "
                       "(reason cards_only).\n",
                       cards, cards == 1 ? "" : "s");
  if (report.purchases.empty()) {
    return "\nTo buy (--include-purchase): no on-premise purchase meets the constraints.\n" + cards_note;
  }
  // The strategy (a purchase is about the hardware) only with --wide, and "USD" said once,
  // below; too wide for the terminal, the power goes first, then the amortised share.
  const bool wide = style.wide;
  std::vector<TableColumn> columns{{"hardware", false},
                                   {"devices", true},
                                   {"strategy", false},
                                   {"time", true},
                                   {wide ? "purchase USD" : "purchase", true},
                                   {wide ? "amortised USD" : "amortised", true, 1},
                                   {wide ? "power USD" : "power", true, 2},
                                   {"break-even", true}};
  if (!wide) columns.erase(columns.begin() + 2);
  std::vector<std::vector<std::string>> rows;
  const std::size_t shown = std::min(report.purchases.size(), static_cast<std::size_t>(top));
  for (const PurchasePlan& p : std::span(report.purchases).first(shown)) {
    std::string strategy = describe_strategy(p.plan.strategy, p.plan.device_count, report.workload.task);
    if (p.precision != report.workload.precision) strategy += fmt::format(", {}", to_string(p.precision));
    rows.push_back({hardware_cell(p.plan, wide), std::to_string(p.plan.device_count), strategy, format_duration(p.time),
                    format_usd(*p.purchase), format_usd(p.amortised),
                    p.electricity ? format_usd(*p.electricity) : "not stated", break_even_cell(p)});
    if (!wide) rows.back().erase(rows.back().begin() + 2);
  }
  const PurchasePlan& first = report.purchases.front();
  std::string text = "\nTo buy (--include-purchase), weighed apart from the ranking above:\n";
  text += render_table(columns, rows, style) + "\n";
  text += fmt::format(
      "In USD: purchase = the cash the plan needs (--budget is checked against it); amortised = this run's share, the "
      "purchase written off over {} years at {} use (--amortization-years, --utilisation); power at {}/kWh "
      "(--electricity-price).\n",
      format_general(cost.amortization_years), format_percent(first.utilisation),
      format_usd(Usd(cost.electricity_usd_per_kwh)));
  if (std::any_of(report.purchases.begin(), report.purchases.end(),
                  [](const PurchasePlan& p) { return !p.electricity; })) {
    text += "power not stated: the catalogue gives no power_w for the offering, so its electricity counts as $0.\n";
  }
  if (!first.compared_with) {
    return text + "break-even: no rental meets the constraints to compare with.\n" + cards_note;
  }
  const RankedPlan& rental = report.recommendations[*first.compared_with];
  text += fmt::format(
      "break-even = purchase ÷ (rental cost − power) per run, against the cheapest rental, #{} {} at {} a run: "
      "after that many runs, back to back for the time shown, buying has cost less than renting; never when "
      "the power costs as much as the rental.\n",
      *first.compared_with + 1, describe_hardware(rental.plan), format_usd(*rental.cost));
  if (std::any_of(report.purchases.begin(), report.purchases.end(),
                  [](const PurchasePlan& p) { return p.break_even && !p.break_even->never && !p.pays_off; })) {
    text += fmt::format(
        "† more use than the write-off holds ({} years at {} = {}): renting stays cheaper at that utilisation.\n",
        format_general(cost.amortization_years), format_percent(cost.utilisation),
        format_duration(Seconds(cost.amortization_years * 365.0 * k_seconds_per_day * cost.utilisation)));
  }
  return text + cards_note;
}

}  // namespace mlsize::cli
