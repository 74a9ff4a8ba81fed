//! `drafti puzzles`: positions from real games where the side to move has one winning move,
//! with the unique solution, as text, JSON Lines, a PDN file of exercises and an HTML page.
//! With `--verify` the FILES are puzzle records (FEN + solution) to check again.
//!
//! ```text
//! FILES ──batch (parse + replay + mine_game on --jobs workers, in input order)──▶
//!       Collection (duplicates merged) ──▶ stdout (text | JSON Lines), --pdn OUT, --html OUT
//! ```
//! Puzzles are written once the input is read: the collection holds only the distinct
//! puzzles (a few hundred bytes each), the games stream through. The output depends only on
//! the input and `--nodes`, never on `--jobs`.

use crate::commands::egtb::tables_for_search;
use crate::commands::report::{stdin_is_empty, stdin_is_piped};
use crate::common::{jobs, parse_variant, report_written, thousands, warn_empty_inputs};
use crate::common::{refuse_stdout, CliError, CommandResult, OutputFile};
use crate::input::{open_inputs, EncodingArg};
use crate::report::{corpus, is_numeric, move_number};
use crate::svg::{self, escape, Arrow};
use drafti_analysis::puzzles::solve::played;
use drafti_analysis::puzzles::{
    mine_game, verify_puzzle, Collection, Entry, GainKind, Puzzle, PuzzleOptions, Source, Stats,
    DEFAULT_NODES, VERIFY_FACTOR,
};
use drafti_analysis::selfplay::mainline;
use drafti_archive::batch::{run_games, BatchError, BatchOptions, GameJob, Input, Shard};
use drafti_archive::replay::{ReplayOptions, ReplayedGame};
use drafti_engine::egtb::Tables;
use drafti_pdn::{
    write_game_to, Comment, GameRecord, GameResult, Line, MoveNode, ResultToken, Tag,
};
use drafti_rules::{Color, Move, Position, Variant};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
#[command(after_help = "\
With no FILES and nothing piped in, the puzzles come from the corpus bundled in the binary \
(as for drafti report).

A puzzle is a position, usually right after the opponent's mistake, where one move wins (a \
man or more by force, a man through to crown, or the game) and every other move is clearly \
worse. The solution goes on while the solver's move stays the only winning one, against the \
engine's best defence, to where the gain is realised (nothing left to capture). Every \
solver move is searched again at 4 times the mining budget before the puzzle is kept; the \
same position from several games is one puzzle with several sources.

--verify checks puzzle records instead (a FEN tag and the solution as the moves, as --pdn \
writes them) at --nodes per solver move (default 80,000, the verification budget); exit \
code 1 when one fails.")]
pub struct Args {
    /// PDN files; `-` reads stdin. None: stdin when something is piped in (and not
    /// empty), else the bundled corpus.
    files: Vec<String>,
    #[command(flatten)]
    encoding: EncodingArg,
    /// JSON Lines on stdout: one object per puzzle (or per record with --verify).
    #[arg(long)]
    json: bool,
    /// Also write the puzzles to OUT as PDN: one record per puzzle with its FEN and the
    /// solution as the moves.
    #[arg(long, value_name = "OUT")]
    pdn: Option<PathBuf>,
    /// Also write OUT, one self-contained HTML page: a board per puzzle, the solution
    /// hidden until asked for.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Nodes of each search while mining (default 20,000; verification searches 4 times
    /// as many). With --verify: the nodes of each check (default 80,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(100..))]
    nodes: Option<u64>,
    /// Only puzzles of this difficulty (1 easiest … 5), or of a range such as 2-4.
    #[arg(long, value_name = "D|D-D", value_parser = parse_difficulty)]
    difficulty: Option<(u8, u8)>,
    /// Check the records of FILES as puzzles instead of mining them.
    #[arg(long, conflicts_with_all = ["pdn", "html", "difficulty"])]
    verify: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::common::parse_jobs)]
    jobs: usize,
    /// Only every N-th game from the K-th (K = 1..N), counted across the files.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Rules for every game, whatever its tags say: tz, czech or russian.
    #[arg(long, value_parser = parse_variant)]
    variant: Option<Variant>,
    /// Endgame tables (drafti egtb build): a position they hold is judged by them, exactly
    /// (default: those in $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb, if built).
    #[arg(long, value_name = "DIR")]
    egtb: Option<PathBuf>,
    /// Use no endgame tables, not even the default folder's.
    #[arg(long, conflicts_with = "egtb")]
    no_egtb: bool,
}

/// The endgame tables asked for: every variant's under `--egtb DIR` (an error if it has
/// none), else the default folder's, if built; none with `--no-egtb`. Says on stderr which.
fn endgame_tables(args: &Args, options: &mut PuzzleOptions) -> Result<(), CliError> {
    if args.no_egtb {
        return Ok(());
    }
    for variant in Variant::ALL {
        let tables = match &args.egtb {
            Some(dir) if !Tables::variant_dir(dir, variant).is_dir() => None,
            dir => tables_for_search(dir.as_deref(), variant)?,
        };
        if let Some(t) = tables {
            options.add_tables(t).map_err(|e| CliError(e.to_string()))?;
        }
    }
    match &args.egtb {
        Some(dir) if options.tables.is_empty() => Err(CliError(format!(
            "{}: no endgame tables here (drafti egtb build --dir {} builds them)",
            dir.display(),
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// `3` or `2-4` (difficulties 1 to 5).
fn parse_difficulty(text: &str) -> Result<(u8, u8), String> {
    let bad =
        || format!("invalid difficulty '{text}': expected D or D-D with 1 <= D <= 5, e.g. 2-4");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u8 = low.trim().parse().map_err(|_| bad())?;
    let high: u8 = high.trim().parse().map_err(|_| bad())?;
    if !(1..=5).contains(&low) || !(low..=5).contains(&high) {
        return Err(bad());
    }
    Ok((low, high))
}

/// The inputs: FILES, or stdin, or the bundled corpus (the rule of `drafti report`).
fn choose_inputs(
    files: &[String],
    encoding: EncodingArg,
) -> Result<(Vec<Input>, String), CliError> {
    if files.is_empty() && (!stdin_is_piped() || stdin_is_empty()?) {
        return Ok((
            corpus::inputs(),
            "the bundled corpus (corpus/showcase.pdn, corpus/selfplay.pdn)".to_string(),
        ));
    }
    let opened = open_inputs(files, encoding)?;
    let source = match opened.inputs.as_slice() {
        [one] => one.name.clone(),
        many => format!("{} files", many.len()),
    };
    Ok((opened.inputs, source))
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

fn tag(game: &ReplayedGame, name: &str) -> Option<String> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && !v.chars().all(|c| c == '?' || c == '.'))
        .map(str::to_string)
}

/// Where a find comes from, as a [`Source`].
fn source_of(job: &GameJob<'_>, game: &ReplayedGame, ply: usize) -> Source {
    let numeric = is_numeric(game);
    let after = (ply > 0).then(|| {
        let before = &game.positions[ply - 1];
        let mv = &game.moves[ply - 1];
        format!(
            "{} {}",
            move_number(game.first_mover, ply),
            mv.notation(&before.legal_moves(game.variant), numeric)
        )
    });
    Source {
        file: job.file.to_string(),
        game: job.raw.index + 1,
        ply: ply + 1,
        move_number: move_number(game.first_mover, ply + 1),
        after,
        white: tag(game, "White"),
        black: tag(game, "Black"),
        event: tag(game, "Event"),
        date: tag(game, "Date"),
        round: tag(game, "Round"),
        numeric,
    }
}

/// One game's results, from a worker.
struct Mined {
    valid: bool,
    found: Vec<(Puzzle, Source)>,
    stats: Stats,
}

// ---------------------------------------------------------------------------------------
// Words.

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn men(n: i32) -> String {
    match n {
        1 => "a man".to_string(),
        n => format!("{n} men"),
    }
}

/// `win 2 men`, `win material worth 2 men`, `get a man through`, `win`: what the solver is
/// to do, for "White to play and …".
fn gain_task(p: &Puzzle) -> String {
    let value = p.gain / drafti_engine::MAN;
    match p.kind {
        GainKind::Win => "win".to_string(),
        GainKind::Runaway => match value {
            v if v > 0 => format!("win {} and get a man through", men(v)),
            v if v < 0 => format!("get a man through for {}", men(-v)),
            _ => "get a man through".to_string(),
        },
        GainKind::Material if p.themes.crowning || p.themes.king_capture => {
            format!("win material worth {}", men(value))
        }
        GainKind::Material => format!("win {}", men(value)),
    }
}

/// The one-line task: `White to play and win 2 men`.
fn task(p: &Puzzle) -> String {
    format!("{} to play and {}", side(p.position.turn()), gain_task(p))
}

/// The gain as a short phrase for tags and JSON: `2 men`, `material worth 2 men`,
/// `a man through`, `win`, `win in 17`.
fn gain_text(p: &Puzzle) -> String {
    match (p.kind, p.proven_win) {
        (GainKind::Win, Some(n)) if p.exact => format!("table win in {n} plies"),
        (GainKind::Win, Some(n)) => format!("forced win in {n} plies"),
        (GainKind::Win, None) => "the game: no move left".to_string(),
        _ => gain_task(p)
            .trim_start_matches("win ")
            .trim_start_matches("get ")
            .to_string(),
    }
}

/// Moves in notation with move numbers counted from 1 (`1. c3-d4 e5xc3 2. b2xd4xf6`), as
/// the PDN record writes them. `offset` moves of the line come before the ones shown.
fn numbered(
    start: &Position,
    variant: Variant,
    moves: &[Move],
    offset: usize,
    numeric: bool,
) -> String {
    let nodes = mainline(start, variant, moves, numeric);
    let mut out = String::new();
    for (i, node) in nodes.iter().enumerate().skip(offset) {
        if !out.is_empty() {
            out.push(' ');
        }
        match node.number {
            Some(n) => {
                let _ = write!(out, "{}{} ", n.number, if n.ellipsis { "..." } else { "." });
            }
            None if i == offset => {
                // A Black move first in the part shown: its number as `N...`.
                let number = nodes[..i]
                    .iter()
                    .rev()
                    .find_map(|n| n.number)
                    .map_or(1, |n| n.number);
                let _ = write!(out, "{number}... ");
            }
            None => {}
        }
        out.push_str(node.mv.text.as_str());
    }
    out
}

fn solution_text(p: &Puzzle, numeric: bool) -> String {
    numbered(&p.position, p.variant, &p.solution, 0, numeric)
}

/// The engine's continuation after the solution, numbered on from it.
fn continuation_text(p: &Puzzle, numeric: bool) -> Option<String> {
    if p.continuation.is_empty() {
        return None;
    }
    let mut whole = p.solution.clone();
    whole.extend_from_slice(&p.continuation);
    Some(numbered(
        &p.position,
        p.variant,
        &whole,
        p.solution.len(),
        numeric,
    ))
}

fn players(s: &Source) -> String {
    format!(
        "{} - {}",
        s.white.as_deref().unwrap_or("?"),
        s.black.as_deref().unwrap_or("?")
    )
}

/// `corpus/selfplay.pdn game 12 (A - B), move 18. after 17... e5-f4`.
fn source_text(s: &Source) -> String {
    let mut out = format!("{} game {} ({})", s.file, s.game, players(s));
    match &s.after {
        Some(after) => {
            let _ = write!(out, ", move {} after {after}", s.move_number);
        }
        None => out.push_str(", its start position"),
    }
    out
}

fn themes_text(p: &Puzzle) -> String {
    let names = p.themes.names();
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

fn numeric_of(e: &Entry) -> bool {
    e.sources.first().is_some_and(|s| s.numeric)
}

// ---------------------------------------------------------------------------------------
// Text and JSON.

fn text_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    let mut out = format!(
        "{number}. {}  (difficulty {}/5, depth {}; {}{})\n",
        task(p),
        p.difficulty,
        p.depth,
        themes_text(p),
        if p.exact { "; endgame tables" } else { "" }
    );
    let _ = writeln!(out, "   {}", p.position.to_fen());
    let _ = writeln!(out, "   solution: {}", solution_text(p, numeric));
    if let Some(c) = continuation_text(p, numeric) {
        let _ = writeln!(out, "   then, for instance: {c}");
    }
    let _ = writeln!(out, "   from {}", source_text(&e.sources[0]));
    if e.occurrences > 1 {
        let _ = writeln!(out, "   and {} more games", e.occurrences - 1);
    }
    out.push('\n');
    out
}

#[derive(Serialize)]
struct GainJson {
    kind: &'static str,
    men: i32,
    proven_win_in: Option<u32>,
    text: String,
}

#[derive(Serialize)]
struct SourceJson<'a> {
    file: &'a str,
    game: usize,
    ply: usize,
    move_number: &'a str,
    after: Option<&'a str>,
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    date: Option<&'a str>,
    round: Option<&'a str>,
}

#[derive(Serialize)]
struct PuzzleJson<'a> {
    number: usize,
    fen: String,
    variant: &'static str,
    side: &'static str,
    task: String,
    solution: Vec<String>,
    solution_text: String,
    continuation: Vec<String>,
    gain: GainJson,
    themes: Vec<String>,
    shot: usize,
    captured: usize,
    lost: usize,
    depth: u32,
    difficulty: u8,
    score: String,
    second: Option<String>,
    exact: bool,
    occurrences: u64,
    sources: Vec<SourceJson<'a>>,
}

/// Each move of `moves` from `start` in notation.
fn move_texts(start: &Position, variant: Variant, moves: &[Move], numeric: bool) -> Vec<String> {
    mainline(start, variant, moves, numeric)
        .into_iter()
        .map(|n| n.mv.text.as_str().to_string())
        .collect()
}

fn json_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    let mut whole = p.solution.clone();
    whole.extend_from_slice(&p.continuation);
    let all = move_texts(&p.position, p.variant, &whole, numeric);
    let value = PuzzleJson {
        number,
        fen: p.position.to_fen(),
        variant: p.variant.name(),
        side: match p.position.turn() {
            Color::White => "white",
            Color::Black => "black",
        },
        task: task(p),
        solution: all[..p.solution.len()].to_vec(),
        solution_text: solution_text(p, numeric),
        continuation: all[p.solution.len()..].to_vec(),
        gain: GainJson {
            kind: match p.kind {
                GainKind::Material => "material",
                GainKind::Runaway => "runaway",
                GainKind::Win => "win",
            },
            men: p.gain / drafti_engine::MAN,
            proven_win_in: p.proven_win,
            text: gain_text(p),
        },
        themes: p.themes.names(),
        shot: p.themes.shot,
        captured: p.themes.captured,
        lost: p.themes.lost,
        depth: p.depth,
        difficulty: p.difficulty,
        score: p.score.to_string(),
        second: p.second.map(|s| s.to_string()),
        exact: p.exact,
        occurrences: e.occurrences,
        sources: e
            .sources
            .iter()
            .map(|s| SourceJson {
                file: &s.file,
                game: s.game,
                ply: s.ply,
                move_number: &s.move_number,
                after: s.after.as_deref(),
                white: s.white.as_deref(),
                black: s.black.as_deref(),
                event: s.event.as_deref(),
                date: s.date.as_deref(),
                round: s.round.as_deref(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string(&value).expect("serializable");
    text.push('\n');
    text
}

// ---------------------------------------------------------------------------------------
// PDN.

fn pdn_tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.to_string(),
        value: value.into(),
        span: Default::default(),
    }
}

fn comment(text: String) -> Comment {
    Comment {
        text,
        span: Default::default(),
    }
}

/// One puzzle as a PDN record: the source game's tags, `SetUp`, `FEN`, the variant, the
/// puzzle's own tags, the task as a comment before the moves and the solution as the moves.
fn pdn_record(number: usize, e: &Entry) -> GameRecord {
    let p = &e.puzzle;
    let s = &e.sources[0];
    let numeric = numeric_of(e);
    let mut tags = Vec::new();
    for (name, value) in [
        ("Event", &s.event),
        ("Date", &s.date),
        ("Round", &s.round),
        ("White", &s.white),
        ("Black", &s.black),
    ] {
        if let Some(v) = value {
            tags.push(pdn_tag(name, v.clone()));
        }
    }
    tags.push(pdn_tag("Result", "*"));
    tags.push(pdn_tag("SetUp", "1"));
    // Square numbers, as PDN 3.0 writes a FEN (and every PDN reader reads it).
    tags.push(pdn_tag("FEN", p.position.to_fen()));
    match p.variant.game_type() {
        Some(n) => tags.push(pdn_tag("GameType", n.to_string())),
        None => tags.push(pdn_tag("Variant", "Tanzanian")),
    }
    tags.push(pdn_tag("Annotator", "drafti puzzles"));
    tags.push(pdn_tag("Puzzle", number.to_string()));
    tags.push(pdn_tag(
        "Source",
        format!("{} game {} ply {}", s.file, s.game, s.ply),
    ));
    tags.push(pdn_tag("Gain", gain_text(p)));
    tags.push(pdn_tag("Themes", p.themes.names().join(" ")));
    tags.push(pdn_tag("Difficulty", p.difficulty.to_string()));
    let mut nodes: Vec<MoveNode> = mainline(&p.position, p.variant, &p.solution, numeric);
    if let (Some(last), Some(c)) = (nodes.last_mut(), continuation_text(p, numeric)) {
        last.comments
            .push(comment(format!("then, for instance, {c}")));
    }
    GameRecord {
        tags,
        moves: Line {
            nodes,
            leading_comments: Vec::new(),
        },
        result: Some(ResultToken::new(GameResult::Unknown)),
        leading_comments: vec![comment(format!("{}.", task(p)))],
        ..GameRecord::default()
    }
}

// ---------------------------------------------------------------------------------------
// HTML.

const CSS: &str = "\
:root{--ink:#2b2420;--muted:#6b6158;--line:#e0d6c8;--accent:#8a5a2b}\
*{box-sizing:border-box}\
body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--ink);background:#faf7f2}\
header{background:#3d3833;color:#f6efe4;padding:18px 28px}\
header h1{margin:0 0 4px;font-size:24px}header p{margin:0;color:#d8ccbb}\
main{padding:18px 28px;max-width:1400px;margin:0 auto}\
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:18px}\
.puzzle{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px;break-inside:avoid}\
.puzzle h2{font-size:16px;margin:0 0 8px}\
.puzzle h2 .n{color:var(--accent);margin-right:6px}\
svg.board{width:100%;height:auto;display:block}\
.meta{color:var(--muted);font-size:13px;margin:6px 0}\
.stars{color:#c58b1b;letter-spacing:1px}\
details{margin-top:6px;border-top:1px solid var(--line);padding-top:6px}\
summary{cursor:pointer;font-weight:600;color:var(--accent)}\
.line{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;margin:6px 0}\
.defs{position:absolute;width:0;height:0;overflow:hidden}\
.stats{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 16px}\
.stat{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 12px}\
.stat b{display:block;font-size:20px}\
@media print{header{background:none;color:#000}header p{color:#333}body{background:#fff}.grid{grid-template-columns:repeat(2,1fr)}}";

const KEY_MOVE: &str = "#2b9348";
const LAST_MOVE: &str = "#1d6fa5";

fn stars(difficulty: u8) -> String {
    let d = usize::from(difficulty.min(5));
    format!("{}{}", "★".repeat(d), "☆".repeat(5 - d))
}

fn html_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<article class="puzzle" id="p{number}"><h2><span class="n">{number}.</span>{}</h2>"#,
        escape(&task(p))
    );
    out.push_str(&svg::diagram(
        &p.position,
        &[],
        &format!("puzzle {number}: {}", task(p)),
    ));
    let _ = write!(
        out,
        r#"<p class="meta"><span class="stars" title="difficulty {d} of 5">{}</span> difficulty {d}/5 · from {}</p>"#,
        stars(p.difficulty),
        escape(&source_text(&e.sources[0])),
        d = p.difficulty
    );
    let _ = write!(
        out,
        r#"<details><summary>Solution</summary><p class="line">{}</p>"#,
        escape(&solution_text(p, numeric))
    );
    if let Some(c) = continuation_text(p, numeric) {
        let _ = write!(
            out,
            r#"<p class="meta">The solution ends where a second move also wins; then, for instance: {}</p>"#,
            escape(&c)
        );
    }
    let _ = write!(
        out,
        r#"<p class="meta">Gain: {} · themes: {} · the engine needs depth {} · {} {}</p>"#,
        escape(&gain_text(p)),
        escape(&themes_text(p)),
        p.depth,
        thousands(e.occurrences),
        if e.occurrences == 1 { "game" } else { "games" }
    );
    // The position at the end of the solution, its solver moves drawn.
    let (end, _) = played(&p.position, &p.solution);
    let arrows: Vec<Arrow> = p
        .solution
        .iter()
        .step_by(2)
        .enumerate()
        .map(|(i, mv)| Arrow {
            path: mv.path().collect(),
            color: if i == 0 { KEY_MOVE } else { LAST_MOVE },
        })
        .collect();
    out.push_str(&svg::diagram(
        &end,
        &arrows,
        &format!("puzzle {number} after the solution"),
    ));
    out.push_str("</details></article>");
    out
}

fn html_page(entries: &[Entry], source: &str, stats: &Stats, nodes: u64) -> String {
    let mut out = String::with_capacity(entries.len() * 4096 + 8192);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>");
    out.push_str(r#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#);
    let _ = write!(
        out,
        "<title>drafti puzzles – {} from {}</title><style>{CSS}</style></head><body>",
        thousands(entries.len() as u64),
        escape(source)
    );
    out.push_str(&svg::report_defs());
    let _ = write!(
        out,
        r#"<header><h1>Puzzles</h1><p>{} puzzles mined by drafti from {} ({} positions screened). Each solution is the only winning line at every move of the side to play, checked again at {} nodes per move. Open “Solution” to see it.</p></header><main>"#,
        thousands(entries.len() as u64),
        escape(source),
        thousands(stats.positions),
        thousands(nodes * VERIFY_FACTOR)
    );
    out.push_str(r#"<div class="stats">"#);
    for d in 1..=5u8 {
        let n = entries.iter().filter(|e| e.puzzle.difficulty == d).count();
        let _ = write!(
            out,
            r#"<div class="stat"><b>{}</b><span class="stars">{}</span></div>"#,
            thousands(n as u64),
            stars(d)
        );
    }
    out.push_str("</div><div class=\"grid\">");
    for (i, e) in entries.iter().enumerate() {
        out.push_str(&html_entry(i + 1, e));
    }
    out.push_str("</div></main></body></html>\n");
    out
}

// ---------------------------------------------------------------------------------------
// The runs.

fn summary_line(stats: &Stats, collection: &Collection, games: u64, invalid: u64) -> String {
    let share = if stats.mined > 0 {
        format!(
            " ({:.0}% of {})",
            100.0 * (stats.mined - stats.refuted) as f64 / stats.mined as f64,
            thousands(stats.mined)
        )
    } else {
        String::new()
    };
    format!(
        "{} ({} invalid), {} screened: {}, {} kept after verification{share}; {} distinct ({} merged)",
        count(games, "game", "games"),
        thousands(invalid),
        count(stats.positions, "position", "positions"),
        count(stats.candidates, "candidate", "candidates"),
        count(stats.puzzles, "puzzle", "puzzles"),
        thousands(collection.len() as u64),
        count(collection.duplicates(), "duplicate", "duplicates"),
    )
}

/// `1 game`, `2,004 games`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// Writes `text` to an output file and puts it in place.
fn write_file(mut file: OutputFile, path: &Path, text: &str) -> Result<(), CliError> {
    file.write_all(text.as_bytes())
        .and_then(|()| file.commit().map(|_| ()))
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

pub fn run(args: Args) -> CommandResult {
    if args.verify {
        return run_verify(&args);
    }
    let (inputs, source) = choose_inputs(&args.files, args.encoding)?;
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let jobs = jobs(args.jobs);
    let mut options = PuzzleOptions {
        nodes: args.nodes.unwrap_or(DEFAULT_NODES),
        ..PuzzleOptions::default()
    };
    endgame_tables(&args, &mut options)?;
    let batch = BatchOptions {
        jobs,
        shard: args.shard,
        // A game is a few hundred searches: small chunks keep both workers busy.
        chunk_size: 2,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    // Created first, so a path that cannot be written fails before the work.
    for (flag, path) in [("--pdn", &args.pdn), ("--html", &args.html)] {
        if let Some(path) = path {
            refuse_stdout(flag, path, "the list of puzzles")?;
        }
    }
    let pdn_file = args.pdn.as_deref().map(OutputFile::create).transpose()?;
    let html_file = args.html.as_deref().map(OutputFile::create).transpose()?;
    let bar = progress_bar();
    let started = Instant::now();
    let mut collection = Collection::new();
    let mut stats = Stats::default();
    let (mut games, mut invalid) = (0u64, 0u64);
    let result = run_games(
        inputs,
        &batch,
        |p| {
            if let Some(bar) = &bar {
                bar.set_message(format!("{} games mined", thousands(p.games)));
            }
        },
        |job| match &job.game {
            Ok(game) => {
                let mined = mine_game(game, &options);
                Mined {
                    valid: game.is_valid(),
                    found: mined
                        .found
                        .into_iter()
                        .map(|f| {
                            let source = source_of(&job, game, f.ply);
                            (f.puzzle, source)
                        })
                        .collect(),
                    stats: mined.stats,
                }
            }
            Err(_) => Mined {
                valid: false,
                found: Vec::new(),
                stats: Stats::default(),
            },
        },
        |m: Mined| -> Result<(), std::convert::Infallible> {
            games += 1;
            invalid += u64::from(!m.valid);
            stats.add(&m.stats);
            for (puzzle, source) in m.found {
                collection.add(puzzle, source);
            }
            Ok(())
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = match result {
        Ok(s) => s,
        Err(BatchError::Sink(never)) => match never {},
        Err(e) => return Err(CliError(e.to_string())),
    };
    let secs = started.elapsed().as_secs_f64();

    let entries: Vec<Entry> = collection
        .entries()
        .iter()
        .filter(|e| {
            args.difficulty
                .is_none_or(|(low, high)| (low..=high).contains(&e.puzzle.difficulty))
        })
        .cloned()
        .collect();
    let entries = entries.as_slice();
    let mut text = String::new();
    for (i, e) in entries.iter().enumerate() {
        text.push_str(&if args.json {
            json_entry(i + 1, e)
        } else {
            text_entry(i + 1, e)
        });
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    if let (Some(path), Some(file)) = (&args.pdn, pdn_file) {
        let mut pdn = String::new();
        for (i, e) in entries.iter().enumerate() {
            if i > 0 {
                pdn.push('\n');
            }
            write_game_to(&pdn_record(i + 1, e), &mut pdn);
        }
        write_file(file, path, &pdn)?;
        eprintln!(
            "wrote {} ({})",
            path.display(),
            count(entries.len() as u64, "puzzle", "puzzles")
        );
    }
    if let (Some(path), Some(file)) = (&args.html, html_file) {
        let page = html_page(entries, &source, &stats, options.nodes);
        write_file(file, path, &page)?;
        eprintln!(
            "wrote {} ({})",
            path.display(),
            count(entries.len() as u64, "puzzle", "puzzles")
        );
    }
    warn_empty_inputs(&names, &summary.games_per_input);
    let shard = args
        .shard
        .map(|s| {
            format!(
                " (shard {s}; {} games left to other shards)",
                thousands(summary.skipped)
            )
        })
        .unwrap_or_default();
    eprintln!(
        "{}{shard}",
        summary_line(&stats, &collection, games, invalid)
    );
    eprintln!(
        "{} nodes per search ({} to verify) on {jobs} {}: {secs:.1} s, {} positions/s",
        thousands(options.nodes),
        thousands(options.nodes * VERIFY_FACTOR),
        if jobs == 1 { "thread" } else { "threads" },
        thousands((stats.positions as f64 / secs.max(1e-9)) as u64)
    );
    Ok(ExitCode::from(u8::from(invalid > 0)))
}

/// One checked record, from a worker.
struct Checked {
    file: String,
    game: usize,
    fen: Option<String>,
    outcome: Result<Puzzle, String>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    file: &'a str,
    game: usize,
    fen: Option<&'a str>,
    status: &'static str,
    reason: Option<&'a str>,
    gain: Option<String>,
    difficulty: Option<u8>,
    depth: Option<u32>,
}

/// `--verify`: each record's FEN and moves checked as a puzzle.
fn check_record(job: &GameJob<'_>, nodes: u64, options: &PuzzleOptions) -> Checked {
    let mut checked = Checked {
        file: job.file.to_string(),
        game: job.raw.index + 1,
        fen: None,
        outcome: Err(String::new()),
    };
    let game = match &job.game {
        Ok(g) => g,
        Err(e) => {
            checked.outcome = Err(format!("unreadable: {}", e.message));
            return checked;
        }
    };
    checked.fen = Some(game.start.to_fen());
    checked.outcome = if !game.is_valid() {
        Err("invalid record (run drafti validate)".to_string())
    } else if game.record.tag("FEN").is_none() {
        Err("no FEN tag: not a puzzle record".to_string())
    } else if game.moves.is_empty() {
        Err("no solution moves".to_string())
    } else {
        verify_puzzle(
            game.variant,
            &game.start,
            &game.moves,
            nodes,
            options.max_plies,
            options.tt_mb,
            options.tables_for(game.variant),
        )
        .map_err(|r| {
            let at = r.at.min(game.moves.len());
            if at < game.moves.len() {
                format!("refuted at ply {} of the solution: {}", at + 1, r.failure)
            } else {
                format!("refuted: {}", r.failure)
            }
        })
    };
    checked
}

fn run_verify(args: &Args) -> CommandResult {
    let opened = open_inputs(&args.files, args.encoding)?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let jobs = jobs(args.jobs);
    let nodes = args.nodes.unwrap_or(DEFAULT_NODES * VERIFY_FACTOR);
    let mut options = PuzzleOptions::default();
    endgame_tables(args, &mut options)?;
    let batch = BatchOptions {
        jobs,
        shard: args.shard,
        chunk_size: 1,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut passed) = (0u64, 0u64);
    let started = Instant::now();
    let result = run_games(
        opened.inputs,
        &batch,
        |_| {},
        |job| check_record(&job, nodes, &options),
        |c: Checked| -> std::io::Result<()> {
            total += 1;
            passed += u64::from(c.outcome.is_ok());
            let line = if args.json {
                let value = CheckJson {
                    file: &c.file,
                    game: c.game,
                    fen: c.fen.as_deref(),
                    status: if c.outcome.is_ok() {
                        "verified"
                    } else {
                        "failed"
                    },
                    reason: c.outcome.as_ref().err().map(String::as_str),
                    gain: c.outcome.as_ref().ok().map(gain_text),
                    difficulty: c.outcome.as_ref().ok().map(|p| p.difficulty),
                    depth: c.outcome.as_ref().ok().map(|p| p.depth),
                };
                let mut s = serde_json::to_string(&value).expect("serializable");
                s.push('\n');
                s
            } else {
                match &c.outcome {
                    Ok(p) => format!(
                        "{} game {}: verified: {} (difficulty {}/5, depth {})\n",
                        c.file,
                        c.game,
                        task(p),
                        p.difficulty,
                        p.depth
                    ),
                    Err(reason) => format!("{} game {}: {reason}\n", c.file, c.game),
                }
            };
            out.write_all(line.as_bytes())
        },
    );
    let summary = match result {
        Ok(s) => s,
        Err(BatchError::Sink(e)) => {
            report_written(Err(e))?;
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(CliError(e.to_string())),
    };
    report_written(out.flush())?;
    warn_empty_inputs(&names, &summary.games_per_input);
    let share = if total > 0 {
        100.0 * passed as f64 / total as f64
    } else {
        0.0
    };
    eprintln!(
        "{} of {} puzzles verified ({share:.0}%) at {} nodes per solver move on {jobs} {} in {:.1} s",
        thousands(passed),
        thousands(total),
        thousands(nodes),
        if jobs == 1 { "thread" } else { "threads" },
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::from(u8::from(passed < total)))
}
