#!/bin/sh
# Runs one CLI golden case: CASE/args holds the arguments (one per line, run from CASE),
# CASE/expected_stdout, CASE/expected_stderr and CASE/expected_rc hold what must come back.
# With UPDATE_GOLDEN=1 the expected files are rewritten from the actual output.
set -u
binary=$1
case_dir=$2
cd "$case_dir" || exit 2
actual_stdout=$(mktemp) actual_stderr=$(mktemp)
trap 'rm -f "$actual_stdout" "$actual_stderr"' EXIT
# One argument per line, so arguments may contain spaces.
set --
while IFS= read -r line || [ -n "$line" ]; do set -- "$@" "$line"; done < args
"$binary" "$@" >"$actual_stdout" 2>"$actual_stderr"
rc=$?
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$actual_stdout" expected_stdout
  cp "$actual_stderr" expected_stderr
  echo "$rc" > expected_rc
  exit 0
fi
status=0
if [ "$rc" != "$(cat expected_rc)" ]; then echo "exit code: expected $(cat expected_rc), got $rc"; status=1; fi
diff -u expected_stdout "$actual_stdout" || status=1
diff -u expected_stderr "$actual_stderr" || status=1
exit $status
