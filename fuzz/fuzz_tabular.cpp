// Fuzzes the tabular readers behind --data-file (issue 46): the Parquet footer's Thrift
// decoder and the CSV header and line count. Every input must give a shape or throw
// mlsize::Error, and return: a count read from the file may not drive a loop past the
// bytes it has. The first byte picks the path: even, the footer's metadata bytes straight
// into parquet_shape; odd, the rest as a whole file (through a memfd, no disk) so the
// footer's length, the magic and the CSV scan are read as --data-file reads them.
#include "cli/io/tabular_file.hpp"

#include <mlsize/model/tabular_shape.hpp>
#include <mlsize/support/error.hpp>

#include <sys/mman.h>
#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if ((data[0] & 1) == 0) {
      const mlsize::ParquetShape shape = mlsize::parquet_shape(rest);
      // A leaf column takes at least a byte of the metadata, a row count is never negative.
      if (shape.rows < 0 || shape.columns < 0 || static_cast<std::size_t>(shape.columns) > rest.size() ||
          shape.numeric_columns > shape.columns)
        std::abort();
    } else {
      const int fd = ::memfd_create("fuzz-tabular", 0);
      if (fd < 0) return 0;
      const bool written = ::write(fd, rest.data(), rest.size()) == static_cast<ssize_t>(rest.size());
      if (written) {
        try {
          const auto file = mlsize::cli::read_tabular_file("/proc/self/fd/" + std::to_string(fd));
          if (file.rows < 0 || file.columns < 1) std::abort();
        } catch (...) {
          ::close(fd);
          throw;
        }
      }
      ::close(fd);
    }
  } catch (const mlsize::Error&) {
  }
  return 0;
}
