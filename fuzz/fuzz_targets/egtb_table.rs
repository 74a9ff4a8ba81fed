//! Any bytes as an endgame table file: its header read from the bytes, and the file opened
//! as a table in a folder of its own. A damaged file is an error naming it, never a panic
//! and never a table that answers. The bytes are opened a second time with their checksum
//! made right, so the header's checks and the probes behind them are fuzzed too (few
//! mutations keep a CRC-32 right by chance).
#![no_main]
#![forbid(unsafe_code)]

use drafti_engine::egtb::{file_name, Header, Signature, Tables};
use drafti_rules::{Position, Variant};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let _ = Header::from_bytes(data, Path::new("fuzz.egtb"));
    let Ok(dir) = tempfile::tempdir() else { return };
    let variant_dir = Tables::variant_dir(dir.path(), Variant::Tanzanian);
    if std::fs::create_dir_all(&variant_dir).is_err() {
        return;
    }
    let path = variant_dir.join(file_name(Signature::from_name("KvK").expect("a signature")));
    if std::fs::write(&path, data).is_ok() {
        let _ = Tables::open(dir.path(), Variant::Tanzanian);
    }
    // The checksum (bytes 60..64) of the header's first 60 bytes and the payload.
    if data.len() < 64 {
        return;
    }
    let mut fixed = data.to_vec();
    let mut crc = crc32fast::Hasher::new();
    crc.update(&data[..60]);
    crc.update(&data[64..]);
    fixed[60..64].copy_from_slice(&crc.finalize().to_le_bytes());
    if std::fs::write(&path, &fixed).is_err() {
        return;
    }
    let Ok(tables) = Tables::open(dir.path(), Variant::Tanzanian) else {
        return;
    };
    let _ = tables.infos();
    for fen in ["W:WK1:BK30", "B:WK1:BK30", "W:WK29:BK4", "B:WK5:BK32"] {
        let pos = Position::from_fen(fen).expect("a position");
        let _ = tables.probe(&pos, None);
        let _ = tables.report(&pos, None);
    }
});
