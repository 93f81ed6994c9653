// Writes one YAML document through cli/render/yaml_scalar.hpp, as every emitter writes its
// strings, from text that holds each character YAML 1.1 or 1.2 treats as a break, a control
// or an indicator, most followed by an injection payload (issue 46): a comment, a mapping of
// keys k0..kN to those strings (plain and always-quoted), a key that is itself hostile and a
// literal block. The expected strings go to the JSON file named by argv[1]; the document to
// stdout. check_yaml_scalars.py reads both with PyYAML, the consumers' parser.
#include "cli/render/yaml_scalar.hpp"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace mlsize::cli;

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::vector<std::string> breaks = {"\n",
                                           "\r",
                                           "\r\n",
                                           "\xc2\x85" /* U+0085 */,
                                           "\xe2\x80\xa8" /* U+2028 */,
                                           "\xe2\x80\xa9",
                                           "\xef\xbb\xbf",
                                           "\t",
                                           "\x0b",
                                           "\x0c",
                                           "\x1b[31m",
                                           "\x7f",
                                           "\xc2\x9b",
                                           "\xe2\x80\xae" /* RLO */};
  // U+FFFE and U+FFFF are left out: yaml-cpp writes a noncharacter as U+FFFD, and every
  // reader of outside text refuses them where they enter (support/utf8.cpp).
  const std::vector<std::string> payloads = {"image_id: docker:attacker/evil",
                                             "file_mounts:\n  /x: /y",
                                             "  image_id: evil",
                                             "- evil",
                                             "? evil",
                                             "# evil",
                                             "}{evil",
                                             "&a *a",
                                             "!!python/object:os.system evil",
                                             "'\"evil"};
  std::vector<std::string> values;
  for (const std::string& brk : breaks) {
    for (const std::string& payload : payloads) values.push_back("us-east-1" + brk + payload);
    values.push_back(brk);
    values.push_back(brk + "x");
  }
  for (const char* word : {"no",
                           "NO",
                           "y",
                           "off",
                           "null",
                           "~",
                           "1e3",
                           "0x1F",
                           "2025-04-28",
                           "1:30",
                           ".inf",
                           "-",
                           ":",
                           "- a",
                           "a: b",
                           "a #b",
                           "@x",
                           "`x",
                           "%x",
                           "|",
                           ">",
                           "*x",
                           "&x",
                           "!x",
                           "\"",
                           "'",
                           "",
                           " lead",
                           "trail ",
                           "Ampère 東京 🚀",
                           "名前\xe2\x80\xa8image_id: x"}) {
    values.push_back(word);
  }
  nlohmann::json expected = nlohmann::json::array();
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::Comment(yaml_comment("mlsize: 8x h100 \xe2\x80\xa8image_id: evil\nfile_mounts: {}\r\x85"))
      << YAML::Newline;
  out << YAML::BeginMap << YAML::Key << "values" << YAML::Value << YAML::BeginMap;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (const YamlQuote quote : {YamlQuote::as_needed, YamlQuote::always}) {
      std::string key = "k";  // appended: GCC 12 reports a false -Wrestrict on "k" + to_string
      key += std::to_string(expected.size());
      out << YAML::Key << key << YAML::Value;
      put_yaml_string(out, values[i], quote);
      expected.push_back(values[i]);
    }
  }
  out << YAML::EndMap;
  out << YAML::Key << "hostile_key" << YAML::Value << YAML::BeginMap << YAML::Key;
  put_yaml_string(out, "a\xe2\x80\xa8image_id");
  out << YAML::Value << "v" << YAML::EndMap;
  const std::string block =
      "run one\nrun two \xe2\x80\xa9image_id: evil\r\nthree\xc2\x85"
      "four\n";
  out << YAML::Key << "block" << YAML::Value << YAML::Literal << yaml_block(block);
  out << YAML::EndMap;
  std::ofstream(argv[1]) << nlohmann::json{{"values", expected}, {"block", yaml_block(block)}}.dump();
  std::fputs(out.c_str(), stdout);
  std::fputs("\n", stdout);
  return out.good() ? 0 : 1;
}
