#pragma once
// How an mlsize::Error is shown on stderr.

#include <mlsize/support/error.hpp>

#include <string>
#include <string_view>

namespace mlsize::cli {

// "mlsize: error: <where>: <message>", the offending line with a caret, and "hint: ...".
std::string format_error(const Error& error);

// Under --format json (issue 51, docs/schema/error.schema.json): one line of JSON, an
// object whose "error" has a stable `code` (usage, input, out_of_memory, internal), the
// exit code, the message, where (a flag, or file with line and column) and the hint.
std::string format_error_json(const Error& error, int exit_code);
// A failure that is not an mlsize::Error (out of memory, an internal error).
std::string format_failure_json(std::string_view code, const std::string& message, int exit_code);

}  // namespace mlsize::cli
