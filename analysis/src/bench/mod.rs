//! The work of `drafti bench` as data: the hot-path measurements ([`hot_paths`]: move
//! generation, PDN writing and parsing, replay, analysis, search, each on fixed work so that
//! only the times change between runs). The caller writes the measurements; nothing here
//! prints.

use crate::selfplay::{random_game, First, RandomGames};
use crate::{analyse_game, AnalysisOptions};
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_engine::{Engine, Limits};
use drafti_pdn::{parse_game, write_game_to, GameReader, GameRecord, GameSplitter, RawGame};
use drafti_rules::{perft, Color, Position, Variant};
use rayon::prelude::*;
use serde::Serialize;
use std::io;
use std::time::Instant;

/// What went wrong in a benchmark.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The generated archive did not read or replay: a bug worth stopping for.
    #[error("bench archive: {0}")]
    Archive(String),
    /// The caller's sink failed (writing the measurements).
    #[error(transparent)]
    Sink(io::Error),
}

/// The engine's positions: (what, FEN, variant, depth; `--quick` searches 4 plies less).
pub const SEARCHES: [(&str, &str, Variant, u32); 4] = [
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
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// The part measured: `perft`, `write`, `parse`, `validate`, `analyze`, `search`.
    pub bench: &'static str,
    /// On what.
    pub what: String,
    /// Units of work done.
    pub work: u64,
    /// Their name.
    pub unit: &'static str,
    /// Wall time.
    pub seconds: f64,
    /// Units a second.
    pub per_second: f64,
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
}

/// Runs the hot-path measurements in order, handing each to `sink` as it is made (a sink
/// error stops the run): `quick` is the smaller work (perft depth 9, 2,000 games, 2
/// analysed, searches 4 plies shallower); `pool` runs the parallel parts on `jobs` threads.
pub fn hot_paths(
    quick: bool,
    pool: &rayon::ThreadPool,
    jobs: usize,
    sink: &mut dyn FnMut(Measurement) -> io::Result<()>,
) -> Result<(), BenchError> {
    let mut emit = |m: Measurement| sink(m).map_err(BenchError::Sink);
    let (depth, games, shallower) = if quick {
        (9, 2_000, 4)
    } else {
        (11, 20_000, 0)
    };
    let start = Instant::now();
    let leaves = perft(&Position::start(Color::White), Variant::Tanzanian, depth);
    let what = format!("Tanzanian start position, depth {depth}");
    emit(Measurement::new("perft", what, leaves, "leaves", start))?;

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
    emit(Measurement::new(
        "write",
        what,
        text.len() as u64,
        "bytes",
        start,
    ))?;
    drop(records);

    // Parsing streams: every game is dropped once read, as `drafti validate` does.
    let start = Instant::now();
    let mut read = 0u64;
    for item in GameReader::new(text.as_bytes()) {
        item.map_err(|e| BenchError::Archive(e.to_string()))?;
        read += 1;
    }
    let what = format!("the same {} games", thousands(read));
    emit(Measurement::new(
        "parse",
        what,
        text.len() as u64,
        "bytes",
        start,
    ))?;

    let options = ReplayOptions::default();
    let start = Instant::now();
    let mut valid = 0u64;
    for item in GameReader::new(text.as_bytes()) {
        let record = item.map_err(|e| BenchError::Archive(e.to_string()))?;
        valid += u64::from(replay(record, &options).is_valid());
    }
    let what = "parse and replay every move".to_string();
    emit(Measurement::new("validate", what, valid, "games", start))?;
    check_valid(valid, read)?;

    // In parallel as `drafti validate` does it: split on this thread, parse and replay in
    // batches on the workers.
    let start = Instant::now();
    let mut valid = 0u64;
    let mut splitter = GameSplitter::new(text.as_bytes());
    loop {
        let batch: Vec<RawGame> = splitter
            .by_ref()
            .take(1024)
            .collect::<Result<_, _>>()
            .map_err(|e| BenchError::Archive(e.to_string()))?;
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
    emit(Measurement::new("validate", what, valid, "games", start))?;
    check_valid(valid, read)?;

    // Analysis as `drafti analyze` does it by default (a pass of 25,000 nodes a position,
    // flagged moves re-checked), on the first games of the archive.
    let analysed = if quick { 2 } else { 20 };
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
        "{analysed} of the games at {} nodes",
        crate::DEFAULT_PASS_NODES
    );
    emit(Measurement::new(
        "analyze",
        what,
        positions as u64,
        "positions",
        start,
    ))?;

    for (name, fen, variant, depth) in SEARCHES {
        let position = Position::from_fen(fen).map_err(|e| BenchError::Archive(e.to_string()))?;
        let depth = depth - shallower;
        let mut engine = Engine::new(variant, 16);
        let start = Instant::now();
        let nodes = engine
            .search(&position, &Limits::depth(depth), &[], |_| {})
            .nodes;
        let what = format!("{name}, depth {depth}");
        emit(Measurement::new("search", what, nodes, "nodes", start))?;
    }
    Ok(())
}

/// Every random game of the archive must replay: anything else is a bug worth stopping for.
fn check_valid(valid: u64, games: u64) -> Result<(), BenchError> {
    if valid == games {
        return Ok(());
    }
    Err(BenchError::Archive(format!(
        "{} of {games} random games did not replay",
        games - valid
    )))
}

/// `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    #[test]
    fn the_quick_hot_paths_measure_fixed_work() {
        let mut seen = Vec::new();
        hot_paths(true, &pool(), 2, &mut |m| {
            seen.push((m.bench, m.what, m.work, m.unit));
            Ok(())
        })
        .unwrap();
        let benches: Vec<&str> = seen.iter().map(|s| s.0).collect();
        assert_eq!(
            benches,
            [
                "perft", "write", "parse", "validate", "validate", "analyze", "search", "search",
                "search", "search"
            ]
        );
        assert_eq!(
            seen[0],
            (
                "perft",
                "Tanzanian start position, depth 9".to_string(),
                3_963_671,
                "leaves"
            )
        );
        assert_eq!(seen[1].1, "2,000 random games as PDN");
        // Parsed what was written; every game replays, on one thread and on two.
        assert_eq!(seen[2].2, seen[1].2);
        assert_eq!((seen[3].2, seen[4].2), (2_000, 2_000));
        assert_eq!(seen[4].1, "the same on 2 threads");
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let mut calls = 0;
        let result = hot_paths(true, &pool(), 2, &mut |_| {
            calls += 1;
            Err(io::Error::from(io::ErrorKind::StorageFull))
        });
        assert!(matches!(result, Err(BenchError::Sink(_))));
        assert_eq!(calls, 1);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(3_963_671), "3,963,671");
    }
}
