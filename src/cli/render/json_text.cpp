#include "cli/render/json_text.hpp"

#include "cli/support/kept.hpp"

#include <mlsize/support/utf8.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <string_view>

// nlohmann's dump writes a double with its own Grisu2 (detail::to_chars), which this file
// calls so that the digits are the same; its layout is that of 3.11 (serializer.hpp).
static_assert(NLOHMANN_JSON_VERSION_MAJOR == 3 && NLOHMANN_JSON_VERSION_MINOR == 11,
              "json_text.cpp writes what nlohmann 3.11's dump(2) writes: check it against this version");

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t k_indent = 2;

// Bytes a string copies as they are: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> k_plain = [] {
  std::array<bool, 256> plain{};
  for (int byte = 0x20; byte < 0x80; ++byte) plain[static_cast<std::size_t>(byte)] = byte != '"' && byte != '\\';
  return plain;
}();

// A string as dump writes it without ensure_ascii: quoted, with '"', '\' and the controls
// below U+0020 escaped, the rest as it is. Runs of plain bytes are copied whole.
void write_string(std::string& out, const std::string& text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  const std::size_t start = out.size();
  out += '"';
  const std::size_t size = text.size();
  std::size_t plain = 0;  // the start of the run not yet copied
  std::size_t i = 0;
  while (i < size) {
    while (i < size && k_plain[static_cast<unsigned char>(text[i])]) ++i;
    if (i == size) break;
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      const std::size_t length = utf8_sequence_length(std::string_view(text).substr(i));
      if (length == 0) {
        // Not UTF-8: nlohmann's own dump throws its type_error 316, as before.
        out.resize(start);
        out += Json(text).dump();
        return;
      }
      i += length;
      continue;
    }
    out.append(text, plain, i - plain);
    switch (byte) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += k_hex[byte >> 4];
        out += k_hex[byte & 0xF];
    }
    plain = ++i;
  }
  out.append(text, plain, size - plain);
  out += '"';
}

template <class Number>
void write_integer(std::string& out, Number value) {
  std::array<char, 24> digits{};
  const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
  out.append(digits.data(), end);
}

// An object's members or an array's values between `open` and `close`, one a line, indented
// one step more than the brackets; "{}" or "[]" when there are none.
template <class Items, class WriteItem>
void write_items(std::string& out, const Items& items, std::size_t indent, char open, char close,
                 WriteItem write_item) {
  out += open;
  if (!items.empty()) {
    out += '\n';
    bool first = true;
    for (const auto& item : items) {
      if (!first) out += ",\n";
      first = false;
      out.append(indent + k_indent, ' ');
      write_item(item);
    }
    out += '\n';
    out.append(indent, ' ');
  }
  out += close;
}

void write_value(std::string& out, const Json& json, std::size_t indent) {
  switch (json.type()) {
    case Json::value_t::object:
      write_items(out, json.get_ref<const Json::object_t&>(), indent, '{', '}', [&](const auto& member) {
        write_string(out, member.first);
        out += ": ";
        write_value(out, member.second, indent + k_indent);
      });
      return;
    case Json::value_t::array:
      write_items(out, json.get_ref<const Json::array_t&>(), indent, '[', ']',
                  [&](const Json& value) { write_value(out, value, indent + k_indent); });
      return;
    case Json::value_t::string: write_string(out, json.get_ref<const std::string&>()); return;
    case Json::value_t::boolean: out += json.get<bool>() ? "true" : "false"; return;
    case Json::value_t::number_integer: write_integer(out, json.get<Json::number_integer_t>()); return;
    case Json::value_t::number_unsigned: write_integer(out, json.get<Json::number_unsigned_t>()); return;
    case Json::value_t::number_float: {
      const double value = json.get<double>();
      if (!std::isfinite(value)) {
        out += "null";
        return;
      }
      std::array<char, 64> digits{};
      out.append(digits.data(), nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), value));
      return;
    }
    case Json::value_t::null: out += "null"; return;
    default:  // binary and discarded values: none in a report; dump's spelling
      out += json.dump(static_cast<int>(k_indent), ' ', false);
      return;
  }
}

}  // namespace

std::string json_text(const Json& json) {
  std::string out;
  write_value(out, json, 0);
  out += '\n';
  return out;
}

std::string json_text_kept(Json&& json) {
  return json_text(kept(std::move(json)));
}

}  // namespace mlsize::cli
