#pragma once
// Writing a report or an overlay to --output the way the tools people trust do (coreutils
// install, git's lockfiles, bash's redirections): a file is replaced whole or not at all;
// anything that is not a file is written in place and is never replaced.

#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {

// "-", /dev/stdout, /dev/fd/1 and /proc/self/fd/1 all name the standard output. The
// caller writes such output to the stream it already holds, as bash does for these names
// in a redirection, never by opening or replacing a path.
bool is_standard_output(std::string_view path);

// Writes `text` to `path`, by what `path` is (a symbolic link is followed to its target,
// which is what gets written; the link stays):
// - no such path, or a regular file: a temporary file next to it, renamed over it, so
//   the path holds its old content or the whole new text. An existing file keeps its mode
//   (and, as root, its owner); a new one gets 0666 less the umask.
// - a character device or a FIFO (/dev/null, a terminal, `>(cmd)`): opened and written in
//   place, streaming, never replaced: as root, a rename would turn /dev/null into a file.
// - /dev/stderr, /dev/fd/N, /proc/self/fd/N: written to descriptor N, already open.
// - a directory, a block device or a socket: refused.
// And as a shell would not either (issue 46): a symbolic link the kernel's
// fs.protected_symlinks would not follow is refused; a read-only file is refused unless
// `force`; one of `inputs` (the run's own catalogue, config or data files) is refused; a
// FIFO without a reader is given 3 s; SIGINT, SIGTERM or SIGHUP during the write removes
// the temporary file.
// Throws mlsize::Error (input) naming the path when it cannot; a temporary file is removed.
struct OutputGuard {
  bool force = false;               // --force: replace a read-only file
  std::vector<std::string> inputs;  // files the run read
};
void write_output_file(const std::string& path, std::string_view text, const OutputGuard& guard = {});

}  // namespace mlsize::cli
