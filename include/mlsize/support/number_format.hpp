#pragma once
// Numbers as people read them: the one formatter behind rule messages (core) and the
// tables, summaries and exports (CLI), so that "3.8 d" reads the same everywhere.
// Every function prints as printf would in the "C" locale, whatever the process locale is
// (docs/cli.md: output does not depend on the locale).

#include <mlsize/support/units.hpp>

#include <string>

namespace mlsize {

// printf's "%.*f": format_fixed(3.14159, 1) == "3.1".
std::string format_fixed(double value, int decimals);

// printf's "%.*g"; the default of 6 digits is "%g" (and "%.6g"): 0.1 -> "0.1", 1234567 -> "1.23457e+06".
std::string format_general(double value, int digits = 6);

// The shortest text that reads back as the same double: exports must round-trip.
std::string format_shortest(double value);

// Counts rounded to a suffix (k = 1e3, M = 1e6, B = 1e9, T = 1e12): "7.0B", "350M", "4k", "950".
std::string format_count(double count);

// A measured rate, such as output tokens/s, to three significant digits with a suffix
// (k, M, B): "950", "8.19k", "12.3k", "1.23M". format_count's "8k" would not tell 7,600 from
// 8,400 tokens/s, which two fleets differ by.
std::string format_throughput(double per_second);

// As format_count, but below 10,000 the count is written out in full: "4096", "12.5", "12k".
// Rule messages use it, where "sequence_length 4096" must not read "4k".
std::string format_count_exact_below_10k(double count);

// The number of gigabytes (GB = 10^9 bytes) with one decimal and no unit: "55.1".
std::string format_gb(Bytes bytes);

// Bytes with a decimal unit: "512 bytes", "1.5 kB", "55.1 GB", "1.2 TB", "2.0 PB".
std::string format_bytes(Bytes bytes);

// "45 s", "12 min", "3.2 h" (below two days), "3.8 d" (below a year), "2.1 y".
std::string format_duration(Seconds seconds);

// A latency: "10 µs", "18.1 ms" below a second, "1.25 s" above (3 significant digits).
std::string format_latency(Seconds seconds);

// A whole number with thousands separators: 16,621.
std::string format_grouped(double value);

// "$3.42" below $100, else whole dollars with thousands separators: "$1,761".
std::string format_usd(Usd amount);

// A fraction as a whole percentage: 0.4 -> "40%".
std::string format_percent(double fraction);

}  // namespace mlsize
