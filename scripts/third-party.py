#!/usr/bin/env python3
"""The notices of the third-party code that the app ships: web/THIRD-PARTY.md.

Lists every crate compiled into the `hoyito` binary (the server, with the web
app embedded) and into the WebAssembly module of web/wasm/ (the rules and the
engine of games on the device), with its version, licence and source, from
`cargo metadata` (Cargo.lock's versions, normal dependencies only: build
scripts, procedural macros and test dependencies are not shipped). The web
app ships no other third-party code or assets: its scripts, styles, icons and
texts are the project's own.

    python3 scripts/third-party.py           # writes web/THIRD-PARTY.md
    python3 scripts/third-party.py --check   # exits 1 if it is out of date
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "web" / "THIRD-PARTY.md"
SHIPPED = [
    ("the `hoyito` program (server and command line)", "hoyito-cli", None),
    ("the WebAssembly module (games on the device)", "hoyito-wasm", "wasm32-unknown-unknown"),
]


def metadata(platform):
    cmd = ["cargo", "metadata", "--format-version", "1", "--locked"]
    if platform:
        cmd += ["--filter-platform", platform]
    else:
        host = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
        triple = next(line.split(": ", 1)[1] for line in host.splitlines() if line.startswith("host: "))
        cmd += ["--filter-platform", triple]
    return json.loads(subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout)


def shipped_packages(root_name, platform):
    meta = metadata(platform)
    packages = {p["id"]: p for p in meta["packages"]}
    members = set(meta["workspace_members"])
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = next(i for i in members if packages[i]["name"] == root_name)
    seen, stack = set(), [root]
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                target_kinds = {k for t in packages[dep["pkg"]]["targets"] for k in t["kind"]}
                if "proc-macro" in target_kinds:
                    continue
                stack.append(dep["pkg"])
    return sorted(
        (packages[i] for i in seen if i not in members),
        key=lambda p: (p["name"], p["version"]),
    )


def render():
    lines = [
        "# Third-party code in Hoyito",
        "",
        "Hoyito is free software under the MIT licence or the Apache License 2.0,",
        "at your choice: [LICENSE-MIT](/LICENSE-MIT), [LICENSE-APACHE](/LICENSE-APACHE).",
        "Its web app's scripts, styles, icons and texts are its own. The Rust",
        "libraries below are compiled into it, each under its own licence",
        "(written here as its authors declare it); their licence texts come with",
        "their sources at the addresses given.",
        "",
        "This file is made by `python3 scripts/third-party.py` from Cargo.lock.",
    ]
    for title, root, platform in SHIPPED:
        pkgs = shipped_packages(root, platform)
        lines += ["", f"## In {title}", "", f"{len(pkgs)} crates:", ""]
        for p in pkgs:
            source = p.get("repository") or f"https://crates.io/crates/{p['name']}"
            lines.append(f"- {p['name']} {p['version']}: {p.get('license') or 'see its source'}; {source}")
    return "\n".join(lines) + "\n"


def main():
    text = render()
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python3 scripts/third-party.py and commit it", file=sys.stderr)
            sys.exit(1)
        return
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
