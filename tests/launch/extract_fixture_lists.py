#!/usr/bin/env python3
"""Writes the list fixtures of tests/launch/fixtures/ from the tools' own source files.

usage: extract_fixture_lists.py KIND SOURCE.py [SOURCE.py ...] > FIXTURE.txt

KIND argparse: the option names of every add_argument call (one argument a line, its names
  separated by spaces; `flag` when it takes no value: store_true/store_false/check_env;
  `choices=A,B` when its choices are a literal list).
KIND fields CLASS[,CLASS...]: the fields of the named classes (dataclasses, pydantic models),
  one `Class field [alias]` a line; an alias is a pydantic Field(alias=...).
KIND constants NAME[,NAME...]: the string lists assigned to the module-level NAMEs.
KIND enum CLASS: the string values of an Enum's members.

Only Python's ast is used: the sources are read, never imported.
"""

import ast
import sys


def literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def argparse_lines(tree):
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "add_argument"):
            continue
        names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        names = [n for n in names if n.startswith("-")]
        if not names:
            continue
        words = list(names)
        for kw in call.keywords:
            if kw.arg == "action":
                value = kw.value
                name = value.value if isinstance(value, ast.Constant) else getattr(value, "id", None)
                if name in ("store_true", "store_false", "check_env"):
                    words.append("flag")
            if kw.arg == "choices":
                choices = literal(kw.value)
                if isinstance(choices, (list, tuple)):
                    words.append("choices=" + ",".join(str(c) for c in choices))
        yield " ".join(words), call.lineno


def field_lines(tree, classes):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name in classes:
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    alias = ""
                    if isinstance(item.value, ast.Call):
                        for kw in item.value.keywords:
                            if kw.arg == "alias" and isinstance(kw.value, ast.Constant):
                                alias = " " + kw.value.value
                    yield f"{node.name} {item.target.id}{alias}", item.lineno


def main():
    kind, rest = sys.argv[1], sys.argv[2:]
    names = []
    if kind in ("fields", "constants", "enum"):
        names, rest = rest[0].split(","), rest[1:]
    for path in rest:
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        if kind == "argparse":
            lines = argparse_lines(tree)
        elif kind == "fields":
            lines = field_lines(tree, names)
        elif kind == "constants":
            lines = ((f"{t.id} {v}", n.lineno) for n in tree.body if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name) and t.id in names
                     for v in (literal(n.value) or []))
        elif kind == "enum":
            lines = ((f"{n.name} {i.value.value}", i.lineno) for n in ast.walk(tree)
                     if isinstance(n, ast.ClassDef) and n.name in names for i in n.body
                     if isinstance(i, ast.Assign) and isinstance(i.value, ast.Constant))
        else:
            sys.exit(f"unknown kind {kind}")
        for text, _ in sorted(lines, key=lambda pair: pair[1]):
            print(text)


if __name__ == "__main__":
    main()
