//! `drafti.Engine` (drafti's search: iterative-deepening alpha-beta with the draw laws and
//! endgame tables), its `SearchResult`, `Score`, and the endgame tables (`drafti.Tables`,
//! `drafti.build_tables`).

use crate::args::{opt, Int};
use crate::errors::{error, guard, value_error, Kind};
use crate::interrupt;
use crate::position::{
    color_arg, parse_variant, variant_or_default, PyMove, PyOutcome, PyPosition,
};
use drafti_engine::egtb::{self, Tables, Value};
use drafti_engine::json::ResultLine;
use drafti_engine::{Engine, Limits, RootLine, Score, SearchResult, StopFlag, DEFAULT_DEPTH};
use drafti_rules::{Move, Position, Variant};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A score from the side to move's view: an estimate in hundredths of a man (`cp`), or a
/// proven result (`win_in` / `loss_in` plies). Scores compare as the engine orders them
/// (quicker wins highest).
#[pyclass(module = "drafti", name = "Score", frozen)]
pub struct PyScore {
    pub score: Score,
}

#[pymethods]
impl PyScore {
    /// A score: `Score(cp=35)` (hundredths of a man), `Score(win_in=7)` or
    /// `Score(loss_in=4)` (plies); exactly one of them.
    #[new]
    #[pyo3(signature = (cp = None, win_in = None, loss_in = None))]
    fn py_new(cp: Option<i32>, win_in: Option<u32>, loss_in: Option<u32>) -> PyResult<Self> {
        let score = match (cp, win_in, loss_in) {
            (Some(cp), None, None) => {
                let made = Score::centi_men(cp);
                if made.as_centi_men() != Some(cp) {
                    return Err(value_error(format!(
                        "cp: {cp} is beyond the engine's estimates"
                    )));
                }
                made
            }
            (None, Some(n), None) => Score::win_in(n),
            (None, None, Some(n)) => Score::loss_in(n),
            _ => return Err(value_error("give exactly one of cp, win_in and loss_in")),
        };
        if win_in.or(loss_in).is_some_and(|n| n > 1000) {
            return Err(value_error("win_in and loss_in are at most 1000 plies"));
        }
        Ok(PyScore { score })
    }

    /// Hundredths of a man, `None` for a proven result.
    #[getter]
    fn cp(&self) -> Option<i32> {
        self.score.as_centi_men()
    }

    /// Plies to a forced win, if proven.
    #[getter]
    fn win_in(&self) -> Option<u32> {
        self.score.win_distance()
    }

    /// Plies to a forced loss, if proven (0: no move now).
    #[getter]
    fn loss_in(&self) -> Option<u32> {
        self.score.loss_distance()
    }

    /// Whether it is a proven result.
    #[getter]
    fn is_proven(&self) -> bool {
        self.score.is_proven()
    }

    /// `+0.35`, `-1.20`, `0.00`, `win in 7`, `loss in 4` (as `drafti search` prints it).
    fn __str__(&self) -> String {
        self.score.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Score {}>", self.score)
    }

    fn __neg__(&self) -> PyScore {
        PyScore { score: -self.score }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: pyo3::basic::CompareOp) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyScore>() {
            Ok(o) => op
                .matches(self.score.cmp(&o.get().score))
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind())
                .unwrap_or_else(|_| py.NotImplemented()),
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> i64 {
        i64::from(self.score.raw())
    }

    /// The score from White's point of view, given the side it is from (`pov`: the side to
    /// move where it was found): itself for White, negated for Black (python-chess's
    /// `PovScore.white()`).
    fn white(&self, pov: &str) -> PyResult<PyScore> {
        self.pov(pov, "white")
    }

    /// The score from `side`'s point of view, given the side it is from (`pov`).
    fn pov(&self, pov: &str, side: &str) -> PyResult<PyScore> {
        let same = color_arg(pov, "pov")? == color_arg(side, "side")?;
        Ok(PyScore {
            score: if same { self.score } else { -self.score },
        })
    }

    /// Pickled as `Score(cp=…)`, `Score(win_in=…)` or `Score(loss_in=…)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Option<i32>, Option<u32>, Option<u32>))> {
        let s = slf.get().score;
        Ok((
            slf.get_type().into_any(),
            (s.as_centi_men(), s.win_distance(), s.loss_distance()),
        ))
    }
}
fn score(score: Score) -> PyScore {
    PyScore { score }
}

/// One root move with its score and line (`multipv` gives several).
#[pyclass(module = "drafti", name = "Line", frozen)]
pub struct PyLine {
    /// The move.
    #[pyo3(get)]
    r#move: Py<PyMove>,
    /// Its score, from the side to move.
    #[pyo3(get)]
    score: Py<PyScore>,
    /// The principal variation, starting with `move`.
    #[pyo3(get)]
    pv: Py<PyList>,
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        format!(
            "<Line {} {}>",
            self.r#move.get().mv.full_notation(false),
            self.score.get().score
        )
    }
}

fn moves<'py>(py: Python<'py>, line: &[Move]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, line.iter().map(|m| PyMove::new(*m)))
}

/// What a search found.
#[pyclass(module = "drafti", name = "SearchResult", frozen)]
pub struct PySearchResult {
    root: Position,
    variant: Variant,
    result: SearchResult,
}

#[pymethods]
impl PySearchResult {
    /// The best move; `None` when the game is over at the root.
    #[getter]
    fn best(&self) -> Option<PyMove> {
        self.result.best.map(PyMove::new)
    }

    /// The best move's score from the side to move.
    #[getter]
    fn score(&self) -> PyScore {
        score(self.result.score)
    }

    /// The principal variation, starting with `best`.
    #[getter]
    fn pv<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves(py, &self.result.pv)
    }

    /// The best lines of the last completed iteration, best first (`multipv` of them).
    #[getter]
    fn lines(&self, py: Python<'_>) -> PyResult<Vec<PyLine>> {
        self.result
            .lines
            .iter()
            .map(|l: &RootLine| {
                Ok(PyLine {
                    r#move: Py::new(py, PyMove::new(l.mv))?,
                    score: Py::new(py, score(l.score))?,
                    pv: moves(py, &l.pv)?.unbind(),
                })
            })
            .collect()
    }

    /// The deepest completed iteration (0 when the game is over at the root).
    #[getter]
    fn depth(&self) -> u32 {
        self.result.depth
    }

    /// The longest line searched (plies, captures included).
    #[getter]
    fn seldepth(&self) -> u32 {
        self.result.seldepth
    }

    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }

    /// Seconds taken.
    #[getter]
    fn time(&self) -> f64 {
        self.result.elapsed.as_secs_f64()
    }

    /// Nodes per second.
    #[getter]
    fn nps(&self) -> u64 {
        self.result.nps()
    }

    /// Set when the game is already over at the root.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.result.outcome.map(|outcome| PyOutcome { outcome })
    }

    /// The result as `drafti search --json` writes its last line (the same serde type,
    /// `drafti_engine::json::ResultLine`): `type`, `best`, `score` (a score's one JSON form:
    /// `cp`, `win_in`, `loss_in`, `text`), `pv`, `depth`, `seldepth`, `nodes`, `nps`,
    /// `time_ms`, `lines`, `outcome` and, where law 3 may be claimed, `claim`; moves written
    /// as short as the position allows (numbers when `numeric`).
    #[pyo3(signature = (numeric = false))]
    fn to_dict<'py>(&self, py: Python<'py>, numeric: bool) -> PyResult<Bound<'py, PyAny>> {
        let pos = &self.root;
        let variant = self.variant;
        let line = ResultLine::of(&self.result, |moves: &[Move]| {
            pos.line_notation(variant, moves, numeric)
        });
        pythonize::pythonize(py, &line).map_err(PyErr::from)
    }

    fn __repr__(&self) -> String {
        match self.result.best {
            Some(best) => format!(
                "<SearchResult best {} score {} depth {} nodes {}>",
                best.notation(&self.root.legal_moves(self.variant), false),
                self.result.score,
                self.result.depth,
                self.result.nodes
            ),
            None => match self.result.outcome {
                Some(o) => format!("<SearchResult game over: {o}>"),
                None => "<SearchResult no move>".to_string(),
            },
        }
    }
}

/// drafti's engine for one variant: `search` a position within a depth, a node count or a
/// time, with `multipv` best lines; `evaluate` it statically. Searches limited by depth or
/// nodes are deterministic (each starts from fresh tables). With endgame `tables` (a folder
/// as `drafti egtb build --dir` makes it, or a `Tables`), positions they hold are scored
/// exactly.
#[pyclass(module = "drafti", name = "Engine")]
pub struct PyEngine {
    engine: Mutex<Engine>,
    /// The engine's stop flag, raised without its lock (Ctrl-C during a search).
    stop: StopFlag,
    variant: Variant,
}

/// The tables of `variant` from an argument: a `Tables`, or a folder holding `tz/`, … .
fn tables_of(tables: &Bound<'_, PyAny>, variant: Variant) -> PyResult<Arc<Tables>> {
    if let Ok(t) = tables.cast::<PyTables>() {
        return Ok(t.get().tables.clone());
    }
    let root: PathBuf = tables.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "tables: a folder of endgame tables or a drafti.Tables",
        )
    })?;
    Tables::open(&root, variant)
        .map(Arc::new)
        .map_err(|e| error(Kind::Tables, e.to_string()))
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (variant = None, tables = None, hash_mb = Int(64)))]
    fn py_new(
        variant: Option<&str>,
        tables: Option<&Bound<'_, PyAny>>,
        hash_mb: Int,
    ) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let hash_mb = hash_mb.usize("hash_mb", 1, 4096)?;
            let mut engine = Engine::new(variant, hash_mb);
            if let Some(t) = tables {
                engine
                    .set_tables(Some(tables_of(t, variant)?))
                    .map_err(|e| error(Kind::Tables, e.to_string()))?;
            }
            Ok(PyEngine {
                stop: engine.stop_flag(),
                engine: Mutex::new(engine),
                variant,
            })
        })
    }

    /// `tz`, `czech` or `russian`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// Searches `position` (its move stack is the game's history: a repetition scores as a
    /// draw, and law 2's running count is known). Limits: `depth` plies, about `nodes` nodes
    /// (the deepest completed iteration), or `movetime` seconds (not deterministic); with
    /// none, depth 12 (as `drafti search`). `multipv` best lines; `king_count` overrides the
    /// count of draw law 2 at the root. The GIL is released while it searches.
    #[pyo3(signature = (position, depth = None, nodes = None, movetime = None, multipv = Int(1), king_count = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime: Option<f64>,
        multipv: Int,
        king_count: Option<Int>,
    ) -> PyResult<PySearchResult> {
        guard(|| {
            let (root, variant, history, count, tzdraft_counts) = {
                let p = position.borrow();
                (
                    *p.board.position(),
                    p.board.variant,
                    p.board.history(),
                    p.board.game.king_count(),
                    p.board.game.tzdraft_counts(),
                )
            };
            self.check_variant(variant)?;
            let depth = opt(depth, |d| d.u32("depth", 1, drafti_engine::MAX_DEPTH))?;
            let nodes = opt(nodes, |n| n.u64_from("nodes", 1))?;
            let multipv = multipv.usize("multipv", 1, 256)?;
            let king_count = opt(king_count, |n| n.u32("king_count", 0, 1000))?;
            let movetime = match movetime {
                Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
                Some(_) => return Err(value_error("movetime is a positive number of seconds")),
                None => None,
            };
            let limits = Limits {
                depth: match (depth, nodes, movetime) {
                    (Some(d), _, _) => Some(d),
                    (None, None, None) => Some(DEFAULT_DEPTH),
                    _ => None,
                },
                nodes,
                movetime,
                multipv,
                king_count: king_count.or(count),
                tzdraft_counts,
                ..Limits::default()
            };
            // Ctrl-C raises the stop flag: the search returns its last completed iteration,
            // which is dropped for the KeyboardInterrupt.
            let stop = || self.stop.raise();
            let result = interrupt::run(py, &stop, || -> PyResult<SearchResult> {
                let mut engine = self
                    .engine
                    .lock()
                    .map_err(|_| error(Kind::Internal, "the engine's lock is poisoned"))?;
                // Lowered under the lock: a stop for an earlier search is not this one's.
                self.stop.lower();
                Ok(engine.search(&root, &limits, &history, |_| {}))
            })??;
            Ok(PySearchResult {
                root,
                variant,
                result,
            })
        })
    }

    /// The static evaluation from the side to move (0 where a draw law applies). Waits for
    /// a search of this engine running in another thread, with the GIL released.
    fn evaluate(&self, py: Python<'_>, position: &Bound<'_, PyPosition>) -> PyResult<PyScore> {
        guard(|| {
            let (pos, variant) = {
                let p = position.borrow();
                (*p.board.position(), p.board.variant)
            };
            self.check_variant(variant)?;
            let value = py.detach(|| {
                self.engine
                    .lock()
                    .map(|engine| engine.evaluate(&pos))
                    .map_err(|_| error(Kind::Internal, "the engine's lock is poisoned"))
            })?;
            Ok(score(value))
        })
    }

    /// Forgets what earlier searches found (they never change a result anyway). Waits for a
    /// search of this engine running in another thread, with the GIL released.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            self.engine
                .lock()
                .map(|mut engine| engine.clear())
                .map_err(|_| error(Kind::Internal, "the engine's lock is poisoned"))
        })
    }

    /// Stops a search of this engine running in another thread: it returns its last
    /// completed iteration (python-chess's `engine.play(..., limit)` has no such call; a GUI's
    /// stop button does).
    fn stop(&self) {
        self.stop.raise();
    }

    fn __repr__(&self) -> String {
        format!("<Engine {}>", self.variant.name())
    }
}

impl PyEngine {
    /// `VariantError` unless a position of `variant` is for this engine.
    fn check_variant(&self, variant: Variant) -> PyResult<()> {
        if variant == self.variant {
            return Ok(());
        }
        Err(error(
            Kind::Variant,
            format!(
                "a {} position for a {} engine",
                variant.name(),
                self.variant.name()
            ),
        ))
    }
}

/// An exact value from the endgame tables, for the side to move.
#[pyclass(module = "drafti", name = "TableValue", frozen)]
pub struct PyTableValue {
    value: Value,
}

#[pymethods]
impl PyTableValue {
    /// `win`, `draw` or `loss`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.value {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// Plies to the end of the game for a win or a loss; `None` for a draw.
    #[getter]
    fn distance(&self) -> Option<u32> {
        self.value.distance()
    }

    /// The engine's score of it.
    #[getter]
    fn score(&self) -> PyScore {
        score(self.value.score())
    }

    /// `win in 7`, `loss in 4`, `draw`.
    fn __str__(&self) -> String {
        self.value.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<TableValue {}>", self.value)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyTableValue>() {
            Ok(o) => self.value == o.get().value,
            Err(_) => false,
        }
    }
}

/// The endgame tables of one variant (`drafti egtb build` or `build_tables` makes them),
/// opened from `path/VARIANT/` with every file checked: `probe` a position's exact value,
/// `rank_moves` its moves, `line` the best play to the end.
#[pyclass(module = "drafti", name = "Tables", frozen)]
pub struct PyTables {
    pub tables: Arc<Tables>,
}

fn check_variant(
    tables: &Tables,
    position: &Bound<'_, PyPosition>,
) -> PyResult<(Position, Option<u32>)> {
    let p = position.borrow();
    if p.board.variant != tables.variant() {
        return Err(error(
            Kind::Variant,
            format!(
                "a {} position for {} tables",
                p.board.variant.name(),
                tables.variant().name()
            ),
        ));
    }
    Ok((*p.board.position(), p.board.game.king_count()))
}

#[pymethods]
impl PyTables {
    #[new]
    #[pyo3(signature = (path, variant = None))]
    fn py_new(path: PathBuf, variant: Option<&str>) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let tables =
                Tables::open(&path, variant).map_err(|e| error(Kind::Tables, e.to_string()))?;
            Ok(PyTables {
                tables: Arc::new(tables),
            })
        })
    }

    /// `tz`, `czech` or `russian`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.tables.variant().name()
    }

    /// The most pieces of a position they hold.
    #[getter]
    fn max_pieces(&self) -> u32 {
        self.tables.max_pieces()
    }

    /// The folder of the tables.
    #[getter]
    fn path(&self) -> String {
        self.tables.dir().display().to_string()
    }

    /// The number of tables (material signatures).
    fn __len__(&self) -> usize {
        self.tables.len()
    }

    /// The exact value of `position` for the side to move, or `None` when no table holds
    /// it. `king_count`: law 2's running count (default: the position's).
    #[pyo3(signature = (position, king_count = None))]
    fn probe(
        &self,
        position: &Bound<'_, PyPosition>,
        king_count: Option<Int>,
    ) -> PyResult<Option<PyTableValue>> {
        guard(|| {
            let king_count = opt(king_count, |n| n.u32("king_count", 0, 1000))?;
            let (pos, count) = check_variant(&self.tables, position)?;
            Ok(self
                .tables
                .probe(&pos, king_count.or(count))
                .map(|value| PyTableValue { value }))
        })
    }

    /// Every legal move with the value it leads to for the side to move, best first.
    #[pyo3(signature = (position, king_count = None))]
    fn rank_moves(
        &self,
        position: &Bound<'_, PyPosition>,
        king_count: Option<Int>,
    ) -> PyResult<Vec<(PyMove, PyTableValue)>> {
        guard(|| {
            let king_count = opt(king_count, |n| n.u32("king_count", 0, 1000))?;
            let (pos, count) = check_variant(&self.tables, position)?;
            let ranked = self
                .tables
                .rank_moves(&pos, king_count.or(count))
                .map_err(|e| error(Kind::Tables, e.to_string()))?;
            Ok(ranked
                .into_iter()
                .map(|(mv, value)| (PyMove::new(mv), PyTableValue { value }))
                .collect())
        })
    }

    /// The best play from `position` to the end of the game (at most `max_plies` moves).
    #[pyo3(signature = (position, max_plies = Int(200), king_count = None))]
    fn line(
        &self,
        position: &Bound<'_, PyPosition>,
        max_plies: Int,
        king_count: Option<Int>,
    ) -> PyResult<Vec<PyMove>> {
        guard(|| {
            let max_plies = max_plies.usize("max_plies", 0, 100_000)?;
            let king_count = opt(king_count, |n| n.u32("king_count", 0, 1000))?;
            let (pos, count) = check_variant(&self.tables, position)?;
            let line = self
                .tables
                .line(&pos, king_count.or(count), max_plies)
                .map_err(|e| error(Kind::Tables, e.to_string()))?;
            Ok(line.into_iter().map(PyMove::new).collect())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tables {} up to {} pieces, {} tables in {}>",
            self.tables.variant().name(),
            self.tables.max_pieces(),
            self.tables.len(),
            self.tables.dir().display()
        )
    }
}

/// The default folder of the endgame tables (`drafti_engine::egtb::default_dir`, the command
/// line's), for this process's `XDG_CACHE_HOME` and `HOME` (as `os.environ` has them).
#[pyfunction]
pub fn default_tables_dir() -> Option<PathBuf> {
    egtb::default_dir(
        std::env::var_os("XDG_CACHE_HOME").as_deref(),
        std::env::var_os("HOME").as_deref(),
    )
}

/// Builds the endgame tables of `variant` with at most `pieces` pieces under `path` (in
/// `path/VARIANT/`, as `drafti egtb build --dir` does; tables already there are checked and
/// kept) on `jobs` threads, and opens them. Up to 4 pieces takes seconds, 5 minutes, 6 an
/// hour or more. Ctrl-C stops it within milliseconds; the tables finished by then stay and
/// the next build keeps them.
#[pyfunction]
#[pyo3(signature = (path, variant = None, pieces = Int(4), jobs = Int(0)))]
pub fn build_tables(
    py: Python<'_>,
    path: PathBuf,
    variant: Option<&str>,
    pieces: Int,
    jobs: Int,
) -> PyResult<PyTables> {
    guard(|| {
        let variant = match variant {
            Some(v) => parse_variant(v)?,
            None => Variant::Tanzanian,
        };
        let pieces = pieces.u32("pieces", 1, egtb::MAX_PIECES)?;
        let threads = crate::jobs::threads(jobs)?;
        let stop = StopFlag::new();
        let raise = || stop.raise();
        let built = interrupt::run(py, &raise, || -> Result<Tables, String> {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("cannot start the worker threads: {e}"))?;
            pool.install(|| egtb::build_until(&path, variant, pieces, &|_| {}, &stop))
                .map_err(|e| e.to_string())
        })?;
        match built {
            Ok(tables) => Ok(PyTables {
                tables: Arc::new(tables),
            }),
            Err(message) => Err(error(Kind::Tables, message)),
        }
    })
}
