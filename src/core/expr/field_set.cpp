#include <mlsize/expr/field_set.hpp>

#include <mlsize/support/number_format.hpp>

#include <cmath>

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

std::string format_value(const Value& value, FieldUnit unit) {
  switch (value.type()) {
    case ValueType::string: return value.string();
    case ValueType::boolean: return value.boolean() ? "true" : "false";
    case ValueType::number: break;
  }
  const double number = value.number();
  // A number without a finite value has no unit to speak of: "nan", "inf".
  if (!std::isfinite(number)) return format_general(number);
  switch (unit) {
    case FieldUnit::count: return format_count_exact_below_10k(number);
    case FieldUnit::bytes: return format_bytes(Bytes(number));
    case FieldUnit::usd: return format_usd(Usd(number));
    case FieldUnit::seconds: return format_duration(Seconds(number));
    case FieldUnit::fraction: return format_percent(number);
    case FieldUnit::none: break;
  }
  return format_general(number);
}

}  // namespace mlsize
