#!/usr/bin/env python3
"""The help and the manual agree (issue 51): every flag that a command's --help lists is
documented in docs/cli.md, every flag that the manual's option tables document is one some
command takes, the names a flag accepts in its help are the ones the manual's rows for it
list, and a default that both state is the same.

Usage: check_help_manual.py MLSIZE DOCS_CLI_MD [--tamper]
--tamper checks the check: a manual with a flag's row and an accepted name taken out must fail."""

import re
import subprocess
import sys


def help_text(binary, words):
    run = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"{' '.join(words)} --help: exit {run.returncode}: {run.stderr}")
    return run.stdout


def subcommands(text):
    """The names under "Subcommands:" in a help text."""
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
        elif inside and line and not line.startswith(" "):
            inside = False
    return names


OPTION = re.compile(r"^  ((?:-[A-Za-z],)?--[a-z][a-z0-9-]*(?:,--[a-z][a-z0-9-]*)*)"
                    r"(?: [A-Z=\[\]:.]+(?: \.\.\.)?)?(?: REQUIRED)?\s*(.*)$")


def options(text):
    """{--flag: description} of a help text, the description's lines joined."""
    found, last = {}, []
    for line in text.splitlines():
        match = OPTION.match(line)
        if match:
            last = [n for n in match.group(1).split(",") if n.startswith("--")]
            for name in last:
                found[name] = match.group(2).strip()
        elif last and line.startswith(" " * 30) and line.strip():
            for name in last:
                found[name] += " " + line.strip()
        else:
            last = []
    return found


def choices(description):
    """The names of a description that starts with "a | b | c" (as choice.hpp writes it)."""
    head = description.split(" (default")[0]
    if " | " not in head:
        return []
    words = [w.strip() for w in head.split("|")]
    if not all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", w) for w in words):
        return []
    return words


def default(description):
    """The value of "(default X...)": its first word, before any explanation ("1: N+1")."""
    match = re.search(r"\(default ([^)]*)\)", description)
    return re.split(r"[;:, ]", match.group(1).strip())[0] if match else None


def main():
    binary, manual_path = sys.argv[1], sys.argv[2]
    manual = open(manual_path, encoding="utf-8").read()
    if "--tamper" in sys.argv:
        manual = re.sub(r"^\| `--top` \|.*$", "", manual, flags=re.M)
        manual = manual.replace("`reserved-3y`", "`reserved-5y`")
        manual += "\n| `--no-such-flag` | flag | off | documented only |\n"
    failures = []

    commands = []
    for name in subcommands(help_text(binary, [])):
        if name == "help":
            continue
        nested = subcommands(help_text(binary, [name]))
        commands += [[name, sub] for sub in nested] if nested else [[name]]

    flags = {}  # --flag: [(command, description)]
    for words in [[]] + commands:
        for flag, description in options(help_text(binary, words)).items():
            flags.setdefault(flag, []).append((" ".join(words), description))

    commands_section = manual[manual.index("\n## Commands"):manual.index("\n## Options")]

    # Rows of the manual's tables, by the flags their first cell names.
    rows = {}
    for line in manual.splitlines():
        if not line.startswith("| `-"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for flag in re.findall(r"`(--[a-z][a-z0-9-]*)", cells[0]):
            rows.setdefault(flag, []).append(cells)

    for flag, owners in sorted(flags.items()):
        if flag in ("--help", "--version"):
            continue
        # The flags of the commands without workload flags (catalog import, completion) are
        # described with their command, under "## Commands".
        prose = all(not c.startswith(("recommend", "estimate", "explain", "calibrate")) for c, _ in owners)
        if flag not in rows and not (prose and re.search(r"`[^`]*" + re.escape(flag) + r"(?![a-z0-9-])", commands_section)):
            failures.append(f"{flag} ({owners[0][0]}): in --help, in no option table of {manual_path}")
            continue
        for command, description in owners:
            names = choices(description)
            listed = " ".join(" ".join(cells[1:]) for cells in rows.get(flag, []))
            if names and rows.get(flag):
                missing = [n for n in names if f"`{n}`" not in listed]
                if missing:
                    failures.append(f"{flag} ({command}): --help accepts {', '.join(missing)}; the manual's row does not list it")
            # A default that differs between commands (--format) is each command's own.
            stated = default(description)
            same = len({default(d) for _, d in owners}) == 1
            four = [cells for cells in rows.get(flag, []) if len(cells) >= 4]
            if stated and same and four:
                cells = " ".join(c[2] for c in four).replace("`", "")
                if stated not in cells:
                    failures.append(f"{flag} ({command}): --help says default {stated}; the manual says {cells}")

    for flag in sorted(rows):
        if flag not in flags:
            failures.append(f"{flag}: documented in {manual_path}, taken by no command's --help")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(commands)} commands, {len(flags)} flags; {len(failures)} disagreements")
    if "--tamper" in sys.argv:
        wanted = ["--top (", "reserved-3y", "--no-such-flag"]
        caught = [w for w in wanted if any(w in f for f in failures)]
        print(f"tampered manual: {len(caught)} of {len(wanted)} changes caught")
        return 0 if len(caught) == len(wanted) else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
