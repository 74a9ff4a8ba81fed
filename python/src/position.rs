//! `drafti.Position` (a board with its move stack and the draw laws, like python-chess's
//! `Board`), `drafti.Move` and `drafti.Outcome`, over `drafti_rules`.
//!
//! Squares are numbers 1–32 (PDN's numbering: 1 = b8 … 32 = g1); every argument that takes a
//! square also takes its name (`"c3"`, `"22"`). Moves are parsed from either notation and
//! written in either (`numeric=True`).

use crate::errors::{error, guard, value_error, Kind};
use drafti_archive::replay::illegal_reason;
use drafti_rules::{
    numbered_line, Color, DrawLaws, DrawReason, Game, Move, MoveText, Outcome, Position, Square,
    Variant,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

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

fn parse_color(name: &str) -> PyResult<Color> {
    match name.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(value_error(format!(
            "unknown colour '{name}' (expected white or black)"
        ))),
    }
}

/// A square given as a number (1–32) or a name (`c3`, `22`).
pub fn square_arg(obj: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return Square::parse(text.trim()).map_err(|e| value_error(e.to_string()));
    }
    let n: i64 = obj
        .extract()
        .map_err(|_| value_error("a square is a number 1-32 or a name such as 'c3'"))?;
    u8::try_from(n)
        .ok()
        .and_then(Square::from_number)
        .ok_or_else(|| value_error(format!("square {n} is not on the board (1-32)")))
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

    fn __str__(&self) -> String {
        self.mv.full_notation(false)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.mv.full_notation(false))
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
            Outcome::Draw(DrawReason::TzDraftKingAgainstKing) => {
                Some("tzdraft_king_against_king")
            }
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
        match found.as_slice() {
            [one] => Ok(*one),
            [] => {
                let legal = pos.legal_moves(self.variant);
                let reason = illegal_reason(&pos, self.variant, &legal, &written.squares, numeric);
                let mut message = format!("illegal move {} ({turn} to move)", text.trim());
                if !reason.is_empty() {
                    message.push_str(": ");
                    message.push_str(&reason);
                }
                Err(error(Kind::Illegal, message))
            }
            many => {
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
    #[pyo3(signature = (fen = None, variant = None, *, king_count_limit = 12))]
    fn py_new(fen: Option<&str>, variant: Option<&str>, king_count_limit: u32) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let position = match fen {
                Some(fen) => parse_fen(fen)?,
                None => Position::start(Color::White),
            };
            let mut laws = DrawLaws::for_variant(variant);
            if king_count_limit == 0 {
                return Err(value_error("king_count_limit must be at least 1"));
            }
            laws.king_count = king_count_limit;
            Ok(PyPosition::from_board(Board::new(position, variant, laws)))
        })
    }

    /// The position of a FEN (numeric or algebraic squares, `K` for kings).
    #[staticmethod]
    #[pyo3(signature = (fen, variant = None, *, king_count_limit = 12))]
    fn from_fen(fen: &str, variant: Option<&str>, king_count_limit: u32) -> PyResult<Self> {
        PyPosition::py_new(Some(fen), variant, king_count_limit)
    }

    /// The start position of `variant`, with `turn` to move (in Tanzanian draughts either
    /// side may start).
    #[staticmethod]
    #[pyo3(signature = (variant = None, turn = "white"))]
    fn start(variant: Option<&str>, turn: &str) -> PyResult<Self> {
        guard(|| {
            let variant = variant_or_default(variant)?;
            let turn = parse_color(turn)?;
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

    /// The legal moves, in generation order.
    fn legal_moves(&self) -> Vec<PyMove> {
        self.board
            .position()
            .legal_moves(self.board.variant)
            .into_iter()
            .map(PyMove::new)
            .collect()
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

    /// Leaf nodes of the move tree `depth` plies deep (the move generator's check).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > 20 {
            return Err(value_error("perft depth is at most 20"));
        }
        let pos = *self.board.position();
        let variant = self.board.variant;
        guard(|| Ok(py.detach(|| drafti_rules::perft(&pos, variant, depth))))
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
