#!/bin/sh
# Checks that src/, include/ and tools/ are formatted as .clang-format says (clang-format 14, from
# Debian's clang-format package). With --fix, reformats them in place instead.
set -eu
cd "$(dirname "$0")/.."
files=$(find src include tools -name '*.cpp' -o -name '*.hpp' | sort)
if [ "${1:-}" = "--fix" ]; then
  clang-format -i $files
else
  clang-format --dry-run -Werror $files
  echo "format: $(echo "$files" | wc -l) files as .clang-format says"
fi
