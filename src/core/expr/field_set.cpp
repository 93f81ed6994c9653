#include <mlsize/expr/field_set.hpp>

#include <mlsize/support/units.hpp>

#include <cmath>
#include <cstdio>

namespace mlsize {

FieldSet::FieldSet(std::vector<FieldSpec> fields) : m_fields(std::move(fields)) {
  m_names.reserve(m_fields.size());
  for (const FieldSpec& field : m_fields) m_names.push_back(field.name);
}

std::optional<std::size_t> FieldSet::find(std::string_view name) const {
  // A linear scan: it runs once per field reference at parse time, never at evaluation.
  for (std::size_t id = 0; id < m_fields.size(); ++id) {
    if (m_fields[id].name == name) return id;
  }
  return std::nullopt;
}

std::string_view describe(ValueType type) {
  switch (type) {
    case ValueType::number: return "a number";
    case ValueType::string: return "a string";
    case ValueType::boolean: return "a boolean";
  }
  return "a value";
}

std::string_view describe(FieldUnit unit) {
  switch (unit) {
    case FieldUnit::none: return "a number";
    case FieldUnit::count: return "a count";
    case FieldUnit::bytes: return "bytes";
    case FieldUnit::usd: return "US dollars";
    case FieldUnit::seconds: return "seconds";
    case FieldUnit::fraction: return "a fraction";
  }
  return "a number";
}

namespace {

std::string printf_number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// The same shapes as the CLI's table (src/cli/render/format.cpp), which the core cannot use.
std::string format_count(double count) {
  if (count >= 1e12) return printf_number("%.1fT", count / 1e12);
  if (count >= 1e9) return printf_number("%.1fB", count / 1e9);
  if (count >= 1e6) return printf_number("%.0fM", count / 1e6);
  if (count >= 1e4) return printf_number("%.0fk", count / 1e3);
  return printf_number("%g", count);
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e15) return printf_number("%.1f PB", bytes / 1e15);
  if (bytes >= 1e12) return printf_number("%.1f TB", bytes / 1e12);
  if (bytes >= 1e9) return printf_number("%.1f GB", bytes / 1e9);
  if (bytes >= 1e6) return printf_number("%.1f MB", bytes / 1e6);
  if (bytes >= 1e3) return printf_number("%.1f kB", bytes / 1e3);
  return printf_number("%.0f bytes", bytes);
}

std::string format_usd(double value) {
  if (value < 100.0) return printf_number("$%.2f", value);
  // Thousands separators by hand: the locale must not change the output.
  const std::string digits = printf_number("%.0f", value);
  std::string grouped = "$";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    grouped += digits[i];
    const std::size_t remaining = digits.size() - i - 1;
    if (remaining > 0 && remaining % 3 == 0) grouped += ',';
  }
  return grouped;
}

std::string format_seconds(double s) {
  if (s < 60.0) return printf_number("%.0f s", s);
  if (s < k_seconds_per_hour) return printf_number("%.0f min", s / 60.0);
  if (s < 2.0 * k_seconds_per_day) return printf_number("%.1f h", s / k_seconds_per_hour);
  if (s < 365.0 * k_seconds_per_day) return printf_number("%.1f d", s / k_seconds_per_day);
  return printf_number("%.1f y", s / (365.0 * k_seconds_per_day));
}

}  // namespace

std::string format_value(const Value& value, FieldUnit unit) {
  switch (value.type()) {
    case ValueType::string: return value.string();
    case ValueType::boolean: return value.boolean() ? "true" : "false";
    case ValueType::number: break;
  }
  const double number = value.number();
  if (!std::isfinite(number)) return printf_number("%g", number);
  switch (unit) {
    case FieldUnit::count: return format_count(number);
    case FieldUnit::bytes: return format_bytes(number);
    case FieldUnit::usd: return format_usd(number);
    case FieldUnit::seconds: return format_seconds(number);
    case FieldUnit::fraction: return printf_number("%.0f%%", number * 100.0);
    case FieldUnit::none: break;
  }
  return printf_number("%g", number);
}

}  // namespace mlsize
