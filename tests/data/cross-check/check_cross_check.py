#!/usr/bin/env python3
"""Cross-check of the embedded device catalogue against a second source.

Usage: check_cross_check.py MLSIZE REPO_ROOT [--sources CSV]

Reads every device through `MLSIZE catalog export --format json` (the embedded catalogue,
no overlays) and compares it with the second-source table (default
tests/data/cross-check/second-sources.csv; columns device, field, value, source, as_of).
A value that differs by more than the field's tolerance fails the test unless
docs/catalogue.md lists that disagreement, with the same second-source value, in its
section "Conflicts in the reference, settled" (table "Second sources, cross-checked").
A listed disagreement that no longer disagrees fails too, so the list stays true.
Tolerances and their reasons: tests/data/cross-check/README.md.
"""
import csv
import json
import os
import re
import subprocess
import sys

# Relative tolerance per field (README.md says why).
TOLERANCE = {"memory_gib": 0.03, "memory_bandwidth_gbs": 0.03}
PEAK_FIELDS = ("fp32", "tf32", "fp16", "bf16", "fp8", "int8")
PEAK_TOLERANCE = 0.05
SECTION = "## Conflicts in the reference, settled"


def catalogue_values(mlsize):
    env = dict(os.environ)
    env.pop("MLSIZE_CATALOG", None)
    out = subprocess.run([mlsize, "catalog", "export", "--format", "json", "--no-user-catalog"],
                         check=True, capture_output=True, text=True, env=env).stdout
    values = {}
    for device in json.loads(out)["devices"]:
        fields = {}
        if device.get("memory_bytes"):
            fields["memory_gib"] = device["memory_bytes"] / 2**30
        if device.get("memory_bandwidth_bytes_per_s"):
            fields["memory_bandwidth_gbs"] = device["memory_bandwidth_bytes_per_s"] / 1e9
        for key, tflops in (device.get("peak_tflops") or {}).items():
            if tflops:
                fields[key] = tflops
        values[device["id"]] = fields
    return values


def settled_conflicts(repo):
    """(device, field) -> second-source value, from the docs' settled-conflicts section."""
    text = open(os.path.join(repo, "docs", "catalogue.md"), encoding="utf-8").read()
    start = text.find(SECTION)
    if start < 0:
        sys.exit(f"FAIL: docs/catalogue.md has no section {SECTION!r}")
    end = text.find("\n## ", start + len(SECTION))
    section = text[start:end if end >= 0 else len(text)]
    settled = {}
    row = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*([^|]+)\|\s*([^|]+)\|")
    for line in section.splitlines():
        match = row.match(line)
        if match:
            number = re.match(r"\s*([0-9.]+)", match.group(4))
            if number:
                settled[(match.group(1), match.group(2))] = float(number.group(1))
    return settled


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    mlsize, repo = argv[1], argv[2]
    sources = os.path.join(repo, "tests", "data", "cross-check", "second-sources.csv")
    if "--sources" in argv:
        sources = argv[argv.index("--sources") + 1]
    catalogue = catalogue_values(mlsize)
    settled = settled_conflicts(repo)
    failures, unmatched, checked, devices, disagreements, seen = [], [], 0, set(), set(), set()
    with open(sources, newline="", encoding="utf-8") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            device, field = row["device"], row["field"]
            if not row["source"].strip() or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", row["as_of"]):
                failures.append(f"{sources}:{line}: {device} {field}: needs a source and an as_of date")
                continue
            if field not in TOLERANCE and field not in PEAK_FIELDS:
                failures.append(f"{sources}:{line}: unknown field {field!r}")
                continue
            if device not in catalogue:
                failures.append(f"{sources}:{line}: no device {device!r} in the catalogue")
                continue
            ours = catalogue[device].get(field)
            if ours is None:
                # A format the catalogue leaves out (no first source for it) is not a disagreement.
                unmatched.append(f"{device} {field}")
                continue
            theirs = float(row["value"])
            seen.add((device, field))
            tolerance = TOLERANCE.get(field, PEAK_TOLERANCE)
            difference = abs(ours - theirs) / max(abs(ours), abs(theirs))
            checked += 1
            devices.add(device)
            if difference <= tolerance:
                continue
            disagreements.add((device, field))
            listed = settled.get((device, field))
            if listed is not None and abs(listed - theirs) <= 1e-6 * max(1.0, abs(theirs)):
                continue
            failures.append(f"{device} {field}: catalogue {ours:g}, second source {theirs:g} "
                            f"({difference:.1%} apart, tolerance {tolerance:.0%}; {row['source']}); "
                            f"fix the catalogue or settle it in docs/catalogue.md, {SECTION[3:]!r}")
    for (device, field), value in sorted(settled.items()):
        if (device, field) in seen and (device, field) not in disagreements:
            failures.append(f"docs/catalogue.md lists {device} {field} ({value:g}) as a settled conflict, "
                            f"but {os.path.basename(sources)} no longer disagrees there: take the row out")
    for failure in failures:
        print("FAIL: " + failure)
    if unmatched:
        print("not in the catalogue, not compared: " + ", ".join(unmatched))
    print(f"{checked} values of {len(devices)} devices checked against a second source, "
          f"{len(disagreements)} settled disagreements, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
