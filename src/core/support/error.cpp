#include <mlsize/support/error.hpp>

#include <utility>

namespace mlsize {

Error::Error(ErrorKind kind, std::string message, std::string hint)
    : std::runtime_error(message), m_kind(kind), m_message(std::move(message)), m_hint(std::move(hint)) {}

Error& Error::at(SourceLocation location) {
  m_where = location.file;
  if (location.line > 0) {
    // Appended piece by piece: `":" + std::to_string(...)` trips GCC 12's false -Wrestrict.
    m_where += ':';
    m_where += std::to_string(location.line);
    if (location.column > 0) {
      m_where += ':';
      m_where += std::to_string(location.column);
    }
  }
  m_location = std::move(location);
  return *this;
}

Error& Error::at_flag(std::string flag) {
  m_where = std::move(flag);
  return *this;
}

}  // namespace mlsize
