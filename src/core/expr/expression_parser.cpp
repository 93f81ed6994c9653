// The expression language's parser: grammar, type and unit checks.

#include <mlsize/expr/expression.hpp>
#include <mlsize/support/text_distance.hpp>

#include "core/expr/expression_lexer.hpp"
#include "core/expr/expression_literal.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace mlsize {
namespace {

using expression_literal::compatible;
using expression_literal::describe;
using expression_literal::LiteralUnit;
using expression_literal::NumberLiteral;
using expression_literal::unit_examples;

// Longer lines are cut in error locations (as in the catalogue loader).
constexpr std::size_t k_max_line_text = 200;

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowercase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = lower(c);
  return result;
}

constexpr std::array<std::string_view, 6> k_keywords{"and", "or", "not", "in", "true", "false"};

bool is_keyword_text(std::string_view text) {
  return std::find(k_keywords.begin(), k_keywords.end(), text) != k_keywords.end();
}

}  // namespace

// Recursive descent over the grammar in expression.hpp, with type checks as it goes.
class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, const FieldSet& fields, const ExpressionLocator& locate)
      : m_text(text), m_fields(fields), m_locate(locate), m_lexer(text, locate) {}

  Expression run() {
    if (m_text.size() > k_max_expression_length) {
      fail(k_max_expression_length,
           "expression is longer than " + std::to_string(k_max_expression_length) + " characters",
           "split it into several rules");
    }
    advance();
    if (m_token.kind == TokenKind::end) {
      fail(m_token.offset, "empty expression", "write a condition such as workload.params > 1B, or true");
    }
    const std::uint32_t root = parse_or();
    if (m_token.kind == TokenKind::compare) {
      fail(m_token.offset, "comparisons cannot be chained", "join them with \"and\": a < b and b < c");
    }
    if (m_token.kind != TokenKind::end) {
      const std::string lowered = lowercase(m_token.text);
      fail(m_token.offset, "expected \"and\", \"or\" or the end of the expression but found " + found(),
           m_token.kind == TokenKind::name && lowered != m_token.text && is_keyword_text(lowered)
               ? "operators and true/false are lowercase: " + lowered
               : "join conditions with \"and\" or \"or\"");
    }
    require_condition(root);
    m_expression.m_text = std::string(m_text);
    m_expression.index_fields();
    return std::move(m_expression);
  }

 private:
  using Op = Expression::Op;
  using Node = Expression::Node;

  // Where a node came from, for messages.
  struct Span {
    std::size_t begin = 0;
    std::size_t end = 0;
    FieldUnit unit = FieldUnit::none;          // fields: their unit
    LiteralUnit literal = LiteralUnit::plain;  // number literals: how they were written
  };

  // --- tokens ---

  void advance() { m_lexer.advance(); }
  bool is_keyword(std::string_view word) const { return m_lexer.is_keyword(word); }
  std::string found() const { return m_lexer.found(); }

  // --- nodes ---

  // `at`: where to report the node limit (default: the node's start).
  std::uint32_t add(Node node, Span span, std::optional<std::size_t> at = std::nullopt) {
    if (m_expression.m_nodes.size() >= k_max_expression_nodes) {
      fail(at.value_or(span.begin), "expression has more than " + std::to_string(k_max_expression_nodes) + " parts",
           "split it into several rules");
    }
    m_expression.m_nodes.push_back(std::move(node));
    m_spans.push_back(span);
    return static_cast<std::uint32_t>(m_expression.m_nodes.size() - 1);
  }

  const Node& node(std::uint32_t id) const { return m_expression.m_nodes[id]; }
  const Span& span(std::uint32_t id) const { return m_spans[id]; }
  std::string source(std::uint32_t id) const {
    const Span& s = span(id);
    std::string_view text = m_text.substr(s.begin, s.end - s.begin);
    if (text.size() > 40) return std::string(text.substr(0, 40)) + "...";
    return std::string(text);
  }

  void enter(std::size_t offset) {
    if (++m_depth > k_max_expression_depth) {
      fail(offset, "expression nests deeper than " + std::to_string(k_max_expression_depth) + " levels",
           "remove parentheses or split the rule");
    }
  }

  // --- grammar ---

  // `or` binds looser than `and`; both associate to the left.
  std::uint32_t parse_or() { return parse_chain("or", Op::or_, &ExpressionParser::parse_and); }
  std::uint32_t parse_and() { return parse_chain("and", Op::and_, &ExpressionParser::parse_not); }

  // operand (keyword operand)*, folded to the left.
  std::uint32_t parse_chain(std::string_view keyword, Op op, std::uint32_t (ExpressionParser::*operand)()) {
    std::uint32_t left = (this->*operand)();
    while (is_keyword(keyword)) {
      advance();
      const std::uint32_t right = (this->*operand)();
      left = logical(op, left, right);
    }
    return left;
  }

  std::uint32_t logical(Op op, std::uint32_t left, std::uint32_t right) {
    require_condition(left);
    require_condition(right);
    Node result;
    result.op = op;
    result.lhs = left;
    result.rhs = right;
    return add(std::move(result), Span{span(left).begin, span(right).end}, span(right).begin);
  }

  std::uint32_t parse_not() {
    if (!is_keyword("not")) return parse_comparison();
    const std::size_t begin = m_token.offset;
    enter(begin);
    advance();
    const std::uint32_t operand = parse_not();
    --m_depth;
    require_condition(operand);
    Node result;
    result.op = Op::not_;
    result.lhs = operand;
    return add(std::move(result), Span{begin, span(operand).end});
  }

  std::uint32_t parse_comparison() {
    const std::uint32_t left = parse_operand();
    if (is_keyword("in")) {
      advance();
      return parse_in(left);
    }
    if (m_token.kind != TokenKind::compare) return left;
    const Token op_token = m_token;
    advance();
    const std::uint32_t right = parse_operand();
    check_comparison(op_token, left, right);
    Node result;
    result.op = compare_op(op_token.text);
    result.lhs = left;
    result.rhs = right;
    return add(std::move(result), Span{span(left).begin, span(right).end}, span(right).begin);
  }

  static Op compare_op(std::string_view text) {
    if (text == "==") return Op::eq;
    if (text == "!=") return Op::ne;
    if (text == "<") return Op::lt;
    if (text == "<=") return Op::le;
    if (text == ">") return Op::gt;
    return Op::ge;
  }

  std::uint32_t parse_operand() {
    if (m_token.kind == TokenKind::lparen) {
      enter(m_token.offset);
      advance();
      const std::uint32_t inner = parse_or();
      if (m_token.kind != TokenKind::rparen) {
        fail(m_token.offset, "expected \")\" but found " + found(), "every \"(\" needs a \")\"");
      }
      --m_depth;
      advance();
      return inner;
    }
    if (m_token.kind == TokenKind::name && !is_keyword("true") && !is_keyword("false")) {
      for (std::string_view keyword : k_keywords) {
        if (is_keyword(keyword)) {
          fail(m_token.offset, "expected a field, a value or \"(\" but found " + found());
        }
      }
      return parse_field();
    }
    return parse_literal("expected a field, a value or \"(\" but found ", {});
  }

  std::uint32_t parse_field() {
    const Token token = m_token;
    const std::optional<std::size_t> id = m_fields.find(token.text);
    if (!id) {
      std::string hint;
      const std::string lowered = lowercase(token.text);
      if (lowered != token.text && is_keyword_text(lowered)) {
        hint = "operators and true/false are lowercase: " + lowered;
      } else {
        hint = did_you_mean(token.text, m_fields.names());
        if (hint.empty()) hint = "the fields are listed in docs/rules.md#fields";
      }
      fail(token.offset, "unknown field " + in_quotes(token.text), hint);
    }
    advance();
    Node result;
    result.op = Op::field;
    result.type = m_fields[*id].type;
    result.field = *id;
    return add(std::move(result), Span{token.offset, token.offset + token.text.size(), m_fields[*id].unit, {}});
  }

  // A literal: a number, a string, true or false. `expected` starts the message when
  // the token is none of these.
  std::uint32_t parse_literal(std::string_view expected, std::string_view hint) {
    const Token token = m_token;
    Node result;
    result.op = Op::literal;
    Span where{token.offset, token.offset + token.text.size(), FieldUnit::none, LiteralUnit::plain};
    if (token.kind == TokenKind::number) {
      const NumberLiteral number = parse_number(token);
      result.type = ValueType::number;
      result.literal = number.value;
      where.literal = number.unit;
    } else if (token.kind == TokenKind::string) {
      result.type = ValueType::string;
      result.literal = unescape(token.text);
    } else if (is_keyword("true") || is_keyword("false")) {
      result.type = ValueType::boolean;
      result.literal = token.text == "true";
    } else {
      fail(token.offset, std::string(expected) + found(), std::string(hint));
    }
    advance();
    return add(std::move(result), where);
  }

  std::uint32_t parse_in(std::uint32_t left) {
    if (m_token.kind != TokenKind::lbracket) {
      fail(m_token.offset, "expected \"[\" after \"in\" but found " + found(), "write a list: in [\"a\", \"b\"]");
    }
    const std::size_t begin = span(left).begin;
    advance();
    if (m_token.kind == TokenKind::rbracket) fail(m_token.offset, "a list needs at least one value");
    Node result;
    result.op = Op::in;
    result.lhs = left;
    std::vector<Value> list;
    std::optional<ValueType> list_type;
    while (true) {
      const std::size_t at = m_token.offset;
      const std::uint32_t item = parse_literal("expected a value in the list but found ",
                                               "lists hold values such as [\"a\", \"b\"] or [1, 2]");
      const ValueType type = node(item).type;
      if (list_type && *list_type != type) {
        fail(at, "the list mixes " + std::string(describe(*list_type)) + " and " + std::string(describe(type)),
             "every value in a list has the same type");
      }
      list_type = type;
      check_types(left, item, at);
      list.push_back(node(item).literal);
      // The literal was only needed for its checks; the list keeps the values.
      m_expression.m_nodes.pop_back();
      m_spans.pop_back();
      if (m_token.kind == TokenKind::comma) {
        advance();
        continue;
      }
      if (m_token.kind != TokenKind::rbracket) fail(m_token.offset, "expected \",\" or \"]\" but found " + found());
      break;
    }
    const std::size_t end = m_token.offset + 1;
    advance();
    result.list = std::move(list);
    return add(std::move(result), Span{begin, end});
  }

  // --- checks ---

  void require_condition(std::uint32_t id) {
    if (node(id).type == ValueType::boolean) return;
    fail(span(id).begin, source(id) + " is " + std::string(describe(node(id).type)) + ", not a condition",
         "compare it with a value using ==, !=, <, <=, >, >= or in [...]");
  }

  void check_comparison(const Token& op, std::uint32_t left, std::uint32_t right) {
    const bool ordering = op.text != "==" && op.text != "!=";
    if (ordering) {
      for (std::uint32_t side : {left, right}) {
        if (node(side).type != ValueType::number) {
          fail(op.offset,
               in_quotes(op.text) + " compares numbers, but " + source(side) + " is " +
                   std::string(describe(node(side).type)),
               "use ==, != or in [...] for strings and booleans");
        }
      }
    }
    check_types(left, right, span(right).begin);
  }

  // Same type, and for numbers compatible units; reported at `at` (the right side).
  void check_types(std::uint32_t left, std::uint32_t right, std::size_t at) {
    const Node& a = node(left);
    const Node& b = node(right);
    if (a.type != b.type) {
      std::string hint;
      if (a.type == ValueType::string && b.op == Op::literal)
        hint = "write strings in double quotes: \"" + source(right) + "\"";
      fail(at,
           "cannot compare " + source(left) + " (" + std::string(describe(a.type)) + ") with " + source(right) + " (" +
               std::string(describe(b.type)) + ")",
           hint);
    }
    if (a.type == ValueType::string) check_closed_values(left, right, at);
    if (a.type != ValueType::number) return;
    const Span& sa = span(left);
    const Span& sb = span(right);
    // Orient as (field, other) where one side is a field.
    if (a.op == Op::field && b.op == Op::field) {
      if (sa.unit != sb.unit && sa.unit != FieldUnit::none && sb.unit != FieldUnit::none) {
        fail(at, "cannot compare " + source(left) + " (" + std::string(describe(sa.unit)) + ") with " + source(right) +
                     " (" + std::string(describe(sb.unit)) + ")");
      }
      return;
    }
    const bool left_is_field = a.op == Op::field;
    if (!left_is_field && b.op != Op::field) return;  // two literals: nothing to check
    const std::uint32_t field = left_is_field ? left : right;
    const std::uint32_t literal = left_is_field ? right : left;
    const FieldUnit field_unit = span(field).unit;
    const LiteralUnit literal_unit = span(literal).literal;
    if (compatible(literal_unit, field_unit)) return;
    fail(span(literal).begin,
         "cannot compare " + source(field) + " (" + std::string(describe(field_unit)) + ") with " + source(literal) +
             " (" + std::string(describe(literal_unit)) + ")",
         "write " + source(field) + " as " + std::string(unit_examples(field_unit)));
  }

  // A string literal compared with a field whose values are a closed set must be one of them.
  void check_closed_values(std::uint32_t left, std::uint32_t right, std::size_t at) {
    const bool left_is_field = node(left).op == Op::field;
    const std::uint32_t field = left_is_field ? left : right;
    const std::uint32_t literal = left_is_field ? right : left;
    if (node(field).op != Op::field || node(literal).op != Op::literal) return;
    const FieldSpec& spec = m_fields[node(field).field];
    if (spec.values.empty()) return;
    const std::string& text = node(literal).literal.string();
    if (std::find(spec.values.begin(), spec.values.end(), text) != spec.values.end()) return;
    std::string hint = did_you_mean(text, spec.values);
    std::string names;
    for (const std::string& value : spec.values) names += (names.empty() ? "" : ", ") + value;
    hint = hint.empty() ? "one of: " + names : hint + " (one of: " + names + ")";
    fail(left_is_field ? at : span(literal).begin, spec.name + " is never " + in_quotes(text), hint);
  }

  // --- literals ---

  NumberLiteral parse_number(const Token& token) const {
    try {
      return expression_literal::parse_number(token.text);
    } catch (const expression_literal::LiteralError& error) {
      fail(token.offset + error.offset, error.message, error.hint);
    }
  }

  static std::string unescape(std::string_view quoted_text) {
    std::string result;
    const std::string_view body = quoted_text.substr(1, quoted_text.size() - 2);
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\' && i + 1 < body.size()) ++i;
      result += body[i];
    }
    return result;
  }

  [[noreturn]] void fail(std::size_t offset, std::string message, std::string hint = {}) const {
    Error error(ErrorKind::input, std::move(message), std::move(hint));
    error.at(m_locate(offset));
    throw error;
  }

  std::string_view m_text;
  const FieldSet& m_fields;
  const ExpressionLocator& m_locate;
  ExpressionLexer m_lexer;
  const Token& m_token = m_lexer.token();  // the current token
  int m_depth = 0;
  Expression m_expression;
  std::vector<Span> m_spans;  // parallel to m_expression.m_nodes
};

namespace {

std::string cut_line(std::string_view line, int column) {
  if (line.size() <= k_max_line_text) return std::string(line);
  return column <= static_cast<int>(k_max_line_text) ? std::string(line.substr(0, k_max_line_text)) : std::string();
}

}  // namespace

Expression Expression::parse(std::string_view text, const FieldSet& fields, const SourceLocation& start) {
  const ExpressionLocator locate = [&](std::size_t offset) {
    offset = std::min(offset, text.size());
    // Which line of the text the offset is on, and where that line starts.
    std::size_t line_start = 0;
    int line_index = 0;
    for (std::size_t i = 0; i < offset; ++i) {
      if (text[i] == '\n') {
        line_start = i + 1;
        ++line_index;
      }
    }
    const int column_in_line = static_cast<int>(offset - line_start) + 1;
    SourceLocation where;
    where.file = start.file;
    if (start.line <= 0) {
      std::size_t line_end = text.find('\n', line_start);
      if (line_end == std::string_view::npos) line_end = text.size();
      where.line = line_index + 1;
      where.column = column_in_line;
      where.line_text = cut_line(text.substr(line_start, line_end - line_start), where.column);
    } else if (line_index == 0) {
      where.line = start.line;
      where.column = std::max(start.column, 1) + column_in_line - 1;
      where.line_text = cut_line(start.line_text, where.column);
    } else {
      // Later lines of a multi-line text: their indentation in the file is unknown.
      where.line = start.line + line_index;
      where.column = column_in_line;
    }
    return where;
  };
  return parse(text, fields, locate);
}

Expression Expression::parse(std::string_view text, const FieldSet& fields, const ExpressionLocator& locate) {
  return ExpressionParser(text, fields, locate).run();
}

}  // namespace mlsize
