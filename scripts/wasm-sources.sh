#!/usr/bin/env bash
# The inputs the WebAssembly module of web/wasm/ is built from, one line each:
# the crates it compiles (hoyito-wasm and its path dependencies, as cargo
# resolves them for wasm32-unknown-unknown) with a sha256 of each of their
# manifests and sources (Cargo.toml, build.rs, src/), the version and
# features of every registry crate it compiles, the sections of the root
# Cargo.toml that reach the build ([workspace.package], [profile.release],
# [profile.wasm]) and scripts/build-wasm.sh; last, a sha256 over all of it.
# Not the inputs: tests, examples, docs, other crates, the rest of Cargo.lock
# (a dependency of the server changes it, not the module).
#
#   bash scripts/wasm-sources.sh           print the list
#   bash scripts/wasm-sources.sh --check   compare it with web/wasm/SOURCES,
#                                          which scripts/build-wasm.sh writes
#
# Needs cargo only (no wasm32 target, wasm-bindgen or wasm-opt).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export LC_ALL=C

list() {
  local tree
  tree=$(cargo tree --locked -p hoyito-wasm --target wasm32-unknown-unknown \
    -e normal,build --prefix none --no-dedupe -f '{p}|{f}' | sort -u)
  # Path crates: "name vX (/abs/path)|features"; registry crates: "name vX|features"
  # (proc macros carry " (proc-macro)").
  local crates
  crates=$(sed -n "s#^\([^ ]*\) v[^ ]* (\($root\)/\([^)]*\))|.*#\3#p" <<<"$tree")
  [ -n "$crates" ] || { echo "wasm-sources: cargo tree found no path crates" >&2; exit 2; }
  sed -n "s#^\([^ ]*\) v[^ ]* (\($root\)/\([^)]*\))|\(.*\)#crate \1 \3 [\4]#p" <<<"$tree"
  grep -v "($root/" <<<"$tree" | sed 's#^\([^ ]*\) v\([^ |]*\)\( (proc-macro)\)\{0,1\}|\(.*\)#dep \1 \2 [\4]#'
  local dir
  for dir in $crates; do
    find "$dir/Cargo.toml" "$dir/build.rs" "$dir/src" -type f 2>/dev/null
  done | sort | xargs sha256sum | sed 's/^/file /'
  printf 'root-manifest %s\n' "$(awk '
      /^\[/ { keep = ($0 == "[workspace.package]" || $0 == "[profile.release]" || $0 == "[profile.wasm]") }
      keep && !/^[[:space:]]*(#|$)/' Cargo.toml | sha256sum | cut -d' ' -f1)"
  sha256sum scripts/build-wasm.sh | sed 's/^/file /'
}

lines=$(list)
full=$(printf '# The inputs of web/wasm/: written by scripts/build-wasm.sh, checked by scripts/wasm-sources.sh --check\n%s\nsources %s\n' \
  "$lines" "$(sha256sum <<<"$lines" | cut -d' ' -f1)")

case "${1:-}" in
  "") printf '%s\n' "$full" ;;
  --check)
    if [ -f web/wasm/SOURCES ] && [ "$(cat web/wasm/SOURCES)" = "$full" ]; then
      echo "web/wasm/ was built from the current sources ($(tail -1 web/wasm/SOURCES))"
    else
      echo "the sources of web/wasm changed since it was built: run scripts/build-wasm.sh and commit web/wasm/" >&2
      echo "(what changed, web/wasm/SOURCES against the tree:)" >&2
      diff <(cat web/wasm/SOURCES 2>/dev/null || true) <(printf '%s\n' "$full") | grep '^[<>]' >&2 || true
      exit 1
    fi ;;
  *) echo "usage: scripts/wasm-sources.sh [--check]" >&2; exit 2 ;;
esac
