#!/usr/bin/env python3
"""Each command's whole-process time against the process floor (`mlsize --version`), measured
interleaved in one run (issue 49): round i runs the floor, then each command, so a noisy
minute slows both. Reports per command the median wall time, the median of the per-round
ratios to the floor, minor page faults and peak RSS (getrusage of the child).

usage: bench/floor_ratio.py MLSIZE [ROUNDS]   (default 200 rounds after 20 warm-ups)
"""
import os
import resource
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "floor (--version)": ["--version"],
    "main job": ["recommend", "--params", "7B", "--data", "200GB"],
    "estimate": ["estimate", "--params", "7B", "--data", "200GB", "--offering", "aws-p4d.24xlarge"],
    "serving": ["recommend", "--model", "llama-3-70b", "--task", "inference", "--rate", "20", "--prompt-tokens",
                "1000", "--output-tokens", "200", "--tpot", "50ms"],
    "main job, JSON": ["recommend", "--params", "7B", "--data", "200GB", "--format", "json"],
    "catalog list": ["catalog", "list"],
}


def run(binary, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, MLSIZE_TODAY="2026-12-01"))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_minflt - before.ru_minflt, after.ru_maxrss


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for _ in range(20):
        for args in COMMANDS.values():
            run(binary, args)
    walls = {name: [] for name in COMMANDS}
    faults = {name: [] for name in COMMANDS}
    for _ in range(rounds):
        for name, args in COMMANDS.items():
            wall, minflt, _ = run(binary, args)
            walls[name].append(wall)
            faults[name].append(minflt)
    floor = walls["floor (--version)"]
    print(f"{rounds} interleaved rounds of {binary}")
    print("| command | median ms | min ms | median ratio to the floor | minor faults |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in COMMANDS:
        ratios = [w / f for w, f in zip(walls[name], floor)]
        print(f"| {name} | {statistics.median(walls[name]) * 1e3:.2f} | {min(walls[name]) * 1e3:.2f} | "
              f"{statistics.median(ratios):.2f}× | {statistics.median(faults[name]):.0f} |")


if __name__ == "__main__":
    main()
