#!/usr/bin/env bash
# Builds the WebAssembly module wasm/dist/drafti.wasm (drafti's rules and engine for a web
# page; the HTML report embeds it) from the wasm/ crate, installing the target it needs.
#   scripts/build-wasm.sh           build it and write wasm/dist/drafti.wasm
#   scripts/build-wasm.sh --check   build it afresh and fail unless it equals the committed
#                                   module byte for byte (CI: the module is never stale)
# Paths are remapped so that the bytes do not depend on where the tree or cargo's registry
# lie; the same toolchain gives the same module.
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: scripts/build-wasm.sh [--check]" >&2; exit 2 ;;
esac
target=wasm32-unknown-unknown
if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# Separated by the unit separator, as cargo reads CARGO_ENCODED_RUSTFLAGS (paths may hold spaces).
export CARGO_ENCODED_RUSTFLAGS="--remap-path-prefix=$PWD=/drafti"$'\x1f'"--remap-path-prefix=$cargo_home=/cargo"
nice -n 10 cargo build --quiet --locked --profile wasm --target "$target" -p drafti-wasm
built="${CARGO_TARGET_DIR:-target}/$target/wasm/drafti_wasm.wasm"
if $check; then
    if ! cmp -s "$built" wasm/dist/drafti.wasm; then
        echo "wasm/dist/drafti.wasm is not the module this tree builds ($(wc -c <"$built") bytes" \
            "built, $(wc -c <wasm/dist/drafti.wasm) committed): run scripts/build-wasm.sh and" \
            "commit it" >&2
        exit 1
    fi
    echo "wasm/dist/drafti.wasm: $(wc -c <"$built") bytes, the same as a fresh build"
else
    cp "$built" wasm/dist/drafti.wasm
    echo "wasm/dist/drafti.wasm: $(wc -c <wasm/dist/drafti.wasm) bytes"
fi
