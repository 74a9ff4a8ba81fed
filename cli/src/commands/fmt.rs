//! `drafti fmt`: records rewritten canonically through the replay — notation converted,
//! captures with `x`, the full path where the short form is ambiguous (PDN 3.0), move numbers
//! regular, tags in the standard order. A game that cannot be replayed is written unchanged
//! and reported on stderr (exit 1).

use crate::args::{InputArgs, NotationArg};
use crate::error::{exit_code, CliError, CommandResult};
use crate::runner::{run_archive, Output};
use drafti_archive::replay::{canonical_record, set_game_type, Notation};
use drafti_pdn::write_game_to;
use drafti_report::visible;
use std::io::Write;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    numeric: NotationArg,
    /// Algebraic squares (c3-d4). Without it or --numeric, each game keeps its notation.
    #[arg(long, conflicts_with = "numeric")]
    algebraic: bool,
    /// Write every landing square of every capture (c3xe5xg7), not only where needed.
    #[arg(long)]
    full_captures: bool,
}

struct Formatted {
    pdn: Vec<u8>,
    note: Option<String>,
}

pub fn run(args: Args) -> CommandResult {
    let notation = if args.numeric.numeric {
        Notation::Numeric
    } else if args.algebraic {
        Notation::Algebraic
    } else {
        Notation::Source
    };
    let full = args.full_captures;
    let variant = args.input.variant();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut first = true;
    let mut unchanged = 0u64;
    let run = run_archive(
        &args.input,
        None,
        Output::PerGame,
        |job| {
            let rewritten = job
                .game
                .as_ref()
                .ok()
                .and_then(|g| canonical_record(g, notation, full));
            match rewritten {
                Some(mut record) => {
                    // Under --variant, the file says which rules it was read by.
                    if let Some(variant) = variant {
                        set_game_type(&mut record, variant);
                    }
                    let mut text = String::with_capacity(job.raw.bytes.len() + 64);
                    write_game_to(&record, &mut text);
                    Formatted {
                        pdn: text.into_bytes(),
                        note: None,
                    }
                }
                None => {
                    let (span, why) = match &job.game {
                        Err(e) => (e.span, e.message.clone()),
                        Ok(g) => match g.errors().next() {
                            Some(p) => (p.span, p.message.clone()),
                            None => (g.record.span, "cannot be replayed".to_string()),
                        },
                    };
                    let bytes = trim(&job.raw.bytes).to_vec();
                    let mut pdn = bytes;
                    pdn.push(b'\n');
                    Formatted {
                        pdn,
                        note: Some(format!(
                            "{}:{}:{}: error: {} (game {} written unchanged)",
                            job.file,
                            span.line,
                            span.column,
                            visible(&why),
                            job.raw.index + 1
                        )),
                    }
                }
            }
        },
        |f: Formatted| -> std::io::Result<()> {
            if !first {
                out.write_all(b"\n")?;
            }
            first = false;
            out.write_all(&f.pdn)?;
            if let Some(note) = f.note {
                unchanged += 1;
                eprintln!("{note}");
            }
            Ok(())
        },
    )?;
    out.flush()
        .map_err(|e| CliError::writing("the records", &e))?;
    run.tell_variants();
    Ok(exit_code(unchanged > 0))
}

/// The bytes without leading and trailing whitespace.
fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}
