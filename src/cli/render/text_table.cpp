#include "cli/render/text_table.hpp"

#include "cli/render/render_rows.hpp"

#include <mlsize/support/utf8.hpp>

#include <algorithm>

namespace mlsize::cli {

std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const TableColumn& column : columns) widths.push_back(display_width(column.header));
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
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

std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         const TableStyle& style) {
  if (!style.markdown) return render_text_table(columns, rows);
  Rows table{{}, rows, {}};
  for (const TableColumn& column : columns) {
    table.columns.push_back(column.header);
    table.right_aligned.push_back(column.right_aligned);
  }
  return render_rows(table, RowSyntax::markdown);
}

}  // namespace mlsize::cli
