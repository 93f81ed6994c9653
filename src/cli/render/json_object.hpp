#pragma once
// JSON objects of the reports (render_json.cpp, render_catalog.cpp) built member by member.
// nlohmann's initializer lists build each {"key", value} as a two-element array, check them
// all and copy them into the object, and operator[] searches the object's keys (and makes
// a string of the key) before it inserts: a rejection's three small objects took 18,000
// instructions, `catalog list --format json` a quarter of its 107 M (issue 49). The keys a
// report writes are distinct by construction, so they go in without a search.

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace mlsize::cli {

struct JsonMember {
  std::string_view key;
  // Mutable: an initializer list holds its elements const, and json_object moves each value
  // out of it rather than copying a whole subtree at every level of nesting.
  mutable nlohmann::ordered_json value;
};

// An object of these members, in this order.
inline nlohmann::ordered_json json_object(std::initializer_list<JsonMember> members) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  auto& object = json.get_ref<nlohmann::ordered_json::object_t&>();
  object.reserve(members.size());
  for (const JsonMember& member : members) object.emplace_back(std::string(member.key), std::move(member.value));
  return json;
}

// `key` after the members `json` (an object) has; a key it does not have yet.
inline void json_add(nlohmann::ordered_json& json, std::string_view key, nlohmann::ordered_json value) {
  json.get_ref<nlohmann::ordered_json::object_t&>().emplace_back(std::string(key), std::move(value));
}

// The members of `from` (an object) into `json` (an object), as json.update(from) puts them
// (a key `json` has takes the new value, the others go after its members), moved: update
// copies every subtree.
inline void json_merge(nlohmann::ordered_json& json, nlohmann::ordered_json&& from) {
  auto& object = json.get_ref<nlohmann::ordered_json::object_t&>();
  auto& members = from.get_ref<nlohmann::ordered_json::object_t&>();
  object.reserve(object.size() + members.size());
  for (auto& [key, value] : members) {
    const auto found = object.find(key);
    if (found != object.end()) {
      found->second = std::move(value);
    } else {
      object.emplace_back(key, std::move(value));
    }
  }
}

}  // namespace mlsize::cli
