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

use crate::errors::{error, guard, value_error, Kind};
use crate::game::{GameData, PyGame};
use crate::position::parse_variant;
use crate::sources::{encoding_arg, open_sources, warn_detected, Detected, Opened};
use drafti_analysis::batch::{analyse_archive, ArchiveOptions};
use drafti_analysis::json;
use drafti_analysis::preset::Preset;
use drafti_analysis::puzzles::{mine, Collection, PuzzleOptions, DEFAULT_NODES};
use drafti_analysis::{AnalysisOptions, AnalysisOverrides};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, Input};
use drafti_archive::openings::{Book, Classification, OpeningStats, CLASSIFY_PLIES};
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::{validated, GameLine, Validated};
use drafti_engine::egtb::Tables;
use drafti_pdn::{parse_game, GameResult, GameSplitter};
use drafti_rules::{Color, Position, Variant};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde::Serialize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// Runs `producer` on a thread of its own with a channel to send rows on; a panic there
/// becomes a `Fail` with `InternalError`'s message.
fn spawn<T: Send + 'static>(
    producer: impl FnOnce(&SyncSender<Msg<T>>) -> Result<(), Stop> + Send + 'static,
) -> PyResult<Receiver<Msg<T>>> {
    let (tx, rx) = sync_channel(CHANNEL_MESSAGES);
    std::thread::Builder::new()
        .name("drafti-job".to_string())
        .stack_size(16 << 20)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| producer(&tx)));
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
        })
        .map_err(|e| error(Kind::Internal, format!("cannot start a thread: {e}")))?;
    Ok(rx)
}

/// A job's channel, shared with the thread that waits on it with the GIL released (`None`
/// once closed).
type Channel<T> = Mutex<Option<Receiver<Msg<T>>>>;

/// The next row, waiting with the GIL released and answering Ctrl-C; `None` at the end.
fn next<T: Send>(py: Python<'_>, rx: &Channel<T>) -> PyResult<Option<T>> {
    loop {
        let got = py.detach(|| {
            let rx = rx.lock().map_err(|_| ())?;
            match rx.as_ref() {
                Some(rx) => Ok(rx.recv_timeout(Duration::from_millis(100))),
                None => Ok(Err(RecvTimeoutError::Disconnected)),
            }
        });
        match got {
            Err(()) => return Err(error(Kind::Internal, "a job's channel lock is poisoned")),
            Ok(Ok(Msg::Row(t))) => return Ok(Some(t)),
            Ok(Ok(Msg::Fail(kind, message))) => return Err(error(kind, message)),
            Ok(Err(RecvTimeoutError::Timeout)) => py.check_signals()?,
            Ok(Err(RecvTimeoutError::Disconnected)) => return Ok(None),
        }
    }
}

/// Every row of `rx`, each made a Python object by `each`.
fn collect<'py, T: Send>(
    py: Python<'py>,
    rx: Receiver<Msg<T>>,
    detected: &Detected,
    mut each: impl FnMut(Python<'py>, T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let rx: Channel<T> = Mutex::new(Some(rx));
    let list = PyList::empty(py);
    while let Some(t) = next(py, &rx)? {
        list.append(each(py, t)?)?;
    }
    warn_detected(py, detected)?;
    Ok(list)
}

/// Every row of `rx`, each a JSON object as text, as a list of `str`.
fn collect_lines<'py>(
    py: Python<'py>,
    rx: Receiver<Msg<Vec<String>>>,
    detected: &Detected,
) -> PyResult<Bound<'py, PyList>> {
    let rx: Channel<Vec<String>> = Mutex::new(Some(rx));
    let list = PyList::empty(py);
    while let Some(lines) = next(py, &rx)? {
        for line in lines {
            list.append(line)?;
        }
    }
    warn_detected(py, detected)?;
    Ok(list)
}

/// Rows sent a batch at a time: one message (and one wake-up of the waiting thread) per
/// [`BATCH_ROWS`] rows instead of one per row.
struct Batcher<'a, T> {
    tx: &'a SyncSender<Msg<Vec<T>>>,
    rows: Vec<T>,
}

/// Rows per message of a job's channel.
const BATCH_ROWS: usize = 64;

impl<'a, T> Batcher<'a, T> {
    fn new(tx: &'a SyncSender<Msg<Vec<T>>>) -> Self {
        Batcher {
            tx,
            rows: Vec::with_capacity(BATCH_ROWS),
        }
    }

    /// Adds a row; `Err` once the receiver is gone.
    fn push(&mut self, row: T) -> Result<(), ()> {
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
fn threads(jobs: usize) -> PyResult<usize> {
    const MAX_JOBS: usize = 1024;
    if jobs > MAX_JOBS {
        return Err(value_error(format!(
            "at most {MAX_JOBS} worker threads (0: one per core); more only cost memory"
        )));
    }
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

/// The first chunk of `bytes`, validated (`None` when there is none).
pub fn first_game(bytes: &[u8], variant: Option<Variant>) -> PyResult<Option<GameData>> {
    let options = ReplayOptions {
        variant_override: variant,
        ..ReplayOptions::default()
    };
    let reader = drafti_pdn::DecodingReader::new(bytes, None, None);
    let Some(raw) = GameSplitter::new(reader).next() else {
        return Ok(None);
    };
    let raw = raw.map_err(|e| error(Kind::Pdn, format!("<text>: {e}")))?;
    let game = parse_game(&raw).map(|record| drafti_archive::replay::replay(record, &options));
    Ok(Some(GameData {
        file: Arc::from("<text>"),
        body: validated(game, &options),
        raw,
    }))
}

/// The games of `inputs`, read, replayed and validated on `jobs` threads, in input order.
fn read(
    inputs: Vec<Input>,
    replay: ReplayOptions,
    jobs: usize,
) -> PyResult<Receiver<Msg<Vec<GameData>>>> {
    let names: Vec<Arc<str>> = inputs.iter().map(|i| Arc::from(i.name.as_str())).collect();
    let options = BatchOptions {
        jobs,
        // Smaller chunks than the command line's: fewer games in flight, the first sooner.
        chunk_size: 64,
        replay: replay.clone(),
        ..BatchOptions::default()
    };
    spawn(move |tx| {
        let mut batch = Batcher::new(tx);
        run_games(
            inputs,
            &options,
            |_| {},
            |job| GameData {
                file: names[job.file_index].clone(),
                raw: job.raw.clone(),
                body: validated(job.game, &replay),
            },
            |data| batch.push(data),
        )
        .map_err(batch_failure)?;
        batch.flush().map_err(|()| None)
    })
}

/// An iterator over the games of an archive (see `drafti.read_games`), read ahead on
/// worker threads while Python works on the games already read.
#[pyclass(module = "drafti", name = "GameReader")]
pub struct PyGameReader {
    rx: Channel<Vec<GameData>>,
    /// Games received and not yet handed out, in order.
    ready: Mutex<std::collections::VecDeque<GameData>>,
    detected: Detected,
    cancel: Arc<AtomicBool>,
}

impl PyGameReader {
    fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Ok(mut rx) = self.rx.lock() {
            rx.take();
        }
        if let Ok(mut ready) = self.ready.lock() {
            ready.clear();
        }
    }
}

impl Drop for PyGameReader {
    fn drop(&mut self) {
        self.stop();
    }
}

#[pymethods]
impl PyGameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyGame>> {
        guard(|| {
            let poisoned = || error(Kind::Internal, "the reader's lock is poisoned");
            let mut ready = self.ready.lock().map_err(|_| poisoned())?;
            if ready.is_empty() {
                match next(py, &self.rx)? {
                    Some(batch) => ready.extend(batch),
                    None => {
                        drop(ready);
                        self.stop();
                        warn_detected(py, &self.detected)?;
                        return Ok(None);
                    }
                }
                warn_detected(py, &self.detected)?;
            }
            Ok(ready.pop_front().map(|data| PyGame { data }))
        })
    }

    /// Stops reading (the rest of the input is not read).
    fn close(&self) {
        self.stop();
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) {
        self.stop();
    }
}

/// The games of `source` as they are read (see the Python docstring of `read_games`).
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = 0))]
pub fn read_games(
    source: &Bound<'_, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: usize,
) -> PyResult<PyGameReader> {
    guard(|| {
        let replay = replay_options(variant)?;
        let Opened {
            inputs,
            detected,
            cancel,
        } = open_sources(source, encoding_arg(encoding)?)?;
        let rx = read(inputs, replay, threads(jobs)?)?;
        Ok(PyGameReader {
            rx: Mutex::new(Some(rx)),
            ready: Mutex::default(),
            detected,
            cancel,
        })
    })
}

/// `drafti validate --json`'s lines for every game of `source`, as `str` (the `ValidationRows`
/// of the package read each into a dict when it is first used).
#[pyfunction]
#[pyo3(signature = (source, variant = None, encoding = None, jobs = 0))]
pub fn validate<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: usize,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let replay = replay_options(variant)?;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let jobs = threads(jobs)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let options = BatchOptions {
            jobs,
            replay: replay.clone(),
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        // Each game's line is written on the worker that validated it, as the CLI writes it.
        let rx = spawn(move |tx| {
            let mut batch = Batcher::new(tx);
            run_games(
                inputs,
                &options,
                |_| {},
                |job| {
                    let file = &names[job.file_index];
                    let line = match validated(job.game, &replay) {
                        Validated::Game(g) => {
                            serde_json::to_string(&GameLine::of_game(file, job.raw, &g))
                        }
                        Validated::Unreadable(p) => {
                            serde_json::to_string(&GameLine::of_unreadable(file, job.raw, &p))
                        }
                    };
                    line.expect("a game line serializes")
                },
                |line| batch.push(line),
            )
            .map_err(batch_failure)?;
            batch.flush().map_err(|()| None)
        })?;
        collect_lines(py, rx, &opened.detected)
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

// ---------------------------------------------------------------------------------------
// Analysis.

/// The analysis settings of `analyze`, as `drafti analyze`'s flags set them.
#[derive(Clone, Debug, Default)]
pub struct AnalyzeSettings {
    /// `fast`, `default` or `deep` ([`Preset`]): the base the other settings change.
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
#[pyo3(signature = (source, settings, variant = None, encoding = None, jobs = 0, tables = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyAny>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: usize,
    tables: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let get = |name: &str| settings.get_item(name);
        let settings = AnalyzeSettings {
            preset: get("preset")?.extract()?,
            depth: get("depth")?.extract()?,
            nodes: get("nodes")?.extract()?,
            verify: get("verify")?.extract()?,
            verify_depth: get("verify_depth")?.extract()?,
            verify_nodes: get("verify_nodes")?.extract()?,
            confirm: get("confirm")?.extract()?,
            confirm_depth: get("confirm_depth")?.extract()?,
            confirm_nodes: get("confirm_nodes")?.extract()?,
            nominate: get("nominate")?.extract()?,
            blunder_depths: get("blunder_depths")?.extract()?,
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
        let archive = ArchiveOptions {
            replay,
            ..ArchiveOptions::new(options)
        };
        let inputs = opened.inputs;
        let rx = spawn(move |tx| {
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
                    line.run = run.take();
                    tx.send(Msg::Row(line)).map_err(drop)
                },
            )
            .map(drop)
            .map_err(batch_failure)
        })?;
        collect(py, rx, &opened.detected, |py, line| pythonize(py, &line))
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
    Stats(drafti_archive::openings::StatsRow),
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
#[pyo3(signature = (source, plies = 4, min_games = 1, per_game = false, books = Vec::new(), default_book = true, variant = None, encoding = None, jobs = 0))]
#[allow(clippy::too_many_arguments)]
pub fn openings<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    plies: usize,
    min_games: u64,
    per_game: bool,
    books: Vec<String>,
    default_book: bool,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: usize,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        if plies > CLASSIFY_PLIES {
            return Err(value_error(format!(
                "plies is at most {CLASSIFY_PLIES} (the games are classified by their first {CLASSIFY_PLIES} plies)"
            )));
        }
        let book = load_book(&books, default_book)?;
        let opened = open_sources(source, encoding_arg(encoding)?)?;
        let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
        let options = BatchOptions {
            jobs: threads(jobs)?,
            replay: ReplayOptions {
                variations: false,
                // Classification and the tree look at the first plies only.
                max_plies: Some(CLASSIFY_PLIES),
                ..replay_options(variant)?
            },
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        let rx = spawn(move |tx| {
            let mut stats = OpeningStats::new(&book, plies);
            run_games(
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
                for row in stats.rows(min_games) {
                    if tx.send(Msg::Row(OpeningRow::Stats(row))).is_err() {
                        return Err(None);
                    }
                }
            }
            Ok(())
        })?;
        collect(py, rx, &opened.detected, |py, row| match row {
            OpeningRow::Stats(r) => pythonize(py, &r),
            OpeningRow::Game(g) => pythonize(py, &g),
        })
    })
}

// ---------------------------------------------------------------------------------------
// Puzzles.

/// `drafti puzzles --json`'s objects for the puzzles mined from `source`.
#[pyfunction]
#[pyo3(signature = (source, nodes = None, difficulty = None, variant = None, encoding = None, jobs = 0, tables = None))]
#[allow(clippy::too_many_arguments)]
pub fn puzzles<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    nodes: Option<u64>,
    difficulty: Option<(u8, u8)>,
    variant: Option<&str>,
    encoding: Option<&str>,
    jobs: usize,
    tables: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let nodes = nodes.unwrap_or(DEFAULT_NODES);
        if nodes < 100 {
            return Err(value_error("nodes is at least 100"));
        }
        if let Some((low, high)) = difficulty {
            if !(1..=5).contains(&low) || !(low..=5).contains(&high) {
                return Err(value_error(format!(
                    "invalid difficulty {low}-{high}: expected 1 <= low <= high <= 5"
                )));
            }
        }
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
            jobs: threads(jobs)?,
            // A game is a few hundred searches: small chunks keep every worker busy.
            chunk_size: 2,
            replay: replay_options(variant)?,
            ..BatchOptions::default()
        };
        let inputs = opened.inputs;
        let rx = spawn(move |tx| {
            let mut collection = Collection::new();
            run_games(
                inputs,
                &batch,
                |_| {},
                |job| mine(&job, &options).found,
                |found: Vec<_>| -> Result<(), std::convert::Infallible> {
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
        collect(py, rx, &opened.detected, |_, line| loads.call1((line,)))
    })
}
