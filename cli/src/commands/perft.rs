//! `drafti perft`: count move sequences, with leaves per second.

use crate::args::{parse_fen, parse_variant};
use crate::error::{report_written, CommandResult};
use drafti_rules::{divide, perft, Color, Position, Variant};
use std::fmt::Write as _;
use std::io::Write;
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
    let mut text = String::new();
    let total = if args.divide {
        let parts = divide(&pos, args.variant, args.depth);
        let legal: Vec<_> = parts.iter().map(|(mv, _)| *mv).collect();
        for (mv, count) in &parts {
            let _ = writeln!(text, "{:<12} {count}", mv.notation(&legal, args.numeric));
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
    let _ = writeln!(text, "perft({}) = {total}", args.depth);
    let _ = writeln!(
        text,
        "time {secs:.3} s, {:.1} M leaves/s ({}, {})",
        total as f64 / secs.max(1e-9) / 1e6,
        args.variant,
        pos.to_fen()
    );
    let mut out = std::io::stdout().lock();
    report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    Ok(ExitCode::SUCCESS)
}
