#!/usr/bin/env bash
# The Python package as a user gets it: a manylinux abi3 wheel (glibc 2.17, every CPython
# from 3.9) built once with maturin, linked by zig (PyPI's `ziglang`) so it runs on old
# Linux systems; auditwheel shows what it needs; it is installed into a fresh virtual
# environment whose PATH has no Rust toolchain, and the Python tests run against that
# install (not the source folder).
#
# Run with the repository's virtual environment (maturin, ziglang, auditwheel installed)
# activated, or named by PYTHON=.venv/bin/python; the tests compare with target/ci/drafti
# (built here if needed) or the binary DRAFTI_BIN names:
#   bash python/ci-wheel.sh            # build, install, test
#   bash python/ci-wheel.sh --build    # only build: dist/wheel/drafti-*.whl
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
out=dist/wheel
# The interpreter's folder first on PATH, so the script also runs from outside an activated
# environment (PYTHON=.venv/bin/python): maturin runs zig as `python3 -m ziglang`.
PATH="$("$python" -c 'import os, sys; print(os.path.dirname(sys.executable))'):$PATH"
rm -rf "$out"
# The workspace's target folder: the library crates are not compiled twice by the next run.
CARGO_TARGET_DIR=$PWD/target "$python" -m maturin build --quiet --zig \
    --compatibility manylinux2014 -m python/Cargo.toml --out "$out"
wheel=$(ls "$out"/drafti-*.whl)
case "$wheel" in
    # The two names of the same tag, in the order maturin writes them.
    *-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl) ;;
    *-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl) ;;
    *) echo "not a manylinux2014 abi3 wheel: $wheel" >&2; exit 1 ;;
esac
"$python" -m auditwheel show "$wheel"
if [ "${1:-}" = --build ]; then
    exit 0
fi

# The binary the tests compare with, while cargo is still on PATH (a no-op after the
# workspace's `cargo test --profile ci`, which builds it).
if [ -z "${DRAFTI_BIN:-}" ]; then
    cargo build --quiet --profile ci -p drafti
fi

# A fresh environment, and a PATH without cargo or rustc: pip can only install the wheel.
rm -rf .venv-wheel
"$python" -m venv .venv-wheel
plain=(env -u CARGO_HOME -u RUSTUP_HOME -u CARGO_TARGET_DIR PATH=/usr/bin:/bin)
"${plain[@]}" .venv-wheel/bin/python -m pip install --quiet --disable-pip-version-check \
    --only-binary=:all: "$wheel" pytest pandas pyarrow duckdb
"${plain[@]}" .venv-wheel/bin/python - <<'PY'
import shutil, sys
import drafti
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "a Rust toolchain is on PATH"
assert drafti.__file__.startswith(sys.prefix), f"drafti imported from {drafti.__file__}"
print(f"drafti {drafti.__version__} installed from the wheel: {drafti.__file__}")
PY
# The tests compare with the drafti binary the workspace's tests built.
"${plain[@]}" DRAFTI_BIN="${DRAFTI_BIN:-$PWD/target/ci/drafti}" \
    .venv-wheel/bin/python -m pytest -q python/tests
