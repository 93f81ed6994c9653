#include "cli/io/output_file.hpp"

#include <mlsize/support/error.hpp>

#include <sys/stat.h>
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

void write_file_atomically(const std::string& requested, const std::string& text) {
  // A symbolic link stays a link: its target is what gets replaced.
  std::string path = requested;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    char* resolved = ::realpath(requested.c_str(), nullptr);
    if (resolved == nullptr) fail(requested, std::strerror(errno));
    path = resolved;
    std::free(resolved);
  }
  // A replaced file keeps its mode; a new one gets what open(2) would give it, 0666 less
  // the umask (mkstemp's own 0600 would hide a shared report from the team).
  mode_t mode = 0;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) {
    mode = existing.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  // mkstemp in the target's directory, so that rename() stays on one file system.
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(requested, std::strerror(errno));
  const std::string temporary(name.data());
  if (::fchmod(fd, mode) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temporary.c_str());
    fail(requested, reason);
  }
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      fail(requested, reason);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail(requested, reason);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail(requested, reason);
  }
}

}  // namespace mlsize::cli
