// Fuzzes --data-file's Parquet reader (issue 46): the footer's Thrift compact decoder. Every
// input must give a shape or throw mlsize::Error, and return: a count read from the file may
// not drive a loop past the bytes it has (a map of 2^62 booleans once hung it). The first
// byte picks the path: even, the rest is the footer's metadata handed to parquet_shape;
// odd, the rest follows "PAR1" as a whole file, so the footer's length and end magic are
// read as --data-file reads them.
#include "cli/io/tabular_file.hpp"
#include "memfd_file.hpp"

#include <mlsize/model/tabular_shape.hpp>
#include <mlsize/support/error.hpp>

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
      // A leaf column takes at least a byte of the metadata; a row count is never negative.
      if (shape.rows < 0 || shape.columns < 0 || static_cast<std::size_t>(shape.columns) > rest.size() ||
          shape.numeric_columns > shape.columns)
        std::abort();
    } else {
      const fuzz::MemfdFile file("PAR1" + std::string(rest));
      if (!file.ok()) return 0;
      const auto shape = mlsize::cli::read_tabular_file(file.path());
      if (shape.format != "parquet" || shape.rows < 0 || shape.columns < 1 ||
          shape.numeric_columns > shape.columns)
        std::abort();
    }
  } catch (const mlsize::Error&) {
  }
  return 0;
}
