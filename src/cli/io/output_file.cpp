#include "cli/io/output_file.hpp"

#include <mlsize/support/error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

// How long a FIFO is given to find a reader, and how often it is tried.
constexpr int k_fifo_reader_wait_ms = 3000;
constexpr int k_fifo_poll_ms = 50;

// The temporary file of a write in progress, removed if SIGINT, SIGTERM or SIGHUP ends the
// process before the rename (issue 46: FILE.tmp.XXXXXX was left behind). The handler does
// only what is async-signal-safe: unlink(2) of a name kept in a fixed buffer, then the
// default action, re-raised.
char g_temporary[PATH_MAX + 1] = {};
volatile sig_atomic_t g_temporary_set = 0;
constexpr int k_cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temporary_and_reraise(int signal_number) {
  if (g_temporary_set != 0) ::unlink(g_temporary);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

class TemporaryGuard {
 public:
  explicit TemporaryGuard(const std::string& path) {
    if (path.size() >= sizeof(g_temporary)) return;
    std::memcpy(g_temporary, path.c_str(), path.size() + 1);
    g_temporary_set = 1;
    struct sigaction action {};
    action.sa_handler = remove_temporary_and_reraise;
    ::sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(k_cleanup_signals); ++i) {
      ::sigaction(k_cleanup_signals[i], &action, &m_previous[i]);
    }
    m_armed = true;
  }
  TemporaryGuard(const TemporaryGuard&) = delete;
  TemporaryGuard& operator=(const TemporaryGuard&) = delete;
  ~TemporaryGuard() {
    if (!m_armed) return;
    for (std::size_t i = 0; i < std::size(k_cleanup_signals); ++i) {
      ::sigaction(k_cleanup_signals[i], &m_previous[i], nullptr);
    }
    g_temporary_set = 0;
  }

 private:
  struct sigaction m_previous[std::size(k_cleanup_signals)]{};
  bool m_armed = false;
};

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
  // A FIFO nobody reads would block open(2) for ever: opened without blocking, which fails
  // with ENXIO until a reader comes, tried for k_fifo_reader_wait_ms (issue 46).
  int fd = -1;
  for (int waited = 0;; waited += k_fifo_poll_ms) {
    fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 || errno != ENXIO || waited >= k_fifo_reader_wait_ms) break;
    const struct timespec pause { 0, k_fifo_poll_ms * 1'000'000L };
    ::nanosleep(&pause, nullptr);
  }
  if (fd < 0 && errno == ENXIO) {
    fail(requested, "no process read the FIFO within " + std::to_string(k_fifo_reader_wait_ms / 1000) + " s",
         "start its reader first, or write to a file");
  }
  if (fd < 0) fail(requested, std::strerror(errno));
  // Then written blocking, as a shell's redirection writes, at the reader's pace.
  if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
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
  // A short hidden name in the same directory (FILE.tmp.XXXXXX was over NAME_MAX for names of
  // 245 bytes and more): the rename stays on one file system.
  const std::filesystem::path directory = std::filesystem::path(path).parent_path();
  std::string pattern = (directory.empty() ? std::string(".") : directory.string()) + "/.mlsize-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(requested, std::strerror(errno));
  const std::string temporary(name.data());
  const TemporaryGuard guard(temporary);
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

namespace {

// Whether the kernel would follow the symbolic link `link` for this process, with
// fs.protected_symlinks on (Linux's default): not when the link sits in a sticky
// world-writable directory (/tmp) and neither this process nor the directory's owner owns
// it. realpath(3) follows it regardless; this check keeps --output from being a way past
// the kernel's (issue 46).
bool kernel_follows(const std::string& link_path, const struct stat& link) {
  std::filesystem::path directory = std::filesystem::path(link_path).parent_path();
  if (directory.empty()) directory = ".";
  struct stat dir {};
  if (::stat(directory.c_str(), &dir) != 0) return true;
  const bool sticky_world_writable = (dir.st_mode & S_ISVTX) != 0 && (dir.st_mode & S_IWOTH) != 0;
  return !sticky_world_writable || link.st_uid == ::geteuid() || link.st_uid == dir.st_uid;
}

// Whether `path` is the same file as one of the run's inputs.
std::optional<std::string> same_as_input(const struct stat& target, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    struct stat other {};
    if (::stat(input.c_str(), &other) == 0 && other.st_dev == target.st_dev && other.st_ino == target.st_ino) {
      return input;
    }
  }
  return std::nullopt;
}

}  // namespace

void write_output_file(const std::string& requested, std::string_view text, const OutputGuard& guard) {
  if (const std::optional<int> fd = named_descriptor(requested)) {
    if (::fcntl(*fd, F_GETFD) < 0) fail(requested, "descriptor " + std::to_string(*fd) + " is not open");
    if (const int failure = write_all(*fd, text); failure != 0) fail(requested, std::strerror(failure));
    return;
  }
  // A symbolic link stays a link: its target is what gets written.
  std::string path = requested;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    if (!kernel_follows(requested, link)) {
      fail(requested,
           "it is a symbolic link in a sticky world-writable directory, owned by another user: the kernel "
           "(fs.protected_symlinks) would not follow it for a shell's > either",
           "name the target itself, or write elsewhere");
    }
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
  if (const std::optional<std::string> input = same_as_input(existing, guard.inputs)) {
    fail(requested, "it is one of this run's inputs (" + *input + "): writing it would destroy it",
         "write the report to another file");
  }
  if (S_ISREG(existing.st_mode)) {
    // Read-only as bash's > and tee see it (access(2)); as root, which they let write
    // anything, a file without a single write bit (as rm asks before removing one).
    const bool read_only = ::access(path.c_str(), W_OK) != 0 || (existing.st_mode & 0222) == 0;
    if (read_only && !guard.force) {
      fail(requested, "it is read-only", "--force replaces it, or make it writable (chmod u+w)");
    }
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
