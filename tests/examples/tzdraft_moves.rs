//! The moves of PDN games (stdin) as TzDraft writes them: one JSON line per game,
//! `{"result": "1-0", "moves": [...]}`, each move `{moveNumber, player, fromSquare,
//! toSquare, capturedSquares, isPromotion, notation, engineEval}` with TzDraft's square
//! numbers and, as the engine's evaluation, the material balance from White's side (a man
//! 100, a king 300). The fixtures of `tests/fixtures/tzdraft/` were made with it from
//! `drafti selfplay` games (see `tests/fixtures/tzdraft/make.py`):
//!
//! ```text
//! drafti selfplay --games 8 --seed 7 --depth 4 | cargo run -p drafti-tests --example tzdraft_moves
//! ```
#![allow(clippy::print_stdout)]

use drafti_archive::import::tzdraft::tzdraft_move;
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_rules::{Color, Position};
use std::io::Read;

fn material(pos: &Position) -> i64 {
    let side = |c: Color| {
        let kings = pos.kings(c).count() as i64;
        let pieces = pos.pieces(c).count() as i64;
        (pieces - kings) * 100 + kings * 300
    };
    side(Color::White) - side(Color::Black)
}

fn main() {
    let mut text = Vec::new();
    std::io::stdin()
        .read_to_end(&mut text)
        .expect("PDN on stdin");
    for record in drafti_pdn::parse_games(&text) {
        let game = replay(record.expect("a game"), &ReplayOptions::default());
        assert!(game.is_valid(), "a valid game");
        let moves: Vec<serde_json::Value> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let before = &game.positions[i];
                let mut m = tzdraft_move(mv, before.turn(), i + 1);
                m.engine_eval = Some(material(&game.positions[i + 1]));
                serde_json::to_value(m).expect("a move")
            })
            .collect();
        let result = game.played_result().map_or("*", |r| r.as_str());
        println!(
            "{}",
            serde_json::json!({ "result": result, "moves": moves })
        );
    }
}
