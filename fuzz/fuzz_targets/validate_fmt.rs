//! The whole validate path on any bytes, with `drafti fmt`'s rewrite: split, parse, replay
//! (a game read up to a syntax error too), and for every game that replays to its end the
//! canonical record. None of it may panic; the formatted text must read back as one game
//! that replays the same moves (valid if the original was valid), and formatting it again
//! must give the same text (idempotence).
#![no_main]
#![forbid(unsafe_code)]

use drafti_archive::replay::{canonical_record, replay, replay_partial, Notation, ReplayOptions};
use drafti_pdn::{parse_games, write_game, GameReader, ReadError};
use drafti_rules::Variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the rules (the tags may pick others).
    let (variant, data) = match data.split_first() {
        Some((b, rest)) => (
            match b % 4 {
                0 => None,
                1 => Some(Variant::Tanzanian),
                2 => Some(Variant::Czech),
                _ => Some(Variant::Russian),
            },
            rest,
        ),
        None => return,
    };
    let options = ReplayOptions {
        variant_override: variant,
        ..ReplayOptions::default()
    };
    for item in GameReader::new(data) {
        let record = match item {
            Ok(record) => record,
            Err(ReadError::Syntax(e)) => {
                if let Some(record) = e.record {
                    let _ = replay_partial(*record, &options);
                }
                continue;
            }
            Err(ReadError::Io(e)) => panic!("reading a slice failed: {e}"),
        };
        let game = replay(record, &options);
        for notation in [Notation::Source, Notation::Numeric] {
            let Ok(canonical) = canonical_record(&game, notation, false) else {
                continue;
            };
            let text = write_game(&canonical);
            let mut again = parse_games(text.as_bytes());
            assert_eq!(again.len(), 1, "one game written, one read back:\n{text}");
            let back = again.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let back = replay(back, &options);
            assert_eq!(back.moves, game.moves, "other moves:\n{text}");
            if game.is_valid() {
                assert!(
                    back.is_valid(),
                    "formatted game invalid: {:?}\n{text}",
                    back.problems
                );
            }
            let twice = canonical_record(&back, notation, false).expect("replays to its end");
            assert_eq!(write_game(&twice), text, "not idempotent");
        }
    }
});
