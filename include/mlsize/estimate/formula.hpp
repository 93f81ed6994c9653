#pragma once
// A number of an estimate together with how it was computed, for `--explain`.
//
// The memory estimate is written once, as templates over its number type: with double for
// the planner, which runs it for every candidate plan (no text, no allocation), and with
// Formula when a user asks for the explanation. The printed formula and the value so come
// from one expression and cannot drift apart. Formula computes its value with the same
// double operations in the same order, so both give bit-identical values.
//
// How a formula prints (docs/methodology.md#memory shows the formulas):
// - a chain of × and / prints its factors first, then its divisors: N × 4 / (t·p);
// - a division by a plain number is written tight: linear × 4.127/8;
// - adding or subtracting the plain number 0, and multiplying or dividing by the plain
//   number 1, leave no trace; a product with the plain number 0 is that number. Named
//   inputs always print, whatever their value.

#include <mlsize/support/number_format.hpp>  // format_general: numbers in formulas, as %.6g

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace mlsize {

class Formula {
 public:
  // A plain number; prints as format_general(value).
  Formula(double value) : m_value(value) {}  // NOLINT(google-explicit-constructor): numbers mix in

  // An input with a name, e.g. N or dp; prints its name.
  static Formula input(std::string_view name, double value);
  // A number with what it counts, e.g. "4 master".
  static Formula amount(double value, std::string_view what);
  // A number shown rounded to `decimals` places, as the documentation writes it (NF4's
  // 4.127 bits); its value stays exact.
  static Formula rounded(double value, int decimals);
  // A divisor that applies only under `condition`: its value is `divisor` when `applies`,
  // 1 otherwise; it prints "[/ divisor at condition]" either way. A divisor of the plain
  // number 1 is that number.
  static Formula divisor_if(bool applies, std::string_view condition, const Formula& divisor);

  // "label x", or "label (x)" for a sum.
  Formula labelled(std::string_view label) const;
  // "x (note)".
  Formula noted(std::string_view note) const;

  double value() const { return m_value; }
  std::string text() const;

  friend Formula operator+(const Formula& a, const Formula& b);
  friend Formula operator-(const Formula& a, const Formula& b);
  friend Formula operator*(const Formula& a, const Formula& b);
  friend Formula operator/(const Formula& a, const Formula& b);
  friend Formula maximum(const Formula& a, const Formula& b);  // std::max(a, b)
  friend Formula minimum(const Formula& a, const Formula& b);  // std::min(a, b)

 private:
  enum class Kind {
    number,
    input,
    rounded,
    amount,
    sum,
    difference,
    product,
    quotient,
    max,
    min,
    labelled,
    noted,
    divisor_if
  };

  Formula(Kind kind, double value, std::string_view words, const Formula* left, const Formula* right);
  bool is_number(double number) const { return m_kind == Kind::number && m_value == number; }
  Formula with_value(double value) const;
  int precedence() const;
  std::string operand(int least_precedence) const;
  std::string chain() const;
  void collect(bool divide, std::string& factors, std::string& divisors) const;

  Kind m_kind = Kind::number;
  double m_value = 0;
  std::string m_words;  // the input's name, the rounded number, the amount's unit, the label, note or condition
  std::shared_ptr<const Formula> m_left;
  std::shared_ptr<const Formula> m_right;
};

// The same operations on double, for the estimate without explanation.
inline double maximum(double a, double b) {
  return a < b ? b : a;
}
inline double minimum(double a, double b) {
  return b < a ? b : a;
}

// Helpers for code written once for T = double and T = Formula: with double they give the
// bare number and never touch their text arguments.
template <class T>
T named(std::string_view name, double value) {
  if constexpr (std::is_same_v<T, Formula>) {
    return Formula::input(name, value);
  } else {
    return value;
  }
}

template <class T>
T amount(double value, std::string_view what) {
  if constexpr (std::is_same_v<T, Formula>) {
    return Formula::amount(value, what);
  } else {
    return value;
  }
}

template <class T>
T rounded(double value, int decimals) {
  if constexpr (std::is_same_v<T, Formula>) {
    return Formula::rounded(value, decimals);
  } else {
    return value;
  }
}

inline double divisor_if(bool applies, std::string_view, double divisor) {
  return applies ? divisor : 1.0;
}
inline Formula divisor_if(bool applies, std::string_view condition, const Formula& divisor) {
  return Formula::divisor_if(applies, condition, divisor);
}

inline double labelled(std::string_view, double x) {
  return x;
}
inline Formula labelled(std::string_view label, const Formula& x) {
  return x.labelled(label);
}

inline double noted(double x, std::string_view) {
  return x;
}
inline Formula noted(const Formula& x, std::string_view note) {
  return x.noted(note);
}

inline double value_of(double x) {
  return x;
}
inline double value_of(const Formula& x) {
  return x.value();
}

}  // namespace mlsize
