//! TzDraft's game records (github kayzo1903/TzDraft) into PDN, every move replayed through
//! the rules core (Tanzanian rules).
//!
//! **The shape** is TzDraft's own: the game of `GET /games/:id/replay` (`{success, data:
//! {game, players, moves}}`, or its `data`), the game entity's JSON (`Game.toJSON`: `id`,
//! `status`, `gameType`, `ruleVersion`, `initialTimeMs`, `whitePlayerId`, `blackPlayerId`,
//! `whiteElo`, `blackElo`, `aiLevel`, `winner`, `endReason`, `clockInfo`, `createdAt`,
//! `startedAt`, `endedAt`, …) with its `moves` inside, or a database row (Prisma's camelCase
//! fields, `clock`, `whitePlayer`, `blackPlayer`). Every field may be missing; unknown fields
//! are ignored. A move is `{moveNumber, player, fromSquare, toSquare, capturedSquares,
//! isPromotion, notation, engineEval}`.
//!
//! **Squares.** TzDraft numbers the dark squares 1–32 row by row from White's back row
//! (`Position.toRowCol`: row 0 holds 1–4, White's men start on 1–12; its board draws 1 on g1
//! and 32 on b8). drafti's numbering runs from Black's back row (1 = b8, White on 21–32): the
//! same board turned 180°, so TzDraft's square `n` is drafti's `33 - n` ([`square`]).
//!
//! **Input**: one game object, an array of them, several objects one after the other, or
//! JSON Lines (one game per line, each line read in bounded memory: [`MAX_LINE_BYTES`]). A
//! line that is not JSON, or not a game, is one unreadable game naming its line (and the
//! game's id, if it can be seen); the lines after it go on.
//!
//! **Moves**: each move's from and to squares, and its captured squares, must identify
//! exactly one legal move, the captured squares in an order the piece can take them (two
//! routes taking the same pieces are one move, as in drafti's rules; TzDraft may list either);
//! the player must be the side to move and `isPromotion` must agree.
//! A move that does not is an `illegal_move` problem naming the game id, the TzDraft move
//! number and the rule it breaks; the game is kept up to it.
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
//! assert_eq!(drafti_pdn::write_game(&game.record).lines().last(), Some("1. c3-d4 1-0"));
//! ```

use crate::replay::{
    illegal_reason, move_token, replay, replay_partial, Problem, ProblemKind, ReplayOptions,
    ReplayedGame, Severity,
};
use crate::validation::{GameLine, Validated};
use drafti_pdn::{
    Comment, GameRecord, GameResult, Line, MoveNode, MoveNumber, RawGame, ResultToken, Span, Tag,
};
use drafti_rules::{Color, Move, Position, Square, Variant};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::io::{self, BufRead, Read};

/// The longest line read in JSON Lines (a longer one is an unreadable game, skipped): 1 MiB,
/// a game of some 6,000 plies (a TzDraft game of 140 plies is about 23 KB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The largest input read as one JSON document (an array or a pretty-printed object).
pub const MAX_DOCUMENT_BYTES: usize = 256 << 20;

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
    /// A JSON document (not JSON Lines) that is malformed.
    #[error("{name}:{line}:{column}: malformed JSON: {message}")]
    Syntax {
        /// The input's name.
        name: String,
        /// Where.
        line: u32,
        /// Where.
        column: u32,
        /// serde_json's words.
        message: String,
    },
    /// A JSON document larger than [`MAX_DOCUMENT_BYTES`].
    #[error(
        "{name}: a JSON document larger than {} MiB; give the games as JSON Lines (one per \
         line)",
        MAX_DOCUMENT_BYTES >> 20
    )]
    TooLarge {
        /// The input's name.
        name: String,
    },
    /// The sink given to [`import`] failed.
    #[error(transparent)]
    Sink(io::Error),
}

/// A TzDraft game record, as the API serves it (see the module docs); every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzGame {
    pub id: Option<String>,
    pub status: Option<String>,
    pub game_type: Option<String>,
    pub rule_version: Option<String>,
    pub initial_time_ms: Option<Value>,
    pub white_player_id: Option<String>,
    pub black_player_id: Option<String>,
    pub white_elo: Option<Value>,
    pub black_elo: Option<Value>,
    pub ai_level: Option<Value>,
    pub invite_code: Option<String>,
    pub creator_color: Option<String>,
    pub winner: Option<String>,
    pub end_reason: Option<String>,
    pub current_turn: Option<String>,
    pub created_at: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub tournament_match_game_id: Option<String>,
    pub league_game_id: Option<String>,
    /// `clockInfo` in the game entity's JSON, `clock` in a database row.
    #[serde(alias = "clockInfo")]
    pub clock: Option<TzClock>,
    pub white_player: Option<TzPlayer>,
    pub black_player: Option<TzPlayer>,
    pub players: Option<TzPlayers>,
    pub moves: Vec<TzMove>,
    /// The replay endpoint's `{game, players, moves}`.
    pub game: Option<Box<TzGame>>,
    /// The API's envelope `{success, data}`.
    pub data: Option<Box<TzGame>>,
}

/// A game's clock (times left, in milliseconds).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzClock {
    pub white_time_ms: Option<Value>,
    pub black_time_ms: Option<Value>,
    pub last_move_at: Option<String>,
}

/// A player (TzDraft's user record, of which only these fields are read).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzPlayer {
    pub id: Option<String>,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub country: Option<String>,
}

/// The replay endpoint's `players`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TzPlayers {
    pub white: Option<TzPlayer>,
    pub black: Option<TzPlayer>,
}

/// One move (one ply) of a TzDraft game, squares in TzDraft's numbering.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzMove {
    pub move_number: Option<i64>,
    pub player: Option<String>,
    pub from_square: i64,
    pub to_square: i64,
    pub captured_squares: Vec<i64>,
    pub is_promotion: Option<bool>,
    pub notation: Option<String>,
    /// Centipawn-like, from White's side (a man is 100).
    pub engine_eval: Option<i64>,
}

impl TzGame {
    /// The game itself, out of the API's envelopes (`data`, then `{game, players, moves}`).
    pub fn unwrapped(mut self) -> TzGame {
        if let Some(data) = self.data.take() {
            return data.unwrapped();
        }
        match self.game.take() {
            Some(game) => {
                let mut game = game.unwrapped();
                if game.moves.is_empty() {
                    game.moves = std::mem::take(&mut self.moves);
                }
                if game.players.is_none() {
                    game.players = self.players.take();
                }
                game
            }
            None => self,
        }
    }
}

/// drafti's square for TzDraft's square `n` (1–32): `33 - n`.
///
/// ```
/// use drafti_archive::import::tzdraft::{square, tzdraft_number};
/// assert_eq!(square(1).unwrap().to_string(), "g1");
/// assert_eq!(square(32).unwrap().to_string(), "b8");
/// assert_eq!(tzdraft_number(square(9).unwrap()), 9);
/// assert!(square(0).is_none() && square(33).is_none());
/// ```
pub fn square(n: i64) -> Option<Square> {
    u8::try_from(33 - n)
        .ok()
        .filter(|_| (1..=32).contains(&n))
        .and_then(Square::from_number)
}

/// TzDraft's number of drafti's square `sq`.
pub fn tzdraft_number(sq: Square) -> u8 {
    33 - sq.number()
}

/// The TzDraft move of a legal move played by `player` (ply `ply`, 1-based), with its
/// notation as TzDraft writes it (`22x17x10`: from, each captured square, to).
pub fn tzdraft_move(mv: &Move, player: Color, ply: usize) -> TzMove {
    let from = i64::from(tzdraft_number(mv.from()));
    let to = i64::from(tzdraft_number(mv.to()));
    let captured: Vec<i64> = mv
        .captures()
        .map(|sq| i64::from(tzdraft_number(sq)))
        .collect();
    let notation = if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut path = vec![from];
        path.extend(&captured);
        path.push(to);
        let names: Vec<String> = path.iter().map(i64::to_string).collect();
        names.join("x")
    };
    TzMove {
        move_number: Some(ply as i64),
        player: Some(color_name(player).to_string()),
        from_square: from,
        to_square: to,
        captured_squares: captured,
        is_promotion: Some(mv.promotes()),
        notation: Some(notation),
        engine_eval: None,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    }
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

/// Reads TzDraft games from `reader` (named `name` in errors), converts and replays each
/// (with `options`' draw-law count; the variant is always Tanzanian) and hands them to
/// `each` in input order. Returns how many games were read.
pub fn import<R: BufRead>(
    name: &str,
    mut reader: R,
    options: &ReplayOptions,
    mut each: impl FnMut(Imported) -> io::Result<()>,
) -> Result<usize, ImportError> {
    let read_error = |e: &io::Error| ImportError::Read {
        name: name.to_string(),
        reason: crate::input::describe(e),
    };
    let mut line_no = 0u32;
    let mut buf = Vec::new();
    // The first line that is not blank decides: a document, or JSON Lines.
    let (first, too_long) = loop {
        let Some(too_long) = read_line(&mut reader, &mut buf).map_err(|e| read_error(&e))? else {
            return Ok(0);
        };
        line_no += 1;
        if line_no == 1 && buf.starts_with(b"\xef\xbb\xbf") {
            buf.drain(..3); // a byte order mark
        }
        if !buf.trim_ascii().is_empty() || too_long {
            break (buf.trim_ascii().to_vec(), too_long);
        }
    };
    let document = !too_long
        && match first.first() {
            Some(b'[') => true,
            Some(b'{') => {
                serde_json::from_slice::<serde::de::IgnoredAny>(&first).is_err_and(|e| e.is_eof())
            }
            _ => {
                let start = String::from_utf8_lossy(&first[..first.len().min(20)]).into_owned();
                return Err(ImportError::NotJson {
                    name: name.to_string(),
                    line: line_no,
                    start,
                });
            }
        };
    if document {
        let mut text = Vec::with_capacity(buf.len());
        text.extend_from_slice(&buf);
        text.push(b'\n');
        reader
            .by_ref()
            .take((MAX_DOCUMENT_BYTES - text.len().min(MAX_DOCUMENT_BYTES)) as u64 + 1)
            .read_to_end(&mut text)
            .map_err(|e| read_error(&e))?;
        if text.len() > MAX_DOCUMENT_BYTES {
            return Err(ImportError::TooLarge {
                name: name.to_string(),
            });
        }
        let text = String::from_utf8(text).map_err(|e| ImportError::Read {
            name: name.to_string(),
            reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        })?;
        return document_games(name, &text, line_no, options, &mut each);
    }
    let mut index = 0;
    let mut too_long = too_long;
    loop {
        let imported = if too_long {
            unreadable(
                index,
                line_no,
                None,
                format!("line {line_no} is longer than {} MiB", MAX_LINE_BYTES >> 20),
            )
        } else {
            game_of_text(index, line_no, buf.trim_ascii(), options)
        };
        each(imported).map_err(ImportError::Sink)?;
        index += 1;
        loop {
            match read_line(&mut reader, &mut buf).map_err(|e| read_error(&e))? {
                None => return Ok(index),
                Some(long) => {
                    line_no += 1;
                    too_long = long;
                    if long || !buf.trim_ascii().is_empty() {
                        break;
                    }
                }
            }
        }
    }
}

/// Reads one line into `buf` (without its `\n`), keeping at most [`MAX_LINE_BYTES`]:
/// `None` at the end of the input, else whether the line was longer (the rest is skipped).
fn read_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let n = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some(false));
    }
    if buf.len() <= MAX_LINE_BYTES {
        return Ok(Some(false)); // the last line, without a newline
    }
    buf.clear();
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(Some(true));
        }
        if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(Some(true));
        }
        let len = chunk.len();
        reader.consume(len);
    }
}

/// The games of a JSON document (objects and arrays of them, one after the other);
/// `first_line` is the line where it starts.
fn document_games(
    name: &str,
    text: &str,
    first_line: u32,
    options: &ReplayOptions,
    each: &mut impl FnMut(Imported) -> io::Result<()>,
) -> Result<usize, ImportError> {
    let syntax = |e: serde_json::Error| ImportError::Syntax {
        name: name.to_string(),
        line: line_in(first_line, &e),
        column: e.column() as u32,
        message: strip_position(&e),
    };
    let mut lines = LineCounter::new(text, first_line);
    let mut index = 0;
    for value in serde_json::Deserializer::from_str(text).into_iter::<&RawValue>() {
        let value = value.map_err(syntax)?;
        let games = if value.get().starts_with('[') {
            serde_json::from_str::<Vec<&RawValue>>(value.get()).map_err(syntax)?
        } else {
            vec![value]
        };
        for game in games {
            let line = lines.line_of(game.get());
            each(game_of_text(index, line, game.get().as_bytes(), options))
                .map_err(ImportError::Sink)?;
            index += 1;
        }
    }
    Ok(index)
}

/// Line numbers of slices of one text, asked for in increasing order.
struct LineCounter<'t> {
    text: &'t str,
    at: usize,
    line: u32,
}

impl<'t> LineCounter<'t> {
    fn new(text: &'t str, first_line: u32) -> Self {
        LineCounter {
            text,
            at: 0,
            line: first_line,
        }
    }

    /// The line where `part` (a slice of the text) starts.
    fn line_of(&mut self, part: &str) -> u32 {
        let offset = (part.as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        let offset = offset.clamp(self.at, self.text.len());
        let newlines = self.text.as_bytes()[self.at..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line += newlines as u32;
        self.at = offset;
        self.line
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

/// One game from its JSON text.
fn game_of_text(index: usize, line: u32, text: &[u8], options: &ReplayOptions) -> Imported {
    match serde_json::from_slice::<TzGame>(text) {
        Ok(game) => {
            let game = game.unwrapped();
            let source_id = game.id.clone();
            Imported {
                index,
                line,
                source_id,
                game: Validated::Game(convert(game, line, options)),
            }
        }
        Err(e) => {
            let id = id_in(text);
            let what = if e.is_syntax() || e.is_eof() {
                "malformed JSON"
            } else {
                "not a TzDraft game"
            };
            let of = id
                .as_ref()
                .map(|id| format!(" (game {id})"))
                .unwrap_or_default();
            let message = format!(
                "line {}{of}: {what}: {} (column {})",
                line_in(line, &e),
                strip_position(&e),
                e.column()
            );
            let mut imported = unreadable(index, line_in(line, &e), id, message);
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

/// The value of the first `"id": "…"` in text that is not JSON (to name the game).
fn id_in(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(&text[..text.len().min(1 << 16)]);
    let at = text.find("\"id\"")?;
    let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(rest[..end].chars().take(100).collect())
}

/// Text of a number or string field.
fn text_of(v: &Option<Value>) -> Option<String> {
    match v {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// PDN's `YYYY.MM.DD` of an ISO timestamp (`2026-03-02T19:00:00.000Z`).
fn pdn_date(timestamp: &str) -> Option<String> {
    let date = timestamp.get(..10)?;
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    (digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10))
        .then(|| date.replace('-', "."))
}

/// PDN's Termination for TzDraft's end reason.
fn termination(reason: &str) -> String {
    match reason {
        "NO_MOVES" | "STALEMATE" | "CHECKMATE" => "no legal move",
        "RESIGN" => "resignation",
        "TIME" => "time forfeit",
        "DISCONNECT" => "abandoned",
        "DRAW" => "draw agreed",
        "DRAW_REPETITION" => "draw by repetition",
        "DRAW_30_MOVE" => "draw by the 30-move rule",
        "DRAW_THREE_KINGS" => "draw by the three-kings rule",
        "DRAW_ENDGAME" => "draw by the endgame rule",
        "DRAW_INSUFFICIENT_MATERIAL" => "draw by insufficient material",
        other => other,
    }
    .to_string()
}

fn player_name(player: Option<&TzPlayer>, id: Option<&str>) -> Option<String> {
    let p = player?;
    p.display_name
        .clone()
        .or_else(|| p.username.clone())
        .or_else(|| id.map(str::to_string))
}

/// A tag; control characters in the value (a line break in a name) become spaces, so the
/// tag stays on its line.
fn tag(name: &str, value: impl Into<String>) -> Tag {
    let mut value = value.into();
    if value.chars().any(char::is_control) {
        value = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
    }
    Tag {
        name: name.to_string(),
        value,
        span: Span::default(),
    }
}

/// The record's result from TzDraft's winner.
fn result_of(game: &TzGame) -> GameResult {
    match game.winner.as_deref() {
        Some("WHITE") => GameResult::WhiteWin,
        Some("BLACK") => GameResult::BlackWin,
        Some("DRAW") => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// The tags of a game: PDN's where a field has a home, `TzDraft…` for every other field.
pub fn tags(game: &TzGame) -> Vec<Tag> {
    let players = game.players.as_ref();
    let white = players
        .and_then(|p| p.white.as_ref())
        .or(game.white_player.as_ref());
    let black = players
        .and_then(|p| p.black.as_ref())
        .or(game.black_player.as_ref());
    let white_name = player_name(white, game.white_player_id.as_deref());
    let ai = text_of(&game.ai_level).map(|l| format!("TzDraft AI level {l}"));
    let black_name = player_name(black, game.black_player_id.as_deref()).or_else(|| {
        (game.black_player_id.is_none() && game.game_type.as_deref() == Some("AI"))
            .then(|| ai.clone())
            .flatten()
    });
    let kind = match game.game_type.as_deref() {
        Some("AI") => "AI".to_string(),
        Some(kind) => kind.to_lowercase(),
        None => "?".to_string(),
    };
    let date = [&game.started_at, &game.created_at]
        .into_iter()
        .flatten()
        .find_map(|t| pdn_date(t));
    let mut tags = vec![
        tag("Event", format!("TzDraft {kind} game")),
        tag("Site", "TzDraft"),
        tag("Date", date.unwrap_or_else(|| "????.??.??".to_string())),
        tag("White", white_name.unwrap_or_else(|| "?".to_string())),
        tag("Black", black_name.unwrap_or_else(|| "?".to_string())),
        tag("Result", result_of(game).as_str()),
    ];
    if let Some(elo) = text_of(&game.white_elo) {
        tags.push(tag("WhiteElo", elo));
    }
    if let Some(elo) = text_of(&game.black_elo) {
        tags.push(tag("BlackElo", elo));
    }
    tags.push(tag("Variant", "Tanzanian"));
    if let Some(reason) = &game.end_reason {
        tags.push(tag("Termination", termination(reason)));
    }
    if let Some(ms) = game.initial_time_ms.as_ref().and_then(Value::as_i64) {
        tags.push(tag("TimeControl", (ms / 1000).to_string()));
    }
    let mut keep = |name: &str, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            tags.push(tag(name, v));
        }
    };
    let clock = game.clock.as_ref();
    keep("TzDraftId", game.id.clone());
    keep("TzDraftType", game.game_type.clone());
    keep("TzDraftRuleVersion", game.rule_version.clone());
    keep("TzDraftStatus", game.status.clone());
    keep("TzDraftWinner", game.winner.clone());
    keep("TzDraftEndReason", game.end_reason.clone());
    keep("TzDraftInitialTimeMs", text_of(&game.initial_time_ms));
    keep("TzDraftWhitePlayerId", game.white_player_id.clone());
    keep("TzDraftBlackPlayerId", game.black_player_id.clone());
    keep(
        "TzDraftWhiteUsername",
        white.and_then(|p| p.username.clone()),
    );
    keep(
        "TzDraftBlackUsername",
        black.and_then(|p| p.username.clone()),
    );
    keep("TzDraftWhiteCountry", white.and_then(|p| p.country.clone()));
    keep("TzDraftBlackCountry", black.and_then(|p| p.country.clone()));
    keep("TzDraftAiLevel", text_of(&game.ai_level));
    keep("TzDraftInviteCode", game.invite_code.clone());
    keep("TzDraftCreatorColor", game.creator_color.clone());
    keep(
        "TzDraftTournamentMatchGameId",
        game.tournament_match_game_id.clone(),
    );
    keep("TzDraftLeagueGameId", game.league_game_id.clone());
    keep("TzDraftCurrentTurn", game.current_turn.clone());
    keep("TzDraftCreatedAt", game.created_at.clone());
    keep("TzDraftStartedAt", game.started_at.clone());
    keep("TzDraftEndedAt", game.ended_at.clone());
    keep(
        "TzDraftWhiteTimeMs",
        clock.and_then(|c| text_of(&c.white_time_ms)),
    );
    keep(
        "TzDraftBlackTimeMs",
        clock.and_then(|c| text_of(&c.black_time_ms)),
    );
    keep(
        "TzDraftLastMoveAt",
        clock.and_then(|c| c.last_move_at.clone()),
    );
    tags
}

/// Why a TzDraft move is not a legal move of `pos`: the rule it breaks, in a few words.
fn mismatch(pos: &Position, legal: &[Move], m: &TzMove) -> Result<Move, String> {
    let turn = pos.turn();
    if let Some(player) = m.player.as_deref() {
        if player != color_name(turn) {
            return Err(format!(
                "the move is marked {player}, but {turn} is to move"
            ));
        }
    }
    let off = |n: i64| format!("square {n} is not on the board (TzDraft's squares are 1-32)");
    let from = square(m.from_square).ok_or_else(|| off(m.from_square))?;
    let to = square(m.to_square).ok_or_else(|| off(m.to_square))?;
    let mut captured = Vec::with_capacity(m.captured_squares.len());
    for &n in &m.captured_squares {
        captured.push(square(n).ok_or_else(|| off(n))?);
    }
    let names = |squares: &mut dyn Iterator<Item = Square>| {
        let names: Vec<String> = squares.map(|s| s.to_string()).collect();
        names.join(", ")
    };
    let ends: Vec<&Move> = legal
        .iter()
        .filter(|mv| mv.from() == from && mv.to() == to)
        .collect();
    if ends.is_empty() {
        let reason = illegal_reason(pos, Variant::Tanzanian, legal, &[from, to], false);
        return Err(if reason.is_empty() {
            format!("no legal move goes from {from} to {to}")
        } else {
            reason
        });
    }
    let mut sorted = captured.clone();
    sorted.sort();
    let found = ends.iter().find(|mv| {
        let mut taken: Vec<Square> = mv.captures().collect();
        taken.sort();
        taken == sorted
    });
    let Some(&&mv) = found else {
        let ways: Vec<String> = ends
            .iter()
            .map(|mv| match mv.capture_count() {
                0 => "nothing".to_string(),
                _ => names(&mut mv.captures()),
            })
            .collect();
        let listed = match captured.len() {
            0 => "none".to_string(),
            _ => names(&mut captured.iter().copied()),
        };
        return Err(format!(
            "the move from {from} to {to} captures {}, not the squares listed ({listed})",
            ways.join(" or ")
        ));
    };
    if !mv.captures().eq(captured.iter().copied()) && !route_exists(pos, from, to, &captured) {
        return Err(format!(
            "the piece on {from} cannot take {} in this order (it takes them as {})",
            names(&mut captured.iter().copied()),
            names(&mut mv.captures())
        ));
    }
    if let Some(promotion) = m.is_promotion {
        if promotion != mv.promotes() {
            return Err(if promotion {
                format!("isPromotion is true, but the move does not crown a man ({to})")
            } else {
                format!("isPromotion is false, but the man is crowned on {to}")
            });
        }
    }
    Ok(mv)
}

/// Whether the piece on `from` can take the pieces on `order`, in this order, and end on
/// `to`: each on a diagonal from where the piece stands with nothing between (a man: the next
/// square, forward), landing on an empty square beyond it (a king: any before the next piece).
/// Captured pieces stay on the board until the move ends.
fn route_exists(pos: &Position, from: Square, to: Square, order: &[Square]) -> bool {
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let forward = if piece.color == Color::White { 1 } else { -1 };
    let empty = |sq: Square| sq == from || pos.piece_at(sq).is_none();
    let step = |sq: Square, df: i8, dr: i8, k: i8| {
        let (f, r) = (sq.file() as i8 + df * k, sq.rank() as i8 + dr * k);
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Square::from_coords(f as u8, r as u8)
        } else {
            None
        }
    };
    fn go(
        at: Square,
        rest: &[Square],
        to: Square,
        king: bool,
        forward: i8,
        empty: &dyn Fn(Square) -> bool,
        step: &dyn Fn(Square, i8, i8, i8) -> Option<Square>,
    ) -> bool {
        let Some((&next, rest)) = rest.split_first() else {
            return at == to;
        };
        let df = next.file() as i8 - at.file() as i8;
        let dr = next.rank() as i8 - at.rank() as i8;
        if df == 0 || df.abs() != dr.abs() || (!king && (df.abs() != 1 || dr != forward)) {
            return false;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        if !(1..df.abs()).all(|k| step(at, sf, sr, k).is_some_and(empty)) {
            return false;
        }
        let mut k = 1;
        while let Some(landing) = step(next, sf, sr, k).filter(|&sq| empty(sq)) {
            if go(landing, rest, to, king, forward, empty, step) {
                return true;
            }
            if !king {
                break;
            }
            k += 1;
        }
        false
    }
    go(from, order, to, piece.king, forward, &empty, &step)
}

/// The move as TzDraft wrote it: its notation, else `from-to` / `fromxcapturedxto`.
fn written(m: &TzMove) -> String {
    if let Some(n) = m.notation.as_deref().filter(|n| !n.is_empty()) {
        return n.chars().take(100).collect();
    }
    let mut path = vec![m.from_square];
    path.extend(m.captured_squares.iter().take(12));
    path.push(m.to_square);
    let names: Vec<String> = path.iter().map(i64::to_string).collect();
    names.join(if m.captured_squares.is_empty() {
        "-"
    } else {
        "x"
    })
}

/// A TzDraft game as a PDN record replayed through the rules: its moves up to the first
/// one that is not legal (that one an `illegal_move` problem), its tags ([`tags`]), each
/// engine evaluation as a `[%eval …]` comment. Problems name line `line` of the input.
pub fn convert(game: TzGame, line: u32, options: &ReplayOptions) -> ReplayedGame {
    let id = game.id.clone().unwrap_or_else(|| "(no id)".to_string());
    let result = result_of(&game);
    let mut record = GameRecord {
        tags: tags(&game),
        result: Some(ResultToken::new(result)),
        span: Span {
            line,
            column: 1,
            ..Span::default()
        },
        ..GameRecord::default()
    };
    let mut nodes = Vec::with_capacity(game.moves.len());
    let mut pos = Position::start(Color::White);
    let mut bad = None;
    for (ply, m) in game.moves.iter().enumerate() {
        let legal = pos.legal_moves(Variant::Tanzanian);
        let mv = match mismatch(&pos, &legal, m) {
            Ok(mv) => mv,
            Err(reason) => {
                bad = Some(illegal(&id, &pos, &legal, m, ply, line, &reason));
                break;
            }
        };
        let mut node = MoveNode::new(move_token(&mv, &legal, false, false));
        if pos.turn() == Color::White {
            node.number = Some(MoveNumber {
                number: (ply / 2 + 1) as u32,
                ellipsis: false,
                span: Span::default(),
            });
        }
        if let Some(eval) = m.engine_eval {
            let eval = eval.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            node.comments.push(Comment {
                text: drafti_pdn::eval_command(eval),
                span: Span::default(),
            });
        }
        nodes.push(node);
        pos = pos.play(&mv);
    }
    let options = ReplayOptions {
        variant_override: Some(Variant::Tanzanian),
        ..options.clone()
    };
    if let Some(problem) = &bad {
        // The message quotes the record (its id, its notation): no brace may end the comment.
        let text = format!("the record is cut here: {}", problem.message)
            .replace('{', "(")
            .replace('}', ")");
        let comment = Comment {
            text,
            span: Span::default(),
        };
        match nodes.last_mut() {
            Some(node) => node.comments.push(comment),
            None => record.leading_comments.push(comment),
        }
    }
    record.moves = Line {
        nodes,
        leading_comments: Vec::new(),
    };
    let mut replayed = match bad {
        Some(_) => replay_partial(record, &options),
        None => replay(record, &options),
    };
    for p in &mut replayed.problems {
        if p.span.line == 0 {
            p.span.line = line;
            p.span.column = 1;
        }
        p.message = format!("TzDraft game {id}: {}", p.message);
    }
    if let Some(problem) = bad {
        replayed.problems.push(problem);
    }
    replayed
}

fn illegal(
    id: &str,
    pos: &Position,
    legal: &[Move],
    m: &TzMove,
    ply: usize,
    line: u32,
    reason: &str,
) -> Problem {
    let number = m.move_number.unwrap_or(ply as i64 + 1);
    let text = written(m);
    let message = format!(
        "TzDraft game {id}: illegal move {number} ({text}) at ply {} ({} to move): {reason}",
        ply + 1,
        pos.turn()
    );
    Problem {
        severity: Severity::Error,
        kind: ProblemKind::IllegalMove,
        span: Span {
            line,
            column: 1,
            ..Span::default()
        },
        ply: Some(ply + 1),
        move_text: Some(text),
        message,
        fen: Some(pos.to_fen()),
        legal: legal.iter().map(|mv| mv.notation(legal, false)).collect(),
        in_variation: false,
    }
}

#[cfg(test)]
mod tests;
