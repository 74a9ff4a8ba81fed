//! The writer: canonical PDN from a [`GameRecord`].
//!
//! - Tags `Event Site Date Round White Black Result` first (those present), then the others
//!   in their order; values escaped (`\"`, `\\`); a blank line after the tags.
//! - Movetext as recorded: move numbers (`12.` / `12...`) where the record has them, each
//!   move's [`text`](crate::MoveToken::text) (or, if empty, its squares in algebraic form),
//!   the first NAG 1–6 as its symbol glued to the move (`c3-d4!`) and the others as `$n`,
//!   then comments, then variations in parentheses; the result last.
//! - Lines are wrapped at 80 columns between tokens; a move number stays with its move. A
//!   comment is written unchanged, so a comment longer than a line makes a longer line.
//! - `\n` line ends; one blank line between games in [`write_games`].
//!
//! Parsing the output gives back a record with the same content
//! ([`GameRecord::same_content`]), and writing is idempotent.

use std::fmt::Write as _;

use crate::ast::{tag_rank, GameRecord, Line, MoveNode};

/// Lines are wrapped to at most this many columns (unless one token is longer).
pub const LINE_WIDTH: usize = 80;

/// The machine-readable evaluation written into a move's comment, lichess's `[%eval …]`:
/// from White's side, `centimen` hundredths of a man, written in men with two decimals.
/// (`drafti analyze --pdn` writes its scores so, and `drafti import tzdraft` the evaluations
/// a record carries.)
///
/// ```
/// assert_eq!(drafti_pdn::eval_command(35), "[%eval 0.35]");
/// assert_eq!(drafti_pdn::eval_command(-120), "[%eval -1.20]");
/// ```
pub fn eval_command(centimen: i32) -> String {
    format!("[%eval {:.2}]", f64::from(centimen) / 100.0)
}

/// One game as canonical PDN, ending with a newline.
///
/// ```
/// let game = drafti_pdn::parse_games(
///     b"[Black \"B\"]\r\n[White \"W\"]\r\n[Event \"E\"]\r\n1. c3-d4 d6-e5! 2. b2-c3 $14 {ok} 1-0",
/// ).remove(0).unwrap();
/// assert_eq!(drafti_pdn::write_game(&game),
///     "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. c3-d4 d6-e5! 2. b2-c3 $14 {ok} 1-0\n");
/// ```
pub fn write_game(game: &GameRecord) -> String {
    let mut out = String::with_capacity(1024);
    write_game_to(game, &mut out);
    out
}

/// Games as canonical PDN, separated by blank lines.
///
/// Games without a result token or without tags may not read back as written: a game with
/// no result runs on into a following game that has no tags, and the leading comments of a
/// game with no tags are read as trailing comments of the game before (comments right after
/// a result belong to that game, as in `1-0 {White resigned}`).
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> String {
    let mut out = String::new();
    for (i, game) in games.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game_to(game, &mut out);
    }
    out
}

/// Appends one game as canonical PDN to `out`.
pub fn write_game_to(game: &GameRecord, out: &mut String) {
    let mut tags: Vec<_> = game.tags.iter().collect();
    tags.sort_by_key(|t| tag_rank(&t.name));
    for t in &tags {
        out.push('[');
        out.push_str(&t.name);
        out.push_str(" \"");
        for c in t.value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
    let mut w = Wrap {
        out,
        col: 0,
        prefix: false,
        empty: true,
    };
    if !tags.is_empty() {
        w.out.push('\n');
    }
    for c in &game.leading_comments {
        w.comment(&c.text);
    }
    w.line(&game.moves);
    if let Some(r) = &game.result {
        w.word(&r.text);
    }
    if !w.empty {
        w.out.push('\n');
    }
}

/// Places tokens on lines of at most [`LINE_WIDTH`] columns.
struct Wrap<'a> {
    out: &'a mut String,
    col: usize,
    /// A `(` waits to be glued to the next token.
    prefix: bool,
    /// Nothing written yet.
    empty: bool,
}

impl Wrap<'_> {
    fn line(&mut self, line: &Line) {
        for c in &line.leading_comments {
            self.comment(&c.text);
        }
        for node in &line.nodes {
            self.node(node);
        }
    }

    fn node(&mut self, node: &MoveNode) {
        let mut unit = String::with_capacity(24);
        if let Some(n) = node.number {
            let dots = if n.ellipsis { "..." } else { "." };
            let _ = write!(unit, "{}{} ", n.number, dots);
        }
        if node.mv.text.is_empty() {
            for (i, sq) in node.mv.squares.iter().enumerate() {
                if i > 0 {
                    unit.push(match node.mv.separator {
                        crate::Separator::Capture(c) => c,
                        _ => '-',
                    });
                }
                let _ = write!(unit, "{sq}");
            }
        } else {
            unit.push_str(&node.mv.text);
        }
        let mut nags = node.nags.iter();
        if let Some(sym) = node.nags.first().and_then(|n| n.symbol()) {
            unit.push_str(sym);
            nags.next();
        }
        self.word(&unit);
        for nag in nags {
            self.word(&format!("${}", nag.value));
        }
        for c in &node.comments {
            self.comment(&c.text);
        }
        for v in &node.variations {
            self.prefix = true;
            self.line(v);
            if self.prefix {
                self.prefix = false;
                self.word("()");
            } else if self.col + 1 > LINE_WIDTH {
                self.out.push_str("\n)");
                self.col = 1;
            } else {
                self.out.push(')');
                self.col += 1;
            }
        }
    }

    fn comment(&mut self, text: &str) {
        let mut unit = String::with_capacity(text.len() + 2);
        unit.push('{');
        unit.push_str(text);
        unit.push('}');
        self.word(&unit);
    }

    /// Writes one token (which may span lines, if a comment does), after a space or a
    /// line break.
    fn word(&mut self, text: &str) {
        let open = usize::from(self.prefix);
        let first = text.split('\n').next().unwrap_or("").chars().count() + open;
        if !self.empty && self.col > 0 {
            if self.col + 1 + first > LINE_WIDTH {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        if self.prefix {
            self.out.push('(');
            self.prefix = false;
        }
        self.out.push_str(text);
        match text.rfind('\n') {
            Some(k) => self.col = text[k + 1..].chars().count(),
            None => self.col += first,
        }
        self.empty = false;
    }
}
