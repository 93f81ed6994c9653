#include <mlsize/error.hpp>
#include <mlsize/quantity.hpp>

#include <catch2/catch.hpp>

using namespace mlsize;

TEST_CASE("parse_count accepts suffixed and scientific counts", "[quantity]") {
  CHECK(parse_count("7B") == 7e9);
  CHECK(parse_count("350M") == 350e6);
  CHECK(parse_count("1.5T") == 1.5e12);
  CHECK(parse_count("6.7e9") == 6.7e9);
  CHECK(parse_count("12k") == 12e3);
  CHECK(parse_count("125") == 125.0);
}
