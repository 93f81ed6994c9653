#include "cli/render/text_table.hpp"

#include "cli/render/render_rows.hpp"
#include "core/support/text_lines.hpp"

#include <mlsize/support/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace mlsize::cli {

namespace {

// A table being fitted: each cell's display width measured once ([row][column], the headers
// first), the columns shown (`kept`) and, once the last one is wrapped, its cells' first
// lines. Dropping a column or wrapping the last changes no other column's width (issue 49:
// measuring every cell again for each column dropped and for each line written was a fifth
// of `catalog list`).
struct Fitting {
  const std::vector<TableColumn>& columns;
  const std::vector<std::vector<std::string>>& rows;
  std::vector<std::vector<std::size_t>> cells;
  std::vector<std::size_t> kept;
  std::vector<std::string> last_lines;  // empty: the last column's cells whole

  Fitting(const std::vector<TableColumn>& table_columns, const std::vector<std::vector<std::string>>& table_rows)
      : columns(table_columns), rows(table_rows) {
    cells.reserve(rows.size() + 1);
    std::vector<std::size_t>& headers = cells.emplace_back();
    for (const TableColumn& column : columns) headers.push_back(display_width(column.header));
    for (const auto& row : rows) {
      std::vector<std::size_t>& widths = cells.emplace_back();
      widths.reserve(row.size());
      for (const std::string& cell : row) widths.push_back(display_width(cell));
    }
    for (std::size_t i = 0; i < columns.size(); ++i) kept.push_back(i);
  }

  // Each kept column's width: its widest cell or header.
  std::vector<std::size_t> widths() const {
    std::vector<std::size_t> widths(kept.size(), 0);
    for (const std::vector<std::size_t>& row : cells) {
      for (std::size_t k = 0; k < kept.size(); ++k) widths[k] = std::max(widths[k], row[kept[k]]);
    }
    return widths;
  }

  // The kept column `k` of line `line` (0: the headers).
  const std::string& text(std::size_t line, std::size_t k) const {
    if (line == 0) return columns[kept[k]].header;
    if (k + 1 == kept.size() && !last_lines.empty()) return last_lines[line - 1];
    return rows[line - 1][kept[k]];
  }

  // The header and a line a row, each cell padded to its column.
  std::string render() const {
    const std::vector<std::size_t> column_widths = widths();
    std::string text_out;
    for (std::size_t line = 0; line < cells.size(); ++line) {
      for (std::size_t k = 0; k < kept.size(); ++k) {
        const std::string& cell = text(line, k);
        const std::string padding(column_widths[k] - cells[line][kept[k]], ' ');
        if (k > 0) text_out += "  ";
        text_out += columns[kept[k]].right_aligned ? padding + cell : cell + (k + 1 < kept.size() ? padding : "");
      }
      text_out += "\n";
    }
    return text_out;
  }
};

// Narrower than this, a wrapped column would be a word a line.
constexpr std::size_t k_min_wrapped = 20;

}  // namespace

std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows) {
  return Fitting(columns, rows).render();
}

namespace {

// The table within `width` columns: the columns to drop go, highest `drop` first (the
// rightmost of equals), until the rows fit or only columns that never drop are left.
std::string fitted_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows, std::size_t width) {
  Fitting table(columns, rows);
  std::vector<std::string> dropped;
  for (;;) {
    const std::vector<std::size_t> widths = table.widths();
    const std::size_t total = std::accumulate(widths.begin(), widths.end(), std::size_t{0}) + 2 * (widths.size() - 1);
    std::size_t victim = table.kept.size();
    for (std::size_t k = 0; k < table.kept.size(); ++k) {
      const int drop = columns[table.kept[k]].drop;
      if (drop > 0 && (victim == table.kept.size() || drop >= columns[table.kept[victim]].drop)) victim = k;
    }
    if (total <= width || victim == table.kept.size()) break;
    dropped.push_back(columns[table.kept[victim]].header);
    table.kept.erase(table.kept.begin() + static_cast<std::ptrdiff_t>(victim));
  }
  std::string text;
  const std::vector<std::size_t> widths = table.widths();
  const std::size_t others =
      std::accumulate(widths.begin(), widths.end() - 1, std::size_t{0}) + 2 * (widths.size() - 1);
  const std::size_t last = table.kept.back();
  if (others + widths.back() > width && columns[last].wraps && others + k_min_wrapped < width) {
    // Each row's last cell on as many lines as it needs, under its column.
    std::vector<std::vector<std::string>> wrapped;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      wrapped.push_back(text::wrap_words(rows[i][last], width - others));
      table.last_lines.push_back(wrapped.back().front());
      table.cells[i + 1][last] = display_width(table.last_lines.back());
    }
    const std::string first_lines = table.render();
    const std::vector<std::string_view> lines = text::lines_of(first_lines);
    text = std::string(lines.front()) + "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      text += std::string(lines[i + 1]) + "\n";
      for (std::size_t j = 1; j < wrapped[i].size(); ++j) text += std::string(others, ' ') + wrapped[i][j] + "\n";
    }
  } else {
    text = table.render();
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
