#include "core/catalog/csv_reader.hpp"

#include <mlsize/support/error.hpp>

namespace mlsize {

std::string line_of(std::string_view text, int line) {
  std::size_t start = 0;
  for (int i = 1; i < line && start != std::string_view::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > text.size()) return {};
  std::string_view rest = text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return std::string(rest);
}

std::vector<CsvRecord> read_csv(std::string_view text, std::string_view file_name) {
  std::vector<CsvRecord> records;
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  // A UTF-8 byte order mark (Excel writes one) is not part of the first field, as every other
  // reader of mlsize (yaml-cpp, nlohmann::json) skips it too.
  if (text.starts_with("\xEF\xBB\xBF")) {
    i = 3;
    line_start = 3;
  }
  auto fail = [&](int at_line, std::size_t at, std::string message, std::string hint) {
    SourceLocation where{std::string(file_name), at_line, static_cast<int>(at - line_start) + 1,
                         line_of(text, at_line)};
    throw Error(ErrorKind::input, std::move(message), std::move(hint)).at(std::move(where));
  };
  auto column = [&](std::size_t at) { return static_cast<int>(at - line_start) + 1; };
  while (i < text.size()) {
    // A blank line (or the last line break) holds no record.
    if (text[i] == '\n' || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      i += text[i] == '\r' ? 2u : 1u;
      ++line;
      line_start = i;
      continue;
    }
    CsvRecord record{line, {}};
    bool end_of_record = false;
    while (!end_of_record) {
      CsvField field{{}, column(i)};
      if (i < text.size() && text[i] == '"') {
        const int quote_line = line;
        const std::size_t quote_at = i;
        const std::size_t quote_line_start = line_start;
        ++i;
        while (true) {
          if (i >= text.size()) {
            line_start = quote_line_start;
            fail(quote_line, quote_at, "quoted field is not closed", "close it with \"; a \" inside is written \"\"");
          }
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field.text += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
          }
          field.text += text[i++];
        }
        if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          fail(line, i, "text after the closing quote of a field", "a quoted field ends at a comma or the line's end");
        }
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') field.text += text[i++];
      }
      record.fields.push_back(std::move(field));
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      end_of_record = true;
      if (i < text.size() && text[i] == '\r') ++i;
      if (i < text.size() && text[i] == '\n') {
        ++i;
        ++line;
        line_start = i;
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace mlsize
