//! PDN reader and writer for drafti: game records of Tanzanian draughts (and the Russian and
//! Czech archives the rules core also reads).
//!
//! # The flow
//! ```text
//! any BufRead ──GameSplitter──▶ RawGame (bytes of one game, where it starts)
//!             ──parse_game────▶ GameRecord (tags, moves, comments, NAGs, variations,
//!                                result; every token with its Span) or ParseError
//! GameRecord  ──write_game────▶ canonical PDN text
//! ```
//! 1. **Split** ([`GameSplitter`]): a cheap line scanner cuts the input at game boundaries
//!    (a tag line after movetext, the token after a result) tracking only comments,
//!    variation depth and quotes. Memory stays constant whatever the file size.
//! 2. **Parse** ([`parse_game`]): nom token parsers and a small driver build the
//!    [`GameRecord`]. A syntax error makes that one game an error ([`ParseError`]: line,
//!    column, expected, found, message); the next game is read as usual. The two stages are
//!    separate so a caller can split on one thread and parse on many (rayon).
//! 3. **Write** ([`write_game`]): canonical PDN, 80 columns.
//!
//! [`GameReader`] joins 1 and 2; [`parse_games`] does it for text in memory.
//!
//! The parser does not check legality: a move is the squares written. Replay (in the
//! analyzer) does that with `drafti_rules`.
//!
//! # Real files
//! A UTF-8 BOM, CRLF, tabs, padded tags, no blank line between games, a missing result (a
//! warning) and tag values or comments in legacy code pages (decoded from Windows-1251, CP866
//! or Latin-1: [`DecodingReader`] decides a file's encoding once, and a stray legacy tag in a UTF-8
//! file is decoded with a warning) are all read. No input makes the library panic.
//!
//! ```
//! use drafti_pdn::{GameReader, write_game};
//! let text = "[Event \"Dar\"]\r\n[Result \"1-0\"]\r\n\r\n1. c3-d4 d6-e5 2. d4xf6 g7xe5 1-0\r\n";
//! for item in GameReader::new(text.as_bytes()) {
//!     let game = item.unwrap();
//!     assert_eq!(game.moves.nodes.len(), 4);
//!     assert_eq!(game.moves.nodes[2].mv.squares[1].to_string(), "f6");
//!     assert_eq!(game.moves.nodes[2].mv.span.line, 4);
//!     print!("{}", write_game(&game));
//! }
//! ```

#![warn(missing_docs)]

mod ast;
mod encoding;
mod error;
mod grammar;
mod move_text;
mod reader;
mod span;
mod split;
mod writer;

pub use ast::{
    Comment, GameRecord, GameResult, Line, MoveNode, MoveNumber, MoveSquares, MoveText, MoveToken,
    Nag, ParseWarning, ResultToken, Separator, Tag, WarningKind,
};
pub use encoding::{encoding_for_label, DecodingReader, Encoding, OnDetected, DETECTION_WINDOW};
pub use error::{ParseError, ReadError};
pub use grammar::{parse_game, MAX_VARIATION_DEPTH};
pub use reader::{parse_games, GameReader};
pub use span::Span;
pub use split::{GameSplitter, RawGame, DEFAULT_MAX_GAME_BYTES};
pub use writer::{eval_command, write_game, write_game_to, write_games, LINE_WIDTH};
