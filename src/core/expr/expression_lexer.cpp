#include "core/expr/expression_lexer.hpp"

#include <mlsize/support/text_distance.hpp>

#include <array>
#include <utility>

namespace mlsize {
namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string hex(unsigned char byte) {
  constexpr std::string_view k_digits = "0123456789abcdef";
  return {k_digits[byte >> 4u], k_digits[byte & 0xfu]};
}

}  // namespace

void ExpressionLexer::advance() {
  std::size_t at = m_next;
  while (at < m_text.size() && is_space(m_text[at])) ++at;
  m_token = Token{TokenKind::end, at, {}};
  if (at >= m_text.size()) {
    m_next = at;
    return;
  }
  const char c = m_text[at];
  std::size_t end = at + 1;
  if (is_alpha(c)) {
    while (end < m_text.size() && (is_alpha(m_text[end]) || is_digit(m_text[end]) || m_text[end] == '.')) ++end;
    m_token.kind = TokenKind::name;
  } else if (is_digit(c) || c == '$' || (c == '.' && at + 1 < m_text.size() && is_digit(m_text[at + 1]))) {
    while (end < m_text.size()) {
      const char d = m_text[end];
      // A sign belongs to the number only as an exponent's: 1e-3.
      const bool exponent_sign = (d == '+' || d == '-') && (m_text[end - 1] == 'e' || m_text[end - 1] == 'E') &&
                                 end >= 2 + at && is_digit(m_text[end - 2]);
      if (!(is_alpha(d) || is_digit(d) || d == '.' || exponent_sign)) break;
      ++end;
    }
    m_token.kind = TokenKind::number;
  } else if (c == '"') {
    while (end < m_text.size() && m_text[end] != '"') end += m_text[end] == '\\' ? std::size_t{2} : std::size_t{1};
    if (end >= m_text.size()) fail(at, "unterminated string", "close it with a double quote");
    ++end;
    m_token.kind = TokenKind::string;
  } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == ',') {
    constexpr std::array<std::pair<char, TokenKind>, 5> k_punctuation{{{'(', TokenKind::lparen},
                                                                       {')', TokenKind::rparen},
                                                                       {'[', TokenKind::lbracket},
                                                                       {']', TokenKind::rbracket},
                                                                       {',', TokenKind::comma}}};
    for (const auto& [symbol, kind] : k_punctuation) {
      if (symbol == c) m_token.kind = kind;
    }
  } else if (c == '<' || c == '>' || c == '=' || c == '!') {
    const bool equals_next = at + 1 < m_text.size() && m_text[at + 1] == '=';
    if (equals_next) ++end;
    if ((c == '=' || c == '!') && !equals_next) {
      if (c == '=') fail(at, "\"=\" is not an operator", "compare with \"==\"");
      fail(at, "unexpected character \"!\"", "write \"not\", or \"!=\" to compare");
    }
    m_token.kind = TokenKind::compare;
  } else {
    std::string hint;
    if (c == '&' || c == '|') hint = "write \"and\", \"or\" and \"not\"";
    if (c == '\'') hint = "strings are written in double quotes";
    const auto byte = static_cast<unsigned char>(c);
    std::string shown = byte >= 0x20 && byte < 0x7f ? std::string(1, c) : "\\x" + hex(byte);
    fail(at, "unexpected character " + in_quotes(shown), hint);
  }
  m_token.text = m_text.substr(at, end - at);
  m_next = end;
}

std::string ExpressionLexer::found() const {
  if (m_token.kind == TokenKind::end) return "the end of the expression";
  std::string_view text = m_token.text;
  const bool cut = text.size() > 40;
  if (cut) text = text.substr(0, 40);
  const std::string shown = std::string(text) + (cut ? "..." : "");
  return m_token.kind == TokenKind::string ? "the string " + shown : in_quotes(shown);
}

void ExpressionLexer::fail(std::size_t offset, std::string message, std::string hint) const {
  Error error(ErrorKind::input, std::move(message), std::move(hint));
  error.at(m_locate(offset));
  throw error;
}

}  // namespace mlsize
