#!/usr/bin/env python3
"""Runs every mlsize command shown in README.md and docs/*.md in an 80-column pseudo-terminal
and checks that no line it prints is wider (docs/cli.md#width; issue 32).

usage: check_80_columns.py MLSIZE SOURCE_DIR

Also runs EVERY_COMMAND below: each command, its help, each family's reports. A line may pass
80 columns only when it is one URL (a terminal must keep it whole to open it).

A command is taken from a code block (fenced, or indented four spaces): a line that starts
with `$ mlsize`, `mlsize`, `build/mlsize` (also after `&&`). Commands whose output is a document rather than text for
a person are skipped (--format other than table, --emit, --wide, completion, calibrate's overlay,
catalog export/import, --output, pipes and redirects), and so are those that name a file the
docs only show (an exit status of 1 that says it cannot open a file). The terminal is a
real one (pty.fork, TIOCSWINSZ 80 columns), so the width comes from the terminal as it does
for a user, for stdout and stderr alike; COLUMNS is unset. Exits 0 when every line fits, 1 if not.
"""

import fcntl
import os
import pathlib
import pty
import re
import select
import shlex
import struct
import sys
import termios
import time
import unicodedata

WIDTH = 80
DOCUMENT_FORMATS = {"json", "yaml", "csv", "tsv", "html"}


def display_width(text):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def commands(root):
    """(file:line, argv after the binary) for each command the docs show."""
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        in_block = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
                continue
            # A fenced block, or an indented one (four spaces) outside fences.
            if not in_block and not line.startswith("    "):
                continue
            for part in line.split("&&"):
                part = part.strip()
                part = part[2:] if part.startswith("$ ") else part
                match = re.match(r"(?:build/)?mlsize (.*)$", part)
                if not match:
                    continue
                text = match.group(1).split("  #")[0].rstrip()
                if text.endswith("\\"):
                    continue  # continued on the next line: shown, not run
                try:
                    words = shlex.split(text)
                except ValueError:
                    continue
                yield f"{path.relative_to(root)}:{number}", words


def skipped(words):
    if any(w in ("|", ">", ">>", "<", "2>&1") or w.startswith((">", "|")) for w in words):
        return "a pipe or redirect"
    for i, w in enumerate(words):
        if w in ("--format", "-f") and i + 1 < len(words) and words[i + 1].lower() in DOCUMENT_FORMATS:
            return "a document format"
        if w.startswith("--format=") and w.split("=", 1)[1].lower() in DOCUMENT_FORMATS:
            return "a document format"
        if w in ("--emit", "--wide", "--output", "-o") or w.startswith(("--emit=", "--output=")):
            return w
    if words[:1] in (["completion"], ["calibrate"]) or words[:2] in (["catalog", "export"], ["catalog", "import"]):
        return "a script or a file (calibrate writes an overlay)"
    if any("<" in w or "[" in w or "..." in w or re.fullmatch(r"[A-Z_]{2,}", w) for w in words):
        return "a placeholder"
    return None


# Beyond the docs' commands (issue 51): each command and each family's reports, with the
# flags that add lines (--verbose, --explain, --include-purchase), so that a command no page
# shows is held to the width too.
EVERY_COMMAND = [
    "--help", "recommend --help", "estimate --help", "explain --help", "catalog --help", "catalog list --help",
    "catalog show --help", "catalog validate --help", "catalog export --help", "catalog import --help",
    "catalog compile --help", "rules --help", "rules list --help", "rules check --help", "detect --help",
    "completion --help", "calibrate --help",
    "recommend --params 7B --data 200GB --verbose",
    "recommend --params 7B --data 200GB --include-purchase",
    "recommend --params 70B --data 2TB --kind tpu",
    "recommend --model llama-3-70b --task inference --rate 20 --tpot 50ms --verbose",
    "recommend --model llama-3-8b --task inference --tokens-per-day 1B",
    "recommend --task gbdt --rows 100M --features 200",
    "recommend --model resnet-50 --images 1.28M --epochs 90 --verbose",
    "recommend --model sdxl --task inference --images 100k",
    "recommend --model sdxl --task lora --images 10k --epochs 10",
    "recommend --model whisper-large-v3 --task inference --audio-hours 1000",
    "estimate --params 7B --data 200GB --gpus h100:8 --explain",
    "estimate --model llama-3-70b --task inference --quant int4 --gpus rtx-4090:2",
    "estimate --model llama-3-70b --task inference --gpus rtx-4090:1",
    "estimate --task gbdt --rows 10M --features 100 --offering kaggle-gpu-t4x2 --count 2 --explain",
    "estimate --model vit-b-16 --images 1.28M --epochs 300 --gpus a100-80gb-sxm:8 --explain",
    "estimate --model sdxl --task inference --images 1000 --gpus l4:1",
    "estimate --model whisper-small --task inference --audio-hours 10 --gpus t4:1",
    "explain --params 7B --data 200GB",
    "explain --model llama-3-70b --task inference --rate 20 --tpot 50ms",
    "rules list", "rules check examples/team-policy.yaml",
    "catalog list", "catalog list --kind cpu", "catalog list --kind tpu", "catalog validate examples/my-prices.yaml",
    "detect --from tests/data/detect/h100x8", "detect --from tests/data/detect/macos-m3-max",
    "recommend --here --from tests/data/detect/rtx4090 --model llama-3-8b --task qlora --data 1GB",
    "calibrate --model llama-2-7b --task lora --micro-batch 4 --seq-len 2048 --recompute full --framework hf "
    "--device h200 --measured tests/data/calibration/h200-llama-2-7b-lora.json -o /dev/null",
]


def too_wide(line):
    """Wider than the terminal, unless the line is one word, a URL a terminal must keep whole."""
    return display_width(line) > WIDTH and not re.fullmatch(r"\s*https?://\S+[;,.]?", line)


def run_in_terminal(binary, words, cwd):
    """Runs binary with words on a pseudo-terminal WIDTH columns wide: (status, text)."""
    pid, fd = pty.fork()
    if pid == 0:
        # The child sets its terminal's size before mlsize starts, so mlsize cannot race it.
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, WIDTH, 0, 0))
        os.chdir(cwd)
        os.environ.pop("COLUMNS", None)
        os.environ["MLSIZE_TODAY"] = "2026-12-01"
        # The whole report on the terminal, its every line measured: no pager (docs/cli.md#pager).
        os.environ["MLSIZE_PAGER"] = ""
        os.execv(binary, [binary, *words])
    chunks, deadline = [], time.time() + 120
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def main():
    binary, root = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2]).resolve()
    failures, ran = [], 0
    every = [("every command", shlex.split(line)) for line in EVERY_COMMAND]
    for where, words in [*commands(root), *every]:
        reason = skipped(words) if where != "every command" else None
        if reason:
            continue
        status, text = run_in_terminal(binary, words, root)
        if status == 1 and re.search(r"cannot (open|read)|No such file", text):
            if where == "every command":
                failures.append(f"{where}: mlsize {shlex.join(words)}: {text.strip()}")
            continue  # a file the docs only show
        if status == 2 and where == "every command":
            failures.append(f"{where}: mlsize {shlex.join(words)}: a usage error: {text.strip()}")
        ran += 1
        for line in text.splitlines():
            if too_wide(line):
                failures.append(f"{where}: mlsize {shlex.join(words)}\n  {display_width(line)} columns: {line}")
    for failure in failures:
        print(f"FAIL: {failure}")
    print(f"{ran} commands of README.md, docs/ and every command run in an {WIDTH}-column terminal; "
          f"{len(failures)} lines too wide")
    if ran < 20:
        print("FAIL: fewer than 20 commands found: the extraction is broken")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
