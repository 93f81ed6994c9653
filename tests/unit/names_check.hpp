#pragma once
// The check of one enum's names table (mlsize/support/names.hpp), for the core's and the
// command line's tables alike.

#include <mlsize/support/names.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace mlsize::testing {

// Every value from the first to `last` has a name that parses back to it; every entry,
// aliases included, parses to its value; no two entries are spelled the same.
template <NamedEnum E>
void check_names_table(E last) {
  const auto count = static_cast<std::size_t>(last) + 1;
  CHECK(names<E>().size() == count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto value = static_cast<E>(i);
    INFO("value " << i << " named \"" << std::string(to_string(value)) << "\"");
    CHECK_FALSE(to_string(value).empty());
    CHECK(parse_name<E>(to_string(value)) == value);
    CHECK(names<E>()[i] == to_string(value));
  }
  std::set<std::string_view> seen;
  for (const EnumName<E>& entry : name_table<E>()) {
    INFO("entry \"" << std::string(entry.name) << "\"");
    CHECK(seen.insert(entry.name).second);
    CHECK(parse_name<E>(entry.name) == entry.value);
  }
}

}  // namespace mlsize::testing
