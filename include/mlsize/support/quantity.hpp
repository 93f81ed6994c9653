#pragma once
// Parsing of the quantities users type: counts, bytes, money and durations.
// Each parser throws mlsize::Error (kind usage) naming the accepted forms.

#include <mlsize/support/units.hpp>

#include <string_view>

namespace mlsize {

// 7B, 350M, 1.5T, 6.7e9, 12k (suffixes are decimal: k=1e3, M=1e6, B=1e9, T=1e12).
double parse_count(std::string_view text);

// 200GB, 500MB, 1.5TiB, 1024 (bytes). Decimal (kB, MB, GB, TB, PB) and binary (KiB ... PiB).
Bytes parse_bytes(std::string_view text);

// As parse_bytes, but 0 (with or without a unit) is accepted too.
Bytes parse_bytes_or_zero(std::string_view text);

// 20000, 20k, $1.5M, $300 (suffixes k=1e3, M=1e6).
Usd parse_money(std::string_view text);
// As parse_money, but 0 ($0, 0k) is accepted too: a budget of nothing, free tiers only.
Usd parse_money_or_zero(std::string_view text);

// 90s, 90m, 36h, 7d, 2w (a unit is required: a bare number is ambiguous).
Seconds parse_duration(std::string_view text);
// The same, with a latency's examples in the error (50ms, 0.5s, 2s).
Seconds parse_latency(std::string_view text);

// A positive finite decimal number such as 0.4 or 4; `what` names it in the error.
double parse_positive_number(std::string_view text, std::string_view what);
// As parse_positive_number, but 0 is accepted too.
double parse_non_negative_number(std::string_view text, std::string_view what);

}  // namespace mlsize
