#pragma once
// How wide the text report may be (docs/cli.md#width).

#include <cstddef>
#include <optional>
#include <string_view>

namespace mlsize::cli {

// Narrower than this, no table of mlsize's keeps its key columns: COLUMNS=20 is taken as 40.
inline constexpr std::size_t k_min_width = 40;

// The width from the terminal's columns (when stdout is one), else from COLUMNS (when set),
// else `fallback`: `terminal` and `columns_env` as read, the choice pure so it can be tested.
std::size_t choose_output_width(std::optional<std::size_t> terminal, std::optional<std::string_view> columns_env,
                                std::size_t fallback);

// The width for stdout: its terminal's, else COLUMNS, else `fallback` (k_default_width).
std::size_t output_width(std::size_t fallback);

// The columns of the terminal `fd` is, or nothing when it is none (a pipe, a file, a log).
std::optional<std::size_t> terminal_columns(int fd);

}  // namespace mlsize::cli
