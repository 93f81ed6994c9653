// Reading rules files: YAML → Rule, with file:line:column errors that point into
// expressions and messages (docs/rules.md#rule-files).

#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rules.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include "core/support/identifier.hpp"
#include "core/support/yaml_documents.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mlsize {
namespace {

// Longer lines are cut in error messages (as in the catalogue loader).
constexpr std::size_t k_max_line_text = 200;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The file being loaded: positions to line:column, and the offending line.
class RuleSource {
 public:
  RuleSource(std::string_view text, std::string_view name) : m_text(text), m_name(name) {
    m_line_starts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') m_line_starts.push_back(i + 1);
    }
  }

  // A 0-based byte offset into the file.
  SourceLocation location_at(std::size_t pos) const {
    pos = std::min(pos, m_text.size());
    const auto next = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), pos);
    const auto line = static_cast<std::size_t>(next - m_line_starts.begin()) - 1;
    return make(line, pos - m_line_starts[line]);
  }

  // yaml-cpp marks are 0-based; ours are 1-based.
  SourceLocation location(const YAML::Mark& mark) const {
    if (mark.line < 0) return SourceLocation{m_name, 0, 0, {}};
    return make(static_cast<std::size_t>(mark.line), static_cast<std::size_t>(std::max(mark.column, 0)));
  }

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message, std::string hint = {}) const {
    Error error(ErrorKind::input, std::move(message), std::move(hint));
    error.at(location(mark));
    throw error;
  }

  // Maps offsets in `node`'s scalar value to the file. Plain and single-line quoted
  // scalars map exactly; escapes, folded and block scalars are followed character by
  // character, skipping the whitespace YAML folds away (docs/rules.md#error-positions).
  ExpressionLocator scalar_locator(const YAML::Node& node) const {
    const std::string value = node.Scalar();
    const YAML::Mark mark = node.Mark();
    return [this, value, mark](std::size_t offset) {
      if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= m_text.size()) return location(mark);
      return location_at(source_offset(value, static_cast<std::size_t>(mark.pos), offset));
    };
  }

 private:
  SourceLocation make(std::size_t line, std::size_t column) const {
    SourceLocation where{m_name, static_cast<int>(line) + 1, static_cast<int>(column) + 1, {}};
    if (line < m_line_starts.size()) {
      const std::size_t start = m_line_starts[line];
      std::size_t end = m_text.find('\n', start);
      if (end == std::string_view::npos) end = m_text.size();
      std::string_view text = m_text.substr(start, end - start);
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      if (text.size() > k_max_line_text) {
        text = column < k_max_line_text ? text.substr(0, k_max_line_text) : std::string_view();
      }
      where.line_text = std::string(text);
    }
    return where;
  }

  std::size_t source_offset(const std::string& value, std::size_t pos, std::size_t offset) const {
    const std::string_view text = m_text;
    // Tags (!!str) and anchors (&a) come before the value.
    while (pos < text.size() && (text[pos] == '!' || text[pos] == '&')) {
      while (pos < text.size() && !is_blank(text[pos])) ++pos;
      while (pos < text.size() && is_blank(text[pos])) ++pos;
    }
    if (pos >= text.size()) return text.size();
    const char style = text[pos];
    if (style == '"' || style == '\'') {
      ++pos;
    } else if (style == '|' || style == '>') {
      const std::size_t line_end = text.find('\n', pos);
      pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
    }
    std::size_t t = 0;
    while (t < offset && t < value.size() && pos < text.size()) {
      const char c = text[pos];
      if (style == '"' && c == '\\' && pos + 1 < text.size()) {
        const char e = text[pos + 1];
        pos += e == 'x' ? 4 : e == 'u' ? 6 : e == 'U' ? 10 : 2;
        if (e != '\n') ++t;  // an escaped line break joins lines and yields nothing
        continue;
      }
      if (style == '\'' && c == '\'' && pos + 1 < text.size() && text[pos + 1] == '\'') {
        pos += 2;
        ++t;
        continue;
      }
      if (c == value[t]) {
        ++pos;
        ++t;
      } else if (is_blank(c)) {
        ++pos;  // indentation or a folded line break
      } else if (is_blank(value[t])) {
        ++t;  // a break folded into a space that the source spells differently
      } else {
        ++pos;
        ++t;
      }
    }
    // Land on the character itself, not on the indentation before it.
    if (offset < value.size() && !is_blank(value[offset])) {
      while (pos < text.size() && is_blank(text[pos])) ++pos;
    }
    return std::min(pos, text.size());
  }

  std::string_view m_text;
  std::string m_name;
  std::vector<std::size_t> m_line_starts;
};

// The fields of one YAML mapping, refusing unknown and duplicate keys.
class Fields {
 public:
  Fields(const RuleSource& source, const YAML::Node& node, std::string what, std::span<const std::string_view> allowed)
      : m_source(source),
        m_node(node),
        m_what(std::move(what)),
        m_key_marks(checked_keys_in(source, node, m_what, allowed)) {}

  bool has(std::string_view key) const { return m_key_marks.count(key) > 0; }
  YAML::Node node(std::string_view key) const { return m_node[std::string(key)]; }
  YAML::Mark key_mark(std::string_view key) const { return m_key_marks.find(key)->second; }

  // Where the value of `key` is; an empty value's own mark is wherever the next token
  // starts (often the next line), so it is reported at its key.
  YAML::Mark value_mark(std::string_view key) const {
    const YAML::Node value = node(key);
    return value.IsNull() ? key_mark(key) : value.Mark();
  }

  void require(std::string_view key) const {
    if (!has(key)) m_source.fail(m_node.Mark(), m_what + " lacks the required field " + in_quotes(key));
  }

  // A non-empty one-line-or-more text.
  std::string text(std::string_view key) const {
    const YAML::Node value = node(key);
    if (!value.IsScalar() || value.Scalar().empty()) {
      m_source.fail(value_mark(key), "field " + in_quotes(key) + " of " + m_what + " must be a non-empty text",
                    value.IsSequence() || value.IsMap() ? "put the text in quotes when it starts with [ or {" : "");
    }
    // Rule texts reach the terminal: the catalogue's guard (a right-to-left override in a
    // message would reorder the report around it). A condition may span lines, and its
    // lexer refuses any character it does not know.
    if (key != "when" && !is_printable_utf8(value.Scalar())) {
      m_source.fail(value_mark(key),
                    "field " + in_quotes(key) + " of " + m_what + " must be UTF-8 text without control characters",
                    "plain text (tabs are allowed)");
    }
    return value.Scalar();
  }

  [[noreturn]] void fail_value(std::string_view key, std::string message, std::string hint = {}) const {
    m_source.fail(value_mark(key), std::move(message), std::move(hint));
  }

  const std::string& what() const { return m_what; }

 private:
  const RuleSource& m_source;
  YAML::Node m_node;
  std::string m_what;
  std::map<std::string, YAML::Mark, std::less<>> m_key_marks;
};

template <NamedEnum Enum>
Enum read_enum(const Fields& fields, std::string_view key) {
  const std::string text = fields.text(key);
  if (auto value = parse_name<Enum>(text)) return *value;
  const std::span<const std::string_view> names = mlsize::names<Enum>();
  fields.fail_value(key,
                    "field " + in_quotes(key) + " of " + fields.what() + " must be one of " + join_names(names) +
                        " (got " + in_quotes(text) + ")",
                    did_you_mean(text, names));
}

double read_factor(const Fields& fields) {
  const std::string text = fields.text("factor");
  std::size_t consumed = 0;
  double number = std::nan("");
  if (text.find_first_not_of("0123456789.eE+-") == std::string::npos) {
    try {
      number = std::stod(text, &consumed);
    } catch (const std::exception&) {
      consumed = 0;
    }
  }
  if (consumed != text.size() || !(number > 1.0) || !(number <= k_max_rule_factor)) {
    fields.fail_value("factor",
                      "field \"factor\" of " + fields.what() +
                          " must be a number greater than 1 and at most 1000 (got " + in_quotes(text) + ")",
                      "prefer multiplies the score by the factor and penalize divides it: 2 doubles or halves it");
  }
  return number;
}

Expression read_expression(const RuleSource& source, const Fields& fields, std::string_view key) {
  fields.text(key);  // checks that it is a non-empty text
  const YAML::Node node = fields.node(key);
  return Expression::parse(node.Scalar(), rule_fields(), source.scalar_locator(node));
}

constexpr std::array<std::string_view, 10> k_rule_keys{"id",     "description", "when",   "action",  "severity",
                                                       "source", "message",     "factor", "require", "set"};
constexpr std::array<std::string_view, 1> k_set_keys{"plan.recompute"};

// Which keys only some actions take.
void check_action_keys(const RuleSource& source, const Fields& fields, RuleAction action) {
  struct Only {
    std::string_view key;
    bool allowed;
    std::string_view which;
  };
  const std::array<Only, 3> only{
      {{"factor", action == RuleAction::prefer || action == RuleAction::penalize, "prefer and penalize rules"},
       {"require", action == RuleAction::require, "require rules"},
       {"set", action == RuleAction::set, "set rules"}}};
  for (const Only& entry : only) {
    if (fields.has(entry.key) && !entry.allowed) {
      source.fail(fields.key_mark(entry.key),
                  "field " + in_quotes(entry.key) + " is only for " + std::string(entry.which) + ", and " +
                      fields.what() +
                      (action == RuleAction::exclude || action == RuleAction::advise ? " is an " : " is a ") +
                      std::string(to_string(action)) + " rule");
    }
  }
}

void read_set(const RuleSource& source, const Fields& fields, Rule& rule) {
  fields.require("set");
  const Fields set(source, fields.node("set"), "the set of " + fields.what(), k_set_keys);
  rule.set_recompute = read_enum<Recompute>(set, "plan.recompute");
  // Planner defaults are decided before any plan exists.
  for (std::size_t id : rule.when.fields()) {
    const std::string& name = rule_fields()[id].name;
    if (name.rfind("workload.", 0) != 0) {
      fields.fail_value("when",
                        "the condition of a set rule may only read workload fields (got " + in_quotes(name) + ")",
                        "set rules choose planner defaults before any device or plan exists");
    }
  }
}

Rule read_rule(const RuleSource& source, const YAML::Node& node) {
  std::string what = "a rule";
  if (node.IsMap() && node["id"] && node["id"].IsScalar() && is_valid_id(node["id"].Scalar())) {
    what = "rule " + in_quotes(node["id"].Scalar());
  }
  const Fields fields(source, node, what, k_rule_keys);
  Rule rule;
  fields.require("id");
  rule.id = fields.text("id");
  if (!is_valid_id(rule.id)) {
    fields.fail_value("id", "rule id " + in_quotes(rule.id) + " is not valid",
                      "lowercase letters, digits, '-', '.', '_', starting with a letter or digit");
  }
  fields.require("description");
  rule.description = fields.text("description");
  fields.require("action");
  rule.action = read_enum<RuleAction>(fields, "action");
  check_action_keys(source, fields, rule.action);
  if (fields.has("severity")) rule.severity = read_enum<Severity>(fields, "severity");
  if (fields.has("source")) rule.source = fields.text("source");
  fields.require("when");
  rule.when = read_expression(source, fields, "when");
  const bool needs_message =
      rule.action == RuleAction::exclude || rule.action == RuleAction::require || rule.action == RuleAction::advise;
  if (needs_message) fields.require("message");
  if (fields.has("message")) {
    fields.text("message");
    const YAML::Node message = fields.node("message");
    rule.message = MessageTemplate::parse(message.Scalar(), rule_fields(), source.scalar_locator(message));
  }
  switch (rule.action) {
    case RuleAction::prefer:
    case RuleAction::penalize:
      fields.require("factor");
      rule.factor = read_factor(fields);
      break;
    case RuleAction::require:
      fields.require("require");
      rule.require = read_expression(source, fields, "require");
      break;
    case RuleAction::set: read_set(source, fields, rule); break;
    case RuleAction::exclude:
    case RuleAction::advise: break;
  }
  rule.defined_at = source.location(node.Mark());
  return rule;
}

constexpr std::array<std::string_view, 1> k_top_level_keys{"rules"};

}  // namespace

void RuleSet::load_yaml(std::string_view text, std::string_view source_name) {
  if (text.size() > k_max_rules_file_bytes) {
    Error error(ErrorKind::input, "rules file is larger than the limit of 1 MiB", "split it into several files");
    error.at(SourceLocation{std::string(source_name), 0, 0, {}});
    throw error;
  }
  const RuleSource source(text, source_name);
  // One document only, found in the text: yaml-cpp's LoadAll can allocate without end
  // on malformed input (see yaml_documents.hpp).
  const YAML::Node root = load_one_document(
      text, "rules", "rules need only a few levels of nesting", "expected a mapping with \"rules:\"",
      [&](const YAML::Mark& mark, std::string message, std::string hint) { source.fail(mark, message, hint); });
  const Fields top(source, root, "the rules file", k_top_level_keys);
  top.require("rules");
  const YAML::Node list = top.node("rules");
  if (!list.IsSequence()) top.fail_value("rules", "\"rules\" must be a list", "write each rule as \"- id: ...\"");

  // Staged so that a file with an error adds nothing.
  std::vector<Rule> staged = m_rules;
  std::set<std::string, std::less<>> ids;
  for (const YAML::Node& item : list) {
    Rule rule = read_rule(source, item);
    if (!ids.insert(rule.id).second) {
      source.fail(item["id"].Mark(), "duplicate rule id " + in_quotes(rule.id) + " in this file",
                  "ids are unique within a file; a later file overrides an earlier one by id");
    }
    const auto existing =
        std::find_if(staged.begin(), staged.end(), [&](const Rule& other) { return other.id == rule.id; });
    if (existing != staged.end()) {
      *existing = std::move(rule);
      continue;
    }
    if (staged.size() >= k_max_rules) {
      source.fail(item.Mark(), "more than " + std::to_string(k_max_rules) + " rules",
                  "a rule set holds at most 1000 rules");
    }
    staged.push_back(std::move(rule));
  }
  m_rules = std::move(staged);
}

}  // namespace mlsize
