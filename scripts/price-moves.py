#!/usr/bin/env python3
"""Lists the prices a refresh moved by more than 30 %: the embedded entries of
data/catalog/offerings*.yaml against the refreshed ones of data/catalog/prices-v9-*.yaml.

    scripts/price-moves.py [--threshold 0.30]

One line per offering whose on-demand price moved: compared in the hand-written entry's region
where the refresh prices that region, else cheapest against cheapest (said on the line). Each
move is explained in CHANGELOG.md; tests/data/skypilot-v9/price-moves.txt holds this output,
which the catalog_refresh test compares. Standard library only: the files are read as the
catalogue writes them (one field per line; a `prices:` list of one-line mappings).
"""

import pathlib
import re
import sys


def read_offerings(path: pathlib.Path) -> dict:
    """id -> {region: on-demand price} for every offering with a price."""
    offerings = {}
    current = None
    single = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"  - id: (\S+)", line)
        if match:
            if current is not None and single.get("price") is not None:
                offerings.setdefault(current, {})[single.get("region", "?")] = single["price"]
            current, single = match.group(1), {}
            continue
        if current is None:
            continue
        match = re.match(r"    price_per_hour_usd: ([0-9.eE+-]+)", line)
        if match:
            single["price"] = float(match.group(1))
        match = re.match(r"    region: \"?([^\"]+)\"?$", line)
        if match:
            single["region"] = match.group(1)
        match = re.match(r"      - \{region: \"?([^,\"]+)\"?, price_per_hour_usd: ([0-9.eE+-]+)", line)
        if match:
            offerings.setdefault(current, {})[match.group(1)] = float(match.group(2))
    if current is not None and single.get("price") is not None:
        offerings.setdefault(current, {})[single.get("region", "?")] = single["price"]
    return offerings


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    threshold = 0.30
    if "--threshold" in sys.argv:
        threshold = float(sys.argv[sys.argv.index("--threshold") + 1])
        args = [a for a in args if a != sys.argv[sys.argv.index("--threshold") + 1]]
    root = pathlib.Path(args[0]) if args else pathlib.Path(__file__).parent.parent
    before = {}
    for path in sorted((root / "data/catalog").glob("offerings*.yaml")):
        before.update(read_offerings(path))
    after = {}
    for path in sorted((root / "data/catalog").glob("prices-v9-*.yaml")):
        after.update(read_offerings(path))
    for offering_id in sorted(after):
        if offering_id not in before:
            continue
        old, new = before[offering_id], after[offering_id]
        region = min(old, key=old.get)  # a hand-written entry has one region, or a list
        if region in new:
            was, now, where = old[region], new[region], region
        else:
            was, now, where = min(old.values()), min(new.values()), "cheapest regions"
        if was <= 0:
            continue
        change = now / was - 1
        if abs(change) > threshold:
            print(f"{offering_id}: {was:g} -> {now:g} USD/h ({change:+.0%}, {where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
