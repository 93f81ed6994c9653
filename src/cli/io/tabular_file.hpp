#pragma once
// --data-file: the rows and columns of a CSV or Parquet file, read from its header or footer
// and (CSV) a count of its lines, never its values held in memory.

#include <cstdint>
#include <string>

namespace mlsize::cli {

struct TabularFile {
  std::string format;       // "csv" or "parquet"
  double rows = 0;          // data rows (a CSV's header line is not one)
  int columns = 0;          // all of them; the features are these less the label
  int numeric_columns = 0;  // Parquet: columns of numbers; CSV: the same as columns
};

// Throws Error(input) at the path for a file it cannot open or read as either format.
TabularFile read_tabular_file(const std::string& path);

}  // namespace mlsize::cli
