#include <mlsize/support/quantity.hpp>

#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <string>
#include <utility>

namespace mlsize {
namespace {

struct Unit {
  std::string_view suffix;
  double factor;
};

struct SplitNumber {
  double number = 0.0;
  std::string_view suffix;
  bool ok = false;
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "1.5TiB" into 1.5 and "TiB". Only plain decimal numbers are accepted:
// no sign, no hex, no nan/inf (from_chars alone would take them).
SplitNumber split_number(std::string_view text) {
  SplitNumber result;
  text = trim(text);
  if (text.empty() || !(is_digit(text.front()) || text.front() == '.')) return result;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, result.number, std::chars_format::general);
  if (ec != std::errc() || !std::isfinite(result.number)) return result;
  result.suffix = trim(std::string_view(ptr, static_cast<std::size_t>(end - ptr)));
  result.ok = true;
  return result;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

const Unit* find_unit(std::span<const Unit> units, std::string_view suffix, bool ignore_case) {
  for (const Unit& unit : units) {
    if (ignore_case ? equals_ignoring_case(unit.suffix, suffix) : unit.suffix == suffix) return &unit;
  }
  return nullptr;
}

[[noreturn]] void fail(std::string_view text, std::string_view what, std::string_view examples) {
  throw Error(ErrorKind::usage, "\"" + std::string(text) + "\" is not " + std::string(what),
              "examples: " + std::string(examples));
}

// Upper limits keep every later product (FLOPs = 8·N·D, bytes, dollars) finite and far
// from overflow; nothing real comes near them.
constexpr double k_max_count = 1e18;
constexpr double k_max_bytes = 1e21;                      // 1 ZB
constexpr double k_max_money = 1e12;                      // $1T
constexpr double k_max_seconds = 100 * 365.25 * 86400.0;  // a century
constexpr double k_max_plain_number = 1e9;

double positive_finite(double value, std::string_view text, std::string_view what, std::string_view examples,
                       double maximum) {
  if (!(value > 0.0) || !std::isfinite(value)) fail(text, what, examples);
  if (value > maximum) {
    throw Error(ErrorKind::usage, "\"" + std::string(text) + "\" is too large",
                "at most " + format_general(maximum) + " (examples: " + std::string(examples) + ")");
  }
  return value;
}

constexpr std::array k_count_units{Unit{"", 1.0},  Unit{"k", 1e3}, Unit{"K", 1e3},  Unit{"M", 1e6}, Unit{"B", 1e9},
                                   Unit{"b", 1e9}, Unit{"G", 1e9}, Unit{"T", 1e12}, Unit{"t", 1e12}};
// Case-insensitive except that a lone "b" stays bytes; bits are never accepted.
constexpr std::array k_byte_units{Unit{"", 1.0},
                                  Unit{"B", 1.0},
                                  Unit{"kB", 1e3},
                                  Unit{"MB", 1e6},
                                  Unit{"GB", 1e9},
                                  Unit{"TB", 1e12},
                                  Unit{"PB", 1e15},
                                  Unit{"KiB", 1024.0},
                                  Unit{"MiB", 1024.0 * 1024.0},
                                  Unit{"GiB", 1024.0 * 1024.0 * 1024.0},
                                  Unit{"TiB", 1024.0 * 1024.0 * 1024.0 * 1024.0},
                                  Unit{"PiB", 1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0}};
constexpr std::array k_money_units{Unit{"", 1.0}, Unit{"k", 1e3}, Unit{"K", 1e3}, Unit{"M", 1e6}, Unit{"m", 1e6}};
constexpr std::array k_duration_units{Unit{"ms", 1e-3},          Unit{"s", 1.0},         Unit{"sec", 1.0},
                                      Unit{"m", 60.0},           Unit{"min", 60.0},      Unit{"h", 3600.0},
                                      Unit{"hr", 3600.0},        Unit{"d", 86400.0},     Unit{"day", 86400.0},
                                      Unit{"days", 86400.0},     Unit{"w", 7 * 86400.0}, Unit{"week", 7 * 86400.0},
                                      Unit{"weeks", 7 * 86400.0}};

constexpr std::string_view k_count_examples = "7B, 350M, 1.5T, 6.7e9, 12k";
constexpr std::string_view k_bytes_examples = "200GB, 500MB, 1.5TiB, 64GiB (GB = 10^9 bytes, GiB = 2^30 bytes)";
constexpr std::string_view k_money_examples = "20000, 20k, $1.5M";
constexpr std::string_view k_duration_examples = "90m, 36h, 7d, 2w";
constexpr std::string_view k_latency_examples = "50ms, 0.5s, 2s";

}  // namespace

namespace {

// What one kind of quantity accepts.
struct QuantityKind {
  std::string_view what;      // "a count", used in "... is not a count"
  std::string_view examples;  // shown in the hint
  std::span<const Unit> units;
  bool units_ignore_case;
  double maximum;
};

double parse_with_units(std::string_view text, std::string_view number_text, const QuantityKind& kind) {
  const SplitNumber split = split_number(number_text);
  if (!split.ok) fail(text, kind.what, kind.examples);
  const Unit* unit = find_unit(kind.units, split.suffix, kind.units_ignore_case);
  if (unit == nullptr) fail(text, kind.what, kind.examples);
  return positive_finite(split.number * unit->factor, text, kind.what, kind.examples, kind.maximum);
}

}  // namespace

double parse_count(std::string_view text) {
  return parse_with_units(text, text, QuantityKind{"a count", k_count_examples, k_count_units, false, k_max_count});
}

Bytes parse_bytes(std::string_view text) {
  return Bytes(
      parse_with_units(text, text, QuantityKind{"a size in bytes", k_bytes_examples, k_byte_units, true, k_max_bytes}));
}

Usd parse_money(std::string_view text) {
  std::string_view body = trim(text);
  if (!body.empty() && body.front() == '$') body.remove_prefix(1);
  return Usd(parse_with_units(text, body,
                              QuantityKind{"an amount of money", k_money_examples, k_money_units, false, k_max_money}));
}

Usd parse_money_or_zero(std::string_view text) {
  std::string_view body = trim(text);
  if (!body.empty() && body.front() == '$') body.remove_prefix(1);
  const SplitNumber split = split_number(body);
  if (split.ok && split.number == 0.0 && find_unit(k_money_units, split.suffix, false) != nullptr) return Usd(0);
  return parse_money(text);
}

Bytes parse_bytes_or_zero(std::string_view text) {
  const SplitNumber split = split_number(text);
  if (split.ok && split.number == 0.0 && find_unit(k_byte_units, split.suffix, true) != nullptr) return Bytes(0);
  return parse_bytes(text);
}

Seconds parse_duration(std::string_view text) {
  return Seconds(parse_with_units(
      text, text, QuantityKind{"a duration", k_duration_examples, k_duration_units, false, k_max_seconds}));
}

Seconds parse_latency(std::string_view text) {
  return Seconds(parse_with_units(
      text, text, QuantityKind{"a duration", k_latency_examples, k_duration_units, false, k_max_seconds}));
}

double parse_non_negative_number(std::string_view text, std::string_view what) {
  const SplitNumber split = split_number(text);
  if (split.ok && split.suffix.empty() && split.number == 0.0) return 0.0;
  return parse_positive_number(text, what);
}

double parse_positive_number(std::string_view text, std::string_view what) {
  const SplitNumber split = split_number(text);
  if (!split.ok || !split.suffix.empty()) fail(text, what, "0.4, 4, 1.5");
  return positive_finite(split.number, text, what, "0.4, 4, 1.5", k_max_plain_number);
}

}  // namespace mlsize
