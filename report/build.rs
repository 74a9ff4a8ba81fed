//! Compresses the WebAssembly module that the HTML report embeds (`wasm/dist/drafti.wasm`,
//! built by `scripts/build-wasm.sh`): raw DEFLATE, then base64, written to `OUT_DIR` once per
//! build; the page inflates it with the browser's own `DecompressionStream`.

use base64::Engine as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let module = manifest.join("../wasm/dist/drafti.wasm");
    println!("cargo::rerun-if-changed={}", module.display());
    let bytes = std::fs::read(&module).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (scripts/build-wasm.sh builds it)",
            module.display()
        )
    });
    // Level 10 of miniz: the smallest output, the same bytes for the same input.
    let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 10);
    let text = base64::engine::general_purpose::STANDARD.encode(packed);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("drafti.wasm.deflate.b64"), text).expect("OUT_DIR is writable");
}
