#include "core/support/json_keys.hpp"

#include <cctype>
#include <map>
#include <vector>

namespace mlsize {

std::string_view non_json_number_at(std::string_view text, std::size_t offset) {
  if (offset > text.size()) return {};
  const std::string_view rest = text.substr(offset);
  if (rest.starts_with("NaN")) return "NaN";
  if (rest.starts_with("-Infinity")) return "-Infinity";
  if (rest.starts_with("Infinity")) return offset > 0 && text[offset - 1] == '-' ? "-Infinity" : "Infinity";
  return {};
}

std::optional<RepeatedKey> find_repeated_key(std::string_view text) {
  struct Container {
    bool object;
    std::map<std::string_view, std::size_t> keys;  // key -> offset of its opening quote
  };
  std::vector<Container> open;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '[') open.push_back({c == '{', {}});
    if ((c == '}' || c == ']') && !open.empty()) open.pop_back();
    if (c != '"') continue;
    const std::size_t start = i;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') ++i;
    }
    std::size_t after = i + 1;
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after])) != 0) ++after;
    if (open.empty() || !open.back().object || after >= text.size() || text[after] != ':') continue;
    const std::string_view key = text.substr(start + 1, i - start - 1);
    const auto [first, inserted] = open.back().keys.emplace(key, start);
    if (!inserted) return RepeatedKey{std::string(key), first->second, start};
  }
  return std::nullopt;
}

}  // namespace mlsize
