#pragma once
// A command as a shell reads it, for the launch configs (render_launch.cpp, render_vllm.cpp).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize::cli {

// One argument per line after the program, each line but the last ending in a backslash.
class Command {
 public:
  explicit Command(std::string program) : m_lines{std::move(program)} {}
  Command& arg(std::string text) {
    m_lines.push_back(std::move(text));
    return *this;
  }
  Command& arg(std::string_view flag, const std::string& value) {
    std::string line(flag);
    line += ' ';
    line += value;
    return arg(std::move(line));
  }
  Command& arg(std::string_view flag, long long value) { return arg(flag, std::to_string(value)); }
  std::string text() const {
    std::string out;
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
      if (i > 0) out += "  ";
      out += m_lines[i];
      out += i + 1 < m_lines.size() ? " \\\n" : "\n";
    }
    return out;
  }

 private:
  std::vector<std::string> m_lines;
};

}  // namespace mlsize::cli
