#pragma once
// Reading a user's input file whole, with clear errors for what cannot be read.

#include <cstddef>
#include <string>

namespace mlsize::cli {

// Throws mlsize::Error (input) naming `path` when it is missing, not a regular file,
// unreadable, or larger than `max_bytes`.
std::string read_input_file(const std::string& path, std::size_t max_bytes);
// Up to the first `bytes` of a regular file (read_input_file checked or checks it), to
// tell its format before reading it whole; empty when it cannot be read.
std::string read_file_head(const std::string& path, std::size_t bytes);

}  // namespace mlsize::cli
