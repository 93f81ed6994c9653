#pragma once
// Ids of catalogue entries and rules: lowercase letters, digits, '-', '.', '_', starting
// with a letter or digit, at most 128 characters. Safe in file names, URLs and messages.

#include <algorithm>
#include <string_view>

namespace mlsize {

inline bool is_valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(id.front())) return false;
  return std::all_of(id.begin(), id.end(), [&](char c) { return alnum(c) || c == '-' || c == '.' || c == '_'; });
}

}  // namespace mlsize
