#pragma once
// Finding YAML document boundaries in text, without yaml-cpp's LoadAll: LoadAll can
// loop allocating without end on malformed input (found by fuzz/fuzz_catalog).

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
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

}  // namespace mlsize
