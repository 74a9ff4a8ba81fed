//! What `drafti match` adds to drafti-hub's runner: openings read from a file (FEN lines, or
//! PDN games replayed by the analyzer) and the played games as PDN records, with the
//! players' evaluations as comments.

use drafti_archive::replay::{replay, ReplayOptions};
use drafti_hub::{openings, Opening, PlayedGame};
use drafti_pdn::{Comment, GameRecord, GameResult, Tag};
use drafti_rules::{Color, Position, Variant};

/// The openings of a file: one FEN per line (drafti-hub reads them: a bad line is an error
/// naming it, a position whose game is over is skipped with a note), or else the games of a
/// PDN file (their start and mainline moves; games that do not replay, or are over, are
/// skipped and counted in a note). Notes are for stderr.
pub fn openings_from_file(
    text: &str,
    variant: Variant,
) -> Result<(Vec<Opening>, Vec<String>), String> {
    if openings::is_fen_file(text) {
        let (list, skipped) = openings::fen_openings(text, variant).map_err(|e| e.to_string())?;
        let notes = skipped
            .into_iter()
            .map(|s| format!("line {}: {}: skipped", s.line, s.reason))
            .collect();
        return Ok((list, notes));
    }
    let options = ReplayOptions {
        variant_override: Some(variant),
        variations: false,
        ..ReplayOptions::default()
    };
    let mut openings = Vec::new();
    let mut skipped = 0;
    for record in drafti_pdn::parse_games(text.as_bytes()) {
        let Ok(record) = record else {
            skipped += 1;
            continue;
        };
        let game = replay(record, &options);
        if !game.is_valid() || game.outcome.is_some() {
            skipped += 1;
            continue;
        }
        openings.push(Opening {
            start: game.start,
            moves: game.moves,
        });
    }
    if openings.is_empty() {
        return Err("no opening in it (expected FEN lines or PDN games that replay)".to_string());
    }
    let notes = (skipped > 0)
        .then(|| format!("{skipped} games skipped (not valid, or already over)"))
        .into_iter()
        .collect();
    Ok((openings, notes))
}

/// The PDN result of a game.
pub fn result(played: &PlayedGame) -> GameResult {
    match played.winner() {
        Some(Color::White) => GameResult::WhiteWin,
        Some(Color::Black) => GameResult::BlackWin,
        None => GameResult::Draw,
    }
}

/// The game as a PDN record: tags Event (`event`), Round, White, Black, Result, Termination,
/// PlyCount, GameType (or Variant), SetUp and FEN from a set-up start; the players'
/// evaluations as comments; squares as numbers if `numeric`.
pub fn record(played: &PlayedGame, variant: Variant, numeric: bool, event: &str) -> GameRecord {
    let result = result(played);
    let mut nodes =
        drafti_analysis::selfplay::mainline(&played.start, variant, &played.moves, numeric);
    for (node, comment) in nodes.iter_mut().zip(played.comments()) {
        if let Some(text) = comment {
            node.comments.push(Comment {
                text,
                span: Default::default(),
            });
        }
    }
    let [white, black] = played.names.clone();
    let mut tags = vec![
        Tag::new("Event", event),
        Tag::new("Round", (played.index + 1).to_string()),
        Tag::new("White", white),
        Tag::new("Black", black),
        Tag::new("Result", result.as_str()),
        Tag::new("Termination", played.termination.to_string()),
        Tag::new("PlyCount", played.moves.len().to_string()),
    ];
    let (name, value) = variant.pdn_tag();
    tags.push(Tag::new(name, value));
    if played.start != Position::start(Color::White) {
        tags.push(Tag::new("SetUp", "1"));
        tags.push(Tag::new("FEN", played.start.to_fen()));
    }
    GameRecord::new(tags, nodes, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_files() {
        let (fens, notes) = openings_from_file(
            "# two\nW:W21-32:B1-12\n\nB:W21-32:B1-12\nB:W21:B\n",
            Variant::Tanzanian,
        )
        .unwrap();
        assert_eq!(fens.len(), 2);
        assert_eq!(fens[1].start.turn(), Color::Black);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].starts_with("line 5: the game is already over"),
            "{notes:?}"
        );
        let bad = openings_from_file("W:W21-32:B1-12\nW:W21-32:B1-99\n", Variant::Tanzanian);
        assert!(bad.unwrap_err().starts_with("line 2: "));
        let pdn = "[Event \"a\"]\n1. c3-d4 f6-e5 *\n\n[Event \"b\"]\n1. c3-c5 *\n";
        let (games, notes) = openings_from_file(pdn, Variant::Tanzanian).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(notes, ["1 games skipped (not valid, or already over)"]);
        assert_eq!(games[0].moves.len(), 2);
        assert!(openings_from_file("nothing here", Variant::Tanzanian).is_err());
    }
}
