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

CsvReader::CsvReader(std::string_view text, std::string_view file_name) : m_text(text), m_file(file_name) {
  // A UTF-8 byte order mark (Excel writes one) is not part of the first field, as every other
  // reader of mlsize (yaml-cpp, nlohmann::json) skips it too.
  if (text.starts_with("\xEF\xBB\xBF")) {
    m_at = 3;
    m_line_start = 3;
  }
}

bool CsvReader::next(CsvRecord& record) {
  const std::string_view text = m_text;
  std::size_t& i = m_at;
  int& line = m_line;
  std::size_t& line_start = m_line_start;
  auto fail = [&](int at_line, std::size_t at, std::string message, std::string hint) {
    SourceLocation where{std::string(m_file), at_line, static_cast<int>(at - line_start) + 1, line_of(text, at_line)};
    throw Error(ErrorKind::input, std::move(message), std::move(hint)).at(std::move(where));
  };
  auto column = [&](std::size_t at) { return static_cast<int>(at - line_start) + 1; };
  // A blank line (or the last line break) holds no record.
  while (i < text.size() && (text[i] == '\n' || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n'))) {
    i += text[i] == '\r' ? 2u : 1u;
    ++line;
    line_start = i;
  }
  if (i >= text.size()) return false;
  record.line = line;
  std::size_t used = 0;
  bool end_of_record = false;
  while (!end_of_record) {
    if (used == record.fields.size()) record.fields.emplace_back();
    CsvField& field = record.fields[used++];
    field.text.clear();
    field.column = column(i);
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
      const std::size_t from = i;
      while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') ++i;
      field.text.assign(text.substr(from, i - from));
    }
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
  record.fields.resize(used);
  return true;
}

std::vector<CsvRecord> read_csv(std::string_view text, std::string_view file_name) {
  std::vector<CsvRecord> records;
  CsvReader reader(text, file_name);
  CsvRecord record;
  while (reader.next(record)) records.push_back(record);
  return records;
}

}  // namespace mlsize
