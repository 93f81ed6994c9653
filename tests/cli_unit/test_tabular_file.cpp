// --data-file: rows and features from a CSV's header and lines or a Parquet file's footer,
// never its values; a clear error at the path for what cannot be read (docs/cli.md#data-file).

#include "cli/io/tabular_file.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/model/tabular_shape.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <cstdint>
#include <fstream>
#include <string>

using namespace mlsize;
using mlsize::cli::read_tabular_file;

namespace {

void write(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Thrift compact protocol pieces (thrift-compact-protocol.md), enough for FileMetaData.
std::string varint(std::uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}
std::string zigzag(std::int64_t v) {
  return varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}
std::string header(int delta, int type) {
  return std::string(1, static_cast<char>((delta << 4) | type));
}
std::string name(int delta, const std::string& text) {
  return header(delta, 8) + varint(text.size()) + text;
}

// A leaf column: type (field 1, i32), name (field 4).
std::string leaf(int physical_type, const std::string& column) {
  return header(1, 5) + zigzag(physical_type) + name(3, column) + std::string(1, '\0');
}

// FileMetaData: version 1, a schema of a root and `columns` leaves, num_rows, no row groups.
std::string file_metadata(std::int64_t rows, const std::vector<int>& types) {
  std::string schema =
      name(4, "schema") + header(1, 5) + zigzag(static_cast<std::int64_t>(types.size())) + std::string(1, '\0');
  for (std::size_t i = 0; i < types.size(); ++i) {
    // Appended, not "c" + to_string(i): GCC 12 at -O3 reports a false -Wrestrict on that operator+.
    std::string column = "c";
    column += std::to_string(i);
    schema += leaf(types[i], column);
  }
  const std::size_t elements = types.size() + 1;
  std::string list = elements < 15 ? std::string(1, static_cast<char>((elements << 4) | 12))
                                   : std::string(1, static_cast<char>(0xf0 | 12)) + varint(elements);
  return header(1, 5) + zigzag(1) + header(1, 9) + list + schema + header(1, 6) + zigzag(rows) + header(1, 9) +
         std::string(1, static_cast<char>(12)) + std::string(1, '\0');
}

std::string parquet_file(const std::string& metadata) {
  std::string length(4, '\0');
  for (std::size_t i = 0; i < 4; ++i) length[i] = static_cast<char>((metadata.size() >> (8 * i)) & 0xff);
  return "PAR1" + std::string(16, 'x') + metadata + length + "PAR1";
}

std::string error_of(const std::string& path) {
  try {
    read_tabular_file(path);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("data file: CSV: the header's fields and the lines after it", "[tabular]") {
  const auto dir = testing::fresh_directory("mlsize-tabular-csv");
  write(dir / "a.csv", "label,x1,\"x,2\",x3\n1,2,3,4\n5,6,7,8\n0,1,2,3\n");
  const cli::TabularFile csv = read_tabular_file((dir / "a.csv").string());
  CHECK(csv.format == "csv");
  CHECK(csv.rows == 3);
  CHECK(csv.columns == 4);  // the quoted comma is inside a field
  write(dir / "no-final-newline.csv", "y\tx\r\n1\t2\r\n3\t4");
  const cli::TabularFile tsv = read_tabular_file((dir / "no-final-newline.csv").string());
  CHECK(tsv.rows == 2);
  CHECK(tsv.columns == 2);
  CHECK(csv_field_count("a,\"b\"\"c\",d", ',') == 3);
}

TEST_CASE("data file: Parquet: rows and columns from the footer alone", "[tabular]") {
  const auto dir = testing::fresh_directory("mlsize-tabular-parquet");
  // DOUBLE, INT64, BYTE_ARRAY (a string), FLOAT: three numeric columns of four.
  write(dir / "t.parquet", parquet_file(file_metadata(1'234'567, {5, 2, 6, 4})));
  const cli::TabularFile file = read_tabular_file((dir / "t.parquet").string());
  CHECK(file.format == "parquet");
  CHECK(file.rows == 1'234'567);
  CHECK(file.columns == 4);
  CHECK(file.numeric_columns == 3);
  // Wide files: a list of over 14 elements has its size in a varint.
  const ParquetShape wide = parquet_shape(file_metadata(10, std::vector<int>(40, 5)));
  CHECK(wide.columns == 40);
  CHECK(wide.rows == 10);
}

TEST_CASE("data file: what it cannot read is an error at the path", "[tabular]") {
  const auto dir = testing::fresh_directory("mlsize-tabular-bad");
  const std::string metadata = file_metadata(100, {5, 5});
  write(dir / "truncated.parquet", parquet_file(metadata).substr(0, 30));
  CHECK_THAT(error_of((dir / "truncated.parquet").string()), Catch::Contains("does not end with PAR1"));
  write(dir / "cut-metadata.parquet", parquet_file(metadata.substr(0, metadata.size() / 2)));
  CHECK_THAT(error_of((dir / "cut-metadata.parquet").string()), Catch::Contains("footer cannot be read"));
  write(dir / "x.csv.gz", std::string("\x1f\x8b\x08\x00", 4) + "rest");
  CHECK_THAT(error_of((dir / "x.csv.gz").string()), Catch::Contains("gzip"));
  write(dir / "empty.csv", "");
  CHECK_THAT(error_of((dir / "empty.csv").string()), Catch::Contains("no CSV header"));
  CHECK_THAT(error_of((dir / "missing.csv").string()), Catch::Contains("cannot open"));
  CHECK_THAT(error_of(dir.string()), Catch::Contains("not a regular file"));
  // A FIFO is refused before it is opened: opening it would block for a writer.
  const auto fifo = dir / "fifo.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(error_of(fifo.string()), Catch::Contains("not a regular file"));
  for (const char* file : {"truncated.parquet", "missing.csv"}) {
    const auto result = testing::run_cli({"recommend", "--task", "gbdt", "--data-file", (dir / file).string()});
    CHECK(result.exit_code != 0);
    CHECK(result.out.empty());
    CHECK_THAT(result.err, Catch::Contains((dir / file).string()));
  }
}

TEST_CASE("recommend --data-file examples/tabular-sample.csv sizes the file's rows and features", "[tabular]") {
  const auto result = testing::run_cli({"recommend", "--task", "gbdt", "--data-file",
                                        MLSIZE_SOURCE_DIR "/examples/tabular-sample.csv", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["workload"]["gbdt"]["rows"] == 200);
  CHECK(json["workload"]["gbdt"]["features"] == 28);
  CHECK_THAT(result.err, Catch::Contains("200 rows, 28 features"));
  const auto both = testing::run_cli({"recommend", "--task", "gbdt", "--data-file",
                                      MLSIZE_SOURCE_DIR "/examples/tabular-sample.csv", "--rows", "10M"});
  CHECK(both.exit_code == 2);
  CHECK_THAT(both.err, Catch::Contains("--rows"));
}

// Issue 46: a 24-byte file whose map claims 2^62 boolean entries hung --data-file (a map's
// count was not checked against the bytes left, and a boolean read as a field consumed none).
TEST_CASE("data file: Parquet counts are bounded by the bytes left (the 24-byte hang)", "[tabular]") {
  const auto dir = testing::fresh_directory("mlsize-tabular-hostile");
  const std::string hang("PAR1\x1b\x80\x80\x80\x80\x80\x80\x80\x80\x40\x11\x00\x0c\x00\x00\x00PAR1", 24);
  write(dir / "hang.parquet", hang);
  CHECK_THAT(error_of((dir / "hang.parquet").string()), Catch::Contains("a map claims more entries"));
  // The same map with a small count still reads its booleans as one byte each.
  const std::string map_of_bools = std::string("\x1b\x02\x11\x01\x02\x01\x02", 7);
  CHECK_THAT(
      [&] {
        try {
          parquet_shape(map_of_bools + header(2, 6) + zigzag(5) + std::string(1, '\0'));
        } catch (const Error& error) {
          return std::string(error.what());
        }
        return std::string();
      }(),
      Catch::Contains("no schema"));
  // A list or set of booleans claiming more than the bytes left.
  CHECK_THROWS_WITH(parquet_shape(std::string("\x19\xf1\xff\xff\x03", 5)), Catch::Contains("a list claims more"));
  // A field id past Thrift's 16 bits (was a signed overflow under UBSan).
  CHECK_THROWS_WITH(parquet_shape(header(0, 5) + zigzag(2147483647) + zigzag(7) + header(15, 5) + zigzag(1)),
                    Catch::Contains("field id outside"));
  const auto result = testing::run_cli({"recommend", "--task", "gbdt", "--data-file", (dir / "hang.parquet").string()});
  CHECK(result.exit_code != 0);
  CHECK(result.out.empty());
  CHECK_THAT(result.err, Catch::Contains("hang.parquet"));
}
