#pragma once
// The one error type of mlsize: what went wrong, where, and what would be accepted.

#include <stdexcept>
#include <string>

namespace mlsize {

enum class ErrorKind {
  usage,  // a bad flag or flag value (exit code 2)
  input,  // a bad file: catalogue, rules, config (exit code 1)
};

// A place in a text file; line and column are 1-based, 0 when unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string line_text;  // the offending line, shown with a caret under `column`
  bool operator==(const SourceLocation&) const = default;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, std::string hint = {});

  ErrorKind kind() const { return m_kind; }
  const std::string& message() const { return m_message; }
  const std::string& hint() const { return m_hint; }
  // "file:line:column", a flag name such as "--budget", or empty.
  const std::string& where() const { return m_where; }
  const SourceLocation& location() const { return m_location; }

  Error& at(SourceLocation location);
  Error& at_flag(std::string flag);

 private:
  ErrorKind m_kind;
  std::string m_message;
  std::string m_hint;
  std::string m_where;
  SourceLocation m_location;
};

}  // namespace mlsize
