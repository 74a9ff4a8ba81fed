//! `drafti moves`: the legal moves of a position, as text or JSON Lines.

use crate::args::{parse_fen, parse_variant};
use crate::error::{report_written, CommandResult};
use drafti_rules::{Position, Square, Variant};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The position.
    #[arg(long, value_parser = parse_fen)]
    fen: Position,
    /// Rules: tz (default), czech or russian.
    #[arg(long, default_value = "tz", value_parser = parse_variant)]
    variant: Variant,
    /// JSON Lines: one object per legal move.
    #[arg(long)]
    json: bool,
    /// Square numbers (1-32) instead of algebraic names.
    #[arg(long)]
    numeric: bool,
}

/// One legal move, as `--json` prints it.
#[derive(Serialize)]
struct MoveJson {
    notation: String,
    full: String,
    from: String,
    to: String,
    path: Vec<String>,
    captures: Vec<String>,
    promotes: bool,
}

pub fn run(args: Args) -> CommandResult {
    let legal = args.fen.legal_moves(args.variant);
    let name = |sq: Square| {
        if args.numeric {
            sq.number().to_string()
        } else {
            sq.to_string()
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write = || -> std::io::Result<()> {
        for mv in &legal {
            if args.json {
                let json = MoveJson {
                    notation: mv.notation(&legal, args.numeric),
                    full: mv.full_notation(args.numeric),
                    from: name(mv.from()),
                    to: name(mv.to()),
                    path: mv.path().map(name).collect(),
                    captures: mv.captures().map(name).collect(),
                    promotes: mv.promotes(),
                };
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&json).map_err(std::io::Error::other)?
                )?;
            } else {
                writeln!(out, "{}", mv.notation(&legal, args.numeric))?;
            }
        }
        Ok(())
    };
    report_written(write())?;
    if legal.is_empty() && !args.json {
        eprintln!("no legal move: {} to move has lost", args.fen.turn());
    }
    Ok(ExitCode::SUCCESS)
}
