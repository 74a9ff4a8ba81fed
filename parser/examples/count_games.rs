//! Counts the games in PDN files (or stdin), the games with syntax errors, the moves and the
//! warnings, reading in constant memory. Prints the first few errors.
//!
//! ```text
//! cargo run --release -p drafti-pdn --example count_games -- FILE...
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::fs::File;
use std::io::{self, BufReader};
use std::process::ExitCode;

use drafti_pdn::{GameReader, ReadError};

// The allocator of the drafti binary; the parser allocates a few small values per move.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let mut status = ExitCode::SUCCESS;
    if paths.is_empty() {
        count("-", GameReader::new(io::stdin().lock()));
    }
    for path in &paths {
        match File::open(path) {
            Ok(file) => count(
                path,
                GameReader::new(BufReader::with_capacity(1 << 16, file)),
            ),
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::from(2);
            }
        }
    }
    status
}

fn count<R: io::BufRead>(name: &str, reader: GameReader<R>) {
    let (mut games, mut errors, mut moves, mut warnings) = (0usize, 0usize, 0usize, 0usize);
    for item in reader {
        match item {
            Ok(game) => {
                games += 1;
                moves += game.moves.nodes.len();
                warnings += game.warnings.len();
            }
            Err(ReadError::Syntax(e)) => {
                errors += 1;
                if errors <= 5 {
                    eprintln!("{name}: {e}");
                }
            }
            Err(ReadError::Io(e)) => {
                eprintln!("{name}: {e}");
                break;
            }
        }
    }
    println!(
        "{name}: {games} games, {errors} with errors, {moves} mainline moves, {warnings} warnings"
    );
}
