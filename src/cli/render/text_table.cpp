#include "cli/render/text_table.hpp"

#include "cli/render/render_rows.hpp"

#include <mlsize/support/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace mlsize::cli {

namespace {

// Each column's width: its widest cell or header.
std::vector<std::size_t> column_widths(const std::vector<TableColumn>& columns,
                                       const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const TableColumn& column : columns) widths.push_back(display_width(column.header));
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  return widths;
}

// Narrower than this, a wrapped column would be a word a line.
constexpr std::size_t k_min_wrapped = 20;

// The lines of `text`, without their line feeds.
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// `text` broken at spaces into lines of at most `width` columns, joined by line feeds (a
// longer word stays whole).
std::string wrap_text(const std::string& text, std::size_t width) {
  std::string out;
  std::size_t column = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t space = text.find(' ', at);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(at, space - at);
    at = space + 1;
    if (word.empty()) continue;
    if (column > 0 && column + 1 + display_width(word) > width) {
      out += '\n';
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += display_width(word);
  }
  return out;
}

}  // namespace

std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows) {
  const std::vector<std::size_t> widths = column_widths(columns, rows);
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string padding(widths[i] - display_width(cells[i]), ' ');
      if (i > 0) text += "  ";
      text += columns[i].right_aligned ? padding + cells[i] : cells[i] + (i + 1 < cells.size() ? padding : "");
    }
    return text + "\n";
  };
  std::vector<std::string> headers;
  for (const TableColumn& column : columns) headers.push_back(column.header);
  std::string text = line(headers);
  for (const auto& row : rows) text += line(row);
  return text;
}

namespace {

// The table within `width` columns: the columns to drop go, highest `drop` first (the
// rightmost of equals), until the rows fit or only columns that never drop are left.
std::string fitted_text_table(std::vector<TableColumn> columns, std::vector<std::vector<std::string>> rows,
                              std::size_t width) {
  std::vector<std::string> dropped;
  for (;;) {
    const std::vector<std::size_t> widths = column_widths(columns, rows);
    const std::size_t total = std::accumulate(widths.begin(), widths.end(), std::size_t{0}) + 2 * (widths.size() - 1);
    std::size_t victim = columns.size();
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].drop > 0 && (victim == columns.size() || columns[i].drop >= columns[victim].drop)) victim = i;
    }
    if (total <= width || victim == columns.size()) break;
    dropped.push_back(columns[victim].header);
    columns.erase(columns.begin() + static_cast<std::ptrdiff_t>(victim));
    for (auto& row : rows) row.erase(row.begin() + static_cast<std::ptrdiff_t>(victim));
  }
  std::string text = render_text_table(columns, rows);
  const std::vector<std::size_t> widths = column_widths(columns, rows);
  const std::size_t others =
      std::accumulate(widths.begin(), widths.end() - 1, std::size_t{0}) + 2 * (widths.size() - 1);
  if (others + widths.back() > width && columns.back().wraps && others + k_min_wrapped < width) {
    // Each row's last cell on as many lines as it needs, under its column.
    for (auto& row : rows) row.back() = wrap_text(row.back(), width - others);
    std::vector<std::vector<std::string>> first_lines = rows;
    for (auto& row : first_lines) row.back() = row.back().substr(0, row.back().find('\n'));
    const std::vector<std::string> lines = split_lines(render_text_table(columns, first_lines));
    text = lines.front() + "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      text += lines[i + 1] + "\n";
      const std::vector<std::string> rest = split_lines(rows[i].back());
      for (std::size_t j = 1; j < rest.size(); ++j) text += std::string(others, ' ') + rest[j] + "\n";
    }
  }
  if (!dropped.empty()) {
    std::string names;
    for (std::size_t i = 0; i < dropped.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == dropped.size() ? " and " : ", ") + dropped[i];
    }
    text += fmt::format("({} left out to fit {} columns: --wide shows {})\n", names, width,
                        dropped.size() == 1 ? "it" : "them");
  }
  return text;
}

}  // namespace

std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         const TableStyle& style) {
  if (!style.markdown)
    return style.wide ? render_text_table(columns, rows) : fitted_text_table(columns, rows, style.width);
  Rows table{{}, rows, {}};
  for (const TableColumn& column : columns) {
    table.columns.push_back(column.header);
    table.right_aligned.push_back(column.right_aligned);
  }
  return render_rows(table, RowSyntax::markdown);
}

}  // namespace mlsize::cli
