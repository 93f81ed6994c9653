#pragma once
// Rule messages with `{field}` placeholders, resolved to field ids when loaded and
// filled from FieldValues when a rule fires. `{{` and `}}` write literal braces.

#include <mlsize/expr/expression.hpp>
#include <mlsize/expr/field_set.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

inline constexpr std::size_t k_max_message_length = 2000;  // characters

class MessageTemplate {
 public:
  MessageTemplate() = default;

  // Throws Error (input) at the offending character for an unknown field, an unclosed
  // or stray brace, or a text over k_max_message_length; `locate` maps offsets to file
  // positions (Expression::parse's locators).
  static MessageTemplate parse(std::string_view text, const FieldSet& fields, const ExpressionLocator& locate);

  // The text with each placeholder replaced by its value, formatted by the field's unit
  // (format_value); a missing value reads "unknown".
  std::string render(const FieldValues& values) const;

  const std::string& text() const { return m_text; }
  // The ids of the fields its placeholders read, in order, repeats kept.
  std::vector<std::size_t> fields() const;
  bool empty() const { return m_text.empty(); }

 private:
  struct Piece {
    std::string literal;               // text before the placeholder (or the whole tail)
    std::optional<std::size_t> field;  // the placeholder's field id, if any
    FieldUnit unit = FieldUnit::none;
  };
  std::vector<Piece> m_pieces;
  std::string m_text;
};

}  // namespace mlsize
