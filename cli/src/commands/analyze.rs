//! `drafti analyze`: every valid game searched position by position; inaccuracies, mistakes
//! and blunders per side with accuracy, as text, JSON Lines, or an annotated PDN archive.
//!
//! ```text
//! FILES ──drafti_analysis::batch::analyse_archive (--jobs threads, input order)──▶
//!       each game with its analysis: stdout (text | JSON Lines of drafti_analysis::json),
//!       --pdn OUT; the summary on stderr
//! ```
//! Invalid games are reported (their errors) and skipped. The output depends only on the
//! input and the search limits, never on `--jobs`.

use crate::common::{
    jobs, parse_variant, thousands, worker_pool, CliError, CommandResult, OutputFile,
};
use crate::input::{open_inputs, EncodingArg};
use drafti_analysis::batch::{analyse_archive, ArchiveGame, ArchiveOptions, Progress};
use drafti_analysis::judge::SideSummary;
use drafti_analysis::{annotate, json, AnalysisOptions, EndgameTables, GameAnalysis};
use drafti_archive::batch::{BatchError, Shard};
use drafti_archive::replay::{ReplayOptions, ReplayedGame};
use drafti_pdn::write_game_to;
use drafti_rules::Variant;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

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

fn tag<'a>(game: &'a ReplayedGame, name: &str) -> Option<&'a str> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?")
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

/// The text report of one analysed game.
fn game_text(g: &ArchiveGame, game: &ReplayedGame, a: &GameAnalysis) -> String {
    let mut out = String::new();
    let white = tag(game, "White").unwrap_or("?");
    let black = tag(game, "Black").unwrap_or("?");
    let result = game.played_result().map_or("*", |r| r.as_str());
    let _ = writeln!(
        out,
        "{} game {}: {white} - {black}, {result}, {}",
        g.file,
        g.raw.index + 1,
        plural(game.moves.len(), "ply", "plies")
    );
    let _ = writeln!(out, "  White: {}", side_text(&a.white));
    let _ = writeln!(out, "  Black: {}", side_text(&a.black));
    for m in a.flagged() {
        let f = json::Move::of(game, m);
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
            f.text,
            f.judgement.map_or("", |j| j.as_str()),
            m.best_score,
            m.played_score,
            f.win_before,
            f.win_after,
            f.best.as_deref().unwrap_or("-"),
            f.pv.join(" "),
        );
    }
    out.push('\n');
    out
}

/// The text report of a game that was not analysed (unreadable or invalid).
fn skipped_text(g: &ArchiveGame) -> String {
    let mut out = format!(
        "{} game {}: invalid, not analysed (run drafti validate for details)\n",
        g.file,
        g.raw.index + 1
    );
    for e in json::Problem::of_game(&g.game) {
        let _ = writeln!(out, "  {}:{}: {}", e.line, e.column, e.message);
    }
    out.push('\n');
    out
}

/// What the analysis of the games adds to the totals.
#[derive(Default)]
struct Totals {
    games: u64,
    analysed: u64,
    invalid: u64,
    positions: u64,
    flagged: [u64; 3],
}

/// Where the games go, in input order.
struct Writer<'a> {
    search: &'a str,
    json: bool,
    /// The JSON's `run`, until the first line takes it.
    run: Option<json::Run>,
    out: &'a mut dyn Write,
    pdn: Option<std::io::BufWriter<OutputFile>>,
    pdn_games: u64,
    totals: Totals,
}

impl Writer<'_> {
    fn write(&mut self, g: ArchiveGame) -> std::io::Result<()> {
        self.totals.games += 1;
        let text = if self.json {
            let line = json::Game::of(&g, self.search, self.run.take());
            let mut text = serde_json::to_string(&line).expect("serializable");
            text.push('\n');
            text
        } else {
            match (g.analysable(), &g.analysis) {
                (Some(game), Some(a)) => game_text(&g, game, a),
                _ => skipped_text(&g),
            }
        };
        match (g.analysable(), &g.analysis) {
            (Some(game), Some(a)) => {
                self.totals.analysed += 1;
                self.totals.positions += a.positions as u64;
                for side in [&a.white, &a.black] {
                    self.totals.flagged[0] += side.inaccuracies as u64;
                    self.totals.flagged[1] += side.mistakes as u64;
                    self.totals.flagged[2] += side.blunders as u64;
                }
                if let Some(pdn) = &mut self.pdn {
                    let mut record = game.record.clone();
                    annotate(&mut record, game, a, json::is_numeric(game));
                    let mut s = String::new();
                    if self.pdn_games > 0 {
                        s.push('\n');
                    }
                    write_game_to(&record, &mut s);
                    pdn.write_all(s.as_bytes())?;
                    self.pdn_games += 1;
                }
            }
            _ => {
                self.totals.invalid += 1;
                if let Some(pdn) = &mut self.pdn {
                    // Written back untouched.
                    let raw = String::from_utf8_lossy(&g.raw.bytes);
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
        self.out.write_all(text.as_bytes())
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
    let search = options.label();
    let archive = ArchiveOptions {
        shard: args.shard,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..ArchiveOptions::new(options)
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let started = Instant::now();
    let inputs: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let mut writer = Writer {
        search: &search,
        json: args.json,
        run: args
            .json
            .then(|| json::Run::new(inputs, args.shard, args.variant)),
        out: &mut out,
        pdn,
        pdn_games: 0,
        totals: Totals::default(),
    };
    let bar = progress_bar();
    let total_bytes = opened.total_bytes;
    let progress = |p: Progress| {
        let Some(bar) = &bar else { return };
        match p {
            // The length: the positions read so far, scaled to the whole input by its bytes.
            Progress::Batch {
                bytes, positions, ..
            } => {
                let estimate = match total_bytes {
                    Some(total) if bytes > 0 => {
                        (positions as f64 * total as f64 / bytes as f64) as u64
                    }
                    _ => positions,
                };
                bar.set_length(estimate.max(positions));
            }
            Progress::Searched(n) => bar.inc(n),
        }
    };
    let result = analyse_archive(
        opened.inputs,
        &archive,
        &pool,
        &progress,
        |g| g,
        |g| writer.write(g),
    );
    let finished = match result {
        Ok(summary) => writer
            .out
            .flush()
            .and_then(|()| match writer.pdn.take() {
                Some(p) => p
                    .into_inner()
                    .map_err(|e| e.into_error())?
                    .commit()
                    .map(drop),
                None => Ok(()),
            })
            .map(|()| summary),
        Err(BatchError::Sink(e)) => Err(e),
        Err(e) => return Err(CliError(e.to_string())),
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let t = &writer.totals;
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
    let shard = match args.shard {
        Some(s) => format!(" (shard {s}; {} left to other shards)", summary.skipped),
        None => String::new(),
    };
    eprintln!(
        "{} games{shard}: {} analysed, {} invalid (skipped); {} positions at {} on {jobs} {}: {} inaccuracies, {} mistakes, {} blunders; {:.2} s, {} positions/s",
        thousands(t.games),
        thousands(t.analysed),
        thousands(t.invalid),
        thousands(t.positions),
        search,
        if jobs == 1 { "thread" } else { "threads" },
        thousands(t.flagged[0]),
        thousands(t.flagged[1]),
        thousands(t.flagged[2]),
        secs,
        thousands(rate)
    );
    Ok(ExitCode::from(u8::from(invalid)))
}
