//! Stage 2: the grammar. [`parse_game`] turns the bytes of one game ([`RawGame`]) into a
//! [`GameRecord`].
//!
//! ```text
//! game      = { ws | comment | tag } movetext [ result { ws | comment } ]
//! tag       = "[" name ws* '"' value '"' ws* "]"        value: \" and \\ escapes, one line
//! movetext  = { number | move | strength | nag | comment | "(" movetext ")" | "..." | "…" }
//! number    = digits ( "." | "..." | "…" )              also "12. ..." (dots after spaces)
//! move      = square ( sep? square )+                    sep: "-" "x" "X" ":"
//! square    = letter digits | digits                     checked by drafti_rules::Square
//! strength  = "!!" | "??" | "!?" | "?!" | "!" | "?"      read as NAGs $3 $4 $5 $6 $1 $2
//! nag       = "$" digits                                 0…255
//! result    = "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "0-0" | "*"
//! comment   = "{" any but "}" "}"  |  "%" to the end of a line (at the start of a line)
//! ```
//! The token recognisers are nom parsers over bytes; a small driver loop attaches what it
//! reads to the right move and keeps a stack of open variations (no recursion, so no input
//! can overflow the stack; nesting is limited to [`MAX_VARIATION_DEPTH`]).

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::digit1;
use nom::combinator::recognize;
use nom::sequence::pair;
use nom::{IResult, Parser as _};

use drafti_rules::Square;
use thin_vec::ThinVec;

use crate::ast::{
    Comment, GameRecord, GameResult, Line, MoveNumber, MoveSquares, MoveText, MoveToken, Nag,
    ParseWarning, ResultToken, Separator, Tag, WarningKind,
};
use crate::encoding::decode_text;
use crate::error::ParseError;
use crate::span::{Locator, Span};
use crate::split::{is_delimiter, is_space, RawGame};

/// How deep variations may nest: `(` inside `(` … this many times.
pub const MAX_VARIATION_DEPTH: usize = 256;

const EXPECT_MOVETEXT: &str = "a move, move number, comment, variation or result";

type Res<'a, T> = IResult<&'a [u8], T, ()>;

/// Parses one game; a syntax error makes the whole game an error (its position is absolute
/// in the file, from the [`RawGame`]'s offset, line and column).
///
/// ```
/// use drafti_pdn::{parse_game, GameResult, RawGame};
/// let raw = RawGame::from_bytes(0, &b"[Event \"Dar es Salaam\"]\n1. c3-d4 d6xb4xd2 2-0"[..]);
/// let game = parse_game(&raw).unwrap();
/// assert_eq!(game.tag("Event"), Some("Dar es Salaam"));
/// assert_eq!(game.moves.nodes[1].mv.squares.len(), 3);
/// assert_eq!(game.result.unwrap().result, GameResult::WhiteWin);
/// ```
pub fn parse_game(raw: &RawGame) -> Result<GameRecord, ParseError> {
    let mut p = GameParser::new(raw);
    let parsed = p.game();
    if raw.truncated {
        let span = p.loc.span(0, 0);
        let mut e = p.error_at(
            span,
            format!(
                "game is longer than the limit of {} bytes; only its start was read",
                raw.bytes.len()
            ),
            "a shorter game",
            "more text",
        );
        e.record = match parsed {
            Ok(game) => Some(Box::new(game)),
            Err(inner) => inner.record,
        };
        return Err(e);
    }
    parsed
}

/// The driver: a cursor over one game's bytes.
struct GameParser<'a> {
    input: &'a [u8],
    pos: usize,
    index: usize,
    loc: Locator<'a>,
    at_line_start: bool,
    /// End of the last token read (for the game's span).
    last_token_end: usize,
    warnings: Vec<ParseWarning>,
    /// What was read although PDN writes it otherwise: one warning per kind per game.
    unusual: [Unusual; 4],
}

/// How often one non-standard spelling was met, and where first.
#[derive(Default, Clone, Copy)]
struct Unusual {
    count: usize,
    /// The first one: `input[at..at + len]` (located when the game ends, so noting it
    /// never moves the locator backwards).
    at: usize,
    len: usize,
}

/// The non-standard spellings read (indexes into `GameParser::unusual`).
const PAREN_NUMBER: usize = 0;
const SPACED_MOVE: usize = 1;
const UPPER_CASE: usize = 2;
const COMMA: usize = 3;

/// What [`GameParser::move_number`] read.
enum NumberToken {
    Number(MoveNumber),
    /// Digits not followed by dots: a numeric move such as `22-18`.
    NotANumber,
    /// A number too large for a `u32`, at `input[start..end]`.
    TooLarge {
        start: usize,
        end: usize,
    },
}

/// An open variation: the line it branches from and where its `(` is.
struct Frame {
    line: Line,
    open: Span,
    pending: Option<MoveNumber>,
}

impl<'a> GameParser<'a> {
    fn new(raw: &'a RawGame) -> Self {
        let mut input = &raw.bytes[..];
        let mut offset = raw.offset;
        if let Some(rest) = input.strip_prefix(b"\xEF\xBB\xBF") {
            input = rest;
            offset += 3;
        }
        GameParser {
            input,
            pos: 0,
            index: raw.index,
            loc: Locator::new(input, offset, raw.line, raw.column),
            at_line_start: raw.column == 1,
            last_token_end: 0,
            warnings: Vec::new(),
            unusual: [Unusual::default(); 4],
        }
    }

    fn rest(&self) -> &'a [u8] {
        &self.input[self.pos..]
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Position after running a nom parser that left `rest` unparsed.
    fn pos_of(&self, rest: &[u8]) -> usize {
        self.input.len() - rest.len()
    }

    #[inline(always)]
    fn span(&mut self, start: usize, end: usize) -> Span {
        self.loc.span(start, end - start)
    }

    fn error_at(
        &self,
        span: Span,
        message: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        ParseError {
            index: self.index,
            span,
            expected: expected.into(),
            found: found.into(),
            message: message.into(),
            record: None,
        }
    }

    /// An error about the text at `at`, showing the token found there.
    fn error_here(&mut self, at: usize, message: impl Into<String>, expected: &str) -> ParseError {
        let (found, len) = describe(&self.input[at..]);
        let span = self.loc.span(at, len);
        self.error_at(span, message, expected, found)
    }

    /// Skips whitespace and `%` line comments.
    #[inline(always)]
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if is_space(b) {
                if b == b'\n' || b == b'\r' {
                    self.at_line_start = true;
                }
                self.pos += 1;
            } else if b == b'%' && self.at_line_start {
                match memchr::memchr2(b'\n', b'\r', self.rest()) {
                    Some(k) => self.pos += k,
                    None => self.pos = self.input.len(),
                }
            } else if b != 0xEF || !self.skip_bom() {
                return;
            }
        }
    }

    /// Skips a byte-order mark at `self.pos` (where two files were joined: white space).
    #[cold]
    fn skip_bom(&mut self) -> bool {
        let bom = self.rest().starts_with(b"\xEF\xBB\xBF");
        if bom {
            self.pos += 3;
        }
        bom
    }

    fn game(&mut self) -> Result<GameRecord, ParseError> {
        let mut game = GameRecord {
            index: self.index,
            tags: Vec::with_capacity(8),
            ..GameRecord::default()
        };
        let mut first: Option<usize> = None;
        // A broken tag line is skipped (its error kept) so the rest of the game is read.
        let mut tag_error: Option<ParseError> = None;
        // Tag section (comments before and between tags are leading comments).
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'[') => {
                    first.get_or_insert(self.pos);
                    match self.tag_pair() {
                        Ok(t) => game.tags.push(t),
                        Err(e) => {
                            tag_error.get_or_insert(e);
                            self.skip_line();
                        }
                    }
                }
                Some(b'{') => {
                    first.get_or_insert(self.pos);
                    match self.comment() {
                        Ok(c) => game.leading_comments.push(c),
                        Err(e) => return Err(self.partial(tag_error.unwrap_or(e), game, first)),
                    }
                }
                _ => break,
            }
            self.at_line_start = false;
        }
        let movetext_start = *first.get_or_insert(self.pos);
        let mut line = Line::default();
        let mut stack = Vec::new();
        if let Err(mut e) = self.movetext(&mut game, &mut line, &mut stack) {
            if game.tags.is_empty()
                && game.leading_comments.is_empty()
                && tag_error.is_none()
                && e.span.offset == self.loc.span(movetext_start, 0).offset
            {
                // Not even the first token is PDN: text between games (or not PDN at all).
                e.message = "unexpected text between games".to_string();
                e.expected = "a tag ('[') or a move".to_string();
                return Err(e);
            }
            // The mainline read so far (the outermost line, when inside a variation).
            game.moves = match stack.into_iter().next() {
                Some(frame) => frame.line,
                None => line,
            };
            return Err(self.partial(tag_error.unwrap_or(e), game, first));
        }
        if let Some(e) = tag_error {
            return Err(self.partial(e, game, first));
        }
        self.finish(&mut game, first);
        Ok(game)
    }

    /// Sets the game's span and warnings.
    fn finish(&mut self, game: &mut GameRecord, first: Option<usize>) {
        let first = first.unwrap_or(0);
        let end = self.last_token_end.max(first);
        game.span = self.span(first, end);
        self.unusual_warnings();
        if let Some(r) = &game.result {
            let unrecorded = self
                .warnings
                .iter()
                .any(|w| w.kind == WarningKind::MovesNotRecorded);
            let winner = match r.result {
                GameResult::WhiteWin => Some("White"),
                GameResult::BlackWin => Some("Black"),
                _ => None,
            };
            if let (true, false, Some(winner)) = (game.moves.nodes.is_empty(), unrecorded, winner) {
                self.warnings.push(ParseWarning {
                    kind: WarningKind::Forfeit,
                    span: r.span,
                    message: format!(
                        "the game has no moves and the result {}: read as a forfeit ({winner} \
                         wins without a move played)",
                        r.text
                    ),
                });
            }
        }
        if game.result.is_none() {
            let at = self.span(end, end);
            self.warnings.push(ParseWarning {
                kind: WarningKind::MissingResult,
                span: at,
                message: "the game has no result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0 or *) \
                          at the end of its moves"
                    .to_string(),
            });
        }
        game.warnings = std::mem::take(&mut self.warnings);
    }

    /// The error `e`, carrying what was read of the game.
    #[cold]
    fn partial(
        &mut self,
        mut e: ParseError,
        mut game: GameRecord,
        first: Option<usize>,
    ) -> ParseError {
        let first = first.unwrap_or(0);
        let end = self.last_token_end.max(first);
        game.span = self.span(first, end);
        self.unusual_warnings();
        game.warnings = std::mem::take(&mut self.warnings);
        e.record = Some(Box::new(game));
        e
    }

    /// One warning for each non-standard spelling met.
    fn unusual_warnings(&mut self) {
        for (kind, u) in self.unusual.into_iter().enumerate() {
            if u.count == 0 {
                continue;
            }
            let times = if u.count == 1 {
                String::new()
            } else {
                format!(" ({} times)", u.count)
            };
            let message = match kind {
                PAREN_NUMBER => format!("move number written with ')'{times}: read as '.'"),
                SPACED_MOVE => format!(
                    "move written with spaces around its separator{times}: read as one move"
                ),
                UPPER_CASE => {
                    format!("square names in upper case{times}: read as lower case (a3, not A3)")
                }
                _ => format!("comma between moves{times}: read as a space"),
            };
            let span = self.loc.span(u.at, u.len);
            self.warnings.push(ParseWarning {
                kind: WarningKind::NonstandardNotation,
                span,
                message,
            });
        }
    }

    /// Notes one non-standard spelling at `input[at..at + len]`.
    #[cold]
    fn note_unusual(&mut self, kind: usize, at: usize, len: usize) {
        let u = &mut self.unusual[kind];
        if u.count == 0 {
            (u.at, u.len) = (at, len);
        }
        u.count += 1;
    }

    /// Skips to the start of the next line (after a broken tag).
    fn skip_line(&mut self) {
        let rest = self.rest();
        self.pos += memchr::memchr2(b'\n', b'\r', rest).map_or(rest.len(), |k| k + 1);
        self.at_line_start = true;
    }

    /// `[Name "value"]` at `self.pos`.
    fn tag_pair(&mut self) -> Result<Tag, ParseError> {
        let start = self.pos;
        let rest = skip_blanks(&self.input[start + 1..]);
        let name_start = self.pos_of(rest);
        let named: Res<'a, &'a [u8]> = recognize(pair(
            take_while1(|b: u8| b.is_ascii_alphanumeric()),
            take_while(|b: u8| b.is_ascii_alphanumeric() || b == b'_'),
        ))
        .parse(rest);
        let Ok((rest, name)) = named else {
            return Err(self.error_here(
                name_start,
                "broken tag: expected a tag name after '['",
                "a tag name",
            ));
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let rest = skip_blanks(rest);
        let quote = self.pos_of(rest);
        if rest.first() != Some(&b'"') {
            return Err(self.error_here(
                quote,
                format!("broken tag: expected '\"' to open the value of tag {name}"),
                "'\"'",
            ));
        }
        // The value: up to the closing quote, on this line.
        let mut raw_value: Vec<u8> = Vec::new();
        let mut escaped = false;
        let mut i = quote + 1;
        let close = loop {
            // A lone `\r` (a CR-only file) ends the line too.
            let found = memchr::memchr3(b'"', b'\\', b'\n', &self.input[i..]);
            let found = match memchr::memchr(
                b'\r',
                &self.input[i..i + found.unwrap_or(self.input.len() - i)],
            ) {
                Some(r) if self.input.get(i + r + 1) != Some(&b'\n') => Some(r),
                _ => found,
            };
            match found {
                Some(k) if self.input[i + k] == b'"' => {
                    raw_value.extend_from_slice(&self.input[i..i + k]);
                    break i + k;
                }
                Some(k) if self.input[i + k] == b'\\' => {
                    escaped = true;
                    raw_value.extend_from_slice(&self.input[i..i + k]);
                    match self.input.get(i + k + 1) {
                        Some(&c @ (b'"' | b'\\')) => {
                            raw_value.push(c);
                            i += k + 2;
                        }
                        _ => {
                            raw_value.push(b'\\');
                            i += k + 1;
                        }
                    }
                }
                other => {
                    let span = self.loc.span(quote, 1);
                    let found = if other.is_some() {
                        "end of line"
                    } else {
                        "end of game"
                    };
                    return Err(self.error_at(
                        span,
                        format!("broken tag: the value of tag {name} has no closing quote"),
                        "'\"'",
                        found,
                    ));
                }
            }
        };
        let value_bytes: &[u8] = if escaped {
            &raw_value
        } else {
            &self.input[quote + 1..close]
        };
        let rest = skip_blanks(&self.input[close + 1..]);
        let bracket = self.pos_of(rest);
        if rest.first() != Some(&b']') {
            return Err(self.error_here(
                bracket,
                format!("broken tag: expected ']' to close tag {name}"),
                "']'",
            ));
        }
        let end = bracket + 1;
        let span = self.span(start, end);
        let (value, legacy) = decode_text(value_bytes);
        let value = value.into_owned();
        if let Some(enc) = legacy {
            self.warnings.push(ParseWarning {
                kind: WarningKind::LegacyEncoding,
                span,
                message: format!("tag {name} is not UTF-8; decoded as {enc}"),
            });
        }
        self.pos = end;
        self.last_token_end = end;
        Ok(Tag { name, value, span })
    }

    /// `{…}` at `self.pos`.
    fn comment(&mut self) -> Result<Comment, ParseError> {
        let start = self.pos;
        let Some(k) = memchr::memchr(b'}', &self.input[start + 1..]) else {
            let span = self.loc.span(start, 1);
            return Err(self.error_at(span, "unterminated comment", "'}'", "end of game"));
        };
        let end = start + k + 2;
        let span = self.span(start, end);
        let (text, legacy) = decode_text(&self.input[start + 1..end - 1]);
        let text = text.into_owned();
        if let Some(enc) = legacy {
            self.warnings.push(ParseWarning {
                kind: WarningKind::LegacyEncoding,
                span,
                message: format!("comment is not UTF-8; decoded as {enc}"),
            });
        }
        self.pos = end;
        self.last_token_end = end;
        Ok(Comment { text, span })
    }

    /// The movetext and the result, into `game`.
    /// On an error, `line` and `stack` hold what was read (the caller keeps the mainline).
    fn movetext(
        &mut self,
        game: &mut GameRecord,
        line: &mut Line,
        stack: &mut Vec<Frame>,
    ) -> Result<(), ParseError> {
        // `12. c3-d4 d6-e5 ` is 8 bytes a move: room for that saves regrowing the mainline
        // (copying all its nodes) in nearly every game. Capped, so a game that is mostly
        // comment does not reserve room for moves it does not have.
        line.nodes
            .reserve(((self.input.len() - self.pos) / 8).min(512));
        let mut pending: Option<MoveNumber> = None;
        let mut unrecorded = 0usize;
        let mut first_unrecorded = Span::default();
        loop {
            self.skip_space();
            let Some(b) = self.peek() else { break };
            self.at_line_start = false;
            let start = self.pos;
            match b {
                b'{' => {
                    let c = self.comment()?;
                    match line.nodes.last_mut() {
                        Some(node) => node.comments.push(c),
                        None if stack.is_empty() => game.leading_comments.push(c),
                        None => line.leading_comments.push(c),
                    }
                }
                b'(' => {
                    if line.nodes.is_empty() {
                        return Err(self.error_here(
                            start,
                            "variation with no move before it",
                            "a move before '('",
                        ));
                    }
                    if stack.len() >= MAX_VARIATION_DEPTH {
                        return Err(self.error_here(
                            start,
                            format!(
                                "variations nested too deeply (at most {MAX_VARIATION_DEPTH} levels)"
                            ),
                            "')'",
                        ));
                    }
                    let open = self.loc.span(start, 1);
                    stack.push(Frame {
                        line: std::mem::take(line),
                        open,
                        pending: pending.take(),
                    });
                    self.pos += 1;
                    self.last_token_end = self.pos;
                }
                b')' => {
                    let Some(frame) = stack.pop() else {
                        return Err(self.error_here(
                            start,
                            "unbalanced parenthesis: ')' without '('",
                            EXPECT_MOVETEXT,
                        ));
                    };
                    let variation = std::mem::replace(line, frame.line);
                    pending = frame.pending;
                    if let Some(node) = line.nodes.last_mut() {
                        node.variations.push(variation);
                    }
                    self.pos += 1;
                    self.last_token_end = self.pos;
                }
                b'$' => {
                    let nag = self.nag()?;
                    self.attach_nag(line, nag, start)?;
                }
                b'!' | b'?' => {
                    let parsed: Res<'a, &'a [u8]> = alt((
                        tag("!!"),
                        tag("??"),
                        tag("!?"),
                        tag("?!"),
                        tag("!"),
                        tag("?"),
                    ))
                    .parse(self.rest());
                    let Ok((rest, sym)) = parsed else {
                        return Err(self.error_here(
                            start,
                            "unexpected character",
                            EXPECT_MOVETEXT,
                        ));
                    };
                    let value = match sym {
                        b"!" => 1,
                        b"?" => 2,
                        b"!!" => 3,
                        b"??" => 4,
                        b"!?" => 5,
                        _ => 6,
                    };
                    let end = self.pos_of(rest);
                    let nag = Nag {
                        value,
                        span: self.span(start, end),
                    };
                    self.attach_nag(line, nag, start)?;
                    self.pos = end;
                    self.last_token_end = end;
                }
                b'-' if self.placeholder_len() > 0 => {
                    // `-` or `--` for a move that was not recorded (seen in Russian archives:
                    // `1. - - 2. - -`): skipped, with one warning per game.
                    let len = self.placeholder_len();
                    if unrecorded == 0 {
                        first_unrecorded = self.span(start, start + len);
                    }
                    unrecorded += 1;
                    pending = None;
                    self.pos += len;
                    self.last_token_end = self.pos;
                }
                b'.' => {
                    // `12. ...`: dots after a number mark a Black move; stray dots are skipped.
                    while self.peek() == Some(b'.') {
                        self.pos += 1;
                    }
                    if let Some(n) = &mut pending {
                        n.ellipsis |= self.pos - start >= 2;
                    }
                }
                0xE2 if self.rest().starts_with("…".as_bytes()) => {
                    self.pos += 3;
                    if let Some(n) = &mut pending {
                        n.ellipsis = true;
                    }
                }
                b'*' | b'0'..=b'9' => {
                    if let Some(result) = self.result_token()? {
                        if let Some(frame) = stack.last() {
                            let open = frame.open;
                            return Err(self.error_at(
                                open,
                                "unbalanced parenthesis: the variation is not closed before \
                                 the result",
                                "')'",
                                format!("result {}", result.text),
                            ));
                        }
                        game.result = Some(result);
                        break;
                    }
                    if b == b'*' {
                        return Err(self.error_here(
                            start,
                            "unexpected character",
                            EXPECT_MOVETEXT,
                        ));
                    }
                    match self.move_number() {
                        NumberToken::Number(number) => pending = Some(number),
                        NumberToken::NotANumber if stack.is_empty() && self.paren_number() => {
                            pending = self.take_paren_number();
                        }
                        NumberToken::NotANumber => self.push_move(line, pending.take())?,
                        NumberToken::TooLarge { start, end } => {
                            return Err(self.number_too_large(start, end));
                        }
                    }
                }
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.push_move(line, pending.take())?;
                }
                b',' if !line.nodes.is_empty() => {
                    self.note_unusual(COMMA, start, 1);
                    self.pos += 1;
                }
                b'[' => {
                    return Err(self.error_here(
                        start,
                        "unexpected '[' in the moves (tags come before the moves)",
                        EXPECT_MOVETEXT,
                    ));
                }
                _ => {
                    let message = if b.is_ascii_graphic() {
                        "unexpected character"
                    } else {
                        "unexpected byte"
                    };
                    return Err(self.error_here(start, message, EXPECT_MOVETEXT));
                }
            }
        }
        if let Some(frame) = stack.last() {
            let open = frame.open;
            // Point at the innermost unclosed '('; its line is dropped with the error.
            return Err(self.error_at(
                open,
                "unbalanced parenthesis: '(' is never closed",
                "')'",
                "end of game",
            ));
        }
        if unrecorded > 0 {
            self.warnings.push(ParseWarning {
                kind: WarningKind::MovesNotRecorded,
                span: first_unrecorded,
                message: format!(
                    "{unrecorded} moves are written as '-' (not recorded); they were skipped"
                ),
            });
        }
        game.moves = std::mem::take(line);
        if game.result.is_some() {
            // Only comments may follow the result.
            loop {
                self.skip_space();
                match self.peek() {
                    None => break,
                    Some(b'{') => {
                        let c = self.comment()?;
                        match game.moves.nodes.last_mut() {
                            Some(node) => node.comments.push(c),
                            None => game.leading_comments.push(c),
                        }
                    }
                    Some(_) => {
                        let at = self.pos;
                        return Err(self.error_here(
                            at,
                            "unexpected text after the result",
                            "a new game (a tag) or the end of the file",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The length of a `-` or `--` placeholder move at `self.pos` (0 if there is none).
    fn placeholder_len(&self) -> usize {
        let rest = self.rest();
        let len = rest.iter().take(3).take_while(|&&b| b == b'-').count();
        let delimited = rest.get(len).is_none_or(|&b| is_delimiter(b));
        if (1..=2).contains(&len) && delimited {
            len
        } else {
            0
        }
    }

    fn attach_nag(&mut self, line: &mut Line, nag: Nag, start: usize) -> Result<(), ParseError> {
        match line.nodes.last_mut() {
            Some(node) => {
                node.nags.push(nag);
                Ok(())
            }
            None => Err(self.error_here(
                start,
                "annotation with no move before it",
                "a move before the annotation",
            )),
        }
    }

    /// `$n` at `self.pos`.
    fn nag(&mut self) -> Result<Nag, ParseError> {
        let start = self.pos;
        let parsed: Res<'a, &'a [u8]> = digit1.parse(&self.input[start + 1..]);
        let Ok((rest, digits)) = parsed else {
            return Err(self.error_here(
                start,
                "'$' must be followed by a number",
                "a NAG such as $1",
            ));
        };
        let end = self.pos_of(rest);
        let span = self.span(start, end);
        let value = parse_u32(digits).filter(|&v| v <= 255);
        let Some(value) = value else {
            let text = String::from_utf8_lossy(&self.input[start..end]).into_owned();
            return Err(self.error_at(
                span,
                format!("NAG {text} is out of range ($0-$255)"),
                "a NAG from $0 to $255",
                format!("'{text}'"),
            ));
        };
        self.pos = end;
        self.last_token_end = end;
        Ok(Nag {
            value: value as u8,
            span,
        })
    }

    /// A result token at `self.pos`, if there is one (followed by a delimiter).
    fn result_token(&mut self) -> Result<Option<ResultToken>, ParseError> {
        let start = self.pos;
        let rest = self.rest();
        if rest.first() != Some(&b'*') && !matches!(rest.get(1), Some(b'-' | b'/')) {
            return Ok(None);
        }
        let parsed: Res<'a, &'a [u8]> = alt((
            tag("1/2-1/2"),
            tag("1-0"),
            tag("0-1"),
            tag("2-0"),
            tag("0-2"),
            tag("1-1"),
            tag("0-0"),
            tag("*"),
        ))
        .parse(self.rest());
        let Ok((rest, text)) = parsed else {
            return Ok(None);
        };
        if rest.first().is_some_and(|&b| !is_delimiter(b)) {
            return Ok(None);
        }
        let end = self.pos_of(rest);
        let text = std::str::from_utf8(text).unwrap_or("*");
        let Some(result) = GameResult::parse_str(text) else {
            return Ok(None);
        };
        let span = self.span(start, end);
        self.pos = end;
        self.last_token_end = end;
        Ok(Some(ResultToken {
            result,
            text: text.to_string(),
            span,
        }))
    }

    /// A move number (`12.`, `12...`, `12…`) at `self.pos`, if there is one.
    // Inlined, with no error inside: a result carrying a `ParseError` went through memory
    // and the span in it was reloaded before its stores had landed.
    #[inline(always)]
    fn move_number(&mut self) -> NumberToken {
        let start = self.pos;
        let parsed: Res<'a, (&'a [u8], &'a [u8])> = pair(
            digit1,
            alt((tag("…".as_bytes()), take_while1(|b: u8| b == b'.'))),
        )
        .parse(self.rest());
        let Ok((rest, (digits, dots))) = parsed else {
            return NumberToken::NotANumber;
        };
        let end = self.pos_of(rest);
        let Some(number) = parse_u32(digits) else {
            return NumberToken::TooLarge { start, end };
        };
        self.pos = end;
        self.last_token_end = end;
        NumberToken::Number(MoveNumber {
            number,
            ellipsis: dots.len() >= 2,
            span: self.span(start, end),
        })
    }

    /// Whether `self.pos` holds a move number written `12)` (digits, `)`, then a space):
    /// a bare number is never a move, so outside variations this is read as `12.`.
    fn paren_number(&self) -> bool {
        let rest = self.rest();
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        digits > 0
            && rest.get(digits) == Some(&b')')
            && rest.get(digits + 1).is_none_or(|&b| is_space(b))
    }

    /// Reads the `12)` that [`paren_number`](Self::paren_number) found, with a warning.
    #[cold]
    fn take_paren_number(&mut self) -> Option<MoveNumber> {
        let start = self.pos;
        let digits = self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let number = parse_u32(&self.input[start..start + digits])?;
        let end = start + digits + 1;
        let span = self.span(start, end);
        self.note_unusual(PAREN_NUMBER, start, end - start);
        self.pos = end;
        self.last_token_end = end;
        Some(MoveNumber {
            number,
            ellipsis: false,
            span,
        })
    }

    /// After the square ending at `at`: ` - d4`, ` x d4` (a move written with spaces around
    /// its separator), the separator and where the next square starts.
    fn spaced_separator(&self, at: usize) -> Option<(u8, usize)> {
        let blanks = |from: usize| {
            self.input[from..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count()
        };
        let sep_at = at + blanks(at);
        let sep = *self.input.get(sep_at)?;
        if !matches!(sep, b'-' | b':' | b'x' | b'X') || sep_at == at {
            return None;
        }
        let square_at = sep_at + 1 + blanks(sep_at + 1);
        usual_square(&self.input[square_at..])
            .or_else(|| usual_square(&self.input[square_at..].to_ascii_lowercase()))
            .map(|_| (sep, square_at))
    }

    /// The error for the move number at `input[start..end]`, too large for a `u32`.
    #[cold]
    fn number_too_large(&mut self, start: usize, end: usize) -> ParseError {
        let text = &self.input[start..end];
        let digits = &text[..text.iter().take_while(|b| b.is_ascii_digit()).count()];
        let span = self.span(start, end);
        self.error_at(
            span,
            "move number is too large",
            "a move number",
            format!("'{}'", String::from_utf8_lossy(digits)),
        )
    }

    /// Reads a move at `self.pos` and appends it to `line` with its number.
    fn push_move(&mut self, line: &mut Line, number: Option<MoveNumber>) -> Result<(), ParseError> {
        let mv = self.move_token()?;
        line.nodes.reserve(1);
        let slot = line.nodes.spare_capacity_mut()[0].as_mut_ptr();
        // SAFETY: `slot` points at the first spare element of `nodes` (capacity reserved
        // above); every field is written before `set_len` makes it part of the vector.
        // Writing the fields one by one avoids building the node on the stack and copying
        // all of it in, which costs a tenth of the parse time.
        unsafe {
            std::ptr::addr_of_mut!((*slot).number).write(number);
            std::ptr::addr_of_mut!((*slot).mv.squares).write(mv.squares);
            std::ptr::addr_of_mut!((*slot).mv.separator).write(mv.separator);
            std::ptr::addr_of_mut!((*slot).mv.text).write(mv.text);
            std::ptr::addr_of_mut!((*slot).mv.span).write(mv.span);
            std::ptr::addr_of_mut!((*slot).nags).write(ThinVec::new());
            std::ptr::addr_of_mut!((*slot).comments).write(ThinVec::new());
            std::ptr::addr_of_mut!((*slot).variations).write(ThinVec::new());
            line.nodes.set_len(line.nodes.len() + 1);
        }
        Ok(())
    }

    /// A move at `self.pos`: squares with separators (or none between algebraic squares).
    fn move_token(&mut self) -> Result<MoveToken, ParseError> {
        let start = self.pos;
        let mut squares = MoveSquares::new();
        let mut dash = false;
        let mut capture: Option<char> = None;
        let mut at = start;
        squares.push(self.square(at, None)?);
        at = self.pos;
        loop {
            match self.input.get(at) {
                Some(&c @ (b'-' | b':' | b'x' | b'X')) => {
                    if c == b'-' {
                        dash = true;
                    } else {
                        capture.get_or_insert(if c == b':' { ':' } else { 'x' });
                    }
                    squares.push(self.square(at + 1, Some(c))?);
                    at = self.pos;
                }
                Some(c)
                    if c.is_ascii_alphabetic()
                        && self.input.get(at + 1).is_some_and(u8::is_ascii_digit) =>
                {
                    squares.push(self.square(at, None)?);
                    at = self.pos;
                }
                _ => break,
            }
        }
        if squares.len() < 2 {
            // `c3 - d4`: one move with spaces around its separator.
            while let Some((c, square_at)) = self.spaced_separator(at) {
                if c == b'-' {
                    dash = true;
                } else {
                    capture.get_or_insert(if c == b':' { ':' } else { 'x' });
                }
                squares.push(self.square(square_at, Some(c))?);
                at = self.pos;
            }
            if squares.len() >= 2 {
                self.note_unusual(SPACED_MOVE, start, at - start);
            }
        }
        if squares.len() < 2 {
            let found = describe(&self.input[at..]).0;
            let span = self.span(start, at);
            return Err(self.error_at(
                span,
                format!(
                    "incomplete move '{}': a move needs two squares",
                    String::from_utf8_lossy(&self.input[start..at])
                ),
                "'-', 'x' or ':' and a square",
                found,
            ));
        }
        if let Some(&c) = self.input.get(at) {
            if !is_delimiter(c) && !matches!(c, b'!' | b'?' | b'$' | b',') {
                return Err(self.error_here(
                    at,
                    "unexpected character after a move",
                    "a space, '!', '?', '$', '{', '(' or ')'",
                ));
            }
        }
        let separator = match (capture, dash) {
            (Some(c), _) => Separator::Capture(c),
            (None, true) => Separator::Dash,
            (None, false) => Separator::None,
        };
        // A move's bytes are ASCII letters, digits and separators (with spaces when written
        // `c3 - d4`: then its text is the move without them).
        let written = &self.input[start..at];
        let text = if memchr::memchr2(b' ', b'\t', written).is_some() {
            let joined: Vec<u8> = written
                .iter()
                .copied()
                .filter(|&b| b != b' ' && b != b'\t')
                .collect();
            MoveText::from_ascii(&joined, joined.len()).unwrap_or_default()
        } else {
            MoveText::from_ascii(&self.input[start..], at - start).unwrap_or_default()
        };
        let span = self.span(start, at);
        self.last_token_end = at;
        Ok(MoveToken {
            squares,
            separator,
            text,
            span,
        })
    }

    /// A square name at `at` (after the separator `sep`, if any); sets `self.pos` after it.
    #[inline(always)]
    fn square(&mut self, at: usize, sep: Option<u8>) -> Result<Square, ParseError> {
        match usual_square(&self.input[at..]) {
            Some((sq, len)) => {
                self.pos = at + len;
                Ok(sq)
            }
            None => self.unusual_square(at, sep),
        }
    }

    /// [`square`](Self::square) for names [`usual_square`] does not take, and the errors.
    #[cold]
    #[inline(never)]
    fn unusual_square(&mut self, at: usize, sep: Option<u8>) -> Result<Square, ParseError> {
        let parsed: Res<'a, &'a [u8]> = alt((
            recognize(pair(
                take_while1(|b: u8| b.is_ascii_alphabetic()),
                take_while(|b: u8| b.is_ascii_alphanumeric()),
            )),
            take_while1(|b: u8| b.is_ascii_alphanumeric()),
        ))
        .parse(&self.input[at..]);
        let lexeme = match parsed {
            Ok((_, lexeme)) => lexeme,
            Err(_) => {
                let message = match sep {
                    Some(c) => format!("expected a square after '{}'", c as char),
                    None => "expected a move".to_string(),
                };
                return Err(self.error_here(at, message, "a square such as c3 or 22"));
            }
        };
        // A lexeme is a letter and digits, or digits; anything longer is cut where the
        // next square (separator-less moves like `c3d4`) or an `x` separator begins.
        let len = square_len(lexeme);
        let name = &lexeme[..len];
        match Square::from_ascii(name) {
            Ok(sq) => {
                if name.iter().any(u8::is_ascii_uppercase) {
                    self.note_unusual(UPPER_CASE, at, len);
                }
                self.pos = at + len;
                Ok(sq)
            }
            Err(e) => {
                let shown = if name.is_empty() { lexeme } else { name };
                let span = self.loc.span(at, shown.len());
                let found = format!("'{}'", String::from_utf8_lossy(shown));
                let message = match sep {
                    _ if name.iter().any(u8::is_ascii_digit) => e.to_string(),
                    Some(c) => format!("expected a square after '{}'", c as char),
                    None => "expected a move".to_string(),
                };
                Err(self.error_at(span, message, "a square such as c3 or 22", found))
            }
        }
    }
}

/// The usual square names (`c3`, `22`) at the start of `rest`, not followed by a digit: the
/// square and the name's length.
#[inline(always)]
fn usual_square(rest: &[u8]) -> Option<(Square, usize)> {
    let not_digit = |i: usize| !rest.get(i).is_some_and(u8::is_ascii_digit);
    match *rest {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] if not_digit(2) => {
            Square::from_coords(f - b'a', r - b'1').map(|sq| (sq, 2))
        }
        [d @ b'1'..=b'9', ..] if not_digit(1) => Square::from_number(d - b'0').map(|sq| (sq, 1)),
        [d @ b'1'..=b'3', e @ b'0'..=b'9', ..] if not_digit(2) => {
            Square::from_number((d - b'0') * 10 + (e - b'0')).map(|sq| (sq, 2))
        }
        _ => None,
    }
}

/// The length of the square name at the start of `lexeme` (letters and digits): a letter
/// followed by its digits, or the leading digits.
fn square_len(lexeme: &[u8]) -> usize {
    let digits_from = |i: usize| {
        i + lexeme[i..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    match lexeme.first() {
        Some(b) if b.is_ascii_digit() => digits_from(0),
        Some(_) => {
            let n = digits_from(1);
            if n == 1 {
                // A letter with no digit: show the whole word in the error.
                lexeme.len()
            } else {
                n
            }
        }
        None => 0,
    }
}

/// `input` after its leading spaces and tabs.
fn skip_blanks(input: &[u8]) -> &[u8] {
    let blanks: Res<'_, &[u8]> = take_while(|b: u8| b == b' ' || b == b'\t').parse(input);
    blanks.map_or(input, |(rest, _)| rest)
}

fn parse_u32(digits: &[u8]) -> Option<u32> {
    let mut n: u32 = 0;
    for &d in digits {
        n = n.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
    }
    Some(n)
}

/// How to show the text at the start of `rest` in an error, and its length in bytes.
fn describe(rest: &[u8]) -> (String, usize) {
    let Some(&b) = rest.first() else {
        return ("end of game".to_string(), 0);
    };
    if b < 0x20 || b == 0x7f {
        return (format!("byte 0x{b:02x}"), 1);
    }
    if b >= 0x80 {
        let take = rest.len().min(4);
        let ch = match std::str::from_utf8(&rest[..take]) {
            Ok(s) => s.chars().next(),
            Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next()),
        };
        return match ch {
            Some(c) if !c.is_control() => (format!("'{c}'"), c.len_utf8()),
            _ => (format!("byte 0x{b:02x}"), 1),
        };
    }
    let len = if is_delimiter(b) {
        1
    } else {
        rest.iter()
            .take(24)
            .take_while(|&&c| c.is_ascii_graphic() && !is_delimiter(c))
            .count()
            .max(1)
    };
    (format!("'{}'", String::from_utf8_lossy(&rest[..len])), len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_games;

    fn one(text: &str) -> GameRecord {
        let mut games = parse_games(text.as_bytes());
        assert_eq!(games.len(), 1, "{text}");
        games.remove(0).unwrap_or_else(|e| panic!("{e}"))
    }

    fn err(text: &str) -> ParseError {
        parse_games(text.as_bytes()).remove(0).unwrap_err()
    }

    #[test]
    fn move_numbers_in_every_spelling() {
        for text in [
            "1... d6-e5 *",
            "1. ... d6-e5 *",
            "1… d6-e5 *",
            "1.. d6-e5 *",
            "1...d6-e5 *",
        ] {
            let g = one(text);
            let n = g.moves.nodes[0].number.unwrap();
            assert_eq!((n.number, n.ellipsis), (1, true), "{text}");
        }
        let g = one("12.c3-d4 d6-e5 13. b2-c3 *");
        let numbers: Vec<_> = g
            .moves
            .nodes
            .iter()
            .map(|n| n.number.map(|n| n.number))
            .collect();
        assert_eq!(numbers, [Some(12), None, Some(13)]);
        assert!(!g.moves.nodes[0].number.unwrap().ellipsis);
    }

    #[test]
    fn moves_in_every_notation() {
        let g = one("1. c3-d4 d6xb4xd2 2. 22-18 15x22 3. e5:g3 c3d4 4. C3-D4 f6-d4 *");
        let shown: Vec<String> = g
            .moves
            .nodes
            .iter()
            .map(|n| {
                let sq: Vec<String> = n.mv.squares.iter().map(|s| s.to_string()).collect();
                format!("{:?} {}", n.mv.separator, sq.join(" "))
            })
            .collect();
        assert_eq!(
            shown,
            [
                "Dash c3 d4",
                "Capture('x') d6 b4 d2",
                "Dash c3 d4",
                "Capture('x') e5 c3",
                "Capture(':') e5 g3",
                "None c3 d4",
                "Dash c3 d4",
                "Dash f6 d4",
            ]
        );
        assert_eq!(g.moves.nodes[6].mv.text, "C3-D4");
    }

    #[test]
    fn nags_comments_and_variations_attach_to_their_move() {
        let g = one(
            "{start} 1. c3-d4!? $14 {good [%clk 0:01:00]} (1. c3-b4? {also} (1. a3-b4 $2)) \
             1... d6-e5 ({idea} 1... f6-g5) 2. b2-c3 1-0 {after}",
        );
        assert_eq!(g.leading_comments[0].text, "start");
        let first = &g.moves.nodes[0];
        let nags: Vec<u8> = first.nags.iter().map(|n| n.value).collect();
        assert_eq!(nags, [5, 14]);
        assert_eq!(first.comments[0].text, "good [%clk 0:01:00]");
        assert_eq!(first.variations.len(), 1);
        let var = &first.variations[0];
        assert_eq!(var.nodes[0].nags[0].value, 2);
        assert_eq!(var.nodes[0].comments[0].text, "also");
        assert_eq!(var.nodes[0].variations[0].nodes[0].mv.text, "a3-b4");
        let second = &g.moves.nodes[1];
        assert_eq!(second.variations[0].leading_comments[0].text, "idea");
        assert_eq!(g.moves.nodes[2].comments[0].text, "after");
        assert_eq!(g.result.unwrap().result, GameResult::WhiteWin);
    }

    #[test]
    fn tags_escapes_padding_and_line_comments() {
        let g = one(
            "% exported by hand\n[Event   \"The \\\"Open\\\" \\\\ 2024\"]\n[Site\t\"\"]\n\
             1. c3-d4\n% a line comment with { and (\n d6-e5 *",
        );
        assert_eq!(g.tag("event"), Some("The \"Open\" \\ 2024"));
        assert_eq!(g.tag("Site"), Some(""));
        assert_eq!(g.moves.nodes.len(), 2);
        assert_eq!(g.span.line, 2);
    }

    #[test]
    fn every_result_spelling() {
        for (text, result) in [
            ("1-0", GameResult::WhiteWin),
            ("2-0", GameResult::WhiteWin),
            ("0-1", GameResult::BlackWin),
            ("0-2", GameResult::BlackWin),
            ("1/2-1/2", GameResult::Draw),
            ("1-1", GameResult::Draw),
            ("0-0", GameResult::BothLose),
            ("*", GameResult::Unknown),
        ] {
            let g = one(&format!("1. 22-18 {text}"));
            let r = g.result.unwrap();
            assert_eq!((r.result, r.text.as_str()), (result, text));
        }
        // `1-10` is a move, not the result `1-1` followed by `0`.
        assert_eq!(one("1. 1-10 *").moves.nodes[0].mv.squares.len(), 2);
    }

    #[test]
    fn errors_say_where_and_why() {
        let e = err("1. c3-d4 d6-e5 $300");
        assert_eq!(
            (e.span.column, e.message.as_str()),
            (16, "NAG $300 is out of range ($0-$255)")
        );
        let e = err("1. c3-d4 99999999999. d6-e5 *");
        assert_eq!(
            (
                e.span.column,
                e.span.len,
                e.message.as_str(),
                e.found.as_str()
            ),
            (10, 12, "move number is too large", "'99999999999'")
        );
        let e = err("1. c3 d4 *");
        assert_eq!(e.message, "incomplete move 'c3': a move needs two squares");
        let e = err("1. c3-d4x *");
        assert_eq!(
            (e.span.column, e.message.as_str()),
            (10, "expected a square after 'x'")
        );
        let e = err("1. c3-d4 d6-e5?? (");
        assert_eq!((e.span.column, e.found.as_str()), (18, "end of game"));
        let e = err("1. c3-a2 *");
        assert_eq!(e.message, "square a2 is a light square, never played on");
        let e = err("1. c3-d4 [Event \"x\"] *");
        assert_eq!(
            e.message,
            "unexpected '[' in the moves (tags come before the moves)"
        );
        let e = err("[Event \"x\"]\n( 1. c3-d4 ) *");
        assert_eq!(
            (e.span.line, e.message.as_str()),
            (2, "variation with no move before it")
        );
        let e = err("[Event x]\n1. c3-d4 *");
        assert_eq!(
            e.message,
            "broken tag: expected '\"' to open the value of tag Event"
        );
        let e = err("[Event \"x\"\n1. c3-d4 *");
        assert_eq!(e.message, "broken tag: expected ']' to close tag Event");
        let e = err("[ \"x\"]\n1. c3-d4 *");
        assert_eq!(e.message, "broken tag: expected a tag name after '['");
    }

    #[test]
    fn unrecorded_moves_and_forfeits() {
        let g = one("1. - - 2. -- -- 1/2-1/2");
        assert!(g.moves.nodes.is_empty());
        assert_eq!(g.warnings.len(), 1);
        assert_eq!(g.warnings[0].kind, WarningKind::MovesNotRecorded);
        let g = one("1. 0-2");
        assert!(g.moves.nodes.is_empty());
        assert_eq!(g.result.unwrap().result, GameResult::BlackWin);
        assert_eq!(g.warnings.len(), 1);
        assert_eq!(g.warnings[0].kind, WarningKind::Forfeit);
        assert_eq!(
            g.warnings[0].message,
            "the game has no moves and the result 0-2: read as a forfeit (Black wins without a \
             move played)"
        );
        // Not a forfeit: a draw with no moves, and moves not recorded.
        assert!(one("1-1").warnings.is_empty());
    }

    #[test]
    fn what_people_write_is_read_with_a_warning() {
        let g = one("1) c3 - d4 d6 x c5, 2) A3-B4 C7-D6, 3) b4xd6 *");
        let moves: Vec<&str> = g.moves.nodes.iter().map(|n| n.mv.text.as_str()).collect();
        assert_eq!(moves, ["c3-d4", "d6xc5", "A3-B4", "C7-D6", "b4xd6"]);
        let squares: Vec<String> = g.moves.nodes[2]
            .mv
            .squares
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(squares, ["a3", "b4"]);
        let numbers: Vec<Option<u32>> = g
            .moves
            .nodes
            .iter()
            .map(|n| n.number.map(|n| n.number))
            .collect();
        assert_eq!(numbers, [Some(1), None, Some(2), None, Some(3)]);
        let warnings: Vec<(WarningKind, u32, &str)> = g
            .warnings
            .iter()
            .map(|w| (w.kind, w.span.column, w.message.as_str()))
            .collect();
        assert_eq!(
            warnings,
            [
                (
                    WarningKind::NonstandardNotation,
                    1,
                    "move number written with ')' (3 times): read as '.'"
                ),
                (
                    WarningKind::NonstandardNotation,
                    4,
                    "move written with spaces around its separator (2 times): read as one move"
                ),
                (
                    WarningKind::NonstandardNotation,
                    24,
                    "square names in upper case (4 times): read as lower case (a3, not A3)"
                ),
                (
                    WarningKind::NonstandardNotation,
                    19,
                    "comma between moves (2 times): read as a space"
                ),
            ]
        );
        // A bare number is still an error, and `c3 d4` (no separator) too.
        assert!(err("1. c3 d4 *").message.starts_with("incomplete move"));
    }

    #[test]
    fn a_syntax_error_keeps_the_tags_and_the_moves_before_it() {
        let e = err("[White \"A\"]\n[Black \"B\"]\n1. c3-d4 f6-g5 2. d4-e6 (2. b2-c3 x) *");
        assert_eq!(e.message, "square e6 is a light square, never played on");
        let record = e.record.expect("the game read so far");
        assert_eq!(record.tag("White"), Some("A"));
        let moves: Vec<&str> = record
            .moves
            .nodes
            .iter()
            .map(|n| n.mv.text.as_str())
            .collect();
        assert_eq!(moves, ["c3-d4", "f6-g5"]);
        // Inside a variation: the mainline so far is kept.
        let e = err("1. c3-d4 (1. c3-b4 f6-g5 2. b4-a5 x9) d6-e5 *");
        assert_eq!(e.record.unwrap().moves.nodes.len(), 1);
        // A broken tag line is skipped: the other tags and all moves are read. (The
        // splitter cuts a broken first tag line from the game: parse the bytes here.)
        let raw = RawGame::from_bytes(
            0,
            &b"[Event \"x\"]\n[White \"Neema]\n[Black \"Juma\"]\n1. c3-d4 d6-e5 *"[..],
        );
        let e = parse_game(&raw).unwrap_err();
        assert_eq!(
            e.message,
            "broken tag: the value of tag White has no closing quote"
        );
        let record = e.record.unwrap();
        assert_eq!(record.tag("Black"), Some("Juma"));
        assert_eq!(record.moves.nodes.len(), 2);
        assert!(record.result.is_some());
        // Text that is no game has no record.
        assert!(err("hello").record.is_none());
    }
}
