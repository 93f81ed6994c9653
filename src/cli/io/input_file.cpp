#include "cli/io/input_file.hpp"

#include <mlsize/support/error.hpp>

#include <sys/stat.h>
#include <algorithm>
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
  // Read into its place at the size stat gave (a compiled catalogue may be hundreds of MB:
  // no second copy), then whatever the file grew by since.
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  stream.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(stream.gcount()));
  if (stream) {
    std::ostringstream rest;
    rest << stream.rdbuf();
    text += rest.str();
  }
  if (stream.bad()) fail(path, "read error");
  if (text.size() > max_bytes) {
    fail(path, "file is larger than the limit of " + std::to_string(max_bytes / (1024 * 1024)) + " MiB");
  }
  return text;
}

std::string read_file_head(const std::string& path, std::size_t bytes) {
  // A FIFO or device is not opened: it could block, and read_input_file refuses it.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return {};
  std::ifstream stream(path, std::ios::binary);
  std::string head(bytes, '\0');
  stream.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(stream.gcount(), 0)));
  return head;
}

}  // namespace mlsize::cli
