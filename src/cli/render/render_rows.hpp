#pragma once
// One table of text cells written as CSV (RFC 4180), TSV (IANA text/tab-separated-values)
// or a Markdown pipe table, and JSON documents as YAML: the --format csv|tsv|markdown|yaml
// of every command, from the same rows and documents as its JSON (docs/cli.md#formats).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

struct Rows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> cells;  // one vector per row, a cell per column
  std::vector<bool> right_aligned;              // Markdown: numbers right (empty: all left)
};

enum class RowSyntax { csv, tsv, markdown };

std::string render_rows(const Rows& rows, RowSyntax syntax);

// JSON objects as rows: nested objects flattened to dotted columns ("time.seconds"), the
// columns the union of the objects' in first-seen order; null is an empty cell, a list of
// scalars its items joined by spaces, a list of objects left out (it is in --format json).
Rows rows_of(const nlohmann::ordered_json& objects);

// A JSON document as YAML, keys in the same order; numbers as JSON writes them.
std::string render_yaml(const nlohmann::ordered_json& document);

}  // namespace mlsize::cli
