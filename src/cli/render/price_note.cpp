#include "cli/render/price_note.hpp"

#include <mlsize/estimate/cost.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

// A commitment this many times the run's cost or more is flagged: the rest of the term must
// find other work.
constexpr double k_commitment_warning_ratio = 10;

// The plans whose prices are shown: the top recommendations and the top purchases.
template <class Visit>
void for_each_shown(const Report& report, int top, Visit visit) {
  const std::size_t n = static_cast<std::size_t>(std::max(top, 0));
  for (std::size_t i = 0; i < std::min(n, report.recommendations.size()); ++i) visit(report.recommendations[i]);
  for (std::size_t i = 0; i < std::min(n, report.purchases.size()); ++i) visit(report.purchases[i]);
}

std::string basis_words(PriceBasis basis, const Offering& offering, int years) {
  switch (basis) {
    case PriceBasis::list: return "its listed reservation rate";
    case PriceBasis::provider_discount: {
      const std::optional<double> share =
          years == 1 ? offering.terms->reserved_discount.one_year : offering.terms->reserved_discount.three_year;
      return fmt::format("{}'s typical {}-year discount, {} off on demand (an estimate)", offering.provider, years,
                         format_percent(share.value_or(0.0)));
    }
    case PriceBasis::on_demand: return "its on-demand price";
  }
  return "";
}

}  // namespace

std::optional<PriceAge> price_age(const Report& report, int top, const Provenance& provenance) {
  std::string oldest;
  for_each_shown(report, top, [&](const PlanEstimate& e) {
    if (e.plan.offering != nullptr && (oldest.empty() || e.plan.offering->as_of < oldest)) {
      oldest = e.plan.offering->as_of;
    }
  });
  if (oldest.empty() || provenance.today.empty()) return std::nullopt;
  PriceAge age{oldest, std::max(0, months_between(oldest, provenance.today)), false};
  age.stale = provenance.max_price_age_months > 0 && age.months > provenance.max_price_age_months;
  return age;
}

std::string price_footer(const Report& report, int top, const Provenance& provenance) {
  const std::optional<PriceAge> age = price_age(report, top, provenance);
  if (!age) return {};
  const std::string region =
      provenance.region.empty() ? "each offering in its cheapest region" : "region " + provenance.region;
  std::string text = fmt::format("Prices: {}, {}; the oldest shown is from {} ({} months old).\n",
                                 to_string(report.cost.pricing), region, age->oldest_as_of, age->months);
  if (age->stale) {
    text += fmt::format(
        "  warning: older than {} months (--max-price-age): prices may have moved; refresh them from the providers' "
        "price files with mlsize catalog import (docs/catalogue.md#refreshing-prices-catalog-import).\n",
        provenance.max_price_age_months);
  }
  // A marketplace's offers are single hosts' listings: said once per marketplace shown.
  std::vector<std::string> marketplaces;
  for_each_shown(report, top, [&](const PlanEstimate& e) {
    const Offering* offering = e.plan.offering;
    if (offering == nullptr || offering->terms->marketplace.empty()) return;
    if (std::find(marketplaces.begin(), marketplaces.end(), offering->provider) != marketplaces.end()) return;
    marketplaces.push_back(offering->provider);
    text += fmt::format("  note: {} is a marketplace: {} (--no-marketplace leaves it out).\n", offering->provider,
                        offering->terms->marketplace);
  });
  const int years = commitment_years(report.cost.pricing);
  if (years > 0 && !report.recommendations.empty()) {
    const PlanEstimate& first = report.recommendations.front();
    const Offering* offering = first.plan.offering;
    const std::optional<UnitPrice> unit =
        offering != nullptr ? unit_price(*offering, offering->price, report.cost.pricing) : std::nullopt;
    if (unit && unit->basis == PriceBasis::on_demand && offering->kind == OfferingKind::cloud) {
      text += fmt::format(
          "  #1 ({}) is priced on demand: no reservation price is known for it, and {} states no "
          "typical discount.\n",
          offering->id, offering->provider);
    } else if (unit && first.commitment && first.cost) {
      // The run's share is ranked; what the term commits is said, and flagged far above it.
      const double ratio = first.cost->value > 0 ? first.commitment->value / first.cost->value : 0;
      text += fmt::format(
          "  #1 is priced at {}. A reservation is paid for every hour of its term, used or not: {} unit{} for {} "
          "year{} commit {}, {}× this run's {}{}; --budget is checked against the commitment.\n",
          basis_words(unit->basis, *offering, years), first.plan.units, first.plan.units == 1 ? "" : "s", years,
          years == 1 ? "" : "s", format_usd(*first.commitment), format_general(ratio, 3), format_usd(*first.cost),
          ratio > k_commitment_warning_ratio ? " (worth it only with other work for the reserved units)" : "");
    }
  }
  return text;
}

nlohmann::ordered_json price_json(const Report& report, int top, const Provenance& provenance) {
  nlohmann::ordered_json json;
  json["pricing"] = to_string(report.cost.pricing);
  json["region"] =
      provenance.region.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(provenance.region);
  json["today"] = provenance.today;
  json["max_age_months"] = provenance.max_price_age_months;
  const std::optional<PriceAge> age = price_age(report, top, provenance);
  json["oldest_as_of"] = age ? nlohmann::ordered_json(age->oldest_as_of) : nlohmann::ordered_json(nullptr);
  json["oldest_age_months"] = age ? nlohmann::ordered_json(age->months) : nlohmann::ordered_json(nullptr);
  json["stale"] = age && age->stale;
  return json;
}

}  // namespace mlsize::cli
