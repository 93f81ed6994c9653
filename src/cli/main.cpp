#include "cli/app.hpp"
#include "cli/support/kept.hpp"

#include <csignal>

int main(int argc, char** argv) {
  // A reader that closes the pipe early must give a write error (EPIPE) that run() can
  // turn into a quiet exit, not a SIGPIPE that kills the process with status 141.
  std::signal(SIGPIPE, SIG_IGN);
  // The process ends after its one command: what the command built is not freed first.
  mlsize::cli::keep_until_exit();
  return mlsize::cli::run(argc, argv);
}
