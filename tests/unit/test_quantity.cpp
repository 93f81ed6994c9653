#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

using namespace mlsize;

namespace {

constexpr double k_kib = 1024.0;
constexpr double k_mib = k_kib * 1024.0;
constexpr double k_gib = k_mib * 1024.0;
constexpr double k_tib = k_gib * 1024.0;
constexpr double k_pib = k_tib * 1024.0;

constexpr std::string_view k_count_hint = "examples: 7B, 350M, 1.5T, 6.7e9, 12k";
constexpr std::string_view k_bytes_hint = "examples: 200GB, 500MB, 1.5TiB, 64GiB (GB = 10^9 bytes, GiB = 2^30 bytes)";
constexpr std::string_view k_money_hint = "examples: 20000, 20k, $1.5M";
constexpr std::string_view k_duration_hint = "examples: 90m, 36h, 7d, 2w";
constexpr std::string_view k_number_hint = "examples: 0.4, 4, 1.5";

// The error a parser throws for `text`, or nothing when it accepts it.
template <class Parse>
std::optional<Error> error_of(Parse parse, std::string_view text) {
  try {
    parse(text);
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

// Checks the full refusal: kind, message `"<text>" is not <what>`, and hint.
template <class Parse>
void check_refused(Parse parse, std::string_view text, std::string_view what, std::string_view hint) {
  INFO("input: \"" << std::string(text) << "\"");
  const std::optional<Error> error = error_of(parse, text);
  REQUIRE(error.has_value());
  CHECK(error->kind() == ErrorKind::usage);
  // Appended piece by piece: `"\"" + std::string(...)` trips GCC 12's false -Wrestrict.
  std::string expected = "\"";
  expected += text;
  expected += "\" is not ";
  expected += what;
  CHECK(error->message() == expected);
  CHECK(error->hint() == hint);
  CHECK(error->where().empty());  // the caller names the flag
  CHECK(std::string(error->what()) == error->message());
}

const auto count = [](std::string_view text) { return parse_count(text); };
const auto bytes = [](std::string_view text) { return parse_bytes(text).value; };
const auto money = [](std::string_view text) { return parse_money(text).value; };
const auto duration = [](std::string_view text) { return parse_duration(text).value; };
const auto number = [](std::string_view text) { return parse_positive_number(text, "a utilisation"); };

}  // namespace

// ---------------------------------------------------------------------------------------------
// parse_count

TEST_CASE("parse_count accepts suffixed and scientific counts", "[quantity]") {
  CHECK(parse_count("7B") == 7e9);
  CHECK(parse_count("350M") == 350e6);
  CHECK(parse_count("1.5T") == 1.5e12);
  CHECK(parse_count("6.7e9") == 6.7e9);
  CHECK(parse_count("12k") == 12e3);
  CHECK(parse_count("125") == 125.0);
}

TEST_CASE("parse_count accepts every documented suffix spelling", "[quantity]") {
  CHECK(parse_count("12K") == 12e3);
  CHECK(parse_count("7b") == 7e9);
  CHECK(parse_count("7G") == 7e9);
  CHECK(parse_count("2t") == 2e12);
  CHECK(parse_count("6.7E9") == 6.7e9);
  CHECK(parse_count("1.5e3k") == 1.5e6);
  CHECK(parse_count(".5B") == 0.5e9);
  CHECK(parse_count("70.B") == 70e9);
  CHECK(parse_count("0.5") == 0.5);
}

TEST_CASE("parse_count ignores surrounding blanks and a blank before the suffix", "[quantity]") {
  CHECK(parse_count(" 7B ") == 7e9);
  CHECK(parse_count("\t7B") == 7e9);
  CHECK(parse_count("7 B") == 7e9);
}

TEST_CASE("parse_count suffixes are decimal, never binary", "[quantity]") {
  CHECK(parse_count("1k") == 1000.0);
  CHECK(parse_count("1M") == 1e6);
  CHECK(parse_count("1B") == 1e9);
  CHECK(parse_count("1T") == 1e12);
}

TEST_CASE("parse_count refuses malformed, non-positive and non-finite counts", "[quantity]") {
  for (std::string_view text :
       {"",     " ",     "abc",      "B",    "-5B",   "+5B",    "0",      "0B",   "0.0", "nan",
        "NaN",  "inf",   "infinity", ".nan", "1e400", "1e300T", "1e-400", "20kk", "7Bn", "7 B B",
        "0x10", "1,000", "1e",       "7B\n", "7m",    "7KiB",   "7GB",    "--7",  "..5", "7.5.1B"}) {
    check_refused(count, text, "a count", k_count_hint);
  }
}

// ---------------------------------------------------------------------------------------------
// parse_bytes

TEST_CASE("parse_bytes reads decimal units as powers of ten", "[quantity]") {
  CHECK(parse_bytes("200GB").value == 2e11);
  CHECK(parse_bytes("500MB").value == 5e8);
  CHECK(parse_bytes("4kB").value == 4e3);
  CHECK(parse_bytes("2TB").value == 2e12);
  CHECK(parse_bytes("1.5PB").value == 1.5e15);
  CHECK(parse_bytes("1024").value == 1024.0);
  CHECK(parse_bytes("1024B").value == 1024.0);
}

TEST_CASE("parse_bytes reads binary units as powers of two", "[quantity]") {
  CHECK(parse_bytes("1.5TiB").value == 1.5 * k_tib);
  CHECK(parse_bytes("1.5TiB").value == 1649267441664.0);
  CHECK(parse_bytes("64GiB").value == 64.0 * k_gib);
  CHECK(parse_bytes("64GiB").value == 68719476736.0);
  CHECK(parse_bytes("4KiB").value == 4096.0);
  CHECK(parse_bytes("512MiB").value == 512.0 * k_mib);
  CHECK(parse_bytes("2PiB").value == 2.0 * k_pib);
}

TEST_CASE("parse_bytes never confuses decimal and binary units", "[quantity]") {
  CHECK(parse_bytes("1GB").value == 1e9);
  CHECK(parse_bytes("1GiB").value == 1073741824.0);
  CHECK(parse_bytes("1GB") != parse_bytes("1GiB"));
  CHECK(parse_bytes("1TB").value == 1e12);
  CHECK(parse_bytes("1TiB").value == 1099511627776.0);
  CHECK(parse_bytes("1MB").value == 1e6);
  CHECK(parse_bytes("1MiB").value == 1048576.0);
  CHECK(parse_bytes("1kB").value == 1e3);
  CHECK(parse_bytes("1KiB").value == 1024.0);
}

TEST_CASE("parse_bytes units are case-insensitive and a lowercase b still means bytes", "[quantity]") {
  // Documented choice: bits are never accepted, so "Gb" and "gb" are gigabytes, not gigabits.
  CHECK(parse_bytes("200Gb").value == 2e11);
  CHECK(parse_bytes("200gb").value == 2e11);
  CHECK(parse_bytes("200gib").value == 200.0 * k_gib);
  CHECK(parse_bytes("1.5tib").value == 1.5 * k_tib);
  CHECK(parse_bytes("4KB").value == 4e3);
  CHECK(parse_bytes("7b").value == 7.0);
  CHECK(parse_bytes("200 GB").value == 2e11);
  CHECK(parse_bytes(" 64GiB ").value == 64.0 * k_gib);
}

TEST_CASE("parse_bytes refuses unknown units and bad numbers", "[quantity]") {
  for (std::string_view text :
       {"",    "abc", "GB",  "-5GB", "0",      "0GB",     "nan",  "inf",   "1e400", "1e400GB", "20kk",
        "64G", "64K", "20K", "64Gi", "64GiBs", "64 Gi B", "0x10", "1,5GB", "$5",    "5 bytes", "1e-400"}) {
    check_refused(bytes, text, "a size in bytes", k_bytes_hint);
  }
}

// ---------------------------------------------------------------------------------------------
// parse_money

TEST_CASE("parse_money accepts plain, suffixed and dollar-prefixed amounts", "[quantity]") {
  CHECK(parse_money("20000").value == 20000.0);
  CHECK(parse_money("20k").value == 20000.0);
  CHECK(parse_money("20K").value == 20000.0);
  CHECK(parse_money("$1.5M").value == 1.5e6);
  CHECK(parse_money("$1.5m").value == 1.5e6);
  CHECK(parse_money("$300").value == 300.0);
  CHECK(parse_money("0.5").value == 0.5);
  CHECK(parse_money(" $20k ").value == 20000.0);
  CHECK(parse_money("$ 5").value == 5.0);
}

TEST_CASE("parse_money refuses malformed and non-positive amounts", "[quantity]") {
  for (std::string_view text : {"",      "$",    "abc", "-5", "$-5", "-$5",  "0",      "$0",   "nan",   "$inf",
                                "1e400", "20kk", "$$5", "5$", "20B", "1.5T", "20 USD", "0x10", "1,000", "20000\n"}) {
    check_refused(money, text, "an amount of money", k_money_hint);
  }
}

// ---------------------------------------------------------------------------------------------
// parse_duration

TEST_CASE("parse_duration accepts every documented unit", "[quantity]") {
  CHECK(parse_duration("90s").value == 90.0);
  CHECK(parse_duration("90sec").value == 90.0);
  CHECK(parse_duration("90m").value == 5400.0);
  CHECK(parse_duration("90min").value == 5400.0);
  CHECK(parse_duration("36h").value == 36.0 * 3600.0);
  CHECK(parse_duration("36hr").value == 36.0 * 3600.0);
  CHECK(parse_duration("7d").value == 7.0 * 86400.0);
  CHECK(parse_duration("1day").value == 86400.0);
  CHECK(parse_duration("7days").value == 7.0 * 86400.0);
  CHECK(parse_duration("2w").value == 14.0 * 86400.0);
  CHECK(parse_duration("1week").value == 7.0 * 86400.0);
  CHECK(parse_duration("2weeks").value == 14.0 * 86400.0);
  CHECK(parse_duration("1.5h").value == 5400.0);
  CHECK(parse_duration("90 m").value == 5400.0);
}

TEST_CASE("parse_duration requires a unit: a bare number is ambiguous", "[quantity]") {
  for (std::string_view text : {"90", "36", "1.5", "6e3"}) {
    check_refused(duration, text, "a duration", k_duration_hint);
  }
}

TEST_CASE("parse_duration refuses unknown units and bad numbers", "[quantity]") {
  // Units are case-sensitive: "M" could be months, "H" and "D" are not offered.
  for (std::string_view text :
       {"",       "abc", "h",    "-5h", "0s", "0h",  "nan",         "inf",   "nanh", "infh", "1e400s",
        "1e306w", "90M", "1.5H", "7D",  "2y", "2mo", "2 weeks ago", "0x10h", "1,5h", "36hh"}) {
    check_refused(duration, text, "a duration", k_duration_hint);
  }
}

// ---------------------------------------------------------------------------------------------
// parse_positive_number

TEST_CASE("parse_positive_number accepts plain positive decimals", "[quantity]") {
  CHECK(parse_positive_number("0.4", "a utilisation") == 0.4);
  CHECK(parse_positive_number("4", "a utilisation") == 4.0);
  CHECK(parse_positive_number("1.5", "a utilisation") == 1.5);
  CHECK(parse_positive_number(".5", "a utilisation") == 0.5);
  CHECK(parse_positive_number("2e3", "a utilisation") == 2000.0);
  CHECK(parse_positive_number(" 3 ", "a utilisation") == 3.0);
}

TEST_CASE("parse_positive_number refuses suffixes, signs, zero and non-finite values", "[quantity]") {
  for (std::string_view text :
       {"", "abc", "0", "0.0", "-1", "+1", "nan", "inf", "1e400", "1e-400", "4k", "40%", "0x10", "1,5", "1.5.2"}) {
    check_refused(number, text, "a utilisation", k_number_hint);
  }
}

TEST_CASE("parse_positive_number names the quantity in its message", "[quantity]") {
  const std::optional<Error> error =
      error_of([](std::string_view text) { return parse_positive_number(text, "a number of epochs"); }, "zero");
  REQUIRE(error.has_value());
  CHECK(error->message() == "\"zero\" is not a number of epochs");
  CHECK(error->hint() == "examples: 0.4, 4, 1.5");
  CHECK(error->kind() == ErrorKind::usage);
}

// Upper limits keep FLOPs, bytes and dollars far from overflow (8·N·D stays finite).
TEST_CASE("quantities above their limits are refused as too large", "[quantity]") {
  const auto message_of = [](auto parse, const char* text) {
    try {
      parse(text);
    } catch (const mlsize::Error& error) {
      return error.message() + " | " + error.hint();
    }
    return std::string("accepted");
  };
  CHECK(message_of(parse_count, "1e20T") == "\"1e20T\" is too large | at most 1e+18 (examples: 7B, 350M, 1.5T, 6.7e9, 12k)");
  CHECK(message_of(parse_duration, "2e300w").rfind("\"2e300w\" is too large | at most 3.15576e+09", 0) == 0);
  CHECK(message_of(parse_money, "$2000000M").rfind("\"$2000000M\" is too large", 0) == 0);
  CHECK(message_of(parse_bytes, "2000000PB").rfind("\"2000000PB\" is too large", 0) == 0);
  CHECK(parse_count("1e18") == 1e18);  // the limit itself is accepted
}

TEST_CASE("zero is accepted where a flag allows it", "[quantity]") {
  CHECK(parse_bytes_or_zero("0").value == 0.0);
  CHECK(parse_bytes_or_zero("0B").value == 0.0);
  CHECK(parse_bytes_or_zero("0GiB").value == 0.0);
  CHECK(parse_bytes_or_zero("2GiB").value == 2.0 * 1024 * 1024 * 1024);
  CHECK_THROWS_AS(parse_bytes_or_zero("-1GB"), mlsize::Error);
  CHECK(parse_non_negative_number("0", "a fraction") == 0.0);
  CHECK(parse_non_negative_number("0.1", "a fraction") == 0.1);
}
