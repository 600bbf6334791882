#!/usr/bin/env bash
# Builds the WebAssembly module of crates/hoyito-wasm into OUT_DIR (default
# web/wasm, the files the app serves and the repository keeps):
# hoyito_wasm.js (wasm-bindgen --target web), hoyito_wasm_bg.wasm
# (optimised by wasm-opt) and SOURCES, the list of the inputs it was built
# from (scripts/wasm-sources.sh; CI checks that web/wasm/SOURCES still
# matches the tree, and tests what the module does with node --test and the
# browser tests, without these tools). The output depends only on the
# sources and the tools: paths are remapped, so any checkout builds the same
# bytes with the same rustc, wasm-bindgen and wasm-opt.
#
# Needs: rustup target add wasm32-unknown-unknown;
#        cargo install wasm-bindgen-cli --version <the wasm-bindgen of Cargo.lock>;
#        wasm-opt (Debian: apt-get install binaryen).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-web/wasm}
mkdir -p "$out"
out=$(cd "$out" && pwd)

want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "build-wasm: need wasm-bindgen $want (have: ${have:-none}): cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi
command -v wasm-opt >/dev/null || { echo "build-wasm: need wasm-opt (apt-get install binaryen)" >&2; exit 2; }

cargo_home=${CARGO_HOME:-$HOME/.cargo}
export RUSTFLAGS="--remap-path-prefix=$root=/hoyito --remap-path-prefix=$cargo_home=/cargo"
# A target directory of its own: other RUSTFLAGS would rebuild everything.
export CARGO_TARGET_DIR="$root/target/wasm-build"
cargo build -p hoyito-wasm --target wasm32-unknown-unknown --profile wasm --locked --quiet

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# wasm-opt runs before wasm-bindgen: Debian's wasm-opt mistypes the table of
# JavaScript references that wasm-bindgen adds.
wasm-opt -O3 --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/hoyito_wasm.wasm" -o "$tmp/hoyito_wasm.wasm"
wasm-bindgen --target web --no-typescript --out-dir "$tmp/out" "$tmp/hoyito_wasm.wasm"
cp "$tmp/out/hoyito_wasm_bg.wasm" "$tmp/out/hoyito_wasm.js" "$out/"
bash "$root/scripts/wasm-sources.sh" > "$out/SOURCES"
echo "build-wasm: $(wc -c < "$out/hoyito_wasm_bg.wasm") bytes ($(gzip -9n < "$out/hoyito_wasm_bg.wasm" | wc -c) gzipped) in $out"
