#!/usr/bin/env python3
"""Each command's whole-process time against the process floor (`mlsize --version`), measured
interleaved in one run (issue 49): round i runs the floor, then each command, so a noisy
minute slows both. Reports per command the median wall time, the median of the per-round
ratios to the floor, minor page faults and peak RSS (getrusage of the child).

usage: bench/floor_ratio.py MLSIZE [MLSIZE...] [ROUNDS]   (default 200 rounds after 20 warm-ups)

With several binaries (a before and an after), each round runs every command of each binary
in turn, so that both see the same minutes of a noisy VM; each binary's ratios are to its own
floor.
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
    args = sys.argv[1:]
    rounds = int(args.pop()) if args and args[-1].isdigit() else 200
    binaries = args
    for _ in range(20):
        for binary in binaries:
            for command in COMMANDS.values():
                run(binary, command)
    walls = {(b, name): [] for b in binaries for name in COMMANDS}
    faults = {(b, name): [] for b in binaries for name in COMMANDS}
    for _ in range(rounds):
        for binary in binaries:
            for name, command in COMMANDS.items():
                wall, minflt, _ = run(binary, command)
                walls[(binary, name)].append(wall)
                faults[(binary, name)].append(minflt)
    for binary in binaries:
        floor = walls[(binary, "floor (--version)")]
        print(f"{rounds} interleaved rounds of {binary}" + (f" (with {len(binaries) - 1} other)" if len(binaries) > 1 else ""))
        print("| command | median ms | min ms | median ratio to the floor | minor faults |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name in COMMANDS:
            w = walls[(binary, name)]
            ratios = [x / f for x, f in zip(w, floor)]
            print(f"| {name} | {statistics.median(w) * 1e3:.2f} | {min(w) * 1e3:.2f} | "
                  f"{statistics.median(ratios):.2f}× | {statistics.median(faults[(binary, name)]):.0f} |")
        print()


if __name__ == "__main__":
    main()
