//! Writes the default opening book (`corpus/openings.tsv`) from the rules core: every
//! distinct position after 2, 3 and 4 plies from the start, with codes derived from the
//! moves.
//!
//! ```text
//! cargo run --release -p drafti-archive --example make_book > corpus/openings.tsv
//! ```
//!
//! With `--random-games N [--seed S] [--plies P]` it writes instead an archive of N random
//! Tanzanian games (uniformly random legal moves, 40 to 80 plies or until the game ends;
//! half of them Black-first; a random result unless the rules decided it), for measuring `drafti openings`:
//!
//! ```text
//! cargo run --release -p drafti-archive --example make_book -- --random-games 200000 --seed 1 > random.pdn
//! ```

use drafti_archive::openings::{Book, DEFAULT_BOOK_DEPTHS};
use drafti_rules::{Color, Game, Outcome, Position, Variant};
use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match value("--random-games") {
        None => out.write_all(Book::systematic_tsv(&DEFAULT_BOOK_DEPTHS).as_bytes())?,
        Some(games) => random_archive(
            &mut out,
            games,
            value("--seed").unwrap_or(1),
            value("--plies").unwrap_or(80) as usize,
        )?,
    }
    out.flush()
}

/// xorshift64*: small, fast, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_archive(
    out: &mut impl Write,
    games: u64,
    seed: u64,
    max_plies: usize,
) -> std::io::Result<()> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    for g in 0..games {
        let first = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut game = Game::new(Position::start(first), Variant::Tanzanian);
        let plies = max_plies / 2 + rng.below(max_plies / 2 + 1);
        let mut text = String::new();
        let mut line_len = 0;
        let mut result = results[rng.below(results.len())];
        for ply in 0..=plies {
            let pos = *game.position();
            match game.outcome() {
                Some(Outcome::Win(Color::White)) => result = "1-0",
                Some(Outcome::Win(Color::Black)) => result = "0-1",
                Some(Outcome::Draw(_)) => result = "1/2-1/2",
                None => {}
            }
            if game.outcome().is_some() || ply == plies {
                break;
            }
            let legal = pos.legal_moves(Variant::Tanzanian);
            let mv = legal[rng.below(legal.len())];
            let mut token = String::new();
            if ply & 1 == 0 {
                token.push_str(&format!("{}. ", ply / 2 + 1));
            }
            token.push_str(&mv.notation(&legal, false));
            if line_len + token.len() + 1 > 78 {
                text.push('\n');
                line_len = 0;
            } else if !text.is_empty() {
                text.push(' ');
                line_len += 1;
            }
            line_len += token.len();
            text.push_str(&token);
            game.play(&mv);
        }
        writeln!(
            out,
            "[Event \"random {g}\"]\n[Result \"{result}\"]\n\n{text} {result}\n"
        )?;
    }
    Ok(())
}
