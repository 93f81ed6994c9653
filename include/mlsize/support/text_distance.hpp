#pragma once
// Edit distance and lists of names, for "did you mean" hints and "one of ..." messages.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace mlsize {

// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

// `did you mean "x"?` for the candidate nearest to `text`, or "" when none is close
// (distance above a third of the longer word's length, at least 2 allowed).
std::string did_you_mean(std::string_view text, std::span<const std::string> candidates);
std::string did_you_mean(std::string_view text, std::span<const std::string_view> candidates);

// `"text"`: a name as messages quote it.
std::string in_quotes(std::string_view text);

// "a, b, c": the accepted names, for messages.
std::string join_names(std::span<const std::string_view> names);

}  // namespace mlsize
