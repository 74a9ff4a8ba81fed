//! `drafti perft`: count move sequences, with leaves per second.

use crate::args::{NotationArg, PositionArgs};
use crate::error::{report_written, CommandResult};
use drafti_rules::{divide, perft};
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
#[command(mut_arg("fen", |a| a.required(false).help("The position (FEN, numeric or algebraic squares; default: the start, White to move)")))]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Number of plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    numeric: NotationArg,
}

pub fn run(args: Args) -> CommandResult {
    let (pos, variant) = (args.position.position(), args.position.variant());
    let start = Instant::now();
    let mut text = String::new();
    let total = if args.divide {
        let parts = divide(&pos, variant, args.depth);
        let legal: Vec<_> = parts.iter().map(|(mv, _)| *mv).collect();
        for (mv, count) in &parts {
            let _ = writeln!(
                text,
                "{:<12} {count}",
                mv.notation(&legal, args.numeric.numeric)
            );
        }
        parts
            .iter()
            .map(|(_, n)| n)
            .sum::<u64>()
            .max(u64::from(args.depth == 0))
    } else {
        perft(&pos, variant, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(text, "perft({}) = {total}", args.depth);
    let _ = writeln!(
        text,
        "time {secs:.3} s, {:.1} M leaves/s ({}, {})",
        total as f64 / secs.max(1e-9) / 1e6,
        variant,
        pos.to_fen()
    );
    let mut out = std::io::stdout().lock();
    report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    Ok(ExitCode::SUCCESS)
}
