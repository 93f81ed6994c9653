#pragma once
// Plain-text tables: columns padded to their widest cell (display_width, CJK and emoji
// two columns), two spaces apart.

#include <string>
#include <vector>

namespace mlsize::cli {

// Terminals and CI logs open 80 columns wide: the width of text when nothing says
// otherwise (docs/cli.md#width).
inline constexpr std::size_t k_default_width = 80;

struct TableColumn {
  std::string header;
  bool right_aligned = false;
  // Left out when the table is wider than its style's width: the highest first; 0 never.
  int drop = 0;
  // The last column only: still too wide once the columns to drop are gone, its cells are
  // broken at spaces onto lines under it (prose such as a formula, not figures).
  bool wraps = false;
};

// How a report's tables are laid out: prose wrapped and tables kept within `width`
// columns (columns left out by their `drop`, a row never wrapped) and ids in the hardware
// cells, or with `wide` the names, every column and no wrapping (--wide); with `markdown`
// (--format markdown) tables as Markdown pipe tables and prose as paragraphs, unwrapped.
struct TableStyle {
  std::size_t width = k_default_width;
  bool wide = false;
  bool markdown = false;
  // --verbose: the notes under a ranking in full, a line per row; else a line per kind.
  bool verbose = false;
};

// The table as text (render_text_table) or, with style.markdown, a Markdown pipe table.
// Text wider than style.width (unless style.wide) leaves out columns by their `drop`
// until it fits, and a line below says which and that --wide shows them.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         const TableStyle& style);

// The header line, then one line per row; the last column is not padded.
std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows);

}  // namespace mlsize::cli
