#!/usr/bin/env python3
"""Writes a catalogue overlay of N synthetic offerings (issue 12's scaling benchmark).

The default catalogue's offerings (`mlsize catalog export --format yaml`), copied in turn
under new ids, each copy at another price (1.00 to 1.96 times, as in
bench_recommend.cpp's synthetic_catalog), so that no two rank alike:

    bench/synthetic_catalog.py build/mlsize 3000 > /tmp/synthetic-3000.yaml
    /usr/bin/time -f "%e s, %M KB" build/mlsize recommend --params 7B --data 200GB \
        --catalog /tmp/synthetic-3000.yaml --no-user-catalog > /dev/null

The overlay adds to the default offerings; user overlays are YAML parsed at run time, at
most 3 MiB of them in one run (about 4,500 of these entries: 10,000 are refused).
"""
import re
import subprocess
import sys


def main() -> None:
    binary, count = sys.argv[1], int(sys.argv[2])
    export = subprocess.run([binary, "catalog", "export", "--format", "yaml"], check=True,
                            capture_output=True, text=True).stdout
    offerings = export[export.index("\nofferings:\n") + len("\nofferings:\n"):]
    # One entry per "  - id:" line, up to the next one.
    entries = re.split(r"(?m)^(?=  - id: )", offerings)
    entries = [e for e in entries if e.startswith("  - id: ")]
    out = ["offerings:"]
    for i in range(count):
        entry = entries[i % len(entries)]
        factor = 1.0 + (i % 97) / 100.0
        entry = re.sub(r"(?m)^  - id: .*$", f"  - id: synthetic-{i}", entry, count=1)
        entry = re.sub(r"(?m)^(    price_per_hour_usd: )([0-9.eE+-]+)$",
                       lambda m: f"{m.group(1)}{float(m.group(2)) * factor:.6g}", entry)
        out.append(entry.rstrip("\n"))
    print("\n".join(out))


if __name__ == "__main__":
    main()
