//! `drafti bench`: how fast this machine runs drafti's hot paths, each on fixed work (the same
//! counts on every run; only the times change): move generation (perft), writing, parsing,
//! validating and analysing an archive of random games, and the engine's search.
//!
//! The criterion benchmarks (`cargo bench`) measure the same parts in more detail; this one
//! needs no source tree and runs in a few seconds.

use crate::args::jobs;
use crate::error::{CliError, CommandResult};
use crate::runner::worker_pool;
use drafti_analysis::quality::{
    reference_evals, reference_evals_in_sequence, reference_moves, reference_verdicts, Agreement,
    ClassAgreement, ReferenceEval, ReferenceHeader, ReferenceLine, REFERENCE_SEQUENCE_TT_MB,
    REFERENCE_TT_MB,
};
use drafti_analysis::selfplay::{random_game, First, RandomGames};
use drafti_analysis::{analyse_game, analyse_games, json, AnalysisOptions, EndgameTables};
use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_engine::{Engine, Limits};
use drafti_pdn::{parse_game, write_game_to, GameReader, GameRecord, GameSplitter, RawGame};
use drafti_report::thousands;
use drafti_rules::{perft, Color, Position, Variant};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Smaller work (perft depth 9, 2,000 games, 2 analysed, shallower searches): a fifth
    /// of a second.
    #[arg(long)]
    quick: bool,
    /// JSON Lines: one object per measurement.
    #[arg(long)]
    json: bool,
    /// Worker threads for the parallel replay (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::args::parse_jobs)]
    jobs: usize,
    /// Instead: the analysis quality benchmark on the real master games of --corpora: the
    /// verdicts of `drafti analyze` (at --depth/--nodes, default its default) against a
    /// reference that searches every position alone (or each game as one sequence) at
    /// --reference-nodes.
    #[arg(long)]
    quality: bool,
    #[command(flatten)]
    quality_args: QualityArgs,
}

/// The engine's positions: (what, FEN, variant, depth; `--quick` searches 4 plies less).
const SEARCHES: [(&str, &str, Variant, u32); 4] = [
    ("start", "W:W21-32:B1-12", Variant::Tanzanian, 13),
    (
        "middlegame",
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        Variant::Tanzanian,
        14,
    ),
    (
        "kings",
        "W:WK30,K27,21,22:BK3,K6,11,12",
        Variant::Tanzanian,
        13,
    ),
    ("Russian start", "W:W21-32:B1-12", Variant::Russian, 13),
];

/// One measurement: `work` units done in `seconds`.
#[derive(Serialize)]
struct Measurement {
    bench: &'static str,
    what: String,
    work: u64,
    unit: &'static str,
    seconds: f64,
    per_second: f64,
}

impl Measurement {
    fn new(
        bench: &'static str,
        what: String,
        work: u64,
        unit: &'static str,
        start: Instant,
    ) -> Self {
        let seconds = start.elapsed().as_secs_f64();
        Measurement {
            bench,
            what,
            work,
            unit,
            seconds,
            per_second: work as f64 / seconds.max(1e-9),
        }
    }

    fn print(&self, json: bool) -> Result<(), CliError> {
        if json {
            println!("{}", serde_json::to_string(self)?);
            return Ok(());
        }
        let rate = match (self.unit, self.per_second) {
            ("bytes", r) => format!("{:.1} MB/s", r / 1e6),
            (unit, r) if r >= 1e6 => format!("{:.1} M {unit}/s", r / 1e6),
            (unit, r) => format!("{} {unit}/s", thousands(r.round() as u64)),
        };
        println!(
            "{:<8} {:<36} {:>11} {:<9} {:>6.3} s  {rate}",
            self.bench,
            self.what,
            thousands(self.work),
            self.unit,
            self.seconds,
        );
        Ok(())
    }
}

pub fn run(args: Args) -> CommandResult {
    if args.quality {
        return quality(&args.quality_args, jobs(args.jobs), args.json);
    }
    let jobs = jobs(args.jobs);
    let pool = worker_pool(jobs, "bench")?;
    let (depth, games, shallower) = if args.quick {
        (9, 2_000, 4)
    } else {
        (11, 20_000, 0)
    };
    if !args.json {
        println!(
            "drafti bench{}: one thread unless said ({jobs} for the parallel validation)",
            if args.quick { " --quick" } else { "" }
        );
    }

    let start = Instant::now();
    let leaves = perft(&Position::start(Color::White), Variant::Tanzanian, depth);
    let what = format!("Tanzanian start position, depth {depth}");
    Measurement::new("perft", what, leaves, "leaves", start).print(args.json)?;

    // The archive: random games, made on every core (not measured), written on one.
    let settings = RandomGames {
        variant: Variant::Tanzanian,
        first: First::White,
        seed: 1,
        max_plies: 300,
        numeric: false,
    };
    let records: Vec<GameRecord> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| random_game(&settings, i))
            .collect()
    });
    let start = Instant::now();
    let mut text = String::with_capacity(games as usize * 700);
    for record in &records {
        write_game_to(record, &mut text);
        text.push('\n');
    }
    let what = format!("{} random games as PDN", thousands(games));
    Measurement::new("write", what, text.len() as u64, "bytes", start).print(args.json)?;
    drop(records);

    // Parsing streams: every game is dropped once read, as `drafti validate` does.
    let start = Instant::now();
    let mut read = 0u64;
    for item in GameReader::new(text.as_bytes()) {
        item.map_err(|e| CliError::new(format!("bench archive: {e}")))?;
        read += 1;
    }
    let what = format!("the same {} games", thousands(read));
    Measurement::new("parse", what, text.len() as u64, "bytes", start).print(args.json)?;

    let options = ReplayOptions::default();
    let start = Instant::now();
    let mut valid = 0u64;
    for item in GameReader::new(text.as_bytes()) {
        let record = item.map_err(|e| CliError::new(format!("bench archive: {e}")))?;
        valid += u64::from(replay(record, &options).is_valid());
    }
    let what = "parse and replay every move".to_string();
    Measurement::new("validate", what, valid, "games", start).print(args.json)?;
    check_valid(valid, read)?;

    // In parallel as `drafti validate` does it: split on this thread, parse and replay in
    // batches on the workers.
    let start = Instant::now();
    let mut valid = 0u64;
    let mut splitter = GameSplitter::new(text.as_bytes());
    loop {
        let batch: Vec<RawGame> = splitter.by_ref().take(1024).collect::<Result<_, _>>()?;
        if batch.is_empty() {
            break;
        }
        valid += pool.install(|| {
            batch
                .par_iter()
                .filter(|raw| {
                    parse_game(raw).is_ok_and(|record| replay(record, &options).is_valid())
                })
                .count() as u64
        });
    }
    let what = format!("the same on {jobs} threads");
    Measurement::new("validate", what, valid, "games", start).print(args.json)?;
    check_valid(valid, read)?;

    // Analysis as `drafti analyze` does it by default (depth 6, flagged moves re-checked),
    // on the first games of the archive.
    let analysed = if args.quick { 2 } else { 20 };
    let replayed: Vec<_> = GameReader::new(text.as_bytes())
        .take(analysed)
        .filter_map(Result::ok)
        .map(|record| replay(record, &options))
        .collect();
    let analysis = AnalysisOptions::default();
    let start = Instant::now();
    let positions: usize = replayed
        .iter()
        .map(|game| analyse_game(game, &analysis).positions)
        .sum();
    let what = format!(
        "{analysed} of the games at depth {}",
        drafti_analysis::DEFAULT_DEPTH
    );
    Measurement::new("analyze", what, positions as u64, "positions", start).print(args.json)?;

    for (name, fen, variant, depth) in SEARCHES {
        let position = Position::from_fen(fen).map_err(|e| CliError::new(e.to_string()))?;
        let depth = depth - shallower;
        let mut engine = Engine::new(variant, 16);
        let start = Instant::now();
        let nodes = engine
            .search(&position, &Limits::depth(depth), &[], |_| {})
            .nodes;
        let what = format!("{name}, depth {depth}");
        Measurement::new("search", what, nodes, "nodes", start).print(args.json)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every random game of the archive must replay: anything else is a bug worth stopping for.
fn check_valid(valid: u64, games: u64) -> Result<(), CliError> {
    if valid == games {
        return Ok(());
    }
    Err(CliError::new(format!(
        "bench archive: {} of {games} random games did not replay",
        games - valid
    )))
}

/// The settings of `drafti bench --quality`.
#[derive(clap::Args)]
pub struct QualityArgs {
    /// The folder of master-game archives: files named `russian-*.pdn` are replayed under
    /// Russian rules, `czech-*.pdn` under Czech (the files have no GameType tag).
    #[arg(long, value_name = "DIR", default_value = "../shared/corpora")]
    corpora: PathBuf,
    /// Every K-th game of each file, from its first (1: all games).
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
    /// The candidate: the settings of `drafti analyze`.
    #[command(flatten)]
    search: crate::args::SearchArgs,
    /// The reference: nodes of each position's search.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    reference_nodes: u64,
    /// The reference searches each game as one sequence, from its last position back to its
    /// first, in one engine whose table is kept (as the analysis does), instead of every
    /// position alone: what its deep search of a later position found is known when the
    /// earlier ones are searched.
    #[arg(long)]
    reference_sequence: bool,
    /// The reference judges every move alone, as the analysis's re-search does: the position
    /// searched (fresh table), then the played move alone to the same depth in that table,
    /// instead of the position's search against the next position's.
    #[arg(long, conflicts_with = "reference_sequence")]
    reference_moves: bool,
    /// Keep the reference's searches in FILE (JSON Lines, keyed by file, game and ply, with
    /// the engine's fingerprint and the node limit): read what is there, add what is missing.
    #[arg(long, value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Also measure the reference against a second reference of N nodes a position (as
    /// uniform, in the mode --second-reference-sequence says): how far two deep searches
    /// agree with each other, the yardstick of the candidate's agreement.
    #[arg(long, value_name = "N")]
    second_reference_nodes: Option<u64>,
    /// The second reference searches each game as one sequence (as --reference-sequence).
    #[arg(long, requires = "second_reference_nodes")]
    second_reference_sequence: bool,
    /// The second reference judges every move alone (as --reference-moves).
    #[arg(
        long,
        requires = "second_reference_nodes",
        conflicts_with = "second_reference_sequence"
    )]
    second_reference_moves: bool,
    /// Keep the second reference's searches in FILE (as --reference).
    #[arg(long, value_name = "FILE", requires = "second_reference_nodes")]
    second_reference: Option<PathBuf>,
    /// Also write to FILE (JSON Lines) every move that the candidate or the reference judges,
    /// with both sides' scores, best moves and depths: where the two disagree and why.
    #[arg(long, value_name = "FILE")]
    moves: Option<PathBuf>,
}

/// One sampled game of the master archives.
struct Sampled {
    file: String,
    /// 1-based.
    index: usize,
    game: ReplayedGame,
}

fn variant_of_file(name: &str) -> Option<Variant> {
    if name.starts_with("russian") {
        Some(Variant::Russian)
    } else if name.starts_with("czech") {
        Some(Variant::Czech)
    } else {
        None
    }
}

/// The sampled games of every known archive in `dir`, in file-name order; `None` when the
/// folder is absent.
fn sampled_games(dir: &Path, every: u64) -> Result<Option<Vec<Sampled>>, CliError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdn"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Some(variant) = variant_of_file(&name) else {
            eprintln!("bench --quality: {name}: not russian-* or czech-*, skipped");
            continue;
        };
        let options = ReplayOptions {
            variant_override: Some(variant),
            ..ReplayOptions::default()
        };
        let file = std::fs::File::open(&path)
            .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))?;
        for (i, record) in GameReader::new(std::io::BufReader::new(file)).enumerate() {
            if !(i as u64).is_multiple_of(every) {
                continue;
            }
            let Ok(record) = record else { continue };
            let game = replay(record, &options);
            if game.is_valid() && !game.moves.is_empty() {
                out.push(Sampled {
                    file: name.clone(),
                    index: i + 1,
                    game,
                });
            }
        }
    }
    Ok(Some(out))
}

/// How a reference judges a move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ReferenceMode {
    /// Every position searched alone; the played move from the next position's search.
    Alone,
    /// Each game as one sequence from its last position, the table kept.
    Sequence,
    /// Every move alone: its position, then the played move to the same depth.
    Moves,
}

impl ReferenceMode {
    fn of(sequence: bool, moves: bool) -> ReferenceMode {
        match (sequence, moves) {
            (true, _) => ReferenceMode::Sequence,
            (false, true) => ReferenceMode::Moves,
            (false, false) => ReferenceMode::Alone,
        }
    }

    /// The JSON's name and the text's description.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            ReferenceMode::Alone => ("alone", "every position alone"),
            ReferenceMode::Sequence => (
                "sequence",
                "each game as one sequence from its last position",
            ),
            ReferenceMode::Moves => (
                "moves",
                "every move alone (its position, then the played move to the same depth)",
            ),
        }
    }
}

/// How a reference searches: nodes a position, its mode, its cache file.
struct ReferenceSpec<'a> {
    nodes: u64,
    mode: ReferenceMode,
    file: Option<&'a Path>,
}

/// The reference searches of every position of `games`: read from FILE where it has them
/// (for the same engine and limit), searched (and appended to FILE) where it has not.
fn reference_runs(
    games: &[Sampled],
    spec: &ReferenceSpec,
    tables: &EndgameTables,
    pool: &rayon::ThreadPool,
) -> Result<Vec<Vec<ReferenceEval>>, CliError> {
    let header = ReferenceHeader {
        engine: Engine::fingerprint().to_string(),
        nodes: spec.nodes,
        tt_mb: if spec.mode == ReferenceMode::Sequence {
            REFERENCE_SEQUENCE_TT_MB
        } else {
            REFERENCE_TT_MB
        },
        egtb: tables.label(),
        sequence: spec.mode == ReferenceMode::Sequence,
        moves: spec.mode == ReferenceMode::Moves,
    };
    let mut known: HashMap<(String, usize, usize), ReferenceLine> = HashMap::new();
    let mut writer = None;
    if let Some(path) = spec.file {
        let mut same = false;
        if let Ok(file) = std::fs::File::open(path) {
            let mut lines = std::io::BufReader::new(file).lines();
            let first = lines.next().and_then(Result::ok);
            same = first
                .and_then(|l| serde_json::from_str::<ReferenceHeader>(&l).ok())
                .is_some_and(|h| h == header);
            if same {
                for line in lines.map_while(Result::ok) {
                    if let Ok(r) = serde_json::from_str::<ReferenceLine>(&line) {
                        known.insert((r.file.clone(), r.game, r.ply), r);
                    }
                }
            } else {
                eprintln!(
                    "bench --quality: {} is for another engine or limit: searched again",
                    path.display()
                );
            }
        }
        let file = if same {
            std::fs::OpenOptions::new().append(true).open(path)
        } else {
            std::fs::File::create(path)
        }
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
        let mut w = std::io::BufWriter::new(file);
        if !same {
            writeln!(w, "{}", serde_json::to_string(&header)?)?;
        }
        writer = Some(w);
    }
    let total: usize = games.iter().map(|g| g.game.positions.len()).sum();
    let started = Instant::now();
    let cached = |s: &Sampled| -> Vec<Option<ReferenceEval>> {
        let game = &s.game;
        (0..game.positions.len())
            .map(|ply| {
                known
                    .get(&(s.file.clone(), s.index, ply))?
                    .eval(&game.positions[ply], game.variant)
            })
            .collect()
    };
    let mut evals: Vec<Vec<Option<ReferenceEval>>> = games.iter().map(cached).collect();
    // The positions each game still lacks: searched now, and added to FILE.
    let mut fresh: Vec<Vec<usize>> = evals
        .iter()
        .map(|e| (0..e.len()).filter(|&i| e[i].is_none()).collect())
        .collect();
    if spec.mode == ReferenceMode::Sequence {
        // A sequence's results depend on the whole game: a game lacking any position is
        // searched again from its last one, one game per worker.
        let whole: Vec<usize> = (0..games.len()).filter(|&g| !fresh[g].is_empty()).collect();
        let searched = std::sync::atomic::AtomicUsize::new(0);
        let found: Vec<Vec<ReferenceEval>> = pool.install(|| {
            whole
                .par_iter()
                .with_max_len(1)
                .map(|&g| {
                    let s = &games[g];
                    let all: Vec<ReferenceEval> =
                        reference_evals_in_sequence(&s.game, spec.nodes, tables)
                            .into_iter()
                            .map(ReferenceEval::from)
                            .collect();
                    let n = searched.fetch_add(all.len(), std::sync::atomic::Ordering::Relaxed)
                        + all.len();
                    eprintln!(
                        "bench --quality: reference {} game {}: {} positions searched in sequence ({} of at most {} in {:.0} s)",
                        s.file,
                        s.index,
                        all.len(),
                        thousands(n as u64),
                        thousands(total as u64),
                        started.elapsed().as_secs_f64()
                    );
                    all
                })
                .collect()
        });
        for (g, all) in whole.into_iter().zip(found) {
            fresh[g] = (0..all.len()).collect();
            evals[g] = all.into_iter().map(Some).collect();
        }
    }
    let mut done = 0usize;
    let mut runs = Vec::with_capacity(games.len());
    for ((s, mut evals), fresh) in games.iter().zip(evals).zip(fresh) {
        if fresh.is_empty() {
            runs.push(evals.into_iter().map(|e| e.expect("cached")).collect());
            continue;
        }
        if spec.mode != ReferenceMode::Sequence {
            let found: Vec<ReferenceEval> = pool.install(|| {
                if spec.mode == ReferenceMode::Moves {
                    reference_moves(&s.game, spec.nodes, &fresh, tables)
                } else {
                    reference_evals(&s.game, spec.nodes, &fresh, tables)
                        .into_iter()
                        .map(ReferenceEval::from)
                        .collect()
                }
            });
            for (&ply, e) in fresh.iter().zip(found) {
                evals[ply] = Some(e);
            }
            done += fresh.len();
            eprintln!(
                "bench --quality: reference {} game {}: {} positions searched ({} of at most {} in {:.0} s)",
                s.file,
                s.index,
                fresh.len(),
                thousands(done as u64),
                thousands(total as u64),
                started.elapsed().as_secs_f64()
            );
        }
        if let Some(w) = writer.as_mut() {
            for &ply in &fresh {
                let r = evals[ply].as_ref().expect("searched");
                let line = ReferenceLine::new(&s.file, s.index, ply, r);
                writeln!(w, "{}", serde_json::to_string(&line)?)?;
            }
            w.flush()?;
        }
        runs.push(evals.into_iter().map(|e| e.expect("searched")).collect());
    }
    Ok(runs)
}

#[derive(Serialize)]
struct ClassJson {
    class: &'static str,
    candidate: usize,
    reference: usize,
    both: usize,
    precision: Option<f64>,
    recall: Option<f64>,
}

impl ClassJson {
    fn new(class: &'static str, c: &ClassAgreement) -> ClassJson {
        ClassJson {
            class,
            candidate: c.candidate,
            reference: c.reference,
            both: c.both,
            precision: c.precision(),
            recall: c.recall(),
        }
    }
}

#[derive(Serialize)]
struct QualityJson {
    bench: &'static str,
    candidate: String,
    games: usize,
    sample_every: u64,
    positions: usize,
    moves: usize,
    candidate_nodes_per_position: f64,
    reference_nodes: u64,
    reference_nodes_per_position: f64,
    /// `alone` (every position with a fresh table), `sequence` (each game backwards) or
    /// `moves` (every move judged alone).
    reference_mode: &'static str,
    ratio: f64,
    verified: usize,
    engine: String,
    classes: Vec<ClassJson>,
    blunders_at_least_mistake: usize,
    win_before_mean_abs_diff: f64,
    win_after_mean_abs_diff: f64,
    seconds: f64,
    positions_per_second: f64,
    jobs: usize,
    /// The reference against a second reference (`--second-reference-nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    second_reference: Option<SecondReferenceJson>,
}

/// How a second reference's verdicts agree with the reference's (the second as candidate).
#[derive(Serialize)]
struct SecondReferenceJson {
    nodes: u64,
    mode: &'static str,
    classes: Vec<ClassJson>,
    blunders_at_least_mistake: usize,
}

fn class_rows(a: &Agreement) -> Vec<ClassJson> {
    vec![
        ClassJson::new("blunder", &a.blunder),
        ClassJson::new("mistake", &a.mistake),
        ClassJson::new("inaccuracy", &a.inaccuracy),
        ClassJson::new(">= mistake", &a.at_least_mistake),
    ]
}

fn print_class_rows(rows: &[ClassJson], candidate: &str) {
    println!(
        "{:<11} {:>9} {:>9} {:>6} {:>9} {:>6}",
        "class", candidate, "reference", "both", "precision", "recall"
    );
    for c in rows {
        println!(
            "{:<11} {:>9} {:>9} {:>6} {:>9} {:>6}",
            c.class,
            c.candidate,
            c.reference,
            c.both,
            fmt_ratio(c.precision),
            fmt_ratio(c.recall)
        );
    }
}

fn fmt_ratio(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |v| format!("{v:.2}"))
}

fn candidate_label(options: &AnalysisOptions) -> String {
    options.label()
}

/// One judged move of `bench --quality --moves`: the candidate's numbers and the
/// reference's (scores from the mover's side, as `analyze --json` has them).
#[derive(Serialize)]
struct JudgedMoveJson<'a> {
    file: &'a str,
    game: usize,
    ply: usize,
    /// The position before the move.
    fen: String,
    #[serde(rename = "move")]
    move_text: String,
    candidate: Option<&'static str>,
    reference: Option<&'static str>,
    best: Option<String>,
    score_before: (Option<i32>, Option<i32>),
    score_after: (Option<i32>, Option<i32>),
    drop: f64,
    played_is_best: bool,
    depth: u32,
    confirmed_depth: Option<u32>,
    unsettled: bool,
    reference_best: Option<String>,
    reference_before: (Option<i32>, Option<i32>),
    reference_after: (Option<i32>, Option<i32>),
    reference_drop: f64,
    reference_depths: (u32, u32),
}

fn judged_move_json<'a>(
    s: &'a Sampled,
    m: &drafti_analysis::MoveAnalysis,
    r: &drafti_analysis::judge::Verdict,
    before: &ReferenceEval,
    after: &ReferenceEval,
) -> JudgedMoveJson<'a> {
    let notation = |mv: Option<drafti_rules::Move>| mv.map(|b| b.full_notation(false));
    JudgedMoveJson {
        file: &s.file,
        game: s.index,
        ply: m.ply,
        fen: s.game.positions[m.ply - 1].to_fen(),
        move_text: m.played.full_notation(false),
        candidate: m.judgement().map(|j| j.as_str()),
        reference: r.judgement.map(|j| j.as_str()),
        best: notation(m.best),
        score_before: json::score_fields(m.best_score),
        score_after: json::score_fields(m.played_score),
        drop: m.verdict.drop,
        played_is_best: m.played_is_best,
        depth: m.depth,
        confirmed_depth: m.confirmed_depth,
        unsettled: m.unsettled,
        reference_best: notation(before.eval.best),
        reference_before: json::score_fields(before.eval.score),
        reference_after: json::score_fields(
            before
                .played
                .unwrap_or_else(|| drafti_analysis::move_score(after.eval.score)),
        ),
        reference_drop: r.drop,
        reference_depths: (
            before.eval.depth,
            if before.played.is_some() {
                before.eval.depth
            } else {
                after.eval.depth
            },
        ),
    }
}

/// `drafti bench --quality`.
fn quality(args: &QualityArgs, jobs: usize, json: bool) -> CommandResult {
    if let Some(path) = &args.moves {
        crate::files::refuse_stdout("--moves", path, "the tables")?;
    }
    if args.reference.is_some() && args.reference == args.second_reference {
        // A reference file holds one reference: the second would overwrite the first.
        return Err(CliError::new(
            "--reference and --second-reference name the same file: give each its own",
        ));
    }
    let Some(games) = sampled_games(&args.corpora, args.sample)? else {
        eprintln!(
            "bench --quality: no folder {} (the master-game archives): skipped",
            args.corpora.display()
        );
        return Ok(ExitCode::SUCCESS);
    };
    if games.is_empty() {
        eprintln!(
            "bench --quality: no russian-*.pdn or czech-*.pdn games in {}: skipped",
            args.corpora.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pool = worker_pool(jobs, "bench")?;
    let mut options = args.search.options();
    // Only tables given with --egtb (the reference uses them too, and its cache says so).
    options.tables = args
        .search
        .tables
        .given_only()
        .for_variants(&Variant::ALL)?;
    let refs: Vec<&ReplayedGame> = games.iter().map(|s| &s.game).collect();
    let positions: usize = refs.iter().map(|g| g.positions.len()).sum();
    let start = Instant::now();
    let analyses = pool.install(|| analyse_games(&refs, &options, &|_| {}));
    let seconds = start.elapsed().as_secs_f64();
    let candidate_nodes: u64 = analyses.iter().map(|a| a.nodes).sum();
    let spec = ReferenceSpec {
        nodes: args.reference_nodes,
        mode: ReferenceMode::of(args.reference_sequence, args.reference_moves),
        file: args.reference.as_deref(),
    };
    let reference = reference_runs(&games, &spec, &options.tables, &pool)?;
    let second_spec = args.second_reference_nodes.map(|nodes| ReferenceSpec {
        nodes,
        mode: ReferenceMode::of(args.second_reference_sequence, args.second_reference_moves),
        file: args.second_reference.as_deref(),
    });
    let second = match &second_spec {
        Some(spec) => Some(reference_runs(&games, spec, &options.tables, &pool)?),
        None => None,
    };
    let reference_nodes: u64 = reference.iter().flatten().map(|e| e.eval.nodes).sum();
    let mut agreement = Agreement::default();
    let mut moves_out = match &args.moves {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?,
        )),
        None => None,
    };
    let mut second_agreement = Agreement::default();
    for (g, ((s, a), evals)) in games.iter().zip(&analyses).zip(&reference).enumerate() {
        let verdicts = reference_verdicts(&s.game, evals);
        if let Some(second) = &second {
            second_agreement.add_verdicts(&reference_verdicts(&s.game, &second[g]), &verdicts);
        }
        if let Some(w) = moves_out.as_mut() {
            for (m, r) in a.moves.iter().zip(&verdicts) {
                if m.judgement().is_some() || r.judgement.is_some() {
                    let line = judged_move_json(s, m, r, &evals[m.ply - 1], &evals[m.ply]);
                    writeln!(w, "{}", serde_json::to_string(&line)?)?;
                }
            }
        }
        agreement.add(a, &verdicts);
    }
    if let Some(w) = moves_out.as_mut() {
        w.flush()?;
    }
    let per_position = |n: u64| n as f64 / positions.max(1) as f64;
    let (before, after) = agreement.mean_win_diffs();
    let report = QualityJson {
        bench: "quality",
        candidate: candidate_label(&options),
        games: games.len(),
        sample_every: args.sample,
        positions,
        moves: agreement.moves,
        candidate_nodes_per_position: per_position(candidate_nodes),
        reference_nodes: args.reference_nodes,
        reference_nodes_per_position: per_position(reference_nodes),
        reference_mode: spec.mode.names().0,
        ratio: args.reference_nodes as f64 / per_position(candidate_nodes).max(1.0),
        verified: analyses.iter().map(|a| a.verified).sum(),
        engine: Engine::fingerprint().to_string(),
        classes: class_rows(&agreement),
        blunders_at_least_mistake: agreement.blunders_at_least_mistake,
        win_before_mean_abs_diff: before,
        win_after_mean_abs_diff: after,
        seconds,
        positions_per_second: positions as f64 / seconds.max(1e-9),
        jobs,
        second_reference: second_spec.as_ref().map(|spec| SecondReferenceJson {
            nodes: spec.nodes,
            mode: spec.mode.names().0,
            classes: class_rows(&second_agreement),
            blunders_at_least_mistake: second_agreement.blunders_at_least_mistake,
        }),
    };
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "drafti bench --quality: {} games (every {} of each file in {}), {} positions, {} moves",
        report.games,
        ordinal(args.sample),
        args.corpora.display(),
        thousands(positions as u64),
        thousands(report.moves as u64)
    );
    println!(
        "candidate: {}; {} nodes a position (re-searches included), {} moves re-searched",
        report.candidate,
        thousands(report.candidate_nodes_per_position.round() as u64),
        thousands(report.verified as u64)
    );
    println!(
        "reference: {} nodes a position, {} (engine {}): {:.0}x the candidate's nodes",
        thousands(args.reference_nodes),
        spec.mode.names().1,
        report.engine,
        report.ratio
    );
    if report.ratio < 64.0 {
        println!("warning: the reference searches less than 64x the candidate's nodes");
    }
    print_class_rows(&report.classes, "candidate");
    println!(
        "blunders the reference calls at least mistakes: {} of {}",
        report.blunders_at_least_mistake, agreement.blunder.candidate
    );
    println!(
        "win% (0-100) mean |candidate - reference|: before the move {before:.1}, after {after:.1}"
    );
    println!(
        "candidate speed: {} positions in {seconds:.2} s = {} positions/s on {jobs} {}",
        thousands(positions as u64),
        thousands(report.positions_per_second.round() as u64),
        if jobs == 1 { "thread" } else { "threads" }
    );
    if let (Some(spec), Some(second)) = (&second_spec, &report.second_reference) {
        println!(
            "second reference: {} nodes a position, {}, judged against the reference (how far two deep searches agree):",
            thousands(spec.nodes),
            spec.mode.names().1
        );
        print_class_rows(&second.classes, "second");
        println!(
            "second reference's blunders the reference calls at least mistakes: {} of {}",
            second.blunders_at_least_mistake, second_agreement.blunder.candidate
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `4th`, `1st`, `2nd`.
fn ordinal(n: u64) -> String {
    match n {
        1 => "game".to_string(),
        2 => "2nd game".to_string(),
        3 => "3rd game".to_string(),
        n => format!("{n}th game"),
    }
}
