#pragma once
// What the prices behind a ranking are: which kind (on demand, spot, a reservation), from
// which region, and how old; and a warning when the oldest shown is older than
// --max-price-age (docs/cli.md#price-age).

#include "cli/render/provenance.hpp"

#include <mlsize/rank/report.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mlsize::cli {

// The oldest price among the `top` recommendations shown (and the purchases shown), and
// its age against the provenance's today.
struct PriceAge {
  std::string oldest_as_of;
  int months = 0;
  bool stale = false;  // older than provenance.max_price_age_months
};
std::optional<PriceAge> price_age(const Report& report, int top, const Provenance& provenance);

// The table's lines on prices: kind, region, the oldest date, the warning, and for a
// reservation what #1 is priced at and what its term commits to.
std::string price_footer(const Report& report, int top, const Provenance& provenance);

// provenance.prices of the JSON report.
nlohmann::ordered_json price_json(const Report& report, int top, const Provenance& provenance);

}  // namespace mlsize::cli
