#include "cli/options/choice.hpp"

#include "cli/options/workload_options.hpp"

#include <mlsize/support/text_distance.hpp>

#include <algorithm>

namespace mlsize::cli {

void choice_error(const std::string& flag, std::string_view text, std::span<const std::string_view> accepted) {
  flag_error(flag, in_quotes(text) + " is not one of " + join_names(accepted), did_you_mean(text, accepted));
}

std::string choice_help(std::span<const std::string_view> accepted, std::string_view default_name) {
  std::string help;
  for (std::string_view name : accepted) {
    if (!help.empty()) help += " | ";
    help += name;
  }
  if (!default_name.empty()) help += " (default " + std::string(default_name) + ")";
  return help;
}

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '+' || c == '.';
}

// The name that ends at `end` in `help` (is_name_char back to a space or the start).
std::string_view name_before(std::string_view help, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && is_name_char(help[begin - 1])) --begin;
  const bool whole = begin == 0 || help[begin - 1] == ' ';
  return whole ? help.substr(begin, end - begin) : std::string_view();
}

// The name that starts at `begin`, when it ends a list item: before " | ", " (", ";", ":",
// ",", ")" or the end ("a list of" after a " | " is prose, not a name).
std::string_view name_after(std::string_view help, std::size_t begin) {
  std::size_t end = begin;
  while (end < help.size() && is_name_char(help[end])) ++end;
  const std::string_view rest = help.substr(end);
  const bool ends_item = rest.empty() || rest.starts_with(" | ") || rest.starts_with(" (") ||
                         std::string_view(";:,)").find(rest.front()) != std::string_view::npos;
  return ends_item ? help.substr(begin, end - begin) : std::string_view();
}

}  // namespace

std::vector<std::string> choices_in_help(std::string_view help) {
  std::vector<std::string> names;
  const auto add = [&names](std::string_view name) {
    // A trailing "." ends the sentence, not the name.
    while (name.ends_with('.')) name.remove_suffix(1);
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  };
  constexpr std::string_view k_bar = " | ";
  for (std::size_t at = help.find(k_bar); at != std::string_view::npos; at = help.find(k_bar, at + 1)) {
    add(name_before(help, at));
    add(name_after(help, at + k_bar.size()));
  }
  return names;
}

std::string lower_case(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lowered;
}

}  // namespace mlsize::cli
