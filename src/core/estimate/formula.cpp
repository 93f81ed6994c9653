#include <mlsize/estimate/formula.hpp>

#include <algorithm>
#include <cmath>

namespace mlsize {
namespace {

// Operator precedence for parentheses: a sum inside a product needs them, a name does not.
constexpr int k_sum = 1;
constexpr int k_product = 2;
constexpr int k_atom = 3;

}  // namespace

Formula::Formula(Kind kind, double value, std::string_view words, const Formula* left, const Formula* right)
    : m_kind(kind), m_value(value), m_words(words) {
  if (left != nullptr) m_left = std::make_shared<const Formula>(*left);
  if (right != nullptr) m_right = std::make_shared<const Formula>(*right);
}

Formula Formula::input(std::string_view name, double value) {
  return {Kind::input, value, name, nullptr, nullptr};
}

Formula Formula::amount(double value, std::string_view what) {
  return {Kind::amount, value, what, nullptr, nullptr};
}

Formula Formula::rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return {Kind::rounded, value, format_general(std::round(value * scale) / scale), nullptr, nullptr};
}

Formula Formula::divisor_if(bool applies, std::string_view condition, const Formula& divisor) {
  const double value = applies ? divisor.m_value : 1.0;
  if (divisor.is_number(1)) return Formula(value);
  return {Kind::divisor_if, value, condition, &divisor, nullptr};
}

Formula Formula::labelled(std::string_view label) const {
  return {Kind::labelled, m_value, label, this, nullptr};
}

Formula Formula::noted(std::string_view note) const {
  return {Kind::noted, m_value, note, this, nullptr};
}

Formula Formula::with_value(double value) const {
  Formula copy = *this;
  copy.m_value = value;
  return copy;
}

Formula operator+(const Formula& a, const Formula& b) {
  const double value = a.m_value + b.m_value;
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  if (b.is_number(0)) return a.with_value(value);
  if (a.is_number(0)) return b.with_value(value);
  return {Formula::Kind::sum, value, {}, &a, &b};
}

Formula operator-(const Formula& a, const Formula& b) {
  const double value = a.m_value - b.m_value;
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  if (b.is_number(0)) return a.with_value(value);
  return {Formula::Kind::difference, value, {}, &a, &b};
}

Formula operator*(const Formula& a, const Formula& b) {
  const double value = a.m_value * b.m_value;
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  if (a.is_number(0) || b.is_number(0)) return Formula(value);
  if (b.is_number(1)) return a.with_value(value);
  if (a.is_number(1)) return b.with_value(value);
  return {Formula::Kind::product, value, {}, &a, &b};
}

Formula operator/(const Formula& a, const Formula& b) {
  const double value = a.m_value / b.m_value;
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  if (a.is_number(0)) return Formula(value);
  if (b.is_number(1)) return a.with_value(value);
  return {Formula::Kind::quotient, value, {}, &a, &b};
}

Formula maximum(const Formula& a, const Formula& b) {
  const double value = std::max(a.m_value, b.m_value);
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  return {Formula::Kind::max, value, {}, &a, &b};
}

Formula minimum(const Formula& a, const Formula& b) {
  const double value = std::min(a.m_value, b.m_value);
  if (a.m_kind == Formula::Kind::number && b.m_kind == Formula::Kind::number) return Formula(value);
  return {Formula::Kind::min, value, {}, &a, &b};
}

int Formula::precedence() const {
  switch (m_kind) {
    case Kind::sum:
    case Kind::difference: return k_sum;
    case Kind::product:
    case Kind::quotient:
    case Kind::divisor_if: return k_product;
    case Kind::noted: return m_left->precedence();
    default: return k_atom;
  }
}

std::string Formula::operand(int least_precedence) const {
  if (precedence() >= least_precedence) return text();
  // Appended rather than "(" + text() + ")", which trips GCC 12's -Wrestrict (bug 105329).
  std::string parenthesised = "(";
  parenthesised += text();
  parenthesised += ')';
  return parenthesised;
}

std::string Formula::text() const {
  switch (m_kind) {
    case Kind::number: return format_general(m_value);
    case Kind::input:
    case Kind::rounded: return m_words;
    case Kind::amount: return format_general(m_value) + " " + m_words;
    case Kind::sum: return m_left->operand(k_sum) + " + " + m_right->operand(k_sum);
    case Kind::difference: return m_left->operand(k_sum) + " − " + m_right->operand(k_product);
    case Kind::product:
    case Kind::quotient:
    case Kind::divisor_if: return chain();
    case Kind::max: return "max(" + m_left->text() + ", " + m_right->text() + ")";
    case Kind::min: return "min(" + m_left->text() + ", " + m_right->text() + ")";
    case Kind::labelled: return m_words + " " + m_left->operand(k_product);
    case Kind::noted: return m_left->text() + " (" + m_words + ")";
  }
  return {};
}

// A chain of × and /: the factors in order, then the divisors in order.
std::string Formula::chain() const {
  std::string factors;
  std::string divisors;
  collect(false, factors, divisors);
  return (factors.empty() ? "1" : factors) + divisors;
}

void Formula::collect(bool divide, std::string& factors, std::string& divisors) const {
  switch (m_kind) {
    case Kind::product:
      m_left->collect(divide, factors, divisors);
      m_right->collect(divide, factors, divisors);
      return;
    case Kind::quotient:
      m_left->collect(divide, factors, divisors);
      m_right->collect(!divide, factors, divisors);
      return;
    case Kind::divisor_if: {
      std::string& list = divide ? divisors : factors;
      list += divide ? " [/ " : " [× ";
      list += m_left->operand(k_atom);
      list += " at ";
      list += m_words;
      list += ']';
      return;
    }
    default:
      if (divide) {
        divisors += m_kind == Kind::number ? "/" : " / ";
        divisors += operand(k_atom);
      } else {
        if (!factors.empty()) factors += " × ";
        factors += operand(k_product);
      }
  }
}

}  // namespace mlsize
