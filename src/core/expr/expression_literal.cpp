#include "core/expr/expression_literal.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace mlsize::expression_literal {
namespace {

constexpr std::array<std::string_view, 8> k_count_suffixes{"k", "K", "M", "B", "b", "G", "T", "t"};
constexpr std::array<std::string_view, 12> k_duration_suffixes{"s", "sec", "m",    "min", "h",    "hr",
                                                               "d", "day", "days", "w",   "week", "weeks"};
constexpr std::array<std::string_view, 10> k_byte_suffixes{"kb",  "mb",  "gb",  "tb",  "pb",
                                                           "kib", "mib", "gib", "tib", "pib"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view text) {
  return std::find(list.begin(), list.end(), text) != list.end();
}

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return result;
}

}  // namespace

NumberLiteral parse_number(std::string_view text) {
  try {
    if (!text.empty() && text.front() == '$') return {parse_money(text).value, LiteralUnit::usd};
    double number = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, number, std::chars_format::general);
    if (ec != std::errc() || !std::isfinite(number)) {
      throw LiteralError{0, in_quotes(text) + " is not a number", "examples: 0.9, 8, 7B, 100GB, $5k, 48h"};
    }
    const std::string_view suffix(ptr, static_cast<std::size_t>(end - ptr));
    if (suffix.empty()) {
      if (number > 1e21) throw LiteralError{0, in_quotes(text) + " is too large", "at most 1e21"};
      return {number, LiteralUnit::plain};
    }
    if (contains(k_count_suffixes, suffix)) return {parse_count(text), LiteralUnit::count};
    if (contains(k_duration_suffixes, suffix)) return {parse_duration(text).value, LiteralUnit::seconds};
    if (contains(k_byte_suffixes, lowercase(suffix))) return {parse_bytes(text).value, LiteralUnit::bytes};
    throw LiteralError{static_cast<std::size_t>(ptr - begin),
                       "unknown unit " + in_quotes(suffix) + " in " + in_quotes(text),
                       "numbers take a count suffix (7B, 350M), a size (100GB, 1.5TiB), money ($5k) or a duration "
                       "(48h, 7d)"};
  } catch (const Error& error) {
    // The quantity parsers name the accepted forms; the caller adds the place.
    throw LiteralError{0, error.message(), error.hint()};
  }
}

std::string_view describe(LiteralUnit unit) {
  switch (unit) {
    case LiteralUnit::plain: return "a number";
    case LiteralUnit::count: return "a count";
    case LiteralUnit::bytes: return "bytes";
    case LiteralUnit::usd: return "US dollars";
    case LiteralUnit::seconds: return "seconds";
  }
  return "a number";
}

bool compatible(LiteralUnit literal, FieldUnit field) {
  switch (literal) {
    case LiteralUnit::plain: return true;
    // "10B" next to a size would read as ten bytes to some and ten billion to others.
    case LiteralUnit::count: return field != FieldUnit::bytes;
    case LiteralUnit::bytes: return field == FieldUnit::bytes;
    case LiteralUnit::usd: return field == FieldUnit::usd;
    case LiteralUnit::seconds: return field == FieldUnit::seconds;
  }
  return false;
}

std::string_view unit_examples(FieldUnit unit) {
  switch (unit) {
    case FieldUnit::count: return "a count such as 7B or 350M";
    case FieldUnit::bytes: return "a size such as 100GB or 1.5TiB (B alone means billion)";
    case FieldUnit::usd: return "money such as $5k or 20000";
    case FieldUnit::seconds: return "a duration such as 48h or 7d";
    case FieldUnit::fraction: return "a plain number such as 0.9";
    case FieldUnit::none: return "a plain number";
  }
  return "a plain number";
}

}  // namespace mlsize::expression_literal
