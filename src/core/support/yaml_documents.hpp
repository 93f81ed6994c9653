#pragma once
// YAML reading shared by the catalogue and rules loaders: document boundaries found in
// the text (yaml-cpp's LoadAll can loop allocating without end on malformed input, found
// by fuzz/fuzz_catalog), and the checked keys of a mapping.

#include <mlsize/support/text_distance.hpp>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize {

// A "---" or "..." document marker line.
bool is_document_marker(std::string_view line);

// Not blank, not a comment, not a document marker.
bool is_content(std::string_view line);

// The 1-based line where a second document's content starts: content after a "---" or
// "..." marker that itself follows content. Markers before any content, and a final
// marker with nothing after it, are allowed.
std::optional<int> second_document_line(std::string_view text);

// Whether the text has any content line.
bool has_content(std::string_view text);

// How many YAML documents this process has parsed. The embedded catalogue and rules are
// read from snapshots, so a run given no YAML file parses none; a test holds it to that
// (tests/cli_unit/test_no_yaml_at_start_up.cpp), a guard that counts rather than times.
std::size_t yaml_documents_parsed();
void count_yaml_document();

// Parses `text` as exactly one YAML document with a value. `fail(mark, message, hint)`
// must throw; `kind` names the file ("catalogue", "rules"), `nesting_hint` is the hint
// for too-deep nesting and `expected` the hint for an empty or non-mapping file.
template <class Fail>
YAML::Node load_one_document(std::string_view text, std::string_view kind, std::string_view nesting_hint,
                             std::string_view expected, Fail fail) {
  const std::string prefix = "the " + std::string(kind) + " file ";
  if (const std::optional<int> line = second_document_line(text)) {
    YAML::Mark mark;
    mark.line = *line - 1;
    fail(mark, prefix + "holds more than one YAML document",
         "remove the \"---\" separator or put each document in its own file");
  }
  YAML::Node root;
  count_yaml_document();
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::DeepRecursion& failure) {
    fail(failure.mark, "invalid YAML: nested too deeply", std::string(nesting_hint));
  } catch (const YAML::Exception& failure) {
    fail(failure.mark, "invalid YAML: " + failure.msg, std::string());
  }
  if (!root || root.IsNull()) {
    fail(YAML::Mark::null_mark(),
         has_content(text) ? prefix + "is not a YAML mapping" : std::string(kind) + " file is empty",
         std::string(expected));
  }
  return root;
}

// The keys of mapping `node` (described as `what` in messages) with their marks. Refuses,
// through `fail(mark, message, hint)` which must throw: a node that is not a mapping,
// keys that are not plain scalars, duplicate keys and keys outside `allowed` (with a
// did-you-mean, or the accepted list).
template <class Fail>
std::map<std::string, YAML::Mark, std::less<>> checked_keys(const YAML::Node& node, const std::string& what,
                                                            std::span<const std::string_view> allowed, Fail fail) {
  if (!node.IsMap()) fail(node.Mark(), what + " must be a mapping of fields", std::string());
  std::map<std::string, YAML::Mark, std::less<>> marks;
  for (const auto& entry : node) {
    const YAML::Node& key = entry.first;
    if (!key.IsScalar()) fail(key.Mark(), "field names in " + what + " must be plain words", std::string());
    const std::string& name = key.Scalar();
    if (const auto [first, added] = marks.emplace(name, key.Mark()); !added) {
      fail(key.Mark(),
           "duplicate field " + in_quotes(name) + " in " + what + " (first at line " +
               std::to_string(first->second.line + 1) + ")",
           "keep one of them: YAML readers keep one silently, and the two disagree or repeat");
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      // yaml-cpp reads a merge key as a plain "<<" field; "did you mean" would offer "id".
      std::string hint =
          name == "<<" ? "YAML merge keys (<<) are not supported; write the fields out" : did_you_mean(name, allowed);
      if (hint.empty()) hint = "accepted fields: " + join_names(allowed);
      fail(key.Mark(), "unknown field " + in_quotes(name) + " in " + what, hint);
    }
  }
  return marks;
}

// checked_keys reporting through `source.fail(mark, message, hint)`: the catalogue's and
// the rules' sources both locate a YAML mark in their text.
template <class Source>
std::map<std::string, YAML::Mark, std::less<>> checked_keys_in(const Source& source, const YAML::Node& node,
                                                               const std::string& what,
                                                               std::span<const std::string_view> allowed) {
  return checked_keys(node, what, allowed, [&](const YAML::Mark& mark, std::string message, std::string hint) {
    source.fail(mark, std::move(message), std::move(hint));
  });
}

}  // namespace mlsize
