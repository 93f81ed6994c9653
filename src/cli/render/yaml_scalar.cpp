#include "cli/render/yaml_scalar.hpp"

#include "core/support/text_lines.hpp"

#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

namespace mlsize::cli {

bool retyped_by_yaml(std::string_view text) {
  const std::string lower = text::lower(text);
  static constexpr std::array<std::string_view, 12> k_special{"y",  "yes", "n", "no",   "true", "false",
                                                              "on", "off", "~", "null", "",     ".nan"};
  if (std::find(k_special.begin(), k_special.end(), lower) != k_special.end()) return true;
  // Numbers, dates and sexagesimals start with a digit, perhaps after a sign or a point
  // (.5, -1, +.inf, 2025-04-28, 1:30); "." and "-" alone are strings.
  std::string_view rest = lower;
  if (rest.front() == '-' || rest.front() == '+') rest.remove_prefix(1);
  if (!rest.empty() && rest.front() == '.') rest.remove_prefix(1);
  return !rest.empty() &&
         (std::isdigit(static_cast<unsigned char>(rest.front())) != 0 || rest == "inf" || rest == "nan");
}

bool needs_yaml_escapes(std::string_view text) {
  // is_printable_utf8 refuses the controls, the separators, the BOM and the noncharacters
  // (support/utf8.cpp); a tab is printable there but a YAML plain scalar's tab is fragile.
  return !is_printable_utf8(text) || text.find('\t') != std::string_view::npos;
}

void put_yaml_string(YAML::Emitter& out, std::string_view text, YamlQuote quote) {
  if (needs_yaml_escapes(text)) {
    // Both manipulators hold for this scalar only (yaml-cpp's local settings).
    out << YAML::DoubleQuoted << YAML::EscapeNonAscii;
  } else if (quote == YamlQuote::always) {
    out << YAML::DoubleQuoted;
  } else if (retyped_by_yaml(text)) {
    out << YAML::SingleQuoted;
  }
  out << std::string(text);
}

std::string yaml_comment(std::string_view text) {
  std::string line = escape_unprintable(text);  // line feeds, CR, U+0085, U+2028 as \x0a, \u2028
  std::replace(line.begin(), line.end(), '\t', ' ');
  return line;
}

std::string yaml_block(std::string_view text) {
  return terminal_text(text);
}

}  // namespace mlsize::cli
