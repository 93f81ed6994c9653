#include "cli/io/pager.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace mlsize::cli {
namespace {

std::optional<std::size_t> terminal_rows(int fd) {
  winsize size{};
  if (::isatty(fd) == 1 && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
  return std::nullopt;
}

// Whether `program` is an executable file in a directory of $PATH.
bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  const std::string dirs(path);
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : std::string(".");
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::optional<std::string> pager_for(std::FILE* stream, std::string_view text) {
  const std::optional<std::size_t> rows = terminal_rows(::fileno(stream));
  if (!rows) return std::nullopt;
  // The prompt takes the last row: a report of rows - 1 lines is still one screen.
  if (static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) < *rows) return std::nullopt;
  for (const char* variable : {"MLSIZE_PAGER", "PAGER"}) {
    if (const char* value = std::getenv(variable); value != nullptr) {
      const std::string pager(value);
      if (pager.empty() || pager == "cat") return std::nullopt;
      return pager;
    }
  }
  if (on_path("less")) return std::string("less");
  return std::nullopt;
}

bool write_through_pager(const std::string& pager, std::string_view text) {
  // less(1) reads LESS: F quits when the text fits one screen, R keeps colours, X leaves the
  // screen as it was, so the first page stays in view after q (git sets the same).
  ::setenv("LESS", "FRX", 0);
  std::FILE* pipe = ::popen(pager.c_str(), "w");
  if (pipe == nullptr) return false;
  // A pager quit before the end (q on the first page) closes the pipe: EPIPE, not a failure.
  std::fwrite(text.data(), 1, text.size(), pipe);
  const int status = ::pclose(pipe);
  // The shell's 127: the command was not found; the text was not shown.
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 127);
}

}  // namespace mlsize::cli
