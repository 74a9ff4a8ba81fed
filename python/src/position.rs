//! `drafti.Position` (a board with its move stack and the draw laws, like python-chess's
//! `Board`), `drafti.Move` and `drafti.Outcome`, over `drafti_rules`.
//!
//! Squares are numbers 1–32 (PDN's numbering: 1 = b8 … 32 = g1); every argument that takes a
//! square also takes its name (`"c3"`, `"22"`). Moves are parsed from either notation and
//! written in either (`numeric=True`).

use crate::args::Int;
use crate::errors::{error, guard, value_error, Kind};
use crate::interrupt;
use drafti_archive::replay::illegal_reason;
use drafti_hub::protocol::{move_string, parse_position, position_string, HubMove};
use drafti_rules::{
    numbered_line, Color, DrawLaws, DrawReason, Game, Move, MoveText, Outcome, Position, Square,
    Variant,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

/// `tz`, `czech` or `russian` (and the aliases the command line takes).
pub fn parse_variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>()
        .map_err(|e| error(Kind::Variant, e.to_string()))
}

/// A variant argument: `None` is Tanzanian.
pub fn variant_or_default(name: Option<&str>) -> PyResult<Variant> {
    name.map_or(Ok(Variant::Tanzanian), parse_variant)
}

/// `white` or `black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A colour argument called `param`: `white` or `black` (`w`, `b`).
pub fn color_arg(name: &str, param: &str) -> PyResult<Color> {
    match name.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(value_error(format!(
            "{param}: unknown colour '{name}' (expected white or black)"
        ))),
    }
}

/// A square given as a number (1–32) or a name (`c3`, `22`); `SquareError` otherwise.
pub fn square_arg(obj: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return Square::parse(text.trim()).map_err(|e| error(Kind::Square, e.to_string()));
    }
    let Ok(n) = obj.extract::<Int>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a square is a number 1-32 or a name such as 'c3', not {}",
            obj.get_type().name()?
        )));
    };
    u8::try_from(n.0)
        .ok()
        .and_then(Square::from_number)
        .ok_or_else(|| {
            error(
                Kind::Square,
                format!("square {} is not on the board (1-32)", n.0),
            )
        })
}

/// `FenError` with the command line's message.
pub fn parse_fen(fen: &str) -> PyResult<Position> {
    Position::from_fen(fen).map_err(|e| error(Kind::Fen, e.to_string()))
}

/// One move: its start and end squares, every landing square and the pieces it takes.
/// Two moves are equal when they start and end on the same squares and take the same
/// pieces (the rules' "same move").
#[pyclass(module = "drafti", name = "Move", frozen)]
pub struct PyMove {
    pub mv: Move,
}

impl PyMove {
    pub fn new(mv: Move) -> PyMove {
        PyMove { mv }
    }
}

#[pymethods]
impl PyMove {
    /// The start square (1–32).
    // python-chess's name for it.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> u8 {
        self.mv.from().number()
    }

    /// The end square (1–32).
    #[getter]
    fn to_square(&self) -> u8 {
        self.mv.to().number()
    }

    /// Every square the piece stands on: the start, each landing square, the end.
    #[getter]
    fn path(&self) -> Vec<u32> {
        self.mv.path().map(|sq| u32::from(sq.number())).collect()
    }

    /// The squares of the pieces taken, in the order taken.
    #[getter]
    fn captured(&self) -> Vec<u32> {
        self.mv
            .captures()
            .map(|sq| u32::from(sq.number()))
            .collect()
    }

    /// Whether it takes pieces.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// Whether a man is crowned by it.
    #[getter]
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }

    /// The full path: `c3xe5xg7`, `c3-d4` (`22x15x8`, `22-18` when `numeric`). The shortest
    /// text among the legal moves of a position is `Position.notation(move)`.
    #[pyo3(signature = (numeric = false))]
    fn notation(&self, numeric: bool) -> String {
        self.mv.full_notation(numeric)
    }

    /// The move as the Hub protocol writes it: `22-18`, or for a capture the start, the end
    /// and every captured square, `18x11x15` (captured squares in ascending order).
    fn hub(&self) -> String {
        move_string(&self.mv)
    }

    fn __str__(&self) -> String {
        self.mv.full_notation(false)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.mv.full_notation(false))
    }

    /// Pickled as its path, its captures in order and whether it crowns.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Vec<u8>, Vec<u8>, bool))> {
        let mv = slf.get().mv;
        let make = slf.py().import("drafti._drafti")?.getattr("_move")?;
        Ok((
            make,
            (
                mv.path().map(|s| s.number()).collect(),
                mv.captures().map(|s| s.number()).collect(),
                mv.promotes(),
            ),
        ))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMove>() {
            Ok(o) => self.mv.same_move(&o.get().mv),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (
            self.mv.from().index(),
            self.mv.to().index(),
            self.mv.captured().0,
        )
            .hash(&mut h);
        h.finish()
    }
}

/// A `Move` from its parts (what pickling writes).
#[pyfunction]
pub fn _move(path: Vec<u8>, captures: Vec<u8>, promotes: bool) -> PyResult<PyMove> {
    let squares = |numbers: &[u8]| -> PyResult<Vec<Square>> {
        numbers
            .iter()
            .map(|&n| {
                Square::from_number(n).ok_or_else(|| {
                    error(
                        Kind::Square,
                        format!("square {n} is not on the board (1-32)"),
                    )
                })
            })
            .collect()
    };
    drafti_rules::Move::from_parts(&squares(&path)?, &squares(&captures)?, promotes)
        .map(PyMove::new)
        .ok_or_else(|| value_error("these parts make no move"))
}

/// Why a game is over.
#[pyclass(module = "drafti", name = "Outcome", frozen)]
pub struct PyOutcome {
    pub outcome: Outcome,
}

#[pymethods]
impl PyOutcome {
    /// `white` or `black` for a win (the other side has no legal move), `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Win(c) => Some(color_name(c)),
            Outcome::Draw(_) => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    #[getter]
    fn result(&self) -> &'static str {
        match self.outcome {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// For a draw, the Tanzanian draw law: `few_kings` (law 1: only kings, at most two
    /// each), `three_kings_off_main_diagonal` or `king_count_reached` (law 2); under the
    /// `tzdraft` rules TzDraft's server's rule: `tzdraft_thirty_moves`, `tzdraft_three_kings`,
    /// `tzdraft_endgame` or `tzdraft_king_against_king`; else `None`.
    #[getter]
    fn draw_law(&self) -> Option<&'static str> {
        match self.outcome {
            Outcome::Draw(DrawReason::FewKings) => Some("few_kings"),
            Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal) => {
                Some("three_kings_off_main_diagonal")
            }
            Outcome::Draw(DrawReason::KingCountReached(_)) => Some("king_count_reached"),
            Outcome::Draw(DrawReason::TzDraftThirtyMoves) => Some("tzdraft_thirty_moves"),
            Outcome::Draw(DrawReason::TzDraftThreeKings) => Some("tzdraft_three_kings"),
            Outcome::Draw(DrawReason::TzDraftEndgame) => Some("tzdraft_endgame"),
            Outcome::Draw(DrawReason::TzDraftKingAgainstKing) => Some("tzdraft_king_against_king"),
            Outcome::Win(_) => None,
        }
    }

    /// Whether it is a draw.
    #[getter]
    fn is_draw(&self) -> bool {
        matches!(self.outcome, Outcome::Draw(_))
    }

    /// The reason in words, e.g. `white wins: black has no legal move`.
    fn __str__(&self) -> String {
        self.outcome.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {}: {}>", self.result(), self.outcome)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyOutcome>() {
            Ok(o) => self.outcome == o.get().outcome,
            Err(_) => false,
        }
    }
}

/// A position with its rules, draw laws and the moves played to reach it.
#[derive(Clone)]
pub struct Board {
    pub variant: Variant,
    pub laws: DrawLaws,
    /// The current position, the running count of draw law 2 and the outcome.
    pub game: Game,
    /// Each earlier state with the move played from it, oldest first.
    pub stack: Vec<(Game, Move)>,
}

impl Board {
    pub fn new(position: Position, variant: Variant, laws: DrawLaws) -> Board {
        Board {
            variant,
            laws,
            game: Game::with_laws(position, variant, laws),
            stack: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Plays `mv`, which must be legal and the game not over.
    pub fn play(&mut self, mv: Move) {
        let before = self.game.clone();
        self.game.play(&mv);
        self.stack.push((before, mv));
    }

    /// The hash keys of the positions before this one, oldest first (the engine's history).
    pub fn history(&self) -> Vec<u64> {
        self.stack
            .iter()
            .map(|(g, _)| g.position().hash_key())
            .collect()
    }

    /// The move `text` means here, or the error the command line would give.
    pub fn parse(&self, text: &str) -> PyResult<Move> {
        let pos = *self.position();
        let written: MoveText = text
            .trim()
            .parse()
            .map_err(|e: drafti_rules::NotationError| error(Kind::Illegal, e.to_string()))?;
        let found = pos.find_moves(self.variant, &written);
        let numeric = text.trim().starts_with(|c: char| c.is_ascii_digit());
        let turn = pos.turn();
        // Hub's form of a capture, `18x9x14`: start, end, the pieces taken.
        let hub = found
            .is_empty()
            .then(|| self.parse_hub(text.trim()))
            .flatten();
        match (found.as_slice(), hub) {
            ([one], _) => Ok(*one),
            ([], Some(mv)) => Ok(mv),
            ([], None) => {
                let legal = pos.legal_moves(self.variant);
                let reason = illegal_reason(&pos, self.variant, &legal, &written.squares, numeric);
                let mut message = format!("illegal move {} ({turn} to move)", text.trim());
                if !reason.is_empty() {
                    message.push_str(": ");
                    message.push_str(&reason);
                }
                Err(error(Kind::Illegal, message))
            }
            (many, _) => {
                let paths: Vec<String> = many.iter().map(|m| m.full_notation(numeric)).collect();
                Err(error(
                    Kind::Ambiguous,
                    format!(
                        "ambiguous move {} ({turn} to move): {} legal moves match; write every \
                         landing square: {}",
                        text.trim(),
                        many.len(),
                        paths.join(", ")
                    ),
                ))
            }
        }
    }

    /// The legal move `text` means in the Hub protocol's notation, if it is one.
    fn parse_hub(&self, text: &str) -> Option<Move> {
        let hub = HubMove::parse(text).ok()?;
        hub.resolve(self.position(), self.variant).ok()
    }

    /// The moves that can be played: none once the game is over (no move, or a draw law
    /// ended it), so `legal_moves`, `is_legal` and `push` agree.
    pub fn playable_moves(&self) -> Vec<Move> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.position().legal_moves(self.variant)
    }

    /// Checks that `mv` can be played now: legal, and the game not over.
    pub fn check_playable(&self, mv: &Move) -> PyResult<()> {
        if let Some(outcome) = self.game.outcome() {
            return Err(error(
                Kind::Illegal,
                format!(
                    "move {} after the game ended: {outcome}",
                    mv.full_notation(false)
                ),
            ));
        }
        self.check_legal(mv)
    }

    /// Checks that `mv` is one of the legal moves (a draw law may have ended the game).
    pub fn check_legal(&self, mv: &Move) -> PyResult<()> {
        let legal = self.position().legal_moves(self.variant);
        if !legal.iter().any(|m| m.same_move(mv)) {
            return Err(error(
                Kind::Illegal,
                format!(
                    "illegal move {} ({} to move)",
                    mv.full_notation(false),
                    self.position().turn()
                ),
            ));
        }
        Ok(())
    }
}

/// A move argument: a `Move` or its text in either notation.
pub fn move_arg(board: &Board, obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().mv);
    }
    match obj.cast::<PyString>() {
        Ok(text) => board.parse(&text.to_cow()?),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "a move is a drafti.Move or its text, e.g. 'c3-d4' or '22x13'",
        )),
    }
}

/// A draughts position with its rules (`variant`: `tz`, `czech` or `russian`), the draw
/// laws, and the stack of moves played from the position it was made with.
///
/// `Position()` is the Tanzanian start with White to move; `Position(fen, variant)` any
/// position. `push`/`pop` play and take back moves; `outcome()` says when the game is over
/// (no legal move, or a Tanzanian draw law: `king_count_limit` is law 2's count, 12).
#[pyclass(module = "drafti", name = "Position")]
pub struct PyPosition {
    pub board: Board,
}

impl PyPosition {
    pub fn from_board(board: Board) -> PyPosition {
        PyPosition { board }
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = None, variant = None, *, king_count_limit = Int(12)))]
    fn py_new(fen: Option<&str>, variant: Option<&str>, king_count_limit: Int) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let position = match fen {
                Some(fen) => parse_fen(fen)?,
                None => Position::start(Color::White),
            };
            let laws = laws_with_limit(variant, king_count_limit)?;
            Ok(PyPosition::from_board(Board::new(position, variant, laws)))
        })
    }

    /// The position of a FEN (numeric or algebraic squares, `K` for kings).
    #[staticmethod]
    #[pyo3(signature = (fen, variant = None, *, king_count_limit = Int(12)))]
    fn from_fen(fen: &str, variant: Option<&str>, king_count_limit: Int) -> PyResult<Self> {
        PyPosition::py_new(Some(fen), variant, king_count_limit)
    }

    /// The position of a Hub position string (`W` or `B` to move, then one of `w` `b` `W`
    /// `B` `e` for each square 1…32), as a Hub engine or GUI sends it.
    #[staticmethod]
    #[pyo3(signature = (text, variant = None, *, king_count_limit = Int(12)))]
    fn from_hub(text: &str, variant: Option<&str>, king_count_limit: Int) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let position =
                parse_position(text.trim()).map_err(|e| error(Kind::Fen, e.to_string()))?;
            let laws = laws_with_limit(variant, king_count_limit)?;
            Ok(PyPosition::from_board(Board::new(position, variant, laws)))
        })
    }

    /// The position as a Hub position string (`Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` is the
    /// start).
    fn hub(&self) -> String {
        position_string(self.board.position())
    }

    /// The start position of `variant`, with `turn` to move (in Tanzanian draughts either
    /// side may start).
    #[staticmethod]
    #[pyo3(signature = (variant = None, turn = "white"))]
    fn start(variant: Option<&str>, turn: &str) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let turn = color_arg(turn, "turn")?;
            Ok(PyPosition::from_board(Board::new(
                Position::start(turn),
                variant,
                DrawLaws::for_variant(variant),
            )))
        })
    }

    /// The FEN: numeric squares (`W:W21-32:B1-12`), or algebraic ones when `algebraic`.
    #[pyo3(signature = (algebraic = false))]
    fn fen(&self, algebraic: bool) -> String {
        if algebraic {
            self.board.position().to_fen_algebraic()
        } else {
            self.board.position().to_fen()
        }
    }

    /// `tz`, `czech` or `russian`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.board.variant.name()
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.board.position().turn())
    }

    /// The count of Tanzanian draw law 2 (three kings against one): the moves the lone king
    /// has made, while the count runs; else `None`.
    #[getter]
    fn king_count(&self) -> Option<u32> {
        self.board.game.king_count()
    }

    /// The number law 2's count must reach for the draw (12).
    #[getter]
    fn king_count_limit(&self) -> u32 {
        self.board.laws.king_count
    }

    /// The legal moves, in generation order: none once the game is over (a draw law too),
    /// as `push` and `is_legal` see it. A property that is also callable: `pos.legal_moves`
    /// (python-chess's spelling: iterate it, `len`, `in`) and `pos.legal_moves()` (a list).
    #[getter]
    fn legal_moves(&self, py: Python<'_>) -> PyResult<PyLegalMoves> {
        let moves = PyList::new(py, self.board.playable_moves().into_iter().map(PyMove::new))?;
        Ok(PyLegalMoves {
            moves: moves.unbind(),
        })
    }

    /// Whether `move` (a Move or its text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        guard(|| {
            let mv = match r#move.cast::<PyMove>() {
                Ok(m) => m.get().mv,
                Err(_) => match move_arg(&self.board, r#move) {
                    Ok(mv) => mv,
                    Err(_) => return Ok(false),
                },
            };
            Ok(self.board.check_playable(&mv).is_ok())
        })
    }

    /// Whether the side to move must capture.
    fn has_capture(&self) -> bool {
        self.board.position().has_capture(self.board.variant)
    }

    /// The legal move `text` means (`c3-d4`, `22-18`, `c3xg7`, `c3:e5:g7`, …). Raises
    /// `IllegalMoveError` (with the rule it breaks) or `AmbiguousMoveError`.
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        guard(|| self.board.parse(text).map(PyMove::new))
    }

    /// Plays `move` (a Move or its text) and returns it.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        guard(|| {
            let mv = move_arg(&self.board, r#move)?;
            self.board.check_playable(&mv)?;
            self.board.play(mv);
            Ok(PyMove::new(mv))
        })
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<PyMove> {
        match self.board.stack.pop() {
            Some((game, mv)) => {
                self.board.game = game;
                Ok(PyMove::new(mv))
            }
            None => Err(pyo3::exceptions::PyIndexError::new_err(
                "pop from a position with no move played",
            )),
        }
    }

    /// The last move played, if any.
    fn peek(&self) -> Option<PyMove> {
        self.board.stack.last().map(|(_, mv)| PyMove::new(*mv))
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.board
            .stack
            .iter()
            .map(|(_, mv)| PyMove::new(*mv))
            .collect()
    }

    /// The position the move stack starts from.
    fn root(&self) -> PyPosition {
        let game = self
            .board
            .stack
            .first()
            .map_or(&self.board.game, |(g, _)| g);
        PyPosition::from_board(Board {
            variant: self.board.variant,
            laws: self.board.laws,
            game: game.clone(),
            stack: Vec::new(),
        })
    }

    /// Whether the game is over: no legal move, or a draw law applies.
    fn is_game_over(&self) -> bool {
        self.board.game.outcome().is_some()
    }

    /// The outcome once the game is over, else `None`.
    fn outcome(&self) -> Option<PyOutcome> {
        self.board
            .game
            .outcome()
            .map(|outcome| PyOutcome { outcome })
    }

    /// The piece on `square`: `w`/`b` for a White/Black man, `W`/`B` for a king, or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        let sq = square_arg(square)?;
        Ok(self.board.position().piece_at(sq).map(piece_letter))
    }

    /// Every piece: `{square: 'w' | 'W' | 'b' | 'B'}`, squares 1–32 in order.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for sq in Square::ALL {
            if let Some(p) = self.board.position().piece_at(sq) {
                dict.set_item(sq.number(), piece_letter(p))?;
            }
        }
        Ok(dict)
    }

    /// `move` written as short as no other legal move here shares (`c3-d4`, `c3xg7`, or the
    /// full path when two captures share start and end); squares as numbers when `numeric`.
    /// (Also in a position a draw law has ended, where `push` refuses the move.)
    #[pyo3(signature = (r#move, numeric = false))]
    fn notation(&self, r#move: &Bound<'_, PyAny>, numeric: bool) -> PyResult<String> {
        guard(|| {
            let mv = move_arg(&self.board, r#move)?;
            self.board.check_legal(&mv)?;
            Ok(mv.notation(
                &self.board.position().legal_moves(self.board.variant),
                numeric,
            ))
        })
    }

    /// The moves of a line played from here, each written as `notation` writes it; with
    /// `numbered`, one text with move numbers (`1. c3-d4 f6-e5 2. …`).
    #[pyo3(signature = (moves, numeric = false, numbered = false))]
    fn notation_line<'py>(
        &self,
        py: Python<'py>,
        moves: Vec<Bound<'py, PyAny>>,
        numeric: bool,
        numbered: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        guard(|| {
            let mut board = self.board.clone();
            let mut line = Vec::with_capacity(moves.len());
            for m in &moves {
                let mv = move_arg(&board, m)?;
                board.check_legal(&mv)?;
                board.play(mv);
                line.push(mv);
            }
            let words = self
                .board
                .position()
                .line_notation(self.board.variant, &line, numeric);
            if numbered {
                let text = numbered_line(self.board.position().turn(), &words);
                Ok(PyString::new(py, &text).into_any())
            } else {
                Ok(words.into_pyobject(py)?.into_any())
            }
        })
    }

    /// Leaf nodes of the move tree `depth` plies deep (the move generator's check; the
    /// draw laws do not end its lines). Ctrl-C stops it.
    fn perft(&self, py: Python<'_>, depth: Int) -> PyResult<u64> {
        let depth = depth.u32("depth", 0, 20)?;
        let pos = *self.board.position();
        let variant = self.board.variant;
        let stop = AtomicBool::new(false);
        let count = guard(|| {
            interrupt::run(py, &|| stop.store(true, Ordering::Relaxed), || {
                drafti_rules::perft_until(&pos, variant, depth, &stop)
            })
        })?;
        count.ok_or_else(|| error(Kind::Internal, "perft stopped without an interrupt"))
    }

    /// The position's Zobrist hash key (the engine's).
    fn zobrist_hash(&self) -> u64 {
        self.board.position().hash_key()
    }

    /// A copy; with `stack=False`, without the moves played.
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> PyPosition {
        let mut board = self.board.clone();
        if !stack {
            board.stack.clear();
        }
        PyPosition::from_board(board)
    }

    fn __copy__(&self) -> PyPosition {
        self.copy(true)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.copy(true)
    }

    /// Pickled as the position the stack starts from, the rules, law 2's limit and the
    /// moves played (process pools, joblib, dask).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let p = slf.borrow();
        let board = &p.board;
        let root = board.stack.first().map_or(&board.game, |(g, _)| g);
        let moves = PyList::new(py, board.stack.iter().map(|(_, mv)| PyMove::new(*mv)))?;
        let args = (
            root.position().to_fen(),
            board.variant.name(),
            board.laws.king_count,
            moves,
        )
            .into_pyobject(py)?;
        Ok((py.import("drafti._drafti")?.getattr("_position")?, args))
    }

    /// The board as SVG (White at the bottom), with an arrow for `move` (default: the last
    /// move played).
    #[pyo3(signature = (r#move = None))]
    fn svg(&self, r#move: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        guard(|| {
            let mut arrows = Vec::new();
            let shown = match r#move {
                Some(m) => Some(move_arg(&self.board, m)?),
                None => None,
            };
            let (pos, mv) = match (shown, self.board.stack.last()) {
                (Some(mv), _) => (*self.board.position(), Some(mv)),
                (None, Some(_)) => (*self.board.position(), self.board.stack.last().map(|s| s.1)),
                (None, None) => (*self.board.position(), None),
            };
            if let Some(mv) = mv {
                arrows.push(drafti_report::svg::Arrow {
                    path: mv.path().collect(),
                    color: "#3a6ea5",
                });
            }
            Ok(drafti_report::svg::board(&pos, &arrows))
        })
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(None)
    }

    /// The board as text, White at the bottom.
    fn __str__(&self) -> String {
        self.board.position().board_text()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', variant='{}')",
            self.board.position().to_fen(),
            self.board.variant.name()
        )
    }

    /// Equal when the pieces, the side to move and the variant are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPosition>() {
            Ok(o) => match o.try_borrow() {
                Ok(o) => {
                    o.board.position() == self.board.position()
                        && o.board.variant == self.board.variant
                }
                Err(_) => false,
            },
            Err(_) => false,
        }
    }

    /// Positions change as moves are pushed, so they are not hashable (as python-chess's
    /// boards): use `zobrist_hash()` or `fen()` as a key.
    #[classattr]
    fn __hash__(py: Python<'_>) -> Py<PyAny> {
        py.None()
    }
}

/// Draw laws of `variant` with law 2's count at `limit`.
fn laws_with_limit(variant: Variant, limit: Int) -> PyResult<DrawLaws> {
    let mut laws = DrawLaws::for_variant(variant);
    laws.king_count = limit.u32("king_count_limit", 1, 1000)?;
    Ok(laws)
}

/// A `Position` from what pickling writes: the root's FEN, the rules, law 2's limit and the
/// moves played, each checked as `push` checks it.
#[pyfunction]
pub fn _position(
    fen: &str,
    variant: &str,
    king_count_limit: Int,
    moves: Vec<PyRef<'_, PyMove>>,
) -> PyResult<PyPosition> {
    guard(|| {
        let variant = parse_variant(variant)?;
        let laws = laws_with_limit(variant, king_count_limit)?;
        let mut board = Board::new(parse_fen(fen)?, variant, laws);
        for m in moves {
            board.check_playable(&m.mv)?;
            board.play(m.mv);
        }
        Ok(PyPosition::from_board(board))
    })
}

/// The legal moves of a position: a sequence of `Move`s (iterate it, `len`, `in`,
/// indexing) that is also callable, giving them as a list: `pos.legal_moves` and
/// `pos.legal_moves()` both work.
#[pyclass(module = "drafti", name = "LegalMoves", frozen, sequence)]
pub struct PyLegalMoves {
    moves: Py<PyList>,
}

#[pymethods]
impl PyLegalMoves {
    /// The moves as a list.
    fn __call__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.moves
            .bind(py)
            .get_slice(0, usize::MAX)
            .cast_into()
            .map_err(PyErr::from)
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.moves.bind(py).len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.moves.bind(py).try_iter()?.into_any())
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.moves.bind(py).as_any().get_item(index)
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.moves.bind(py).contains(item)
    }

    /// How many (python-chess's `legal_moves.count()`).
    fn count(&self, py: Python<'_>) -> usize {
        self.moves.bind(py).len()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let list = self.moves.bind(py);
        if let Ok(o) = other.cast::<PyLegalMoves>() {
            return list.as_any().eq(o.get().moves.bind(py));
        }
        list.as_any().eq(other)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let moves: Vec<String> = self
            .moves
            .bind(py)
            .iter()
            .map(|m| Ok(m.str()?.to_cow()?.into_owned()))
            .collect::<PyResult<_>>()?;
        Ok(format!("<LegalMoves ({})>", moves.join(", ")))
    }
}

fn piece_letter(p: drafti_rules::Piece) -> &'static str {
    match (p.color, p.king) {
        (Color::White, false) => "w",
        (Color::White, true) => "W",
        (Color::Black, false) => "b",
        (Color::Black, true) => "B",
    }
}

/// The square's name: `c3` (or `22` when `numeric`).
#[pyfunction]
#[pyo3(signature = (square, numeric = false))]
pub fn square_name(square: &Bound<'_, PyAny>, numeric: bool) -> PyResult<String> {
    let sq = square_arg(square)?;
    Ok(if numeric {
        sq.number().to_string()
    } else {
        sq.to_string()
    })
}

/// The number (1–32) of a square given by name (`c3`) or number.
#[pyfunction]
pub fn parse_square(square: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(square_arg(square)?.number())
}
