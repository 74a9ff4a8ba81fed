//! Writes the benchmark's archive to stdout: N copies (default 100,000) of the game in
//! `benches/game_template.pdn`, each with its own round number.
//!
//! ```text
//! cargo run --release -p drafti-pdn --example gen_archive -- 100000 > /tmp/bench100k.pdn
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::io::{self, BufWriter, Write};

const TEMPLATE: &str = include_str!("../benches/game_template.pdn");

fn main() -> io::Result<()> {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for i in 0..games {
        out.write_all(TEMPLATE.replace("ROUND", &(i + 1).to_string()).as_bytes())?;
    }
    out.flush()
}
