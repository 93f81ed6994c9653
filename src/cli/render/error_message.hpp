#pragma once
// How an mlsize::Error is shown on stderr.

#include <mlsize/support/error.hpp>

#include <string>

namespace mlsize::cli {

// "mlsize: error: <where>: <message>", the offending line with a caret, and "hint: ...".
std::string format_error(const Error& error);

}  // namespace mlsize::cli
