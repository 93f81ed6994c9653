#!/usr/bin/env python3
"""Times loading catalogue overlays of N offerings (issue 31, must-have 7).

Each overlay copies the entries of data/catalog/prices-v9-*.yaml (what `mlsize catalog
import` writes: one offering per instance type with its prices per region) under new ids,
until the file holds N offerings or reaches the bytes asked. For each size it runs

    mlsize catalog list --kind tpu --no-user-catalog --catalog FILE...

(which loads every overlay and prints a few lines) and reports the wall, user and system
seconds and peak memory (/usr/bin/time), and the instructions (valgrind's callgrind).

    bench/overlay_load.py build/mlsize [--out bench/results/overlay-load.md]
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def entries():
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "data/catalog/prices-v9-*.yaml"))):
        text = open(path, encoding="utf-8").read()
        body = text[text.index("\nofferings:\n") + len("\nofferings:\n"):]
        found += [e.rstrip("\n") for e in re.split(r"(?m)^(?=  - id: )", body) if e.startswith("  - id: ")]
    return found


def overlay(count, start, pool):
    out = ["offerings:"]
    for i in range(start, start + count):
        out.append(re.sub(r"(?m)^  - id: .*$", f"  - id: bench-{i}", pool[i % len(pool)], count=1))
    return "\n".join(out) + "\n"


def measure(binary, paths):
    args = [binary, "catalog", "list", "--kind", "tpu", "--no-user-catalog"]
    for path in paths:
        args += ["--catalog", path]
    timed = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + args, capture_output=True, text=True)
    wall, user, system, rss_kb = timed.stderr.strip().splitlines()[-1].split()
    outcome = "loaded"
    if timed.returncode != 0:
        outcome = timed.stderr.strip().splitlines()[0].split(": ", 2)[-1]
    # Instructions, which a noisy VM does not change: callgrind's count (the VM has no
    # hardware counters for perf), for a run that loads.
    instructions = ""
    if timed.returncode == 0:
        counted = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + args,
                                 capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", counted.stderr)
        instructions = f"{int(found.group(1)) / 1e9:.2f}" if found else ""
    return float(wall), float(user), float(system), int(rss_kb) / 1024, instructions, outcome


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--out")
    options = parser.parse_args()
    pool = entries()
    single = [e for e in pool if "    prices:" not in e]  # one region's price, as most written by hand
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        # (layout, offerings, files): up to the limit in one file as catalog import writes
        # them and with one price each, then 100,000 in files of 2,500.
        for layout, count, files in (("import", 1000, 1), ("import", 2000, 1), ("import", 4400, 1),
                                     ("one price", 7000, 1), ("one price", 9000, 1),
                                     ("import", 100000, 40)):
            paths = []
            for f in range(files):
                path = os.path.join(directory, f"overlay-{count}-{f}.yaml")
                with open(path, "w", encoding="utf-8") as out:
                    out.write(overlay(count // files, f * (count // files), pool if layout == "import" else single))
                paths.append(path)
            size = sum(os.path.getsize(p) for p in paths) / 2**20
            rows.append((layout, count, files, size) + measure(options.binary, paths))
    lines = ["| layout | offerings | files | MiB | wall s | user s | sys s | peak MB | instructions (10^9) | outcome |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for layout, count, files, size, wall, user, system, rss, instructions, outcome in rows:
        lines.append(f"| {layout} | {count:,} | {files} | {size:.2f} | {wall:.2f} | {user:.2f} | {system:.2f} | "
                     f"{rss:.0f} | {instructions} | {outcome} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if options.out:
        open(options.out, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
