#pragma once
// Reading the catalogue's YAML: the text being loaded (for file:line:column errors with the
// offending line) and a mapping's fields, each read once and checked for its kind. Internal to
// catalog_loader.cpp, split from it to keep each file one concern.

#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include "core/support/yaml_documents.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace mlsize::catalog_yaml {

// Longer lines are cut in error messages.
inline constexpr std::size_t k_max_line_text = 200;

// The text being loaded, for locations and the offending line in errors.
class SourceText {
 public:
  SourceText(std::string_view text, std::string_view name) : m_name(name) {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) {
        m_lines.push_back(text.substr(start));
        break;
      }
      m_lines.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }

  // yaml-cpp marks are 0-based; ours are 1-based.
  SourceLocation location(const YAML::Mark& mark) const {
    SourceLocation where{std::string(m_name), 0, 0, {}};
    if (mark.line < 0) return where;
    where.line = mark.line + 1;
    where.column = mark.column + 1;
    if (static_cast<std::size_t>(mark.line) < m_lines.size()) {
      std::string_view line = m_lines[static_cast<std::size_t>(mark.line)];
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      // A huge one-line file (minified, or 100000 '[') must not be echoed whole: keep the
      // start when the caret falls in it, else show no line at all.
      if (line.size() > k_max_line_text) {
        line = where.column <= static_cast<int>(k_max_line_text) ? line.substr(0, k_max_line_text) : std::string_view();
      }
      where.line_text = std::string(line);
    }
    return where;
  }

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message, std::string hint = {}) const {
    Error error(ErrorKind::input, std::move(message), std::move(hint));
    error.at(location(mark));
    throw error;
  }

  const std::string& name() const { return m_name; }

 private:
  std::string m_name;
  std::vector<std::string_view> m_lines;
};

// No catalogue quantity comes near this; larger values are typos and would overflow later sums.
constexpr double k_max_number = 1e18;

// Reads the fields of one YAML mapping, refusing unknown and duplicate keys.
class FieldReader {
 public:
  FieldReader(const SourceText& source, const YAML::Node& node, std::string what,
              std::span<const std::string_view> allowed)
      : m_source(source),
        m_node(node),
        m_what(std::move(what)),
        m_key_marks(checked_keys_in(source, node, m_what, allowed)) {}

  bool has(std::string_view key) const { return static_cast<bool>(m_node[std::string(key)]); }
  YAML::Node node(std::string_view key) const { return m_node[std::string(key)]; }

  std::string required_string(std::string_view key) const {
    if (!has(key)) m_source.fail(m_node.Mark(), m_what + " lacks the required field " + in_quotes(key));
    return string_value(key);
  }

  std::string optional_string(std::string_view key) const { return has(key) ? string_value(key) : std::string(); }

  std::optional<double> optional_positive(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return positive_value(key);
  }

  double required_positive(std::string_view key) const {
    if (!has(key)) m_source.fail(m_node.Mark(), m_what + " lacks the required field " + in_quotes(key));
    return positive_value(key);
  }

  // A non-negative number (prices may be 0 for free tiers).
  std::optional<double> optional_non_negative(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    const double value = number_value(key);
    if (value < 0.0) fail_value(key, "must not be negative", "a number >= 0");
    return value;
  }

  std::optional<int> optional_count(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    const double value = positive_value(key);
    if (value != std::floor(value) || value > 1e6) {
      fail_value(key, "must be a whole number from 1 to 1000000", "an integer from 1 to 1000000");
    }
    return static_cast<int>(value);
  }

  [[noreturn]] void fail_value(std::string_view key, std::string_view problem, std::string_view accepted) const {
    const YAML::Node value = node(key);
    m_source.fail(value_mark(key),
                  "field " + in_quotes(key) + " of " + m_what + " " + std::string(problem) + " (got " +
                      (value.IsScalar() ? in_quotes(value.Scalar()) : kind_of(value)) + ")",
                  "expected " + std::string(accepted));
  }

  // Where the value of `key` is; an empty value's own mark is wherever the next token
  // starts (often the next line), so it is reported at its key.
  YAML::Mark value_mark(std::string_view key) const {
    const YAML::Node value = node(key);
    const auto key_mark = m_key_marks.find(key);
    return value.IsNull() && key_mark != m_key_marks.end() ? key_mark->second : value.Mark();
  }

  const SourceText& source() const { return m_source; }
  const std::string& what() const { return m_what; }
  const YAML::Node& self() const { return m_node; }

 private:
  static std::string kind_of(const YAML::Node& node) {
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    if (node.IsNull()) return "an empty value";
    return "a value";
  }

  std::string string_value(std::string_view key) const {
    const YAML::Node value = node(key);
    if (!value.IsScalar() || value.Scalar().empty()) fail_value(key, "must be a non-empty text", "a text value");
    // Text reaches tables and JSON: it must be valid UTF-8 without control characters.
    if (const std::string bad = first_unprintable(value.Scalar()); !bad.empty()) {
      fail_value(key, "holds " + bad + ": it must be UTF-8 text without control characters or line separators",
                 "plain text (tabs are allowed)");
    }
    return value.Scalar();
  }

  double number_value(std::string_view key) const {
    const YAML::Node value = node(key);
    if (!value.IsScalar()) fail_value(key, "must be a number", "a decimal number");
    const std::string& text = value.Scalar();
    // YAML's .nan/.inf spellings and hex are refused: catalogue numbers are plain decimals.
    std::size_t consumed = 0;
    double number = std::numeric_limits<double>::quiet_NaN();
    const bool plain = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (plain) {
      try {
        number = std::stod(text, &consumed);
      } catch (const std::exception&) {
        consumed = 0;
      }
    }
    if (!plain || consumed != text.size() || !std::isfinite(number)) {
      fail_value(key, "must be a finite number", "a decimal number such as 80 or 2039.5");
    }
    if (std::abs(number) > k_max_number) fail_value(key, "is too large", "a number of at most 1e18");
    // -0 is 0: a price of -0 passed "not negative" and ranked first as $-0.00 (issue 46).
    return number == 0 ? 0.0 : number;
  }

  double positive_value(std::string_view key) const {
    const double value = number_value(key);
    if (!(value > 0.0)) fail_value(key, "must be greater than 0", "a number > 0");
    return value;
  }

  const SourceText& m_source;
  YAML::Node m_node;
  std::string m_what;
  std::map<std::string, YAML::Mark, std::less<>> m_key_marks;
};

}  // namespace mlsize::catalog_yaml
