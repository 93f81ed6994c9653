#pragma once
// Number literals of the expression language (expression.hpp): 0.9, 7B, 100GB, $5k, 48h,
// parsed by quantity.hpp's parsers, and which field units each may be compared with.

#include <mlsize/expr/field_set.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace mlsize::expression_literal {

// How a number literal was written.
enum class LiteralUnit { plain, count, bytes, usd, seconds };

struct NumberLiteral {
  double value = 0;
  LiteralUnit unit = LiteralUnit::plain;
};

// Why a literal is not a number; `offset` is within the literal.
struct LiteralError {
  std::size_t offset = 0;
  std::string message;
  std::string hint;
};

// Throws LiteralError.
NumberLiteral parse_number(std::string_view text);

// "a count", "bytes", ...: for messages.
std::string_view describe(LiteralUnit unit);

// Whether a literal written with `literal`'s unit may be compared with a field of `field`'s.
bool compatible(LiteralUnit literal, FieldUnit field);

// "a count such as 7B or 350M": what a field of `unit` is compared with.
std::string_view unit_examples(FieldUnit unit);

}  // namespace mlsize::expression_literal
