//! Any bytes as TzDraft JSON for `drafti import tzdraft` (`drafti_archive::import::tzdraft`):
//! read to the end or refused with an error, never a panic; every game it imports writes PDN
//! that reads back as one game, replays with the same moves, and is valid when the import
//! found the game valid.
#![no_main]
#![forbid(unsafe_code)]

use drafti_archive::import::tzdraft::import;
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_archive::validation::Validated;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions::default();
    let _ = import("fuzz.json", data, &options, |imported| {
        if let Validated::Game(game) = imported.game {
            let text = drafti_pdn::write_game(&game.record);
            let mut again = drafti_pdn::parse_games(text.as_bytes());
            assert_eq!(again.len(), 1, "{text}");
            let record = again.remove(0).expect("the written PDN parses");
            let replayed = replay(record, &options);
            assert_eq!(replayed.moves, game.moves, "{text}");
            if game.is_valid() {
                assert!(replayed.is_valid(), "{text}\n{:?}", replayed.problems);
            }
        }
        Ok(())
    });
});
