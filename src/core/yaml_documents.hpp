#pragma once
// Finding YAML document boundaries in text, without yaml-cpp's LoadAll: LoadAll can
// loop allocating without end on malformed input (found by fuzz/fuzz_catalog).

#include <optional>
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

}  // namespace mlsize
