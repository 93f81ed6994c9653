#pragma once
// Hardware to buy (--include-purchase), weighed beside the ranking against renting
// (docs/methodology.md#hardware-to-buy).

#include <mlsize/rank/report.hpp>

namespace mlsize {

// Splits each purchase's cost into its amortised share and its electricity, and weighs it
// against the cheapest rental of the ranking (docs/methodology.md#break-even). Owned
// hardware is not a rental: its purchase is spent, so buying more is weighed against the
// market. The cheapest rather than #1: --optimize time or a rule may put a dearer plan
// first, and buying competes with the cheapest way to rent the same run.
void weigh_purchases(Report& report);

}  // namespace mlsize
