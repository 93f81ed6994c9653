#!/usr/bin/env python3
"""Regenerates the embedded catalogue's refreshed prices from a folder of SkyPilot price files.

    scripts/refresh-catalog.py build/mlsize tests/data/skypilot-v9 [OUT_DIR]

For each cloud folder of FOLDER (FOLDER/<cloud>/vms.csv, as skypilot-org/skypilot-catalog lays
out catalogs/v9), runs `mlsize catalog import` and writes OUT_DIR/prices-v9-<cloud>.yaml
(OUT_DIR defaults to data/catalog, where they are compiled in). They load after offerings*.yaml,
so each imported offering replaces the hand-written entry of the same id, keeping the fields a
price file does not state (docs/catalogue.md#refreshing-the-embedded-catalogue). The commit of each file is read
from FOLDER/README.md's table (`| aws/vms.csv | 2c3d7ea7 | ... |`) and written in each source.

Standard library only. Exit status 1 when an import fails for another reason than having no
offering to write (a cloud none of whose rows the catalogue can place: printed, not written).
"""

import pathlib
import re
import subprocess
import sys

# The v9 folder was created on 2026-07-09 (skypilot-catalog PR #185) and refreshed after; the
# stored commits are not dated, so the creation day is the prices' as_of: a lower bound.
AS_OF = "2026-07-09"

SCHEMA_LINE = "# yaml-language-server: $schema=../../docs/schema/catalog-file.schema.json\n"

# Clouds left out of the embedded catalogue, and why. An overlay can still import them.
LEFT_OUT = {
    # A marketplace: each row is one host's listing, gone when rented; spot is 0.00 on every row.
    "vast": "a marketplace of individual hosts' listings, not offerings a plan can count on",
}


def commits(folder: pathlib.Path) -> dict:
    """The commit of each <cloud>/vms.csv, from the folder's README table."""
    readme = folder / "README.md"
    found = {}
    if readme.exists():
        for line in readme.read_text(encoding="utf-8").splitlines():
            match = re.match(r"\|\s*([a-z0-9_-]+)/vms\.csv\s*\|\s*([0-9a-f]{7,40})\s*\|", line)
            if match:
                found[match.group(1)] = match.group(2)
    return found


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    mlsize = sys.argv[1]
    folder = pathlib.Path(sys.argv[2])
    out_dir = pathlib.Path(sys.argv[3]) if len(sys.argv) == 4 else pathlib.Path(__file__).parent.parent / "data/catalog"
    known = commits(folder)
    status = 0
    for csv in sorted(folder.glob("*/vms.csv")):
        cloud = csv.parent.name
        if cloud in LEFT_OUT:
            print(f"{cloud}: left out: {LEFT_OUT[cloud]}", file=sys.stderr)
            continue
        commit = known.get(cloud, "unknown commit")
        origin = f"skypilot-org/skypilot-catalog@{commit} catalogs/v9/{cloud}/vms.csv, as sliced in {folder.name}/:"
        out = out_dir / f"prices-v9-{cloud}.yaml"
        result = subprocess.run(
            [mlsize, "catalog", "import", "--from", "skypilot", str(csv), "--as-of", AS_OF, "--origin", origin,
             "--without-refreshed-prices", "--output", str(out)],
            capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "MLSIZE_CATALOG": ""})
        first = (result.stderr.splitlines() or [""])[0]
        if result.returncode == 0:
            # data/catalog's files name their schema first (tests/schema checks it).
            text = out.read_text(encoding="utf-8")
            out.write_text(SCHEMA_LINE + text, encoding="utf-8")
            print(f"{cloud}: {first}", file=sys.stderr)
        elif "no offering to write" in result.stderr:
            print(f"{cloud}: nothing written: {first}", file=sys.stderr)
        else:
            print(f"{cloud}: import failed:\n{result.stderr}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
