#pragma once
// The rules' condition language: comparisons of fields with literals, joined by
// and/or/not. Parsed and type-checked once; evaluated many times without string
// lookups. Grammar, fields and semantics: docs/rules.md#expressions.
//
//   or_expr    := and_expr ("or" and_expr)*
//   and_expr   := not_expr ("and" not_expr)*
//   not_expr   := "not" not_expr | comparison
//   comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand | "in" list)?
//   operand    := field | literal | "(" or_expr ")"
//   list       := "[" literal ("," literal)* "]"
//   literal    := number | string | "true" | "false"
//   number     := 0.9 | 8 | 7B | 100GB | 1.5TiB | $5k | 48h     (quantity.hpp's forms)
//   string     := '"' characters, with \" and \\ escapes '"'
//   field      := a name from the FieldSet, such as workload.params

#include <mlsize/expr/field_set.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// Limits that keep parsing and evaluation cheap and bounded.
inline constexpr std::size_t k_max_expression_length = 4096;  // characters
inline constexpr int k_max_expression_depth = 64;             // nested parentheses and `not`s
inline constexpr std::size_t k_max_expression_nodes = 256;    // fields, literals and operators

// Where the character at a 0-based offset of the expression text lies in its file.
using ExpressionLocator = std::function<SourceLocation(std::size_t offset)>;

class Expression {
 public:
  // Parses and type-checks `text` over `fields`. Throws Error (input) on a syntax,
  // type or limit error. `start` is where the text begins in its file (file, line,
  // 1-based column, the line's text); errors then point at the exact character.
  // Without it (line 0) the error's location is line 1 of the expression itself.
  static Expression parse(std::string_view text, const FieldSet& fields, const SourceLocation& start = {});
  // As above, with a function that maps offsets to file positions (for YAML scalars
  // whose text differs from their source: quotes, escapes, folded lines).
  static Expression parse(std::string_view text, const FieldSet& fields, const ExpressionLocator& locate);

  // Whether the expression holds for `values` (indexed by field id). A comparison that
  // reads a missing value (nullopt or beyond the vector's end) is false; `not` inverts
  // that false. A default-constructed Expression is always true.
  bool evaluate(const FieldValues& values) const;

  // Whether the expression is false whatever the fields from id `known_below` on hold:
  // one of the terms joined by its top-level `and`s reads only fields below that id and is
  // false for `values` (which need hold only those). A partial evaluation for rules that
  // can be ruled out before a plan's fields are known; false when it cannot tell.
  bool refuted(const FieldValues& values, std::size_t known_below) const;

  // The terms joined by the top-level `and`s that are left to evaluate once the fields
  // below `known_below` hold `values`: all but those that read only such fields and hold.
  // For an expression not refuted, evaluate() is then whether every one of them holds
  // (holds_all), with the known terms not evaluated again for each plan.
  using Terms = std::vector<std::uint32_t>;
  Terms unknown_terms(const FieldValues& values, std::size_t known_below) const;
  bool holds_all(const Terms& terms, const FieldValues& values) const;

  // The ids of the fields the expression reads, ascending, without repeats.
  const std::vector<std::size_t>& fields() const { return m_fields; }
  // The text it was parsed from.
  const std::string& text() const { return m_text; }

  // One node of the parsed tree (public only so that the parser can build it).
  enum class Op : std::uint8_t { field, literal, and_, or_, not_, eq, ne, lt, le, gt, ge, in };
  struct Node {
    Op op = Op::literal;
    ValueType type = ValueType::boolean;  // what the node yields
    std::uint32_t lhs = 0;                // child node ids: and/or/not/comparisons
    std::uint32_t rhs = 0;
    std::size_t field = 0;    // Op::field
    Value literal;            // Op::literal
    std::vector<Value> list;  // Op::in
  };

  // The parsed tree: each node after its children, the root last.
  const std::vector<Node>& nodes() const { return m_nodes; }
  // The expression `text` parses to, from the tree its nodes() gave: the compiled-in rules
  // store their trees, so that a run does not parse them again (issue 49: 0.3 M
  // instructions of every `recommend`). The tree is the build's own, trusted as it is.
  static Expression from_nodes(std::string text, std::vector<Node> nodes);

 private:
  friend class ExpressionParser;

  std::optional<bool> truth(std::uint32_t node, const FieldValues& values) const;
  bool holds(std::uint32_t node, const FieldValues& values) const;
  const Value* operand(std::uint32_t node, const FieldValues& values) const;
  bool refutes(std::uint32_t node, const FieldValues& values, std::size_t known_below) const;
  bool reads_only_below(std::uint32_t node, std::size_t known_below) const;
  void collect_unknown(std::uint32_t node, const FieldValues& values, std::size_t known_below, Terms& terms) const;
  // Sets fields() from the tree: the parser and from_nodes both end here.
  void index_fields();

  std::string m_text;
  std::vector<Node> m_nodes;  // the root is the last node; empty means "true"
  std::vector<std::size_t> m_fields;
};

}  // namespace mlsize
