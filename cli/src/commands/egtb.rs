//! `drafti egtb build|probe|verify|info`: endgame tables — build them by retrograde analysis,
//! look a position up, check every entry, list what is there.
//!
//! Tables live in `DIR/<variant>/` (`tz`, `czech`, `russian`), one file per material
//! signature. `DIR` is `--dir DIR` (alias `--egtb`), else `$XDG_CACHE_HOME/drafti/egtb`, else
//! `~/.cache/drafti/egtb`; the commands that search (`drafti search`, `drafti hub`) use the
//! tables there automatically when they exist, and say so.

use crate::args::{jobs, parse_fen};
use crate::error::{report_written, CliError, CommandResult};
use crate::progress::Progress;
use crate::runner::worker_pool;
use drafti_engine::egtb::{self, BuildEvent, EgtbError, Signature, Tables, Value};
use drafti_report::thousands;
use drafti_rules::{numbered_line, Position, Variant};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Build every table with at most --pieces pieces (kept tables are checked and kept).
    Build(BuildArgs),
    /// The exact value of a position, its best move and the line to the end.
    Probe(ProbeArgs),
    /// Check every entry of every table against the values its moves lead to.
    Verify(VerifyArgs),
    /// List the tables: signatures, wins/draws/losses, longest distance, sizes.
    Info(InfoArgs),
}

/// Where the tables are.
#[derive(clap::Args)]
struct DirArg {
    /// Folder of the tables (default: $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb).
    #[arg(long, visible_alias = "egtb", value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct BuildArgs {
    /// Rules: tz (default), czech, russian, or all three.
    #[arg(long, default_value = "tz", value_parser = parse_variants)]
    variant: VariantSet,
    /// The most pieces (both sides together) of a table.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=egtb::MAX_PIECES as i64),
          required_unless_present = "signature")]
    pieces: Option<u32>,
    /// Only these signatures (e.g. KKKvKKK) and the tables they lead to.
    #[arg(long, value_name = "NAME", value_parser = parse_signature, conflicts_with = "pieces")]
    signature: Vec<Signature>,
    #[command(flatten)]
    dir: DirArg,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::args::parse_jobs)]
    jobs: usize,
    /// Start a build of more than 10 billion new positions (7 pieces and up: hours, and tens
    /// of gigabytes); without it such a build prints its estimate and stops.
    #[arg(long)]
    yes: bool,
}

#[derive(clap::Args)]
struct ProbeArgs {
    /// The position (FEN, numeric or algebraic squares).
    #[arg(long, value_parser = parse_fen)]
    fen: Position,
    /// Rules: tz (default), czech or russian.
    #[arg(long, default_value = "tz", value_parser = crate::args::parse_variant)]
    variant: Variant,
    /// Moves the lone king has already made under draw law 2 (three kings against one).
    #[arg(long, value_name = "N")]
    king_count: Option<u32>,
    #[command(flatten)]
    dir: DirArg,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    /// Square numbers (1-32) instead of algebraic names.
    #[arg(long)]
    numeric: bool,
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// Rules: tz (default), czech, russian, or all three.
    #[arg(long, default_value = "tz", value_parser = parse_variants)]
    variant: VariantSet,
    #[command(flatten)]
    dir: DirArg,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::args::parse_jobs)]
    jobs: usize,
}

#[derive(clap::Args)]
struct InfoArgs {
    /// Rules: tz (default), czech, russian, or all three.
    #[arg(long, default_value = "tz", value_parser = parse_variants)]
    variant: VariantSet,
    #[command(flatten)]
    dir: DirArg,
    /// JSON Lines: one object per table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone)]
struct VariantSet(Vec<Variant>);

fn parse_signature(text: &str) -> Result<Signature, String> {
    Signature::from_name(text).ok_or_else(|| {
        format!("'{text}' is no signature (e.g. KKMvK: the side to move's kings and men, v, the other side's)")
    })
}

fn parse_variants(text: &str) -> Result<VariantSet, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(VariantSet(Variant::ALL.to_vec()));
    }
    text.split(',')
        .map(|v| v.parse::<Variant>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()
        .map(VariantSet)
}

fn root(dir: &DirArg) -> Result<PathBuf, CliError> {
    dir.dir
        .clone()
        .or_else(crate::tables::default_dir)
        .ok_or_else(|| {
            CliError::new("no folder for the endgame tables: give --dir DIR (HOME is not set)")
        })
}

/// Still used by `puzzles.rs` until it takes [`crate::tables::TableArgs`] (the other branch
/// of this change does so); delete it then.
pub fn tables_for_search(
    dir: Option<&Path>,
    variant: Variant,
) -> Result<Option<Arc<Tables>>, CliError> {
    crate::tables::TableArgs {
        egtb: dir.map(Path::to_path_buf),
        no_egtb: false,
    }
    .for_variant(variant)
}

fn open(dir: &DirArg, variant: Variant) -> Result<Tables, CliError> {
    let root = root(dir)?;
    Tables::open(&root, variant).map_err(|e| match e {
        EgtbError::NoTables { path } => CliError::new(format!(
            "no endgame tables for {variant} in {} (drafti egtb build --variant {} --pieces 4 \
             --dir {} builds them)",
            path.display(),
            variant.name(),
            root.display()
        )),
        e => CliError::new(e.to_string()),
    })
}

pub fn run(args: Args) -> CommandResult {
    match args.command {
        Command::Build(a) => build(a),
        Command::Probe(a) => probe(a),
        Command::Verify(a) => verify(a),
        Command::Info(a) => info(a),
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn gb(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

/// Builds of more new positions than this need `--yes` (7 pieces: about 60 billion).
const CONFIRM_POSITIONS: u64 = 10_000_000_000;

/// The build's lines to stdout, from its worker threads too: written above the bar, the
/// first write error kept (and nothing more written after it).
struct Lines {
    bar: Progress,
    failed: Option<io::Error>,
}

impl Lines {
    fn say(&mut self, line: std::fmt::Arguments) {
        if self.failed.is_none() {
            let written = self.bar.suspend(|| writeln!(io::stdout().lock(), "{line}"));
            self.failed = written.err();
        }
    }
}

fn build(args: BuildArgs) -> CommandResult {
    let root = root(&args.dir)?;
    let threads = jobs(args.jobs);
    let (targets, what) = match args.pieces {
        Some(n) => (Signature::all_up_to(n), format!("of at most {n} pieces")),
        None => {
            let names: Vec<String> = args.signature.iter().map(|s| s.name()).collect();
            (args.signature.clone(), format!("for {}", names.join(", ")))
        }
    };
    let mut plans = Vec::new();
    for &variant in &args.variant.0 {
        let plan =
            egtb::plan(&root, variant, &targets).map_err(|e| CliError::new(e.to_string()))?;
        if plan.new_positions > CONFIRM_POSITIONS && !args.yes {
            return Err(CliError::new(format!(
                "{variant}: {} new tables {what} hold {} positions: {} on disk and hours of \
                 work; give --yes to build them",
                plan.new_signatures,
                thousands(plan.new_positions),
                gb(plan.new_bytes())
            )));
        }
        plans.push((variant, plan));
    }
    let pool = worker_pool(threads, "egtb")?;
    for (variant, plan) in plans {
        let start = Instant::now();
        report_written(writeln!(
            io::stdout().lock(),
            "{variant}: {} tables {what}, {} positions, in {} ({threads} threads)",
            plan.signatures,
            thousands(plan.positions),
            Tables::variant_dir(&root, variant).display()
        ))?;
        let lines = Mutex::new(Lines {
            bar: Progress::hidden(),
            failed: None,
        });
        let lines = || lines.lock().unwrap_or_else(|e| e.into_inner());
        let counts = Mutex::new([0usize; 2]);
        let count = |i: usize| counts.lock().unwrap_or_else(|e| e.into_inner())[i] += 1;
        let on_event = |event: BuildEvent| match event {
            BuildEvent::Plan { positions, .. } => {
                lines().bar = Progress::count(positions, "positions");
            }
            BuildEvent::Kept {
                signature,
                positions,
            } => {
                count(1);
                let mut lines = lines();
                lines.bar.inc(positions);
                lines.say(format_args!(
                    "  kept  {:<10} {:>13} positions",
                    signature.name(),
                    thousands(positions)
                ));
            }
            BuildEvent::Progress { positions } => lines().bar.inc(positions),
            BuildEvent::Built {
                signature,
                positions,
                max_distance,
            } => {
                count(0);
                lines().say(format_args!(
                    "  built {:<10} {:>13} positions, longest {max_distance} plies, {:.1} s",
                    signature.name(),
                    thousands(positions),
                    start.elapsed().as_secs_f64()
                ));
            }
        };
        let tables = pool
            .install(|| egtb::build_signatures(&root, variant, &targets, &on_event))
            .map_err(|e| CliError::new(e.to_string()))?;
        let mut lines = lines();
        lines.bar = Progress::hidden();
        if let Some(e) = lines.failed.take() {
            return Err(CliError::writing("the report", &e));
        }
        let [built, kept] = *counts.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: u64 = tables.infos().iter().map(|i| i.bytes).sum();
        report_written(writeln!(
            io::stdout().lock(),
            "{variant}: {} tables ({built} built, {kept} kept), {} on disk, {:.1} s",
            tables.len(),
            mb(bytes),
            start.elapsed().as_secs_f64()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

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
}

fn result_word(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    }
}

/// The longest line `probe` prints (a draw has no end: its first drawing moves).
const LINE_PLIES: usize = 300;
const DRAW_LINE_PLIES: usize = 12;

fn probe(args: ProbeArgs) -> CommandResult {
    let tables = open(&args.dir, args.variant)?;
    let pos = args.fen;
    let sig = Signature::of(&pos);
    let Some(value) = tables.probe(&pos, args.king_count) else {
        return Err(CliError::new(format!(
            "no table for {} ({sig}) in {} (they have at most {} pieces)",
            pos.to_fen(),
            tables.dir().display(),
            tables.max_pieces()
        )));
    };
    // A table missing after a move is an error naming it, never "the game is over".
    let missing = |e: egtb::EgtbError| match e {
        egtb::EgtbError::MissingTable(s) => CliError::new(format!(
            "cannot probe {}: the table {s} is needed but missing ({})",
            pos.to_fen(),
            tables.dir().join(egtb::file_name(s)).display()
        )),
        e => CliError::new(format!("cannot probe {}: {e}", pos.to_fen())),
    };
    let moves = tables.rank_moves(&pos, args.king_count).map_err(missing)?;
    let plies = if value == Value::Draw {
        DRAW_LINE_PLIES
    } else {
        LINE_PLIES
    };
    let line = tables.line(&pos, args.king_count, plies).map_err(missing)?;
    let variant = args.variant;
    let names = |mv: &drafti_rules::Move| {
        pos.line_notation(variant, std::slice::from_ref(mv), args.numeric)
            .remove(0)
    };
    let line_text = pos.line_notation(variant, &line, args.numeric);
    let side = pos.turn();
    let mut out = io::stdout().lock();
    if args.json {
        let json = ProbeJson {
            fen: pos.to_fen(),
            variant: variant.name().into(),
            tables: tables.dir().display().to_string(),
            signature: sig.name(),
            king_count: args.king_count,
            value: value.to_string(),
            result: result_word(value),
            distance: value.distance(),
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
        match line.first() {
            Some(best) => writeln!(out, "best   {}", names(best))?,
            None => writeln!(out, "best   none: the game is over")?,
        }
        if !line.is_empty() {
            let more = if value == Value::Draw { " …" } else { "" };
            writeln!(out, "line   {}{more}", numbered_line(side, &line_text))?;
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

fn verify(args: VerifyArgs) -> CommandResult {
    let pool = worker_pool(jobs(args.jobs), "egtb")?;
    let mut all_ok = true;
    for &variant in &args.variant.0 {
        let tables = open(&args.dir, variant)?;
        let start = Instant::now();
        let total: u64 = tables.infos().iter().map(|i| i.header.entries).sum();
        let bar = Progress::count(total, "positions");
        let report = pool.install(|| egtb::verify(&tables, &|n| bar.inc(n)));
        drop(bar);
        let mut out = io::stdout().lock();
        for problem in &report.problems {
            report_written(writeln!(out, "  {problem}"))?;
        }
        let dir = tables.dir().display();
        report_written(if report.ok() {
            writeln!(
                out,
                "{variant}: {} tables, {} positions verified in {:.1} s: every entry consistent ({dir})",
                report.tables,
                thousands(report.positions),
                start.elapsed().as_secs_f64(),
            )
        } else {
            all_ok = false;
            writeln!(
                out,
                "{variant}: {} of {} positions inconsistent ({dir})",
                thousands(report.errors),
                thousands(report.positions),
            )
        })?;
    }
    Ok(crate::error::exit_code(!all_ok))
}

#[derive(Serialize)]
struct InfoJson {
    variant: String,
    signature: String,
    pieces: u32,
    layers: u32,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    max_distance: u32,
    bytes: u64,
    path: String,
}

/// One row of the `info` table.
fn info_row(out: &mut impl Write, cells: [&str; 8]) -> io::Result<()> {
    let [a, b, c, d, e, f, g, h] = cells;
    writeln!(
        out,
        "  {a:<10} {b:>6} {c:>13} {d:>13} {e:>13} {f:>13} {g:>7} {h:>10}"
    )
}

fn info(args: InfoArgs) -> CommandResult {
    let mut out = io::stdout().lock();
    for &variant in &args.variant.0 {
        let tables = open(&args.dir, variant)?;
        report_written(write_info(&mut out, variant, &tables, args.json))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_info(
    out: &mut impl Write,
    variant: Variant,
    tables: &Tables,
    json: bool,
) -> io::Result<()> {
    let infos = tables.infos();
    if json {
        for i in &infos {
            let h = i.header;
            let json = InfoJson {
                variant: variant.name().into(),
                signature: h.signature.name(),
                pieces: h.signature.pieces(),
                layers: h.layers,
                positions: h.wins + h.draws + h.losses,
                wins: h.wins,
                draws: h.draws,
                losses: h.losses,
                max_distance: h.max_distance,
                bytes: i.bytes,
                path: i.path.display().to_string(),
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&json).map_err(io::Error::other)?
            )?;
        }
        return Ok(());
    }
    writeln!(out, "{variant}: {}", tables.dir().display())?;
    let head = [
        "table",
        "layers",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest",
        "size",
    ];
    info_row(out, head)?;
    let mut total = [0u64; 5];
    for i in &infos {
        let h = i.header;
        let positions = h.wins + h.draws + h.losses;
        let n = [positions, h.wins, h.draws, h.losses].map(thousands);
        let (name, layers, longest) = (
            h.signature.name(),
            h.layers.to_string(),
            h.max_distance.to_string(),
        );
        info_row(
            out,
            [
                &name,
                &layers,
                &n[0],
                &n[1],
                &n[2],
                &n[3],
                &longest,
                &mb(i.bytes),
            ],
        )?;
        for (t, v) in total
            .iter_mut()
            .zip([positions, h.wins, h.draws, h.losses, i.bytes])
        {
            *t += v;
        }
    }
    let n = [total[0], total[1], total[2], total[3]].map(thousands);
    let count = format!("{} tables", infos.len());
    info_row(
        out,
        [&count, "", &n[0], &n[1], &n[2], &n[3], "", &mb(total[4])],
    )
}
