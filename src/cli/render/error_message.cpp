#include "cli/render/error_message.hpp"

#include "cli/render/provenance.hpp"

#include <mlsize/support/utf8.hpp>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace mlsize::cli {
namespace {

// Control characters and bytes that are not UTF-8 are shown escaped (\xNN) so a
// hostile file or flag cannot rewrite the terminal.
std::string printable(const std::string& text) {
  return escape_unprintable(text);
}

// A hint of several lines (the import's summary of what it skipped) keeps its lines, each
// escaped and indented under "hint: ", so that no line of it, hostile text included, can
// pass for a line of its own at the left margin (issue 46: its line feeds showed as \x0a).
std::string printable_lines(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    out += printable(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos || end + 1 == text.size()) break;
    out += "\n  ";
    start = end + 1;
  }
  return out;
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
  if (!error.hint().empty()) text += "hint: " + printable_lines(error.hint()) + "\n";
  return text;
}

namespace {

nlohmann::json error_object(std::string_view code, const std::string& message, int exit_code) {
  // Text from outside (a flag's value, a file's line) is kept as it is: JSON escapes it.
  return {{"code", code},    {"exit_code", exit_code}, {"message", message}, {"flag", nullptr},
          {"file", nullptr}, {"line", nullptr},        {"column", nullptr},  {"hint", nullptr}};
}

std::string json_line(nlohmann::json error) {
  const nlohmann::json document{{"schema_version", k_schema_version}, {"error", std::move(error)}};
  // Invalid UTF-8 (a hostile file's bytes) is replaced rather than thrown on.
  return document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string format_error_json(const Error& error, int exit_code) {
  nlohmann::json object =
      error_object(error.kind() == ErrorKind::usage ? "usage" : "input", error.message(), exit_code);
  const SourceLocation& location = error.location();
  if (!location.file.empty()) {
    object["file"] = location.file;
    if (location.line > 0) object["line"] = location.line;
    if (location.column > 0) object["column"] = location.column;
  } else if (!error.where().empty()) {
    object["flag"] = error.where();
  }
  if (!error.hint().empty()) object["hint"] = error.hint();
  return json_line(std::move(object));
}

std::string format_failure_json(std::string_view code, const std::string& message, int exit_code) {
  return json_line(error_object(code, message, exit_code));
}

}  // namespace mlsize::cli
