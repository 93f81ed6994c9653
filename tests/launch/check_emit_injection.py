#!/usr/bin/env python3
"""Text from a catalogue reaches every emitted file as exactly the value it was (issue 46,
must-have 3), read by the file's real consumer.

An overlay offering, cheap enough to rank #1, is given a name and a region holding shell,
YAML, JSON, CSV, Markdown and HTML metacharacters (quotes, $(...), backticks, ; | & #, : -,
=HYPERLINK(...), <script>, braces, a tab, a backslash, non-ASCII), and once a clean name and
region (CLEANNAME, CLEANREGION). Every --emit kind and every --format of the same requests
is then parsed by its consumer, PyYAML (SafeLoader and CSafeLoader), Python's json, bash -n
and shlex.split, Python's tokenizer, Python's csv (comma and tab), pandoc's GitHub Markdown\nreader and html.parser,
and the hostile document must equal the clean one with the clean strings replaced by the
hostile ones, as the format writes them: the same keys, the same words, the same rows and
cells; only the values change. (Separators and controls other than tab never get this far:
the loader refuses them, tests/cli_unit/test_hostile_input.cpp.)

usage: check_emit_injection.py MLSIZE"""
import ast
import csv
import html.parser
import io
import json
import shlex
import subprocess
import sys
import tempfile
import tokenize

import yaml

CLEAN_NAME = "CLEANNAME"
CLEAN_REGION = "CLEANREGION"

# Names: printable Unicode (tab allowed); regions: printable ASCII (docs/catalog.md).
VARIANTS = [
    ("x' \"$(touch /tmp/pwned)\" `id`; a|b & c # d: e - f <script>alert(1)</script> *g* {h} [i] !j %k @l \\ m\tn \u6771\u4eac",
     "us-east-1' \"$(id)\";#: |{x}*&!%@`=1+2,\\"),
    ("=HYPERLINK(\"http://evil.invalid\",\"x\")", "@SUM(1+1)"),
    ("- item: &a *a !!python/object:os.system [\"id\"]", "+cmd|' /C calc'!A0"),
    ("%YAML 1.1 --- ... |> {a: b} ? key", "~"),
    ("yes", "0x1F"),
]

REQUESTS = [
    (["recommend", "--params", "7B", "--tokens", "1B", "--top", "3", "--provider", "aws"],
     ["deepspeed", "torchrun", "accelerate", "skypilot"]),
    (["recommend", "--model", "llama-2-7b", "--task", "inference", "--rate", "2", "--top", "3", "--provider", "aws"],
     ["vllm", "skypilot"]),
    (["recommend", "--task", "gbdt", "--rows", "100M", "--features", "50", "--top", "3", "--provider", "aws"],
     ["dask", "spark", "skypilot"]),
    (["recommend", "--model", "resnet-50", "--images", "1.28M", "--epochs", "2", "--top", "3", "--provider", "aws"],
     ["torchrun", "skypilot"]),
    (["estimate", "--params", "7B", "--tokens", "1B", "--offering", "probe-h100-x8", "--zero", "1"], ["torchrun", "skypilot"]),
    (["catalog", "list", "--provider", "aws"], []),
]
FORMATS = ["json", "yaml", "csv", "tsv", "markdown", "html"]
FORMATS_OF = {"catalog": FORMATS[:-1]}  # catalog list has no HTML page
LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])

OVERLAY = """offerings:
  - id: probe-h100-x8
    provider: aws
    kind: cloud
    name: {name}
    device: h100-sxm
    devices_per_unit: 8
    vcpus: 192
    host_memory_gib: 2048
    price_per_hour_usd: 0.01
    region: {region}
    source: test fixture
    as_of: "2026-11-01"
"""

failures = 0


def fail(where, message):
    global failures
    failures += 1
    print(f"FAIL {where}: {message}")


def run(mlsize, catalog, args):
    result = subprocess.run([mlsize, *args, "--catalog", catalog], capture_output=True, env={"MLSIZE_TODAY": "2026-12-01"})
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {result.returncode}: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode("utf-8")


def substitute(value, name, region, cell=lambda s: s):
    """The clean document as the hostile one must read: the clean strings replaced."""
    if isinstance(value, dict):
        return {substitute(k, name, region, cell): substitute(v, name, region, cell) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(substitute(v, name, region, cell) for v in value)
    if isinstance(value, str) and (CLEAN_NAME in value or CLEAN_REGION in value):
        return cell(value.replace(CLEAN_NAME, name).replace(CLEAN_REGION, region))
    return value


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {sorted(set(a) ^ set(b))[:4]} differ"
        for key in a:
            d = first_difference(a[key], b[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: read {b!r}, expected {a!r}"


def compare(where, expected, got):
    d = first_difference(expected, got)
    if d:
        fail(where, d)


def without_formula(text):
    # render_rows.cpp's rule: a cell a spreadsheet would read as a formula gets a leading quote.
    if text and text[0] in "=+-@\t\r":
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def parse_yaml(text):
    documents = [yaml.load(text, Loader=loader) for loader in LOADERS]
    for other in documents[1:]:
        if other != documents[0]:
            raise AssertionError("SafeLoader and CSafeLoader disagree")
    return documents[0]


def shell_words(where, text):
    check = subprocess.run(["bash", "-n"], input=text.encode(), capture_output=True)
    if check.returncode != 0:
        fail(where, f"bash -n: {check.stderr.decode()}")
    return shlex.split(text, comments=True)


def python_tokens(text):
    """A Python script as the interpreter reads it: its tokens, string literals as their values."""
    compile(text, "job.py", "exec")
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [(t.type, ast.literal_eval(t.string) if t.type == tokenize.STRING else t.string) for t in tokens]


def markdown_events(text):
    """Markdown as GitHub's dialect reads it (pandoc -f gfm), as the HTML it becomes."""
    result = subprocess.run(["pandoc", "-f", "gfm", "-t", "html", "--wrap=none"], input=text.encode(),
                            capture_output=True, check=True)
    return html_events(result.stdout.decode())


class Html(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.events.append(("end", tag))

    def handle_data(self, data):
        if self.events and self.events[-1][0] == "data":
            self.events[-1] = ("data", self.events[-1][1] + data)
        else:
            self.events.append(("data", data))


def html_events(text):
    parser = Html()
    parser.feed(text)
    parser.close()
    return parser.events


def check_emit(where, kind, clean, hostile, name, region):
    if kind in ("skypilot", "accelerate"):
        compare(where, substitute(parse_yaml(clean), name, region), parse_yaml(hostile))
    elif kind == "deepspeed":
        compare(where, substitute(json.loads(clean), name, region), json.loads(hostile))
    elif kind == "dask":  # a Python script
        compare(where, substitute(python_tokens(clean), name, region), python_tokens(hostile))
    else:  # torchrun, vllm, spark: shell scripts
        expected = [w.replace(CLEAN_NAME, name).replace(CLEAN_REGION, region) for w in shell_words(where, clean)]
        compare(where, expected, shell_words(where, hostile))


def check_format(where, fmt, clean, hostile, name, region):
    if fmt == "json":
        compare(where, substitute(json.loads(clean), name, region), json.loads(hostile))
    elif fmt == "yaml":
        compare(where, substitute(parse_yaml(clean), name, region), parse_yaml(hostile))
    elif fmt in ("csv", "tsv"):
        dialect = {"delimiter": "\t", "quoting": csv.QUOTE_NONE} if fmt == "tsv" else {}
        tsv = (lambda s: s.replace("\t", " ")) if fmt == "tsv" else (lambda s: s)
        cell = lambda s: without_formula(tsv(s))
        read = lambda text: list(csv.reader(io.StringIO(text, newline=""), **dialect))
        compare(where, substitute(read(clean), name, region, cell), read(hostile))
    elif fmt == "markdown":
        # A GFM table cell trims and folds its whitespace (pandoc reads a tab there as a space),
        # as HTML shows it anyway: tabs compared as spaces.
        spaces = lambda events: [tuple(x.replace("\t", " ") if isinstance(x, str) else x for x in e) for e in events]
        compare(where, spaces(substitute(markdown_events(clean), name, region)), spaces(markdown_events(hostile)))
    elif fmt == "html":
        compare(where, substitute(html_events(clean), name, region), html_events(hostile))


def main():
    mlsize = sys.argv[1]
    checked = 0
    with tempfile.TemporaryDirectory() as work:
        # One path for every variant: the report names its overlays.
        def overlay(name, region):
            path = f"{work}/overlay.yaml"
            with open(path, "w", encoding="utf-8") as out:
                out.write(OVERLAY.format(name=json.dumps(name), region=json.dumps(region)))
            return path

        clean_catalog = f"{work}/overlay.yaml"
        for args, kinds in REQUESTS:
            overlay(CLEAN_NAME, CLEAN_REGION)
            listed = run(mlsize, clean_catalog, args + ["--format", "json"])
            if args[0] == "recommend" and (json.loads(listed)["recommendations"][0].get("offering") or {}).get(
                    "id") != "probe-h100-x8" or CLEAN_NAME not in listed:
                fail(" ".join(args), "the probe offering is not #1 or not shown: the test would prove nothing")
                continue
            clean = {("format", f): run(mlsize, clean_catalog, args + ["--format", f]) for f in FORMATS_OF.get(args[0], FORMATS)}
            clean.update({("emit", k): run(mlsize, clean_catalog, args + ["--emit", k]) for k in kinds})
            for v, (name, region) in enumerate(VARIANTS):
                catalog = overlay(name, region)
                for (what, which), clean_text in clean.items():
                    where = f"variant {v}: {' '.join(args)} --{what} {which}"
                    hostile_text = run(mlsize, catalog, args + [f"--{what}", which])
                    try:
                        (check_emit if what == "emit" else check_format)(where, which, clean_text, hostile_text,
                                                                          name, region)
                    except Exception as error:  # a parser's refusal is a finding too
                        fail(where, f"{type(error).__name__}: {error}")
                    checked += 1
    print(f"{checked} documents x {len(LOADERS)} YAML loaders where YAML: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
