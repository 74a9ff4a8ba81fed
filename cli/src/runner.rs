//! One archive runner for the commands that read archives:
//!
//! ```text
//! InputArgs ──open──▶ inputs ──batch (drafti-archive, or drafti-analysis with an engine)──▶
//!   work on the worker threads ──▶ sink on this thread, in input order ──▶ RunSummary
//! ```
//! with the progress bar, the warning for an input without games, the end of the run (a
//! sink error stops it; a broken pipe ends the command quietly, in `main`) and the variant
//! policy written once here. The command keeps what is its own: what a game becomes, where it
//! goes, the summary line and the exit code.
//!
//! # The variant policy
//! A game that names no variant (no `GameType` or `Variant` tag) and is read without
//! `--variant` is read as Tanzanian: a guess. Every game's [`VariantEvidence`] is taken on the
//! worker that replayed it (an invalid such game is replayed again as Russian and as Czech),
//! and each file's evidence is judged at the end of the run:
//! - when some invalid games of a file replay valid under other rules, the command says so
//!   after its summary line ([`RunSummary::tell_variants`]; `validate`'s note);
//! - when **every** invalid game of a file replays valid under one other variant
//!   ([`VariantGuess::wrong_guess`]), the games are of that variant. A command whose result
//!   is built from every game and written at the end ([`Output::Summary`]: `report`,
//!   `puzzles`, `openings`, `standings`) then writes nothing and stops (exit 2) naming the
//!   file and the `--variant` to give: a report built on the wrong rules is worse than none.
//!   `report`, `puzzles` and `analyze`, which search every game, replay their inputs alone
//!   first ([`open_refusing_wrong_variant`]) and refuse then, before the search writes
//!   anything: milliseconds instead of the whole analysis under the wrong rules (`analyze`
//!   too, which would otherwise write every game before it could say so). `report` and
//!   `puzzles` copy stdin to a temporary file for that replay and search the copy; `analyze`
//!   streams stdin, read once, so from stdin it ends with the note, as below.
//!   A command that has written each game as it came ([`Output::PerGame`]: `validate`,
//!   `analyze` from stdin, `fmt`, `openings --per-game`, `puzzles --verify`) cannot take it
//!   back: it ends with the note (and exit 1, as its invalid games already make it).
//!
//! The evidence is what the command replays: `openings` replays the first 40 plies only, and
//! a Czech game whose first 40 plies are valid Tanzanian moves classifies the same either way.

use crate::args::{InputArgs, JobsArg};
use crate::error::CliError;
use crate::input::Inputs;
use crate::progress::Progress;
use drafti_analysis::batch::{analyse_archive, ArchiveGame, ArchiveOptions, Progress as Searched};
use drafti_archive::batch::{
    run_games, BatchError, BatchOptions, BatchSummary, GameJob, Input, Shard,
};
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::{VariantEvidence, VariantGuess};
use drafti_report::text::diagnostic::{variant_note, variant_refusal};
use drafti_rules::Variant;

/// What a command has written when its run ends: what a wrong variant guess does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Each game's output as it comes: a wrong guess is told after the summary line.
    PerGame,
    /// A result built from every game, written after the run: a wrong guess stops the
    /// command before it writes anything.
    Summary,
}

/// What a run read, besides what its sink saw.
pub struct RunSummary {
    /// The inputs' names, in the order given.
    pub names: Vec<String>,
    /// Games handed to the sink, skipped for other shards, bytes, time.
    pub batch: BatchSummary,
    /// The variant policy's notes, for after the command's summary line.
    variant_notes: Vec<String>,
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

    /// Writes the variant policy's notes on stderr (after the command's summary line).
    pub fn tell_variants(&self) {
        for note in &self.variant_notes {
            eprintln!("{note}");
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

/// The variant policy's tally (module docs): each input's [`VariantGuess`], filled in input
/// order; for a reader that does not go through [`run_archive`] (`report --from-analysis`).
#[derive(Default)]
pub struct VariantCheck(Vec<VariantGuess>);

impl VariantCheck {
    /// The tally of a reader that took the evidence itself (`index build`), per input.
    pub fn from_guesses(guesses: Vec<VariantGuess>) -> VariantCheck {
        VariantCheck(guesses)
    }

    /// Counts one game of input `input`.
    pub fn add(&mut self, input: usize, evidence: &VariantEvidence) {
        if self.0.len() <= input {
            self.0.resize(input + 1, VariantGuess::default());
        }
        self.0[input].add_evidence(evidence);
    }

    /// The policy (module docs): the notes to tell, or the refusal of a summary.
    pub fn judge(&self, names: &[String], output: Output) -> Result<Vec<String>, CliError> {
        let mut notes = Vec::new();
        for (name, guess) in names.iter().zip(&self.0) {
            if output == Output::Summary {
                if let Some(refusal) = variant_refusal(name, guess) {
                    return Err(CliError::new(refusal));
                }
            }
            notes.extend(variant_note(name, guess));
        }
        Ok(notes)
    }
}

/// For a command that searches every game (`report`, `puzzles`, `analyze`): its inputs,
/// opened for the run after the variant policy's refusal, which comes from a replay of the
/// inputs alone before the work instead of after hours of searching the games under the wrong
/// rules. Without `--variant` (which forces the rules: nothing to judge), stdin is copied to a
/// temporary file first ([`InputArgs::spool_stdin`]) for a command whose result is written at
/// the end (`output` [`Output::Summary`]), and the run reads that copy (still `<stdin>`); a
/// command that writes each game as it comes (`analyze`) streams stdin, read once, and the
/// policy acts at its end. The same shard's games as the run, so the verdict is the one the
/// run's end would give.
pub fn open_refusing_wrong_variant(
    input: &InputArgs,
    shard: Option<Shard>,
    output: Output,
) -> Result<Inputs, CliError> {
    if let Some(variant) = input.variant() {
        let mut opened = input.open()?;
        opened.variants = Some(vec![variant]);
        return Ok(opened);
    }
    if input.reads_stdin() && output == Output::PerGame {
        return input.open();
    }
    let stdin = input.spool_stdin()?;
    // Quiet about encodings: the run tells them.
    let opened = input.open_from(&stdin, false)?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let batch = input.batch(shard);
    let mut guesses = VariantCheck::default();
    let mut variants: Vec<Variant> = Vec::new();
    let result = run_games(
        opened.inputs,
        &batch,
        |_| {},
        |job| {
            (
                job.file_index,
                VariantEvidence::of(&job.game, &batch.replay),
                job.game.as_ref().ok().map(|g| g.variant),
            )
        },
        |(file, evidence, variant)| -> Result<(), std::convert::Infallible> {
            guesses.add(file, &evidence);
            if let Some(v) = variant.filter(|v| !variants.contains(v)) {
                variants.push(v);
            }
            Ok(())
        },
    );
    // A read error is the run's to report, where it stops the command anyway.
    if result.is_ok() {
        guesses.judge(&names, Output::Summary)?;
    }
    let mut opened = input.open_from(&stdin, true)?;
    opened.variants = Some(variants);
    Ok(opened)
}

/// The end of a batch: its summary, or the error that stopped it (or the variant policy's
/// refusal).
fn finished<E: Into<CliError>>(
    names: Vec<String>,
    result: Result<BatchSummary, BatchError<E>>,
    guesses: &VariantCheck,
    output: Output,
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
    let variant_notes = guesses.judge(&names, output)?;
    Ok(RunSummary {
        names,
        batch,
        variant_notes,
    })
}

/// Replays every game of the archives `input` names (only `shard`'s), `work` on the worker
/// threads, `sink` on this one in input order; a bar shows the bytes read.
pub fn run_archive<T, E, W, S>(
    input: &InputArgs,
    shard: Option<Shard>,
    output: Output,
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
    let bar = Progress::bytes(opened.total_bytes);
    run_inputs(opened, &input.batch(shard), bar, output, work, sink)
}

/// [`run_archive`] over inputs already opened (the bundled corpus, say), as `batch` says,
/// with `bar` told the bytes and games read.
pub fn run_inputs<T, E, W, S>(
    opened: Inputs,
    batch: &BatchOptions,
    bar: Progress,
    output: Output,
    work: W,
    mut sink: S,
) -> Result<RunSummary, CliError>
where
    T: Send,
    E: Into<CliError>,
    W: Fn(GameJob<'_>) -> T + Sync,
    S: FnMut(T) -> Result<(), E>,
{
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let mut guesses = VariantCheck::default();
    let replay = &batch.replay;
    let result = run_games(
        opened.inputs,
        batch,
        |p| bar.read(p.bytes, p.games),
        |job| {
            let evidence = VariantEvidence::of(&job.game, replay);
            (job.file_index, evidence, work(job))
        },
        |(input, evidence, t)| {
            guesses.add(input, &evidence);
            sink(t)
        },
    );
    drop(bar);
    finished(names, result, &guesses, output)
}

/// Analyses every game of `inputs` (of `total_bytes`) with the engine as `options` says, on
/// `jobs` worker threads: `work` on the pool, `sink` on this thread in input order; a bar
/// counts the positions searched (their total estimated from the bytes read so far).
pub fn run_analysis<T, E, W, S>(
    inputs: Vec<Input>,
    total_bytes: Option<u64>,
    options: &ArchiveOptions,
    jobs: JobsArg,
    output: Output,
    work: W,
    mut sink: S,
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
    let mut guesses = VariantCheck::default();
    let replay: &ReplayOptions = &options.replay;
    let result = analyse_archive(
        inputs,
        options,
        &pool,
        &progress,
        |g| {
            let evidence = VariantEvidence::of(&g.game, replay);
            (g.input, evidence, work(g))
        },
        |(input, evidence, t)| {
            guesses.add(input, &evidence);
            sink(t)
        },
    );
    drop(bar);
    finished(names, result, &guesses, output)
}

pub use drafti_cli::workers::worker_pool;
