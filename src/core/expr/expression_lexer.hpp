#pragma once
// The expression language's tokens (expression.hpp): names, numbers, strings,
// punctuation and comparison operators.

#include <mlsize/expr/expression.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace mlsize {

enum class TokenKind { end, name, number, string, lparen, rparen, lbracket, rbracket, comma, compare };

struct Token {
  TokenKind kind = TokenKind::end;
  std::size_t offset = 0;  // 0-based, into the expression text
  std::string_view text;   // as written (strings with their quotes)
};

// Splits an expression into tokens, one at a time. Throws Error (input) at a character
// no token starts with, and at an unterminated string.
class ExpressionLexer {
 public:
  ExpressionLexer(std::string_view text, const ExpressionLocator& locate) : m_text(text), m_locate(locate) {}

  // Moves to the next token (the first, on the first call).
  void advance();
  const Token& token() const { return m_token; }
  bool is_keyword(std::string_view word) const { return m_token.kind == TokenKind::name && m_token.text == word; }
  // The current token for messages: "\"and\"", "the string \"x\"", "the end of the expression".
  std::string found() const;

 private:
  [[noreturn]] void fail(std::size_t offset, std::string message, std::string hint) const;

  std::string_view m_text;
  const ExpressionLocator& m_locate;
  Token m_token;
  std::size_t m_next = 0;
};

}  // namespace mlsize
