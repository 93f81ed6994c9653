#pragma once
// What a command hands back: everything to print, and the exit code.

#include <string>

namespace mlsize::cli {

// Documented in docs/cli.md#exit-status.
enum ExitCode : int {
  k_exit_success = 0,
  k_exit_error = 1,        // bad input file or runtime error
  k_exit_usage = 2,        // bad flag or flag value
  k_exit_no_feasible = 3,  // no plan meets the constraints
};

struct CommandOutput {
  std::string stdout_text;
  std::string stderr_text;  // notes that are not errors (e.g. why nothing fits)
  int exit_code = 0;
};

}  // namespace mlsize::cli
