#!/bin/sh
# Runs one CLI golden case: CASE/args holds the arguments (one per line, run from CASE),
# CASE/expected_stdout, CASE/expected_stderr and CASE/expected_rc hold what must come back.
# An optional CASE/env holds NAME=VALUE lines to export; @CASE_DIR@ in a value is the case's
# absolute path. With UPDATE_GOLDEN=1 the expected files are rewritten from the actual output.
set -u
binary=$1
case_dir=$2
cd "$case_dir" || exit 2
actual_stdout=$(mktemp) actual_stderr=$(mktemp) empty_config=$(mktemp -d)
trap 'rm -f "$actual_stdout" "$actual_stderr"; rmdir "$empty_config"' EXIT
# The developer's own overlays (catalog.d, MLSIZE_CATALOG) must never change the output.
export XDG_CONFIG_HOME="$empty_config"
unset MLSIZE_CATALOG
# Text is laid out at the default 80 columns, whatever the developer's shell exports.
unset COLUMNS
# The age of prices is measured to a fixed day, so the expected output holds on any day.
export MLSIZE_TODAY=2026-12-01
if [ -f env ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    [ -n "$line" ] && export "$(printf '%s' "$line" | sed "s|@CASE_DIR@|$PWD|g")"
  done < env
fi
# One argument per line, so arguments may contain spaces.
set --
while IFS= read -r line || [ -n "$line" ]; do set -- "$@" "$line"; done < args
"$binary" "$@" >"$actual_stdout" 2>"$actual_stderr"
rc=$?
# Output that names a path under the case (an overlay from env) names it as @CASE_DIR@,
# so that the expected files hold for any checkout.
sed -i "s|$PWD|@CASE_DIR@|g" "$actual_stdout" "$actual_stderr"
# The build's commit changes with every commit: it reads @COMMIT@.
sed -i -E 's/("mlsize_commit": "|\(commit )([0-9a-f]+(-dirty)?|unknown)/\1@COMMIT@/g' "$actual_stdout" "$actual_stderr"
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
