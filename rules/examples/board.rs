//! Prints the legal moves and the board of a position given as a FEN.
//! `cargo run -p drafti-rules --example board -- "W:W21-32:B1-12"`
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]
use drafti_rules::{Position, Variant};

fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "W:W21-32:B1-12".to_string());
    match Position::from_fen(&fen) {
        Ok(pos) => {
            print!("{}", pos.board_text());
            let legal = pos.legal_moves(Variant::Tanzanian);
            for mv in &legal {
                println!("{}", mv.notation(&legal, false));
            }
        }
        Err(e) => eprintln!("{e}"),
    }
}
