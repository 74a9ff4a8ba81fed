//! `drafti validate`: every game of every file replayed through the rules; problems reported
//! like a compiler's (or as JSON Lines), a summary on stderr, exit 1 if any game is invalid.

use crate::common::{
    parse_variant, report_written, thousands, warn_empty_inputs, CliError, CommandResult,
};
use crate::input::{open_inputs, EncodingArg};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, GameJob, Shard};
use drafti_archive::replay::{replay_partial, Problem, ReplayOptions, Severity};
use drafti_pdn::{ParseError, RawGame, Span, Tag};
use drafti_rules::{Position, Variant};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// PDN files; `-` or none reads stdin.
    files: Vec<String>,
    #[command(flatten)]
    encoding: EncodingArg,
    /// Rules for every game, whatever its GameType/Variant tags say: tz, czech or russian.
    #[arg(long, value_parser = parse_variant)]
    variant: Option<Variant>,
    /// JSON Lines on stdout: one object per game.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core; 1 runs everything on one thread).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::common::parse_jobs)]
    jobs: usize,
    /// Only every N-th game from the K-th (K = 1..N), counted across the files: run N
    /// copies with K = 1..N to split an archive across machines.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Do not print warnings (human output only; they are still counted).
    #[arg(long)]
    no_warnings: bool,
}

/// What the workers hand back for one game.
struct Report {
    text: String,
    valid: bool,
    warnings: u64,
    plies: u64,
}

/// The tags as a JSON object, in the order written (a repeated name keeps its first value).
struct TagMap<'a>(&'a [Tag]);

impl Serialize for TagMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        // A set, not a scan of the names seen: a record of 200,000 tags took minutes.
        let mut seen: std::collections::HashSet<&str> =
            std::collections::HashSet::with_capacity(self.0.len());
        for tag in self.0 {
            if seen.insert(&tag.name) {
                map.serialize_entry(&tag.name, &tag.value)?;
            }
        }
        map.end()
    }
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    line: u32,
    column: u32,
    ply: Option<usize>,
    #[serde(rename = "move")]
    move_text: Option<&'a str>,
    kind: &'static str,
    message: &'a str,
    fen: Option<&'a str>,
    legal: &'a [String],
    in_variation: bool,
}

impl<'a> ProblemJson<'a> {
    fn new(p: &'a Problem) -> Self {
        ProblemJson {
            line: p.span.line,
            column: p.span.column,
            ply: p.ply,
            move_text: p.move_text.as_deref(),
            kind: p.kind.as_str(),
            message: &p.message,
            fen: p.fen.as_deref(),
            legal: &p.legal,
            in_variation: p.in_variation,
        }
    }
}

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    index: usize,
    line: u32,
    tags: TagMap<'a>,
    variant: Option<&'static str>,
    plies: usize,
    result: Option<&'static str>,
    status: &'static str,
    errors: Vec<ProblemJson<'a>>,
    warnings: Vec<ProblemJson<'a>>,
}

/// Characters of the source line shown before and after the token in an excerpt; a longer
/// line (games run together on one line) is cut to this with `…`.
const EXCERPT_CONTEXT: usize = 120;

/// The source line holding `span`, with a caret line under the token.
pub fn source_excerpt(raw: &RawGame, span: Span) -> String {
    let bytes = &raw.bytes;
    let Some(at) = span.offset.checked_sub(raw.offset) else {
        return String::new();
    };
    let at = at.min(bytes.len());
    let line_end = |b: &u8| *b == b'\n' || *b == b'\r';
    let start = bytes[..at].iter().rposition(line_end).map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(line_end)
        .map_or(bytes.len(), |i| at + i);
    let token_end = (at + span.len).min(end);
    let text =
        |range: std::ops::Range<usize>| String::from_utf8_lossy(&bytes[range]).replace('\t', " ");
    let (before, token, after) = (text(start..at), text(at..token_end), text(token_end..end));
    if before.trim().is_empty() && token.trim().is_empty() && after.trim().is_empty() {
        return String::new();
    }
    let before = keep_chars(&before, EXCERPT_CONTEXT, false);
    let token = keep_chars(&token, 2 * EXCERPT_CONTEXT, true);
    let after = keep_chars(after.trim_end(), EXCERPT_CONTEXT, true);
    let width = span.line.to_string().len();
    let pad = before.chars().count();
    let carets = token.chars().count().max(1);
    let mut out = String::new();
    let _ = writeln!(out, "{:width$} |", "");
    let _ = writeln!(out, "{} | {before}{token}{after}", span.line);
    let _ = writeln!(
        out,
        "{:width$} | {}{}",
        "",
        " ".repeat(pad),
        "^".repeat(carets)
    );
    out
}

/// `text` cut to its first (`head`) or last `n` characters, with `…` where it was cut.
fn keep_chars(text: &str, n: usize, head: bool) -> String {
    let count = text.chars().count();
    if count <= n {
        return text.to_string();
    }
    if head {
        let mut cut: String = text.chars().take(n).collect();
        cut.push('…');
        cut
    } else {
        let mut cut = String::from("…");
        cut.extend(text.chars().skip(count - n));
        cut
    }
}

fn game_label(tags: &[Tag], index: usize) -> String {
    let get = |n: &str| {
        tags.iter()
            .find(|t| t.name.eq_ignore_ascii_case(n))
            .map(|t| t.value.trim())
            .filter(|v| !v.is_empty() && *v != "?")
    };
    match (get("White"), get("Black")) {
        (Some(w), Some(b)) => format!("game {} ({w} - {b})", index + 1),
        _ => format!("game {}", index + 1),
    }
}

fn human_problem(out: &mut String, file: &str, raw: &RawGame, label: &str, p: &Problem) {
    let severity = match p.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(
        out,
        "{file}:{}:{}: {severity}: {}",
        p.span.line, p.span.column, p.message
    );
    let ply = p.ply.map(|n| format!(", ply {n}")).unwrap_or_default();
    let variation = if p.in_variation {
        ", in a variation"
    } else {
        ""
    };
    let _ = writeln!(out, "  --> {label}{ply}{variation}");
    out.push_str(&source_excerpt(raw, p.span));
    if p.severity == Severity::Error {
        if let Some(fen) = &p.fen {
            let _ = writeln!(out, "   = position: {fen}");
            if let Ok(pos) = Position::from_fen(fen) {
                for line in pos.board_text().lines() {
                    let _ = writeln!(out, "       {line}");
                }
            }
        }
        if !p.legal.is_empty() {
            let what = if p.kind == drafti_archive::replay::ProblemKind::AmbiguousMove {
                "candidates"
            } else {
                "legal moves"
            };
            let _ = writeln!(out, "   = {what}: {}", p.legal.join(", "));
        } else if p.kind == drafti_archive::replay::ProblemKind::IllegalMove {
            let _ = writeln!(out, "   = legal moves: none");
        }
    }
    out.push('\n');
}

fn syntax_problem(e: &ParseError) -> Problem {
    let mut p = Problem::new(
        Severity::Error,
        drafti_archive::replay::ProblemKind::Syntax,
        e.span,
        format!("{} (expected {}, found {})", e.message, e.expected, e.found),
    );
    p.move_text = None;
    p
}

fn report(job: GameJob<'_>, json: bool, show_warnings: bool, options: &ReplayOptions) -> Report {
    let GameJob {
        file, raw, game, ..
    } = job;
    let game = match game {
        Ok(game) => game,
        // Read up to a syntax error: what was read is replayed (tags, players, the moves
        // before the error), and the syntax error is one of its problems.
        Err(mut e) => match e.record.take() {
            Some(record) => {
                let mut game = replay_partial(*record, options);
                game.problems.push(syntax_problem(&e));
                game.problems.sort_by_key(|p| p.span.offset);
                game
            }
            None => return unreadable(file, raw, &e, json),
        },
    };
    let valid = game.is_valid();
    let warnings = game.warnings().count() as u64;
    let plies = game.moves.len() as u64;
    let mut text = String::new();
    if json {
        let value = GameJson {
            file,
            index: raw.index + 1,
            line: game.record.span.line,
            tags: TagMap(&game.record.tags),
            variant: game
                .problems
                .iter()
                .all(|p| p.kind != drafti_archive::replay::ProblemKind::UnknownVariant)
                .then(|| game.variant.name()),
            plies: game.moves.len(),
            result: game.played_result().map(|r| r.as_str()),
            status: if valid { "valid" } else { "invalid" },
            errors: game.errors().map(ProblemJson::new).collect(),
            warnings: game.warnings().map(ProblemJson::new).collect(),
        };
        text = serde_json::to_string(&value).expect("serializable");
        text.push('\n');
    } else if !valid || (show_warnings && warnings > 0) {
        let label = game_label(&game.record.tags, raw.index);
        for p in &game.problems {
            if p.is_error() || show_warnings {
                human_problem(&mut text, file, raw, &label, p);
            }
        }
    }
    Report {
        text,
        valid,
        warnings,
        plies,
    }
}

/// The report of a chunk that is no game at all (text between games).
fn unreadable(file: &str, raw: &RawGame, e: &ParseError, json: bool) -> Report {
    let p = syntax_problem(e);
    let mut text = String::new();
    if json {
        let value = GameJson {
            file,
            index: raw.index + 1,
            line: raw.line,
            tags: TagMap(&[]),
            variant: None,
            plies: 0,
            result: None,
            status: "invalid",
            errors: vec![ProblemJson::new(&p)],
            warnings: Vec::new(),
        };
        text = serde_json::to_string(&value).expect("serializable");
        text.push('\n');
    } else {
        let label = format!("game {} (unreadable)", raw.index + 1);
        human_problem(&mut text, file, raw, &label, &p);
    }
    Report {
        text,
        valid: false,
        warnings: 0,
        plies: 0,
    }
}

/// A progress bar on stderr when it is a terminal and the input is large.
pub fn progress_bar(total_bytes: Option<u64>) -> Option<indicatif::ProgressBar> {
    const LARGE: u64 = 16 << 20;
    let total = total_bytes?;
    if total < LARGE || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {msg} ({eta} left)",
        )
        .expect("valid template"),
    );
    Some(bar)
}

pub fn run(args: Args) -> CommandResult {
    let opened = open_inputs(&args.files, args.encoding)?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let options = BatchOptions {
        jobs: args.jobs,
        shard: args.shard,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let bar = progress_bar(opened.total_bytes);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut valid, mut invalid, mut warnings, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let json = args.json;
    let show_warnings = !args.no_warnings;
    let result = run_games(
        opened.inputs,
        &options,
        |p| {
            if let Some(bar) = &bar {
                bar.set_position(p.bytes);
                bar.set_message(format!("{} games", thousands(p.games)));
            }
        },
        |job| report(job, json, show_warnings, &options.replay),
        |r: Report| -> std::io::Result<()> {
            if r.valid {
                valid += 1;
            } else {
                invalid += 1;
            }
            warnings += r.warnings;
            plies += r.plies;
            if !r.text.is_empty() {
                out.write_all(r.text.as_bytes())?;
            }
            Ok(())
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let flushed = out.flush();
    let summary = match result {
        Ok(s) => s,
        Err(BatchError::Sink(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            return Ok(ExitCode::from(u8::from(invalid > 0)));
        }
        Err(e) => return Err(CliError(e.to_string())),
    };
    report_written(flushed)?;
    warn_empty_inputs(&names, &summary.games_per_input);
    let secs = summary.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        (summary.games as f64 / secs) as u64
    } else {
        0
    };
    let files = if names.len() == 1 {
        "1 file".to_string()
    } else {
        format!("{} files", names.len())
    };
    let shard = match args.shard {
        Some(s) => format!(
            " (shard {s}; {} games left to the other shards)",
            thousands(summary.skipped)
        ),
        None => String::new(),
    };
    eprintln!(
        "{} games in {files}{shard}: {} valid, {} invalid, {} warnings, {} plies; {:.2} s, {} games/s",
        thousands(summary.games),
        thousands(valid),
        thousands(invalid),
        thousands(warnings),
        thousands(plies),
        secs,
        thousands(rate)
    );
    Ok(ExitCode::from(u8::from(invalid > 0)))
}
