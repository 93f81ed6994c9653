#include <mlsize/estimate/formula.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mlsize {
namespace {

// Operator precedence for parentheses: a sum inside a product needs them, a name does not.
constexpr int k_sum = 1;
constexpr int k_product = 2;
constexpr int k_atom = 3;

}  // namespace

// Formats numbers for explanations without pulling a formatting library into the core.
std::string formula_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

Formula::Formula(Kind kind, double value, std::string_view words, const Formula* left, const Formula* right)
    : kind_(kind), value_(value), words_(words) {
  if (left != nullptr) left_ = std::make_shared<const Formula>(*left);
  if (right != nullptr) right_ = std::make_shared<const Formula>(*right);
}

Formula Formula::input(std::string_view name, double value) {
  return {Kind::input, value, name, nullptr, nullptr};
}

Formula Formula::amount(double value, std::string_view what) {
  return {Kind::amount, value, what, nullptr, nullptr};
}

Formula Formula::rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return {Kind::rounded, value, formula_number(std::round(value * scale) / scale), nullptr, nullptr};
}

Formula Formula::divisor_if(bool applies, std::string_view condition, const Formula& divisor) {
  const double value = applies ? divisor.value_ : 1.0;
  if (divisor.is_number(1)) return Formula(value);
  return {Kind::divisor_if, value, condition, &divisor, nullptr};
}

Formula Formula::labelled(std::string_view label) const {
  return {Kind::labelled, value_, label, this, nullptr};
}

Formula Formula::noted(std::string_view note) const {
  return {Kind::noted, value_, note, this, nullptr};
}

Formula Formula::with_value(double value) const {
  Formula copy = *this;
  copy.value_ = value;
  return copy;
}

Formula operator+(const Formula& a, const Formula& b) {
  const double value = a.value_ + b.value_;
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  if (b.is_number(0)) return a.with_value(value);
  if (a.is_number(0)) return b.with_value(value);
  return {Formula::Kind::sum, value, {}, &a, &b};
}

Formula operator-(const Formula& a, const Formula& b) {
  const double value = a.value_ - b.value_;
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  if (b.is_number(0)) return a.with_value(value);
  return {Formula::Kind::difference, value, {}, &a, &b};
}

Formula operator*(const Formula& a, const Formula& b) {
  const double value = a.value_ * b.value_;
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  if (a.is_number(0) || b.is_number(0)) return Formula(value);
  if (b.is_number(1)) return a.with_value(value);
  if (a.is_number(1)) return b.with_value(value);
  return {Formula::Kind::product, value, {}, &a, &b};
}

Formula operator/(const Formula& a, const Formula& b) {
  const double value = a.value_ / b.value_;
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  if (a.is_number(0)) return Formula(value);
  if (b.is_number(1)) return a.with_value(value);
  return {Formula::Kind::quotient, value, {}, &a, &b};
}

Formula maximum(const Formula& a, const Formula& b) {
  const double value = std::max(a.value_, b.value_);
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  return {Formula::Kind::max, value, {}, &a, &b};
}

Formula minimum(const Formula& a, const Formula& b) {
  const double value = std::min(a.value_, b.value_);
  if (a.kind_ == Formula::Kind::number && b.kind_ == Formula::Kind::number) return Formula(value);
  return {Formula::Kind::min, value, {}, &a, &b};
}

int Formula::precedence() const {
  switch (kind_) {
    case Kind::sum:
    case Kind::difference: return k_sum;
    case Kind::product:
    case Kind::quotient:
    case Kind::divisor_if: return k_product;
    case Kind::noted: return left_->precedence();
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
  switch (kind_) {
    case Kind::number: return formula_number(value_);
    case Kind::input:
    case Kind::rounded: return words_;
    case Kind::amount: return formula_number(value_) + " " + words_;
    case Kind::sum: return left_->operand(k_sum) + " + " + right_->operand(k_sum);
    case Kind::difference: return left_->operand(k_sum) + " − " + right_->operand(k_product);
    case Kind::product:
    case Kind::quotient:
    case Kind::divisor_if: return chain();
    case Kind::max: return "max(" + left_->text() + ", " + right_->text() + ")";
    case Kind::min: return "min(" + left_->text() + ", " + right_->text() + ")";
    case Kind::labelled: return words_ + " " + left_->operand(k_product);
    case Kind::noted: return left_->text() + " (" + words_ + ")";
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
  switch (kind_) {
    case Kind::product:
      left_->collect(divide, factors, divisors);
      right_->collect(divide, factors, divisors);
      return;
    case Kind::quotient:
      left_->collect(divide, factors, divisors);
      right_->collect(!divide, factors, divisors);
      return;
    case Kind::divisor_if: {
      std::string& list = divide ? divisors : factors;
      list += divide ? " [/ " : " [× ";
      list += left_->operand(k_atom);
      list += " at ";
      list += words_;
      list += ']';
      return;
    }
    default:
      if (divide) {
        divisors += kind_ == Kind::number ? "/" : " / ";
        divisors += operand(k_atom);
      } else {
        if (!factors.empty()) factors += " × ";
        factors += operand(k_product);
      }
  }
}

}  // namespace mlsize
