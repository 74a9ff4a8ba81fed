//! Errors: a syntax error makes one game unreadable ([`ParseError`]); reading goes on with
//! the next game. [`ReadError`] adds I/O failures of the underlying reader.

use thiserror::Error;

use crate::ast::GameRecord;
use crate::span::Span;

/// A syntax error in one game: where, what was expected, what was found, and why.
///
/// ```
/// let err = drafti_pdn::parse_games(b"1. c3-d4 {no end").remove(0).unwrap_err();
/// assert_eq!((err.span.line, err.span.column), (1, 10));
/// assert_eq!(err.message, "unterminated comment");
/// assert_eq!(err.to_string(),
///     "game 1, line 1, column 10: unterminated comment (expected '}', found end of game)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "game {}, line {}, column {}: {message} (expected {expected}, found {found})",
    index + 1,
    span.line,
    span.column
)]
pub struct ParseError {
    /// 0-based number of the game (chunk) in the file.
    pub index: usize,
    /// Where the problem is (absolute in the file).
    pub span: Span,
    /// What the grammar expected there, e.g. `'}'` or `a move, move number, …`.
    pub expected: String,
    /// What was there, e.g. `'i9'`, `byte 0xff`, `end of game`.
    pub found: String,
    /// The reason in a few words, e.g. `unterminated comment`.
    pub message: String,
    /// What was read of the game: its tags (a broken tag line is skipped) and the mainline
    /// moves before the error. `None` for text that is no game at all (text between
    /// games). A validator replays it up to the error, so one bad token does not lose the
    /// game's players, result and opening.
    pub record: Option<Box<GameRecord>>,
}

/// An item of [`GameReader`](crate::GameReader) that is not a game.
#[derive(Debug, Error)]
pub enum ReadError {
    /// One game could not be parsed; the reader goes on with the next one.
    #[error(transparent)]
    Syntax(#[from] ParseError),
    /// The underlying reader failed; the reader yields nothing more afterwards.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl ReadError {
    /// The syntax error, if this is one.
    pub fn as_syntax(&self) -> Option<&ParseError> {
        match self {
            ReadError::Syntax(e) => Some(e),
            ReadError::Io(_) => None,
        }
    }
}
