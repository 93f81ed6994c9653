#include "cli/io/tabular_file.hpp"

#include <mlsize/model/tabular_shape.hpp>
#include <mlsize/support/error.hpp>

#include <sys/stat.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

namespace mlsize::cli {
namespace {

// A Parquet footer's metadata above this is refused rather than read (real files' are KBs to
// a few MB, one entry per column chunk).
constexpr std::uint32_t k_max_parquet_metadata = 256u << 20;
// A CSV header line longer than this is not a header.
constexpr std::size_t k_max_header_bytes = 16u << 20;

[[noreturn]] void file_error(const std::string& path, const std::string& message, const std::string& hint = {}) {
  Error error(ErrorKind::input, message,
              hint.empty() ? "give a CSV file with a header line or a Parquet file, or --rows and --features" : hint);
  error.at(SourceLocation{path, 0, 0, {}});
  throw error;
}

std::string read_at(std::ifstream& stream, const std::string& path, std::uint64_t offset, std::size_t bytes) {
  std::string buffer(bytes, '\0');
  stream.seekg(static_cast<std::streamoff>(offset));
  stream.read(buffer.data(), static_cast<std::streamsize>(bytes));
  if (stream.gcount() != static_cast<std::streamsize>(bytes))
    file_error(path, std::string("read error: ") + std::strerror(errno));
  return buffer;
}

TabularFile parquet_file(std::ifstream& stream, const std::string& path, std::uint64_t size) {
  if (size < 12) file_error(path, "a Parquet file of " + std::to_string(size) + " bytes has no footer");
  const std::string tail = read_at(stream, path, size - 8, 8);
  if (!parquet_magic(std::string_view(tail).substr(4))) {
    file_error(path, "starts as Parquet (PAR1) but does not end with PAR1: truncated or still being written");
  }
  const std::uint32_t length = parquet_metadata_length(tail);
  if (length > size - 12 || length > k_max_parquet_metadata) {
    file_error(path, "its footer says the metadata is " + std::to_string(length) + " bytes, more than the file holds");
  }
  ParquetShape shape;
  try {
    shape = parquet_shape(read_at(stream, path, size - 8 - length, length));
  } catch (Error& error) {
    error.at(SourceLocation{path, 0, 0, {}});
    throw;
  }
  // A schema of groups alone (or of nothing but its root) has no column to size: refused as a
  // CSV without a header is (fuzz_tabular found it: it gave zero features).
  if (shape.columns < 1) file_error(path, "its schema has no leaf column: nothing to size");
  return TabularFile{"parquet", static_cast<double>(shape.rows), shape.columns, shape.numeric_columns};
}

TabularFile csv_file(std::ifstream& stream, const std::string& path, std::uint64_t size) {
  stream.seekg(0);
  // Read in chunks of up to 1 MiB, no larger than the file (a small file is not worth a
  // zeroed MiB; fuzz_csv runs 30x faster for it).
  std::vector<char> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(size, 1u << 20)) + 1);
  std::string header;
  bool header_done = false;
  double newlines = 0;
  char last = '\n';
  while (stream) {
    stream.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(stream.gcount());
    if (got == 0) break;
    const std::string_view view(chunk.data(), got);
    if (!header_done) {
      const std::size_t end = view.find('\n');
      header.append(view.substr(0, end));
      header_done = end != std::string_view::npos;
      if (header.size() > k_max_header_bytes) file_error(path, "its first line is over 16 MiB: not a CSV header");
    }
    newlines += static_cast<double>(std::count(view.begin(), view.end(), '\n'));
    last = view.back();
  }
  if (stream.bad()) file_error(path, std::string("read error: ") + std::strerror(errno));
  if (header.find('\0') != std::string::npos) file_error(path, "holds binary data: neither CSV nor Parquet");
  const int columns = csv_field_count(header, csv_delimiter(header));
  if (columns == 0) file_error(path, "is empty, or its first line is: no CSV header");
  // Lines are the newlines, and one more when the last has none.
  const double lines = newlines + (last != '\n' ? 1 : 0);
  return TabularFile{"csv", std::max(0.0, lines - 1), columns, columns};
}

}  // namespace

TabularFile read_tabular_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) file_error(path, std::string("cannot open: ") + std::strerror(errno));
  // Only regular files: a FIFO or device could block forever, a directory has no rows.
  if (!S_ISREG(info.st_mode)) file_error(path, "not a regular file");
  std::ifstream stream(path, std::ios::binary);
  if (!stream) file_error(path, std::string("cannot read: ") + std::strerror(errno));
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size >= 4) {
    const std::string head = read_at(stream, path, 0, 4);
    if (parquet_magic(head)) return parquet_file(stream, path, size);
    if (static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
      file_error(path, "is gzip-compressed: its lines cannot be counted without decompressing it",
                 "decompress it, or give --rows and --features");
    }
  }
  return csv_file(stream, path, size);
}

}  // namespace mlsize::cli
