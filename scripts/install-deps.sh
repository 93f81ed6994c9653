#!/bin/sh
# Installs mlsize's dependencies from Debian's packages. Alone: what building and running
# mlsize need (the compiler, cmake, ninja and the C++ libraries; catch2, headers only, so
# that the same build directory configures its tests). With --test: also what only the
# tests and the manual need: python3-jsonschema and python3-yaml (schema and launch-file
# checks), pandoc (writes the man page from docs/cli.md; without it the build has none)
# and chromium (renders the HTML report in the test html_report, skipped without it).
# Uses sudo only when not already root.
set -eu
packages="cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libfmt-dev libyaml-cpp-dev catch2"
case "${1:-}" in
  "") ;;
  --test) packages="$packages python3-jsonschema python3-yaml pandoc chromium" ;;
  *) echo "usage: scripts/install-deps.sh [--test]" >&2; exit 2 ;;
esac
if [ "$(id -u)" = 0 ]; then as_root=""; else as_root="sudo"; fi
$as_root apt-get update -qq
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $packages >/dev/null
