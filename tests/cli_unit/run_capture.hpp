#pragma once
// Runs mlsize::cli::run with argv and captures what it writes.

#include "cli/app.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace mlsize::testing {

struct RunResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};

inline std::string read_all(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  return text;
}

inline RunResult run_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"mlsize"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  RunResult result;
  result.exit_code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  result.out = read_all(out);
  result.err = read_all(err);
  std::fclose(out);
  std::fclose(err);
  return result;
}

}  // namespace mlsize::testing
