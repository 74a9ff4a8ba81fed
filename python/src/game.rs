//! `drafti.Game`: one record of an archive, read, replayed through the rules and validated —
//! its tags, moves, result, status and every problem with its place — and `drafti.Problem`.

use crate::errors::{error, guard, value_error, Kind};
use crate::jobs;
use crate::position::{color_name, parse_variant, Board, PyMove, PyPosition};
use drafti_archive::replay::{canonical_record, move_token, Notation, Problem, ReplayedGame};
use drafti_archive::validation::Validated;
use drafti_pdn::{write_game, GameResult, MoveNode, RawGame, ResultToken, Tag};
use drafti_rules::{DrawLaws, Game as RulesGame};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::collections::HashSet;
use std::sync::Arc;

/// One chunk of an archive as read and validated: a game (whole, or up to a syntax error),
/// or text that is no game at all.
pub struct GameData {
    /// The input's name.
    pub file: Arc<str>,
    /// The chunk's bytes and place.
    pub raw: RawGame,
    pub body: Validated,
    /// The rules forced on it when it was read (`variant=`), for reading it again.
    pub variant_override: Option<drafti_rules::Variant>,
}

/// One problem of a record: an error (the record is invalid) or a warning.
#[pyclass(module = "drafti", name = "Problem", frozen)]
pub struct PyProblem {
    p: Problem,
}

#[pymethods]
impl PyProblem {
    /// `error` or `warning`.
    #[getter]
    fn severity(&self) -> &'static str {
        if self.p.is_error() {
            "error"
        } else {
            "warning"
        }
    }

    /// The rule broken or the kind of problem, a stable name: `illegal_move`,
    /// `ambiguous_move`, `move_after_end`, `result_mismatch`, `syntax`, … (the `kind` of
    /// `drafti validate --json`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.p.kind.as_str()
    }

    /// The line of the problem in its input (1-based).
    #[getter]
    fn line(&self) -> u32 {
        self.p.span.line
    }

    /// The column (1-based, in characters).
    #[getter]
    fn column(&self) -> u32 {
        self.p.span.column
    }

    /// The ply of the move concerned (1 is the first move), if a move is.
    #[getter]
    fn ply(&self) -> Option<usize> {
        self.p.ply
    }

    /// The move as written.
    #[getter]
    fn r#move(&self) -> Option<&str> {
        self.p.move_text.as_deref()
    }

    /// One line for people, with the rule broken: `illegal move c3-c5 at ply 3 (White to
    /// move): a man moves only forward in Tanzanian draughts`.
    #[getter]
    fn message(&self) -> &str {
        &self.p.message
    }

    /// The position before the move concerned, as FEN.
    #[getter]
    fn fen(&self) -> Option<&str> {
        self.p.fen.as_deref()
    }

    /// For an illegal move, the legal moves; for an ambiguous one, each candidate's path.
    #[getter]
    fn legal(&self) -> Vec<String> {
        self.p.legal.clone()
    }

    /// Found in a variation, not the mainline.
    #[getter]
    fn in_variation(&self) -> bool {
        self.p.in_variation
    }

    fn __str__(&self) -> String {
        format!(
            "{}:{}: {}",
            self.p.span.line, self.p.span.column, self.p.message
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<Problem {} {} at {}:{}: {}>",
            self.severity(),
            self.kind(),
            self.p.span.line,
            self.p.span.column,
            self.p.message
        )
    }
}

/// One game of an archive, read and replayed through the rules: its tags, its moves, the
/// result it states, whether it is valid, and every problem with its line, column, ply,
/// message and kind. Text between games that is no game at all is a `Game` too, invalid,
/// without tags or moves, with its syntax error.
#[pyclass(module = "drafti", name = "Game", frozen)]
pub struct PyGame {
    pub data: GameData,
}

impl PyGame {
    fn game(&self) -> Option<&ReplayedGame> {
        match &self.data.body {
            Validated::Game(g) => Some(g),
            Validated::Unreadable(_) => None,
        }
    }

    fn problems_iter(&self) -> Box<dyn Iterator<Item = &Problem> + '_> {
        match &self.data.body {
            Validated::Game(g) => Box::new(g.problems.iter()),
            Validated::Unreadable(p) => Box::new(std::iter::once(p)),
        }
    }

    fn board_at(&self, plies: usize) -> Option<Board> {
        let g = self.game()?;
        let laws = DrawLaws::for_variant(g.variant);
        let mut board = Board::new(g.start, g.variant, laws);
        for mv in &g.moves[..plies.min(g.moves.len())] {
            board.play(*mv);
        }
        Some(board)
    }
}

fn problems(it: impl Iterator<Item = Problem>) -> Vec<PyProblem> {
    it.map(|p| PyProblem { p }).collect()
}

#[pymethods]
impl PyGame {
    /// The name of the input it comes from (a path, or a file object's name).
    #[getter]
    fn file(&self) -> &str {
        &self.data.file
    }

    /// Its number in its input, from 1.
    #[getter]
    fn index(&self) -> usize {
        self.data.raw.index + 1
    }

    /// The line it starts on.
    #[getter]
    fn line(&self) -> u32 {
        match self.game() {
            Some(g) => g.record.span.line,
            None => self.data.raw.line,
        }
    }

    /// The tags, in the order written (a repeated name keeps its first value).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        if let Some(g) = self.game() {
            let mut seen = HashSet::new();
            for t in &g.record.tags {
                if seen.insert(t.name.as_str()) {
                    dict.set_item(&t.name, &t.value)?;
                }
            }
        }
        Ok(dict)
    }

    /// The rules it was replayed under (`tz`, `czech`, `russian`); `None` when its tags name
    /// an unknown game or it could not be read.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        let g = self.game()?;
        g.problems
            .iter()
            .all(|p| p.kind != drafti_archive::replay::ProblemKind::UnknownVariant)
            .then(|| g.variant.name())
    }

    /// The result the record states (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `*`, …): the movetext
    /// result, else the Result tag.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game()?.played_result().map(GameResult::as_str)
    }

    /// `valid` or `invalid`.
    #[getter]
    fn status(&self) -> &'static str {
        if self.is_valid() {
            "valid"
        } else {
            "invalid"
        }
    }

    /// No errors (warnings allowed).
    #[getter]
    fn is_valid(&self) -> bool {
        self.game().is_some_and(ReplayedGame::is_valid)
    }

    /// Errors and warnings, in source order.
    #[getter]
    fn problems(&self) -> Vec<PyProblem> {
        problems(self.problems_iter().cloned())
    }

    /// The errors.
    #[getter]
    fn errors(&self) -> Vec<PyProblem> {
        problems(self.problems_iter().filter(|p| p.is_error()).cloned())
    }

    /// The warnings.
    #[getter]
    fn warnings(&self) -> Vec<PyProblem> {
        problems(self.problems_iter().filter(|p| !p.is_error()).cloned())
    }

    /// The mainline's legal moves, up to its first error.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        self.game()
            .map(|g| g.moves.iter().map(|m| PyMove::new(*m)).collect())
            .unwrap_or_default()
    }

    /// The mainline's moves as written (all of them, also after an error).
    #[getter]
    fn move_texts(&self) -> Vec<String> {
        self.game()
            .map(|g| {
                g.record
                    .moves
                    .nodes
                    .iter()
                    .map(|n| n.mv.text.to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Mainline plies replayed (`len(moves)`).
    #[getter]
    fn plies(&self) -> usize {
        self.game().map_or(0, |g| g.moves.len())
    }

    /// Who made the first move: `white` or `black` (in Tanzanian draughts either may start).
    #[getter]
    fn first_mover(&self) -> Option<&'static str> {
        self.game().map(|g| color_name(g.first_mover))
    }

    /// The outcome by the rules of the last position reached, if the game is over there.
    fn outcome(&self) -> Option<crate::position::PyOutcome> {
        self.game()?
            .outcome
            .map(|outcome| crate::position::PyOutcome { outcome })
    }

    /// The start position (FEN tag or the standard start, with the first mover to move).
    fn board(&self) -> Option<PyPosition> {
        self.board_at(0).map(PyPosition::from_board)
    }

    /// The last position reached, with the game's moves on its move stack.
    fn end(&self) -> Option<PyPosition> {
        self.board_at(usize::MAX).map(PyPosition::from_board)
    }

    /// Every position of the mainline: `positions()[i]` is the one before `moves[i]`, and
    /// the last is `end()`. Each has the moves before it on its stack.
    fn positions(&self) -> Vec<PyPosition> {
        let Some(g) = self.game() else {
            return Vec::new();
        };
        let laws = DrawLaws::for_variant(g.variant);
        let mut board = Board::new(g.start, g.variant, laws);
        let mut out = Vec::with_capacity(g.moves.len() + 1);
        out.push(PyPosition::from_board(board.clone()));
        for mv in &g.moves {
            board.play(*mv);
            out.push(PyPosition::from_board(board.clone()));
        }
        out
    }

    /// The record's text as it was in the input.
    #[getter]
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.data.raw.bytes)
            .trim()
            .to_string()
    }

    /// The game as PDN. `notation=None` writes the record as read (moves as written, tags
    /// in the standard order, 80 columns); `"algebraic"`, `"numeric"` or `"source"` rewrites
    /// every move canonically from the replay (captures with `x`, the full path where two
    /// captures share start and end, or always with `full_captures`) — for a game whose
    /// mainline replays to its end.
    #[pyo3(signature = (notation = None, full_captures = false))]
    fn to_pdn(&self, notation: Option<&str>, full_captures: bool) -> PyResult<String> {
        guard(|| {
            let Some(g) = self.game() else {
                return Err(error(
                    Kind::Pdn,
                    format!(
                        "{} game {}: not a game (nothing to write)",
                        self.data.file,
                        self.index()
                    ),
                ));
            };
            let notation = match notation {
                None => return Ok(write_game(&g.record)),
                Some("source") => Notation::Source,
                Some("algebraic") => Notation::Algebraic,
                Some("numeric") => Notation::Numeric,
                Some(other) => {
                    return Err(value_error(format!(
                        "unknown notation '{other}' (expected source, algebraic or numeric)"
                    )))
                }
            };
            match canonical_record(g, notation, full_captures) {
                Ok(record) => Ok(write_game(&record)),
                Err(e) => Err(error(
                    Kind::Illegal,
                    format!(
                        "{} game {}: {e}, so its moves cannot be rewritten (to_pdn() writes \
                         it as read)",
                        self.data.file,
                        self.index()
                    ),
                )),
            }
        })
    }

    /// The game as `drafti validate --json` writes it: `file`, `index`, `line`, `tags`,
    /// `variant`, `plies`, `result`, `status`, `errors` and `warnings` (each a list of
    /// problems with `line`, `column`, `ply`, `move`, `kind`, `message`, `fen`, `legal`,
    /// `in_variation`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guard(|| jobs::game_line(py, &self.data))
    }

    /// The game's tree, as python-chess's `chess.pgn.Game`: the root `GameNode` (before the
    /// first move, with the comments before it), each node's `variations` the moves played
    /// from it (the first is the mainline), with their `comment`, `nags` and `clock()`.
    fn root<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let data = match slf.get().game() {
            Some(g) => crate::tree::tree(py, g)?.into_any(),
            None => py.None().into_bound(py),
        };
        py.import("drafti._tree")?
            .getattr("_root")?
            .call1((slf, data))
    }

    /// The nodes of the mainline, first move first (`root().mainline()`).
    fn mainline<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        PyGame::root(slf)?.call_method0("mainline")
    }

    /// Walks the record through `visitor` (a `drafti.Visitor`: tags, moves with the
    /// position before each, NAGs, comments, variations, the result) and returns its
    /// `result()`, as python-chess's `Game.accept`.
    fn accept<'py>(
        slf: &Bound<'py, Self>,
        visitor: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("drafti._tree")?
            .getattr("accept")?
            .call1((slf, visitor))
    }

    /// One dict per mainline move (up to the first error), as `drafti.game_moves` gives
    /// them: the game's keys, `ply`, `move_number`, `mover`, `player`, `move`, `notation`,
    /// `path`, `captures`, `captured`, `promotion`, `fen_before`, `fen_after`, `nags`,
    /// `comment`, `clock`.
    fn move_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        if let Some(g) = self.game() {
            for row in crate::tree::move_rows(&self.data.file, self.index(), g) {
                list.append(pythonize::pythonize(py, &row)?)?;
            }
        }
        Ok(list)
    }

    /// Pickled as its text, its place in its input and the rules it was read under: read
    /// again, it is the same game (problems at the same lines).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, pyo3::types::PyTuple>)> {
        let py = slf.py();
        let d = &slf.get().data;
        let args = (
            d.file.to_string(),
            d.raw.index,
            d.raw.offset,
            d.raw.line,
            d.raw.column,
            pyo3::types::PyBytes::new(py, &d.raw.bytes),
            d.raw.truncated,
            d.variant_override.map(|v| v.name()),
        )
            .into_pyobject(py)?;
        Ok((py.import("drafti._drafti")?.getattr("_game")?, args))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    /// The game of PDN text (`str` or `bytes`), read and validated; `variant`
    /// overrides the record's tags. Text with more than one game is a `PdnError` (read it
    /// with `read_games(io.StringIO(text))`).
    #[staticmethod]
    #[pyo3(signature = (text, variant = None))]
    fn from_pdn(text: &Bound<'_, PyAny>, variant: Option<&str>) -> PyResult<PyGame> {
        guard(|| {
            let bytes: Vec<u8> = if let Ok(s) = text.cast::<PyString>() {
                s.to_cow()?.as_bytes().to_vec()
            } else {
                text.extract::<Vec<u8>>().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err("from_pdn takes PDN text: str or bytes")
                })?
            };
            let variant = variant.map(parse_variant).transpose()?;
            let data = jobs::only_game(&bytes, variant)?;
            data.map(|data| PyGame { data })
                .ok_or_else(|| error(Kind::Pdn, "no game in the text"))
        })
    }

    /// A record of the moves played on `position` (from its `root()`), with `tags` (a dict)
    /// and `result` (default: the outcome's, else `*`), replayed and validated like a game
    /// read from a file.
    #[staticmethod]
    #[pyo3(signature = (position, tags = None, result = None, numeric = false))]
    fn from_position(
        position: &Bound<'_, PyPosition>,
        tags: Option<&Bound<'_, PyDict>>,
        result: Option<&str>,
        numeric: bool,
    ) -> PyResult<PyGame> {
        guard(|| {
            let pos = position.borrow();
            let board = &pos.board;
            let root = board.stack.first().map_or(&board.game, |(g, _)| g);
            let start = *root.position();
            let mut record = drafti_pdn::GameRecord::default();
            if let Some(tags) = tags {
                for (k, v) in tags.iter() {
                    record
                        .tags
                        .push(Tag::new(&k.str()?.to_cow()?, v.str()?.to_cow()?));
                }
            }
            let has = |record: &drafti_pdn::GameRecord, name: &str| record.tag(name).is_some();
            if !has(&record, "GameType") && !has(&record, "Variant") {
                let (name, value) = board.variant.pdn_tag();
                record.tags.push(Tag::new(name, value));
            }
            let standard = start == drafti_rules::Position::start(start.turn())
                && (start.turn() == drafti_rules::Color::White
                    || board.variant == drafti_rules::Variant::Tanzanian);
            if !standard && !has(&record, "FEN") {
                record.tags.push(Tag::new("SetUp", "1"));
                record.tags.push(Tag::new("FEN", start.to_fen()));
            }
            let result = match result {
                Some(text) => GameResult::parse_str(text)
                    .ok_or_else(|| value_error(format!("'{text}' is not a result")))?,
                None => match board.game.outcome() {
                    Some(drafti_rules::Outcome::Win(drafti_rules::Color::White)) => {
                        GameResult::WhiteWin
                    }
                    Some(drafti_rules::Outcome::Win(drafti_rules::Color::Black)) => {
                        GameResult::BlackWin
                    }
                    Some(drafti_rules::Outcome::Draw(_)) => GameResult::Draw,
                    None => GameResult::Unknown,
                },
            };
            if !has(&record, "Result") {
                record.tags.push(Tag::new("Result", result.as_str()));
            }
            let mut game = RulesGame::with_laws(start, board.variant, board.laws);
            for (_, mv) in &board.stack {
                let legal = game.position().legal_moves(board.variant);
                record
                    .moves
                    .nodes
                    .push(MoveNode::new(move_token(mv, &legal, numeric, false)));
                game.play(mv);
            }
            record.result = Some(ResultToken::new(result));
            // Replayed once to write it canonically (move numbers from the first mover), then
            // read back through the writer and the parser, so the spans are those of the text.
            let read_back = |text: String| {
                jobs::only_game(text.as_bytes(), Some(board.variant))?
                    .ok_or_else(|| error(Kind::Internal, "a written game reads back"))
            };
            let data = read_back(write_game(&record))?;
            let canonical = match &data.body {
                Validated::Game(g) => canonical_record(g, Notation::Source, false).ok(),
                Validated::Unreadable(_) => None,
            }
            .ok_or_else(|| error(Kind::Internal, "the moves of a position replay"))?;
            Ok(PyGame {
                data: read_back(write_game(&canonical))?,
            })
        })
    }

    fn __repr__(&self) -> String {
        let Some(g) = self.game() else {
            return format!(
                "<Game {}#{} (not a game): invalid>",
                self.data.file,
                self.index()
            );
        };
        let tag = |name: &str| {
            g.record
                .tag(name)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .unwrap_or("?")
                .to_string()
        };
        format!(
            "<Game {}#{} {} - {} {} {}, {} plies, {}>",
            self.data.file,
            self.index(),
            tag("White"),
            tag("Black"),
            g.played_result().map_or("*", GameResult::as_str),
            g.variant.name(),
            g.moves.len(),
            self.status()
        )
    }
}

/// A `Game` from what pickling writes: its text, its place in its input and the rules it
/// was read under.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _game(
    file: &str,
    index: usize,
    offset: usize,
    line: u32,
    column: u32,
    bytes: Vec<u8>,
    truncated: bool,
    variant: Option<&str>,
) -> PyResult<PyGame> {
    guard(|| {
        let raw = RawGame {
            index,
            offset,
            line,
            column,
            bytes,
            truncated,
        };
        let variant = variant.map(parse_variant).transpose()?;
        Ok(PyGame {
            data: jobs::game_data(Arc::from(file), raw, variant),
        })
    })
}

/// Where `write_games` writes: a file it opened, or the caller's file object.
enum Sink<'py> {
    File(std::path::PathBuf, std::io::BufWriter<std::fs::File>),
    Object {
        dest: Bound<'py, PyAny>,
        binary: bool,
    },
}

impl<'py> Sink<'py> {
    fn open(py: Python<'py>, dest: &Bound<'py, PyAny>) -> PyResult<Sink<'py>> {
        if let Ok(path) = dest.extract::<std::path::PathBuf>() {
            let file = std::fs::File::create(&path).map_err(|e| write_error(&path, &e))?;
            return Ok(Sink::File(path, std::io::BufWriter::new(file)));
        }
        let binary = dest
            .getattr("mode")
            .ok()
            .and_then(|m| m.extract::<String>().ok())
            .is_some_and(|m| m.contains('b'))
            || dest.is_instance(&py.import("io")?.getattr("BufferedIOBase")?)?
            || dest.is_instance(&py.import("io")?.getattr("RawIOBase")?)?;
        Ok(Sink::Object {
            dest: dest.clone(),
            binary,
        })
    }

    fn write(&mut self, py: Python<'py>, text: &str) -> PyResult<()> {
        use std::io::Write;
        match self {
            Sink::File(path, file) => file
                .write_all(text.as_bytes())
                .map_err(|e| write_error(path, &e)),
            Sink::Object { dest, binary: true } => dest
                .call_method1("write", (pyo3::types::PyBytes::new(py, text.as_bytes()),))
                .map(drop),
            Sink::Object { dest, .. } => dest.call_method1("write", (text,)).map(drop),
        }
    }

    fn finish(self) -> PyResult<()> {
        use std::io::Write;
        match self {
            Sink::File(path, mut file) => file.flush().map_err(|e| write_error(&path, &e)),
            Sink::Object { .. } => Ok(()),
        }
    }
}

fn write_error(path: &std::path::Path, e: &std::io::Error) -> PyErr {
    error(
        Kind::Pdn,
        format!(
            "cannot write {}: {}",
            path.display(),
            drafti_archive::input::describe(e)
        ),
    )
}

/// Writes `games` (Game objects, any iterable) as PDN to `dest` (a path or a file object;
/// text files get `str`, binary ones UTF-8 bytes), one blank line between games, each
/// written as it comes. Returns how many.
#[pyfunction]
#[pyo3(signature = (games, dest, notation = None))]
pub fn write_games(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    dest: &Bound<'_, PyAny>,
    notation: Option<&str>,
) -> PyResult<usize> {
    guard(|| {
        // Each game is written as it comes (a generator of games is never held whole).
        let mut out = Sink::open(py, dest)?;
        let mut count = 0;
        for item in games.try_iter()? {
            let item = item?;
            let game = item.cast::<PyGame>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("write_games takes drafti.Game objects")
            })?;
            let mut text = game.get().to_pdn(notation, false)?;
            if count > 0 {
                text.insert(0, '\n');
            }
            out.write(py, &text)?;
            count += 1;
        }
        out.finish()?;
        Ok(count)
    })
}
