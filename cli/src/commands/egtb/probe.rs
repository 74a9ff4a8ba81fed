//! `drafti egtb probe`: a position's exact value, its best move, the line to the end and
//! every move's value, as text or one JSON object.

use super::{open, ProbeArgs};
use crate::error::{report_written, CliError, CommandResult};
use drafti_engine::egtb::{self, EgtbError, Value};
use drafti_rules::numbered_line;
use serde::Serialize;
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    value: String,
    result: &'static str,
    distance: Option<u32>,
}

#[derive(Serialize)]
struct ProbeJson {
    fen: String,
    variant: String,
    tables: String,
    signature: String,
    king_count: Option<u32>,
    value: String,
    result: &'static str,
    distance: Option<u32>,
    best: Option<String>,
    line: Vec<String>,
    moves: Vec<MoveJson>,
    /// Law 3's claim, when the side to move may make it.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim: Option<ClaimJson>,
}

#[derive(Serialize)]
struct ClaimJson {
    value: String,
    result: &'static str,
    distance: Option<u32>,
    /// Whether the claim is better than every move (then `best` is the claim).
    best: bool,
}

fn result_word(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    }
}

pub(super) fn probe(args: ProbeArgs) -> CommandResult {
    let tables = open(&args.dir, args.position.variant())?;
    let pos = args.position.position();
    // A table missing after a move is an error naming it, never "the game is over".
    let report = tables
        .report(&pos, args.king_count.king_count)
        .map_err(|e| match e {
            EgtbError::MissingTable(s) => CliError::new(format!(
                "cannot probe {}: the table {s} is needed but missing ({})",
                pos.to_fen(),
                tables.dir().join(egtb::file_name(s)).display()
            )),
            e => CliError::new(format!("cannot probe {}: {e}", pos.to_fen())),
        })?;
    let Some(egtb::ProbeReport {
        signature: sig,
        value,
        moves,
        line,
        claim,
    }) = report
    else {
        return Err(CliError::new(format!(
            "no table for {} ({}) in {} (they have at most {} pieces)",
            pos.to_fen(),
            egtb::Signature::of(&pos),
            tables.dir().display(),
            tables.max_pieces()
        )));
    };
    let variant = args.position.variant();
    let names = |mv: &drafti_rules::Move| {
        pos.line_notation(variant, std::slice::from_ref(mv), args.numeric.numeric)
            .remove(0)
    };
    let line_text = pos.line_notation(variant, &line, args.numeric.numeric);
    let side = pos.turn();
    // The claim is the best option when no move is as good.
    let claim_best = claim.filter(|c| moves.first().is_none_or(|(_, v)| c.rank() > v.rank()));
    let mut out = io::stdout().lock();
    if args.json.json {
        let json = ProbeJson {
            fen: pos.to_fen(),
            variant: variant.name().into(),
            tables: tables.dir().display().to_string(),
            signature: sig.name(),
            king_count: args.king_count.king_count,
            value: value.to_string(),
            result: result_word(value),
            distance: value.distance(),
            // `null` too where law 3's claim beats every move (`claim.best`): it is no move.
            best: line.first().map(names),
            line: line_text,
            moves: moves
                .iter()
                .map(|(mv, v)| MoveJson {
                    mv: names(mv),
                    value: v.to_string(),
                    result: result_word(*v),
                    distance: v.distance(),
                })
                .collect(),
            claim: claim.map(|c| ClaimJson {
                value: c.to_string(),
                result: result_word(c),
                distance: c.distance(),
                best: claim_best.is_some(),
            }),
        };
        report_written(writeln!(out, "{}", serde_json::to_string(&json)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let verdict = match value {
        Value::Win(d) => format!("{side} to move wins in {d} plies"),
        Value::Loss(d) => format!("{side} to move loses in {d} plies"),
        Value::Draw => format!("a draw with best play ({side} to move)"),
    };
    let mut write = || -> io::Result<()> {
        writeln!(out, "table  {sig} in {}", tables.dir().display())?;
        writeln!(out, "value  {value}: {verdict}")?;
        match (claim_best, line.first()) {
            (Some(_), _) => writeln!(
                out,
                "best   claim law 3: crown the man, law 2's count from 0 ({side} still to move)"
            )?,
            (None, Some(best)) => writeln!(out, "best   {}", names(best))?,
            (None, None) => writeln!(out, "best   none: the game is over")?,
        }
        if !line.is_empty() {
            let more = if value == Value::Draw { " …" } else { "" };
            writeln!(out, "line   {}{more}", numbered_line(side, &line_text))?;
        }
        if let Some(c) = claim {
            writeln!(out, "claim  law 3 (crown the man, count from 0): {c}")?;
        }
        if !moves.is_empty() {
            writeln!(out, "moves")?;
            for (mv, v) in &moves {
                writeln!(out, "  {:<12} {v}", names(mv))?;
            }
        }
        Ok(())
    };
    report_written(write())?;
    Ok(ExitCode::SUCCESS)
}
