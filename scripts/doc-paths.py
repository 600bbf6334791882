#!/usr/bin/env python3
"""Checks that every file and folder a Markdown document names exists.

Named are the targets of its relative links (`[text](../web/rules.md)`,
resolved from the document's folder, the `#anchor` left out) and its code
spans that are paths: `crates/hoyito-server/src/lib.rs`, `http/handlers/`,
`show.rs` (letters, digits, `_`, `-`, `.` and `/`, with a `/` or a file
extension; fenced blocks, link texts and URL paths such as `/metrics` are
not read). A code span names a path relative to whatever the text around it
speaks of (a crate, a folder), so it exists if a file (or, ending in `/`, a
folder) of the repository is that path or ends with `/` and that path.
Folders named `target`, `node_modules` and hidden ones are not searched.

    python3 scripts/doc-paths.py docs/ARCHITECTURE.md [more.md ...]

Prints each missing path with its line and exits 1 if there is one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXTENSIONS = {"rs", "js", "mjs", "md", "sh", "py", "toml", "json", "html", "css", "lock", "txt", "yml"}
LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
SPAN = re.compile(r"`([^`]+)`")
PATH = re.compile(r"[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/?")


def repository_paths():
    """Every file and folder of the repository, relative to its root, with
    folders ending in `/`."""
    paths = set()
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for entry in folder.iterdir():
            if entry.name.startswith(".") or entry.name in ("target", "node_modules"):
                continue
            rel = entry.relative_to(ROOT).as_posix()
            if entry.is_dir():
                paths.add(rel + "/")
                stack.append(entry)
            else:
                paths.add(rel)
    return paths


def is_path(text):
    if not PATH.fullmatch(text) or text.startswith("."):
        return False
    last = text.rstrip("/").rsplit("/", 1)[-1]
    return "/" in text or ("." in last and last.rsplit(".", 1)[1] in EXTENSIONS)


def named(doc):
    """(line number, kind, path) of every path `doc` names."""
    fenced = False
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(line):
            target = m.group(2).split("#", 1)[0]
            if target and not re.match(r"[a-z]+:", target):
                yield number, "link", target
        for m in SPAN.finditer(LINK.sub("", line)):
            if is_path(m.group(1)):
                yield number, "span", m.group(1)


def missing(doc, paths):
    for number, kind, path in named(doc):
        if kind == "link":
            if not (doc.parent / path).exists():
                yield number, path
        elif path not in paths and not any(p.endswith("/" + path) for p in paths):
            yield number, path


def main(args):
    if not args:
        print(__doc__.strip().split("\n\n")[2].strip(), file=sys.stderr)
        return 2
    paths = repository_paths()
    bad = 0
    for name in args:
        doc = pathlib.Path(name).resolve()
        for number, path in missing(doc, paths):
            print(f"{name}:{number}: names {path}, which does not exist", file=sys.stderr)
            bad += 1
    if bad:
        return 1
    print(f"every path {', '.join(args)} names exists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
