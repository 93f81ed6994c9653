#include <mlsize/support/utf8.hpp>

namespace mlsize {

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
    const std::size_t length = utf8_sequence_length(text);
    if (length == 0) return false;
    if (length == 1) {
      const auto c = static_cast<unsigned char>(text[0]);
      if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
    }
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
    if (length == 0 || (length == 1 && ((byte < 0x20 && byte != '\t') || byte == 0x7F))) {
      result += "\\x";
      result += k_hex[byte >> 4];
      result += k_hex[byte & 0xF];
      text.remove_prefix(1);
    } else {
      result += text.substr(0, length);
      text.remove_prefix(length);
    }
  }
  return result;
}

}  // namespace mlsize
