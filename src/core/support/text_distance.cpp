#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <vector>

namespace mlsize {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

namespace {

template <class String>
std::string nearest(std::string_view text, std::span<const String> candidates) {
  std::string_view best;
  std::size_t best_distance = static_cast<std::size_t>(-1);
  bool best_extends = false;
  for (const String& candidate : candidates) {
    const std::size_t distance = edit_distance(text, candidate);
    // On a tie, a name that the text begins is the likelier one: "h10" is a cut-short
    // "h100" rather than a mistyped "a10".
    const bool extends = std::string_view(candidate).starts_with(text);
    if (distance < best_distance || (distance == best_distance && extends && !best_extends)) {
      best_extends = extends;
      best_distance = distance;
      best = candidate;
    }
  }
  const std::size_t allowed = std::max<std::size_t>(2, std::max(text.size(), best.size()) / 3);
  if (best.empty() || best_distance > allowed) return {};
  return "did you mean \"" + std::string(best) + "\"?";
}

}  // namespace

std::string did_you_mean(std::string_view text, std::span<const std::string> candidates) {
  return nearest(text, candidates);
}
std::string did_you_mean(std::string_view text, std::span<const std::string_view> candidates) {
  return nearest(text, candidates);
}

std::string join_names(std::span<const std::string_view> names) {
  std::string result;
  for (std::string_view name : names) {
    if (!result.empty()) result += ", ";
    result += name;
  }
  return result;
}

// Appended piece by piece: `"\"" + std::string(text) + "\""` trips GCC 12's false -Wrestrict.
std::string in_quotes(std::string_view text) {
  std::string result;
  result.reserve(text.size() + 2);
  result += '"';
  result += text;
  result += '"';
  return result;
}

}  // namespace mlsize
