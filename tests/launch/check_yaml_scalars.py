#!/usr/bin/env python3
"""Every string mlsize writes into YAML reads back, in PyYAML, as exactly that one string in
the key it was written under (issue 46, must-have 3). Runs yaml_scalar_samples, which writes
a document through cli/render/yaml_scalar.hpp from strings holding each YAML break, control
and indicator followed by injection payloads, and the strings it meant to write; loads the
document with SafeLoader and, where built, CSafeLoader (SkyPilot and Accelerate use both).

usage: check_yaml_scalars.py SAMPLES_BINARY"""
import json
import subprocess
import sys
import tempfile

import yaml


def main():
    with tempfile.NamedTemporaryFile(suffix=".json") as expected_file:
        document = subprocess.run([sys.argv[1], expected_file.name], check=True, capture_output=True).stdout
        expected = json.load(open(expected_file.name, encoding="utf-8"))
    text = document.decode("utf-8")
    # Escapes are for the scalars that need them only: other text stays readable.
    failures = 0 if "Amp\u00e8re \u6771\u4eac" in text else 1
    if failures:
        print("FAIL: printable non-ASCII text was escaped too (an emitter setting leaked)")
    loaders = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])
    for loader in loaders:
        data = yaml.load(text, Loader=loader)
        if set(data) != {"values", "hostile_key", "block"}:
            print(f"FAIL {loader.__name__}: top-level keys {sorted(data)}")
            failures += 1
            continue
        values = data["values"]
        wanted = {f"k{i}": v for i, v in enumerate(expected["values"])}
        if set(values) != set(wanted):
            print(f"FAIL {loader.__name__}: keys {sorted(set(values) ^ set(wanted))[:5]} added or lost")
            failures += 1
        for key, value in wanted.items():
            if values.get(key) != value:
                print(f"FAIL {loader.__name__}: {key}: wrote {value!r}, read {values.get(key)!r}")
                failures += 1
        if list(data["hostile_key"]) != ["a\u2028image_id"]:
            print(f"FAIL {loader.__name__}: hostile key read as {list(data['hostile_key'])!r}")
            failures += 1
        if data["block"] != expected["block"]:
            print(f"FAIL {loader.__name__}: block read as {data['block']!r}")
            failures += 1
    print(f"{len(expected['values'])} strings x {len(loaders)} loaders: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
