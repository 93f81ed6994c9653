#pragma once
// The mlsize command line: parses argv, runs one command, writes its output once.

#include "cli/commands/command.hpp"

#include <cstdio>

namespace mlsize::cli {

// Runs the command in argv; the report goes to `out` (or --output), messages to `err`.
int run(int argc, const char* const* argv, std::FILE* out = stdout, std::FILE* err = stderr);

}  // namespace mlsize::cli
