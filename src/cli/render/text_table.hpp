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

// The header line, then one line per row; the last column is not padded.
std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows);

}  // namespace mlsize::cli
