#pragma once
// Writing and reading the compact bytes of the build-time snapshots (catalogue, rules):
// length-prefixed text and native numbers, read back on the machine that wrote them.

#include <mlsize/support/error.hpp>

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
    text(at.line_text);
  }
  std::string take() { return std::move(m_bytes); }

 private:
  void raw(const void* data, std::size_t size) { m_bytes.append(static_cast<const char*>(data), size); }
  std::string m_bytes;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
  std::uint32_t u32() { return raw<std::uint32_t>(); }
  int i32() { return raw<int>(); }
  double f64() { return raw<double>(); }
  std::string text() {
    const std::uint32_t size = u32();
    need(size);
    std::string value(m_bytes.substr(m_at, size));
    m_at += size;
    return value;
  }
  template <class T, class Get>
  std::optional<T> optional(Get get) {
    if (u32() == 0) return std::nullopt;
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
      throw Error(ErrorKind::input, "a compiled-in snapshot is truncated", "rebuild mlsize");
    }
  }
  std::string_view m_bytes;
  std::size_t m_at = 0;
};

}  // namespace mlsize::snapshot
