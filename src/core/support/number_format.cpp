#include <mlsize/support/number_format.hpp>

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>

namespace mlsize {
namespace {

// std::to_chars rather than snprintf or fmt: it ignores the process locale, is specified to
// print exactly as printf does in the "C" locale, and keeps the core free of a formatting library.
// The buffer holds the longest fixed form: DBL_MAX has 309 integer digits, plus sign, point
// and the decimals, which are capped to keep it so.
constexpr int k_max_decimals = 40;

std::string chars(double value, std::chars_format format, int precision) {
  char buffer[400];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, format, std::clamp(precision, 0, k_max_decimals));
  if (result.ec != std::errc()) return "?";  // unreachable with the buffer sized above
  return std::string(buffer, result.ptr);
}

// Millions and up read the same in both count shapes.
std::string millions_and_up(double count) {
  if (count >= 1e12) return format_fixed(count / 1e12, 1) + "T";
  if (count >= 1e9) return format_fixed(count / 1e9, 1) + "B";
  return format_fixed(count / 1e6, 0) + "M";
}

}  // namespace

std::string format_fixed(double value, int decimals) {
  return chars(value, std::chars_format::fixed, decimals);
}

std::string format_general(double value, int digits) {
  return chars(value, std::chars_format::general, digits);
}

std::string format_shortest(double value) {
  char buffer[64];  // the shortest form of any double is at most 24 characters
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// The branches test `>=` from the top down: NaN fails every test and prints as "nan".
std::string format_count(double count) {
  if (count >= 1e6) return millions_and_up(count);
  if (count >= 1e3) return format_fixed(count / 1e3, 0) + "k";
  return format_fixed(count, 0);
}

std::string format_throughput(double per_second) {
  // The suffix follows the value as rounded: 999.6 is "1k", not "1e+03". from_chars, as
  // to_chars above, ignores the locale.
  const std::string three = format_general(per_second, 3);
  double rounded = per_second;
  std::from_chars(three.data(), three.data() + three.size(), rounded);
  if (rounded >= 1e9) return format_general(rounded / 1e9, 3) + "B";
  if (rounded >= 1e6) return format_general(rounded / 1e6, 3) + "M";
  if (rounded >= 1e3) return format_general(rounded / 1e3, 3) + "k";
  return format_general(rounded, 3);
}

std::string format_count_exact_below_10k(double count) {
  if (count >= 1e6) return millions_and_up(count);
  if (count >= 1e4) return format_fixed(count / 1e3, 0) + "k";
  return format_general(count);
}

std::string format_gb(Bytes bytes) {
  return format_fixed(bytes.value / k_giga, 1);
}

std::string format_bytes(Bytes bytes) {
  const double b = bytes.value;
  if (b >= 1e15) return format_fixed(b / 1e15, 1) + " PB";
  if (b >= 1e12) return format_fixed(b / 1e12, 1) + " TB";
  if (b >= 1e9) return format_fixed(b / 1e9, 1) + " GB";
  if (b >= 1e6) return format_fixed(b / 1e6, 1) + " MB";
  if (b >= 1e3) return format_fixed(b / 1e3, 1) + " kB";
  return format_fixed(b, 0) + " bytes";
}

std::string format_duration(Seconds seconds) {
  const double s = seconds.value;
  if (s < 60.0) return format_fixed(s, 0) + " s";
  if (s < k_seconds_per_hour) return format_fixed(s / 60.0, 0) + " min";
  if (s < 2.0 * k_seconds_per_day) return format_fixed(s / k_seconds_per_hour, 1) + " h";
  if (s < 365.0 * k_seconds_per_day) return format_fixed(s / k_seconds_per_day, 1) + " d";
  return format_fixed(s / (365.0 * k_seconds_per_day), 1) + " y";
}

std::string format_latency(Seconds seconds) {
  const double s = seconds.value;
  if (s < 1e-3) return format_general(s * 1e6, 3) + " µs";
  if (s < 1.0) return format_general(s * 1e3, 3) + " ms";
  return format_general(s, 3) + " s";
}

std::string format_grouped(double value) {
  // Thousands separators by hand: a locale's grouping would make the output depend on it.
  const std::string digits = format_fixed(value, 0);
  std::string grouped;
  const std::size_t sign = !digits.empty() && digits.front() == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    grouped += digits[i];
    const std::size_t remaining = digits.size() - i - 1;
    if (i >= sign && remaining > 0 && remaining % 3 == 0) grouped += ',';
  }
  return grouped;
}

std::string format_usd(Usd amount) {
  const double value = amount.value;
  // Appended, not `"$" + ...`: that trips GCC 12's false -Wrestrict.
  std::string text = "$";
  text += value < 100.0 ? format_fixed(value, 2) : format_grouped(value);
  return text;
}

std::string format_percent(double fraction) {
  return format_fixed(fraction * 100.0, 0) + "%";
}

}  // namespace mlsize
