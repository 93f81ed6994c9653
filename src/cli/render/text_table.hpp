#pragma once
// Plain-text tables: columns padded to their widest cell, two spaces apart.

#include <string>
#include <vector>

namespace mlsize::cli {

struct TableColumn {
  std::string header;
  bool right_aligned = false;
};

// Display width of UTF-8 text: continuation bytes take no column.
std::size_t display_width(const std::string& text);

// The header line, then one line per row; the last column is not padded.
std::string render_text_table(const std::vector<TableColumn>& columns,
                              const std::vector<std::vector<std::string>>& rows);

}  // namespace mlsize::cli
