#pragma once
// Files the CLI tests write and read back: an empty folder of their own under the system's
// temporary folder, and a file's whole text.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace mlsize::testing {

// temp/NAME, emptied: each test names its own.
inline std::filesystem::path fresh_directory(const char* name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream stream(path);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace mlsize::testing
