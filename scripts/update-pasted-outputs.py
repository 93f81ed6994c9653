#!/usr/bin/env python3
"""Rewrites every `$ mlsize ...` block pasted in README.md and docs/*.md with what the build
prints, as tests/cli_unit/test_pasted_outputs.cpp checks it: the command after `$ ` run from
the source folder, stdout (and stderr on a non-zero exit), no user overlays, prices aged to
the day the test uses. Usage: scripts/update-pasted-outputs.py [BUILD_DIR]"""
import os
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
binary = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root / "build") / "mlsize"
env = dict(os.environ, MLSIZE_TODAY="2026-12-01", XDG_CONFIG_HOME=tempfile.mkdtemp())
env.pop("MLSIZE_CATALOG", None)
env.pop("MLSIZE_CONFIG", None)

for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
    text = path.read_text()
    out, at, changed = [], 0, 0
    while (start := text.find("```", at)) != -1:
        body = text.find("\n", start) + 1
        end = text.find("```", body)
        if body == 0 or end == -1:
            break
        block = text[body:end]
        out.append(text[at:body])
        for prompt in ("$ mlsize ", "$ build/mlsize "):
            if block.startswith(prompt):
                command = block[len(prompt):block.index("\n")]
                run = subprocess.run([str(binary), *command.split()], cwd=root, env=env, capture_output=True, text=True)
                printed = run.stdout + (run.stderr if run.returncode != 0 else "")
                new = block[: block.index("\n") + 1] + printed
                changed += new != block
                block = new
                break
        out.append(block)
        at = end
    out.append(text[at:])
    if changed:
        path.write_text("".join(out))
        print(f"{path.relative_to(root)}: {changed} block(s) updated")
