#pragma once
// Line-oriented text as command-line tools write it (nvidia-smi, rocm-smi, /proc, sysctl):
// lines, trimmed fields, errors at a line; and text wrapped into lines (help, tables).

#include <mlsize/support/error.hpp>
#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::text {

// The text without spaces, tabs and carriage returns at either end.
inline std::string_view trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

inline std::string lower(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

// The lines of `text` (a last line without its line feed included), carriage returns kept.
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// `text` broken at spaces into lines of at most `width` display columns (a longer word
// stays whole); one empty line for an empty text.
inline std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t space = text.find(' ', at);
    if (space == std::string_view::npos) space = text.size();
    const std::string_view word = text.substr(at, space - at);
    at = space + 1;
    if (word.empty()) continue;
    std::string& line = lines.back();
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.emplace_back(word);
    } else {
      if (!line.empty()) line += ' ';
      line += word;
    }
  }
  return lines;
}

// "key : value" (cpuinfo, meminfo, sysctl): the trimmed key and value, or nothing without a colon.
struct KeyValue {
  std::string_view key;
  std::string_view value;
};
inline std::optional<KeyValue> key_value(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return KeyValue{trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

// A whole non-negative number, or nothing.
inline std::optional<double> whole_number(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  double value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// Throws Error (input) at line `line` (1-based; 0: the whole text) of `name`.
[[noreturn]] inline void fail_at(const std::string& name, int line, std::string_view line_text, std::string message,
                                 std::string hint = {}) {
  Error error(ErrorKind::input, std::move(message), std::move(hint));
  constexpr std::size_t k_max_line_text = 200;
  std::string_view shown = line_text;
  while (!shown.empty() && (shown.back() == '\r' || shown.back() == '\n')) shown.remove_suffix(1);
  if (shown.size() > k_max_line_text) shown = shown.substr(0, k_max_line_text);
  error.at(SourceLocation{name, line, 0, std::string(shown)});
  throw error;
}

}  // namespace mlsize::text
