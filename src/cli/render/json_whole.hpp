#pragma once
// Whole numbers in the JSON reports (render_json.cpp, render_catalog.cpp), written once.

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace mlsize::cli {

// Whole numbers as JSON integers while they fit in 64 bits, otherwise as doubles.
inline nlohmann::ordered_json json_whole(double value) {
  if (std::isfinite(value) && std::abs(value) < 9.0e18) return static_cast<std::int64_t>(std::llround(value));
  return value;
}

}  // namespace mlsize::cli
