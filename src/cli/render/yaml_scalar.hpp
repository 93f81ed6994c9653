#pragma once
// Strings into YAML, written once for every YAML document mlsize emits: launch files
// (SkyPilot, Accelerate, DeepSpeed's), catalogue exports and `--format yaml` reports. Their
// readers are PyYAML (SkyPilot and Accelerate: yaml.safe_load) and yaml-cpp; a string from
// outside (an offering's name, a region from a price file) must come back as exactly that one
// string in the key it was written under, never as a line break that starts a key of its own
// (issue 46: U+2028 in a region added `image_id:` to a SkyPilot task).

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace mlsize::cli {

// Whether YAML 1.1, as PyYAML reads it, takes this plain scalar for something other than a
// string: a boolean (NO, off, y), null, a number or a date. yaml-cpp writes such strings
// plain; "distributed_type: NO" reads as False.
bool retyped_by_yaml(std::string_view text);

// Whether `text` holds a character no YAML reader may see raw: a control (C0 but tab, DEL,
// C1 such as U+0085 NEXT LINE), a line or paragraph separator (U+2028, U+2029: line breaks
// to YAML 1.1), a byte-order mark or noncharacter (U+FEFF, U+FFFE, U+FFFF: PyYAML refuses
// the stream), or bytes that are not UTF-8.
bool needs_yaml_escapes(std::string_view text);

enum class YamlQuote {
  as_needed,  // plain, else single quotes where YAML would retype it (as PyYAML's dump does)
  always,     // double quotes (catalogue text: names, sources)
};

// `text` as the emitter's next scalar. Text that needs escapes is double-quoted with every
// character outside ASCII written as \uXXXX (yaml-cpp writes U+2028 raw even in double quotes).
void put_yaml_string(YAML::Emitter& out, std::string_view text, YamlQuote quote = YamlQuote::as_needed);

// Text for a YAML comment (`# ...`): one line whatever it holds, its separators escaped.
std::string yaml_comment(std::string_view text);

// Text for a literal block (`run: |`): its line feeds kept, every other break or control
// escaped, so no line of it can end the block early.
std::string yaml_block(std::string_view text);

}  // namespace mlsize::cli
