//! `drafti show`: a position as a text board, and optionally an SVG diagram.

use crate::common::{parse_fen, report_written, CommandResult};
use crate::svg;
use drafti_rules::Position;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The position (FEN, numeric or algebraic squares).
    #[arg(value_parser = parse_fen)]
    fen: Position,
    /// Also write an SVG board diagram with square names to this file.
    #[arg(long, value_name = "OUT")]
    svg: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> CommandResult {
    let text = format!(
        "{}{} to move   {}\n",
        args.fen.board_text(),
        args.fen.turn(),
        args.fen.to_fen()
    );
    let mut out = std::io::stdout().lock();
    report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    if let Some(path) = args.svg {
        let mut doc = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        doc.push_str(&svg::board(&args.fen, &[]));
        doc.push('\n');
        std::fs::write(&path, doc).map_err(|e| {
            crate::common::CliError(format!("cannot write {}: {e}", path.display()))
        })?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
