//! The toolkit's jobs from Python — `validate`, `analyze`, `openings`, `puzzles` — and the
//! streaming reader behind `read_games`: each runs the library's batch driver (parse,
//! replay and the job's work on rayon's threads, results in input order) on a thread of its
//! own, with the GIL released, and hands its rows over a bounded channel to the calling
//! thread, which turns them into Python objects.
//!
//! ```text
//! sources ──(thread) run_games / analyse_archive on a pool of `jobs` threads──▶ rows (Rust)
//!         ──bounded channel──▶ calling thread: pythonize (the CLI's JSON objects) ──▶ list
//! ```
//!
//! This module is the only one that uses the libraries' job APIs (`drafti_archive::{batch,
//! validation, openings}`, `drafti_analysis::{batch, json, puzzles}`, `drafti_report::
//! puzzles`), so a change there is a change here alone. Each row is the command line's JSON
//! object for the same input and settings.

use crate::args::{opt, Int};
use crate::errors::{error, guard, value_error, Kind};
use crate::game::{GameData, PyGame};
use crate::interrupt;
use crate::position::parse_variant;
use crate::sources::{encoding_arg, open_sources, paths_only, warn_detected, Detected, Opened};
use drafti_analysis::batch::{analyse_archive, ArchiveOptions};
use drafti_analysis::json;
use drafti_analysis::preset::Preset;
use drafti_analysis::puzzles::{mine, Collection, PuzzleOptions, DEFAULT_NODES};
use drafti_analysis::{AnalysisOptions, AnalysisOverrides};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, Input};
use drafti_archive::input::Fingerprint;
use drafti_archive::openings::{
    ArchiveIdentity, Book, Classification, OpeningStats, CLASSIFY_PLIES,
};
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::{
    names_no_variant, valid_under, validated, GameLine, Validated, VariantGuess,
};
use drafti_engine::egtb::{self, FirstUseEvent, Signature, Tables};
use drafti_engine::StopFlag;
use drafti_pdn::{parse_game, GameResult, GameSplitter, RawGame};
use drafti_rules::{Color, Position, Variant};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::PyList;
use serde::Serialize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};

/// Messages (batches of rows) waiting in the channel at most: the producer waits beyond, so
/// memory stays flat.
const CHANNEL_MESSAGES: usize = 8;

/// What a job's thread sends: a row, or why it stopped.
pub enum Msg<T> {
    Row(T),
    Fail(Kind, String),
}

/// Why a job's thread stopped early (the receiver went away: nothing to tell).
type Stop = Option<(Kind, String)>;

/// What stops a job's work: the flag its engines watch (analysis, puzzles) and the one the
/// reading of Python file objects watches. Raised when the caller goes away (Ctrl-C, a
/// reader closed or dropped).
#[derive(Clone, Default)]
pub struct Cancel {
    pub engines: StopFlag,
    pub reading: Arc<AtomicBool>,
}

impl Cancel {
    fn raise(&self) {
        self.engines.raise();
        self.reading.store(true, Ordering::Relaxed);
    }

    /// Whether the caller went away: the job's work and sink end at their next check.
    fn raised(&self) -> bool {
        self.reading.load(Ordering::Relaxed)
    }
}

/// A job running on a thread of its own, and the channel its rows come on. The calling
/// thread takes the rows as they come, with the GIL released while it waits and Python's
/// signals run every [`interrupt::SIGNAL_CHECK`]; a job interrupted is stopped and waited
/// for (its workers end within milliseconds), a job dropped is stopped.
pub struct Job<T> {
    rx: Mutex<Option<Receiver<Msg<T>>>>,
    cancel: Cancel,
    finished: Arc<interrupt::Done>,
    signals: Mutex<interrupt::SignalTimer>,
}

/// Runs `producer` on a thread of its own with a channel to send rows on; a panic there
/// becomes a `Fail` with `InternalError`'s message.
fn spawn<T: Send + 'static>(
    cancel: Cancel,
    producer: impl FnOnce(&SyncSender<Msg<T>>, &Cancel) -> Result<(), Stop> + Send + 'static,
) -> PyResult<Job<T>> {
    let (tx, rx) = sync_channel(CHANNEL_MESSAGES);
    let watched = cancel.clone();
    let finished = Arc::new(interrupt::Done::default());
    let done = finished.clone();
    std::thread::Builder::new()
        .name("drafti-job".to_string())
        .stack_size(16 << 20)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| producer(&tx, &watched)));
            let fail = match outcome {
                Ok(Ok(())) | Ok(Err(None)) => None,
                Ok(Err(Some(fail))) => Some(fail),
                Err(payload) => {
                    let text = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "(no message)".to_string());
                    Some((
                        Kind::Internal,
                        format!(
                            "internal error in drafti (a bug; please report it with the input): {text}"
                        ),
                    ))
                }
            };
            if let Some((kind, message)) = fail {
                let _ = tx.send(Msg::Fail(kind, message));
            }
            drop(tx);
            done.set();
        })
        .map_err(|e| error(Kind::Internal, format!("cannot start a thread: {e}")))?;
    Ok(Job {
        rx: Mutex::new(Some(rx)),
        cancel,
        finished,
        signals: Mutex::new(interrupt::SignalTimer::new()),
    })
}

impl<T: Send> Job<T> {
    /// The next row; `None` at the end. Python's signals run on the way (a job that streams
    /// rows without a pause answers Ctrl-C as one that waits); an exception from them stops
    /// the job, waits for its thread and is raised.
    pub fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        loop {
            let got = {
                // Held while this thread waits: another thread taking rows from the same job
                // waits for it (with the GIL released) and gets the next row.
                let mut slot = self.rx.lock_py_attached(py).map_err(|_| poisoned())?;
                let Some(rx) = slot.take() else {
                    return Ok(None);
                };
                let (rx, got) = py.detach(move || {
                    let got = rx.recv_timeout(interrupt::SIGNAL_CHECK);
                    (rx, got)
                });
                *slot = Some(rx);
                got
            };
            if let Err(e) = self.check_signals(py) {
                self.stop(py);
                py.detach(|| self.finished.wait(None));
                return Err(e);
            }
            match got {
                Ok(Msg::Row(t)) => return Ok(Some(t)),
                Ok(Msg::Fail(kind, message)) => {
                    self.close(py);
                    return Err(error(kind, message));
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    self.close(py);
                    return Ok(None);
                }
            }
        }
    }

    fn check_signals(&self, py: Python<'_>) -> PyResult<()> {
        let mut timer = self.signals.lock_py_attached(py).map_err(|_| poisoned())?;
        timer.check(py)
    }

    /// Closes the channel (the producer's next send fails and it ends).
    fn close(&self, py: Python<'_>) {
        if let Ok(mut rx) = self.rx.lock_py_attached(py) {
            rx.take();
        }
    }

    /// Stops the work: its flags raised, its channel closed.
    pub fn stop(&self, py: Python<'_>) {
        self.cancel.raise();
        self.close(py);
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.cancel.raise();
    }
}

fn poisoned() -> PyErr {
    error(Kind::Internal, "a job's lock is poisoned")
}

/// Every row of `job`, each made a Python object by `each`.
fn collect<'py, T: Send>(
    py: Python<'py>,
    job: Job<T>,
    detected: &Detected,
    mut each: impl FnMut(Python<'py>, T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    while let Some(t) = job.next(py)? {
        list.append(each(py, t)?)?;
    }
    warn_detected(py, detected)?;
    Ok(list)
}

/// Rows sent a batch at a time: one message (and one wake-up of the waiting thread) per
/// [`BATCH_ROWS`] rows instead of one per row.
struct Batcher<'a, T> {
    tx: &'a SyncSender<Msg<Vec<T>>>,
    rows: Vec<T>,
    cancel: Cancel,
}

/// Rows per message of a job's channel.
const BATCH_ROWS: usize = 64;

impl<'a, T> Batcher<'a, T> {
    fn new(tx: &'a SyncSender<Msg<Vec<T>>>, cancel: &Cancel) -> Self {
        Batcher {
            tx,
            rows: Vec::with_capacity(BATCH_ROWS),
            cancel: cancel.clone(),
        }
    }

    /// Adds a row; `Err` once the receiver is gone or the job is cancelled.
    fn push(&mut self, row: T) -> Result<(), ()> {
        if self.cancel.raised() {
            return Err(());
        }
        self.rows.push(row);
        if self.rows.len() >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::replace(&mut self.rows, Vec::with_capacity(BATCH_ROWS));
        self.tx.send(Msg::Row(rows)).map_err(drop)
    }
}

/// A batch error as the command line words it.
fn batch_failure<E>(e: BatchError<E>) -> Stop {
    match e {
        BatchError::Sink(_) => None,
        BatchError::Io { file, source } => Some((Kind::Pdn, format!("{file}: {source}"))),
        BatchError::Pool(e) => Some((
            Kind::Internal,
            format!("cannot start the worker threads: {e}"),
        )),
    }
}

/// The worker threads `jobs` asks for: one per core for 0.
pub fn threads(jobs: Int) -> PyResult<usize> {
    const MAX_JOBS: i64 = 1024;
    let jobs = jobs.range("jobs", 0, MAX_JOBS).map_err(|_| {
        value_error(format!(
            "jobs is 0 (one per core) to {MAX_JOBS}, not {}: more threads only cost memory",
            jobs.0
        ))
    })? as usize;
    Ok(if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    })
}

fn replay_options(variant: Option<&str>) -> PyResult<ReplayOptions> {
    Ok(ReplayOptions {
        variant_override: variant.map(parse_variant).transpose()?,
        ..ReplayOptions::default()
    })
}

fn pythonize<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(PyErr::from)
}

// ---------------------------------------------------------------------------------------
// Reading and validating.

/// The game's line of `drafti validate --json`, as a dict.
pub fn game_line<'py>(py: Python<'py>, data: &GameData) -> PyResult<Bound<'py, PyAny>> {
    match &data.body {
        Validated::Game(g) => pythonize(py, &GameLine::of_game(&data.file, &data.raw, g)),
        Validated::Unreadable(p) => {
            pythonize(py, &GameLine::of_unreadable(&data.file, &data.raw, p))
        }
    }
}

/// `raw` of input `file` parsed, replayed and validated (under `variant` when given).
pub fn game_data(file: Arc<str>, raw: RawGame, variant: Option<Variant>) -> GameData {
    let options = ReplayOptions {
        variant_override: variant,
        ..ReplayOptions::default()
    };
    let game = parse_game(&raw).map(|record| drafti_archive::replay::replay(record, &options));
    GameData {
        file,
        body: validated(game, &options),
        raw,
        variant_override: variant,
    }
}

/// The one chunk of `bytes`, validated (`None` when there is none); a second chunk is a
/// `PdnError` that says how many there are.
pub fn only_game(bytes: &[u8], variant: Option<Variant>) -> PyResult<Option<GameData>> {
    let reader = drafti_pdn::DecodingReader::new(bytes, None, None);
    let mut chunks = GameSplitter::new(reader);
    let Some(raw) = chunks.next() else {
        return Ok(None);
    };
    let raw = raw.map_err(|e| error(Kind::Pdn, format!("<text>: {e}")))?;
    let more = chunks.count();
    if more > 0 {
        return Err(error(
            Kind::Pdn,
            format!(
                "<text>: {} games in the text, and Game.from_pdn reads one: read them all with \
                 drafti.read_games(io.StringIO(text))",
                more + 1
            ),
        ));
    }
    Ok(Some(game_data(Arc::from("<text>"), raw, variant)))
}

/// What one game tells the note on a file read as Tanzanian for want of a variant tag:
/// `(input, untagged, valid, the variants it replays valid under)`.
type Guess = (usize, bool, bool, Vec<Variant>);

/// A game as the reader hands it over, with what it tells the variant note.
type ReadGame = (GameData, Option<Guess>);

/// The guess of one game (`None` for text that is no game).
fn guess(file_index: usize, body: &Validated, replay: &ReplayOptions) -> Option<Guess> {
    match body {
        Validated::Game(g) => Some((
            file_index,
            names_no_variant(&g.record),
            g.is_valid(),
            valid_under(g, replay),
        )),
        Validated::Unreadable(_) => None,
    }
}

/// The command line's note on each input whose games name no variant and replay valid under
/// other rules, told as `drafti.VariantWarning`s once the input is read.
struct VariantNotes {
    names: Vec<String>,
    guesses: Vec<VariantGuess>,
}

impl VariantNotes {
    fn new(names: Vec<String>) -> VariantNotes {
        let guesses = names.iter().map(|_| VariantGuess::default()).collect();
        VariantNotes { names, guesses }
    }

    fn add(&mut self, guess: &Option<Guess>) {
        if let Some((input, untagged, valid, under)) = guess {
            if let Some(g) = self.guesses.get_mut(*input) {
                g.add(*untagged, *valid, under);
            }
        }
    }

    /// Warns once per input that has a note (and forgets them).
    fn warn(&mut self, py: Python<'_>) -> PyResult<()> {
        for (name, guess) in self.names.iter().zip(std::mem::take(&mut self.guesses)) {
            let Some(note) = drafti_report::text::diagnostic::variant_note(name, &guess) else {
                continue;
            };
            let note = note.strip_prefix("note: ").unwrap_or(&note);
            // The command line's flag, as the Python argument.
            let note = match note.rfind("try --variant ") {
                Some(at) => format!(
                    "{}try variant=\"{}\"",
                    &note[..at],
                    &note[at + "try --variant ".len()..]
                ),
                None => note.to_string(),
            };
            let message = std::ffi::CString::new(note).unwrap_or_default();
            PyErr::warn(py, &crate::errors::variant_warning(py), &message, 1)?;
        }
        Ok(())
    }
}

/// The games of `inputs`, read, replayed and validated on `jobs` threads, in input order.
fn read(
    inputs: Vec<Input>,
    replay: ReplayOptions,
    jobs: usize,
    cancel: Cancel,
) -> PyResult<Job<Vec<ReadGame>>> {
    let names: Vec<Arc<str>> = inputs.iter().map(|i| Arc::from(i.name.as_str())).collect();
    let options = BatchOptions {
        jobs,
        // Smaller chunks than the command line's: fewer games in flight, the first sooner.
        chunk_size: 64,
        replay: replay.clone(),
        ..BatchOptions::default()
    };
    spawn(cancel, move |tx, cancel| {
        let mut batch = Batcher::new(tx, cancel);
        run_games(
            inputs,
            &options,
            |_| {},
            |job| {
                let body = validated(job.game, &replay);
                let guess = guess(job.file_index, &body, &replay);
                let data = GameData {
                    file: names[job.file_index].clone(),
                    raw: job.raw.clone(),
                    body,
                    variant_override: replay.variant_override,
                };
                (data, guess)
            },
            |data| batch.push(data),
        )
        .map_err(batch_failure)?;
        batch.flush().map_err(|()| None)
    })
}

/// An iterator over the games of an archive (see `drafti.read_games`), read ahead on
/// worker threads while Python works on the games already read. Threads may share one
/// reader: each game goes to one of them.
#[pyclass(module = "drafti", name = "GameReader")]
pub struct PyGameReader {
    job: Job<Vec<ReadGame>>,
    /// Games received and not yet handed out, in order.
    ready: Mutex<std::collections::VecDeque<GameData>>,
    detected: Detected,
    notes: Mutex<VariantNotes>,
}

impl PyGameReader {
    fn stop(&self, py: Python<'_>) {
        self.job.stop(py);
        if let Ok(mut ready) = self.ready.lock_py_attached(py) {
            ready.clear();
        }
    }
}

#[pymethods]
impl PyGameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyGame>> {
        guard(|| {
            // Taken with the GIL released: a thread waiting for the next batch holds it, and
            // another thread asking meanwhile waits for that batch instead of the GIL.
            let mut ready = self.ready.lock_py_attached(py).map_err(|_| poisoned())?;
            if ready.is_empty() {
                match self.job.next(py)? {
                    Some(batch) => {
                        let mut notes = self.notes.lock_py_attached(py).map_err(|_| poisoned())?;
                        for (data, guess) in batch {
                            notes.add(&guess);
                            ready.push_back(data);
                        }
                    }
                    None => {
                        drop(ready);
                        self.stop(py);
                        warn_detected(py, &self.detected)?;
                        let mut notes = self.notes.lock_py_attached(py).map_err(|_| poisoned())?;
                        notes.warn(py)?;
                        return Ok(None);
                    }
                }
                warn_detected(py, &self.detected)?;
            }
            Ok(ready.pop_front().map(|data| PyGame { data }))
        })
    }

    /// Stops reading (the rest of the input is not read).
    fn close(&self, py: Python<'_>) {
        self.stop(py);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) {
        self.stop(py);
    }
}

/// The games of `source` as they are read (see the Python docstring of `read_games`).
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = Int(0)))]
pub fn read_games(
    source: &Bound<'_, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
) -> PyResult<PyGameReader> {
    guard(|| {
        let replay = replay_options(variant)?;
        let jobs = threads(jobs)?;
        let Opened {
            inputs,
            detected,
            cancel,
        } = open_sources(source, encoding_arg(encoding)?)?;
        let names = inputs.iter().map(|i| i.name.clone()).collect();
        let cancel = Cancel {
            reading: cancel,
            ..Cancel::default()
        };
        Ok(PyGameReader {
            job: read(inputs, replay, jobs, cancel)?,
            ready: Mutex::default(),
            detected,
            notes: Mutex::new(VariantNotes::new(names)),
        })
    })
}

/// `drafti validate --json`'s lines for every game of `source`, as `str` (the `ValidationRows`
/// of the package read each into a dict when it is first used).
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = Int(0)))]
pub fn validate<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let replay = replay_options(variant)?;
        let jobs = threads(jobs)?;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let mut notes = VariantNotes::new(names.clone());
        let options = BatchOptions {
            jobs,
            replay: replay.clone(),
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        let cancel = Cancel {
            reading: opened.cancel,
            ..Cancel::default()
        };
        // Each game's line is written on the worker that validated it, as the CLI writes it.
        let job = spawn(cancel, move |tx, cancel| {
            let mut batch = Batcher::new(tx, cancel);
            run_games(
                inputs,
                &options,
                |_| {},
                |job| {
                    let file = &names[job.file_index];
                    let body = validated(job.game, &replay);
                    let line = match &body {
                        Validated::Game(g) => {
                            serde_json::to_string(&GameLine::of_game(file, job.raw, g))
                        }
                        Validated::Unreadable(p) => {
                            serde_json::to_string(&GameLine::of_unreadable(file, job.raw, p))
                        }
                    };
                    (
                        line.expect("a game line serializes"),
                        guess(job.file_index, &body, &replay),
                    )
                },
                |line| batch.push(line),
            )
            .map_err(batch_failure)?;
            batch.flush().map_err(|()| None)
        })?;
        let list = PyList::empty(py);
        while let Some(lines) = job.next(py)? {
            for (line, guess) in lines {
                notes.add(&guess);
                list.append(line)?;
            }
        }
        warn_detected(py, &opened.detected)?;
        notes.warn(py)?;
        Ok(list)
    })
}

/// One row per mainline move of every game of `source`, as JSON text (the `MoveRows` of the
/// package read each into a dict when it is first used): the moves as the rules resolve
/// them, without the engine.
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = Int(0)))]
pub fn game_moves<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let replay = replay_options(variant)?;
        let jobs = threads(jobs)?;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let options = BatchOptions {
            jobs,
            replay: ReplayOptions {
                variations: false,
                ..replay
            },
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        let cancel = Cancel {
            reading: opened.cancel,
            ..Cancel::default()
        };
        let job = spawn(cancel, move |tx, cancel| {
            let mut batch = Batcher::new(tx, cancel);
            run_games(
                inputs,
                &options,
                |_| {},
                |job| match &job.game {
                    _ if cancel.raised() => Vec::new(),
                    Ok(g) => crate::tree::move_rows(&names[job.file_index], job.raw.index + 1, g)
                        .iter()
                        .map(|row| serde_json::to_string(row).expect("a move row serializes"))
                        .collect(),
                    Err(_) => Vec::new(),
                },
                |rows: Vec<String>| {
                    for row in rows {
                        batch.push(row)?;
                    }
                    Ok::<(), ()>(())
                },
            )
            .map_err(batch_failure)?;
            batch.flush().map_err(|()| None)
        })?;
        let list = PyList::empty(py);
        while let Some(lines) = job.next(py)? {
            for line in lines {
                list.append(line)?;
            }
        }
        warn_detected(py, &opened.detected)?;
        Ok(list)
    })
}

// ---------------------------------------------------------------------------------------
// Endgame tables for the jobs.

/// Endgame tables given to a job: a folder holding a table folder per variant (`tz/`,
/// `czech/`, `russian/`, as `drafti egtb build --dir` makes them), or `drafti.Tables`
/// objects (one or a list).
fn tables_arg(tables: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Arc<Tables>>> {
    let Some(tables) = tables else {
        return Ok(Vec::new());
    };
    if let Ok(t) = tables.cast::<crate::engine::PyTables>() {
        return Ok(vec![t.get().tables.clone()]);
    }
    if let Ok(path) = tables.extract::<std::path::PathBuf>() {
        let mut found = Vec::new();
        for variant in Variant::ALL {
            if Tables::variant_dir(&path, variant).is_dir() {
                let t =
                    Tables::open(&path, variant).map_err(|e| error(Kind::Tables, e.to_string()))?;
                found.push(Arc::new(t));
            }
        }
        if found.is_empty() {
            return Err(error(
                Kind::Tables,
                format!(
                    "{}: no endgame tables here (drafti egtb build --dir {} builds them)",
                    path.display(),
                    path.display()
                ),
            ));
        }
        return Ok(found);
    }
    let mut found = Vec::new();
    for item in tables.try_iter()? {
        let item = item?;
        let t = item.cast::<crate::engine::PyTables>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "tables: a folder of endgame tables, or drafti.Tables objects",
            )
        })?;
        found.push(t.get().tables.clone());
    }
    Ok(found)
}

/// Builds in the default folder (`default_tables_dir`) the endgame tables of the variants of
/// `source` that are missing there, as `drafti analyze` does on first use, through the same
/// function (`egtb::build_on_first_use`: once, under a lock) and of up to the same pieces
/// (`drafti_analysis::first_use_pieces`: `DRAFTI_FIRST_USE_TABLES`, else 5). The variants are
/// `variant` when given, else those of the games, read before the job when every input is a
/// file (a file object is read once, by the job: nothing is built for it), as the command line
/// reads its files first and streams stdin. Says what it builds on the `drafti` logger (INFO).
/// A build that cannot happen (a cache that cannot be written) is a `UserWarning`, and its
/// variant is returned: the job runs without its tables. Ctrl-C stops it, and the tables
/// finished by then stay.
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = Int(0)))]
pub fn build_first_use_tables(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
) -> PyResult<Vec<&'static str>> {
    guard(|| {
        let Some(root) = crate::engine::default_tables_dir() else {
            return Ok(Vec::new());
        };
        let pieces = drafti_analysis::first_use_pieces(
            std::env::var_os(drafti_analysis::FIRST_USE_VARIABLE).as_deref(),
        )
        .map_err(|e| error(Kind::Tables, e.to_string()))?;
        let jobs = threads(jobs)?;
        // All there (or none to build): the source need not be read first.
        let missing = |v: Variant| {
            pieces >= 2
                && egtb::VARIANTS.contains(&v)
                && egtb::plan(&root, v, &Signature::all_up_to(pieces))
                    .is_ok_and(|p| p.new_signatures > 0)
        };
        if !egtb::VARIANTS.into_iter().any(missing) {
            return Ok(Vec::new());
        }
        let variants = match variant {
            Some(name) => vec![parse_variant(name)?],
            None if paths_only(source)? => source_variants(py, source, encoding, jobs)?,
            None => Vec::new(),
        };
        let logger = py
            .import("logging")?
            .call_method1("getLogger", ("drafti",))?
            .unbind();
        let log = |message: String| {
            Python::attach(|py| {
                // A logging handler that fails is no reason to stop the build.
                let _ = logger.bind(py).call_method1("info", (message,));
            })
        };
        let mut failed = Vec::new();
        for variant in variants.into_iter().filter(|&v| missing(v)) {
            let stop = StopFlag::new();
            let raise = || stop.raise();
            let start = std::sync::OnceLock::new();
            let on_event = |event: FirstUseEvent<'_>| {
                if let FirstUseEvent::Building { dir, pieces, plan } = event {
                    start.get_or_init(std::time::Instant::now);
                    log(format!(
                        "endgame tables: building the {variant} tables of up to {pieces} pieces \
                         in {}, once ({:.1} MB; tables=False analyses without them)",
                        dir.display(),
                        plan.new_bytes() as f64 / 1e6
                    ));
                }
            };
            let built = interrupt::run(py, &raise, || -> Result<Option<Tables>, String> {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .thread_name(|i| format!("drafti-egtb-{i}"))
                    .build()
                    .map_err(|e| format!("cannot start the worker threads: {e}"))?
                    .install(|| egtb::build_on_first_use(&root, variant, pieces, &on_event, &stop))
                    .map_err(|e| e.to_string())
            })?;
            match built {
                Ok(Some(tables)) => {
                    let seconds = start.get().map_or(0.0, |s| s.elapsed().as_secs_f64());
                    log(format!(
                        "endgame tables: built {} {variant} tables in {seconds:.1} s",
                        tables.len()
                    ));
                }
                Ok(None) => {}
                Err(e) => {
                    let message = format!(
                        "endgame tables: cannot build the {variant} tables in {}: {e}; its games \
                         are analysed without them",
                        Tables::variant_dir(&root, variant).display()
                    );
                    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
                    let message = std::ffi::CString::new(message).unwrap_or_default();
                    PyErr::warn(py, &category, &message, 2)?;
                    failed.push(variant.name());
                }
            }
        }
        Ok(failed)
    })
}

/// The variants of the games of `source` (files only), each once in the order first met: the
/// tags of every game read, as the job will read them (`encoding`), on `jobs` threads.
fn source_variants(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    jobs: usize,
) -> PyResult<Vec<Variant>> {
    let opened = open_sources(source, encoding_arg(encoding)?)?;
    let options = BatchOptions {
        jobs,
        // The variant is the tags': no move need be replayed.
        replay: ReplayOptions {
            variations: false,
            max_plies: Some(0),
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let raise = || stop.store(true, Ordering::Relaxed);
    interrupt::run(py, &raise, || {
        let mut variants: Vec<Variant> = Vec::new();
        // A read error is the job's to report.
        let _ = run_games(
            opened.inputs,
            &options,
            |_| {},
            |job| job.game.as_ref().ok().map(|g| g.variant),
            |variant: Option<Variant>| {
                if stop.load(Ordering::Relaxed) {
                    return Err(());
                }
                if let Some(v) = variant.filter(|v| !variants.contains(v)) {
                    variants.push(v);
                }
                Ok(())
            },
        );
        variants
    })
}

// ---------------------------------------------------------------------------------------
// Analysis.

/// The analysis settings of `analyze`, as `drafti analyze`'s flags set them.
#[derive(Clone, Debug, Default)]
pub struct AnalyzeSettings {
    /// `fast`, `default`, `thorough` or `deep` ([`Preset`]): the base the other settings change.
    pub preset: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub verify: bool,
    pub verify_depth: Option<u32>,
    pub verify_nodes: Option<u64>,
    pub confirm: bool,
    pub confirm_depth: Option<u32>,
    pub confirm_nodes: Option<u64>,
    pub nominate: Option<f64>,
    pub blunder_depths: Option<u32>,
}

impl AnalyzeSettings {
    /// The options, from `drafti analyze`'s defaults (as its `SearchArgs` makes them).
    fn options(&self) -> PyResult<AnalysisOptions> {
        if self.depth == Some(0) || self.nodes == Some(0) {
            return Err(value_error("depth and nodes are at least 1"));
        }
        let base = match &self.preset {
            None => AnalysisOptions::default(),
            Some(name) => name
                .parse::<Preset>()
                .map_err(|e| value_error(e.to_string()))?
                .options(),
        };
        Ok(AnalysisOverrides {
            depth: self.depth,
            nodes: self.nodes,
            no_verify: !self.verify,
            verify_depth: self.verify_depth,
            verify_nodes: self.verify_nodes,
            no_confirm: !self.confirm,
            confirm_depth: self.confirm_depth,
            confirm_nodes: self.confirm_nodes,
            confirm_band: None,
            nominate: self.nominate,
            blunder_depths: self.blunder_depths.map(|n| n.max(1)),
        }
        .apply(base))
    }
}

/// `drafti analyze --json`'s objects for every game of `source`.
#[pyfunction]
#[pyo3(signature = (source, settings, variant = None, encoding = None, jobs = Int(0), tables = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
    tables: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let get = |name: &str| settings.get_item(name);
        let max_depth = drafti_engine::MAX_DEPTH;
        let depth = |name: &str| -> PyResult<Option<u32>> {
            opt(get(name)?.extract()?, |n: Int| n.u32(name, 1, max_depth))
        };
        let nodes = |name: &str| -> PyResult<Option<u64>> {
            opt(get(name)?.extract()?, |n: Int| n.u64_from(name, 1))
        };
        let settings = AnalyzeSettings {
            preset: get("preset")?.extract()?,
            depth: depth("depth")?,
            nodes: nodes("nodes")?,
            verify: get("verify")?.extract()?,
            verify_depth: depth("verify_depth")?,
            verify_nodes: nodes("verify_nodes")?,
            confirm: get("confirm")?.extract()?,
            confirm_depth: depth("confirm_depth")?,
            confirm_nodes: nodes("confirm_nodes")?,
            nominate: get("nominate")?.extract()?,
            blunder_depths: opt(get("blunder_depths")?.extract()?, |n: Int| {
                n.u32("blunder_depths", 1, max_depth)
            })?,
        };
        let mut options = settings.options()?;
        for t in tables_arg(tables)? {
            options
                .tables
                .insert(t)
                .map_err(|e| error(Kind::Tables, e.to_string()))?;
        }
        let replay = replay_options(variant)?;
        let variant_override = replay.variant_override;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let jobs = threads(jobs)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let search = options.label();
        let cancel = Cancel {
            reading: opened.cancel,
            ..Cancel::default()
        };
        options.stop = cancel.engines.clone();
        let archive = ArchiveOptions {
            replay,
            ..ArchiveOptions::new(options)
        };
        let inputs = opened.inputs;
        let job = spawn(cancel, move |tx, cancel| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(jobs)
                .stack_size(16 << 20)
                .thread_name(|i| format!("drafti-analysis-{i}"))
                .build()
                .map_err(|e| {
                    Some((
                        Kind::Internal,
                        format!("cannot start the worker threads: {e}"),
                    ))
                })?;
            let mut run = Some(json::Run::new(names, None, variant_override));
            analyse_archive(
                inputs,
                &archive,
                &pool,
                &|_| {},
                |g| json::Game::of(&g, &search, None),
                |mut line| {
                    if cancel.raised() {
                        return Err(());
                    }
                    line.run = run.take();
                    tx.send(Msg::Row(line)).map_err(drop)
                },
            )
            .map(drop)
            .map_err(batch_failure)
        })?;
        collect(py, job, &opened.detected, |py, line| pythonize(py, &line))
    })
}

// ---------------------------------------------------------------------------------------
// Openings.

/// One game's line of `drafti openings --per-game --json`.
#[derive(Serialize)]
struct PerGame {
    file: String,
    index: usize,
    first_mover: &'static str,
    result: &'static str,
    plies: usize,
    code: String,
    name: String,
    ply: Option<usize>,
    moves: String,
}

/// What a worker keeps of one game for the statistics (as `drafti openings` does).
struct OpeningGame<'b> {
    file_index: usize,
    index: usize,
    positions: Vec<Position>,
    found: Option<Classification<'b>>,
    first_mover: Color,
    result: Option<GameResult>,
    plies: usize,
}

/// A row of `openings`: the statistics table's, or a game's.
enum OpeningRow {
    Stats(Box<drafti_archive::openings::StatsRow>),
    Game(PerGame),
}

/// The book of `openings`: the built-in one unless `default_book` is false, with the TSV
/// files `books` merged over it (errors as the command line words them).
fn load_book(books: &[String], default_book: bool) -> PyResult<Book> {
    let mut book = if default_book {
        Book::builtin()
    } else {
        Book::new()
    };
    for path in books {
        let text = std::fs::read_to_string(path)
            .map_err(|e| error(Kind::Pdn, format!("cannot read the book {path}: {e}")))?;
        let overlay = Book::parse(&text).map_err(|e| error(Kind::Pdn, format!("{path}: {e}")))?;
        book.merge(overlay)
            .map_err(|e| error(Kind::Pdn, format!("{path}: {e}")))?;
    }
    Ok(book)
}

/// `drafti openings --json`'s rows (or `--per-game --json`'s lines) for `source`.
#[pyfunction]
#[pyo3(signature = (source, plies = Int(4), min_games = Int(1), per_game = false, books = Vec::new(), default_book = true, variant = None, encoding = None, jobs = Int(0)))]
#[allow(clippy::too_many_arguments)]
pub fn openings<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    plies: Int,
    min_games: Int,
    per_game: bool,
    books: Vec<String>,
    default_book: bool,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let plies = plies.usize("plies", 0, CLASSIFY_PLIES).map_err(|_| {
            value_error(format!(
                "plies is 0 to {CLASSIFY_PLIES}, not {} (the games are classified by their \
                 first {CLASSIFY_PLIES} plies)",
                crate::args::shown(plies.0)
            ))
        })?;
        let min_games = min_games.u64_from("min_games", 0)?;
        let jobs = threads(jobs)?;
        let book = load_book(&books, default_book)?;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let options = BatchOptions {
            jobs,
            replay: ReplayOptions {
                variations: false,
                // Classification and the tree look at the first plies only.
                max_plies: Some(CLASSIFY_PLIES),
                ..replay_options(variant)?
            },
            ..BatchOptions::default()
        };
        let mut inputs = opened.inputs;
        // What was read: the `all` row's archive identity, as the command line writes it.
        let fingerprint = Fingerprint::default();
        for input in &mut inputs {
            let reader = std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
            input.reader = fingerprint.wrap(reader);
        }
        let cancel = Cancel {
            reading: opened.cancel,
            ..Cancel::default()
        };
        let job = spawn(cancel, move |tx, cancel| {
            let mut stats = OpeningStats::new(&book, plies);
            let summary = run_games(
                inputs,
                &options,
                |_| {},
                |job| {
                    let game = job.game.ok()?;
                    let window = game.positions.len().min(plies + 1);
                    Some(OpeningGame {
                        file_index: job.file_index,
                        index: job.raw.index,
                        result: game.played_result(),
                        plies: game.record.moves.nodes.len(),
                        first_mover: game.first_mover,
                        positions: game.positions[..window].to_vec(),
                        found: book.classify(&game.positions, game.first_mover),
                    })
                },
                |g: Option<OpeningGame>| {
                    if cancel.raised() {
                        return Err(());
                    }
                    let Some(g) = g else { return Ok(()) };
                    stats.add_classified(&g.positions, g.first_mover, g.result, g.plies, g.found);
                    if !per_game {
                        return Ok(());
                    }
                    let (code, name, ply, moves) = match g.found {
                        Some(c) => (
                            c.entry.code.clone(),
                            c.entry.name.clone(),
                            Some(c.ply),
                            c.entry.moves.clone(),
                        ),
                        None => (
                            String::new(),
                            "(no book position)".to_string(),
                            None,
                            String::new(),
                        ),
                    };
                    tx.send(Msg::Row(OpeningRow::Game(PerGame {
                        file: names[g.file_index].clone(),
                        index: g.index + 1,
                        first_mover: g.first_mover.name(),
                        result: g.result.map_or("", GameResult::as_str),
                        plies: g.plies,
                        code,
                        name,
                        ply,
                        moves,
                    })))
                    .map_err(drop)
                },
            )
            .map_err(batch_failure)?;
            if !per_game {
                let mut rows = stats.rows(min_games);
                rows[0].archive = Some(ArchiveIdentity {
                    inputs: names.clone(),
                    games: summary.games + summary.skipped,
                    bytes: fingerprint.bytes(),
                    crc32: format!("{:08x}", fingerprint.crc32()),
                });
                for row in rows {
                    if tx.send(Msg::Row(OpeningRow::Stats(Box::new(row)))).is_err() {
                        return Err(None);
                    }
                }
            }
            Ok(())
        })?;
        collect(py, job, &opened.detected, |py, row| match row {
            OpeningRow::Stats(r) => pythonize(py, &r),
            OpeningRow::Game(g) => pythonize(py, &g),
        })
    })
}

// ---------------------------------------------------------------------------------------
// Puzzles.

/// `drafti puzzles --json`'s objects for the puzzles mined from `source`.
#[pyfunction]
#[pyo3(signature = (source, nodes = None, difficulty = None, variant = None, encoding = None, jobs = Int(0), tables = None))]
#[allow(clippy::too_many_arguments)]
pub fn puzzles<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    nodes: Option<Int>,
    difficulty: Option<(Int, Int)>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: Int,
    tables: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let nodes = opt(nodes, |n| n.u64_from("nodes", 100))?.unwrap_or(DEFAULT_NODES);
        let jobs = threads(jobs)?;
        let difficulty = match difficulty {
            None => None,
            Some((low, high)) => {
                let low = low.range("difficulty", 1, 5)? as u8;
                let high = high.range("difficulty", 1, 5)? as u8;
                if low > high {
                    return Err(value_error(format!(
                        "difficulty: invalid range {low}-{high}: expected 1 <= low <= high <= 5"
                    )));
                }
                Some((low, high))
            }
        };
        let mut options = PuzzleOptions {
            nodes,
            ..PuzzleOptions::default()
        };
        for t in tables_arg(tables)? {
            options
                .add_tables(t)
                .map_err(|e| error(Kind::Tables, e.to_string()))?;
        }
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let batch = BatchOptions {
            jobs,
            // A game is a few hundred searches: small chunks keep every worker busy.
            chunk_size: 2,
            replay: replay_options(variant)?,
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        let cancel = Cancel {
            reading: opened.cancel,
            ..Cancel::default()
        };
        options.stop = cancel.engines.clone();
        let job = spawn(cancel, move |tx, cancel| {
            let mut collection = Collection::new();
            run_games(
                inputs,
                &batch,
                |_| {},
                |job| mine(&job, &options).found,
                |found: Vec<_>| -> Result<(), ()> {
                    if cancel.raised() {
                        return Err(());
                    }
                    for (puzzle, source) in found {
                        collection.add(puzzle, source);
                    }
                    Ok(())
                },
            )
            .map_err(batch_failure)?;
            let entries = collection.entries().iter().filter(|e| {
                difficulty.is_none_or(|(low, high)| (low..=high).contains(&e.puzzle.difficulty))
            });
            for (i, e) in entries.enumerate() {
                let line = drafti_report::puzzles::json_entry(i + 1, e);
                if tx.send(Msg::Row(line)).is_err() {
                    return Err(None);
                }
            }
            Ok(())
        })?;
        let loads = py.import("json")?.getattr("loads")?;
        collect(py, job, &opened.detected, |_, line| loads.call1((line,)))
    })
}
