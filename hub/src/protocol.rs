//! The text of Hub protocol version 2: lines of `command arg=value arg="quoted value" flag`,
//! position strings, moves, scores — read into typed values with errors, and written back.
//!
//! Both sides use this module: the engine loop ([`crate::engine`]) reads GUI commands with
//! [`Command::parse`], the client ([`crate::client`]) reads engine answers with
//! [`Message::parse`].
//!
//! On 8×8 boards the squares are numbered the standard way (square 1 = b8 … 32 = g1, White's
//! men on 21–32, Black's on 1–12): a position string is `W` or `B` (the side to move) and one
//! character per square 1…32 (`w` `b` white and black men, `W` `B` kings, `e` empty); a quiet
//! move is `22-18`; a capture is the start, the end, then every captured square, all joined
//! by `x` (`26x17x22`: from 26 to 17, taking 22), the captured squares in any order.

use drafti_engine::Score;
use drafti_rules::{Bitboard, Color, Move, Position, SetupError, Square, Variant};
use std::fmt;
use std::time::Duration;

/// One protocol line: a command word and its arguments, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The first word.
    pub command: String,
    /// `(name, value)`; a flag (no `=`) has the value `None`.
    pub args: Vec<(String, Option<String>)>,
}

/// Why a line is not `command arg=value ...`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A `"` that is never closed.
    #[error("unterminated quote in the value of '{0}'")]
    UnterminatedQuote(String),
    /// `=value` with no name before it.
    #[error("'=' without an argument name")]
    MissingName,
    /// A quoted value glued to more text (`a="x"y`).
    #[error("text right after the closing quote of '{0}'")]
    AfterQuote(String),
}

impl Message {
    /// A message with no arguments yet.
    pub fn new(command: &str) -> Message {
        Message {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// Adds `name=value`.
    pub fn arg(mut self, name: &str, value: impl fmt::Display) -> Message {
        self.args.push((name.to_string(), Some(value.to_string())));
        self
    }

    /// Reads a line; `Ok(None)` for a blank one.
    ///
    /// ```
    /// use drafti_hub::protocol::Message;
    /// let m = Message::parse(r#"pos pos=We moves="22-18 9-13" x"#).unwrap().unwrap();
    /// assert_eq!(m.command, "pos");
    /// assert_eq!(m.get("moves"), Some("22-18 9-13"));
    /// assert!(m.has("x"));
    /// assert_eq!(m.to_string(), r#"pos pos=We moves="22-18 9-13" x"#);
    /// ```
    pub fn parse(line: &str) -> Result<Option<Message>, SyntaxError> {
        let mut rest = line.trim_start();
        let Some(end) = rest.find(char::is_whitespace).or(Some(rest.len())) else {
            return Ok(None);
        };
        if rest.is_empty() {
            return Ok(None);
        }
        let command = rest[..end].to_string();
        rest = &rest[end..];
        let mut args = Vec::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let name_end = rest
                .find(|c: char| c == '=' || c.is_whitespace())
                .unwrap_or(rest.len());
            let name = &rest[..name_end];
            rest = &rest[name_end..];
            // `name = value` with spaces around '=' reads like `name=value`.
            let after = rest.trim_start();
            if !after.starts_with('=') {
                if name.is_empty() {
                    return Err(SyntaxError::MissingName);
                }
                args.push((name.to_string(), None));
                continue;
            }
            if name.is_empty() {
                return Err(SyntaxError::MissingName);
            }
            rest = after[1..].trim_start();
            let value = if let Some(quoted) = rest.strip_prefix('"') {
                let close = quoted
                    .find('"')
                    .ok_or_else(|| SyntaxError::UnterminatedQuote(name.to_string()))?;
                let value = &quoted[..close];
                rest = &quoted[close + 1..];
                if rest.starts_with(|c: char| !c.is_whitespace()) {
                    return Err(SyntaxError::AfterQuote(name.to_string()));
                }
                value
            } else {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                let value = &rest[..end];
                rest = &rest[end..];
                value
            };
            args.push((name.to_string(), Some(value.to_string())));
        }
        Ok(Some(Message { command, args }))
    }

    /// The value of the first argument `name` (`""` for a flag).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether an argument `name` is there (flag or not).
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// `command a=1 b="two words" c=say"so"`: a value is quoted when it is empty, holds white
/// space or starts with `"` (and, to read better, when it holds `=` and no `"`), and written
/// as it is otherwise, a `"` inside included: a bare value reads up to the next white space.
/// So every message [`Message::parse`] reads is written back as a line that reads the same.
/// What a line cannot hold is changed: a line break becomes a space, and a `"` in a quoted
/// value becomes `'` (the protocol has no escape).
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.command)?;
        for (name, value) in &self.args {
            write!(f, " {name}")?;
            let Some(value) = value else { continue };
            let value = value.replace(['\n', '\r'], " ");
            let must_quote =
                value.is_empty() || value.contains(char::is_whitespace) || value.starts_with('"');
            if must_quote {
                write!(f, "=\"{}\"", value.replace('"', "'"))?;
            } else if value.contains('=') && !value.contains('"') {
                write!(f, "=\"{value}\"")?; // easier to read
            } else {
                write!(f, "={value}")?;
            }
        }
        Ok(())
    }
}

/// The longest protocol line read whole (64 KiB): a `pos` with the moves of a 300-ply game is
/// under 3 KB, an `info` with a long line well under 1 KB. The rest of a longer line is
/// dropped as it is read, so a peer that sends one without end costs no memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads one line of at most `limit` bytes (its newline not counted) into `line` (cleared
/// first, the newline kept if there was one), dropping the rest of a longer line as it goes.
/// `Ok(None)` at the end of the input; else the number of bytes dropped (0: the line is
/// whole).
///
/// ```
/// use drafti_hub::protocol::read_line_bounded;
/// let mut input = &b"ping\nxxxxxxxxxx\nquit"[..];
/// let mut line = Vec::new();
/// assert_eq!(read_line_bounded(&mut input, 4, &mut line).unwrap(), Some(0));
/// assert_eq!(line, b"ping\n");
/// assert_eq!(read_line_bounded(&mut input, 4, &mut line).unwrap(), Some(6));
/// assert_eq!(line, b"xxxx\n");
/// assert_eq!(read_line_bounded(&mut input, 4, &mut line).unwrap(), Some(0));
/// assert_eq!(line, b"quit");
/// assert_eq!(read_line_bounded(&mut input, 4, &mut line).unwrap(), None);
/// ```
pub fn read_line_bounded<R: std::io::BufRead + ?Sized>(
    reader: &mut R,
    limit: usize,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<u64>> {
    line.clear();
    let mut dropped = 0u64;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(dropped));
        }
        read_any = true;
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let take = limit.saturating_sub(line.len()).min(chunk.len());
        line.extend_from_slice(&chunk[..take]);
        dropped += (chunk.len() - take) as u64;
        let used = chunk.len() + usize::from(ends);
        reader.consume(used);
        if ends {
            line.push(b'\n');
            return Ok(Some(dropped));
        }
    }
}

/// The start of a text (its first `chars` characters, then `…`), for a message that
/// quotes what a peer sent.
pub fn excerpt(text: &str, chars: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// How the engine should search once `go` comes: the `level` command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    /// `depth=`: plies.
    pub depth: Option<u32>,
    /// `nodes=` (not in the protocol text; pydraughts sends it).
    pub nodes: Option<u64>,
    /// `move-time=`: seconds for this move.
    pub move_time: Option<Duration>,
    /// `time=`: the engine's remaining time.
    pub time: Option<Duration>,
    /// `moves=`: moves to play in `time` (none: sudden death).
    pub moves: Option<u32>,
    /// `inc=`: added before every move.
    pub inc: Option<Duration>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
}

/// The three kinds of search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Play a move on the engine's clock.
    Think,
    /// Search the position after the expected answer; the clock starts at `ponder-hit`.
    Ponder,
    /// Analysis: the GUI wants the lines and the score.
    Analyze,
}

impl GoMode {
    /// The protocol word.
    pub fn name(self) -> &'static str {
        match self {
            GoMode::Think => "think",
            GoMode::Ponder => "ponder",
            GoMode::Analyze => "analyze",
        }
    }
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `hub`: the engine names itself and its parameters, then `wait`.
    Hub,
    /// `set-param name=... value=...`.
    SetParam {
        /// The parameter.
        name: String,
        /// Its new value, as text.
        value: String,
    },
    /// `init`: allocate, then `ready`.
    Init,
    /// `pos pos=... [moves="..."]`.
    Pos {
        /// The start position.
        position: Position,
        /// The moves played from it since.
        moves: Vec<HubMove>,
    },
    /// `level ...`.
    Level(Level),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ponder-hit`: the expected move was played; the clock runs.
    PonderHit,
    /// `stop`: answer with `done` now.
    Stop,
    /// `new-game`: forget the table.
    NewGame,
    /// `ping`: answer `pong`.
    Ping,
    /// `quit`.
    Quit,
}

/// Why a line is not a command the engine can take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The line's arguments do not read (an open quote, `=` without a name).
    #[error("{0}")]
    Syntax(#[from] SyntaxError),
    /// A command the protocol does not have.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A required argument is absent.
    #[error("{command} needs {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// The argument it needs.
        what: &'static str,
    },
    /// An argument's value is out of range or not of its type.
    #[error("{command}: {argument}={value:?} is not {expected}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The argument's name.
        argument: String,
        /// The value given.
        value: String,
        /// What the value should be.
        expected: &'static str,
    },
    /// `pos`'s position is no position.
    #[error("pos: {0}")]
    Position(#[from] PositionError),
    /// A move of `pos`'s `moves` that does not read as one.
    #[error("pos: move '{text}': {reason}")]
    MoveSyntax {
        /// The move as written.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

fn bad_value(
    command: &'static str,
    name: &str,
    value: &str,
    expected: &'static str,
) -> CommandError {
    CommandError::BadValue {
        command,
        argument: name.to_string(),
        value: value.to_string(),
        expected,
    }
}

/// Seconds as a real number (`1`, `0.25`, `291.587`), never negative.
fn seconds(command: &'static str, name: &str, value: &str) -> Result<Duration, CommandError> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| bad_value(command, name, value, "a number of seconds"))
}

fn number<T: std::str::FromStr>(
    command: &'static str,
    name: &str,
    value: &str,
) -> Result<T, CommandError> {
    value
        .parse::<T>()
        .map_err(|_| bad_value(command, name, value, "a whole number"))
}

impl Level {
    fn parse(m: &Message) -> Result<Level, CommandError> {
        let mut level = Level::default();
        for (name, value) in &m.args {
            let value = value.as_deref().unwrap_or("");
            match name.as_str() {
                "depth" => level.depth = Some(number("level", name, value)?),
                "nodes" => level.nodes = Some(number("level", name, value)?),
                "move-time" => level.move_time = Some(seconds("level", name, value)?),
                "time" => level.time = Some(seconds("level", name, value)?),
                "moves" => level.moves = Some(number("level", name, value)?),
                "inc" => level.inc = Some(seconds("level", name, value)?),
                "infinite" => level.infinite = true,
                _ => {} // the protocol says to ignore what one does not understand
            }
        }
        if level == Level::default() {
            return Err(CommandError::Missing {
                command: "level",
                what: "depth=, nodes=, move-time=, time= or infinite",
            });
        }
        if level.time.is_none() && (level.moves.is_some() || level.inc.is_some()) {
            return Err(CommandError::Missing {
                command: "level",
                what: "time= with moves= or inc=",
            });
        }
        Ok(level)
    }
}

impl Command {
    /// Reads a GUI line; `Ok(None)` for a blank one. Unknown arguments are ignored (the
    /// protocol's rule for extensions); unknown commands are an error.
    ///
    /// ```
    /// use drafti_hub::protocol::{Command, CommandError, GoMode};
    /// use drafti_rules::{Color, Position};
    /// assert_eq!(Command::parse("go think").unwrap(), Some(Command::Go(GoMode::Think)));
    /// let pos = Command::parse(r#"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-18 11-15""#);
    /// let Ok(Some(Command::Pos { position, moves })) = pos else { panic!("{pos:?}") };
    /// assert_eq!(position, Position::start(Color::White));
    /// assert_eq!(moves[1].text, "11-15");
    /// assert!(matches!(Command::parse("fly away"), Err(CommandError::Unknown(_))));
    /// ```
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let Some(m) = Message::parse(line)? else {
            return Ok(None);
        };
        let command = match m.command.as_str() {
            "hub" => Command::Hub,
            "init" => Command::Init,
            "set-param" => Command::SetParam {
                name: m
                    .get("name")
                    .filter(|n| !n.is_empty())
                    .ok_or(CommandError::Missing {
                        command: "set-param",
                        what: "name=",
                    })?
                    .to_string(),
                value: m
                    .get("value")
                    .ok_or(CommandError::Missing {
                        command: "set-param",
                        what: "value=",
                    })?
                    .to_string(),
            },
            "pos" => {
                let text = m.get("pos").ok_or(CommandError::Missing {
                    command: "pos",
                    what: "pos=<position>",
                })?;
                let position = parse_position(text)?;
                let moves = m
                    .get("moves")
                    .unwrap_or("")
                    .split_whitespace()
                    .map(HubMove::parse)
                    .collect::<Result<Vec<_>, _>>()?;
                Command::Pos { position, moves }
            }
            "level" => Command::Level(Level::parse(&m)?),
            "go" => {
                let mode = [GoMode::Think, GoMode::Ponder, GoMode::Analyze]
                    .into_iter()
                    .find(|mode| m.has(mode.name()))
                    .ok_or(CommandError::Missing {
                        command: "go",
                        what: "think, ponder or analyze",
                    })?;
                Command::Go(mode)
            }
            "ponder-hit" => Command::PonderHit,
            "stop" => Command::Stop,
            "new-game" => Command::NewGame,
            "ping" => Command::Ping,
            "quit" => Command::Quit,
            other => return Err(CommandError::Unknown(other.to_string())),
        };
        Ok(Some(command))
    }
}

/// Why a position string is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not 33 characters (the side and 32 squares).
    #[error("a position is W or B and 32 squares of w, b, W, B or e (got {0} characters)")]
    Length(usize),
    /// The first character is not `W` or `B`.
    #[error("the side to move is W or B, not '{0}'")]
    Side(char),
    /// A square's character is none of the five.
    #[error("square {square}: '{found}' is none of w, b, W, B, e")]
    Square {
        /// The square (1–32).
        square: u8,
        /// The character found there.
        found: char,
    },
    /// The pieces do not make a position (a man on its crowning row, too many pieces).
    #[error("{0}")]
    Setup(String),
    /// A FEN that does not read.
    #[error("FEN: {0}")]
    Fen(String),
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> Self {
        PositionError::Setup(e.to_string())
    }
}

/// Reads a Hub position string (`Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` is the start). As an
/// extension, a PDN FEN (`W:W21-32:B1-12`, it has a `:`) is read too.
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    if text.contains(':') {
        return Position::from_fen(text).map_err(|e| PositionError::Fen(e.to_string()));
    }
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(PositionError::Length(chars.len()));
    }
    let turn = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(PositionError::Side(c)),
    };
    let (mut white, mut black, mut kings) = (0u32, 0u32, 0u32);
    for (i, &c) in chars[1..].iter().enumerate() {
        let bit = 1u32 << i;
        match c {
            'w' => white |= bit,
            'b' => black |= bit,
            'W' => {
                white |= bit;
                kings |= bit;
            }
            'B' => {
                black |= bit;
                kings |= bit;
            }
            'e' | 'E' | '.' => {}
            found => {
                return Err(PositionError::Square {
                    square: i as u8 + 1,
                    found,
                })
            }
        }
    }
    Ok(Position::from_parts(
        Bitboard(white),
        Bitboard(black),
        Bitboard(kings),
        turn,
    )?)
}

/// The Hub position string of `pos`.
pub fn position_string(pos: &Position) -> String {
    let mut out = String::with_capacity(33);
    out.push(pos.turn().letter());
    for sq in Square::ALL {
        out.push(match pos.piece_at(sq) {
            None => 'e',
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            },
        });
    }
    out
}

/// A move as Hub writes it: start, end and (for a capture) the captured squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubMove {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// Whether it was written as a capture (`x`).
    pub capture: bool,
    /// The captured squares written (all of them, or none at all).
    pub captured: Bitboard,
    /// The text as written.
    pub text: String,
}

/// Why a Hub move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// No legal move goes that way.
    #[error("move {0} is not legal in the position")]
    Illegal(String),
    /// Several captures match the squares written.
    #[error("move {0} can be several captures: write every captured square")]
    Ambiguous(String),
}

impl HubMove {
    /// Reads `22-18` or `26x17x22` (`:` is read as `x`).
    pub fn parse(text: &str) -> Result<HubMove, CommandError> {
        let syntax = |reason| CommandError::MoveSyntax {
            text: text.to_string(),
            reason,
        };
        let capture = text.contains(['x', 'X', ':']);
        let parts: Vec<&str> = if capture {
            if text.contains('-') {
                return Err(syntax("mixes '-' and 'x'"));
            }
            text.split(['x', 'X', ':']).collect()
        } else {
            text.split('-').collect()
        };
        if parts.len() < 2 || (!capture && parts.len() != 2) {
            return Err(syntax("expected from-to or from x to x captured…"));
        }
        let mut squares = Vec::with_capacity(parts.len());
        for part in parts {
            let n: u8 = part
                .parse()
                .map_err(|_| syntax("squares are numbers 1-32"))?;
            squares.push(Square::from_number(n).ok_or(syntax("squares are numbers 1-32"))?);
        }
        let mut captured = 0u32;
        for sq in &squares[2..] {
            let bit = 1u32 << sq.index();
            if captured & bit != 0 {
                return Err(syntax("a captured square is written twice"));
            }
            captured |= bit;
        }
        Ok(HubMove {
            from: squares[0],
            to: squares[1],
            capture,
            captured: Bitboard(captured),
            text: text.to_string(),
        })
    }

    /// The legal move of `pos` this text names.
    pub fn resolve(&self, pos: &Position, variant: Variant) -> Result<Move, MoveError> {
        let mut found = pos.legal_moves(variant).into_iter().filter(|m| {
            m.from() == self.from
                && m.to() == self.to
                && m.is_capture() == self.capture
                && (self.captured.0 == 0 || m.captured() == self.captured)
        });
        match (found.next(), found.next()) {
            (Some(mv), None) => Ok(mv),
            (Some(_), Some(_)) => Err(MoveError::Ambiguous(self.text.clone())),
            (None, _) => Err(MoveError::Illegal(self.text.clone())),
        }
    }
}

/// `mv` in Hub notation: `22-18`, or `26x17x22` with the captured squares in ascending order.
pub fn move_string(mv: &Move) -> String {
    let mut out = format!("{}", mv.from().number());
    if mv.is_capture() {
        out.push_str(&format!("x{}", mv.to().number()));
        let mut captured = mv.captured().0;
        while captured != 0 {
            let index = captured.trailing_zeros();
            captured &= captured - 1;
            out.push_str(&format!("x{}", index + 1));
        }
    } else {
        out.push_str(&format!("-{}", mv.to().number()));
    }
    out
}

/// The moves of a line in Hub notation, separated by spaces.
pub fn line_string(moves: &[Move]) -> String {
    moves.iter().map(move_string).collect::<Vec<_>>().join(" ")
}

/// A score in men, as Scan writes it: an estimate is `0.35` or `-1.20`; a proven result is
/// `±(100 - plies/100)`, so a win in 7 plies is `99.93` and a loss in 4 is `-99.96` (a
/// reader that takes values beyond ±90 as "the end of the game soon", as pydraughts does,
/// gets the distance back). Estimates are kept within ±89.99.
pub fn score_string(score: Score) -> String {
    let centi = if let Some(n) = score.win_distance() {
        10_000 - n.min(999) as i32
    } else if let Some(n) = score.loss_distance() {
        -(10_000 - n.min(999) as i32)
    } else {
        score.as_centi_men().unwrap_or(0).clamp(-8_999, 8_999)
    };
    let sign = if centi < 0 { "-" } else { "" };
    let v = centi.unsigned_abs();
    format!("{sign}{}.{:02}", v / 100, v % 100)
}

/// Reads a score written by [`score_string`] (or any engine's real number of men) back into
/// a [`Score`]; `None` if it is not a number.
pub fn parse_score(text: &str) -> Option<Score> {
    let value: f64 = text.parse().ok().filter(|v: &f64| v.is_finite())?;
    let centi = (value * 100.0).round() as i64;
    Some(if centi >= 9_000 {
        Score::win_in((10_000 - centi).max(0) as u32)
    } else if centi <= -9_000 {
        Score::loss_in((10_000 + centi).max(0) as u32)
    } else {
        Score::centi_men(centi as i32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_and_write() {
        let m = Message::parse(r#"  pos pos=Wee moves="22-18 9-13"  flag  x = 3 "#)
            .unwrap()
            .unwrap();
        assert_eq!(m.command, "pos");
        assert_eq!(m.get("pos"), Some("Wee"));
        assert_eq!(m.get("moves"), Some("22-18 9-13"));
        assert_eq!(m.get("flag"), Some(""));
        assert_eq!(m.get("x"), Some("3"));
        assert!(m.has("flag") && !m.has("nothing"));
        assert_eq!(Message::parse("   ").unwrap(), None);
        assert_eq!(
            Message::parse(r#"id name="no end"#),
            Err(SyntaxError::UnterminatedQuote("name".into()))
        );
        assert_eq!(Message::parse("id =x"), Err(SyntaxError::MissingName));
        assert_eq!(
            Message::parse(r#"id a="x"y"#),
            Err(SyntaxError::AfterQuote("a".into()))
        );
        let out = Message::new("info")
            .arg("depth", 7)
            .arg("pv", "22-18 9-13")
            .arg("empty", "")
            .arg("q", "say \"hi\"")
            .to_string();
        assert_eq!(out, r#"info depth=7 pv="22-18 9-13" empty="" q="say 'hi'""#);
        let back = Message::parse(&out).unwrap().unwrap();
        assert_eq!(back.get("pv"), Some("22-18 9-13"));
        assert_eq!(back.get("empty"), Some(""));
    }

    #[test]
    fn every_message_read_is_written_back_as_a_line_that_reads_the_same() {
        // Issue 41: a `"` inside a bare value (`a=x"y`) was written `'`, so the `hub_command`
        // fuzz target failed within 25 runs and fuzzed nothing else.
        for line in [
            r#"id a=x"y"#,
            r#"id a=x"y" b="two words""#,
            r#"id a=x""#,
            r#"id a=x=y b="=" c=="#,
            "id a=\u{85}x b=\"\u{3000}\"",
            "x\"y\" a\"=1 \"b",
            r#"pos pos=W:W21:B1 moves="""#,
        ] {
            let m = Message::parse(line).unwrap().unwrap();
            let again = Message::parse(&m.to_string()).unwrap();
            assert_eq!(again.as_ref(), Some(&m), "{line} -> {m}");
        }
        assert_eq!(
            Message::parse(r#"id a=x"y"#).unwrap().unwrap().to_string(),
            r#"id a=x"y"#
        );
        // Random lines of the characters that matter.
        let alphabet: Vec<char> = " \t=\"ab1\u{85}\u{3000}'".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut line = String::new();
            for _ in 0..(state % 14) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                line.push(alphabet[(state >> 33) as usize % alphabet.len()]);
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            if let Ok(Some(m)) = Message::parse(&line) {
                let again = Message::parse(&m.to_string());
                assert_eq!(again, Ok(Some(m.clone())), "{line:?} -> {m}");
            }
        }
        // What a line cannot hold is changed: a line break, a `"` in a quoted value.
        let m = Message::new("info").arg("a", "x\ny").arg("b", "\"q\"");
        assert_eq!(m.to_string(), r#"info a="x y" b="'q'""#);
    }

    #[test]
    fn commands() {
        assert_eq!(Command::parse("hub").unwrap(), Some(Command::Hub));
        assert_eq!(
            Command::parse("go think").unwrap(),
            Some(Command::Go(GoMode::Think))
        );
        assert!(matches!(
            Command::parse("go"),
            Err(CommandError::Missing { command: "go", .. })
        ));
        assert!(matches!(
            Command::parse("fly away"),
            Err(CommandError::Unknown(_))
        ));
        let Some(Command::Level(level)) =
            Command::parse("level moves=9 time=291.587 inc=0.5 extra=1").unwrap()
        else {
            panic!("a level");
        };
        assert_eq!(level.moves, Some(9));
        assert_eq!(level.time, Some(Duration::from_secs_f64(291.587)));
        assert_eq!(level.inc, Some(Duration::from_millis(500)));
        assert!(Command::parse("level").is_err());
        assert!(Command::parse("level time=-1").is_err());
        assert!(Command::parse("level time=nan").is_err());
        assert!(Command::parse("level moves=3").is_err());
        assert!(Command::parse("level depth=x").is_err());
        assert!(matches!(
            Command::parse("level infinite").unwrap(),
            Some(Command::Level(Level { infinite: true, .. }))
        ));
        assert!(Command::parse("set-param name=hash").is_err());
        assert!(Command::parse("pos").is_err());
        assert!(Command::parse("pos pos=W").is_err());
        assert!(Command::parse("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-\"").is_err());
        let Some(Command::Pos { position, moves }) =
            Command::parse("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18 11-15\"")
                .unwrap()
        else {
            panic!("a position");
        };
        assert_eq!(position, Position::start(Color::White));
        assert_eq!(moves.len(), 2);
    }

    #[test]
    fn positions_round_trip() {
        let start = Position::start(Color::White);
        assert_eq!(position_string(&start), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        let pos = Position::from_fen("B:WK1,22,30:B5,K18").unwrap();
        assert_eq!(parse_position(&position_string(&pos)).unwrap(), pos);
        assert_eq!(parse_position("W:W21-32:B1-12").unwrap(), start);
        assert!(matches!(
            parse_position("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
            Err(PositionError::Side('X'))
        ));
        assert!(matches!(
            parse_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwz"),
            Err(PositionError::Square {
                square: 32,
                found: 'z'
            })
        ));
        // A white man on Black's back row (square 1) is no position.
        assert!(matches!(
            parse_position(&format!("Ww{}b", "e".repeat(30))),
            Err(PositionError::Setup(_))
        ));
    }

    #[test]
    fn moves_round_trip() {
        let pos = Position::from_fen("W:W26:B22,14").unwrap();
        let legal = pos.legal_moves(Variant::Tanzanian);
        assert_eq!(legal.len(), 1);
        let text = move_string(&legal[0]);
        assert_eq!(text, "26x10x14x22");
        let parsed = HubMove::parse(&text).unwrap();
        assert_eq!(parsed.resolve(&pos, Variant::Tanzanian), Ok(legal[0]));
        // Captured squares in any order; or none at all when start and end say enough.
        let any_order = HubMove::parse("26x10x22x14").unwrap();
        assert_eq!(any_order.resolve(&pos, Variant::Tanzanian), Ok(legal[0]));
        let short = HubMove::parse("26x10").unwrap();
        assert_eq!(short.resolve(&pos, Variant::Tanzanian), Ok(legal[0]));
        let wrong = HubMove::parse("26x10x22").unwrap();
        assert!(matches!(
            wrong.resolve(&pos, Variant::Tanzanian),
            Err(MoveError::Illegal(_))
        ));
        let quiet = HubMove::parse("26-23").unwrap();
        assert!(quiet.resolve(&pos, Variant::Tanzanian).is_err());
        for bad in [
            "26",
            "26-",
            "x",
            "26-23-19",
            "0-4",
            "33-28",
            "26x10x14x14",
            "2a-3",
        ] {
            assert!(HubMove::parse(bad).is_err(), "{bad}");
        }
        let start = Position::start(Color::White);
        let mv = HubMove::parse("22-18")
            .unwrap()
            .resolve(&start, Variant::Russian)
            .unwrap();
        assert_eq!(move_string(&mv), "22-18");
    }

    #[test]
    fn scores() {
        assert_eq!(score_string(Score::centi_men(35)), "0.35");
        assert_eq!(score_string(Score::centi_men(-120)), "-1.20");
        assert_eq!(score_string(Score::centi_men(-5)), "-0.05");
        assert_eq!(score_string(Score::DRAW), "0.00");
        assert_eq!(score_string(Score::win_in(7)), "99.93");
        assert_eq!(score_string(Score::loss_in(4)), "-99.96");
        for s in [
            Score::centi_men(35),
            Score::centi_men(-120),
            Score::win_in(7),
            Score::loss_in(0),
            Score::DRAW,
        ] {
            assert_eq!(parse_score(&score_string(s)), Some(s));
        }
        assert_eq!(parse_score("-0.01"), Some(Score::centi_men(-1)));
        assert_eq!(parse_score("x"), None);
        assert_eq!(parse_score("inf"), None);
    }
}
