#pragma once
// Comma-separated text (RFC 4180: fields in double quotes may hold commas, line breaks and
// doubled quotes), as the price files of `catalog import` are written.

#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

struct CsvField {
  std::string text;
  int column = 0;  // 1-based column of the field's first character on its line
};

struct CsvRecord {
  int line = 0;  // 1-based line the record starts on
  std::vector<CsvField> fields;
};

// Every record of `text`, the header first; blank lines are skipped. Throws Error (input)
// at file:line:column for a quote that is not closed or text after a closing quote.
std::vector<CsvRecord> read_csv(std::string_view text, std::string_view file_name);

// The line of `text` that starts at 1-based `line`, for an error's excerpt.
std::string line_of(std::string_view text, int line);

}  // namespace mlsize
