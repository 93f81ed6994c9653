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

// The records of `text` one at a time, the header first; blank lines are skipped: a price
// file of tens of thousands of rows is read without holding all its records (issue 46: a
// 58 MB file peaked at 835 MB). Throws Error (input) at file:line:column for a quote that
// is not closed or text after a closing quote.
class CsvReader {
 public:
  CsvReader(std::string_view text, std::string_view file_name);
  // The next record into `record` (its fields' storage reused); false at the end.
  bool next(CsvRecord& record);

 private:
  std::string_view m_text;
  std::string_view m_file;
  std::size_t m_at = 0;
  std::size_t m_line_start = 0;
  int m_line = 1;
};

// Every record of `text` (CsvReader, all at once), for small files and tests.
std::vector<CsvRecord> read_csv(std::string_view text, std::string_view file_name);

// The line of `text` that starts at 1-based `line`, for an error's excerpt.
std::string line_of(std::string_view text, int line);

}  // namespace mlsize
