#include "cli/render/text_table.hpp"

#include "cli/render/render_rows.hpp"
#include "core/support/text_lines.hpp"

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
    std::vector<std::vector<std::string>> wrapped;
    for (auto& row : rows) {
      wrapped.push_back(text::wrap_words(row.back(), width - others));
      row.back() = wrapped.back().front();
    }
    const std::string first_lines = render_text_table(columns, rows);
    const std::vector<std::string_view> lines = text::lines_of(first_lines);
    text = std::string(lines.front()) + "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      text += std::string(lines[i + 1]) + "\n";
      for (std::size_t j = 1; j < wrapped[i].size(); ++j) text += std::string(others, ' ') + wrapped[i][j] + "\n";
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
