#!/bin/sh
# The layering test: every #include in the core and the CLI must point down or sideways
# within its own folder, never up. The allowed edges are written once, below; a new
# upward include (say src/core/model/ including rank/) fails the test with file:line.
# Usage: check_layers.sh ROOT   (ROOT holds include/mlsize/, src/core/ and src/cli/)
set -u
root=${1:?usage: check_layers.sh ROOT}

# What each folder may include besides itself. Core: support ← {expr, model, catalog}
# ← estimate ← {launch, rules ← rank}; catalog ← machine (a detected machine as catalogue devices). CLI: io and render ← options ← commands ← app,
# and support (what outlives a command: kept.hpp) ← render, commands ← app; the CLI
# may include any core folder, the core never the CLI.
allowed() {
  case $1 in
    support) echo "" ;;
    expr | model | catalog) echo "support" ;;
    estimate) echo "support model catalog" ;;
    launch) echo "support model catalog estimate" ;;
    rules) echo "support expr model catalog estimate" ;;
    rank) echo "support expr model catalog estimate rules" ;;
    machine) echo "support catalog" ;;
    cli/io | cli/support) echo "$core" ;;
    cli/render) echo "$core cli/support" ;;
    cli/options) echo "$core cli/io" ;;
    cli/commands) echo "$core cli/io cli/render cli/options cli/support" ;;
    cli) echo "$core cli/io cli/render cli/options cli/commands cli/support" ;;
    *) echo "?" ;;
  esac
}
core="support expr model catalog estimate launch rules rank machine"

# The layer a file belongs to, from its path.
layer_of() {
  case $1 in
    include/mlsize/*/*) echo "$1" | cut -d/ -f3 ;;
    src/core/*/*) echo "$1" | cut -d/ -f3 ;;
    src/cli/*/*) echo "cli/$(echo "$1" | cut -d/ -f3)" ;;
    src/cli/*) echo "cli" ;;
    *) echo "?" ;;
  esac
}

# The layer an include line points at: <mlsize/L/...>, "core/L/..." or "cli/L/...".
target_of() {
  case $1 in
    mlsize/*/*) echo "$1" | cut -d/ -f2 ;;
    core/*/*) echo "$1" | cut -d/ -f2 ;;
    cli/*/*) echo "cli/$(echo "$1" | cut -d/ -f2)" ;;
    cli/*) echo "cli" ;;
    *) echo "" ;;  # a system or third-party header
  esac
}

cd "$root" || exit 2
status=0
checked=0
for file in $(find include/mlsize src/core src/cli -name '*.hpp' -o -name '*.cpp' 2>/dev/null | sort); do
  layer=$(layer_of "$file")
  if [ "$layer" = "?" ]; then
    echo "$file: not in a layer folder (include/mlsize/LAYER/, src/core/LAYER/ or src/cli/)"
    status=1
    continue
  fi
  ok=" $layer $(allowed "$layer") "
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$file" |
    sed 's/^\([0-9]*\):[^<"]*[<"]\([^>"]*\)[>"].*/\1 \2/' >"${TMPDIR:-/tmp}/layers.$$"
  while read -r line header; do
    target=$(target_of "$header")
    [ -z "$target" ] && continue
    case $ok in
      *" $target "*) ;;
      *)
        echo "$file:$line: $layer may not include $header ($target); allowed: $(allowed "$layer")"
        status=1
        ;;
    esac
  done <"${TMPDIR:-/tmp}/layers.$$"
  rm -f "${TMPDIR:-/tmp}/layers.$$"
  checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "no source files under $root"; exit 2; }
[ "$status" = 0 ] && echo "layering: $checked files, every include points down"
exit "$status"
