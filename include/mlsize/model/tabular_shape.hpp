#pragma once
// The shape of a tabular dataset read from its file's own description, without loading the
// values: a CSV header's fields, a Parquet footer's row count and columns
// (docs/cli.md#data-file). The reading of the file is the CLI's; these take its bytes.

#include <cstdint>
#include <string>
#include <string_view>

namespace mlsize {

// Fields of one CSV line (RFC 4180: a quoted field may hold the delimiter and doubled quotes).
int csv_field_count(std::string_view line, char delimiter);

// The delimiter of a header line: a tab when it has one and no comma, else a comma.
char csv_delimiter(std::string_view header);

// What a Parquet file's FileMetaData says (apache/parquet-format parquet.thrift): its rows and
// its leaf columns, and how many of those hold numbers (BOOLEAN, INT32, INT64, FLOAT, DOUBLE).
struct ParquetShape {
  std::int64_t rows = 0;
  int columns = 0;
  int numeric_columns = 0;
};

// Decodes the Thrift compact encoding of FileMetaData (the bytes before the footer's length
// and "PAR1"). Throws Error(input) naming the byte offset where it cannot be read.
ParquetShape parquet_shape(std::string_view metadata);

// A Parquet file begins and ends with "PAR1"; before the last four bytes, the metadata's
// length (4 bytes, little-endian).
bool parquet_magic(std::string_view four_bytes);
std::uint32_t parquet_metadata_length(std::string_view last_eight_bytes);

}  // namespace mlsize
