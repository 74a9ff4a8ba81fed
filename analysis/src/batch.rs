//! The analysis of whole archives: every game of many inputs read and replayed in input
//! order, the positions of many games searched at once on a pool of threads, and each game
//! handed on with its analysis, in input order, in bounded memory.
//!
//! ```text
//! inputs ──drafti_archive::batch::run_games (parse + replay, in order, this shard's games)──▶
//!   a batch of games with about `batch_positions` positions to search
//!   ──analyse_games on the pool (the positions of all its valid games)──▶
//!   work(ArchiveGame) on the pool ──▶ sink(T) in input order, on the calling thread
//! ```
//! `drafti analyze` and `drafti report` are this one driver with another `work` and `sink`.
//! The analysis of a game does not depend on the batch it is in nor on the threads, so the
//! results are the same for any pool. The driver never prints: progress goes to a callback.
//!
//! ```
//! use drafti_analysis::batch::{analyse_archive, ArchiveOptions};
//! use drafti_analysis::AnalysisOptions;
//! use drafti_archive::batch::Input;
//! let text = "1. c3-b4 f6-g5 2. b4-c5 b6xd4 *\n1. c3-d4 d4-e5 *\n";
//! let inputs = vec![Input::new("mem", Box::new(text.as_bytes()))];
//! let options = ArchiveOptions::new(AnalysisOptions::from_limits(Some(2), None));
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let mut plies = Vec::new();
//! analyse_archive(
//!     inputs,
//!     &options,
//!     &pool,
//!     &|_| {},
//!     |g| g.analysis.map(|a| a.moves.len()),
//!     |n| -> Result<(), std::convert::Infallible> { plies.push(n); Ok(()) },
//! )
//! .unwrap();
//! assert_eq!(plies, [Some(4), None]); // the second game is invalid: not analysed
//! ```

use crate::{analyse_games, AnalysisOptions, GameAnalysis};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, BatchSummary, Input, Shard};
use drafti_archive::replay::{ReplayOptions, ReplayedGame};
use drafti_pdn::{ParseError, RawGame};
use rayon::prelude::*;
use std::cell::Cell;

/// Games are analysed in batches of about this many positions: enough to keep every thread
/// busy, few enough that output starts soon and memory stays flat.
pub const BATCH_POSITIONS: usize = 8192;

/// How to analyse an archive.
#[derive(Clone, Debug)]
pub struct ArchiveOptions {
    /// The analysis of every valid game.
    pub analysis: AnalysisOptions,
    /// Only this shard of the games.
    pub shard: Option<Shard>,
    /// How each game is replayed (e.g. the rules forced on every game).
    pub replay: ReplayOptions,
    /// Positions to search in each batch (see [`BATCH_POSITIONS`]).
    pub batch_positions: usize,
}

impl ArchiveOptions {
    /// Every game, analysed with `analysis`, in batches of [`BATCH_POSITIONS`].
    pub fn new(analysis: AnalysisOptions) -> ArchiveOptions {
        ArchiveOptions {
            analysis,
            shard: None,
            replay: ReplayOptions::default(),
            batch_positions: BATCH_POSITIONS,
        }
    }
}

/// One game of an archive, with its analysis when it is valid.
#[derive(Debug)]
pub struct ArchiveGame {
    /// The input's name.
    pub file: String,
    /// Which input (0-based, in the order given).
    pub input: usize,
    /// 0-based number of the game across all inputs, all shards counted (what
    /// [`Shard`] counts).
    pub ordinal: u64,
    /// The game's bytes and where they start in the input.
    pub raw: RawGame,
    /// The replayed game, or why it could not be parsed.
    pub game: Result<ReplayedGame, ParseError>,
    /// The analysis of a valid game; `None` for an invalid or unreadable one.
    pub analysis: Option<GameAnalysis>,
}

impl ArchiveGame {
    /// The game, if it is valid (the games that are analysed).
    pub fn analysable(&self) -> Option<&ReplayedGame> {
        self.game.as_ref().ok().filter(|g| g.is_valid())
    }
}

/// How far the analysis of an archive has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A batch is read and its searches start (on the calling thread): bytes of input read,
    /// games read and positions to search, so far (this batch's included).
    Batch {
        /// Bytes of input read.
        bytes: u64,
        /// Games read (this shard's).
        games: u64,
        /// Positions of the valid games read.
        positions: u64,
    },
    /// This many positions were just searched (called from the pool's threads).
    Searched(u64),
}

/// Analyses every game of `inputs` (this shard's) on `pool` and hands `sink` what `work`
/// makes of each, in input order. `work` runs on the pool, `sink` and the reading on the
/// calling thread.
///
/// Stops at the first read error or sink error; games already handed over stay handed over.
pub fn analyse_archive<T, E, W, S>(
    inputs: Vec<Input>,
    options: &ArchiveOptions,
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn(Progress) + Sync),
    work: W,
    sink: S,
) -> Result<BatchSummary, BatchError<E>>
where
    T: Send,
    W: Fn(ArchiveGame) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let batch_options = BatchOptions {
        // Replay is cheap next to the searches: one thread reads, the pool searches.
        jobs: 1,
        shard: options.shard,
        chunk_size: 32,
        replay: options.replay.clone(),
        ..BatchOptions::default()
    };
    let shard = options.shard.unwrap_or(Shard { index: 1, count: 1 });
    let bytes = Cell::new(0u64);
    let mut batch = Batch {
        options,
        pool,
        progress,
        work,
        sink,
        games: Vec::new(),
        positions: 0,
        read_games: 0,
        read_positions: 0,
    };
    let summary = run_games(
        inputs,
        &batch_options,
        |p| bytes.set(p.bytes),
        |job| ArchiveGame {
            file: job.file.to_string(),
            input: job.file_index,
            ordinal: 0,
            raw: job.raw.clone(),
            game: job.game,
            analysis: None,
        },
        |mut game: ArchiveGame| {
            // This shard's games come in input order: the K-th, then every N-th.
            game.ordinal = shard.index - 1 + batch.read_games * shard.count;
            batch.read_games += 1;
            batch.positions += game.analysable().map_or(0, |g| g.positions.len());
            batch.games.push(game);
            if batch.positions >= options.batch_positions {
                batch.flush(bytes.get())?;
            }
            Ok(())
        },
    )?;
    batch.flush(summary.bytes).map_err(BatchError::Sink)?;
    Ok(summary)
}

/// The games read and not yet handed on.
struct Batch<'a, W, S> {
    options: &'a ArchiveOptions,
    pool: &'a rayon::ThreadPool,
    progress: &'a (dyn Fn(Progress) + Sync),
    work: W,
    sink: S,
    games: Vec<ArchiveGame>,
    /// Positions to search in `games`.
    positions: usize,
    read_games: u64,
    read_positions: u64,
}

impl<T, E, W, S> Batch<'_, W, S>
where
    T: Send,
    W: Fn(ArchiveGame) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    /// Analyses the batch and hands it on; `bytes` of input are read so far.
    fn flush(&mut self, bytes: u64) -> Result<(), E> {
        self.read_positions += self.positions as u64;
        self.positions = 0;
        (self.progress)(Progress::Batch {
            bytes,
            games: self.read_games,
            positions: self.read_positions,
        });
        let mut games = std::mem::take(&mut self.games);
        let progress = self.progress;
        let searched = |n: u64| progress(Progress::Searched(n));
        let valid: Vec<&ReplayedGame> = games.iter().filter_map(ArchiveGame::analysable).collect();
        let analysis = &self.options.analysis;
        let analyses = self
            .pool
            .install(|| analyse_games(&valid, analysis, &searched));
        let mut analyses = analyses.into_iter();
        for game in &mut games {
            if game.analysable().is_some() {
                game.analysis = analyses.next();
            }
        }
        let work = &self.work;
        let done: Vec<T> = self
            .pool
            .install(|| games.into_par_iter().map(work).collect());
        done.into_iter().try_for_each(&mut self.sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse_game;
    use drafti_archive::replay::replay;
    use std::convert::Infallible;

    /// Four games: two valid of different lengths, one invalid, one unreadable.
    const ARCHIVE: &str = "[Round \"1\"]\n1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *\n\n\
        [Round \"2\"]\n1. c3-d4 d4-e5 *\n\n\
        [Round \"3\"]\n1. e3-f4 f6-g5 2. f4-e5 d6xf4 3. g3xe5 *\n\n\
        [Round \"4\"]\n1. c3-d4 {unterminated *\n";

    fn analysed(jobs: usize, batch_positions: usize, shard: Option<Shard>) -> Vec<ArchiveGame> {
        let inputs = vec![Input::new("t", Box::new(ARCHIVE.as_bytes()))];
        let options = ArchiveOptions {
            shard,
            batch_positions,
            ..ArchiveOptions::new(AnalysisOptions::from_limits(Some(3), None))
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .unwrap();
        let mut out = Vec::new();
        analyse_archive(
            inputs,
            &options,
            &pool,
            &|_| {},
            |g| g,
            |g| -> Result<(), Infallible> {
                out.push(g);
                Ok(())
            },
        )
        .unwrap();
        out
    }

    /// Each move's best move, score and depth.
    fn moves(a: &GameAnalysis) -> String {
        let moves: Vec<String> = a
            .moves
            .iter()
            .map(|m| format!("{:?} {:?} {}", m.best, m.best_score, m.depth))
            .collect();
        moves.join("; ")
    }

    fn summary(games: &[ArchiveGame]) -> Vec<(u64, usize, Option<String>)> {
        games
            .iter()
            .map(|g| (g.ordinal, g.raw.index, g.analysis.as_ref().map(moves)))
            .collect()
    }

    #[test]
    fn the_same_analyses_in_input_order_whatever_the_threads_and_batches() {
        let one = analysed(1, BATCH_POSITIONS, None);
        let valid: Vec<bool> = one.iter().map(|g| g.analysis.is_some()).collect();
        assert_eq!(valid, [true, false, true, false]);
        // Each game's analysis is analyse_game's.
        for g in one.iter().filter(|g| g.analysis.is_some()) {
            let game = replay(
                drafti_pdn::parse_game(&g.raw).unwrap(),
                &ReplayOptions::default(),
            );
            let alone = analyse_game(&game, &AnalysisOptions::from_limits(Some(3), None));
            assert_eq!(g.analysis.as_ref().map(moves), Some(moves(&alone)));
        }
        for (jobs, batch) in [(2, BATCH_POSITIONS), (2, 1), (3, 5)] {
            assert_eq!(
                summary(&analysed(jobs, batch, None)),
                summary(&one),
                "{jobs} threads, batches of {batch} positions"
            );
        }
    }

    #[test]
    fn a_shard_numbers_its_games_across_all_shards() {
        let second = analysed(2, 1, Some(Shard { index: 2, count: 3 }));
        let ordinals: Vec<u64> = second.iter().map(|g| g.ordinal).collect();
        assert_eq!(ordinals, [1]);
        assert!(second[0].analysis.is_none(), "game 2 is invalid");
        let first = analysed(2, 1, Some(Shard { index: 1, count: 3 }));
        let ordinals: Vec<u64> = first.iter().map(|g| g.ordinal).collect();
        assert_eq!(ordinals, [0, 3]);
    }

    #[test]
    fn progress_counts_every_position_searched() {
        let inputs = vec![Input::new("t", Box::new(ARCHIVE.as_bytes()))];
        let options = ArchiveOptions {
            batch_positions: 1,
            ..ArchiveOptions::new(AnalysisOptions::from_limits(Some(2), None))
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let searched = std::sync::atomic::AtomicU64::new(0);
        let batches = std::sync::Mutex::new(Vec::new());
        analyse_archive(
            inputs,
            &options,
            &pool,
            &|p| match p {
                Progress::Searched(n) => {
                    searched.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                }
                Progress::Batch { positions, .. } => batches.lock().unwrap().push(positions),
            },
            |_| (),
            |()| -> Result<(), Infallible> { Ok(()) },
        )
        .unwrap();
        // Valid games of 7 and 6 positions, each ending a batch; then the unreadable game's.
        assert_eq!(batches.into_inner().unwrap(), [7, 13, 13]);
        assert_eq!(searched.into_inner(), 13);
    }
}
