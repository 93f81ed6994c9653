#!/bin/sh
# The embedded catalogue's refreshed prices (data/catalog/prices-v9-*.yaml) are what
# scripts/refresh-catalog.py makes from tests/data/skypilot-v9 with this build, byte for byte,
# and the prices that refresh moved by more than 30 % are the ones CHANGELOG.md explains
# (tests/data/skypilot-v9/price-moves.txt).
set -eu
mlsize=$1
root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
python3 scripts/refresh-catalog.py "$mlsize" tests/data/skypilot-v9 "$out" 2>/dev/null
status=0
for committed in data/catalog/prices-v9-*.yaml; do
  name=$(basename "$committed")
  if ! diff -u "$committed" "$out/$name"; then
    echo "FAIL: $committed differs from a refresh (run: scripts/refresh-catalog.py $mlsize tests/data/skypilot-v9)"
    status=1
  fi
done
for made in "$out"/prices-v9-*.yaml; do
  [ -e "data/catalog/$(basename "$made")" ] || { echo "FAIL: a refresh makes $(basename "$made"), not committed"; status=1; }
done
if ! python3 scripts/price-moves.py . | diff -u tests/data/skypilot-v9/price-moves.txt -; then
  echo "FAIL: the prices moved by more than 30 % differ from tests/data/skypilot-v9/price-moves.txt (explain each in CHANGELOG.md)"
  status=1
fi
[ "$status" = 0 ] && echo "refresh: data/catalog/prices-v9-*.yaml equal a refresh; $(wc -l < tests/data/skypilot-v9/price-moves.txt) prices moved by more than 30 %"
exit "$status"
