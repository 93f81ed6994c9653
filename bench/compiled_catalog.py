#!/usr/bin/env python3
"""Catalogues of any size (issue 49): a synthetic SkyPilot price file of N instance types,
imported into a compiled catalogue, then the main job over it.

The rows are those of the real SkyPilot v9 AWS file in tests/data/skypilot-v9/aws that
import under any name (an accelerator, an on-demand price, a device its name settles), each
copied under a new instance name (TYPE-sN) at another price (1.00 to 1.96 times), one region
each, so that every copy is an offering of its own. For each N it runs

    mlsize catalog import --from skypilot FILE... --provider P --as-of 2026-07-01 --compiled --output C
    mlsize recommend --params 7B --data 200GB --catalog C --no-user-catalog

and reports wall seconds and peak memory (/usr/bin/time) of each, and the file sizes.

    bench/compiled_catalog.py build/mlsize 1000 10000 100000 [--out bench/results/compiled-catalog.md]
"""
import argparse
import csv
import json
import re
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_FILE = 100_000  # rows per price file: ~45 MB, under the importer's 64 MiB a file


def source_rows():
    rows = []
    with open(os.path.join(ROOT, "tests/data/skypilot-v9/aws/vms.csv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        # These names are ambiguous (SXM or PCIe): the importer settles them by the catalogue's
        # entry of the same instance type, which a copy under a new name does not have.
        ambiguous = {"H100", "A100", "A100-80GB", "V100", "V100-32GB"}
        rows = [r for r in reader if r.get("AcceleratorName") and r.get("Price") and
                r["AcceleratorName"] not in ambiguous]
    return header, rows


def write_files(directory, count, header, rows):
    paths = []
    for start in range(0, count, PER_FILE):
        path = os.path.join(directory, f"part{start // PER_FILE}", "aws", "vms.csv")
        os.makedirs(os.path.dirname(path))
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=header, extrasaction="ignore")
            writer.writeheader()
            for i in range(start, min(count, start + PER_FILE)):
                row = dict(rows[i % len(rows)])
                factor = 1.0 + (i % 97) / 100.0
                row["InstanceType"] = f"{row['InstanceType']}-s{i}"
                row["Price"] = f"{float(row['Price']) * factor:.6g}"
                if row.get("SpotPrice"):
                    row["SpotPrice"] = f"{float(row['SpotPrice']) * factor:.6g}"
                writer.writerow(row)
        paths.append(path)
    return paths


def timed(argv):
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", *argv], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: {result.stderr[-2000:]}")
    seconds, kb = result.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kb) / 1024, result.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("counts", type=int, nargs="+")
    parser.add_argument("--out")
    args = parser.parse_args()
    header, rows = source_rows()
    lines = ["| rows | offerings imported | price files MB | import s | import MB | compiled MB | recommend s | recommend MB | offerings ranked |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for count in args.counts:
        with tempfile.TemporaryDirectory() as directory:
            paths = write_files(directory, count, header, rows)
            compiled = os.path.join(directory, "catalog.mlcat")
            import_s, import_mb, summary = timed([args.binary, "catalog", "import", "--from", "skypilot", *paths,
                                         "--provider", "aws", "--as-of", "2026-07-01", "--no-user-catalog",
                                         "--compiled", "--output", compiled])
            run_s, run_mb, _ = timed([args.binary, "recommend", "--params", "7B", "--data", "200GB",
                                   "--catalog", compiled, "--no-user-catalog", "--format", "json",
                                   "--output", os.path.join(directory, "report.json")])
            wrote = int(re.search(r"wrote ([0-9]+) offerings", summary).group(1))
            report = json.load(open(os.path.join(directory, "report.json"), encoding="utf-8"))
            seen = report["feasible_count"]
            mb = sum(os.path.getsize(p) for p in paths) / 1e6
            lines.append(f"| {count:,} | {wrote:,} | {mb:.1f} | {import_s:.2f} | {import_mb:.0f} | "
                         f"{os.path.getsize(compiled) / 1e6:.1f} | {run_s:.2f} | {run_mb:.0f} | {seen:,} |")
            print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
