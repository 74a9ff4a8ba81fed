//! Times perft from the start position.
//! `cargo run --release -p drafti-rules --example perft -- tz 11`
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]
use drafti_rules::{perft, Color, Position, Variant};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args
        .next()
        .unwrap_or_else(|| "tz".into())
        .parse()
        .unwrap_or_default();
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(9);
    let start = Instant::now();
    let n = perft(&Position::start(Color::White), variant, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{variant} perft({depth}) = {n} in {secs:.3} s, {:.1} M leaves/s",
        n as f64 / secs / 1e6
    );
}
