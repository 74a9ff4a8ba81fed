//! One archive runner for the commands that read archives:
//!
//! ```text
//! InputArgs ──open──▶ inputs ──batch (drafti-archive, or drafti-analysis with an engine)──▶
//!   work on the worker threads ──▶ sink on this thread, in input order ──▶ RunSummary
//! ```
//! with the progress bar, the warning for an input without games and the end of the run
//! (a sink error stops it; a broken pipe ends the command quietly, in `main`) written once
//! here. The command keeps what is its own: what a game becomes, where it goes, the summary
//! line and the exit code.

use crate::args::{InputArgs, JobsArg};
use crate::error::CliError;
use crate::progress::Progress;
use drafti_analysis::batch::{analyse_archive, ArchiveGame, ArchiveOptions, Progress as Searched};
use drafti_archive::batch::{run_games, BatchError, BatchSummary, GameJob, Input, Shard};

/// What a run read, besides what its sink saw.
pub struct RunSummary {
    /// The inputs' names, in the order given.
    pub names: Vec<String>,
    /// Games handed to the sink, skipped for other shards, bytes, time.
    pub batch: BatchSummary,
}

impl RunSummary {
    /// `1 file` or `N files`.
    pub fn files_text(&self) -> String {
        if self.names.len() == 1 {
            "1 file".to_string()
        } else {
            format!("{} files", self.names.len())
        }
    }

    /// ` (shard K/N; G games left to the other shards)`, or nothing without `--shard`.
    pub fn shard_text(&self, shard: Option<Shard>) -> String {
        match shard {
            Some(s) => format!(
                " (shard {s}; {} games left to the other shards)",
                drafti_report::thousands(self.batch.skipped)
            ),
            None => String::new(),
        }
    }

    /// `N` per second of the run's wall time (0 for an instant run).
    pub fn rate(&self, n: u64) -> u64 {
        let secs = self.batch.elapsed.as_secs_f64();
        if secs > 0.0 {
            (n as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// Warns on stderr about each input that held no game.
pub fn warn_empty_inputs(names: &[String], games_per_input: &[u64]) {
    for (name, n) in names.iter().zip(games_per_input) {
        if *n == 0 {
            eprintln!("warning: {name}: no games found");
        }
    }
}

/// The end of a batch: its summary, or the error that stopped it.
fn finished<E: Into<CliError>>(
    names: Vec<String>,
    result: Result<BatchSummary, BatchError<E>>,
) -> Result<RunSummary, CliError> {
    let batch = match result {
        Ok(batch) => batch,
        Err(BatchError::Sink(e)) => return Err(e.into()),
        Err(BatchError::Io { file, source }) => {
            return Err(CliError::new(format!("{file}: {source}")))
        }
        Err(BatchError::Pool(e)) => {
            return Err(CliError::new(format!(
                "cannot start the worker threads: {e}"
            )))
        }
    };
    warn_empty_inputs(&names, &batch.games_per_input);
    Ok(RunSummary { names, batch })
}

/// Replays every game of the archives `input` names (only `shard`'s), `work` on the worker
/// threads, `sink` on this one in input order; a bar shows the bytes read.
pub fn run_archive<T, E, W, S>(
    input: &InputArgs,
    shard: Option<Shard>,
    work: W,
    sink: S,
) -> Result<RunSummary, CliError>
where
    T: Send,
    E: Into<CliError>,
    W: Fn(GameJob<'_>) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let opened = input.open()?;
    run_inputs(opened.inputs, opened.total_bytes, input, shard, work, sink)
}

/// [`run_archive`] over inputs already opened (the bundled corpus, say) of `total_bytes`.
pub fn run_inputs<T, E, W, S>(
    inputs: Vec<Input>,
    total_bytes: Option<u64>,
    input: &InputArgs,
    shard: Option<Shard>,
    work: W,
    sink: S,
) -> Result<RunSummary, CliError>
where
    T: Send,
    E: Into<CliError>,
    W: Fn(GameJob<'_>) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let bar = Progress::bytes(total_bytes);
    let result = run_games(
        inputs,
        &input.batch(shard),
        |p| bar.read(p.bytes, p.games),
        work,
        sink,
    );
    drop(bar);
    finished(names, result)
}

/// Analyses every game of `inputs` (of `total_bytes`) with the engine as `options` says, on
/// `jobs` worker threads: `work` on the pool, `sink` on this thread in input order; a bar
/// counts the positions searched (their total estimated from the bytes read so far).
pub fn run_analysis<T, E, W, S>(
    inputs: Vec<Input>,
    total_bytes: Option<u64>,
    options: &ArchiveOptions,
    jobs: JobsArg,
    work: W,
    sink: S,
) -> Result<RunSummary, CliError>
where
    T: Send,
    E: Into<CliError>,
    W: Fn(ArchiveGame) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let pool = worker_pool(jobs.threads(), "analysis")?;
    let bar = Progress::count(0, "positions");
    let progress = |p: Searched| match p {
        Searched::Batch {
            bytes,
            games: _,
            positions,
        } => {
            // The positions read so far, scaled to the whole input by its bytes.
            let estimate = match total_bytes {
                Some(total) if bytes > 0 => (positions as f64 * total as f64 / bytes as f64) as u64,
                _ => positions,
            };
            bar.set_length(estimate.max(positions));
        }
        Searched::Searched(n) => bar.inc(n),
    };
    let result = analyse_archive(inputs, options, &pool, &progress, work, sink);
    drop(bar);
    finished(names, result)
}

/// A pool of `jobs` worker threads named `drafti-NAME-i`, with stacks deep enough for the
/// engine's search.
pub fn worker_pool(jobs: usize, name: &'static str) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(16 << 20)
        .thread_name(move |i| format!("drafti-{name}-{i}"))
        .build()
        .map_err(|e| CliError::new(format!("cannot start the worker threads: {e}")))
}
