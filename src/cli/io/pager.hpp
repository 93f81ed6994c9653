#pragma once
// A report longer than the terminal goes through a pager, as gh and git page theirs (issue 51:
// the table and the one-sentence answer stay on the first screen; docs/cli.md#pager).

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace mlsize::cli {

// The pager command for the report `text` on `stream`, or nothing: only when the stream is a
// terminal whose height the report's lines exceed (counted only then: a report written to
// a pipe or a file is not scanned for them) and paging is not turned off. The
// command is $MLSIZE_PAGER, else $PAGER, else `less` when it is on the PATH; an empty one or
// `cat` turns paging off.
std::optional<std::string> pager_for(std::FILE* stream, std::string_view text);

// Writes `text` through `pager` (with LESS=FRX unless LESS is set: quit when it fits one
// screen, keep colours, leave the screen as it was). Returns false when the pager could not be
// started, so that the caller writes the text itself.
bool write_through_pager(const std::string& pager, std::string_view text);

}  // namespace mlsize::cli
