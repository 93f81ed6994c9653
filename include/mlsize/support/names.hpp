#pragma once
// One spelling per name. Each enum with user-visible names declares, beside the enum, a
// constexpr `enum_names(E)` (found by argument-dependent lookup) that returns its table of
// {value, name} entries, in the order help and messages list them. A value may have more
// than one entry: the first is its name, later ones are aliases that parse_name accepts too.
// to_string, parse_name and names read that table, so that help text, error messages, rule
// fields, the catalogue and JSON output cannot drift apart.

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace mlsize {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E value) {
  { enum_names(value).size() } -> std::convertible_to<std::size_t>;
  { enum_names(value)[0] } -> std::convertible_to<const EnumName<E>&>;
};

namespace detail {

// The table of E, evaluated once at compile time.
template <NamedEnum E>
inline constexpr auto k_name_table = enum_names(E{});

template <NamedEnum E>
constexpr bool is_first_entry_of_its_value(std::size_t index) {
  for (std::size_t i = 0; i < index; ++i) {
    if (k_name_table<E>[i].value == k_name_table<E>[index].value) return false;
  }
  return true;
}

template <NamedEnum E>
constexpr std::size_t count_values() {
  std::size_t count = 0;
  for (std::size_t i = 0; i < k_name_table<E>.size(); ++i) {
    if (is_first_entry_of_its_value<E>(i)) ++count;
  }
  return count;
}

// One name per value, in table order. Built at compile time, where a name given twice
// (which parse_name could not tell apart) stops the build.
template <NamedEnum E>
inline constexpr auto k_value_names = [] {
  const auto& table = k_name_table<E>;
  for (std::size_t i = 0; i < table.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (table[i].name == table[j].name) throw "an enum's names table spells two entries the same";
    }
  }
  std::array<std::string_view, count_values<E>()> names{};
  std::size_t next = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (is_first_entry_of_its_value<E>(i)) names[next++] = table[i].name;
  }
  return names;
}();

}  // namespace detail

// Every entry of E's table, aliases included.
template <NamedEnum E>
constexpr std::span<const EnumName<E>> name_table() {
  return detail::k_name_table<E>;
}

// The names users may type, one per value (no aliases), in table order: for help text,
// "is not one of ..." messages and did-you-mean hints.
template <NamedEnum E>
constexpr std::span<const std::string_view> names() {
  return detail::k_value_names<E>;
}

// The name of `value`; empty only for a value its table leaves out (tests/unit/test_names.cpp
// checks that each table names every value).
template <NamedEnum E>
constexpr std::string_view to_string(E value) {
  for (const EnumName<E>& entry : name_table<E>()) {
    if (entry.value == value) return entry.name;
  }
  return {};
}

// The value named `text` (a name or an alias), or nothing.
template <NamedEnum E>
constexpr std::optional<E> parse_name(std::string_view text) {
  for (const EnumName<E>& entry : name_table<E>()) {
    if (entry.name == text) return entry.value;
  }
  return std::nullopt;
}

}  // namespace mlsize
