#include "cli/render/render_rows.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// TSV fields cannot hold tabs or line breaks (IANA's text/tab-separated-values): spaces.
std::string tsv_field(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return text;
}

// A Markdown table cell: pipes escaped, line breaks as spaces.
std::string markdown_field(const std::string& text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') {
      cell += "\\|";
    } else {
      cell += (c == '\n' || c == '\r') ? ' ' : c;
    }
  }
  return cell;
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

// A string YAML would read as another type (a number, a boolean, null) or as nothing:
// it is written in quotes.
bool reads_as_other_type(const std::string& text) {
  if (text.empty()) return true;
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"null", "~", "true", "false", "yes", "no", "on", "off", ".inf", "-.inf", ".nan"}) {
    if (lower == word) return true;
  }
  // A date (2025-04-28) reads as a timestamp in YAML 1.1 (PyYAML).
  const bool date = text.size() == 10 && text[4] == '-' && text[7] == '-' &&
                    std::all_of(text.begin(), text.end(),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '-'; });
  if (date) return true;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

void emit_yaml(YAML::Emitter& out, const Json& value) {
  if (value.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key << key << YAML::Value;
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
    const std::string& text = value.get_ref<const std::string&>();
    if (reads_as_other_type(text)) out << YAML::DoubleQuoted;
    out << text;
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
