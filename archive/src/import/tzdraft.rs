//! TzDraft's game records (github kayzo1903/TzDraft) into PDN, every move replayed through
//! the rules core under the rules TzDraft's server plays (`tzdraft`, [`Variant::TzDraft`]),
//! or the article's (`tz`) when asked to be strict.
//!
//! **The shape** is TzDraft's own: the game of `GET /games/:id/replay` (`{success, data:
//! {game, players, moves}}`, or its `data`), the game entity's JSON (`Game.toJSON`: `id`,
//! `status`, `gameType`, `ruleVersion`, `initialTimeMs`, `whitePlayerId`, `blackPlayerId`,
//! `whiteElo`, `blackElo`, `aiLevel`, `winner`, `endReason`, `clockInfo`, `createdAt`,
//! `startedAt`, `endedAt`, …) with its `moves` inside, or a database row (Prisma's camelCase
//! fields, `clock`, `whitePlayer`, `blackPlayer`), or a raw database row (the snake_case
//! columns a SQL export gives: `game_type`, `white_player_id`, …). Every field may be missing
//! but `moves` (a record without it is refused, saying what it looks like: a puzzle, a move
//! row, an API error); unknown fields are ignored. A move is `{moveNumber, player,
//! fromSquare, toSquare, capturedSquares, isPromotion, notation, engineEval, createdAt}` (or
//! `move_number`, `from_square`, …); a move without its squares names the missing field.
//!
//! **Squares.** TzDraft numbers the dark squares 1–32 row by row from White's back row
//! (`Position.toRowCol`: row 0 holds 1–4, White's men start on 1–12; its board draws 1 on g1
//! and 32 on b8). drafti's numbering runs from Black's back row (1 = b8, White on 21–32): the
//! same board turned 180°, so TzDraft's square `n` is drafti's `33 - n` ([`square`]).
//!
//! **Input**: any shape JSON tools write, cut into games in one pass and bounded memory per
//! game ([`MAX_GAME_BYTES`]): one game object, an array of them (pretty-printed, or compact
//! on one line of any length), several objects one after the other (two on a line, a line
//! then a pretty-printed one), JSON Lines, with trailing commas and byte order marks
//! anywhere between games (see `scan`). A game that is not JSON, cut short (a JSON Lines line
//! cut off: the next line starting with `{` begins the next game), too long, or not a game is
//! one unreadable game naming its line (and its id, if it can be seen); the others go on.
//!
//! **Rules**: every game is read under TzDraft's server reading (`[Variant "TzDraft"]` in the
//! PDN, so `validate`, `analyze` and `report` read it back alike); each move only the server
//! allows and each move played after one of the article's draw laws ended the game is a
//! `tzdraft_only` warning naming the article's rule, with the position. With
//! `variant_override: Some(Variant::Tanzanian)` (`--strict`) the games are read under the
//! article (`[Variant "Tanzanian"]`) and such a move is an error that cuts the game.
//!
//! **Moves** are taken in `moveNumber` order (rows out of order are put in order; a gap or a
//! repeated number is a `move_order` error that cuts the game there). Each move's from and to
//! squares, and its captured squares, must identify exactly one legal move, the captured
//! squares in an order the piece can take them (two routes taking the same pieces are one
//! move, as in drafti's rules; TzDraft may list either); the player must be the side to move
//! and `isPromotion` must agree. A move that does not is an `illegal_move` problem naming the
//! game id, the TzDraft move number and the rule it breaks; the game is kept up to it, with
//! the result `*` (TzDraft's winner stays in its `TzDraftWinner` tag). The moves' `createdAt`
//! times become `[%clk]`/`[%emt]` comments, their `engineEval` `[%eval]` comments. An end
//! reason (`NO_MOVES`, a `DRAW_…` rule of the server) that the final position does not have
//! is an `end_reason` warning.
//!
//! ```
//! use drafti_archive::import::tzdraft::{import, Imported};
//! use drafti_archive::replay::ReplayOptions;
//! use drafti_archive::validation::Validated;
//! let json = r#"{"id": "g1", "winner": "WHITE", "moves": [
//!     {"moveNumber": 1, "player": "WHITE", "fromSquare": 11, "toSquare": 15, "capturedSquares": []}]}"#;
//! let mut games = Vec::new();
//! import("g.json", json.as_bytes(), &ReplayOptions::default(), |g: Imported| {
//!     games.push(g);
//!     Ok(())
//! })
//! .unwrap();
//! let Validated::Game(game) = &games[0].game else { panic!("a game") };
//! assert!(game.is_valid());
//! assert_eq!(game.record.tag("Variant"), Some("TzDraft"));
//! assert_eq!(drafti_pdn::write_game(&game.record).lines().last(), Some("1. c3-d4 1-0"));
//! ```

mod convert;
mod record;
mod scan;

pub use convert::{convert, tags};
pub use record::{
    square, tzdraft_move, tzdraft_number, TzClock, TzGame, TzMove, TzPlayer, TzPlayers,
};
pub use scan::MAX_GAME_BYTES;

use crate::replay::{Problem, ProblemKind, ReplayOptions, Severity};
use crate::validation::{GameLine, Validated};
use drafti_pdn::{RawGame, Span};
use drafti_rules::Variant;
use scan::{Ending, GameText};
use serde::Serialize;
use std::io::{self, BufRead};

/// Why TzDraft input cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Reading failed.
    #[error("cannot read {name}: {reason}")]
    Read {
        /// The input's name.
        name: String,
        /// What failed.
        reason: String,
    },
    /// The input does not start like JSON.
    #[error(
        "{name}:{line}: not TzDraft JSON (expected a game object, an array of games or JSON \
         Lines; the line starts with {start:?})"
    )]
    NotJson {
        /// The input's name.
        name: String,
        /// The first line that is not blank.
        line: u32,
        /// Its first characters.
        start: String,
    },
    /// The sink given to [`import`] failed.
    #[error(transparent)]
    Sink(io::Error),
}

/// One game of the input, converted and replayed, or why it could not be read.
#[derive(Debug)]
pub struct Imported {
    /// 0-based number of the game in the input.
    pub index: usize,
    /// The line (1-based) where the game starts.
    pub line: u32,
    /// TzDraft's id of the game, if it has one.
    pub source_id: Option<String>,
    /// The game replayed (its problems include the import's), or the problem that kept it
    /// from being read.
    pub game: Validated,
}

impl Imported {
    /// One game's line of `drafti import tzdraft --json`: `drafti validate --json`'s object
    /// for the game, with `source_id` (TzDraft's id, or `null`) after it.
    pub fn json_line(&self, file: &str) -> String {
        #[derive(Serialize)]
        struct Line<'a> {
            #[serde(flatten)]
            game: GameLine<'a>,
            source_id: Option<&'a str>,
        }
        let mut raw = RawGame::from_bytes(self.index, Vec::new());
        raw.line = self.line;
        let game = match &self.game {
            Validated::Game(game) => GameLine::of_game(file, &raw, game),
            Validated::Unreadable(problem) => GameLine::of_unreadable(file, &raw, problem),
        };
        let line = Line {
            game,
            source_id: self.source_id.as_deref(),
        };
        let mut text = serde_json::to_string(&line).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// What stops [`import`] early: the input, or the sink.
enum Stop {
    Read(io::Error),
    NotJson { line: u32, start: String },
    Sink(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Read(e)
    }
}

/// Reads TzDraft games from `reader` (named `name` in errors), converts and replays each
/// under TzDraft's server rules (or `options.variant_override`: `Some(Variant::Tanzanian)`
/// checks them against the article; the draw-law count is `options`') and hands them to
/// `each` in input order. Returns how many games were read. Input whose first game is no
/// JSON object is refused whole ([`ImportError::NotJson`]).
pub fn import<R: BufRead>(
    name: &str,
    reader: R,
    options: &ReplayOptions,
    mut each: impl FnMut(Imported) -> io::Result<()>,
) -> Result<usize, ImportError> {
    let rules = options.variant_override.unwrap_or(Variant::TzDraft);
    let mut index = 0;
    let scanned = scan::scan(reader, |text: GameText| {
        if index == 0 && text.ending == Ending::NotObject {
            let start = String::from_utf8_lossy(&text.text);
            return Err(Stop::NotJson {
                line: text.line,
                start: start.trim().chars().take(20).collect(),
            });
        }
        each(game_of_text(index, &text, options, rules)).map_err(Stop::Sink)?;
        index += 1;
        Ok(())
    });
    match scanned {
        Ok(()) => Ok(index),
        Err(Stop::Read(e)) => Err(ImportError::Read {
            name: name.to_string(),
            reason: crate::input::describe(&e),
        }),
        Err(Stop::NotJson { line, start }) => Err(ImportError::NotJson {
            name: name.to_string(),
            line,
            start,
        }),
        Err(Stop::Sink(e)) => Err(ImportError::Sink(e)),
    }
}

/// The line of the input where `e` is, in a text that starts on line `first`.
fn line_in(first: u32, e: &serde_json::Error) -> u32 {
    let line = u32::try_from(e.line()).unwrap_or(u32::MAX);
    first.saturating_add(line.saturating_sub(1))
}

/// serde_json's message without its ` at line L column C`.
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// One game from its text.
fn game_of_text(
    index: usize,
    text: &GameText,
    options: &ReplayOptions,
    rules: Variant,
) -> Imported {
    let line = text.line;
    let id = id_in(&text.text);
    let of = id
        .as_ref()
        .map(|id| format!(" (game {id})"))
        .unwrap_or_default();
    let damaged = |message: String| {
        let mut imported = unreadable(index, line, id.clone(), message);
        imported.line = line;
        imported
    };
    match text.ending {
        Ending::TooLong => {
            return damaged(format!(
                "line {line}{of}: a game longer than {} MiB, skipped",
                MAX_GAME_BYTES >> 20
            ))
        }
        Ending::NotObject => {
            let start: String = String::from_utf8_lossy(&text.text)
                .trim()
                .chars()
                .take(20)
                .collect();
            return damaged(format!(
                "line {line}: not a TzDraft game: {start:?} is no JSON object"
            ));
        }
        Ending::CutByNext | Ending::CutByEnd => {
            let why = if text.ending == Ending::CutByNext {
                "the next line starts another game"
            } else {
                "the input ends inside it"
            };
            return damaged(format!(
                "line {line}{of}: malformed JSON: the game is cut off ({why})"
            ));
        }
        Ending::Closed => {}
    }
    match serde_json::from_slice::<TzGame>(&text.text) {
        Ok(game) => {
            let game = game.unwrapped();
            if let Some(what) = game.not_a_game() {
                return damaged(format!("line {line}{of}: not a TzDraft game: {what}"));
            }
            let source_id = game.id.clone();
            Imported {
                index,
                line,
                source_id,
                game: Validated::Game(convert(game, line, options, rules)),
            }
        }
        Err(e) => {
            let what = if e.is_syntax() || e.is_eof() {
                "malformed JSON"
            } else {
                "not a TzDraft game"
            };
            let column = if e.line() <= 1 {
                e.column() + text.column as usize - 1
            } else {
                e.column()
            };
            let at = line_in(line, &e);
            let mut imported = unreadable(
                index,
                at,
                id.clone(),
                format!(
                    "line {at}{of}: {what}: {} (column {column})",
                    strip_position(&e)
                ),
            );
            imported.line = line;
            imported
        }
    }
}

fn unreadable(index: usize, line: u32, source_id: Option<String>, message: String) -> Imported {
    let span = Span {
        line,
        column: 1,
        ..Span::default()
    };
    Imported {
        index,
        line,
        source_id,
        game: Validated::Unreadable(Problem::new(
            Severity::Error,
            ProblemKind::Syntax,
            span,
            message,
        )),
    }
}

/// The value of the first `"id": "…"` in text that may not be JSON (to name the game).
fn id_in(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(&text[..text.len().min(1 << 16)]);
    let at = text.find("\"id\"")?;
    let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(rest[..end].chars().take(100).collect())
}

#[cfg(test)]
mod tests;
