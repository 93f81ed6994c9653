#pragma once
// The mlsize command line: parses argv, runs one command, writes its output once.

#include <cstdio>

namespace mlsize::cli {

// Documented in docs/cli.md#exit-status.
enum ExitCode : int {
  k_exit_success = 0,
  k_exit_error = 1,        // bad input file or runtime error
  k_exit_usage = 2,        // bad flag or flag value
  k_exit_no_feasible = 3,  // no plan meets the constraints
};

// Runs the command in argv; the report goes to `out` (or --output), messages to `err`.
int run(int argc, const char* const* argv, std::FILE* out = stdout, std::FILE* err = stderr);

}  // namespace mlsize::cli
