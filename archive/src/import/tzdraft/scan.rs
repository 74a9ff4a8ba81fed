//! Cutting TzDraft JSON into one text per game, whatever the file's shape, in one pass and
//! bounded memory: each top-level value and each element of a top-level array is one game.
//!
//! Between games, whitespace, commas (a trailing comma, JSON Lines written with commas) and
//! byte order marks (one per concatenated file) are skipped, and array brackets are entered
//! and left. So one game, an array of games compact on one line or pretty-printed, JSON Lines,
//! two games on one line and a game line followed by a pretty-printed game all give their
//! games. A game is cut off where a line starts with `{` while a game that began at the start
//! of an earlier line, outside any array, is still open (a JSON Lines line cut short): the cut
//! game is one damaged game and the next starts there. A game longer than [`MAX_GAME_BYTES`]
//! is skipped, its end still found. Anything else between games (text that is no JSON
//! object) is one damaged game up to the end of its line, or the next `,` or `]` in an array.

use std::io::{self, BufRead};

/// The longest text of one game kept (a longer one is skipped and reported): 1 MiB, a game of
/// some 6,000 plies (a TzDraft game of 140 plies is about 23 KB).
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// How the text of a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Its braces closed.
    Closed,
    /// A line starting with `{` began another game before it closed.
    CutByNext,
    /// The input ended before it closed.
    CutByEnd,
    /// Longer than [`MAX_GAME_BYTES`]: skipped (its text is empty).
    TooLong,
    /// Not a JSON object: text up to the end of its line (or `,` / `]` in an array).
    NotObject,
}

/// The text of one game and where it starts.
#[derive(Debug)]
pub struct GameText {
    /// 1-based line and column of its first byte.
    pub line: u32,
    pub column: u32,
    pub text: Vec<u8>,
    pub ending: Ending,
}

struct Open {
    line: u32,
    column: u32,
    text: Vec<u8>,
    depth: u32,
    in_string: bool,
    escape: bool,
    too_long: bool,
    object: bool,
}

/// The scanner's state between bytes.
struct Scanner {
    line: u32,
    column: u32,
    arrays: u32,
    open: Option<Open>,
}

impl Scanner {
    fn start(&mut self, object: bool) {
        self.open = Some(Open {
            line: self.line,
            column: self.column + 1,
            text: Vec::new(),
            depth: 0,
            in_string: false,
            escape: false,
            too_long: false,
            object,
        });
    }

    fn finish(&mut self, ending: Ending) -> Option<GameText> {
        let open = self.open.take()?;
        let ending = match ending {
            Ending::Closed | Ending::CutByNext | Ending::CutByEnd if open.too_long => {
                Ending::TooLong
            }
            Ending::Closed if !open.object => Ending::NotObject,
            e => e,
        };
        Some(GameText {
            line: open.line,
            column: open.column,
            text: open.text,
            ending,
        })
    }

    /// One byte; a game's text when it ends with this byte (or just before it).
    #[inline]
    fn byte(&mut self, b: u8, out: &mut Vec<GameText>) {
        let line_start = self.column == 0;
        if let Some(open) = &mut self.open {
            if open.object {
                if line_start
                    && b == b'{'
                    && self.arrays == 0
                    && open.column == 1
                    && open.line < self.line
                {
                    out.extend(self.finish(Ending::CutByNext));
                } else {
                    push(open, b);
                    if open.in_string {
                        if open.escape {
                            open.escape = false;
                        } else if b == b'\\' {
                            open.escape = true;
                        } else if b == b'"' {
                            open.in_string = false;
                        }
                    } else {
                        match b {
                            b'"' => open.in_string = true,
                            b'{' | b'[' => open.depth += 1,
                            b'}' | b']' => {
                                open.depth -= 1;
                                if open.depth == 0 {
                                    out.extend(self.finish(Ending::Closed));
                                }
                            }
                            _ => {}
                        }
                    }
                    self.advance(b);
                    return;
                }
            } else if b == b'\n' || (self.arrays > 0 && (b == b',' || b == b']')) {
                out.extend(self.finish(Ending::Closed));
            } else {
                push(open, b);
                self.advance(b);
                return;
            }
        }
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | b',' | 0xEF | 0xBB | 0xBF => {}
            b'[' => self.arrays += 1,
            b']' => self.arrays = self.arrays.saturating_sub(1),
            b'{' => {
                self.start(true);
                if let Some(open) = &mut self.open {
                    push(open, b);
                    open.depth = 1;
                }
            }
            _ => {
                self.start(false);
                if let Some(open) = &mut self.open {
                    push(open, b);
                }
            }
        }
        self.advance(b);
    }

    #[inline]
    fn advance(&mut self, b: u8) {
        if b == b'\n' {
            self.line += 1;
            self.column = 0;
        } else {
            self.column += 1;
        }
    }
}

#[inline]
fn push(open: &mut Open, b: u8) {
    if open.too_long {
        return;
    }
    if open.text.len() >= MAX_GAME_BYTES {
        open.too_long = true;
        open.text = Vec::new();
        return;
    }
    open.text.push(b);
}

/// Reads `reader` to its end and hands each game's text to `each`, in input order; stops at
/// the first error `each` returns.
pub fn scan<R: BufRead, E: From<io::Error>>(
    mut reader: R,
    mut each: impl FnMut(GameText) -> Result<(), E>,
) -> Result<(), E> {
    let mut scanner = Scanner {
        line: 1,
        column: 0,
        arrays: 0,
        open: None,
    };
    let mut done = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if chunk.is_empty() {
            break;
        }
        let len = chunk.len();
        for &b in chunk {
            scanner.byte(b, &mut done);
        }
        reader.consume(len);
        for game in done.drain(..) {
            each(game)?;
        }
    }
    let end = if scanner.open.as_ref().is_some_and(|o| o.object) {
        Ending::CutByEnd
    } else {
        Ending::Closed
    };
    if let Some(game) = scanner.finish(end) {
        each(game)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<(u32, u32, String, Ending)> {
        let mut out = Vec::new();
        scan::<_, io::Error>(input.as_bytes(), |g| {
            out.push((
                g.line,
                g.column,
                String::from_utf8(g.text).unwrap(),
                g.ending,
            ));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn every_shape_gives_its_games() {
        use Ending::*;
        let one = |l, c, t: &str| (l, c, t.to_string(), Closed);
        assert_eq!(
            texts(r#"[{"a":1},{"b":"}"}]"#),
            [one(1, 2, r#"{"a":1}"#), one(1, 10, r#"{"b":"}"}"#)]
        );
        assert_eq!(
            texts("{\"a\":1}{\"b\":2}\n"),
            [one(1, 1, "{\"a\":1}"), one(1, 8, "{\"b\":2}")]
        );
        assert_eq!(
            texts("{\"a\":1}\n{\n  \"b\": {\"c\": [1]}\n}\n"),
            [
                one(1, 1, "{\"a\":1}"),
                one(2, 1, "{\n  \"b\": {\"c\": [1]}\n}")
            ]
        );
        assert_eq!(
            texts("[{\"a\":1},\n{\"b\":2},\n]"),
            [one(1, 2, "{\"a\":1}"), one(2, 1, "{\"b\":2}")]
        );
        assert_eq!(
            texts("\u{feff}{\"a\":1}\n\u{feff}{\"b\":\"\\\"}\"}\n"),
            [one(1, 4, "{\"a\":1}"), one(2, 4, "{\"b\":\"\\\"}\"}")]
        );
    }

    #[test]
    fn a_cut_line_costs_only_its_game() {
        use Ending::*;
        let got = texts("{\"a\":[1,\n{\"b\":2}\n{\"c\":\"x\n");
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].0, got[0].3), (1, CutByNext));
        assert_eq!(
            (got[1].0, got[1].2.as_str(), got[1].3),
            (2, "{\"b\":2}", Closed)
        );
        assert_eq!((got[2].0, got[2].3), (3, CutByEnd));
        // Text that is no object: one damaged game per line, or per array element.
        let got = texts("1. c3-d4 *\n[1, null]\n");
        let kinds: Vec<_> = got.iter().map(|g| (g.2.as_str(), g.3)).collect();
        assert_eq!(
            kinds,
            [
                ("1. c3-d4 *", NotObject),
                ("1", NotObject),
                ("null", NotObject)
            ]
        );
    }

    #[test]
    fn a_game_too_long_is_skipped_and_the_next_read() {
        let long = format!("{{\"a\":\"{}\"}}\n{{\"b\":1}}", "x".repeat(MAX_GAME_BYTES));
        let got = texts(&long);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].2.len(), got[0].3), (0, Ending::TooLong));
        assert_eq!(got[1].2, "{\"b\":1}");
    }
}
