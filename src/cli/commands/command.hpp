#pragma once
// What a command hands back: everything to print, and the exit code.

#include <string>

namespace mlsize::cli {

struct CommandOutput {
  std::string stdout_text;
  std::string stderr_text;  // notes that are not errors (e.g. why nothing fits)
  int exit_code = 0;
};

}  // namespace mlsize::cli
