#pragma once
// The JSON reports as text: what nlohmann's dump(2) writes, byte for byte, without its
// per-byte UTF-8 decoder on every string (issue 49: escaping was 6.7 M of the main job's
// JSON report's 73 M instructions, all but a few of its strings being plain ASCII).

#include <nlohmann/json.hpp>

#include <string>

namespace mlsize::cli {

// `json` indented by two spaces, as json.dump(2) writes it, then a newline. Text that is
// not UTF-8 throws nlohmann's type_error (316), as dump does.
std::string json_text(const nlohmann::ordered_json& json);

// The same for a whole report's document, which is then kept (cli/support/kept.hpp), not
// freed node by node: destroying the main job's 333 KB JSON report was 3 M instructions.
std::string json_text_kept(nlohmann::ordered_json&& json);

}  // namespace mlsize::cli
