//! `drafti find INDEX`: select games, as pgn-extract does for chess — by tag, and by a
//! position, material signature or pattern reached at some ply — and write their original
//! text, a list of where each matched, or JSON; `--twins`: repeated games.

use crate::args::{parse_fen, JsonArg};
use crate::db_filters::{open_index, FilterArgs};
use crate::error::{report_written, CliError, CommandResult};
use crate::input::{open_inputs, EncodingArg};
use drafti_db::{
    find, text, twins, FoundGame, InGame, Index, InputFingerprint, MaterialQuery, Pattern,
    PositionQuery, TwinJson,
};
use drafti_pdn::GameSplitter;
use drafti_rules::Position;
use rayon::prelude::*;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "\
Material (--material): terms VAR OP VALUE that must all hold in one position. VAR is a side \
(w, b, x = either side, y = the other) and a kind (m men, k kings, p pieces, h men on the home \
row), or ply; OP is = != < <= > >=; VALUE is a number or VAR+N / VAR-N. Examples: \
'xk=3 xm=0 yk=1 ym=0' (three kings against one), 'ply>30 xp>=yp+1' (a piece up after ply 30).
Pattern (--pattern): 'W:c3,Kd4 B:e5 E:f4' (White man c3 and king d4, Black man e5, f4 empty).
--material, --pattern and --fen must hold in the same position. Exit code: 0 when a game is \
found, 1 when none is (with --twins: 1 when twins are found and not removed).")]
pub struct Args {
    /// The index (drafti index build).
    index: PathBuf,
    #[command(flatten)]
    filters: FilterArgs,
    /// A material signature reached at some ply (see below).
    #[arg(long, value_name = "QUERY")]
    material: Option<String>,
    /// Pieces on squares at some ply (see below).
    #[arg(long, value_name = "PATTERN")]
    pattern: Option<String>,
    /// A position (pieces and side to move) reached at some ply.
    #[arg(long, value_parser = parse_fen)]
    fen: Option<Position>,
    /// A list of the games found and where (file, number, players, result, ply, position)
    /// instead of their text.
    #[arg(long, conflicts_with = "json")]
    list: bool,
    #[command(flatten)]
    json: JsonArg,
    /// Stop after N games.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Repeated games: identical ones, and games that are the start of a longer one.
    #[arg(long, conflicts_with_all = ["material", "pattern", "fen"])]
    twins: bool,
    /// With --twins: write the archive's text without the twins (the first of identical
    /// games and the longer game are kept).
    #[arg(long, requires = "twins")]
    remove: bool,
    /// With --twins: games shorter than this are never twins (forfeits and quick draws
    /// coincide by chance).
    #[arg(long, value_name = "PLIES", default_value_t = 10, requires = "twins")]
    min_plies: u16,
    #[command(flatten)]
    encoding: EncodingArg,
}

fn query_error(flag: &str, text: &str, e: drafti_db::QueryError) -> CliError {
    CliError::new(format!(
        "{flag} '{text}': column {}: {}",
        e.column, e.message
    ))
}

pub fn run(args: Args) -> CommandResult {
    let (index, books) = open_index(&args.index)?;
    let filter = args.filters.resolve(&index, &books)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.twins {
        let found = twins(&index, &filter, args.min_plies)?;
        eprintln!(
            "{} twins: {} identical, {} contained in a longer game",
            found.len(),
            found
                .iter()
                .filter(|t| t.kind == drafti_db::TwinKind::Identical)
                .count(),
            found
                .iter()
                .filter(|t| t.kind == drafti_db::TwinKind::Contained)
                .count()
        );
        if args.remove {
            let drop: std::collections::HashSet<u64> = found.iter().map(|t| t.id).collect();
            let written = write_pdn(&index, &args.encoding, &mut out, |id| !drop.contains(&id))?;
            report_written(out.flush())?;
            eprintln!("{written} games written");
            return Ok(ExitCode::SUCCESS);
        }
        for t in &found {
            let line = TwinJson::of(&index, t)?;
            if args.json.json {
                serde_json::to_writer(&mut out, &line).map_err(|e| CliError::new(e.to_string()))?;
                writeln!(out)?;
            } else {
                text::write_twin(&mut out, &line)?;
            }
        }
        report_written(out.flush())?;
        return Ok(ExitCode::from(u8::from(!found.is_empty())));
    }
    let inside = InGame {
        material: args
            .material
            .as_deref()
            .map(|t| MaterialQuery::parse(t).map_err(|e| query_error("--material", t, e)))
            .transpose()?,
        pattern: args
            .pattern
            .as_deref()
            .map(|t| Pattern::parse(t).map_err(|e| query_error("--pattern", t, e)))
            .transpose()?,
        position: args.fen.map(|position| PositionQuery { position }),
    };
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut matches = Vec::new();
    let summary = find(&index, &filter, &inside, |m| {
        matches.push(m);
        (matches.len() as u64) < limit
    })?;
    if args.list || args.json.json {
        write_lines(&index, &matches, args.json.json, &mut out)?;
    } else {
        let ids: std::collections::HashSet<u64> = matches.iter().map(|m| m.id).collect();
        write_pdn(&index, &args.encoding, &mut out, |id| ids.contains(&id))?;
    }
    report_written(out.flush())?;
    eprintln!(
        "{} found of {} ({} passed the filters, {} skipped on their record, {} replayed)",
        if matches.len() == 1 {
            "1 game".to_string()
        } else {
            format!("{} games", matches.len())
        },
        summary.games,
        summary.filtered,
        summary.skipped,
        summary.replayed
    );
    Ok(ExitCode::from(u8::from(matches.is_empty())))
}

/// Writes a line (text or JSON) for each match, in order. The lines are made on every core,
/// a chunk of matches each, and written in order a batch of chunks at a time.
fn write_lines(
    index: &Index,
    matches: &[drafti_db::Match],
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    const CHUNK: usize = 2048;
    let line_of = |chunk: &[drafti_db::Match]| -> Result<Vec<u8>, CliError> {
        let mut buf = Vec::with_capacity(chunk.len() * 96);
        for m in chunk {
            let line = FoundGame::of(index, m)?;
            if json {
                serde_json::to_writer(&mut buf, &line).map_err(|e| CliError::new(e.to_string()))?;
                buf.push(b'\n');
            } else {
                text::write_found(&mut buf, &line)?;
            }
        }
        Ok(buf)
    };
    let chunks: Vec<&[drafti_db::Match]> = matches.chunks(CHUNK).collect();
    for batch in chunks.chunks(rayon::current_num_threads().max(1) * 4) {
        let made: Vec<Result<Vec<u8>, CliError>> =
            batch.par_iter().map(|chunk| line_of(chunk)).collect();
        for buf in made {
            out.write_all(&buf?)?;
        }
    }
    Ok(())
}

/// Writes the original text of the games `keep` takes, reading the archive the index was
/// built from (one pass, in order); returns how many. The archive must not have changed.
fn write_pdn(
    index: &Index,
    encoding: &EncodingArg,
    out: &mut impl Write,
    keep: impl Fn(u64) -> bool,
) -> Result<u64, CliError> {
    let meta = index.meta();
    if meta.inputs.iter().any(|i| i.name == "-") {
        return Err(CliError::new(format!(
            "{} was built from stdin: its games' text cannot be read again (use --list or --json)",
            index.path().display()
        )));
    }
    let names: Vec<String> = meta.inputs.iter().map(|i| i.name.clone()).collect();
    let opened = open_inputs(&names, *encoding)?;
    let mut id = 0u64;
    let mut written = 0u64;
    for (input, identity) in opened.inputs.into_iter().zip(&meta.inputs) {
        let fingerprint = InputFingerprint::default();
        let mut games = 0u64;
        for raw in GameSplitter::new(fingerprint.wrap(input.reader)) {
            let raw = raw.map_err(|e| CliError::new(format!("{}: {e}", identity.name)))?;
            games += 1;
            if keep(id) {
                let text = String::from_utf8_lossy(&raw.bytes);
                out.write_all(text.trim().as_bytes())?;
                out.write_all(b"\n\n")?;
                written += 1;
            }
            id += 1;
        }
        let (bytes, crc32) = fingerprint.finish();
        if games != identity.games || bytes != identity.bytes || crc32 != identity.crc32 {
            return Err(CliError::new(format!(
                "{}: changed since the index was built ({games} games now, {} then): rebuild the index",
                identity.name, identity.games
            )));
        }
    }
    Ok(written)
}
