#pragma once
// The closed set of named, typed fields an expression may read, and their values for
// one evaluation. Fields are resolved to ids when an expression is parsed, so
// evaluation indexes a vector instead of looking names up.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mlsize {

enum class ValueType { number, string, boolean };

// What a number field measures; a literal with a unit (100GB, $5k, 48h) may only be
// compared with a field of the same unit. Plain numbers and counts (0.9, 7B) fit any.
enum class FieldUnit { none, count, bytes, usd, seconds, fraction };

// One value: a number, a string or a boolean.
struct Value {
  std::variant<double, std::string, bool> data;

  // Implicit, so that callers and tests can write `values[id] = 7e9` or `= "gpu"`.
  Value() = default;
  Value(double number) : data(number) {}
  Value(int number) : data(static_cast<double>(number)) {}
  Value(bool flag) : data(flag) {}
  Value(std::string text) : data(std::move(text)) {}
  Value(std::string_view text) : data(std::string(text)) {}
  Value(const char* text) : data(std::string(text)) {}

  ValueType type() const { return static_cast<ValueType>(data.index()); }
  double number() const { return std::get<double>(data); }
  const std::string& string() const { return std::get<std::string>(data); }
  bool boolean() const { return std::get<bool>(data); }
  bool operator==(const Value&) const = default;
};

struct FieldSpec {
  std::string name;  // "workload.params"
  ValueType type = ValueType::number;
  FieldUnit unit = FieldUnit::none;  // numbers only
  std::string description;           // one line, with the unit, for docs and `rules list`
  // Strings only: the values the field can take, when that set is closed (task names);
  // comparing with any other string is then a parse error. Empty: any string.
  std::vector<std::string> values;
};

// Field values for one evaluation, indexed by field id; nullopt when unknown
// (e.g. estimate.cost_usd for a plan without a price).
using FieldValues = std::vector<std::optional<Value>>;

class FieldSet {
 public:
  FieldSet() = default;
  explicit FieldSet(std::vector<FieldSpec> fields);

  // The id of the field called `name`, if there is one.
  std::optional<std::size_t> find(std::string_view name) const;
  const FieldSpec& operator[](std::size_t id) const { return m_fields[id]; }
  std::size_t size() const { return m_fields.size(); }
  std::span<const FieldSpec> fields() const { return m_fields; }
  // The names, for "did you mean" hints.
  std::span<const std::string> names() const { return m_names; }

 private:
  std::vector<FieldSpec> m_fields;
  std::vector<std::string> m_names;
};

// "a number", "a string", "a boolean": for messages.
std::string_view describe(ValueType type);
// "a count", "bytes", "US dollars", "seconds", "a fraction", "a number": for messages.
std::string_view describe(FieldUnit unit);

// A value as a person reads it, by its field's unit: 7.0B, 200.0 GB, $2,196, 3.8 d, 85%.
std::string format_value(const Value& value, FieldUnit unit);

}  // namespace mlsize
