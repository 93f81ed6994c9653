#include "cli/options/choice.hpp"

#include "cli/options/workload_options.hpp"

#include <mlsize/support/text_distance.hpp>

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

std::string lower_case(std::string_view text) {
  std::string lowered(text);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lowered;
}

}  // namespace mlsize::cli
