#pragma once
// Keys given twice in one JSON object. nlohmann, like Python's json.load, keeps the last
// silently; mlsize's JSON readers refuse the file instead, naming both places, because the
// two values disagree or repeat and either way the file is not what its writer meant.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mlsize {

struct RepeatedKey {
  std::string key;
  std::size_t first = 0;   // offset of the first one's opening quote
  std::size_t second = 0;  // offset of the repeat's
};

// "NaN", "Infinity" or "-Infinity" where a JSON parser stopped at `offset` (Python's
// json.dumps writes them; JSON has none), else empty: so that an error names the word.
std::string_view non_json_number_at(std::string_view text, std::size_t offset);

// The first key that repeats within one object of `text`, which must be JSON that parsed
// (so strings and brackets are well formed); none when every object's keys differ.
std::optional<RepeatedKey> find_repeated_key(std::string_view text);

}  // namespace mlsize
