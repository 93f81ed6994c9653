#include "cli/io/input_file.hpp"

#include <mlsize/support/error.hpp>

#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mlsize::cli {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message, const std::string& hint = {}) {
  Error error(ErrorKind::input, message, hint);
  error.at(SourceLocation{path, 0, 0, {}});
  throw error;
}

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
  // Only regular files: a FIFO or device could block forever, a directory has no text.
  if (!S_ISREG(info.st_mode)) fail(path, "not a regular file", "give the path of a YAML file");
  if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    fail(path, "file is larger than the limit of " + std::to_string(max_bytes / (1024 * 1024)) + " MiB");
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) fail(path, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream text;
  text << stream.rdbuf();
  if (stream.bad()) fail(path, "read error");
  return text.str();
}

}  // namespace mlsize::cli
