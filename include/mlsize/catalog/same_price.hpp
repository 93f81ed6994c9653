#pragma once
// When two prices of one offering count as the same: within half a cent in the dollar of the
// first. The importer keeps a reserved rate only where the on-demand price it belonged to is
// the same (price_import.cpp); a SkyPilot task offers every region priced the same as the
// plan's (launch.cpp, regions_priced_alike).

#include <cmath>

namespace mlsize {

inline constexpr double k_same_price_share = 0.005;

inline bool same_price(double reference, double other) {
  return std::abs(other - reference) <= k_same_price_share * reference;
}

}  // namespace mlsize
