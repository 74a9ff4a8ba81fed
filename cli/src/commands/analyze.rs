//! `drafti analyze`: every valid game searched position by position; inaccuracies, mistakes
//! and blunders per side with accuracy, as text, JSON Lines, or an annotated PDN archive.
//!
//! ```text
//! FILES ──batch (parse + replay, in order)──▶ buffer of games (about FLUSH_POSITIONS)
//!       ──analysis::analyse_games on a pool of --jobs threads (positions of all games)──▶
//!       reports in input order: stdout (text | JSON Lines), --pdn OUT, summary on stderr
//! ```
//! Invalid games are reported (their errors) and skipped. The output depends only on the
//! input and the search limits, never on `--jobs`.

use crate::common::{
    jobs, parse_variant, thousands, worker_pool, CliError, CommandResult, OutputFile,
};
use crate::input::{open_inputs, EncodingArg};
use drafti_analysis::judge::{win_percent, SideSummary};
use drafti_analysis::{
    analyse_games, annotate, line_notation, AnalysisOptions, EndgameTables, GameAnalysis,
    MoveAnalysis,
};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, Shard};
use drafti_archive::replay::{ReplayOptions, ReplayedGame};
use drafti_engine::Score;
use drafti_pdn::{write_game_to, ParseError};
use drafti_rules::{Color, Variant};
use serde::Serialize;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// Games are analysed in batches of about this many positions (enough to keep every
/// worker busy; small enough that output starts soon and memory stays flat).
const FLUSH_POSITIONS: usize = 8192;

/// The analysis settings that `drafti analyze`, `drafti report` and `drafti bench --quality`
/// share.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// The pass: search every position to this depth in plies (analyze: 6, report: 5; with --nodes,
    /// whichever is reached first).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// The pass: search every position about this many nodes (deepest completed iteration;
    /// with --depth, whichever is reached first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Re-search every nominated move (best and played move) to this depth (analyze: 10,
    /// report: 8).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub verify_depth: Option<u32>,
    /// The node bound of each re-search (default 1000000).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub verify_nodes: Option<u64>,
    /// Report the pass's verdicts without re-searching them.
    #[arg(long, conflicts_with_all = ["verify_depth", "verify_nodes", "confirm_depth", "confirm_nodes"])]
    pub no_verify: bool,
    /// Confirm a re-searched verdict near the blunder threshold (a drop of 0.2-0.7, or a
    /// proven result) with a second re-search to this depth (analyze: 16; report: 10).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub confirm_depth: Option<u32>,
    /// The node bound of each confirmation (analyze: 500000; report: 100000).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub confirm_nodes: Option<u64>,
    /// Keep the first re-search's verdicts: no confirmation.
    #[arg(long, conflicts_with_all = ["confirm_depth", "confirm_nodes", "confirm_band"])]
    pub no_confirm: bool,
    /// The re-search drops of winning chances (0-2) that are confirmed, as LOW-HIGH (default
    /// 0.2-0.7; a proven result is confirmed whatever its drop).
    #[arg(long, value_name = "LOW-HIGH", value_parser = parse_band)]
    pub confirm_band: Option<(f64, f64)>,
    /// Nominate for the re-search every move whose drop of winning chances (0-2) in the
    /// pass reaches this (default 0.05).
    #[arg(long, value_name = "DROP")]
    pub nominate: Option<f64>,
    /// A re-searched move is a blunder only when its last search called it one at this many
    /// of its deepest completed depths; otherwise it is judged a mistake, `unsettled`
    /// (default 4; 1: every blunder stands).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub blunder_depths: Option<u32>,
    /// Endgame tables (drafti egtb build): positions they hold get exact verdicts (default:
    /// those in $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb, if built).
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
    /// Use no endgame tables, not even the default folder's.
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
}

impl SearchArgs {
    /// The analysis these settings ask for, from `drafti analyze`'s defaults.
    pub fn options(&self) -> AnalysisOptions {
        self.options_from(AnalysisOptions::default())
    }

    /// The endgame tables asked for: every variant's under `--egtb DIR` (an error if it has
    /// none), else, when `default_folder`, those of the default folder; none with
    /// `--no-egtb`. Says on stderr which it uses; a damaged table is an error.
    pub fn tables(&self, default_folder: bool) -> Result<EndgameTables, CliError> {
        let mut found = EndgameTables::default();
        let root = match (&self.egtb, default_folder && !self.no_egtb) {
            (Some(dir), _) => dir.clone(),
            (None, true) => match crate::commands::egtb::default_dir() {
                Some(dir) => dir,
                None => return Ok(found),
            },
            (None, false) => return Ok(found),
        };
        for variant in Variant::ALL {
            if let Some(t) = crate::commands::egtb::tables_in(&root, variant, false)? {
                found.insert(t).map_err(|e| CliError(e.to_string()))?;
            }
        }
        if self.egtb.is_some() && found.is_empty() {
            return Err(CliError(format!(
                "{}: no endgame tables here (drafti egtb build --dir {} builds them)",
                root.display(),
                root.display()
            )));
        }
        Ok(found)
    }

    /// The analysis these settings ask for, from the defaults `base`: `--depth` and `--nodes`
    /// replace the pass's limits (either or both: with both, whichever is reached first).
    pub fn options_from(&self, base: AnalysisOptions) -> AnalysisOptions {
        let mut options = base;
        if self.depth.is_some() || self.nodes.is_some() {
            options.limits = drafti_engine::Limits {
                depth: self.depth,
                nodes: self.nodes,
                ..drafti_engine::Limits::default()
            };
        }
        if self.no_verify {
            options.verify = None;
        } else if let Some(verify) = options.verify.as_mut() {
            if let Some(d) = self.verify_depth {
                verify.depth = Some(d);
            }
            if let Some(n) = self.verify_nodes {
                verify.nodes = Some(n);
            }
        }
        if self.no_confirm {
            options.confirm = None;
        } else if self.confirm_depth.is_some() || self.confirm_nodes.is_some() {
            // Asked for: from the defaults' confirmation (the report has none by default).
            let confirm = options
                .confirm
                .get_or_insert_with(|| AnalysisOptions::default().confirm.unwrap_or_default());
            if let Some(d) = self.confirm_depth {
                confirm.depth = Some(d);
            }
            if let Some(n) = self.confirm_nodes {
                confirm.nodes = Some(n);
            }
        }
        if let Some(band) = self.confirm_band {
            options.confirm_band = band;
        }
        if let Some(drop) = self.nominate {
            options.nominate_drop = drop;
        }
        if let Some(n) = self.blunder_depths {
            options.blunder_depths = n;
        }
        options
    }
}

/// `LOW-HIGH`, two drops of winning chances with 0 <= LOW < HIGH <= 2.
fn parse_band(text: &str) -> Result<(f64, f64), String> {
    let (low, high) = text
        .split_once('-')
        .ok_or_else(|| format!("{text:?}: expected LOW-HIGH, e.g. 0.2-0.5"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not a number"))
    };
    let (low, high) = (number(low)?, number(high)?);
    if !(0.0 <= low && low < high && high <= 2.0) {
        return Err(format!("{text}: expected 0 <= LOW < HIGH <= 2"));
    }
    Ok((low, high))
}

#[derive(clap::Args)]
pub struct Args {
    /// PDN files; `-` or none reads stdin.
    files: Vec<String>,
    #[command(flatten)]
    encoding: EncodingArg,
    #[command(flatten)]
    search: SearchArgs,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::common::parse_jobs)]
    jobs: usize,
    /// JSON Lines on stdout: one object per game.
    #[arg(long)]
    json: bool,
    /// Also write the games to OUT with NAGs ($6 ?!, $2 ?, $4 ??) and comments on the
    /// flagged moves.
    #[arg(long, value_name = "OUT")]
    pdn: Option<String>,
    /// Only every N-th game from the K-th (K = 1..N), counted across the files.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Rules for every game, whatever its tags say: tz, czech or russian.
    #[arg(long, value_parser = parse_variant)]
    variant: Option<Variant>,
}

/// One game as read, waiting for analysis.
struct Item {
    file: String,
    /// Which input (0-based).
    input: usize,
    /// 0-based number of the game across all inputs (all shards counted).
    ordinal: u64,
    /// 1-based number of the game in its file.
    index: usize,
    /// Line and column of the game's start in its file.
    line: u32,
    column: u32,
    raw: Vec<u8>,
    /// The splitter cut the game at its size limit.
    truncated: bool,
    game: Result<ReplayedGame, ParseError>,
}

impl Item {
    fn analysable(&self) -> Option<&ReplayedGame> {
        self.game.as_ref().ok().filter(|g| g.is_valid())
    }
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    line: u32,
    column: u32,
    ply: Option<usize>,
    kind: &'static str,
    message: &'a str,
}

#[derive(Serialize)]
struct SideJson {
    moves: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    accuracy: Option<f64>,
}

impl From<&SideSummary> for SideJson {
    fn from(s: &SideSummary) -> SideJson {
        SideJson {
            moves: s.moves,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            accuracy: s.accuracy.map(|a| (a * 10.0).round() / 10.0),
        }
    }
}

#[derive(Serialize)]
struct SidesJson {
    white: SideJson,
    black: SideJson,
}

/// One mainline move's evaluation (every move, flagged or not); the schema is in README.md,
/// "drafti analyze".
#[derive(Serialize)]
struct MoveJson {
    ply: usize,
    move_number: String,
    side: &'static str,
    #[serde(rename = "move")]
    move_text: String,
    /// The best move's score from the mover's side, centi-men; `null` when proven.
    score_before: Option<i32>,
    /// The played move's score from the mover's side, centi-men; `null` when proven.
    score_after: Option<i32>,
    /// Proven result before the move: +N the mover wins in N plies, −N loses in N.
    proven_before: Option<i32>,
    proven_after: Option<i32>,
    /// The mover's win percentage (0–100) before (best play) and after the move.
    win_before: f64,
    win_after: f64,
    /// lichess's accuracy of the move, 0–100.
    accuracy: f64,
    best: Option<String>,
    pv: Vec<String>,
    judgement: Option<&'static str>,
    reason: Option<&'static str>,
    depth: u32,
    confirmed_depth: Option<u32>,
    /// The drop is a blunder's, but the last search called it one at too few of its deepest
    /// depths: judged a mistake.
    unsettled: bool,
    /// The position before the move is in the endgame tables: scores and verdict exact.
    exact: bool,
}

/// A score as the JSON has it: (centi-men, proven distance ±N plies), one of them set.
pub fn score_json(s: Score) -> (Option<i32>, Option<i32>) {
    match (s.as_centi_men(), s.win_distance(), s.loss_distance()) {
        (Some(cm), _, _) => (Some(cm), None),
        (None, Some(w), _) => (None, Some(w as i32)),
        (None, _, Some(l)) => (None, Some(-(l as i32))),
        (None, None, None) => (Some(0), None),
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn move_json(game: &ReplayedGame, m: &MoveAnalysis) -> MoveJson {
    let numeric = numeric(game);
    let before = &game.positions[m.ply - 1];
    let (score_before, proven_before) = score_json(m.best_score);
    let (score_after, proven_after) = score_json(m.played_score);
    let pv = line_notation(before, game.variant, &m.pv, numeric);
    MoveJson {
        ply: m.ply,
        move_number: move_number(game.first_mover, m.ply),
        side: side_name(m.mover),
        move_text: game.record.moves.nodes[m.ply - 1].mv.text.to_string(),
        score_before,
        score_after,
        proven_before,
        proven_after,
        win_before: round1(win_percent(m.verdict.wc_before)),
        win_after: round1(win_percent(m.verdict.wc_after)),
        accuracy: round1(m.verdict.accuracy),
        best: m
            .best
            .map(|b| b.notation(&before.legal_moves(game.variant), numeric)),
        pv,
        judgement: m.judgement().map(|j| j.as_str()),
        reason: m.verdict.proven.map(|r| r.as_str()),
        depth: m.depth,
        confirmed_depth: m.confirmed_depth,
        unsettled: m.unsettled,
        exact: m.exact,
    }
}

/// Where a game's JSON came from, as exactly as `drafti report --from-analysis` needs to
/// read the game again and report it as a direct run would (its validation, opening and board
/// at every ply come from this text, through the rules core).
#[derive(Serialize)]
struct RecordJson<'a> {
    /// 1-based number of the game across all inputs, all shards counted (what `--shard`
    /// counts): the parts of a job array merge by it, and a gap names the missing shard.
    ordinal: u64,
    /// Which input (1-based, in the order given; `file` is its name).
    input: usize,
    /// The column of the game's first byte (`line` is the game's own field).
    column: u32,
    /// The game's text as the splitter cut it, from the end of the previous game.
    text: Cow<'a, str>,
    /// `text` is not UTF-8 in the file: each character of `text` is one byte (U+0000-U+00FF).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    bytes: bool,
    /// The game was cut at the splitter's size limit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
}

impl<'a> RecordJson<'a> {
    fn of(item: &'a Item) -> RecordJson<'a> {
        let (text, bytes) = match std::str::from_utf8(&item.raw) {
            Ok(t) => (Cow::Borrowed(t), false),
            Err(_) => (
                Cow::Owned(item.raw.iter().map(|&b| char::from(b)).collect()),
                true,
            ),
        };
        RecordJson {
            ordinal: item.ordinal + 1,
            input: item.input + 1,
            column: item.column,
            text,
            bytes,
            truncated: item.truncated,
        }
    }
}

/// What the whole run shares, on the first line of its output only (one part of a job array
/// is one run): `drafti report --from-analysis` refuses parts of different runs' kinds.
#[derive(Serialize)]
struct RunJson<'a> {
    /// Every input's name, in the order given (those without a game too).
    inputs: &'a [String],
    /// `--shard K/N`, if given.
    shard: Option<String>,
    /// `--variant`, when it overrode the tags.
    variant: Option<&'static str>,
    /// The engine: the version and a fingerprint of its search (see [`engine_fingerprint`]).
    engine: &'a str,
}

/// `drafti 0.1.0 (search 1a2b3c4d)`: the version and a hash of a small fixed search (its
/// depth, nodes, score and line), so parts analysed by engines that search differently —
/// another evaluation, another move ordering — are told apart under one version number.
pub fn engine_fingerprint() -> String {
    let pos = drafti_rules::Position::start(Color::White);
    let mut engine = drafti_engine::Engine::new(Variant::Tanzanian, 1);
    let r = engine.search(&pos, &drafti_engine::Limits::depth(7), &[], |_| {});
    let line: Vec<String> = r.pv.iter().map(|m| m.full_notation(false)).collect();
    let text = format!(
        "{} {} {} {}",
        r.depth,
        r.nodes,
        r.score.raw(),
        line.join(" ")
    );
    // FNV-1a: stable across builds and platforms (std's hasher promises neither).
    let hash = text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("drafti {} (search {hash:08x})", env!("CARGO_PKG_VERSION"))
}

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    index: usize,
    line: u32,
    white: Option<&'a str>,
    black: Option<&'a str>,
    result: Option<&'static str>,
    variant: Option<&'static str>,
    plies: usize,
    status: &'static str,
    errors: Vec<ErrorJson<'a>>,
    search: String,
    positions: usize,
    nodes: u64,
    sides: Option<SidesJson>,
    moves: Vec<MoveJson>,
    /// The search of the last position, from its side to move, as `score_before` /
    /// `proven_before` (`null` for a game not analysed).
    final_score: Option<i32>,
    final_proven: Option<i32>,
    record: RecordJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<RunJson<'a>>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `12.` for White, `12...` for Black, counted from the game's first mover.
fn move_number(first: Color, ply: usize) -> String {
    let i = ply - 1;
    let (number, white) = match first {
        Color::White => (i / 2 + 1, i.is_multiple_of(2)),
        Color::Black => (i.div_ceil(2) + 1, !i.is_multiple_of(2)),
    };
    if white {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn tag<'a>(game: &'a ReplayedGame, name: &str) -> Option<&'a str> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?")
}

fn numeric(game: &ReplayedGame) -> bool {
    game.record
        .moves
        .nodes
        .first()
        .is_some_and(|n| n.mv.is_numeric())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn side_text(s: &SideSummary) -> String {
    let accuracy = s.accuracy.map_or("-".to_string(), |a| format!("{a:.1}%"));
    format!(
        "{}, {}, {}; accuracy {accuracy}",
        plural(s.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(s.mistakes, "mistake", "mistakes"),
        plural(s.blunders, "blunder", "blunders"),
    )
}

fn score_text(s: Score) -> String {
    s.to_string()
}

/// The text report of one analysed game.
fn game_text(item: &Item, game: &ReplayedGame, a: &GameAnalysis) -> String {
    let mut out = String::new();
    let white = tag(game, "White").unwrap_or("?");
    let black = tag(game, "Black").unwrap_or("?");
    let result = game.played_result().map_or("*", |r| r.as_str());
    let _ = writeln!(
        out,
        "{} game {}: {white} - {black}, {result}, {}",
        item.file,
        item.index,
        plural(game.moves.len(), "ply", "plies")
    );
    let _ = writeln!(out, "  White: {}", side_text(&a.white));
    let _ = writeln!(out, "  Black: {}", side_text(&a.black));
    for m in a.flagged() {
        let f = move_json(game, m);
        let symbol = m.judgement().map_or("", |j| j.symbol());
        let reason = m
            .reason_text()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        let checked = match m.confirmed_depth {
            _ if m.exact => "exact: endgame tables".to_string(),
            Some(c) if m.unsettled => format!(
                "depth {}, a blunder's drop only since depth {c}: not settled",
                m.depth
            ),
            Some(c) if c < m.depth => format!("depth {}, since depth {c}", m.depth),
            _ => format!("depth {}", m.depth),
        };
        let _ = writeln!(
            out,
            "  ply {:>3}  {} {}{symbol}  {}{reason}: {} -> {} ({:.0}% -> {:.0}%); best {} ({}); {checked}",
            m.ply,
            f.move_number,
            f.move_text,
            f.judgement.unwrap_or(""),
            score_text(m.best_score),
            score_text(m.played_score),
            f.win_before,
            f.win_after,
            f.best.as_deref().unwrap_or("-"),
            f.pv.join(" "),
        );
    }
    out.push('\n');
    out
}

/// What a game's JSON line says besides the game: the settings, and on the run's first line
/// the run.
struct JsonContext<'a> {
    search: &'a str,
    run: Option<RunJson<'a>>,
}

fn game_json(item: &Item, game: &ReplayedGame, a: &GameAnalysis, cx: JsonContext<'_>) -> String {
    let (final_score, final_proven) = a
        .final_eval
        .as_ref()
        .map_or((None, None), |e| score_json(e.score));
    let value = GameJson {
        file: &item.file,
        index: item.index,
        line: item.line,
        white: tag(game, "White"),
        black: tag(game, "Black"),
        result: game.played_result().map(|r| r.as_str()),
        variant: Some(game.variant.name()),
        plies: game.moves.len(),
        status: "analysed",
        errors: Vec::new(),
        search: cx.search.to_string(),
        positions: a.positions,
        nodes: a.nodes,
        sides: Some(SidesJson {
            white: (&a.white).into(),
            black: (&a.black).into(),
        }),
        moves: a.moves.iter().map(|m| move_json(game, m)).collect(),
        final_score,
        final_proven,
        record: RecordJson::of(item),
        run: cx.run,
    };
    let mut text = serde_json::to_string(&value).expect("serializable");
    text.push('\n');
    text
}

/// The report of a game that was not analysed (unreadable or invalid).
fn skipped_report(item: &Item, json: Option<JsonContext<'_>>) -> String {
    let errors: Vec<ErrorJson<'_>> = match &item.game {
        Err(e) => vec![ErrorJson {
            line: e.span.line,
            column: e.span.column,
            ply: None,
            kind: "syntax",
            message: &e.message,
        }],
        Ok(g) => g
            .errors()
            .map(|p| ErrorJson {
                line: p.span.line,
                column: p.span.column,
                ply: p.ply,
                kind: p.kind.as_str(),
                message: &p.message,
            })
            .collect(),
    };
    if let Some(cx) = json {
        let game = item.game.as_ref().ok();
        let value = GameJson {
            file: &item.file,
            index: item.index,
            line: item.line,
            white: game.and_then(|g| tag(g, "White")),
            black: game.and_then(|g| tag(g, "Black")),
            result: game.and_then(|g| g.played_result()).map(|r| r.as_str()),
            variant: game.map(|g| g.variant.name()),
            plies: game.map_or(0, |g| g.moves.len()),
            status: "invalid",
            errors,
            search: cx.search.to_string(),
            positions: 0,
            nodes: 0,
            sides: None,
            moves: Vec::new(),
            final_score: None,
            final_proven: None,
            record: RecordJson::of(item),
            run: cx.run,
        };
        let mut text = serde_json::to_string(&value).expect("serializable");
        text.push('\n');
        return text;
    }
    let mut out = format!(
        "{} game {}: invalid, not analysed (run drafti validate for details)\n",
        item.file, item.index
    );
    for e in errors {
        let _ = writeln!(out, "  {}:{}: {}", e.line, e.column, e.message);
    }
    out.push('\n');
    out
}

/// What the analysis of a batch adds to the totals.
#[derive(Default)]
struct Totals {
    games: u64,
    analysed: u64,
    invalid: u64,
    positions: u64,
    flagged: [u64; 3],
}

struct Run<'a> {
    options: AnalysisOptions,
    search: String,
    json: bool,
    /// The inputs' names, `--shard`, `--variant` and the engine (the JSON's `run`).
    inputs: Vec<String>,
    shard: Option<Shard>,
    forced_variant: Option<Variant>,
    engine: String,
    /// JSON lines written (the first carries `run`).
    lines: u64,
    pool: rayon::ThreadPool,
    bar: Option<indicatif::ProgressBar>,
    out: &'a mut dyn Write,
    pdn: Option<std::io::BufWriter<OutputFile>>,
    pdn_games: u64,
    totals: Totals,
    /// Bytes of input read so far and positions found in them (to estimate the total).
    bytes_seen: u64,
    total_bytes: Option<u64>,
}

impl Run<'_> {
    /// The context of the next JSON line (counted as written).
    fn json_context(&mut self) -> JsonContext<'_> {
        self.lines += 1;
        JsonContext {
            search: &self.search,
            run: (self.lines == 1).then(|| RunJson {
                inputs: &self.inputs,
                shard: self.shard.map(|s| s.to_string()),
                variant: self.forced_variant.map(Variant::name),
                engine: &self.engine,
            }),
        }
    }

    fn flush(&mut self, items: &mut Vec<Item>) -> std::io::Result<()> {
        let games: Vec<&ReplayedGame> = items.iter().filter_map(Item::analysable).collect();
        let positions: usize = games.iter().map(|g| g.positions.len()).sum();
        if let Some(bar) = &self.bar {
            let seen = self.totals.positions + positions as u64;
            let estimate = match self.total_bytes {
                Some(total) if self.bytes_seen > 0 => {
                    (seen as f64 * total as f64 / self.bytes_seen as f64) as u64
                }
                _ => seen,
            };
            bar.set_length(estimate.max(seen));
        }
        let bar = self.bar.clone();
        let progress = move |n: u64| {
            if let Some(bar) = &bar {
                bar.inc(n);
            }
        };
        let options = &self.options;
        let analyses = self
            .pool
            .install(|| analyse_games(&games, options, &progress));
        let mut analyses = analyses.into_iter();
        for item in items.drain(..) {
            self.totals.games += 1;
            let text;
            match item.analysable() {
                Some(game) => {
                    let a = analyses.next().expect("one analysis per valid game");
                    self.totals.analysed += 1;
                    self.totals.positions += a.positions as u64;
                    for side in [&a.white, &a.black] {
                        self.totals.flagged[0] += side.inaccuracies as u64;
                        self.totals.flagged[1] += side.mistakes as u64;
                        self.totals.flagged[2] += side.blunders as u64;
                    }
                    text = if self.json {
                        game_json(&item, game, &a, self.json_context())
                    } else {
                        game_text(&item, game, &a)
                    };
                    if let Some(pdn) = &mut self.pdn {
                        let mut record = game.record.clone();
                        annotate(&mut record, game, &a, numeric(game));
                        let mut s = String::new();
                        if self.pdn_games > 0 {
                            s.push('\n');
                        }
                        write_game_to(&record, &mut s);
                        pdn.write_all(s.as_bytes())?;
                        self.pdn_games += 1;
                    }
                }
                None => {
                    self.totals.invalid += 1;
                    text = if self.json {
                        skipped_report(&item, Some(self.json_context()))
                    } else {
                        skipped_report(&item, None)
                    };
                    if let Some(pdn) = &mut self.pdn {
                        // Written back untouched.
                        let raw = String::from_utf8_lossy(&item.raw);
                        let raw = raw.trim();
                        if self.pdn_games > 0 {
                            pdn.write_all(b"\n")?;
                        }
                        pdn.write_all(raw.as_bytes())?;
                        pdn.write_all(b"\n")?;
                        self.pdn_games += 1;
                    }
                }
            }
            self.out.write_all(text.as_bytes())?;
        }
        Ok(())
    }
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} positions, {per_sec}, {eta} left",
        )
        .expect("valid template"),
    );
    Some(bar)
}

pub fn run(args: Args) -> CommandResult {
    let opened = open_inputs(&args.files, args.encoding)?;
    let mut options = args.search.options();
    options.tables = args.search.tables(true)?;
    let jobs = jobs(args.jobs);
    let pool = worker_pool(jobs, "analyze")?;
    let pdn = match &args.pdn {
        // stdout carries the report (text or JSON), so the PDN cannot go there too.
        Some(path) if path == "-" => {
            return Err(CliError(
                "--pdn -: stdout carries the analysis; give --pdn a file name".into(),
            ))
        }
        // Written beside OUT and renamed when complete: an older OUT stays until then.
        Some(path) => Some(std::io::BufWriter::new(OutputFile::create(
            std::path::Path::new(path),
        )?)),
        None => None,
    };
    let batch = BatchOptions {
        jobs: 1,
        shard: args.shard,
        chunk_size: 32,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let started = Instant::now();
    let run = RefCell::new(Run {
        search: options.label(),
        options,
        json: args.json,
        inputs: opened.inputs.iter().map(|i| i.name.clone()).collect(),
        shard: args.shard,
        forced_variant: args.variant,
        engine: if args.json {
            engine_fingerprint()
        } else {
            String::new()
        },
        lines: 0,
        pool,
        bar: progress_bar(),
        out: &mut out,
        pdn,
        pdn_games: 0,
        totals: Totals::default(),
        bytes_seen: 0,
        total_bytes: opened.total_bytes,
    });
    let bytes = Cell::new(0u64);
    let mut items: Vec<Item> = Vec::new();
    let mut buffered = 0usize;
    let shard = args.shard.unwrap_or(Shard { index: 1, count: 1 });
    let mut handed = 0u64;
    let result = run_games(
        opened.inputs,
        &batch,
        |p| bytes.set(p.bytes),
        |job| Item {
            file: job.file.to_string(),
            input: job.file_index,
            ordinal: 0,
            index: job.raw.index + 1,
            line: job.raw.line,
            column: job.raw.column,
            raw: job.raw.bytes.clone(),
            truncated: job.raw.truncated,
            game: job.game,
        },
        |mut item: Item| -> std::io::Result<()> {
            // The sink sees this shard's games in input order: the K-th, then every N-th.
            item.ordinal = shard.index - 1 + handed * shard.count;
            handed += 1;
            buffered += item.analysable().map_or(0, |g| g.positions.len());
            items.push(item);
            if buffered >= FLUSH_POSITIONS {
                let mut r = run.borrow_mut();
                r.bytes_seen = bytes.get();
                r.flush(&mut items)?;
                buffered = 0;
            }
            Ok(())
        },
    );
    let mut run = run.into_inner();
    let finished = match result {
        Ok(summary) => {
            run.bytes_seen = summary.bytes;
            run.flush(&mut items)
                .and_then(|()| run.out.flush())
                .and_then(|()| match run.pdn.take() {
                    Some(p) => p
                        .into_inner()
                        .map_err(|e| e.into_error())?
                        .commit()
                        .map(drop),
                    None => Ok(()),
                })
                .map(|()| Some(summary))
        }
        Err(BatchError::Sink(e)) => Err(e),
        Err(e) => return Err(CliError(e.to_string())),
    };
    if let Some(bar) = &run.bar {
        bar.finish_and_clear();
    }
    let t = &run.totals;
    let invalid = t.invalid > 0;
    let summary = match finished {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            return Ok(ExitCode::from(u8::from(invalid)));
        }
        Err(e) => return Err(CliError(format!("cannot write the report: {e}"))),
    };
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        (t.positions as f64 / secs) as u64
    } else {
        0
    };
    let shard = match (args.shard, &summary) {
        (Some(s), Some(sum)) => format!(" (shard {s}; {} left to other shards)", sum.skipped),
        _ => String::new(),
    };
    eprintln!(
        "{} games{shard}: {} analysed, {} invalid (skipped); {} positions at {} on {jobs} {}: {} inaccuracies, {} mistakes, {} blunders; {:.2} s, {} positions/s",
        thousands(t.games),
        thousands(t.analysed),
        thousands(t.invalid),
        thousands(t.positions),
        run.search,
        if jobs == 1 { "thread" } else { "threads" },
        thousands(t.flagged[0]),
        thousands(t.flagged[1]),
        thousands(t.flagged[2]),
        secs,
        thousands(rate)
    );
    Ok(ExitCode::from(u8::from(invalid)))
}
