#include "cli/io/output_file.hpp"

#include <mlsize/support/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what,
                       const char* hint = "check the directory exists and is writable") {
  Error error(ErrorKind::input, "cannot write the output: " + what, hint);
  error.at(SourceLocation{path, 0, 0, {}});
  throw error;
}

// The descriptor a name of an open one means: /dev/stderr is 2; /dev/fd/N and
// /proc/self/fd/N are N. Any other path: none.
std::optional<int> named_descriptor(std::string_view path) {
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty()) return fd;
  }
  return std::nullopt;
}

// All of `text` to `fd`; the errno of a failure, or 0.
int write_all(int fd, std::string_view text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

// A device or FIFO: streamed into, as `echo > /dev/null` does. O_TRUNC means nothing to
// either; O_NOCTTY keeps a terminal from becoming ours. What it opened is checked again, so
// a path swapped for a file in between is not written in place.
void write_in_place(const std::string& requested, const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) fail(requested, std::strerror(errno));
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !(S_ISCHR(opened.st_mode) || S_ISFIFO(opened.st_mode))) {
    ::close(fd);
    fail(requested, "the path changed while it was being written", "run the command again");
  }
  constexpr const char* k_refused = "the device or FIFO refused the write (a full device, a reader gone)";
  const int failure = write_all(fd, text);
  if (::close(fd) != 0 && failure == 0) fail(requested, std::strerror(errno), k_refused);
  if (failure != 0) fail(requested, std::strerror(failure), k_refused);
}

// A regular file, or none yet: a temporary file renamed over it, so the path holds its old
// content or the whole new text (mkstemp in the target's directory keeps the rename on one
// file system).
void replace_atomically(const std::string& requested, const std::string& path, const struct stat* existing,
                        std::string_view text) {
  // A replaced file keeps its mode; a new one gets what open(2) would give it, 0666 less
  // the umask (mkstemp's own 0600 would hide a shared report from the team).
  mode_t mode = 0;
  if (existing != nullptr) {
    mode = existing->st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(requested, std::strerror(errno));
  const std::string temporary(name.data());
  const auto give_up = [&](int failure) {
    ::close(fd);
    ::unlink(temporary.c_str());
    fail(requested, std::strerror(failure));
  };
  if (::fchmod(fd, mode) != 0) give_up(errno);
  // Root replacing a user's file leaves it the user's, as install -o would not need saying.
  if (existing != nullptr && ::geteuid() == 0) (void)::fchown(fd, existing->st_uid, existing->st_gid);
  if (const int failure = write_all(fd, text); failure != 0) give_up(failure);
  if (::fsync(fd) != 0) give_up(errno);
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    fail(requested, reason);
  }
  // The path may have become something else since it was looked at: a rename over a
  // device or FIFO is what this function exists to never do.
  struct stat now {};
  const bool still_a_file = ::lstat(path.c_str(), &now) == 0 ? S_ISREG(now.st_mode) : errno == ENOENT;
  if (!still_a_file || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = still_a_file ? std::strerror(errno) : "the path changed while it was being written";
    ::unlink(temporary.c_str());
    fail(requested, reason);
  }
}

}  // namespace

bool is_standard_output(std::string_view path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

void write_output_file(const std::string& requested, std::string_view text) {
  if (const std::optional<int> fd = named_descriptor(requested)) {
    if (::fcntl(*fd, F_GETFD) < 0) fail(requested, "descriptor " + std::to_string(*fd) + " is not open");
    if (const int failure = write_all(*fd, text); failure != 0) fail(requested, std::strerror(failure));
    return;
  }
  // A symbolic link stays a link: its target is what gets written.
  std::string path = requested;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    char* resolved = ::realpath(requested.c_str(), nullptr);
    if (resolved == nullptr) fail(requested, std::strerror(errno));
    path = resolved;
    std::free(resolved);
  }
  struct stat existing {};
  if (::stat(path.c_str(), &existing) != 0) {
    if (errno != ENOENT) fail(requested, std::strerror(errno));
    replace_atomically(requested, path, nullptr, text);
    return;
  }
  if (S_ISREG(existing.st_mode)) {
    replace_atomically(requested, path, &existing, text);
  } else if (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode)) {
    write_in_place(requested, path, text);
  } else if (S_ISDIR(existing.st_mode)) {
    fail(requested, "it is a directory", "name a file in it");
  } else if (S_ISBLK(existing.st_mode)) {
    fail(requested, "it is a block device, and mlsize does not write reports onto disks", "name a file");
  } else {
    fail(requested, "it is a socket, which cannot be opened by name", "pipe the output instead: --output -");
  }
}

}  // namespace mlsize::cli
