#include "cli/render/render_rows.hpp"

#include "cli/render/format.hpp"

#include "cli/render/yaml_scalar.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

// A spreadsheet reads a cell that starts with =, +, -, @, a tab or a carriage return as a
// formula (=HYPERLINK(...) from an offering's name would run in the reader's Excel):
// OWASP's CSV injection advice is a leading single quote, which the spreadsheet shows as
// text. Numbers are left alone (-0.5 is a number, not a formula).
std::string without_formula(const std::string& text) {
  if (text.empty() || std::string_view("=+-@\t\r").find(text.front()) == std::string_view::npos) return text;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  if (end == text.c_str() + text.size()) return text;
  std::string quoted = "'";
  quoted += text;
  return quoted;
}

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(const std::string& raw) {
  const std::string text = without_formula(raw);
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// TSV fields cannot hold tabs or line breaks (IANA's text/tab-separated-values): spaces.
std::string tsv_field(const std::string& raw) {
  std::string text = without_formula(raw);
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return text;
}

// A Markdown table cell: text as markdown_inline writes it (a <script> or *emphasis* in an
// offering's name stays text, a | does not end the cell), line breaks as spaces.
std::string markdown_field(const std::string& text) {
  std::string line = text;
  std::replace_if(
      line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return markdown_inline(line);
}

std::string scalar_text(const Json& value) {
  if (value.is_null()) return {};
  if (value.is_string()) return value.get<std::string>();
  return value.dump();  // numbers and booleans as JSON writes them
}

void flatten(const Json& value, const std::string& prefix, std::vector<std::pair<std::string, std::string>>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      std::string column = prefix;
      if (!column.empty()) column += '.';
      column += key;
      flatten(item, column, out);
    }
  } else if (value.is_array()) {
    if (std::any_of(value.begin(), value.end(), [](const Json& item) { return item.is_structured(); })) return;
    std::string joined;
    for (const Json& item : value) {
      if (!joined.empty()) joined += ' ';
      joined += scalar_text(item);
    }
    out.emplace_back(prefix, joined);
  } else {
    out.emplace_back(prefix, scalar_text(value));
  }
}

void emit_yaml(YAML::Emitter& out, const Json& value) {
  if (value.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key;
      put_yaml_string(out, key);
      out << YAML::Value;
      emit_yaml(out, item);
    }
    out << YAML::EndMap;
  } else if (value.is_array()) {
    if (value.empty()) out << YAML::Flow;  // [] on the key's line
    out << YAML::BeginSeq;
    for (const Json& item : value) emit_yaml(out, item);
    out << YAML::EndSeq;
  } else if (value.is_null()) {
    out << YAML::Null;
  } else if (value.is_string()) {
    put_yaml_string(out, value.get_ref<const std::string&>());
  } else {
    out << value.dump();  // a number or boolean in JSON's spelling, which YAML 1.2 reads alike
  }
}

}  // namespace

std::string render_rows(const Rows& rows, RowSyntax syntax) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on literal + temporary string.
      switch (syntax) {
        case RowSyntax::csv:
          if (i > 0) out += ',';
          out += csv_field(cells[i]);
          break;
        case RowSyntax::tsv:
          if (i > 0) out += '\t';
          out += tsv_field(cells[i]);
          break;
        case RowSyntax::markdown:
          out += "| ";
          out += markdown_field(cells[i]);
          out += ' ';
          break;
      }
    }
    return out + (syntax == RowSyntax::markdown ? "|\n" : "\n");
  };
  text += line(rows.columns);
  if (syntax == RowSyntax::markdown) {
    std::string rule;
    for (std::size_t i = 0; i < rows.columns.size(); ++i) {
      const bool right = i < rows.right_aligned.size() && rows.right_aligned[i];
      rule += right ? "| ---: " : "| --- ";
    }
    text += rule + "|\n";
  }
  for (const std::vector<std::string>& cells : rows.cells) text += line(cells);
  return text;
}

Rows rows_of(const Json& objects) {
  Rows rows;
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<std::pair<std::string, std::string>>> flat;
  for (const Json& object : objects) {
    flat.emplace_back();
    flatten(object, "", flat.back());
    for (const auto& [column, text] : flat.back()) {
      if (index.emplace(column, rows.columns.size()).second) rows.columns.push_back(column);
    }
  }
  for (const auto& entries : flat) {
    std::vector<std::string> cells(rows.columns.size());
    for (const auto& [column, text] : entries) cells[index.at(column)] = text;
    rows.cells.push_back(std::move(cells));
  }
  return rows;
}

std::string render_yaml(const Json& document) {
  YAML::Emitter out;
  out.SetIndent(2);
  emit_yaml(out, document);
  return std::string(out.c_str()) + "\n";
}

}  // namespace mlsize::cli
