#include "core/model/config_reader.hpp"

#include <atomic>

namespace mlsize {
namespace {
std::atomic<std::size_t> g_json_documents{0};
}  // namespace

std::size_t json_documents_parsed() {
  return g_json_documents.load();
}

Json parse_json(const ConfigText& source) {
  source.check_limits();
  ++g_json_documents;
  try {
    return Json::parse(source.text());
  } catch (const Json::parse_error& failure) {
    // `byte` counts the characters read, so the offending one is at byte - 1.
    const std::size_t offset = failure.byte > 0 ? failure.byte - 1 : 0;
    std::string message = failure.what();
    const std::size_t detail = message.find(": ", message.find("parse error"));
    if (detail != std::string::npos) message = message.substr(detail + 2);
    const std::string_view rest = source.text().substr(std::min(offset, source.text().size()));
    std::string hint;
    if (rest.starts_with("NaN") || rest.starts_with("Infinity") || rest.starts_with("-Infinity")) {
      hint = "JSON has no NaN or Infinity; dimensions are positive whole numbers";
    }
    source.fail(source.at_offset(offset), "invalid JSON: " + message, hint);
  } catch (const Json::exception& failure) {
    // Number overflow (406) has no offset; point at the number when it can be found.
    std::string message = failure.what();
    const std::size_t detail = message.find("] ");
    if (detail != std::string::npos) message = message.substr(detail + 2);
    const std::size_t open = message.find('\'');
    const std::size_t close = message.rfind('\'');
    SourceLocation where{source.name(), 0, 0, {}};
    if (open != std::string::npos && close > open) {
      const std::size_t at = source.text().find(message.substr(open + 1, close - open - 1));
      if (at != std::string_view::npos) where = source.at_offset(at);
    }
    source.fail(where, "invalid JSON: " + message, "dimensions are positive whole numbers up to 10000000");
  }
}

}  // namespace mlsize
