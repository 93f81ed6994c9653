#pragma once
// Checking text that came from files or flags before it reaches output.

#include <cstddef>
#include <string>
#include <string_view>

namespace mlsize {

// Length of the well-formed UTF-8 sequence starting at text[0] (1-4), or 0 when the
// bytes there are not one (overlong forms, surrogates and values above U+10FFFF included).
std::size_t utf8_sequence_length(std::string_view text);

// Valid UTF-8 without control characters (tab allowed; C1 controls, bidirectional
// overrides, the line and paragraph separators U+2028/U+2029, U+FEFF, U+FFFE and U+FFFF are
// controls too): safe to print, and to put in JSON and YAML.
bool is_printable_utf8(std::string_view text);

// The first character is_printable_utf8 refuses, named for an error message ("U+2028",
// "byte 0xFF (not UTF-8)"); empty when there is none.
std::string first_unprintable(std::string_view text);

// A region as providers spell it: 1 to 128 printable ASCII characters, spaces only between
// words (us-east-1, westeurope, NY2; Vast's "Denmark, DK, EU"): no line or paragraph
// separator, control or lookalike letter of any script.
bool is_region_name(std::string_view text);

// `text` with control characters and bytes that are not UTF-8 written as \xNN, and the
// controls of more than one byte (C1, bidirectional overrides) as \uXXXX (JSON's spelling,
// so the guard below keeps a JSON report valid).
std::string escape_unprintable(std::string_view text);

// A whole report or message as it goes to a terminal: escape_unprintable line by line, line
// feeds kept. The CLI writes every text through it, the last guard behind the readers' own.
std::string terminal_text(std::string_view text);
// Whether terminal_text would change `text` (a writer of clean text need not copy it).
bool needs_terminal_escapes(std::string_view text);

// Columns `text` takes in a terminal: two for CJK and emoji (fmt's rule), one otherwise.
std::size_t display_width(std::string_view text);

}  // namespace mlsize
