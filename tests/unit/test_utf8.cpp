// The control-character guard every text passes before a terminal (issue 31, must-have 6).
#include <mlsize/support/utf8.hpp>

#include <catch2/catch.hpp>

using namespace mlsize;

TEST_CASE("escape_unprintable writes C0 bytes as \\xNN and wider controls in JSON's \\uXXXX", "[utf8]") {
  CHECK(escape_unprintable("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(escape_unprintable("ok\xff") == "ok\\xff");                                 // not UTF-8
  CHECK(escape_unprintable("abc\xe2\x80\xaex") == "abc\\u202ex");                   // right-to-left override
  CHECK(escape_unprintable("\xc2\x85") == "\\u0085");                               // C1 next line
  CHECK(escape_unprintable("tab\tand \xc3\x97 kept") == "tab\tand \xc3\x97 kept");  // tab, ×
}

TEST_CASE("terminal_text keeps line feeds and escapes every other control, line by line", "[utf8]") {
  CHECK(terminal_text("plain\ntable\n") == "plain\ntable\n");
  CHECK(terminal_text("rule says \xe2\x80\xae"
                      "evil\nnext\r\n") == "rule says \\u202eevil\nnext\\x0d\n");
  CHECK(terminal_text("") == "");
  // In JSON the escape is JSON's own: a report stays valid where a string held an override.
  CHECK(terminal_text("{\"m\": \"a\xe2\x81\xa6"
                      "b\"}\n") == "{\"m\": \"a\\u2066b\"}\n");
}

TEST_CASE("needs_terminal_escapes sees every byte, wherever it falls in the eight-byte chunks", "[utf8]") {
  // The scan takes eight plain bytes at a time (issue 49): each byte value at each place of
  // a longer text must still get the answer a byte-by-byte look gives.
  const std::string plain = "0123456789abcdefghij\nklmnopqrstuvwxyz {}\"";
  CHECK_FALSE(needs_terminal_escapes(plain));
  CHECK_FALSE(needs_terminal_escapes(""));
  CHECK_FALSE(needs_terminal_escapes("tab\tand \xc3\x97 and \xe2\x80\x94 kept, at any length........"));
  for (int value = 0; value < 256; ++value) {
    const char byte = static_cast<char>(value);
    // One byte alone: only printable ASCII and the line feed pass; a tab passes too (escape_unprintable keeps it).
    const bool printable = (value >= 0x20 && value < 0x7F) || value == '\n' || value == '\t';
    for (std::size_t at = 0; at < 17; ++at) {
      std::string text = plain;
      text[at] = byte;
      INFO("byte " << value << " at " << at);
      CHECK(needs_terminal_escapes(text) == !printable);
      CHECK((terminal_text(text) == text) == printable);
    }
  }
}
