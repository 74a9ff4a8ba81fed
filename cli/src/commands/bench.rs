//! `drafti bench`: how fast this machine runs drafti's hot paths, each on fixed work (the same
//! counts on every run; only the times change): move generation (perft), writing, parsing,
//! validating and analysing an archive of random games, and the engine's search.
//!
//! The criterion benchmarks (`cargo bench`) measure the same parts in more detail; this one
//! needs no source tree and runs in a few seconds.

use crate::commands::selfplay::{random_game, First, RandomGames};
use crate::common::{jobs, thousands, worker_pool, CliError, CommandResult};
use drafti_analyzer::analysis::{analyse_game, AnalysisOptions};
use drafti_analyzer::replay::{replay, ReplayOptions};
use drafti_engine::{Engine, Limits};
use drafti_pdn::{parse_game, write_game_to, GameReader, GameRecord, GameSplitter, RawGame};
use drafti_rules::{perft, Color, Position, Variant};
use rayon::prelude::*;
use serde::Serialize;
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
    #[arg(long, short = 'j', default_value_t = 0)]
    jobs: usize,
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
        item.map_err(|e| CliError(format!("bench archive: {e}")))?;
        read += 1;
    }
    let what = format!("the same {} games", thousands(read));
    Measurement::new("parse", what, text.len() as u64, "bytes", start).print(args.json)?;

    let options = ReplayOptions::default();
    let start = Instant::now();
    let mut valid = 0u64;
    for item in GameReader::new(text.as_bytes()) {
        let record = item.map_err(|e| CliError(format!("bench archive: {e}")))?;
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
        drafti_analyzer::analysis::DEFAULT_DEPTH
    );
    Measurement::new("analyze", what, positions as u64, "positions", start).print(args.json)?;

    for (name, fen, variant, depth) in SEARCHES {
        let position = Position::from_fen(fen).map_err(|e| CliError(e.to_string()))?;
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
    Err(CliError(format!(
        "bench archive: {} of {games} random games did not replay",
        games - valid
    )))
}
