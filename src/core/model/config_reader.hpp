#pragma once
// Reading a Hugging Face config.json: the text with its locations (for file:line:column
// errors that show the offending line) and the top-level keys with their aliases and limits.
// Private to the core: model_config.cpp reads architectures with it, estimate/measurement.cpp
// and estimate/calibration.cpp the measured JSON and the calibration overlays.

#include <mlsize/model/model_config.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mlsize {

using Json = nlohmann::json;

// Longer lines are cut in error messages.
inline constexpr std::size_t k_max_line_text = 200;

// The config text, for locations and the offending line in errors.
class ConfigText {
 public:
  ConfigText(std::string_view text, std::string_view name) : m_text(text), m_name(name) {}

  // `offset` is a 0-based byte offset; lines and columns are 1-based.
  SourceLocation at_offset(std::size_t offset) const {
    offset = std::min(offset, m_text.size());
    const std::size_t newline = offset == 0 ? std::string_view::npos : m_text.rfind('\n', offset - 1);
    const std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
    SourceLocation where{m_name, 1, 0, {}};
    where.line +=
        static_cast<int>(std::count(m_text.begin(), m_text.begin() + static_cast<std::ptrdiff_t>(line_start), '\n'));
    where.column = static_cast<int>(offset - line_start) + 1;
    std::string_view line = m_text.substr(line_start, m_text.find('\n', line_start) - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // A huge one-line file must not be echoed whole.
    if (line.size() > k_max_line_text)
      line = offset - line_start < k_max_line_text ? line.substr(0, k_max_line_text) : std::string_view();
    where.line_text = std::string(line);
    return where;
  }

  // Where the value of top-level `key` starts (its last occurrence, which nlohmann keeps),
  // or the opening brace when the key is absent.
  SourceLocation at_key(std::string_view key) const {
    std::size_t found = first_non_space(0);
    int depth = 0;
    for (std::size_t i = 0; i < m_text.size(); ++i) {
      const char c = m_text[i];
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      if (c != '"') continue;
      const std::size_t start = i + 1;
      for (i = start; i < m_text.size() && m_text[i] != '"'; ++i) {
        if (m_text[i] == '\\') ++i;
      }
      if (depth != 1 || i >= m_text.size() || m_text.substr(start, i - start) != key) continue;
      const std::size_t colon = first_non_space(i + 1);
      if (colon < m_text.size() && m_text[colon] == ':') found = first_non_space(colon + 1);
    }
    return at_offset(found);
  }

  [[noreturn]] void fail(SourceLocation where, std::string message, std::string hint = {}) const {
    Error error(ErrorKind::input, std::move(message), std::move(hint));
    error.at(std::move(where));
    throw error;
  }

  // Refuses texts too large or nested too deeply before nlohmann parses (and recurses into) them.
  void check_limits() const {
    if (m_text.size() > k_max_config_bytes) {
      fail(SourceLocation{m_name, 0, 0, {}}, "config file is larger than the limit of 4 MiB",
           "a Hugging Face config.json is a few KiB; is this the right file?");
    }
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < m_text.size(); ++i) {
      const char c = m_text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        if (++depth > k_max_config_nesting) {
          fail(at_offset(i), "invalid JSON: nested more than 64 levels deep",
               "a config.json needs only a few levels of nesting");
        }
      } else if (c == '}' || c == ']') {
        --depth;
      }
    }
  }

  std::string_view text() const { return m_text; }
  const std::string& name() const { return m_name; }

 private:
  std::size_t first_non_space(std::size_t from) const {
    const std::size_t at = m_text.find_first_not_of(" \t\r\n", from);
    return at == std::string_view::npos ? m_text.size() : at;
  }

  std::string_view m_text;
  std::string m_name;
};

// Whether model_config.cpp reads `key` (for any family): such a key is never suggested as
// a misspelling of another.
bool is_known_config_key(std::string_view key);

// Reads the keys of the top-level config object, with their aliases and limits.
class ConfigReader {
 public:
  using Keys = std::initializer_list<std::string_view>;

  ConfigReader(const ConfigText& source, const Json& root) : m_source(source), m_root(root) {}

  // The first of `keys` present with a non-null value, or "".
  std::string_view find(Keys keys) const {
    for (std::string_view key : keys) {
      const auto found = m_root.find(key);
      if (found != m_root.end() && !found->is_null()) return key;
    }
    return {};
  }
  bool has(Keys keys) const { return !find(keys).empty(); }

  // A whole number from `minimum` to k_max_config_dimension, under the first key present.
  std::optional<int> count(Keys keys, int minimum = 1) const {
    const std::string_view key = find(keys);
    if (key.empty()) return std::nullopt;
    const Json& value = m_root.at(std::string(key));
    if (!value.is_number()) fail(key, in_quotes(key) + " must be a whole number, not " + shown(value));
    const double number = value.get<double>();
    if (std::floor(number) != number) fail(key, in_quotes(key) + " must be a whole number, not " + value.dump());
    if (number < minimum)
      fail(key, in_quotes(key) + " must be at least " + std::to_string(minimum) + ", not " + value.dump());
    if (number > k_max_config_dimension) {
      fail(key, in_quotes(key) + " is " + value.dump() + ", above the limit of 10000000",
           "no transformer dimension comes near this; check the value");
    }
    return static_cast<int>(number);
  }

  // Like count(), but the key must be present; `what` says what it is, for the message.
  int required(Keys keys, std::string_view what) const {
    if (const std::optional<int> value = count(keys)) return *value;
    // A dimension Python wrote as NaN or Infinity reads as null (python_literals_as_null):
    // named as what it is, not as missing.
    for (std::string_view key : keys) {
      const auto found = m_root.find(key);
      if (found == m_root.end() || !found->is_null()) continue;
      const SourceLocation where = m_source.at_key(key);
      const std::string_view line = where.line_text;
      const std::string_view at =
          line.substr(std::min(static_cast<std::size_t>(std::max(where.column - 1, 0)), line.size()));
      for (std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
        if (at.starts_with(word)) {
          m_source.fail(where, in_quotes(key) + " is " + std::string(word) + ", not a size (" + std::string(what) + ")",
                        "a whole number");
        }
      }
    }
    const std::span<const std::string_view> accepted(keys.begin(), keys.size());
    for (const auto& [name, value] : m_root.items()) {
      // A key the reader knows for something else is no misspelling of this one
      // (hidden_size is no typo of ffn_hidden_size).
      if (is_known_config_key(name)) continue;
      const std::string hint = did_you_mean(name, accepted);
      if (!hint.empty()) {
        m_source.fail(m_source.at_key(name), "missing " + in_quotes(*keys.begin()) + " (" + std::string(what) + ")",
                      in_quotes(name) + " is not a known key: " + hint);
      }
    }
    std::string hint = "accepted keys: " + join_names(accepted);
    if (m_root.contains("text_config")) hint += "; for a multimodal model, give its \"text_config\" object";
    m_source.fail(m_source.at_key(*keys.begin()),
                  "missing " + in_quotes(*keys.begin()) + " (" + std::string(what) + ")", hint);
  }

  // A probability in [0, 1] under the first key present (dropout rates).
  std::optional<double> probability(Keys keys) const {
    const std::string_view key = find(keys);
    if (key.empty()) return std::nullopt;
    const Json& value = m_root.at(std::string(key));
    if (!value.is_number()) fail(key, in_quotes(key) + " must be a number from 0 to 1, not " + shown(value));
    const double number = value.get<double>();
    if (!(number >= 0 && number <= 1)) {
      fail(key, in_quotes(key) + " must be a number from 0 to 1, not " + value.dump(), "a dropout probability");
    }
    return number;
  }

  std::optional<bool> flag(std::string_view key) const {
    const auto found = m_root.find(key);
    if (found == m_root.end() || found->is_null()) return std::nullopt;
    if (!found->is_boolean()) fail(key, in_quotes(key) + " must be true or false, not " + shown(*found));
    return found->get<bool>();
  }

  std::string text(std::string_view key) const {
    const auto found = m_root.find(key);
    if (found == m_root.end() || found->is_null()) return {};
    if (!found->is_string()) fail(key, in_quotes(key) + " must be a string, not " + shown(*found));
    // Names reach tables and JSON: no control characters.
    const std::string value = found->get<std::string>();
    if (!is_printable_utf8(value)) fail(key, in_quotes(key) + " must be text without control characters", "plain text");
    return value;
  }

  const Json& root() const { return m_root; }

  [[noreturn]] void fail(std::string_view key, std::string message, std::string hint = {}) const {
    if (hint.empty()) hint = "expected a whole number from 1 to 10000000";
    m_source.fail(m_source.at_key(key), std::move(message), std::move(hint));
  }

 private:
  static std::string shown(const Json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "a list";
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 40) + "..." : text;
  }

  const ConfigText& m_source;
  const Json& m_root;
};

// Parses the text, turning nlohmann's errors (byte offsets) into file:line:column.
Json parse_json(const ConfigText& source);

// How many JSON documents parse_json has parsed in this process: a test holds start-up to
// parsing none of the embedded presets, as yaml_documents_parsed() does for YAML.
std::size_t json_documents_parsed();

}  // namespace mlsize
