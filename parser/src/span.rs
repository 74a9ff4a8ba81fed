//! Source positions: where a token sits in the input file.
//!
//! Every token of the AST carries a [`Span`] with an absolute byte offset, line and column, so
//! replay and every report can point back at the source.

/// Where a token lies in the input file.
///
/// All fields are absolute within the whole input (not relative to the game). `line` and
/// `column` are 1-based; `column` counts characters: every byte that is not a UTF-8
/// continuation byte counts as one (so a tab is one column, and in a legacy 8-bit line every
/// byte of a letter counts as one). A UTF-8 BOM at the start of the file is not counted.
///
/// ```
/// use drafti_pdn::parse_games;
/// let games = parse_games(b"[Event \"x\"]\n1. c3-d4 *\n");
/// let game = games[0].as_ref().unwrap();
/// let mv = &game.moves.nodes[0].mv;
/// assert_eq!((mv.span.offset, mv.span.line, mv.span.column, mv.span.len), (15, 2, 4, 5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// Line number, 1-based.
    pub line: u32,
    /// Column in characters, 1-based.
    pub column: u32,
    /// Length of the token in bytes.
    pub len: usize,
}

/// Turns offsets inside one game's bytes into absolute [`Span`]s.
///
/// It walks forward from the last position asked for, so a parser that asks in increasing
/// order pays one pass over the bytes in total.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    base_offset: usize,
    base_line: u32,
    base_column: u32,
    pos: usize,
    line: u32,
    column: u32,
}

impl<'a> Locator<'a> {
    /// A locator for `bytes`, whose first byte is at (`offset`, `line`, `column`) in the file.
    pub(crate) fn new(bytes: &'a [u8], offset: usize, line: u32, column: u32) -> Self {
        Locator {
            bytes,
            base_offset: offset,
            base_line: line,
            base_column: column,
            pos: 0,
            line,
            column,
        }
    }

    /// The span of `len` bytes starting at `pos` (an index into the game's bytes).
    // Inlined: returning the span through memory stalled the caller's next loads.
    #[inline(always)]
    pub(crate) fn span(&mut self, pos: usize, len: usize) -> Span {
        let pos = pos.min(self.bytes.len());
        if pos < self.pos {
            self.pos = 0;
            self.line = self.base_line;
            self.column = self.base_column;
        }
        // Counted in locals and stored once: a span built from fields just stored one by
        // one makes the next wide load of it wait.
        let (mut line, mut column) = (self.line, self.column);
        let rest = &self.bytes[self.pos..];
        let segment = &self.bytes[self.pos..pos];
        if let Some(ascii_len) = short_ascii_line_segment(rest, segment.len()) {
            // The usual gap between two tokens: a few ASCII bytes on one line.
            column += ascii_len;
        } else if segment.len() <= 64 {
            // Tokens are close together: a plain loop beats setting up the searches.
            for (k, &b) in segment.iter().enumerate() {
                if is_line_break(rest, k) {
                    line += 1;
                    column = 1;
                } else if (b as i8) >= -0x40 {
                    column += 1;
                }
            }
        } else {
            let mut last = None;
            for k in memchr::memchr2_iter(b'\n', b'\r', segment) {
                if is_line_break(rest, k) {
                    line += 1;
                    last = Some(k);
                }
            }
            match last {
                Some(last) => column = 1 + count_chars(&segment[last + 1..]),
                None => column += count_chars(segment),
            }
        }
        self.pos = pos;
        self.line = line;
        self.column = column;
        Span {
            offset: self.base_offset + pos,
            line,
            column,
            len,
        }
    }
}

/// Whether `bytes[k]` ends a line: `\n`, or a `\r` not followed by `\n` (CR-only files; in
/// `\r\n` the `\n` ends the line).
#[inline(always)]
pub(crate) fn is_line_break(bytes: &[u8], k: usize) -> bool {
    match bytes[k] {
        b'\n' => true,
        b'\r' => bytes.get(k + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// `len` as a `u32` when the first `len` bytes of `rest` are at most 8, all ASCII and none
/// a line end (`\n`, `\r`); checked on one 8-byte word at once (`None` also when `rest` is
/// shorter).
#[inline(always)]
fn short_ascii_line_segment(rest: &[u8], len: usize) -> Option<u32> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    if len > 8 {
        return None;
    }
    let word = u64::from_le_bytes(*rest.first_chunk::<8>()?);
    let keep = if len == 8 {
        !0
    } else {
        (1u64 << (8 * len)) - 1
    };
    let word = word & keep;
    // Bytes past `len` are zero, so they are neither newlines nor high.
    let has = |byte: u8| {
        let x = word ^ (ONES * u64::from(byte)) & keep;
        x.wrapping_sub(ONES) & !x & HIGHS & keep != 0
    };
    (word & HIGHS == 0 && !has(b'\n') && !has(b'\r')).then_some(len as u32)
}

/// Characters in `bytes`: bytes that are not UTF-8 continuation bytes.
pub(crate) fn count_chars(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line and column of `bytes[pos]` counted the slow way, from line 1, column 1.
    fn naive(bytes: &[u8], pos: usize) -> (u32, u32) {
        let breaks: Vec<usize> = (0..pos).filter(|&k| is_line_break(bytes, k)).collect();
        let from = breaks.last().map_or(0, |k| k + 1);
        (1 + breaks.len() as u32, 1 + count_chars(&bytes[from..pos]))
    }

    proptest::proptest! {
        #[test]
        fn locator_agrees_with_counting(
            bytes in proptest::collection::vec(
                proptest::sample::select(b"ab1 \n\r\t\xd0\xb6\x80\x00-".to_vec()),
                0..200,
            ),
            steps in proptest::collection::vec(0usize..12, 1..40),
        ) {
            let mut loc = Locator::new(&bytes, 0, 1, 1);
            let mut pos = 0;
            for step in steps {
                pos = (pos + step).min(bytes.len());
                let span = loc.span(pos, 0);
                proptest::prop_assert_eq!((span.line, span.column), naive(&bytes, pos));
            }
        }
    }

    #[test]
    fn locator_counts_lines_and_characters() {
        let text = "ab\nжc d\n\nx".as_bytes();
        let mut loc = Locator::new(text, 100, 5, 3);
        assert_eq!(
            loc.span(0, 1),
            Span {
                offset: 100,
                line: 5,
                column: 3,
                len: 1
            }
        );
        assert_eq!(loc.span(1, 1).column, 4);
        let c = text.iter().position(|&b| b == b'c').unwrap();
        assert_eq!(
            loc.span(c, 1),
            Span {
                offset: 100 + c,
                line: 6,
                column: 2,
                len: 1
            }
        );
        let x = text.len() - 1;
        assert_eq!(loc.span(x, 1).line, 8);
        // Going backwards starts over and still gives the right answer.
        assert_eq!(
            loc.span(1, 1),
            Span {
                offset: 101,
                line: 5,
                column: 4,
                len: 1
            }
        );
    }
}
