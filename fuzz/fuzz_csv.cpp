// Fuzzes --data-file's CSV reader (issue 46): the header's delimiter and quoted fields, and
// the line count. Every input must give a shape or throw mlsize::Error. The input is the
// whole file, read as --data-file reads it (through a memfd, no disk); one that happens to
// start with PAR1 or a gzip magic takes those refusals, as a user's file would. The header's
// field count is also checked against its own bytes: a field takes at least its delimiter.
#include "cli/io/tabular_file.hpp"
#include "memfd_file.hpp"

#include <mlsize/model/tabular_shape.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string_view header = text.substr(0, text.find('\n'));
  const int fields = mlsize::csv_field_count(header, mlsize::csv_delimiter(header));
  if (fields < 0 || static_cast<std::size_t>(fields) > header.size() + 1) std::abort();
  const fuzz::MemfdFile file(text);
  if (!file.ok()) return 0;
  try {
    const auto shape = mlsize::cli::read_tabular_file(file.path());
    if (shape.rows < 0 || shape.columns < 1 || shape.numeric_columns > shape.columns) std::abort();
    if (shape.format == "csv" && shape.rows > static_cast<double>(size)) std::abort();
  } catch (const mlsize::Error&) {
  }
  return 0;
}
