//! `drafti moves`: the legal moves of a position, as text or JSON Lines.

use crate::args::{JsonArg, NotationArg, PositionArgs};
use crate::error::{report_written, CommandResult};
use drafti_rules::Square;
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    numeric: NotationArg,
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
    let (position, numeric, json) = (
        args.position.position(),
        args.numeric.numeric,
        args.json.json,
    );
    let legal = position.legal_moves(args.position.variant());
    let name = |sq: Square| {
        if numeric {
            sq.number().to_string()
        } else {
            sq.to_string()
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write = || -> std::io::Result<()> {
        for mv in &legal {
            if json {
                let json = MoveJson {
                    notation: mv.notation(&legal, numeric),
                    full: mv.full_notation(numeric),
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
                writeln!(out, "{}", mv.notation(&legal, numeric))?;
            }
        }
        Ok(())
    };
    report_written(write())?;
    if legal.is_empty() && !json {
        eprintln!("no legal move: {} to move has lost", position.turn());
    }
    Ok(ExitCode::SUCCESS)
}
