#pragma once
// The one parser of enum-valued flags, and the list of values in their help, both read
// from the enum's names table (mlsize/support/names.hpp): a flag accepts, lists and
// suggests exactly the names the core knows.

#include <mlsize/support/names.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {

// Throws the usage Error for a value of `flag` outside `accepted`:
// `--flag: "x" is not one of a, b, c`, with a did-you-mean hint when a name is close.
[[noreturn]] void choice_error(const std::string& flag, std::string_view text,
                               std::span<const std::string_view> accepted);

// "a | b | c (default a)" for a flag's help; without the default when `default_name` is empty.
std::string choice_help(std::span<const std::string_view> accepted, std::string_view default_name = {});

// The names of every "a | b | c" list choice_help wrote into a help text, in order and
// once each: what shell completion offers for the flag (command_completion.cpp).
std::vector<std::string> choices_in_help(std::string_view help);

template <NamedEnum E>
std::vector<std::string_view> names_of(std::span<const E> values) {
  std::vector<std::string_view> result;
  for (E value : values) result.push_back(to_string(value));
  return result;
}

// `text` in lower case (ASCII): flag values are matched without regard to case.
std::string lower_case(std::string_view text);

// The value of E named `text` in any case (FP16 is fp16), or the usage error naming `flag`.
template <NamedEnum E>
E parse_choice(const std::string& flag, std::string_view text) {
  if (const std::optional<E> value = parse_name<E>(lower_case(text))) return *value;
  choice_error(flag, text, names<E>());
}

// The same for a flag that takes only some values of E (the formats one command writes).
template <NamedEnum E>
E parse_choice(const std::string& flag, std::string_view text, std::span<const E> accepted) {
  const std::optional<E> value = parse_name<E>(lower_case(text));
  if (value && std::find(accepted.begin(), accepted.end(), *value) != accepted.end()) return *value;
  choice_error(flag, text, names_of(accepted));
}

template <NamedEnum E>
std::string choice_help(E default_value) {
  return choice_help(names<E>(), to_string(default_value));
}

template <NamedEnum E>
std::string choice_help(std::span<const E> accepted, E default_value) {
  return choice_help(names_of(accepted), to_string(default_value));
}

}  // namespace mlsize::cli
