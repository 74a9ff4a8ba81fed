//! `drafti egtb build|probe|verify|info`: endgame tables — build them by retrograde analysis,
//! look a position up, check every entry, list what is there.
//!
//! Tables live in `DIR/<variant>/` (`tz`, `czech`, `russian`), one file per material
//! signature. `DIR` is `--dir DIR` (alias `--egtb`), else `$XDG_CACHE_HOME/drafti/egtb`, else
//! `~/.cache/drafti/egtb`; the commands that search (`drafti search`, `drafti hub`) use the
//! tables there automatically when they exist, and say so.

use crate::args::{jobs, parse_fen};
use crate::error::{CliError, CommandResult};
use crate::runner::worker_pool;
use drafti_engine::egtb::{self, BuildEvent, Signature, Tables, Value};
use drafti_report::thousands;
use drafti_rules::{numbered_line, Position, Variant};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
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

/// The default folder of the tables: `$XDG_CACHE_HOME/drafti/egtb`, else
/// `~/.cache/drafti/egtb`.
pub fn default_dir() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("drafti").join("egtb"))
}

fn root(dir: &DirArg) -> Result<PathBuf, CliError> {
    dir.dir.clone().or_else(default_dir).ok_or_else(|| {
        CliError::new("no folder for the endgame tables: give --dir DIR (HOME is not set)")
    })
}

/// The tables a searching command uses: those under `--egtb DIR` (an error if there are
/// none or one is damaged), else those in the default folder if it has any (a damaged one is
/// still an error). Says on stderr which tables it uses.
pub fn tables_for_search(
    dir: Option<&Path>,
    variant: Variant,
) -> Result<Option<Arc<Tables>>, CliError> {
    match dir {
        Some(d) => tables_in(d, variant, true),
        None => match default_dir() {
            Some(d) => tables_in(&d, variant, false),
            None => Ok(None),
        },
    }
}

/// The tables of `variant` under `root`, said on stderr. Not `required`: none there is no
/// error (a damaged file still is).
pub fn tables_in(
    root: &Path,
    variant: Variant,
    required: bool,
) -> Result<Option<Arc<Tables>>, CliError> {
    if !required && !Tables::variant_dir(root, variant).is_dir() {
        return Ok(None);
    }
    match Tables::open(root, variant) {
        Ok(t) => {
            eprintln!(
                "endgame tables: {} ({} tables, up to {} pieces)",
                t.dir().display(),
                t.len(),
                t.max_pieces()
            );
            Ok(Some(Arc::new(t)))
        }
        Err(egtb::EgtbError::NoTables { .. }) if !required => Ok(None),
        Err(e) => Err(CliError::new(e.to_string())),
    }
}

fn open(dir: &DirArg, variant: Variant) -> Result<Tables, CliError> {
    let root = root(dir)?;
    Tables::open(&root, variant).map_err(|e| CliError::new(e.to_string()))
}

pub fn run(args: Args) -> CommandResult {
    match args.command {
        Command::Build(a) => build(a),
        Command::Probe(a) => probe(a),
        Command::Verify(a) => verify(a),
        Command::Info(a) => info(a),
    }
}

fn progress_bar(total: u64, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let template =
        format!("{{bar:40}} {{human_pos}}/{{human_len}} {what}, {{per_sec}}, {{eta}} left");
    bar.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template"));
    Some(bar)
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn build(args: BuildArgs) -> CommandResult {
    let root = root(&args.dir)?;
    let threads = jobs(args.jobs);
    let pool = worker_pool(threads, "egtb")?;
    for &variant in &args.variant.0 {
        let start = Instant::now();
        let bar: std::sync::Mutex<Option<indicatif::ProgressBar>> = std::sync::Mutex::new(None);
        let say = |line: String| {
            let bar = bar.lock().unwrap_or_else(|e| e.into_inner());
            match bar.as_ref() {
                Some(b) => b.suspend(|| println!("{line}")),
                None => println!("{line}"),
            }
        };
        let counts = std::sync::Mutex::new((0usize, 0usize));
        let on_event = |event: BuildEvent| match event {
            BuildEvent::Plan {
                signatures,
                positions,
            } => {
                let what = match args.pieces {
                    Some(n) => format!("of at most {n} pieces"),
                    None => {
                        "for ".to_string()
                            + &args
                                .signature
                                .iter()
                                .map(|s| s.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                    }
                };
                println!(
                    "{variant}: {signatures} tables {what}, {} positions, in {} ({threads} threads)",
                    thousands(positions),
                    Tables::variant_dir(&root, variant).display()
                );
                *bar.lock().unwrap_or_else(|e| e.into_inner()) =
                    progress_bar(positions, "positions");
            }
            BuildEvent::Kept {
                signature,
                positions,
            } => {
                counts.lock().unwrap_or_else(|e| e.into_inner()).1 += 1;
                if let Some(b) = bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    b.inc(positions);
                }
                say(format!(
                    "  kept  {:<10} {:>13} positions",
                    signature.name(),
                    thousands(positions)
                ));
            }
            BuildEvent::Progress { positions } => {
                if let Some(b) = bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    b.inc(positions);
                }
            }
            BuildEvent::Built {
                signature,
                positions,
                max_distance,
            } => {
                counts.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
                say(format!(
                    "  built {:<10} {:>13} positions, longest {max_distance} plies, {:.1} s",
                    signature.name(),
                    thousands(positions),
                    start.elapsed().as_secs_f64()
                ));
            }
        };
        let tables = pool
            .install(|| match args.pieces {
                Some(n) => egtb::build(&root, variant, n, &on_event),
                None => egtb::build_signatures(&root, variant, &args.signature, &on_event),
            })
            .map_err(|e| CliError::new(e.to_string()))?;
        if let Some(b) = bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
        let (built, kept) = *counts.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: u64 = tables.infos().iter().map(|i| i.bytes).sum();
        println!(
            "{variant}: {} tables ({built} built, {kept} kept), {} on disk, {:.1} s",
            tables.len(),
            mb(bytes),
            start.elapsed().as_secs_f64()
        );
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
        println!("{}", serde_json::to_string(&json)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("table  {sig} in {}", tables.dir().display());
    let verdict = match value {
        Value::Win(d) => format!("{side} to move wins in {d} plies"),
        Value::Loss(d) => format!("{side} to move loses in {d} plies"),
        Value::Draw => format!("a draw with best play ({side} to move)"),
    };
    println!("value  {value}: {verdict}");
    match line.first() {
        Some(best) => println!("best   {}", names(best)),
        None => println!("best   none: the game is over"),
    }
    if !line.is_empty() {
        let more = if value == Value::Draw { " …" } else { "" };
        println!("line   {}{more}", numbered_line(side, &line_text));
    }
    if !moves.is_empty() {
        println!("moves");
        for (mv, v) in &moves {
            println!("  {:<12} {v}", names(mv));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(args: VerifyArgs) -> CommandResult {
    let pool = worker_pool(jobs(args.jobs), "egtb")?;
    let mut all_ok = true;
    for &variant in &args.variant.0 {
        let tables = open(&args.dir, variant)?;
        let start = Instant::now();
        let total: u64 = tables.infos().iter().map(|i| i.header.entries).sum();
        let bar = progress_bar(total, "positions");
        let report = pool.install(|| {
            egtb::verify(&tables, &|n| {
                if let Some(b) = &bar {
                    b.inc(n);
                }
            })
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        for problem in &report.problems {
            println!("  {problem}");
        }
        if report.ok() {
            println!(
                "{variant}: {} tables, {} positions verified in {:.1} s: every entry consistent ({})",
                report.tables,
                thousands(report.positions),
                start.elapsed().as_secs_f64(),
                tables.dir().display()
            );
        } else {
            all_ok = false;
            println!(
                "{variant}: {} of {} positions inconsistent ({})",
                thousands(report.errors),
                thousands(report.positions),
                tables.dir().display()
            );
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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

fn info(args: InfoArgs) -> CommandResult {
    for &variant in &args.variant.0 {
        let tables = open(&args.dir, variant)?;
        let infos = tables.infos();
        if args.json {
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
                println!("{}", serde_json::to_string(&json)?);
            }
            continue;
        }
        println!("{variant}: {}", tables.dir().display());
        println!(
            "  {:<10} {:>6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>10}",
            "table", "layers", "positions", "wins", "draws", "losses", "longest", "size"
        );
        let mut total = [0u64; 5];
        for i in &infos {
            let h = i.header;
            let positions = h.wins + h.draws + h.losses;
            println!(
                "  {:<10} {:>6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>10}",
                h.signature.name(),
                h.layers,
                thousands(positions),
                thousands(h.wins),
                thousands(h.draws),
                thousands(h.losses),
                h.max_distance,
                mb(i.bytes)
            );
            for (t, v) in total
                .iter_mut()
                .zip([positions, h.wins, h.draws, h.losses, i.bytes])
            {
                *t += v;
            }
        }
        println!(
            "  {:<10} {:>6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>10}",
            format!("{} tables", infos.len()),
            "",
            thousands(total[0]),
            thousands(total[1]),
            thousands(total[2]),
            thousands(total[3]),
            "",
            mb(total[4])
        );
    }
    Ok(ExitCode::SUCCESS)
}
