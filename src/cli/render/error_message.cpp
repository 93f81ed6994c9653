#include "cli/render/error_message.hpp"

#include <mlsize/support/utf8.hpp>

#include <fmt/format.h>

namespace mlsize::cli {
namespace {

// Control characters and bytes that are not UTF-8 are shown escaped (\xNN) so a
// hostile file or flag cannot rewrite the terminal.
std::string printable(const std::string& text) {
  return escape_unprintable(text);
}

}  // namespace

std::string format_error(const Error& error) {
  std::string text = "mlsize: error: ";
  if (!error.where().empty()) text += printable(error.where()) + ": ";
  text += printable(error.message()) + "\n";
  const SourceLocation& location = error.location();
  if (location.line > 0 && !location.line_text.empty()) {
    const std::string number = std::to_string(location.line);
    const std::string gutter(number.size(), ' ');
    std::string caret_indent;
    for (int i = 1; i < location.column && static_cast<std::size_t>(i) <= location.line_text.size(); ++i) {
      caret_indent += location.line_text[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
    }
    text += fmt::format("  {} | {}\n  {} | {}^\n", number, printable(location.line_text), gutter, caret_indent);
  }
  if (!error.hint().empty()) text += "hint: " + printable(error.hint()) + "\n";
  return text;
}

}  // namespace mlsize::cli
