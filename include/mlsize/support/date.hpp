#pragma once
// Calendar dates as the catalogue and the overlays write them: YYYY-MM-DD.

#include <string_view>

namespace mlsize {

// Whether `text` is a real date written YYYY-MM-DD (2024-02-30 is not). Such dates sort as
// text in date order.
bool is_iso_date(std::string_view text);

// Whole months from `from` to `to`, both YYYY-MM-DD (is_iso_date); negative when `to` is
// earlier. 2025-04-28 to 2026-04-27 is 11 months, to 2026-04-28 twelve.
int months_between(std::string_view from, std::string_view to);

}  // namespace mlsize
