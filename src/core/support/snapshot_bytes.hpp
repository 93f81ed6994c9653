#pragma once
// Writing and reading the compact bytes of the build-time snapshots (catalogue, rules) and
// of compiled catalogues: length-prefixed text and native numbers, read back on a machine
// of the same byte order.

#include <mlsize/support/error.hpp>
#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <cmath>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace mlsize::snapshot {

class Writer {
 public:
  void u32(std::uint32_t value) { raw(&value, sizeof value); }
  void i32(int value) { raw(&value, sizeof value); }
  void f64(double value) { raw(&value, sizeof value); }
  void text(const std::string& value) {
    u32(static_cast<std::uint32_t>(value.size()));
    m_bytes.append(value);
  }
  template <class T, class Put>
  void optional(const std::optional<T>& value, Put put) {
    u32(value ? 1 : 0);
    if (value) put(*value);
  }
  void location(const SourceLocation& at) {
    text(at.file);
    i32(at.line);
    i32(at.column);
    // The source line is quoted in errors only; a comment on it may hold what a reader of
    // compiled catalogues refuses (a line separator), so it is written escaped.
    text(is_printable_utf8(at.line_text) ? at.line_text : escape_unprintable(at.line_text));
  }
  // A length written before the bytes it counts, so that a reader can pass over them
  // unread: begin_length() before them, end_length(its mark) after.
  std::size_t begin_length() {
    const std::size_t mark = m_bytes.size();
    u32(0);
    return mark;
  }
  void end_length(std::size_t mark) {
    const auto length = static_cast<std::uint32_t>(m_bytes.size() - mark - sizeof(std::uint32_t));
    std::memcpy(m_bytes.data() + mark, &length, sizeof length);
  }
  std::string take() { return std::move(m_bytes); }

 private:
  void raw(const void* data, std::size_t size) { m_bytes.append(static_cast<const char*>(data), size); }
  std::string m_bytes;
};

// Reads what Writer wrote. The compiled-in snapshots are the build's own; a compiled
// catalogue (compiled_catalog.hpp) is a user's file, hostile until read: `checked` then
// also refuses counts the bytes cannot hold, enum values out of range, numbers that are not
// finite and text that is not printable UTF-8, each as an input Error at `where`.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
  Reader(std::string_view bytes, SourceLocation where, std::string hint)
      : m_bytes(bytes), m_checked(true), m_where(std::move(where)), m_hint(std::move(hint)) {}

  std::uint32_t u32() { return raw<std::uint32_t>(); }
  int i32() { return raw<int>(); }
  double f64() {
    const double value = raw<double>();
    if (m_checked && !std::isfinite(value)) fail("a number that is not finite");
    return value;
  }
  std::string text() { return std::string(view()); }
  // Text as a view of the bytes: what is compared and not kept costs no copy.
  std::string_view view() {
    const std::uint32_t size = u32();
    need(size);
    const std::string_view value = m_bytes.substr(m_at, size);
    m_at += size;
    if (m_checked && !is_printable_utf8(value))
      fail("text that is not printable UTF-8 (" + first_unprintable(value) + ")");
    return value;
  }
  // Passes over `size` bytes: what a length before them (Writer::begin_length) counts.
  void skip(std::size_t size) {
    need(size);
    m_at += size;
  }
  // Goes back to `offset`, a place offset() gave (an entry passed over, read after all).
  void seek(std::size_t offset) {
    if (offset > m_bytes.size()) fail("a place beyond its bytes");
    m_at = offset;
  }
  // A count of items of at least `least_bytes` each, which the bytes left must hold.
  std::uint32_t count(std::size_t least_bytes) {
    const std::uint32_t n = u32();
    if (n > (m_bytes.size() - m_at) / std::max<std::size_t>(least_bytes, 1)) fail("a count beyond its bytes");
    return n;
  }
  // An enum written as its number: one of `Enum`'s named values.
  template <class Enum>
  Enum enumerated(std::size_t values) {
    const std::uint32_t n = u32();
    if (n >= values) fail("an enum value out of range");
    return static_cast<Enum>(n);
  }
  template <class T, class Get>
  std::optional<T> optional(Get get) {
    const std::uint32_t present = u32();
    if (present > 1) fail("a presence flag other than 0 or 1");
    if (present == 0) return std::nullopt;
    return std::optional<T>(get());
  }
  SourceLocation location() {
    SourceLocation at;
    at.file = text();
    at.line = i32();
    at.column = i32();
    at.line_text = text();
    return at;
  }
  bool done() const { return m_at == m_bytes.size(); }
  std::size_t offset() const { return m_at; }

  // An input Error at the reader's place: `problem` at byte N.
  [[noreturn]] void fail(const std::string& problem) const {
    if (!m_checked) throw Error(ErrorKind::input, "a compiled-in snapshot is corrupt: " + problem, "rebuild mlsize");
    Error error(ErrorKind::input, "the compiled catalogue is corrupt: " + problem + " at byte " + std::to_string(m_at),
                m_hint);
    error.at(m_where);
    throw error;
  }

 private:
  template <class T>
  T raw() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, m_bytes.data() + m_at, sizeof(T));
    m_at += sizeof(T);
    return value;
  }
  void need(std::size_t size) const {
    if (m_bytes.size() - m_at < size) {
      if (!m_checked) throw Error(ErrorKind::input, "a compiled-in snapshot is truncated", "rebuild mlsize");
      fail("it ends inside an entry");
    }
  }
  std::string_view m_bytes;
  std::size_t m_at = 0;
  bool m_checked = false;
  SourceLocation m_where;
  std::string m_hint;
};

}  // namespace mlsize::snapshot
