//! Any bytes: the reader must not panic, and every game it reads must survive the writer:
//! parsing the written text gives the same content, and writing again gives the same text.
#![no_main]
#![forbid(unsafe_code)]

use drafti_pdn::{parse_games, write_game, GameReader, WarningKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in GameReader::new(data).flatten() {
        let text = write_game(&game);
        let again = parse_games(text.as_bytes());
        if game
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::MovesNotRecorded)
        {
            continue;
        }
        if game.tags.is_empty() && game.moves.nodes.is_empty() && game.result.is_none() {
            continue;
        }
        assert_eq!(again.len(), 1, "one game written, one read back:\n{text}");
        let back = again
            .into_iter()
            .next()
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut sorted = game.clone();
        sorted.sort_tags();
        assert!(
            sorted.same_content(&back),
            "content changed:\n{text}\n{game:#?}\n{back:#?}"
        );
        assert_eq!(text, write_game(&back));
    }
});
