//! The two stages joined: [`GameReader`] yields one parsed game at a time from any
//! [`BufRead`]; [`parse_games`] does the same for text in memory.

use std::io::BufRead;

use crate::ast::GameRecord;
use crate::error::{ParseError, ReadError};
use crate::grammar::parse_game;
use crate::split::GameSplitter;

/// Reads games one at a time from a PDN stream, in constant memory.
///
/// Each item is a game, or [`ReadError::Syntax`] for a game that could not be parsed (the
/// reader goes on with the next game), or [`ReadError::Io`] when the underlying reader
/// fails (the reader then ends).
///
/// ```
/// use drafti_pdn::GameReader;
/// let text = "[Event \"a\"]\n1. c3-d4 {no end\n[Event \"b\"]\n1. c3-b4 1-0\n";
/// let items: Vec<_> = GameReader::new(text.as_bytes()).collect();
/// assert_eq!(items.len(), 2);
/// let err = items[0].as_ref().unwrap_err().as_syntax().unwrap();
/// assert_eq!((err.span.line, err.span.column, err.message.as_str()), (2, 10, "unterminated comment"));
/// assert_eq!(items[1].as_ref().unwrap().tag("Event"), Some("b"));
/// ```
pub struct GameReader<R> {
    splitter: GameSplitter<R>,
}

impl<R: BufRead> GameReader<R> {
    /// A reader over `reader` (wrap a file in a `BufReader`).
    pub fn new(reader: R) -> Self {
        GameReader {
            splitter: GameSplitter::new(reader),
        }
    }

    /// A reader over an already configured splitter (e.g. with another game size limit).
    pub fn from_splitter(splitter: GameSplitter<R>) -> Self {
        GameReader { splitter }
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.splitter.next()? {
            Ok(raw) => parse_game(&raw).map_err(ReadError::Syntax),
            Err(e) => Err(ReadError::Io(e)),
        })
    }
}

/// Every game in `input` (which can hold any number of games), parsed.
///
/// ```
/// let games = drafti_pdn::parse_games(b"1. 22-18 11-15 *\n1. c3-d4 1-0");
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].as_ref().unwrap().index, 1);
/// ```
pub fn parse_games(input: &[u8]) -> Vec<Result<GameRecord, ParseError>> {
    GameSplitter::new(input)
        .map(|raw| match raw {
            Ok(raw) => parse_game(&raw),
            // Reading from a slice cannot fail.
            Err(_) => Err(ParseError {
                index: 0,
                span: Default::default(),
                expected: String::new(),
                found: String::new(),
                message: "I/O error".to_string(),
                record: None,
            }),
        })
        .collect()
}
