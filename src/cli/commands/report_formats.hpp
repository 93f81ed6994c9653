#pragma once
// --format for the commands that write a JSON document: JSON as it is, YAML from it, and
// CSV, TSV or Markdown rows picked from it (docs/cli.md#formats); the table is each
// command's own.

#include "cli/options/output_format.hpp"
#include "cli/render/render_rows.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mlsize::cli {

inline RowSyntax row_syntax(OutputFormat format) {
  if (format == OutputFormat::tsv) return RowSyntax::tsv;
  return format == OutputFormat::markdown ? RowSyntax::markdown : RowSyntax::csv;
}

// `json_text` (a whole document) as `format`: json, yaml, or the rows `pick` returns from
// the parsed document, in csv, tsv or markdown.
template <class Pick>
std::string format_document(const std::string& json_text, OutputFormat format, Pick pick) {
  if (format == OutputFormat::json) return json_text;
  const auto document = nlohmann::ordered_json::parse(json_text);
  if (format == OutputFormat::yaml) return render_yaml(document);
  return render_rows(pick(document), row_syntax(format));
}

}  // namespace mlsize::cli
