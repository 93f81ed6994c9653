#include "cli/io/output_file.hpp"

#include <mlsize/support/error.hpp>

#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  Error error(ErrorKind::input, "cannot write the output: " + what, "check the directory exists and is writable");
  error.at(SourceLocation{path, 0, 0, {}});
  throw error;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  // mkstemp in the target's directory, so that rename() stays on one file system.
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, std::strerror(errno));
  const std::string temporary(name.data());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      fail(path, reason);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail(path, reason);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail(path, reason);
  }
}

}  // namespace mlsize::cli
