//! The batch driver: many games from many inputs, parsed and replayed in parallel, handed
//! to a sink **in input order**, in bounded memory.
//!
//! ```text
//! inputs ──GameSplitter (one reader thread)──▶ chunks of RawGames (shard filter applied)
//!        ──rayon pool (--jobs): parse_game + replay + work(GameJob) per game──▶ Vec<T>
//!        ──reorder by chunk number──▶ sink(T), in input order (on the calling thread)
//! ```
//! At most a few chunks per worker are in flight at a time, so memory stays flat for any
//! input size. `work` runs on the workers: do the heavy part there (render the report
//! line, compute statistics) and keep `sink` cheap (write, count). With `jobs == 1`
//! everything runs on the calling thread, with no other thread.
//!
//! The driver never prints: progress is reported through a callback.
//!
//! ```
//! use drafti_archive::batch::{run_games, BatchOptions, Input};
//! let text = "1. c3-d4 d6-e5 *\n1. c3-d4 d4-e5 *\n";
//! let inputs = vec![Input::new("mem", Box::new(text.as_bytes()))];
//! let mut valid = Vec::new();
//! let summary = run_games(
//!     inputs,
//!     &BatchOptions::default(),
//!     |_| {},
//!     |job| job.game.as_ref().map(|g| g.is_valid()).unwrap_or(false),
//!     |ok| -> Result<(), std::convert::Infallible> { valid.push(ok); Ok(()) },
//! )
//! .unwrap();
//! assert_eq!(valid, [true, false]);
//! assert_eq!(summary.games, 2);
//! ```

use crate::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_pdn::{parse_game, GameSplitter, ParseError, RawGame, DEFAULT_MAX_GAME_BYTES};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead};
use std::panic::AssertUnwindSafe;
use std::str::FromStr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One input: a name for reports (a path, or `<stdin>`) and its bytes.
pub struct Input {
    /// What reports call it.
    pub name: String,
    /// The bytes (a buffered file or stdin).
    pub reader: Box<dyn BufRead + Send>,
}

impl Input {
    /// An input called `name` reading from `reader`.
    pub fn new(name: impl Into<String>, reader: Box<dyn BufRead + Send>) -> Input {
        Input {
            name: name.into(),
            reader,
        }
    }
}

/// `--shard K/N`: of all games (counted across the inputs in order, from 1), take the K-th,
/// the (K+N)-th, the (K+2N)-th…; `K` runs from 1 to `N`, so N machines with K = 1…N
/// together see every game exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1-based.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// Whether the game with 0-based ordinal `ordinal` (across all inputs) is in this shard.
    #[inline]
    pub fn takes(&self, ordinal: u64) -> bool {
        ordinal % self.count == self.index - 1
    }
}

/// A `--shard` value that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard '{0}': expected K/N with 1 <= K <= N, e.g. 3/8")]
pub struct ParseShardError(pub String);

impl FromStr for Shard {
    type Err = ParseShardError;
    /// ```
    /// use drafti_archive::batch::Shard;
    /// let s: Shard = "2/4".parse().unwrap();
    /// assert!(s.takes(1) && s.takes(5) && !s.takes(0));
    /// assert!("0/4".parse::<Shard>().is_err() && "5/4".parse::<Shard>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// Only this shard of the games.
    pub shard: Option<Shard>,
    /// Games per unit of parallel work.
    pub chunk_size: usize,
    /// How each game is replayed.
    pub replay: ReplayOptions,
    /// The splitter's limit on one game's size.
    pub max_game_bytes: usize,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            jobs: 0,
            shard: None,
            chunk_size: 256,
            replay: ReplayOptions::default(),
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
        }
    }
}

/// One game as the workers see it.
pub struct GameJob<'a> {
    /// The input's name.
    pub file: &'a str,
    /// Which input (0-based, in the order given).
    pub file_index: usize,
    /// The game's bytes and where they start (for quoting source lines).
    pub raw: &'a RawGame,
    /// The replayed game, or why it could not be parsed.
    pub game: Result<ReplayedGame, ParseError>,
}

/// How far a batch has got (reported after each chunk is handed to the sink).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of input read up to the last game handed over (across inputs).
    pub bytes: u64,
    /// Games handed to the sink.
    pub games: u64,
}

/// What a finished batch did.
#[derive(Clone, Debug, Default)]
pub struct BatchSummary {
    /// Games handed to the sink (in this shard).
    pub games: u64,
    /// Games left to other shards.
    pub skipped: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Games found in each input (all shards), in input order.
    pub games_per_input: Vec<u64>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError<E> {
    /// Reading an input failed.
    #[error("{file}: {source}")]
    Io {
        /// The input's name.
        file: String,
        /// The failure.
        source: io::Error,
    },
    /// The worker pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    Pool(String),
    /// The sink failed (e.g. stdout closed).
    #[error("{0}")]
    Sink(E),
}

/// A run of games for one worker: (input index, game).
struct Chunk {
    seq: usize,
    games: Vec<(usize, RawGame)>,
    /// Bytes read once its last game is read.
    bytes_after: u64,
}

/// Walks the inputs in order, cutting games and keeping this shard's.
struct Feeder {
    inputs: std::vec::IntoIter<Input>,
    names: Vec<String>,
    current: Option<(usize, GameSplitter<Box<dyn BufRead + Send>>)>,
    shard: Option<Shard>,
    ordinal: u64,
    skipped: u64,
    bytes_done: u64,
    bytes_now: u64,
    games_per_input: Vec<u64>,
    max_game_bytes: usize,
}

impl Feeder {
    fn new(inputs: Vec<Input>, options: &BatchOptions) -> Feeder {
        let names = inputs.iter().map(|i| i.name.clone()).collect();
        let n = inputs.len();
        Feeder {
            inputs: inputs.into_iter(),
            names,
            current: None,
            shard: options.shard,
            ordinal: 0,
            skipped: 0,
            bytes_done: 0,
            bytes_now: 0,
            games_per_input: vec![0; n],
            max_game_bytes: options.max_game_bytes,
        }
    }

    /// The next game of this shard, with its input's index; `None` at the end.
    fn next_game(&mut self) -> Result<Option<(usize, RawGame)>, (String, io::Error)> {
        loop {
            if self.current.is_none() {
                let Some(input) = self.inputs.next() else {
                    return Ok(None);
                };
                let index = self.games_per_input.len() - self.inputs.len() - 1;
                let splitter =
                    GameSplitter::new(input.reader).with_max_game_bytes(self.max_game_bytes);
                self.current = Some((index, splitter));
            }
            let (index, splitter) = self.current.as_mut().expect("set above");
            let index = *index;
            match splitter.next() {
                None => {
                    self.bytes_done = self.bytes_now;
                    self.current = None;
                }
                Some(Err(e)) => return Err((self.names[index].clone(), e)),
                Some(Ok(raw)) => {
                    self.bytes_now = self.bytes_done + (raw.offset + raw.bytes.len()) as u64;
                    self.games_per_input[index] += 1;
                    let ordinal = self.ordinal;
                    self.ordinal += 1;
                    if self.shard.is_some_and(|s| !s.takes(ordinal)) {
                        self.skipped += 1;
                        continue;
                    }
                    return Ok(Some((index, raw)));
                }
            }
        }
    }

    fn next_chunk(
        &mut self,
        seq: usize,
        size: usize,
    ) -> Result<Option<Chunk>, (String, io::Error)> {
        let mut games = Vec::with_capacity(size);
        while games.len() < size {
            match self.next_game()? {
                Some(g) => games.push(g),
                None => break,
            }
        }
        Ok((!games.is_empty()).then_some(Chunk {
            seq,
            games,
            bytes_after: self.bytes_now,
        }))
    }
}

fn process<T, W>(
    names: &[String],
    chunk: &Chunk,
    replay_options: &ReplayOptions,
    work: &W,
) -> Vec<T>
where
    W: Fn(GameJob<'_>) -> T,
{
    chunk
        .games
        .iter()
        .map(|(file_index, raw)| {
            let game = parse_game(raw).map(|record| replay(record, replay_options));
            work(GameJob {
                file: &names[*file_index],
                file_index: *file_index,
                raw,
                game,
            })
        })
        .collect()
}

/// Parses and replays every game of `inputs` (this shard's), runs `work` on each in
/// parallel and hands the results to `sink` in input order. `progress` is called on the
/// calling thread after each chunk.
///
/// Stops at the first read error or sink error; games already handed over stay handed over.
pub fn run_games<T, E, W, S>(
    inputs: Vec<Input>,
    options: &BatchOptions,
    mut progress: impl FnMut(Progress),
    work: W,
    mut sink: S,
) -> Result<BatchSummary, BatchError<E>>
where
    T: Send,
    W: Fn(GameJob<'_>) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let started = Instant::now();
    let chunk_size = options.chunk_size.max(1);
    let mut feeder = Feeder::new(inputs, options);
    let names = feeder.names.clone();
    let mut done = Progress::default();
    let jobs = if options.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.jobs
    };

    if jobs == 1 {
        let mut seq = 0;
        while let Some(chunk) = feeder
            .next_chunk(seq, chunk_size)
            .map_err(|(file, source)| BatchError::Io { file, source })?
        {
            seq += 1;
            for t in process(&names, &chunk, &options.replay, &work) {
                sink(t).map_err(BatchError::Sink)?;
                done.games += 1;
            }
            done.bytes = chunk.bytes_after;
            progress(done);
        }
        return Ok(BatchSummary {
            games: done.games,
            skipped: feeder.skipped,
            bytes: feeder.bytes_now,
            games_per_input: feeder.games_per_input,
            elapsed: started.elapsed(),
        });
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(16 << 20)
        .thread_name(|i| format!("drafti-worker-{i}"))
        .build()
        .map_err(|e| BatchError::Pool(e.to_string()))?;
    let max_in_flight = jobs * 3;
    // The reader thread sends chunks; at most `max_in_flight` wait in the channel.
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<Result<Chunk, (String, io::Error)>>(jobs);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut seq = 0;
            loop {
                match feeder.next_chunk(seq, chunk_size) {
                    Ok(Some(chunk)) => {
                        seq += 1;
                        if chunk_tx.send(Ok(chunk)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = chunk_tx.send(Err(e));
                        break;
                    }
                }
            }
            feeder
        });

        let result = pool.in_place_scope(|s| -> Result<(), BatchError<E>> {
            // A worker that panics sends its panic back, so this thread never waits for a
            // result that cannot come; the panic is resumed here.
            type Done<T> = (usize, u64, std::thread::Result<Vec<T>>);
            let (result_tx, result_rx) = mpsc::channel::<Done<T>>();
            let mut spawned = 0usize;
            let mut sunk = 0usize;
            let mut reader_done = false;
            let mut pending: BTreeMap<usize, (u64, Vec<T>)> = BTreeMap::new();
            let work = &work;
            let names = &names;
            let replay_options = &options.replay;
            loop {
                while !reader_done && spawned - sunk < max_in_flight {
                    match chunk_rx.recv() {
                        Ok(Ok(chunk)) => {
                            let tx = result_tx.clone();
                            s.spawn(move |_| {
                                let results = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                    process(names, &chunk, replay_options, work)
                                }));
                                let _ = tx.send((chunk.seq, chunk.bytes_after, results));
                            });
                            spawned += 1;
                        }
                        Ok(Err((file, source))) => return Err(BatchError::Io { file, source }),
                        Err(_) => reader_done = true,
                    }
                }
                if sunk == spawned {
                    return Ok(());
                }
                let (seq, bytes, results) = result_rx.recv().expect("a worker holds a sender");
                let results = results.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                pending.insert(seq, (bytes, results));
                while let Some((bytes, results)) = pending.remove(&sunk) {
                    for t in results {
                        sink(t).map_err(BatchError::Sink)?;
                        done.games += 1;
                    }
                    done.bytes = bytes;
                    sunk += 1;
                    progress(done);
                }
            }
        });
        drop(chunk_rx);
        let feeder = reader.join().expect("the reader thread does not panic");
        result.map(|()| BatchSummary {
            games: done.games,
            skipped: feeder.skipped,
            bytes: feeder.bytes_now,
            games_per_input: feeder.games_per_input,
            elapsed: started.elapsed(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    fn games(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "[Round \"{i}\"]\n1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *\n\n"
            ));
        }
        s
    }

    fn rounds(text: &str, options: &BatchOptions) -> (Vec<String>, BatchSummary) {
        let input = Input::new("t", Box::new(io::Cursor::new(text.as_bytes().to_vec())));
        let mut out = Vec::new();
        let summary = run_games(
            vec![input],
            options,
            |_| {},
            |job| {
                let g = job.game.unwrap();
                assert!(g.is_valid());
                g.record.tag("Round").unwrap().to_string()
            },
            |r| -> Result<(), Infallible> {
                out.push(r);
                Ok(())
            },
        )
        .unwrap();
        (out, summary)
    }

    #[test]
    fn output_is_in_input_order_whatever_the_jobs() {
        let text = games(1000);
        let expected: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        for jobs in [1, 2, 4] {
            let options = BatchOptions {
                jobs,
                chunk_size: 7,
                ..BatchOptions::default()
            };
            let (out, summary) = rounds(&text, &options);
            assert_eq!(out, expected, "jobs {jobs}");
            assert_eq!(summary.games, 1000);
            assert_eq!(summary.bytes, text.len() as u64);
        }
    }

    #[test]
    fn shards_partition_the_games() {
        let text = games(10);
        let mut all = Vec::new();
        for k in 1..=3 {
            let options = BatchOptions {
                jobs: 2,
                shard: Some(format!("{k}/3").parse().unwrap()),
                ..BatchOptions::default()
            };
            let (out, summary) = rounds(&text, &options);
            assert_eq!(summary.games + summary.skipped, 10);
            all.extend(out);
        }
        all.sort_by_key(|r| r.parse::<u32>().unwrap());
        assert_eq!(all, (0..10).map(|i| i.to_string()).collect::<Vec<_>>());
    }

    #[test]
    fn a_panicking_worker_panics_the_caller_instead_of_hanging() {
        let text = games(100);
        let input = Input::new("t", Box::new(io::Cursor::new(text.into_bytes())));
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run_games(
                vec![input],
                &BatchOptions {
                    jobs: 2,
                    chunk_size: 10,
                    ..BatchOptions::default()
                },
                |_| {},
                |job| assert!(job.raw.index != 42, "boom"),
                |()| -> Result<(), Infallible> { Ok(()) },
            )
        }));
        assert!(result.is_err());
    }

    #[test]
    fn sink_errors_stop_the_batch() {
        let text = games(5000);
        let input = Input::new("t", Box::new(io::Cursor::new(text.into_bytes())));
        let mut n = 0;
        let err = run_games(
            vec![input],
            &BatchOptions {
                jobs: 2,
                chunk_size: 10,
                ..BatchOptions::default()
            },
            |_| {},
            |_| (),
            |()| {
                n += 1;
                if n == 25 {
                    Err("closed")
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert!(matches!(err, BatchError::Sink("closed")));
    }
}
