#include <mlsize/support/text_distance.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

using namespace mlsize;

TEST_CASE("edit_distance of equal and empty strings", "[text_distance]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("gpu", "gpu") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
}

TEST_CASE("edit_distance counts insertions, deletions and substitutions", "[text_distance]") {
  CHECK(edit_distance("gpu", "gpuu") == 1);      // insertion
  CHECK(edit_distance("memory", "memry") == 1);  // deletion
  CHECK(edit_distance("tpu", "npu") == 1);       // substitution
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("flaw", "lawn") == 2);
  CHECK(edit_distance("abc", "xyz") == 3);
}

TEST_CASE("edit_distance counts a transposition as two edits", "[text_distance]") {
  // Plain Levenshtein, not Damerau: swapping neighbours costs two substitutions.
  CHECK(edit_distance("memroy_gb", "memory_gb") == 2);
  CHECK(edit_distance("ab", "ba") == 2);
}

TEST_CASE("edit_distance is symmetric and case-sensitive", "[text_distance]") {
  CHECK(edit_distance("sunday", "saturday") == 3);
  CHECK(edit_distance("saturday", "sunday") == 3);
  CHECK(edit_distance("GPU", "gpu") == 3);
  CHECK(edit_distance("Gpu", "gpu") == 1);
}

TEST_CASE("edit_distance handles long strings", "[text_distance]") {
  const std::string a(1000, 'a');
  const std::string b = std::string(500, 'a') + std::string(500, 'b');
  CHECK(edit_distance(a, a) == 0);
  CHECK(edit_distance(a, b) == 500);
  CHECK(edit_distance(a, "") == 1000);
}

TEST_CASE("did_you_mean suggests the nearest close candidate", "[text_distance]") {
  const std::vector<std::string> fields{"id", "name", "kind", "memory_gb", "memory_bandwidth_gbs", "source", "as_of"};
  CHECK(did_you_mean("memroy_gb", fields) == "did you mean \"memory_gb\"?");
  CHECK(did_you_mean("nmae", fields) == "did you mean \"name\"?");
  CHECK(did_you_mean("sourc", fields) == "did you mean \"source\"?");
  CHECK(did_you_mean("asof", fields) == "did you mean \"as_of\"?");
  CHECK(did_you_mean("memory_bandwith_gbs", fields) == "did you mean \"memory_bandwidth_gbs\"?");
}

TEST_CASE("did_you_mean breaks a tie for the name the text begins", "[text_distance]") {
  // "h10" is one edit from both; a cut-short name is likelier than a mistyped letter.
  const std::vector<std::string> devices{"a10", "a100", "h100", "h200"};
  CHECK(did_you_mean("h10", devices) == "did you mean \"h100\"?");
  CHECK(did_you_mean("a10g", devices) == "did you mean \"a10\"?");  // the first of a tie without a prefix
}

TEST_CASE("did_you_mean returns nothing when no candidate is close", "[text_distance]") {
  const std::vector<std::string> fields{"id", "name", "kind", "memory_gb", "source", "as_of"};
  CHECK(did_you_mean("zzzzzz", fields).empty());
  CHECK(did_you_mean("price_per_hour_usd", fields).empty());
  CHECK(did_you_mean("fpga", std::vector<std::string>{"gpu", "tpu", "npu", "cpu"}).empty());
}

TEST_CASE("did_you_mean allows a third of the longer word's length", "[text_distance]") {
  // 12 letters: 4 edits allowed, 5 are not.
  const std::vector<std::string> candidates{"abcdefghijkl"};
  CHECK(did_you_mean("abcdefghxxxx", candidates) == "did you mean \"abcdefghijkl\"?");
  CHECK(did_you_mean("abcdefgxxxxx", candidates).empty());
  // The longer of the two words counts: "abcdefgh" needs 4 insertions to reach 12 letters.
  CHECK(did_you_mean("abcdefgh", candidates) == "did you mean \"abcdefghijkl\"?");
  CHECK(did_you_mean("abcdefg", candidates).empty());
  // 9 letters: 3 edits allowed.
  const std::vector<std::string> nine{"memory_gb"};
  CHECK(did_you_mean("memxxx_gb", nine) == "did you mean \"memory_gb\"?");
  CHECK(did_you_mean("mexxxx_gb", nine).empty());
}

TEST_CASE("did_you_mean always allows two edits for short words", "[text_distance]") {
  const std::vector<std::string> kinds{"gpu", "tpu", "npu", "cpu"};
  CHECK(did_you_mean("gpuu", kinds) == "did you mean \"gpu\"?");
  CHECK(did_you_mean("gp", kinds) == "did you mean \"gpu\"?");
  CHECK(did_you_mean("gxx", kinds) == "did you mean \"gpu\"?");
  const std::vector<std::string> name{"name"};
  CHECK(did_you_mean("nm", name) == "did you mean \"name\"?");
  CHECK(did_you_mean("n", name).empty());
  CHECK(did_you_mean("xxxx", name).empty());
}

TEST_CASE("did_you_mean prefers the first of equally near candidates", "[text_distance]") {
  const std::vector<std::string> kinds{"gpu", "tpu", "npu", "cpu"};
  CHECK(did_you_mean("xpu", kinds) == "did you mean \"gpu\"?");
  const std::vector<std::string> reversed{"cpu", "npu", "tpu", "gpu"};
  CHECK(did_you_mean("xpu", reversed) == "did you mean \"cpu\"?");
  // An exact match is distance 0 and always wins.
  CHECK(did_you_mean("tpu", kinds) == "did you mean \"tpu\"?");
}

TEST_CASE("did_you_mean with no candidates returns nothing", "[text_distance]") {
  CHECK(did_you_mean("gpu", std::vector<std::string>{}).empty());
  CHECK(did_you_mean("gpu", std::span<const std::string_view>{}).empty());
}

TEST_CASE("did_you_mean accepts string_view candidates", "[text_distance]") {
  constexpr std::array<std::string_view, 3> kinds{"cloud", "on-prem", "free-tier"};
  CHECK(did_you_mean("onprem", kinds) == "did you mean \"on-prem\"?");
  CHECK(did_you_mean("free_tier", kinds) == "did you mean \"free-tier\"?");
  CHECK(did_you_mean("clowd", kinds) == "did you mean \"cloud\"?");
  CHECK(did_you_mean("rental", kinds).empty());
}
