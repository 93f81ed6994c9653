#!/bin/sh
# Installs mlsize's build and test dependencies from Debian's packages (pandoc writes
# the man page from docs/cli.md; without it the build has none; chromium renders the HTML
# report in the test html_report, which is skipped without it).
# Uses sudo only when not already root.
set -eu
if [ "$(id -u)" = 0 ]; then as_root=""; else as_root="sudo"; fi
$as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libfmt-dev libyaml-cpp-dev catch2 \
  python3-jsonschema python3-yaml pandoc chromium >/dev/null
