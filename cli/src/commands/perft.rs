//! `drafti perft`: count move sequences, with leaves per second.

use crate::common::{parse_fen, parse_variant, CommandResult};
use drafti_rules::{divide, perft, Color, Position, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Start position (default: the standard start, White to move).
    #[arg(long, value_parser = parse_fen)]
    fen: Option<Position>,
    /// Rules: tz (default), czech or russian.
    #[arg(long, default_value = "tz", value_parser = parse_variant)]
    variant: Variant,
    /// Number of plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Write square numbers (1-32) instead of algebraic names in --divide.
    #[arg(long)]
    numeric: bool,
}

pub fn run(args: Args) -> CommandResult {
    let pos = args.fen.unwrap_or(Position::start(Color::White));
    let start = Instant::now();
    let total = if args.divide {
        let parts = divide(&pos, args.variant, args.depth);
        let legal: Vec<_> = parts.iter().map(|(mv, _)| *mv).collect();
        for (mv, count) in &parts {
            println!("{:<12} {count}", mv.notation(&legal, args.numeric));
        }
        parts
            .iter()
            .map(|(_, n)| n)
            .sum::<u64>()
            .max(u64::from(args.depth == 0))
    } else {
        perft(&pos, args.variant, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft({}) = {total}", args.depth);
    println!(
        "time {secs:.3} s, {:.1} M leaves/s ({}, {})",
        total as f64 / secs.max(1e-9) / 1e6,
        args.variant,
        pos.to_fen()
    );
    Ok(ExitCode::SUCCESS)
}
