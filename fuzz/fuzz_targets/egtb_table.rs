//! Any bytes as an endgame table file: its header read from the bytes, and the file opened
//! as a table in a folder of its own. A damaged file is an error naming it, never a panic
//! and never a table that answers.
#![no_main]

use drafti_engine::egtb::{file_name, Header, Signature, Tables};
use drafti_rules::Variant;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let _ = Header::from_bytes(data, Path::new("fuzz.egtb"));
    let Ok(dir) = tempfile::tempdir() else { return };
    let variant_dir = Tables::variant_dir(dir.path(), Variant::Tanzanian);
    if std::fs::create_dir_all(&variant_dir).is_err() {
        return;
    }
    let name = file_name(Signature::from_name("KvK").expect("a signature"));
    if std::fs::write(variant_dir.join(name), data).is_ok() {
        let _ = Tables::open(dir.path(), Variant::Tanzanian);
    }
});
