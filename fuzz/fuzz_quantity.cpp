// Fuzzes the quantity parsers: every input must parse or throw mlsize::Error, nothing else.
#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

template <class Parse>
void check(Parse parse, std::string_view text) {
  try {
    const double value = parse(text);
    // Whatever is accepted is finite and positive (or zero where zero is allowed).
    if (!std::isfinite(value) || value < 0) std::abort();
  } catch (const mlsize::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check([](std::string_view t) { return mlsize::parse_count(t); }, text);
  check([](std::string_view t) { return mlsize::parse_bytes(t).value; }, text);
  check([](std::string_view t) { return mlsize::parse_bytes_or_zero(t).value; }, text);
  check([](std::string_view t) { return mlsize::parse_money(t).value; }, text);
  check([](std::string_view t) { return mlsize::parse_duration(t).value; }, text);
  check([](std::string_view t) { return mlsize::parse_positive_number(t, "a number"); }, text);
  return 0;
}
