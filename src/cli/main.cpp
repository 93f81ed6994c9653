#include "cli/app.hpp"

#include <csignal>

int main(int argc, char** argv) {
  // A reader that closes the pipe early must give a write error (EPIPE) that run() can
  // turn into a quiet exit, not a SIGPIPE that kills the process with status 141.
  std::signal(SIGPIPE, SIG_IGN);
  return mlsize::cli::run(argc, argv);
}
