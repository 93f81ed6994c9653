#pragma once
// Reading a user's input file whole, with clear errors for what cannot be read.

#include <cstddef>
#include <string>

namespace mlsize::cli {

// Throws mlsize::Error (input) naming `path` when it is missing, not a regular file,
// unreadable, or larger than `max_bytes`.
std::string read_input_file(const std::string& path, std::size_t max_bytes);

}  // namespace mlsize::cli
