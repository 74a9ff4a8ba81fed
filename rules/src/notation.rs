//! Move notation both ways: writing a move (shortest unambiguous form or full path, algebraic
//! or numeric) and finding the legal moves a written move can mean.
//!
//! Quiet moves are written `c3-d4` (`22-18`); captures `c3xg7` when no other legal move goes
//! from c3 to g7, else with every landing square, `c3xe5xg7` (PDN 3.0). Reading accepts `-`,
//! `x` or `:` between squares, or no separator between algebraic squares (`c3d4`). A written
//! intermediate square must lie, in order, on the squares the piece passes over or lands on.

use crate::{Color, Move, ParseSquareError, Position, Square, Variant};
use std::fmt;

/// How the squares of a written move were separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// `-`: a quiet move (real files sometimes write captures this way).
    Quiet,
    /// `x` or `:`: a capture.
    Capture,
    /// Nothing between the squares (`c3d4`).
    None,
}

/// A move as written: its squares (start, intermediates, end) and separator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The squares in the order written: start, intermediate landings, end.
    pub squares: Vec<Square>,
    /// What stands between the squares: `-`, `x` or nothing.
    pub separator: Separator,
}

/// Why a text is not a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Not of the form square, separator, square….
    Syntax(String),
    /// A square name that is not a square.
    Square(ParseSquareError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(s) => {
                write!(f, "'{s}' is not a move (expected e.g. c3-d4 or 22x13)")
            }
            NotationError::Square(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// A word of a line of moves ([`Position::parse_line`]) that is not one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The word's ply in the line, from 1.
    pub ply: usize,
    /// The word as written (without a move number).
    pub word: String,
    /// Why it is not one legal move.
    pub problem: LineProblem,
}

/// Why a word of a line is not one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// It is not written as a move.
    Notation(NotationError),
    /// No legal move of its position is written so; the legal ones, as they are written.
    Illegal(Vec<String>),
    /// This many legal moves are written so.
    Ambiguous(usize),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = &self.word;
        match &self.problem {
            LineProblem::Notation(e) => write!(f, "'{word}' is not a move: {e}"),
            LineProblem::Illegal(legal) => write!(
                f,
                "{word} is not legal after {} plies (legal: {})",
                self.ply - 1,
                legal.join(" ")
            ),
            LineProblem::Ambiguous(n) => {
                write!(f, "{word} can mean {n} moves; give every landing square")
            }
        }
    }
}

impl std::error::Error for LineError {}

impl std::str::FromStr for MoveText {
    type Err = NotationError;

    /// ```
    /// use drafti_rules::{MoveText, Separator};
    /// let text: MoveText = "c3xe5xg7".parse().unwrap();
    /// assert_eq!(text.squares.len(), 3);
    /// assert_eq!(text.separator, Separator::Capture);
    /// assert_eq!("c3d4".parse::<MoveText>().unwrap().separator, Separator::None);
    /// ```
    fn from_str(text: &str) -> Result<MoveText, NotationError> {
        let bad = || NotationError::Syntax(text.to_string());
        let bytes = text.trim().as_bytes();
        let mut squares = Vec::new();
        let mut separator = Separator::None;
        let mut i = 0;
        while i < bytes.len() {
            if !squares.is_empty() {
                match bytes[i] {
                    b'-' => {
                        if separator == Separator::None {
                            separator = Separator::Quiet;
                        }
                        i += 1;
                    }
                    b'x' | b'X' | b':' => {
                        separator = Separator::Capture;
                        i += 1;
                    }
                    _ if separator != Separator::None => return Err(bad()),
                    _ => {}
                }
            }
            let start = i;
            if i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 2 {
                    i += 1;
                }
            } else {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if start == i {
                return Err(bad());
            }
            let name = &bytes[start..i];
            if name[0].is_ascii_digit() && separator == Separator::None && !squares.is_empty() {
                return Err(bad());
            }
            squares.push(Square::from_ascii(name).map_err(NotationError::Square)?);
        }
        if squares.len() < 2 {
            return Err(bad());
        }
        Ok(MoveText { squares, separator })
    }
}

/// The squares strictly after `a` up to and including `b`, along their common diagonal.
fn segment(a: Square, b: Square, out: &mut Vec<Square>) {
    let df = (b.file() as i8 - a.file() as i8).signum();
    let dr = (b.rank() as i8 - a.rank() as i8).signum();
    let (mut f, mut r) = (a.file() as i8, a.rank() as i8);
    while (f, r) != (b.file() as i8, b.rank() as i8) {
        f += df;
        r += dr;
        match Square::from_coords(f as u8, r as u8) {
            Some(sq) if (0..8).contains(&f) && (0..8).contains(&r) => out.push(sq),
            _ => return,
        }
    }
}

impl Move {
    /// Every square the piece passes over or lands on after its start, captured squares
    /// excluded, in order.
    pub fn traversed(&self) -> Vec<Square> {
        let mut out = Vec::new();
        let mut prev = self.from;
        for sq in self.path().skip(1) {
            segment(prev, sq, &mut out);
            prev = sq;
        }
        out.retain(|sq| !self.captured().contains(*sq));
        out
    }

    /// Whether the written move can mean this move.
    pub fn matches(&self, text: &MoveText) -> bool {
        let squares = &text.squares;
        if squares.len() < 2 || squares[0] != self.from || squares[squares.len() - 1] != self.to {
            return false;
        }
        let middle = &squares[1..squares.len() - 1];
        if middle.is_empty() {
            return true;
        }
        let traversed = self.traversed();
        let mut it = traversed.iter();
        middle.iter().all(|sq| it.any(|t| t == sq))
    }

    /// The full path: every landing square, e.g. `c3xe5xg7` (`22x15x8` numeric).
    pub fn full_notation(&self, numeric: bool) -> String {
        let separator = if self.is_capture() { "x" } else { "-" };
        let names: Vec<String> = self.path().map(|sq| square_name(sq, numeric)).collect();
        names.join(separator)
    }

    /// The shortest form that no other move in `legal` shares: `c3-d4`, `c3xg7`, or the full
    /// path when another capture also goes from the same start to the same end.
    ///
    /// ```
    /// use drafti_rules::{Position, Variant};
    /// let pos = Position::from_fen("W:Wc3:Bd4,f6").unwrap();
    /// let legal = pos.legal_moves(Variant::Tanzanian);
    /// assert_eq!(legal[0].notation(&legal, false), "c3xg7");
    /// assert_eq!(legal[0].full_notation(true), "22x15x8");
    /// ```
    pub fn notation(&self, legal: &[Move], numeric: bool) -> String {
        let shared = legal
            .iter()
            .filter(|m| m.from == self.from && m.to == self.to && !m.same_move(self))
            .count();
        if shared == 0 || !self.is_capture() {
            let separator = if self.is_capture() { "x" } else { "-" };
            format!(
                "{}{separator}{}",
                square_name(self.from, numeric),
                square_name(self.to, numeric)
            )
        } else {
            self.full_notation(numeric)
        }
    }
}

fn square_name(sq: Square, numeric: bool) -> String {
    if numeric {
        sq.number().to_string()
    } else {
        sq.to_string()
    }
}

impl Position {
    /// The legal moves a written move can mean: zero (illegal), one, or several (ambiguous).
    /// When the text gives every landing square of some moves exactly, only those are kept;
    /// that includes a two-square text such as `e3xg1` that is the whole path of a single
    /// jump while a longer capture also goes from e3 to g1 (the text `notation` writes for it).
    /// The separator is not checked (a capture written with `-` still matches).
    pub fn find_moves(&self, variant: Variant, text: &MoveText) -> Vec<Move> {
        let matching: Vec<Move> = self
            .legal_moves(variant)
            .into_iter()
            .filter(|m| m.matches(text))
            .collect();
        if matching.len() > 1 {
            let exact: Vec<Move> = matching
                .iter()
                .filter(|m| m.path().eq(text.squares.iter().copied()))
                .copied()
                .collect();
            if !exact.is_empty() {
                return exact;
            }
        }
        matching
    }

    /// Parses `text` and returns the legal moves it can mean.
    ///
    /// ```
    /// use drafti_rules::{Color, Position, Variant};
    /// let start = Position::start(Color::White);
    /// assert_eq!(start.parse_move(Variant::Tanzanian, "c3-d4").unwrap().len(), 1);
    /// assert_eq!(start.parse_move(Variant::Tanzanian, "22-17").unwrap().len(), 1);
    /// assert!(start.parse_move(Variant::Tanzanian, "c3-c5").unwrap().is_empty());
    /// ```
    pub fn parse_move(&self, variant: Variant, text: &str) -> Result<Vec<Move>, NotationError> {
        let text: MoveText = text.parse()?;
        Ok(self.find_moves(variant, &text))
    }

    /// The moves of a line written as text (`c3-d4 d6-c5 b2-c3`, move numbers allowed), played
    /// from this position: each word one legal move of its position, else an error naming
    /// the word and why.
    ///
    /// ```
    /// use drafti_rules::{Color, Position, Variant};
    /// let start = Position::start(Color::White);
    /// assert_eq!(start.parse_line(Variant::Russian, "1. c3-d4 d6-c5 2. b2-c3").unwrap().len(), 3);
    /// let e = start.parse_line(Variant::Russian, "c3-d4 c3-d4").unwrap_err();
    /// assert!(e.to_string().starts_with("c3-d4 is not legal after 1 plies"));
    /// ```
    pub fn parse_line(&self, variant: Variant, text: &str) -> Result<Vec<Move>, LineError> {
        let mut here = *self;
        let mut line = Vec::new();
        for word in text.split_whitespace() {
            let word = word
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches(['.', '…']);
            if word.is_empty() {
                continue;
            }
            let error = |problem| LineError {
                ply: line.len() + 1,
                word: word.to_string(),
                problem,
            };
            let found = here
                .parse_move(variant, word)
                .map_err(|e| error(LineProblem::Notation(e)))?;
            match found[..] {
                [mv] => {
                    here = here.play(&mv);
                    line.push(mv);
                }
                [] => {
                    let legal = here.legal_moves(variant);
                    let names = legal.iter().map(|m| m.notation(&legal, false)).collect();
                    return Err(error(LineProblem::Illegal(names)));
                }
                _ => return Err(error(LineProblem::Ambiguous(found.len()))),
            }
        }
        Ok(line)
    }

    /// The moves of a line played from this position, each as short as it can be written
    /// among the legal moves of its position (a principal variation, a solution).
    ///
    /// ```
    /// use drafti_rules::{Color, Position, Variant};
    /// let start = Position::start(Color::White);
    /// let line: Vec<_> = ["c3-d4", "f6-e5"]
    ///     .iter()
    ///     .scan(start, |pos, text| {
    ///         let mv = pos.parse_move(Variant::Tanzanian, text).unwrap()[0];
    ///         *pos = pos.play(&mv);
    ///         Some(mv)
    ///     })
    ///     .collect();
    /// assert_eq!(start.line_notation(Variant::Tanzanian, &line, false), ["c3-d4", "f6-e5"]);
    /// assert_eq!(start.line_notation(Variant::Tanzanian, &line, true), ["22-18", "11-15"]);
    /// ```
    pub fn line_notation(&self, variant: Variant, line: &[Move], numeric: bool) -> Vec<String> {
        let mut pos = *self;
        line.iter()
            .map(|mv| {
                let word = mv.notation(&pos.legal_moves(variant), numeric);
                pos = pos.play(mv);
                word
            })
            .collect()
    }
}

/// The move number of ply `ply` (1-based) of a game whose first move is `first`'s, as PDN
/// writes it: `12.` before a White move, `12...` before a Black one.
///
/// ```
/// use drafti_rules::{move_number, Color};
/// assert_eq!(move_number(Color::White, 1), "1.");
/// assert_eq!(move_number(Color::White, 4), "2...");
/// // A game Black starts: its first move is 1..., White's answer 2.
/// assert_eq!(move_number(Color::Black, 1), "1...");
/// assert_eq!(move_number(Color::Black, 2), "2.");
/// ```
pub fn move_number(first: Color, ply: usize) -> String {
    let i = ply.saturating_sub(1);
    let (number, white) = match first {
        Color::White => (i / 2 + 1, i.is_multiple_of(2)),
        Color::Black => (i.div_ceil(2) + 1, !i.is_multiple_of(2)),
    };
    if white {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// Moves written with their numbers, from a position with `turn` to move: `1. c3-d4 f6-e5
/// 2. …`, or `1... f6-e5 2. …` when Black moves first.
///
/// ```
/// use drafti_rules::{numbered_line, Color};
/// let moves = ["f6-e5".to_string(), "c3-d4".to_string()];
/// assert_eq!(numbered_line(Color::Black, &moves), "1... f6-e5 2. c3-d4");
/// ```
pub fn numbered_line(turn: Color, moves: &[String]) -> String {
    let mut out = String::new();
    let mut number = 1;
    let mut white = turn == Color::White;
    for (i, mv) in moves.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(mv);
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}
