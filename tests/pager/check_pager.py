#!/usr/bin/env python3
"""The first screen of mlsize's main job on an 80x24 terminal (issue 51): the report goes
through the pager when it is longer than the screen, and the pager's first page (what a
reader sees, and what stays on screen after less -FRX quits) holds the table's first row and
the one-sentence answer. The pager here is `head -n 23` into a file (the prompt takes the
24th row), so the test needs neither less nor a person. --no-pager, PAGER=cat and output to a
pipe write the report straight through.

usage: check_pager.py MLSIZE"""
import fcntl
import os
import struct
import subprocess
import sys
import tempfile
import termios

ROWS, COLUMNS = 24, 80
MAIN_JOB = ["recommend", "--params", "7B", "--data", "200GB"]


def run_on_terminal(mlsize, args, env):
    """Runs mlsize with its stdout and stderr on a pseudo-terminal of ROWS x COLUMNS; returns
    its exit code and what reached the terminal."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    process = subprocess.Popen([mlsize] + args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer closed it
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return process.wait(), seen.decode("utf-8", "replace").replace("\r\n", "\n")


def main():
    mlsize = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as work:
        screen = os.path.join(work, "first-screen.txt")
        env = dict(os.environ, XDG_CONFIG_HOME=work, LC_ALL="C")
        env.pop("MLSIZE_CATALOG", None)
        env.pop("PAGER", None)
        env["MLSIZE_PAGER"] = f"head -n {ROWS - 1} > {screen}"
        code, seen = run_on_terminal(mlsize, MAIN_JOB, env)
        first = open(screen, encoding="utf-8").read() if os.path.exists(screen) else ""
        if code != 0:
            failures.append(f"exit {code}: {seen[-500:]}")
        if "1*" not in first and "\n 1 " not in first:
            failures.append("the first screen has no row #1:\n" + first)
        if "is the cheapest plan that fits" not in first:
            failures.append("the first screen has no answer sentence:\n" + first)
        if seen.strip() and "Workload" in seen:
            failures.append("the report also went to the terminal itself:\n" + seen[:500])

        # No pager: --no-pager, PAGER=cat, and a pipe all write the whole report.
        for label, args, extra in (("--no-pager", MAIN_JOB + ["--no-pager"], {}),
                                   ("MLSIZE_PAGER=cat", MAIN_JOB, {"MLSIZE_PAGER": "cat"})):
            os.path.exists(screen) and os.remove(screen)
            code, seen = run_on_terminal(mlsize, args, dict(env, **extra))
            if code != 0 or "next: mlsize estimate" not in seen or os.path.exists(screen):
                failures.append(f"{label}: the report did not go straight to the terminal (exit {code})")
        piped = subprocess.run([mlsize] + MAIN_JOB, env=env, capture_output=True, text=True, check=False)
        if piped.returncode != 0 or "next: mlsize estimate" not in piped.stdout or os.path.exists(screen):
            failures.append("a pipe: the report did not go straight through")
        # A report that fits the screen is not paged.
        code, seen = run_on_terminal(mlsize, ["--version"], env)
        if code != 0 or "mlsize" not in seen or os.path.exists(screen):
            failures.append("--version was paged")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print("the first screen holds row #1 and the answer; --no-pager, cat, pipes and short reports are not paged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
