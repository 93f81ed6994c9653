#pragma once
// An input handed to a reader that takes a path, as a file it reads the way it reads any
// other (seek, size, read) but that never touches the disk: a memfd, named by /proc/self/fd.

#include <sys/mman.h>
#include <unistd.h>
#include <string>
#include <string_view>

namespace fuzz {

class MemfdFile {
 public:
  explicit MemfdFile(std::string_view bytes) : fd_(::memfd_create("fuzz-input", 0)) {
    if (fd_ >= 0 && ::write(fd_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  MemfdFile(const MemfdFile&) = delete;
  MemfdFile& operator=(const MemfdFile&) = delete;
  ~MemfdFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  // False when the kernel refused the memfd or the write: the input is skipped, not a finding.
  [[nodiscard]] bool ok() const { return fd_ >= 0; }
  [[nodiscard]] std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace fuzz
