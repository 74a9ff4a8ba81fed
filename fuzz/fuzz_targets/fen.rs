//! Any text as a FEN: the reader must not panic; a position it accepts writes back to a FEN
//! that reads as the same position, and writing is idempotent.
#![no_main]
#![forbid(unsafe_code)]

use drafti_rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back, pos, "{text:?} -> {fen}");
        assert_eq!(back.to_fen(), fen);
    }
});
