#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace mlsize {
namespace {

// The code point of the well-formed sequence of `length` bytes at text[0].
char32_t decode(std::string_view text, std::size_t length) {
  const auto byte = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(text[i])); };
  if (length == 1) return byte(0);
  char32_t point = byte(0) & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) point = (point << 6) | (byte(i) & 0x3F);
  return point;
}

// Characters that must not reach a terminal or a file as they are: C0 controls but tab, DEL,
// C1 controls (U+0085 NEXT LINE among them), the bidirectional overrides and isolates that
// reorder what follows ("Trojan Source", CVE-2021-42574), the line and paragraph separators
// U+2028 and U+2029 (line breaks to YAML 1.1 readers such as PyYAML, and to JavaScript
// before ES2019: issue 46's key injection), the byte-order mark U+FEFF and the noncharacters
// U+FFFE and U+FFFF (PyYAML refuses a stream holding them).
bool is_hidden_control(char32_t point) {
  return (point < 0x20 && point != '\t') || (point >= 0x7F && point <= 0x9F) || point == 0x061C || point == 0x200E ||
         point == 0x200F || (point >= 0x202A && point <= 0x202E) || (point >= 0x2066 && point <= 0x2069) ||
         point == 0x2028 || point == 0x2029 || point == 0xFEFF || point == 0xFFFE || point == 0xFFFF;
}

// Whether the eight bytes of `chunk` are each printable ASCII or a line feed, for all of
// them at once: each byte's high bit of the masks below says it of that byte (no carry
// crosses a byte: the low seven bits plus 0x60 or 1 stay below 0x100).
bool plain_chunk(std::uint64_t chunk) {
  constexpr std::uint64_t ones = 0x0101010101010101;
  constexpr std::uint64_t high = ones * 0x80;
  constexpr std::uint64_t low = ones * 0x7F;
  const std::uint64_t seven = chunk & low;
  // 0x20 to 0x7E: at least 0x20, not 0x7F, and the high bit clear.
  const std::uint64_t printable = (seven + ones * 0x60) & ~(seven + ones) & ~chunk & high;
  const std::uint64_t other = chunk ^ (ones * '\n');  // zero where a line feed is
  const std::uint64_t line_feed = ~(((other & low) + low) | other) & high;
  return (printable | line_feed) == high;
}

// fmt 9's rule for a code point two columns wide (fmt/format.h, detail::compute_width):
// Hangul, CJK, full-width forms and the common emoji blocks; plus two emoji blocks fmt 9
// leaves narrow and Unicode's EastAsianWidth.txt makes wide (W): Transport and Map
// Symbols (U+1F680-1F6FF, a rocket) and Symbols and Pictographs Extended-A (U+1FA70-1FAFF).
bool is_wide(char32_t cp) {
  return cp >= 0x1100 &&
         (cp <= 0x115f || cp == 0x2329 || cp == 0x232a || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
          (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe10 && cp <= 0xfe19) ||
          (cp >= 0xfe30 && cp <= 0xfe6f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) ||
          (cp >= 0x20000 && cp <= 0x2fffd) || (cp >= 0x30000 && cp <= 0x3fffd) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
          (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x1f680 && cp <= 0x1f6ff) || (cp >= 0x1fa70 && cp <= 0x1faff));
}

// A hidden control of more than one byte, written u{202e} after a backslash as Rust and
// JavaScript write it.
// Every hidden control of more than one byte is below U+10000: four digits suffice.
std::string escaped_code_point(char32_t point) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string text = "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) text += k_hex[(point >> shift) & 0xF];
  return text;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned min_second = 0x80;
  unsigned max_second = 0xBF;
  // RFC 3629, Table 3-7 of the Unicode standard: the second byte's range depends on the lead.
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) min_second = 0xA0;  // no overlong forms
    if (lead == 0xED) max_second = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) min_second = 0x90;
    if (lead == 0xF4) max_second = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < min_second || byte(1) > max_second) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

bool is_printable_utf8(std::string_view text) {
  while (!text.empty()) {
    // Printable ASCII, nearly every byte mlsize writes: no code point to decode (issue 49).
    if (const auto byte = static_cast<unsigned char>(text[0]); byte >= 0x20 && byte < 0x7F) {
      text.remove_prefix(1);
      continue;
    }
    const std::size_t length = utf8_sequence_length(text);
    if (length == 0 || is_hidden_control(decode(text, length))) return false;
    text.remove_prefix(length);
  }
  return true;
}

std::string escape_unprintable(std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string result;
  while (!text.empty()) {
    const std::size_t length = utf8_sequence_length(text);
    const auto byte = static_cast<unsigned char>(text[0]);
    if (length == 0 || (length == 1 && is_hidden_control(byte))) {
      result += "\\x";
      result += k_hex[byte >> 4];
      result += k_hex[byte & 0xF];
      text.remove_prefix(1);
    } else if (const char32_t point = decode(text, length); is_hidden_control(point)) {
      result += escaped_code_point(point);
      text.remove_prefix(length);
    } else {
      result += text.substr(0, length);
      text.remove_prefix(length);
    }
  }
  return result;
}

bool needs_terminal_escapes(std::string_view text) {
  // Clean text (printable lines), nearly every report: one pass over it, eight bytes at a
  // time while they are plain, decoding only what is not ASCII (a JSON report is 333 KB;
  // issue 49). No sequence holds a line feed, so this is each line's is_printable_utf8.
  for (std::size_t at = 0; at < text.size();) {
    if (text.size() - at >= sizeof(std::uint64_t)) {
      std::uint64_t chunk = 0;
      std::memcpy(&chunk, text.data() + at, sizeof chunk);
      if (plain_chunk(chunk)) {
        at += sizeof chunk;
        continue;
      }
    }
    const auto byte = static_cast<unsigned char>(text[at]);
    if ((byte >= 0x20 && byte < 0x7F) || byte == '\n') {
      ++at;
      continue;
    }
    const std::string_view rest = text.substr(at);
    const std::size_t length = utf8_sequence_length(rest);
    if (length == 0 || is_hidden_control(decode(rest, length))) return true;
    at += length;
  }
  return false;
}

std::string terminal_text(std::string_view text) {
  if (!needs_terminal_escapes(text)) return std::string(text);
  std::string result;
  result.reserve(text.size() + 16);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (is_printable_utf8(line)) {
      result += line;
    } else {
      result += escape_unprintable(line);
    }
    if (end == std::string_view::npos) break;
    result += '\n';
    start = end + 1;
  }
  return result;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  while (!text.empty()) {
    // ASCII, most of any table, is one column a byte: no decoding (issue 49).
    if (static_cast<unsigned char>(text.front()) < 0x80) {
      width += 1;
      text.remove_prefix(1);
      continue;
    }
    const std::size_t length = utf8_sequence_length(text);
    if (length == 0) {  // a byte that is not UTF-8: one column, as a terminal's replacement
      width += 1;
      text.remove_prefix(1);
      continue;
    }
    width += is_wide(decode(text, length)) ? 2U : 1U;
    text.remove_prefix(length);
  }
  return width;
}

std::string first_unprintable(std::string_view text) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence_length(text.substr(at));
    if (length == 0) {
      const auto byte = static_cast<unsigned char>(text[at]);
      return std::string("byte 0x") + k_hex[byte >> 4] + k_hex[byte & 0xF] + " (not UTF-8)";
    }
    const char32_t point = decode(text.substr(at), length);
    if (is_hidden_control(point)) {
      std::string name = "U+";
      for (int shift = 12; shift >= 0; shift -= 4) name += k_hex[(point >> shift) & 0xF];
      return name;
    }
    at += length;
  }
  return {};
}

bool is_region_name(std::string_view text) {
  return !text.empty() && text.size() <= 128 && text.front() != ' ' && text.back() != ' ' &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace mlsize
