#include "core/support/yaml_documents.hpp"

#include <atomic>

namespace mlsize {

namespace {
std::atomic<std::size_t> g_yaml_documents{0};
}  // namespace

std::size_t yaml_documents_parsed() {
  return g_yaml_documents.load();
}

void count_yaml_document() {
  ++g_yaml_documents;
}
namespace {

// Calls `visit(line, number)` for each line until it returns false.
template <class Visit>
void for_each_line(std::string_view text, Visit visit) {
  int number = 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (!visit(line, number)) return;
    if (end == std::string_view::npos) return;
    start = end + 1;
    ++number;
  }
}

}  // namespace

bool is_document_marker(std::string_view line) {
  return (line.substr(0, 3) == "---" || line.substr(0, 3) == "...") &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

bool is_content(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first != std::string_view::npos && line[first] != '#' && !is_document_marker(line);
}

std::optional<int> second_document_line(std::string_view text) {
  bool seen_content = false;
  bool after_marker = false;
  std::optional<int> found;
  for_each_line(text, [&](std::string_view line, int number) {
    if (is_document_marker(line)) {
      after_marker = seen_content;
      return true;
    }
    if (!is_content(line)) return true;
    if (after_marker) {
      found = number;
      return false;
    }
    seen_content = true;
    return true;
  });
  return found;
}

bool has_content(std::string_view text) {
  bool found = false;
  for_each_line(text, [&](std::string_view line, int) {
    found = is_content(line);
    return !found;
  });
  return found;
}

}  // namespace mlsize
