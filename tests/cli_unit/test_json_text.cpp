// json_text writes the JSON reports as nlohmann's dump(2) does, byte for byte: every report
// is compared by the golden cases; these compare the values a report could hold.

#include "cli/render/json_object.hpp"
#include "cli/render/json_text.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

using Json = nlohmann::ordered_json;
using mlsize::cli::json_text;

namespace {

std::string dumped(const Json& json) {
  return json.dump(2) + "\n";
}

}  // namespace

TEST_CASE("json_text writes numbers as dump does: integers, and doubles in Grisu2's digits", "[json]") {
  Json numbers = Json::array();
  for (const double v : {0.0, -0.0, 1.0, -1.0, 0.1, 1e-4, 1e-5, 123456789012345.0, 1234567890123456.0, 1e15, 1e16, 1e21,
                         1e300, 5e-324, 2.2250738585072014e-308, std::numeric_limits<double>::max(), 1.0 / 3,
                         std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    numbers.push_back(v);
  }
  for (const std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                               std::numeric_limits<std::int64_t>::max()}) {
    numbers.push_back(v);
  }
  numbers.push_back(std::numeric_limits<std::uint64_t>::max());
  CHECK(json_text(numbers) == dumped(numbers));
  // Doubles from random bit patterns (every exponent) and from random decimals.
  std::mt19937_64 random(49);
  Json many = Json::array();
  for (int i = 0; i < 20000; ++i) {
    many.push_back(std::bit_cast<double>(random()));
    many.push_back(static_cast<double>(random() % 1000000) / 1000.0);
  }
  CHECK(json_text(many) == dumped(many));
}

TEST_CASE("json_text escapes strings as dump does, and refuses what is not UTF-8 as dump does", "[json]") {
  std::string every_ascii;
  for (int c = 1; c < 0x80; ++c) every_ascii += static_cast<char>(c);
  const Json strings =
      Json::array({"", "plain", every_ascii, std::string(1, '\0'), "8\u00d7 A100 \u2014 \u4e2d\u6587 \U0001F600",
                   "tab\there \"quoted\" back\\slash /", "\u007f\u0080\u2028"});
  CHECK(json_text(strings) == dumped(strings));
  // Keys are strings too.
  Json object = Json::object();
  object["a\nb"] = 1;
  object["\u00e9"] = Json::object();
  object["empty"] = Json::array();
  object["nested"] = Json::array({Json::object({{"x", nullptr}, {"y", true}, {"z", false}})});
  CHECK(json_text(object) == dumped(object));
  for (const std::string bad : {"\xff", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"}) {
    const Json json = Json::array({bad});
    CHECK_THROWS_AS(json.dump(2), nlohmann::json::type_error);
    CHECK_THROWS_AS(json_text(json), nlohmann::json::type_error);
  }
}

TEST_CASE("json_object and json_merge build what nlohmann's initializer lists and update build, moving values",
          "[json]") {
  using mlsize::cli::json_merge;
  using mlsize::cli::json_object;
  const Json nested = {{"memory_total_bytes", 64e9}, {"strategy", {{"zero_stage", 1}, {"recompute", "none"}}}};
  const Json built = json_object({{"rank", 1}, {"plan", nested}, {"notes", Json::array({"a", "b"})}});
  CHECK(built == Json{{"rank", 1}, {"plan", nested}, {"notes", {"a", "b"}}});
  CHECK(json_text(built) == dumped(built));
  // update: a key already there takes the new value in its place, new keys go after.
  Json expected = built;
  Json merged = built;
  const Json more = {{"cost", 2828.5}, {"rank", 2}, {"plan", {{"device_count", 8}}}};
  expected.update(more);
  json_merge(merged, Json(more));
  CHECK(merged == expected);
  CHECK(json_text(merged) == json_text(expected));
  // json_text_kept writes the same text.
  CHECK(mlsize::cli::json_text_kept(Json(expected)) == dumped(expected));
}
