// The expected strings are what the two formatters this one replaced printed (the CLI's fmt
// calls and the rule messages' snprintf calls), boundaries and odd values included: the move
// to one formatter changed no output.

#include <mlsize/support/number_format.hpp>

#include <catch2/catch.hpp>

#include <clocale>
#include <limits>
#include <string>

using namespace mlsize;

namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_day = 86400.0;

}  // namespace

TEST_CASE("format_fixed is printf's %.*f, rounding to even on exact halves", "[number_format]") {
  CHECK(format_fixed(3.14159265, 1) == "3.1");
  CHECK(format_fixed(3.14159265, 2) == "3.14");
  CHECK(format_fixed(2.5, 0) == "2");  // an exact half rounds to even
  CHECK(format_fixed(3.5, 0) == "4");
  CHECK(format_fixed(0.15, 1) == "0.1");  // 0.15 is a little below 0.15 in binary
  CHECK(format_fixed(1e-5, 1) == "0.0");
  CHECK(format_fixed(-0.0, 1) == "-0.0");
  CHECK(format_fixed(3e10, 1) == "30000000000.0");
  CHECK(format_fixed(std::numeric_limits<double>::max(), 0).size() == 309);
  CHECK(format_fixed(k_nan, 1) == "nan");
  CHECK(format_fixed(-k_inf, 1) == "-inf");
}

TEST_CASE("format_general is printf's %g, and %.Ng with digits", "[number_format]") {
  // "%g" and "%.6g" (src/core/estimate/memory.cpp's number()) are format_general(value).
  CHECK(format_general(0.0) == "0");
  CHECK(format_general(-0.0) == "-0");
  CHECK(format_general(0.1) == "0.1");
  CHECK(format_general(2.5) == "2.5");
  CHECK(format_general(123456.0) == "123456");
  CHECK(format_general(1234567.0) == "1.23457e+06");
  CHECK(format_general(999999.5) == "1e+06");
  CHECK(format_general(3.15576e9) == "3.15576e+09");
  CHECK(format_general(1e18) == "1e+18");
  CHECK(format_general(1e21) == "1e+21");
  CHECK(format_general(1e-5) == "1e-05");
  CHECK(format_general(0.0001) == "0.0001");
  CHECK(format_general(-2.5) == "-2.5");
  CHECK(format_general(k_nan) == "nan");
  CHECK(format_general(-k_nan) == "-nan");
  CHECK(format_general(k_inf) == "inf");
  CHECK(format_general(-k_inf) == "-inf");

  CHECK(format_general(3.14159265, 3) == "3.14");
  CHECK(format_general(3.14159265, 4) == "3.142");
  CHECK(format_general(3e10, 3) == "3e+10");
  CHECK(format_general(1234567.0, 3) == "1.23e+06");
  CHECK(format_general(175.0, 4) == "175");
}

TEST_CASE("format_shortest reads back as the same double", "[number_format]") {
  CHECK(format_shortest(0.1) == "0.1");
  CHECK(format_shortest(80.0) == "80");
  CHECK(format_shortest(1979.0) == "1979");
  CHECK(format_shortest(1e21) == "1e+21");
  CHECK(format_shortest(3.35e12) == "3.35e+12");  // the shorter of the fixed and scientific forms
  const double third = 1.0 / 3.0;
  CHECK(std::stod(format_shortest(third)) == third);
}

TEST_CASE("format_throughput keeps three significant digits, its suffix from the rounded value", "[number_format]") {
  CHECK(format_throughput(0.5) == "0.5");
  CHECK(format_throughput(12.34) == "12.3");
  CHECK(format_throughput(950.0) == "950");
  CHECK(format_throughput(999.6) == "1k");  // rounds to 1,000: the k suffix, not "1e+03"
  CHECK(format_throughput(7600.0) == "7.6k");
  CHECK(format_throughput(8194.2) == "8.19k");  // format_count says "8k" for both of these
  CHECK(format_throughput(12345.0) == "12.3k");
  CHECK(format_throughput(123456.0) == "123k");
  CHECK(format_throughput(999600.0) == "1M");
  CHECK(format_throughput(1.2345e6) == "1.23M");
  CHECK(format_throughput(2.5e9) == "2.5B");
}

TEST_CASE("format_count rounds to a suffix from 1,000", "[number_format]") {
  CHECK(format_count(0.0) == "0");
  CHECK(format_count(-0.0) == "-0");
  CHECK(format_count(0.5) == "0");
  CHECK(format_count(1.5) == "2");
  CHECK(format_count(12.5) == "12");
  CHECK(format_count(950.0) == "950");
  CHECK(format_count(999.5) == "1000");  // rounds up, but below the k threshold
  CHECK(format_count(1000.0) == "1k");
  CHECK(format_count(1499.0) == "1k");
  CHECK(format_count(1500.0) == "2k");
  CHECK(format_count(2500.0) == "2k");
  CHECK(format_count(4096.0) == "4k");
  CHECK(format_count(9999.0) == "10k");
  CHECK(format_count(999499.0) == "999k");
  CHECK(format_count(999500.0) == "1000k");
  CHECK(format_count(999950.0) == "1000k");  // 999.95 k
  CHECK(format_count(1e6) == "1M");
  CHECK(format_count(350e6) == "350M");
  CHECK(format_count(999.95e6) == "1000M");
  CHECK(format_count(1e9) == "1.0B");
  CHECK(format_count(7.05e9) == "7.0B");
  CHECK(format_count(50e9) == "50.0B");
  CHECK(format_count(999.95e9) == "1000.0B");
  CHECK(format_count(1e12) == "1.0T");
  CHECK(format_count(1.5e12) == "1.5T");
  CHECK(format_count(1e18) == "1000000.0T");
  CHECK(format_count(-5000.0) == "-5000");
  CHECK(format_count(k_nan) == "nan");
  CHECK(format_count(k_inf) == "infT");
}

TEST_CASE("format_count_exact_below_10k writes small counts in full", "[number_format]") {
  CHECK(format_count_exact_below_10k(0.0) == "0");
  CHECK(format_count_exact_below_10k(0.5) == "0.5");
  CHECK(format_count_exact_below_10k(12.5) == "12.5");
  CHECK(format_count_exact_below_10k(999.5) == "999.5");
  CHECK(format_count_exact_below_10k(1000.0) == "1000");
  CHECK(format_count_exact_below_10k(4096.0) == "4096");
  CHECK(format_count_exact_below_10k(9999.0) == "9999");
  CHECK(format_count_exact_below_10k(10000.0) == "10k");
  CHECK(format_count_exact_below_10k(12500.0) == "12k");
  CHECK(format_count_exact_below_10k(999950.0) == "1000k");
  CHECK(format_count_exact_below_10k(350e6) == "350M");
  CHECK(format_count_exact_below_10k(7e9) == "7.0B");
  CHECK(format_count_exact_below_10k(1.5e12) == "1.5T");
  CHECK(format_count_exact_below_10k(-5000.0) == "-5000");
  CHECK(format_count_exact_below_10k(k_nan) == "nan");
}

TEST_CASE("format_gb is gigabytes with one decimal and no unit", "[number_format]") {
  CHECK(format_gb(Bytes(0.0)) == "0.0");
  CHECK(format_gb(Bytes(0.04e9)) == "0.0");
  CHECK(format_gb(Bytes(0.05e9)) == "0.1");
  CHECK(format_gb(Bytes(55.1e9)) == "55.1");
  CHECK(format_gb(Bytes(999.95e9)) == "1000.0");
  CHECK(format_gb(Bytes(1e21)) == "1000000000000.0");
  CHECK(format_gb(Bytes(-3e9)) == "-3.0");
  CHECK(format_gb(Bytes(k_nan)) == "nan");
}

TEST_CASE("format_bytes picks a decimal unit", "[number_format]") {
  CHECK(format_bytes(Bytes(0.0)) == "0 bytes");
  CHECK(format_bytes(Bytes(1.0)) == "1 bytes");
  CHECK(format_bytes(Bytes(999.5)) == "1000 bytes");
  CHECK(format_bytes(Bytes(1000.0)) == "1.0 kB");
  CHECK(format_bytes(Bytes(1500.0)) == "1.5 kB");
  CHECK(format_bytes(Bytes(999949.0)) == "999.9 kB");
  CHECK(format_bytes(Bytes(999950.0)) == "1000.0 kB");
  CHECK(format_bytes(Bytes(1e6)) == "1.0 MB");
  CHECK(format_bytes(Bytes(55.1e9)) == "55.1 GB");
  CHECK(format_bytes(Bytes(999.95e9)) == "1000.0 GB");
  CHECK(format_bytes(Bytes(1.5e12)) == "1.5 TB");
  CHECK(format_bytes(Bytes(1e15)) == "1.0 PB");
  CHECK(format_bytes(Bytes(1e21)) == "1000000.0 PB");
  CHECK(format_bytes(Bytes(-5e9)) == "-5000000000 bytes");
}

TEST_CASE("format_duration steps from seconds to years", "[number_format]") {
  CHECK(format_duration(Seconds(0.0)) == "0 s");
  CHECK(format_duration(Seconds(0.5)) == "0 s");
  CHECK(format_duration(Seconds(59.4)) == "59 s");
  CHECK(format_duration(Seconds(59.6)) == "60 s");  // rounds up, but below the minute threshold
  CHECK(format_duration(Seconds(60.0)) == "1 min");
  CHECK(format_duration(Seconds(90.0)) == "2 min");
  CHECK(format_duration(Seconds(2700.0)) == "45 min");
  CHECK(format_duration(Seconds(3599.0)) == "60 min");
  CHECK(format_duration(Seconds(3600.0)) == "1.0 h");
  CHECK(format_duration(Seconds(11520.0)) == "3.2 h");
  CHECK(format_duration(Seconds(2 * k_day - 181.0)) == "47.9 h");
  CHECK(format_duration(Seconds(2 * k_day - 180.0)) == "48.0 h");
  CHECK(format_duration(Seconds(2 * k_day)) == "2.0 d");
  CHECK(format_duration(Seconds(3.8 * k_day)) == "3.8 d");
  CHECK(format_duration(Seconds(365 * k_day - 1.0)) == "365.0 d");
  CHECK(format_duration(Seconds(365 * k_day)) == "1.0 y");
  CHECK(format_duration(Seconds(66225600.0)) == "2.1 y");
  CHECK(format_duration(Seconds(3.15576e9)) == "100.1 y");
  CHECK(format_duration(Seconds(-5.0)) == "-5 s");
  CHECK(format_duration(Seconds(k_nan)) == "nan y");
  CHECK(format_duration(Seconds(k_inf)) == "inf y");
}

TEST_CASE("format_usd shows cents below $100 and groups thousands above", "[number_format]") {
  CHECK(format_usd(Usd(0.0)) == "$0.00");
  CHECK(format_usd(Usd(-0.0)) == "$-0.00");
  CHECK(format_usd(Usd(0.005)) == "$0.01");
  CHECK(format_usd(Usd(3.42)) == "$3.42");
  CHECK(format_usd(Usd(99.99)) == "$99.99");
  CHECK(format_usd(Usd(99.995)) == "$100.00");  // rounds up, but below the whole-dollar threshold
  CHECK(format_usd(Usd(100.0)) == "$100");
  CHECK(format_usd(Usd(999.0)) == "$999");
  CHECK(format_usd(Usd(999.5)) == "$1,000");
  CHECK(format_usd(Usd(1761.4)) == "$1,761");
  CHECK(format_usd(Usd(7281.0)) == "$7,281");
  CHECK(format_usd(Usd(999999.5)) == "$1,000,000");
  CHECK(format_usd(Usd(1234567.0)) == "$1,234,567");
  CHECK(format_usd(Usd(1e12)) == "$1,000,000,000,000");
  CHECK(format_usd(Usd(-5.0)) == "$-5.00");
  CHECK(format_usd(Usd(-1500.0)) == "$-1500.00");
  CHECK(format_usd(Usd(k_nan)) == "$nan");
  CHECK(format_usd(Usd(k_inf)) == "$inf");
  CHECK(format_usd(Usd(-k_inf)) == "$-inf");
}

TEST_CASE("format_percent rounds to a whole percentage", "[number_format]") {
  CHECK(format_percent(0.0) == "0%");
  CHECK(format_percent(-0.0) == "-0%");
  CHECK(format_percent(0.005) == "0%");
  CHECK(format_percent(0.125) == "12%");  // an exact half rounds to even
  CHECK(format_percent(0.135) == "14%");
  CHECK(format_percent(0.4) == "40%");
  CHECK(format_percent(0.995) == "100%");
  CHECK(format_percent(1.5) == "150%");
  CHECK(format_percent(-0.25) == "-25%");
  CHECK(format_percent(k_nan) == "nan%");
  CHECK(format_percent(k_inf) == "inf%");
}

TEST_CASE("numbers do not follow the process locale", "[number_format]") {
  const std::string saved = std::setlocale(LC_ALL, nullptr);
  bool switched = false;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
    if (std::setlocale(LC_ALL, name) != nullptr) {
      switched = true;
      break;
    }
  }
  if (!switched) WARN("no locale with a decimal comma is installed; only the C locale was checked");
  CHECK(format_fixed(3.5, 1) == "3.5");
  CHECK(format_general(0.25) == "0.25");
  CHECK(format_usd(Usd(1234567.0)) == "$1,234,567");
  CHECK(format_duration(Seconds(3.8 * k_day)) == "3.8 d");
  std::setlocale(LC_ALL, saved.c_str());
}
