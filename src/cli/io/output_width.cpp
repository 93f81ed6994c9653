#include "cli/io/output_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace mlsize::cli {

std::size_t choose_output_width(std::optional<std::size_t> terminal, std::optional<std::string_view> columns_env,
                                std::size_t fallback) {
  // A terminal says how wide it is now; COLUMNS, as less(1) and ls(1) read it, says so for
  // a pipe (COLUMNS=120 mlsize ... | less -S). A COLUMNS that is no number is ignored.
  if (terminal && *terminal > 0) return std::max(*terminal, k_min_width);
  if (columns_env) {
    std::size_t columns = 0;
    const auto [end, error] = std::from_chars(columns_env->data(), columns_env->data() + columns_env->size(), columns);
    if (error == std::errc() && end == columns_env->data() + columns_env->size() && columns > 0) {
      return std::max(columns, k_min_width);
    }
  }
  return fallback;
}

std::optional<std::size_t> terminal_columns(int fd) {
  winsize size{};
  if (::isatty(fd) == 1 && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return std::nullopt;
}

std::size_t output_width(std::size_t fallback) {
  const std::optional<std::size_t> terminal = terminal_columns(STDOUT_FILENO);
  std::optional<std::string_view> columns;
  if (const char* value = std::getenv("COLUMNS"); value != nullptr) columns = value;
  return choose_output_width(terminal, columns, fallback);
}

}  // namespace mlsize::cli
