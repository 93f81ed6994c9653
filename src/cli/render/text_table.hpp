#pragma once
// Plain-text tables: columns padded to their widest cell (display_width, CJK and emoji
// two columns), two spaces apart.

#include <string>
#include <vector>

namespace mlsize::cli {

struct TableColumn {
  std::string header;
  bool right_aligned = false;
};

// How a report's tables are laid out: prose wrapped to `width` columns and ids in the
// hardware cells, or with `wide` the names and no wrapping (--wide); with `markdown`
// (--format markdown) tables as Markdown pipe tables and prose as paragraphs, unwrapped.
struct TableStyle {
  std::size_t width = 100;
  bool wide = false;
  bool markdown = false;
};

// The table as text (render_text_table) or, with style.markdown, a Markdown pipe table.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         const TableStyle& style);

// The header line, then one line per row; the last column is not padded.
std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows);

}  // namespace mlsize::cli
