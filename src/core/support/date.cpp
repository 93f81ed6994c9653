#include <mlsize/support/date.hpp>

#include <array>
#include <cstddef>

namespace mlsize {
namespace {

struct Date {
  int year = 0, month = 0, day = 0;
};

int digits(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) value = value * 10 + (text[i] - '0');
  return value;
}

Date parse(std::string_view text) {
  return Date{digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2)};
}

}  // namespace

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const Date date = parse(text);
  if (date.month < 1 || date.month > 12) return false;
  // 2024-02-31 would otherwise pass and sort as if it were a real date.
  constexpr std::array<int, 12> k_days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (date.year % 4 == 0 && date.year % 100 != 0) || date.year % 400 == 0;
  const int days = k_days[static_cast<std::size_t>(date.month - 1)] + (date.month == 2 && leap ? 1 : 0);
  return date.day >= 1 && date.day <= days;
}

int months_between(std::string_view from, std::string_view to) {
  const Date a = parse(from);
  const Date b = parse(to);
  return (b.year - a.year) * 12 + (b.month - a.month) - (b.day < a.day ? 1 : 0);
}

}  // namespace mlsize
