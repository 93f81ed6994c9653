#pragma once
// Writing the report to --output without ever leaving a partial file behind.

#include <string>

namespace mlsize::cli {

// Writes `text` to a temporary file next to `path`, then renames it over `path`, so
// `path` holds either its old content or the whole new text. An existing file keeps its
// mode, a new one gets 0666 less the umask; a symbolic link stays and its target is
// replaced. Throws mlsize::Error (input) naming the path when it cannot; the temporary
// file is removed.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace mlsize::cli
