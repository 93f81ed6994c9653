#include <mlsize/expr/message_template.hpp>

#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>

#include <utility>

namespace mlsize {
namespace {

[[noreturn]] void fail_at(const ExpressionLocator& locate, std::size_t offset, std::string message, std::string hint) {
  Error error(ErrorKind::input, std::move(message), std::move(hint));
  error.at(locate(offset));
  throw error;
}

}  // namespace

MessageTemplate MessageTemplate::parse(std::string_view text, const FieldSet& fields, const ExpressionLocator& locate) {
  if (text.size() > k_max_message_length) {
    fail_at(locate, k_max_message_length,
            "message is longer than " + std::to_string(k_max_message_length) + " characters",
            "keep messages to a few sentences");
  }
  MessageTemplate result;
  result.m_text = std::string(text);
  Piece piece;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool doubled = i + 1 < text.size() && text[i + 1] == c;
    if ((c == '{' || c == '}') && doubled) {
      piece.literal += c;
      ++i;
      continue;
    }
    if (c == '}') fail_at(locate, i, "unmatched \"}\" in message", "write \"}}\" for a literal brace");
    if (c != '{') {
      piece.literal += c;
      continue;
    }
    const std::size_t close = text.find('}', i + 1);
    if (close == std::string_view::npos) {
      fail_at(locate, i, "unclosed \"{\" in message",
              "placeholders look like {workload.params}; write \"{{\" for a literal brace");
    }
    const std::string_view name = text.substr(i + 1, close - i - 1);
    const std::optional<std::size_t> id = fields.find(name);
    if (!id) {
      std::string hint = did_you_mean(name, fields.names());
      if (hint.empty()) hint = "the fields are listed in docs/rules.md#fields";
      fail_at(locate, i + 1, "unknown field \"" + std::string(name) + "\" in message placeholder", hint);
    }
    piece.field = *id;
    piece.unit = fields[*id].unit;
    result.m_pieces.push_back(std::move(piece));
    piece = Piece{};
    i = close;
  }
  if (!piece.literal.empty()) result.m_pieces.push_back(std::move(piece));
  return result;
}

std::string MessageTemplate::render(const FieldValues& values) const {
  std::string result;
  for (const Piece& piece : m_pieces) {
    result += piece.literal;
    if (!piece.field) continue;
    const std::size_t id = *piece.field;
    result += id < values.size() && values[id] ? format_value(*values[id], piece.unit) : "unknown";
  }
  return result;
}

std::vector<std::size_t> MessageTemplate::fields() const {
  std::vector<std::size_t> ids;
  for (const Piece& piece : m_pieces) {
    if (piece.field) ids.push_back(*piece.field);
  }
  return ids;
}

}  // namespace mlsize
