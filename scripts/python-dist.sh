#!/usr/bin/env bash
# The Python package's distributions, as they would go to PyPI (docs/PYTHON.md,
# "Publishing"): builds into target/python-dist
#
#   - the wheel: release profile, stable ABI (cp39-abi3: every CPython >= 3.9,
#     pyproject.toml's pyo3/abi3-py39 feature), linked by zig against an old
#     glibc for a manylinux tag (HOYITO_WHEEL_COMPAT, default manylinux2014,
#     i.e. glibc 2.17; or manylinux_2_28);
#   - the source distribution (maturin sdist, with the workspace crates the
#     package needs);
#
# then checks them: `twine check --strict` on both; the wheel's tag, its
# highest GLIBC symbol version (objdump) and `auditwheel show`; real licence
# texts (not links or link paths) in the wheel and the sdist; the wheel
# installed in a fresh virtual environment runs the package's pytest suite
# and the examples of crates/hoyito-py/README.md (the PyPI page); a wheel
# built by pip from the sdist alone, in a clean temporary directory, imports
# and plays. With HOYITO_DIST_PYTHONS="python3.9 python3.13 ..." the wheel is
# also installed and smoke-tested under each of those interpreters.
#
# Slow (two release builds, one from scratch) and not part of scripts/test.sh.
# Needs PyPI (maturin, twine, ziglang, auditwheel, numpy and the test
# packages); the tools live in target/py-dist-tools, the test environment in
# target/py-dist-venv. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

PYTHON=${PYTHON:-python3}
TOOLS=target/py-dist-tools
VENV=target/py-dist-venv
OUT=target/python-dist
COMPAT=${HOYITO_WHEEL_COMPAT:-manylinux2014}
case "$COMPAT" in
  manylinux2014) max_glibc=2.17 tag=manylinux2014_x86_64 ;;
  manylinux_2_*) max_glibc=$(echo "${COMPAT#manylinux_}" | tr _ .) tag=${COMPAT}_x86_64 ;;
  *) echo "HOYITO_WHEEL_COMPAT: expected manylinux2014 or manylinux_2_NN, got $COMPAT" >&2; exit 2 ;;
esac

started=$SECONDS
stage="" stage_started=$SECONDS
stages=()
end_stage() {
  if [ -n "$stage" ]; then stages+=("$((SECONDS - stage_started))|$stage$1"); fi
  stage=""
}
step() {
  end_stage ""
  stage=$*
  stage_started=$SECONDS
  printf '\n== python-dist: %s == (%ds)\n' "$*" $((SECONDS - started))
}
tmp=""
on_exit() {
  local rc=$1 s
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
  if [ "$rc" = 0 ]; then end_stage ""; else end_stage " (FAILED)"; fi
  printf '\n== python-dist: step times ==\n'
  for s in "${stages[@]}"; do printf '%6ds  %s\n' "${s%%|*}" "${s#*|}"; done
  printf '%6ds  total%s\n' $((SECONDS - started)) "$(if [ "$rc" != 0 ]; then echo ", exit status $rc"; fi)"
}
trap 'on_exit $?' EXIT

# A virtual environment, as scripts/test-python.sh makes it (Debian's python3
# makes them only with python3-venv).
make_venv() {
  local dir=$1 py=$2 pkg
  if ! "$py" -m venv "$dir"; then
    rm -rf "$dir"
    pkg="python$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')-venv"
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
    else
      sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
    fi
    "$py" -m venv "$dir"
  fi
}
pip_() { "$1/bin/python" -m pip install -q --disable-pip-version-check "${@:2}"; }

# The README's ```python blocks, each run as a script (from a directory
# without the package's sources, so that the installed package is imported).
run_readme_examples() {
  local py=$1 dir
  dir=$(mktemp -d)
  "$py" - "$root/crates/hoyito-py/README.md" "$dir" <<'EOF'
import pathlib, re, subprocess, sys
text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
assert blocks, "no python example in README.md"
for i, code in enumerate(blocks, 1):
    path = pathlib.Path(sys.argv[2]) / f"example{i}.py"
    path.write_text(code, encoding="utf-8")
    print(f"README example {i}:", flush=True)
    subprocess.run([sys.executable, str(path)], cwd=sys.argv[2], check=True)
EOF
  rm -rf "$dir"
}

step "tools (maturin, twine, ziglang, auditwheel) in $TOOLS"
if [ ! -x "$TOOLS/bin/python" ]; then make_venv "$TOOLS" "$PYTHON"; fi
pip_ "$TOOLS" "maturin>=1.9,<2" twine ziglang auditwheel
# maturin finds zig as `python -m ziglang` of the Python on PATH.
export PATH="$root/$TOOLS/bin:$PATH"
maturin --version

rm -rf "$OUT"
mkdir -p "$OUT"

step "wheel: maturin build --release --zig --compatibility $COMPAT"
maturin build --manifest-path crates/hoyito-py/Cargo.toml --release --locked \
  --zig --compatibility "$COMPAT" --out "$OUT"

step "sdist: maturin sdist"
maturin sdist --manifest-path crates/hoyito-py/Cargo.toml --out "$OUT"

shopt -s nullglob
wheels=("$OUT"/*.whl) sdists=("$OUT"/*.tar.gz)
shopt -u nullglob
[ ${#wheels[@]} = 1 ] && [ ${#sdists[@]} = 1 ] || { ls -l "$OUT" >&2; echo "expected one wheel and one sdist" >&2; exit 1; }
wheel=${wheels[0]} sdist=${sdists[0]}
ls -l "$OUT"

step "twine check --strict"
twine check --strict "$wheel" "$sdist"

step "wheel tag, GLIBC symbol versions, auditwheel; licence texts and crates in both"
case "$(basename "$wheel")" in
  hoyito-*-cp39-abi3-*"$tag"*.whl) echo "tag: $(basename "$wheel")" ;;
  *) echo "unexpected wheel name $(basename "$wheel"): expected cp39-abi3 and $tag" >&2; exit 1 ;;
esac
"$TOOLS/bin/python" - "$wheel" "$sdist" "$max_glibc" <<'EOF'
import re, subprocess, sys, tarfile, tempfile, zipfile

wheel, sdist, max_glibc = sys.argv[1], sys.argv[2], tuple(map(int, sys.argv[3].split(".")))
texts = {"LICENSE-MIT": "Permission is hereby granted", "LICENSE-APACHE": "Apache License"}

def check_text(where, name, data):
    text = data.decode("utf-8", "replace")
    want = texts[name.rsplit("/", 1)[-1]]
    if want not in text or len(data) < 500:
        sys.exit(f"{where}: {name} is not the licence text ({len(data)} bytes: {text[:60]!r})")
    print(f"{where}: {name}: {len(data)} bytes of licence text")

with zipfile.ZipFile(wheel) as z:
    names = z.namelist()
    for lic in texts:
        name = next((n for n in names if n.endswith(".dist-info/licenses/" + lic)), None)
        if name is None:
            sys.exit(f"wheel: no {lic} in .dist-info/licenses/")
        check_text("wheel", name, z.read(name))
    meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for field in ("License-Expression: MIT OR Apache-2.0", "License-File: LICENSE-MIT",
                  "License-File: LICENSE-APACHE", "Requires-Python: >=3.9",
                  "Description-Content-Type: text/markdown"):
        if field not in meta:
            sys.exit(f"wheel METADATA lacks {field!r}")
    so = [n for n in names if n.endswith(".abi3.so")]
    if len(so) != 1:
        sys.exit(f"wheel: expected one .abi3.so module, found {so}")
    with tempfile.NamedTemporaryFile(suffix=".so") as f:
        f.write(z.read(so[0])); f.flush()
        dump = subprocess.run(["objdump", "-T", f.name], check=True, capture_output=True, text=True).stdout
    versions = sorted({tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_([0-9.]+)", dump)})
    top = ".".join(map(str, versions[-1]))
    print(f"wheel: {so[0]}: {z.getinfo(so[0]).file_size} bytes, highest GLIBC symbol version {top}")
    if versions[-1] > max_glibc:
        sys.exit(f"wheel: GLIBC_{top} is newer than the tag's glibc {sys.argv[3]}")

with tarfile.open(sdist) as t:
    members = {m.name.split("/", 1)[1]: m for m in t.getmembers() if "/" in m.name}
    for name, m in sorted(members.items()):
        if m.issym() or m.islnk():
            sys.exit(f"sdist: {name} is a link, not a file")
    for name in [n for n in members if n.rsplit("/", 1)[-1] in texts]:
        check_text("sdist", name, t.extractfile(members[name]).read())
    for name in ("LICENSE-MIT", "LICENSE-APACHE", "README.md", "pyproject.toml", "Cargo.toml", "Cargo.lock",
                 "crates/hoyito-py/Cargo.toml", "crates/hoyito-core/Cargo.toml",
                 "crates/hoyito-engine/Cargo.toml", "crates/hoyito-tablebase/Cargo.toml",
                 "python/hoyito/__init__.py", "python/hoyito/_hoyito.pyi"):
        if name not in members:
            sys.exit(f"sdist: {name} is missing")
    print(f"sdist: {len(members)} files, no links; the crates hoyito-py, -core, -engine, -tablebase")
EOF
auditwheel show "$wheel"
auditwheel show "$wheel" | tr '\n' ' ' | grep -q "platform tag: \"${tag/manylinux2014/manylinux_2_17}\"" ||
  { echo "auditwheel does not confirm $tag" >&2; exit 1; }

step "fresh virtual environment $VENV: the wheel and the test packages"
rm -rf "$VENV"
make_venv "$VENV" "$PYTHON"
pip_ "$VENV" "$wheel" pytest "pettingzoo>=1.24" "gymnasium>=1.0" "open_spiel>=1.4"
(cd /tmp && "$root/$VENV/bin/python" -c 'import hoyito, sys; print("hoyito", hoyito.__version__, "from", hoyito.__file__, "on Python", sys.version.split()[0])')
(cd /tmp && "$root/$VENV/bin/python" -c 'import hoyito, sys; sys.exit(not hoyito.__file__.startswith(sys.prefix))') ||
  { echo "the installed wheel is not the hoyito imported" >&2; exit 1; }

step "the Rust programs of the differential tests"
target=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${HOYITO_TRACE_BIN:-}" ]; then
  cargo build --locked --quiet --profile test -p hoyito-core --example random_trace
  export HOYITO_TRACE_BIN="$target/debug/examples/random_trace"
fi
if [ -z "${HOYITO_BIN:-}" ]; then
  cargo build --locked --quiet --profile test -p hoyito-cli
  export HOYITO_BIN="$target/debug/hoyito"
fi
ls -l "$HOYITO_TRACE_BIN" "$HOYITO_BIN" >/dev/null

step "pytest (crates/hoyito-py/tests) against the installed wheel"
(cd crates/hoyito-py && "$root/$VENV/bin/python" -m pytest -q -p no:cacheprovider)

step "the README's examples against the installed wheel"
run_readme_examples "$root/$VENV/bin/python"

for py in ${HOYITO_DIST_PYTHONS:-}; do
  step "the wheel under $py"
  tmp=$(mktemp -d)
  make_venv "$tmp/venv" "$py"
  pip_ "$tmp/venv" "$wheel"
  (cd "$tmp" && "$tmp/venv/bin/python" -c '
import sys, hoyito
g = hoyito.Game("II")
while not g.is_over():
    g.play(g.best_move(level=2, seed=1))
v = hoyito.VectorGame(64, variant="III")
obs, mask = v.reset()
print("Python", sys.version.split()[0], "hoyito", hoyito.__version__, g.winner(), g.captured, obs.shape, mask.dtype)
')
  rm -rf "$tmp"
  tmp=""
done

step "a wheel from the sdist alone (pip, clean temporary directory, no Cargo cache of the workspace)"
tmp=$(mktemp -d)
cp "$sdist" "$tmp/"
# pip unpacks the sdist under TMPDIR, and Cargo's target directory is the
# unpacked tree's: nothing of the workspace's own build is reused. Not
# --locked: the sdist's workspace has only the crates the package needs, so
# Cargo drops the other crates' entries from the Cargo.lock it carries (the
# versions of the rest stay as locked).
(cd "$tmp" && env -u CARGO_TARGET_DIR -u MATURIN_PEP517_ARGS TMPDIR="$tmp" \
  "$root/$VENV/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps \
  -w "$tmp/wheel" "$tmp/$(basename "$sdist")")
ls -l "$tmp/wheel"
make_venv "$tmp/venv" "$PYTHON"
pip_ "$tmp/venv" "$tmp"/wheel/*.whl
run_readme_examples "$tmp/venv/bin/python"
rm -rf "$tmp"
tmp=""

step "done: $OUT"
ls -l "$OUT"
