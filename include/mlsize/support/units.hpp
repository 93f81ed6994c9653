#pragma once
// Typed physical quantities: bytes, FLOPs, seconds and dollars are not interchangeable.

#include <compare>

namespace mlsize {

template <class Tag>
struct Quantity {
  double value = 0.0;

  constexpr Quantity() = default;
  constexpr explicit Quantity(double v) : value(v) {}

  constexpr Quantity operator+(Quantity other) const { return Quantity(value + other.value); }
  constexpr Quantity operator-(Quantity other) const { return Quantity(value - other.value); }
  constexpr Quantity operator*(double factor) const { return Quantity(value * factor); }
  constexpr Quantity operator/(double divisor) const { return Quantity(value / divisor); }
  constexpr double operator/(Quantity other) const { return value / other.value; }
  constexpr Quantity& operator+=(Quantity other) {
    value += other.value;
    return *this;
  }
  constexpr auto operator<=>(const Quantity&) const = default;
};

using Bytes = Quantity<struct BytesTag>;
using Flops = Quantity<struct FlopsTag>;  // a count of floating-point operations
using Seconds = Quantity<struct SecondsTag>;
using Usd = Quantity<struct UsdTag>;

inline constexpr double k_kilo = 1e3;
inline constexpr double k_giga = 1e9;
inline constexpr double k_gibi = 1024.0 * 1024.0 * 1024.0;
inline constexpr double k_seconds_per_hour = 3600.0;
inline constexpr double k_seconds_per_day = 86400.0;
// A reservation's year: 365 days of 24 hours, as providers price terms.
inline constexpr double k_hours_per_year = 365.0 * 24.0;

}  // namespace mlsize
