//! Stage 1: the splitter. A cheap line scanner cuts the input into the bytes of one game at a
//! time ([`RawGame`]), without building anything, so archives of any size read in constant
//! memory and the games can be parsed elsewhere (other threads) by [`parse_game`](crate::parse_game).
//!
//! The rules are on [`GameSplitter`].

use std::collections::VecDeque;
use std::io::{self, BufRead};

use crate::span::count_chars;

/// The bytes of one game, cut from the input by [`GameSplitter`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawGame {
    /// 0-based number of this game in the file.
    pub index: usize,
    /// Byte offset of `bytes[0]` in the file.
    pub offset: usize,
    /// Line (1-based) of `bytes[0]`.
    pub line: u32,
    /// Column (1-based, in characters) of `bytes[0]`: 1 unless the game starts in the middle
    /// of a line (after another game's result).
    pub column: u32,
    /// The game's text, from the end of the previous game (blank lines included).
    pub bytes: Vec<u8>,
    /// The game was longer than the splitter's limit and `bytes` holds only its start;
    /// [`parse_game`](crate::parse_game) reports it as an error.
    pub truncated: bool,
}

impl RawGame {
    /// A game made from text in memory, starting at offset 0, line 1, column 1.
    pub fn from_bytes(index: usize, bytes: impl Into<Vec<u8>>) -> RawGame {
        RawGame {
            index,
            offset: 0,
            line: 1,
            column: 1,
            bytes: bytes.into(),
            truncated: false,
        }
    }
}

/// The default limit on the size of one game (see [`GameSplitter::with_max_game_bytes`]).
pub const DEFAULT_MAX_GAME_BYTES: usize = 4 << 20;

/// A line longer than this is scanned in pieces of about this size (cut at a space), so a
/// file that is one long line (CR-only line ends read by other tools, games run together)
/// is read in bounded memory and linear time.
const PIECE_BYTES: usize = 64 << 10;

/// A piece is cut here even without a space (one token this long is not PDN anyway).
const MAX_PIECE_BYTES: usize = 2 * PIECE_BYTES;

/// While a guess that a comment never closed waits (see [`GameSplitter`]), the scan of the
/// text after it may cut it this often (a game quoted in the comment, and the text after
/// that game) and the guess still be withdrawn: a comment's `}` many games later is more
/// likely a stray one than the end of a comment that swallowed them.
const HELD_CUTS: usize = 1;

/// The UTF-8 byte-order mark: skipped at the start of the file and of any line (files
/// joined with `cat` carry one in the middle).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Splits a PDN stream into [`RawGame`]s.
///
/// A new game starts
/// - at a line that begins with `[` (a tag) once the current game has movetext or a result,
///   or, after a blank line, repeats the first tag name of the current game (tags-only
///   games), or follows only broken tag lines (so a stray broken line costs only itself);
/// - at the first token after a result token (`1-0`, `2-0`, `1/2-1/2`, `*`, …) outside
///   comments and variations, so games without tags and text between games are cut apart
///   (comments right after a result stay with their game);
/// - inside a comment that was never closed, at a line that looks like a tag
///   (`[Name "`), and inside a comment or a variation that was never closed, at a line
///   that starts with move number 1 (`1.`, `1...`, `1…`) right after a blank line or
///   after a line that ends with a result token (how games without tags begin, also when
///   they are written one a line), and inside such a comment at any `1.` token that
///   follows a result token (games run together on one line), so an unclosed `{` or `(`
///   spoils only its own game. A comment opened after a result and never closed (up to
///   such a place or the end of the input) is a chunk of its own (text between games), so
///   the game before it stays as it was; so is a `(` after a result. A chunk holding a
///   comment that never closed is always a chunk (an error to the parser, "unterminated
///   comment"), never dropped as blank text.
///
/// Inside a comment, a place at a `1.` is a guess: a comment may hold one and still close
/// (`{as in 1-0⏎1. c3-d4 … 1-0 between them}`, a game quoted in a note). So such a guess
/// waits, and the text after it is scanned as the next game (what that scan cuts is held
/// back). The guess is withdrawn, and the text is the comment's as the parser reads it, if
/// the first `}` after it comes before the scan has cut twice (the quoted game, the text
/// after it), or a `{` comes before the scan has cut at all (comments do not nest: it is the
/// same comment's text). It stands at a second cut, at a `{` after a cut (a later game's own
/// comment), at the end of the input, or when more is held back than the game size limit.
/// So a comment holding such a place, then two results (or tag lines, or blank lines), or
/// one and a `{`, is still cut there; and where a `{` was really left open, a `{` in the
/// game after the guess, or a stray `}` in the two games after it, costs them too. A tag
/// line (`[Name "`) in a comment, and a line starting `1.` after a blank line or a result
/// in a variation, start a new game at once (drafti's writer puts neither a result nor a
/// blank line in a variation outside its comments).
///
/// A line longer than 64 KiB is scanned in pieces; what a piece is part of carries over
/// to the next: a tag pair (its value may be of any length, with spaces or without, up to
/// the game's size limit), a `%` line, a comment.
///
/// Lines end with `\n`, `\r\n` or a lone `\r` (old Mac files); a byte-order mark at the start
/// of a line and the DOS end-of-file byte 0x1A are white space. `%` lines are skipped. The
/// scanner tracks `{…}` comments (which may span lines), variation depth and quoted tag
/// values, and nothing else; it never fails on any bytes, and every byte is looked at a
/// bounded number of times, so any input is split in linear time and bounded memory (a
/// waiting guess holds back no more than the game size limit).
///
/// ```
/// use drafti_pdn::GameSplitter;
/// let text = b"[Event \"a\"]\n1. c3-d4 *\n[Event \"b\"]\n1. c3-b4 1-0 1. c3-d4 0-1\n";
/// let games: Vec<_> = GameSplitter::new(&text[..]).map(|g| g.unwrap()).collect();
/// assert_eq!(games.len(), 3);
/// assert_eq!((games[1].line, games[1].column), (3, 1));
/// assert_eq!((games[2].line, games[2].column), (4, 14));
/// assert_eq!(games[2].bytes, b"1. c3-d4 0-1\n");
/// ```
pub struct GameSplitter<R> {
    reader: R,
    /// A piece being gathered across reads of `reader` (empty when a piece lies inside
    /// the reader's buffer, which is then scanned in place).
    partial: Vec<u8>,
    finished: bool,
    state: State,
}

/// Everything but the reader.
struct State {
    max_game_bytes: usize,
    /// File offset, line and column of the next piece; whether it starts a line.
    offset: usize,
    line: u32,
    column: u32,
    at_line_start: bool,
    /// Every piece of the current line so far is white space.
    line_blank: bool,
    /// The line before the current one was blank (white space only).
    prev_blank: bool,
    /// The last token of the line before the current one (its raw text, in a comment or
    /// not) is a result: with a line starting `1.`, where an unclosed comment or variation
    /// gives way to the next game.
    prev_result: bool,
    /// The last token of the current line so far is a result.
    line_result: bool,
    /// The tag pairs of the current line run on past the piece scanned so far (a tag line
    /// longer than a piece), or not.
    tag: TagScan,
    /// The current line is a `%` escape line that runs on past the piece scanned so far.
    escape_line: bool,
    /// The first `}` of the piece being scanned at or after a place, once looked for:
    /// `(place, where)`.
    close: Option<(usize, Option<usize>)>,
    next_index: usize,
    started: bool,
    ready: VecDeque<RawGame>,
    cur: Current,
    /// A guess that a comment never closed, waiting for the comment's `}`; `cur` is then
    /// the game the guess began.
    pending: Option<Box<Pending>>,
}

/// A guess that a comment never closed (see [`GameSplitter`]), until it is confirmed or
/// withdrawn.
struct Pending {
    /// The game whose comment it is, as it was at the guess (the comment still open).
    old: Current,
    /// What the scan cut since the guess, in order, each with whether it is a chunk to
    /// yield (not blank text); given back to `old` if the comment closes.
    held: Vec<(Current, bool)>,
    /// The memory `held` takes, against the game size limit.
    held_cost: usize,
}

/// The game being collected.
#[derive(Default)]
struct Current {
    /// Its bytes, at most `max_game_bytes` of them.
    bytes: Vec<u8>,
    offset: usize,
    line: u32,
    column: u32,
    truncated: bool,
    /// It holds a tag or a movetext token (not only blank lines and comments).
    substantive: bool,
    seen_movetext: bool,
    after_result: bool,
    in_comment: bool,
    depth: u32,
    first_tag: Option<Vec<u8>>,
    /// The first tag line is not a whole tag (`[White "Neema` with no closing quote).
    first_tag_broken: bool,
    /// A blank line came after the last tag line (and no movetext yet).
    blank_after_tags: bool,
    /// A comment opened after the result and not closed yet: where it starts.
    stray: Option<Start>,
    /// The text of the comment still open ends with a result token (and white space): a
    /// `1.` next is taken for the next game's first move.
    comment_result: bool,
    /// A tag line that runs on past its first piece, whose form (whole or broken) is
    /// known at the end of its line.
    long_tag: Option<LongTag>,
}

/// A tag line longer than a piece (a value of more than 64 KiB): what its end decides.
struct LongTag {
    /// The start of its line (`at`: in the current game's bytes).
    start: Start,
    /// Its `[`, this far into the line.
    bracket: usize,
    /// It is the game's first tag line: whether that is whole is known at its end.
    first: bool,
    /// It ends the game before it if it is whole (that game's first tag line is broken and
    /// it has no movetext).
    split_if_whole: bool,
    /// Its tag name.
    name: Vec<u8>,
}

/// Where the scan of a line's tag pairs stands at the end of a piece.
#[derive(Clone, Copy, Default)]
struct TagScan {
    /// Inside a tag pair (after its `[`, before its `]`).
    in_tag: bool,
    in_quotes: bool,
    /// The last byte was a `\` inside quotes: the next one is taken as it is.
    escaped: bool,
}

/// Where a chunk starts: index in the current game's bytes, and file position.
#[derive(Clone, Copy)]
struct Start {
    at: usize,
    offset: usize,
    line: u32,
    column: u32,
}

/// The scan of one piece: where the current game's part of it begins, and a column mark
/// (the column of `piece[mark.0]`) to count columns from, forward only.
struct Cursor {
    seg: usize,
    mark: (usize, u32),
}

impl<R: BufRead> GameSplitter<R> {
    /// A splitter over `reader` (wrap files in a `BufReader`).
    pub fn new(reader: R) -> Self {
        GameSplitter {
            reader,
            partial: Vec::new(),
            finished: false,
            state: State {
                max_game_bytes: DEFAULT_MAX_GAME_BYTES,
                offset: 0,
                line: 1,
                column: 1,
                at_line_start: true,
                line_blank: true,
                prev_blank: false,
                prev_result: false,
                line_result: false,
                tag: TagScan::default(),
                escape_line: false,
                close: None,
                next_index: 0,
                started: false,
                ready: VecDeque::new(),
                cur: Current {
                    line: 1,
                    column: 1,
                    ..Current::default()
                },
                pending: None,
            },
        }
    }

    /// Sets the most bytes one game may hold (default [`DEFAULT_MAX_GAME_BYTES`], 4 MiB).
    /// A longer game keeps exactly its first `max` bytes and is marked
    /// [`RawGame::truncated`]; the rest is scanned for the next game but not stored, so
    /// memory stays bounded on any input and no game after it is lost.
    pub fn with_max_game_bytes(mut self, max: usize) -> Self {
        self.state.max_game_bytes = max.max(1);
        self
    }

    /// Reads one piece (a line, or a part of a long line ending at a space) and scans it.
    /// Returns `false` at the end of input.
    fn step(&mut self) -> io::Result<bool> {
        let GameSplitter {
            reader,
            partial,
            state,
            ..
        } = self;
        loop {
            let buf = match reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if partial.is_empty() {
                    return Ok(false);
                }
                state.process(partial, false);
                partial.clear();
                return Ok(true);
            }
            match piece_end(buf, partial.len()) {
                PieceEnd::At { len, line_end } if partial.is_empty() => {
                    // The usual case: a whole line inside the reader's buffer, scanned there.
                    state.process(&buf[..len], line_end);
                    reader.consume(len);
                    return Ok(true);
                }
                PieceEnd::At { len, line_end } => {
                    partial.extend_from_slice(&buf[..len]);
                    reader.consume(len);
                    state.process(partial, line_end);
                    partial.clear();
                    return Ok(true);
                }
                PieceEnd::CrAtEnd => {
                    // `\r` is the buffer's last byte: a `\n` may follow in the next one.
                    partial.extend_from_slice(buf);
                    let n = buf.len();
                    reader.consume(n);
                    let next = loop {
                        match reader.fill_buf() {
                            Ok(next) => break next,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                            Err(e) => return Err(e),
                        }
                    };
                    if next.first() == Some(&b'\n') {
                        partial.push(b'\n');
                        reader.consume(1);
                    }
                    state.process(partial, true);
                    partial.clear();
                    return Ok(true);
                }
                PieceEnd::NotYet => {
                    partial.extend_from_slice(buf);
                    let n = buf.len();
                    reader.consume(n);
                    if partial.len() >= MAX_PIECE_BYTES {
                        state.process(partial, false);
                        partial.clear();
                        return Ok(true);
                    }
                }
            }
        }
    }
}

/// Where the piece that has `have` bytes already (and continues with `buf`) ends.
enum PieceEnd {
    /// After `buf[..len]`, which ends a line or not.
    At { len: usize, line_end: bool },
    /// `buf` ends with a `\r`: the next byte decides whether it is `\r\n`.
    CrAtEnd,
    /// Not inside `buf`.
    NotYet,
}

#[inline]
fn piece_end(buf: &[u8], have: usize) -> PieceEnd {
    let line_end = |k: usize| {
        if buf[k] == b'\n' {
            PieceEnd::At {
                len: k + 1,
                line_end: true,
            }
        } else if k + 1 == buf.len() {
            PieceEnd::CrAtEnd
        } else {
            let len = k + 1 + usize::from(buf[k + 1] == b'\n');
            PieceEnd::At {
                len,
                line_end: true,
            }
        }
    };
    let room = PIECE_BYTES.saturating_sub(have).min(buf.len());
    if let Some(k) = memchr::memchr2(b'\n', b'\r', &buf[..room]) {
        return line_end(k);
    }
    if room == buf.len() && have + buf.len() < PIECE_BYTES {
        return PieceEnd::NotYet;
    }
    // A long line: end the piece at the next space (a token boundary).
    match buf[room..].iter().position(|&b| is_space(b)) {
        Some(k) if matches!(buf[room + k], b'\n' | b'\r') => line_end(room + k),
        Some(k) => PieceEnd::At {
            len: room + k + 1,
            line_end: false,
        },
        None => PieceEnd::NotYet,
    }
}

impl State {
    /// Appends `bytes` (the current game's next bytes) within the size limit.
    #[inline]
    fn store(&mut self, bytes: &[u8]) {
        let room = self.max_game_bytes.saturating_sub(self.cur.bytes.len());
        if bytes.len() > room {
            self.cur.truncated = true;
            self.cur.bytes.extend_from_slice(&bytes[..room]);
        } else {
            self.cur.bytes.extend_from_slice(bytes);
        }
    }

    /// Finishes the current game (if it holds anything) and starts an empty one at `start`.
    /// While a guess waits, the game is held back instead.
    fn emit(&mut self, start: Start) {
        if self.pending.is_some() {
            self.hold(start);
            return;
        }
        let hint = (self.cur.bytes.len() + self.cur.bytes.len() / 4).clamp(256, 1 << 16);
        let cur = self.take_current(start, hint);
        // A comment still open here never closed: the chunk is an error, not blank text.
        if cur.substantive || cur.in_comment {
            self.push(cur);
        }
    }

    /// [`State::emit`] while a guess waits: the game is held back, with whether it is a
    /// chunk to yield.
    #[cold]
    fn hold(&mut self, start: Start) {
        let hint = (self.cur.bytes.len() + self.cur.bytes.len() / 4).clamp(256, 1 << 16);
        let cur = self.take_current(start, hint);
        let keep = cur.substantive || cur.in_comment;
        if let Some(p) = self.pending.as_deref_mut() {
            p.held_cost += cur.bytes.capacity() + std::mem::size_of::<Current>();
            p.held.push((cur, keep));
        }
    }

    /// Takes the current game out and starts an empty one at `start`, with room for
    /// `capacity` bytes.
    fn take_current(&mut self, start: Start, capacity: usize) -> Current {
        let cur = std::mem::take(&mut self.cur);
        self.cur.bytes = Vec::with_capacity(capacity);
        self.cur.offset = start.offset;
        self.cur.line = start.line;
        self.cur.column = start.column;
        cur
    }

    /// Yields `cur` as the next game.
    fn push(&mut self, mut cur: Current) {
        if cur.bytes.capacity() > 2 * cur.bytes.len() + 4096 {
            cur.bytes.shrink_to_fit();
        }
        self.ready.push_back(RawGame {
            index: self.next_index,
            offset: cur.offset,
            line: cur.line,
            column: cur.column,
            bytes: cur.bytes,
            truncated: cur.truncated,
        });
        self.next_index += 1;
    }

    /// Yields a game whose comment never closed: a chunk, an error to the parser. If the
    /// comment opened after the result, the game is whole before it and the comment is a
    /// chunk of its own.
    fn push_unclosed(&mut self, mut game: Current) {
        match game.stray.take() {
            // The game's bytes up to the comment were all stored (or the stray would have
            // been dropped, see `scan_piece`): the game is whole, the rest is the chunk's.
            Some(stray) if stray.at <= game.bytes.len() => {
                let tail = game.bytes.split_off(stray.at);
                let truncated = std::mem::take(&mut game.truncated);
                self.push(game);
                self.push(Current {
                    bytes: tail,
                    offset: stray.offset,
                    line: stray.line,
                    column: stray.column,
                    truncated,
                    ..Current::default()
                });
            }
            _ => self.push(game),
        }
    }

    /// The position of `piece[at]` (which is at or after the cursor's column mark).
    #[inline]
    fn start_at(&self, piece: &[u8], at: usize, c: &mut Cursor) -> Start {
        let column = c.mark.1 + count_chars(&piece[c.mark.0..at]);
        c.mark = (at, column);
        Start {
            at: 0,
            offset: self.offset + at,
            line: self.line,
            column,
        }
    }

    /// Ends the current game before `piece[at]`; the next one starts there.
    fn split_at(&mut self, piece: &[u8], at: usize, c: &mut Cursor) {
        self.store(&piece[c.seg..at]);
        let start = self.start_at(piece, at, c);
        self.emit(start);
        c.seg = at;
    }

    /// Scans one piece of input, cutting games where they end. `line_end`: the piece ends
    /// its line.
    fn process(&mut self, piece: &[u8], line_end: bool) {
        let mut c = Cursor {
            seg: 0,
            mark: (0, self.column),
        };
        if !self.started {
            self.started = true;
            if piece.starts_with(BOM) {
                // Not part of the text: the game starts after it, at column 1.
                c = Cursor {
                    seg: 3,
                    mark: (3, 1),
                };
                self.cur.offset = 3;
            }
        }
        if self.at_line_start {
            self.line_blank = true;
            self.line_result = false;
        }
        if self.line_blank {
            // Leading white space only: the scan below looks at these bytes again at most.
            self.line_blank = skip_blank(piece, c.seg) == piece.len();
        }
        let (line_start, first) = (self.at_line_start, c.seg);
        let mut from = first;
        self.close = None;
        loop {
            // While a guess waits, the scan stops at the next `}`, where the comment of the
            // guess would close.
            let end = match self.pending {
                None => piece.len(),
                Some(_) => self.first_close(piece, from).unwrap_or(piece.len()),
            };
            from = match self.scan_piece(&piece[..end], from, &mut c) {
                // A guess began there, or a comment opened after one: scan on from there.
                Some(at) => at,
                None if end == piece.len() => break,
                None => self.close_guess(end, &c),
            };
            self.at_line_start = line_start && from == first;
        }
        self.store(&piece[c.seg..]);
        if let Some(token) = last_token(piece) {
            self.line_result = is_result(token);
        }
        self.offset += piece.len();
        if line_end {
            if let Some(long) = self.cur.long_tag.take() {
                self.settle_long_tag(long);
            }
            self.line += 1;
            self.column = 1;
            self.at_line_start = true;
            self.prev_blank = self.line_blank;
            self.prev_result = self.line_result;
            self.tag = TagScan::default();
            self.escape_line = false;
        } else {
            self.column = c.mark.1 + count_chars(&piece[c.mark.0..]);
            self.at_line_start = false;
        }
        if let Some(p) = &self.pending {
            // Cut more often, the guess stands; held back this long, the comment would make
            // its game too long anyway.
            if p.held.len() > HELD_CUTS
                || p.old.bytes.len() + p.held_cost + self.cur.bytes.len() > self.max_game_bytes
            {
                self.confirm_pending();
            }
        }
    }

    /// The scan stopped at `piece[k]`, the first `}` since the guess that waits, in no
    /// comment of the text after it: the comment of the guess closes there, unless the
    /// guess stands. Returns where the scan goes on.
    #[cold]
    #[inline(never)]
    fn close_guess(&mut self, k: usize, c: &Cursor) -> usize {
        if self.withdraw_guess(k - c.seg) {
            self.cur.in_comment = false;
            self.cur.stray = None;
            k + 1
        } else {
            k
        }
    }

    /// The first `}` at or after `piece[from]` in the piece being scanned (whole): the
    /// last answer is kept, so the bytes up to a `}` are looked at once, however many
    /// guesses and comments the line holds.
    #[cold]
    fn first_close(&mut self, piece: &[u8], from: usize) -> Option<usize> {
        match self.close {
            Some((at, found)) if at <= from && found.is_none_or(|k| k >= from) => found,
            _ => {
                let found = memchr::memchr(b'}', &piece[from..]).map(|k| from + k);
                self.close = Some((from, found));
                found
            }
        }
    }

    /// Scans `piece` from `piece[ls]` (the start of the piece, or of its rest when
    /// `at_line_start` is false). Returns where the scan must start again if it stopped
    /// early: where a guess began, or where a comment opened after one.
    fn scan_piece(&mut self, piece: &[u8], ls: usize, c: &mut Cursor) -> Option<usize> {
        let mut i = ls;
        if !self.at_line_start {
            // The rest of a line longer than a piece: an escape line stays one, tags stay
            // tags (a value of any length, spaces or not, up to the game's size limit).
            if self.escape_line {
                return None;
            }
            if self.tag.in_tag {
                i = skip_tags(piece, ls, &mut self.tag);
                if !self.tag.in_tag {
                    return self.scan_movetext(piece, i, c);
                }
                return None;
            }
        }
        if self.cur.in_comment {
            let tag = self.at_line_start && looks_like_tag(&piece[ls..]);
            if tag || self.at_line_start && self.first_move_after_end(&piece[ls..]) {
                // A tag line is the next game's at once; a `1.` may still be the comment's.
                if self.end_unclosed_comment(piece, ls, c, !tag) {
                    return Some(ls);
                }
            } else {
                // (No guess waits: `piece` is the whole piece.)
                let close = self.first_close(piece, ls);
                let text = &piece[..close.unwrap_or(piece.len())];
                match (
                    comment_boundary(text, ls, &mut self.cur.comment_result),
                    close,
                ) {
                    (Some(k), _) => {
                        if self.end_unclosed_comment(piece, k, c, true) {
                            return Some(k);
                        }
                        i = k;
                    }
                    (None, None) => return None,
                    (None, Some(k)) => {
                        self.cur.in_comment = false;
                        self.cur.stray = None;
                        self.cur.comment_result = false;
                        i = k + 1;
                    }
                }
            }
        }
        if i == ls && self.at_line_start {
            if self.cur.depth > 0 && self.first_move_after_end(&piece[ls..]) {
                // A variation that never closed: this line starts the next game.
                self.split_at(piece, ls, c);
            }
            let j = skip_blank(piece, ls);
            if j == piece.len() {
                // (Not blank if the scan stops at a `}` after white space.)
                if self.line_blank {
                    self.cur.blank_after_tags = self.cur.first_tag.is_some();
                }
                return None;
            }
            if piece[j] == b'%' {
                self.escape_line = true;
                return None;
            }
            if piece[j] == b'[' {
                i = self.tag_line(piece, ls, j, c);
                if self.tag.in_tag {
                    return None;
                }
            }
        }
        self.scan_movetext(piece, i, c)
    }

    /// A line whose first byte `piece[j]` is a `[` (the line starts at `piece[ls]`): ends
    /// the game before it where a tag line does, then skips its tags; returns where its
    /// movetext starts. A first tag that runs on past the piece is settled at the end of
    /// its line ([`State::settle_long_tag`]).
    fn tag_line(&mut self, piece: &[u8], ls: usize, j: usize, c: &mut Cursor) -> usize {
        let name = tag_name(&piece[j + 1..]);
        let form = tag_form(&piece[j..]);
        let whole = form == TagForm::Whole;
        let repeated =
            self.cur.blank_after_tags && self.cur.first_tag.as_deref().is_some_and(|f| f == name);
        let after_broken = self.cur.first_tag_broken && !self.cur.seen_movetext && whole;
        if self.cur.seen_movetext || self.cur.after_result || repeated || after_broken {
            self.split_at(piece, ls, c);
        }
        let first = self.cur.first_tag.is_none();
        if first {
            self.cur.first_tag = Some(name.to_vec());
            self.cur.first_tag_broken = !whole;
        }
        if form == TagForm::RunsOn {
            let split_if_whole = !first && self.cur.first_tag_broken && !self.cur.seen_movetext;
            if first || split_if_whole {
                let mut start = self.start_at(piece, ls, c);
                start.at = self.cur.bytes.len() + (ls - c.seg);
                self.cur.long_tag = Some(LongTag {
                    start,
                    bracket: j - ls,
                    first,
                    split_if_whole,
                    name: name.to_vec(),
                });
            }
        }
        self.cur.substantive = true;
        self.cur.blank_after_tags = false;
        skip_tags(piece, j, &mut self.tag)
    }

    /// The end of a tag line that ran on past its first piece: now that it is all stored,
    /// whether its first tag is whole decides what a short line would have decided at once.
    fn settle_long_tag(&mut self, long: LongTag) {
        let Some(line) = self.cur.bytes.get(long.start.at + long.bracket..) else {
            return; // cut by the size limit before the tag: the game is an error anyway
        };
        let whole = tag_form(line) == TagForm::Whole;
        if long.split_if_whole && whole {
            self.split_before_long_tag(long);
        } else if long.first {
            self.cur.first_tag_broken = !whole;
        }
    }

    /// A whole tag line after a game whose first tag line is broken and that has no
    /// movetext: that game ends before the line, as it does for a short line.
    fn split_before_long_tag(&mut self, long: LongTag) {
        let tail = self.cur.bytes.split_off(long.start.at);
        let truncated = std::mem::take(&mut self.cur.truncated);
        // What the scan found since the line's start belongs to the game it starts (the
        // game before had no movetext, or the line would have ended it at once).
        let seen_movetext = std::mem::take(&mut self.cur.seen_movetext);
        let after_result = std::mem::take(&mut self.cur.after_result);
        let in_comment = std::mem::take(&mut self.cur.in_comment);
        let depth = std::mem::take(&mut self.cur.depth);
        let comment_result = std::mem::take(&mut self.cur.comment_result);
        let stray = self.cur.stray.take();
        self.emit(long.start);
        self.cur.bytes = tail;
        self.cur.truncated = truncated;
        self.cur.seen_movetext = seen_movetext;
        self.cur.after_result = after_result;
        self.cur.in_comment = in_comment;
        self.cur.depth = depth;
        self.cur.comment_result = comment_result;
        self.cur.stray = stray.map(|s| Start {
            at: s.at - long.start.at,
            ..s
        });
        self.cur.substantive = true;
        self.cur.first_tag = Some(long.name);
        self.cur.first_tag_broken = false;
    }

    /// A comment that never closed ends before `piece[at]`, where the next game starts
    /// (the game is an error, "unterminated comment"; one opened after a result is a chunk
    /// of its own and the game before it stays whole). With `wait`, that is a guess that
    /// waits for the comment's `}` (see [`GameSplitter`]) and the function returns `true`:
    /// the scan goes on from `piece[at]`, up to that `}`. A game already cut by the size
    /// limit is an error anyway: it ends at once.
    fn end_unclosed_comment(
        &mut self,
        piece: &[u8],
        at: usize,
        c: &mut Cursor,
        wait: bool,
    ) -> bool {
        self.store(&piece[c.seg..at]);
        c.seg = at;
        let start = self.start_at(piece, at, c);
        // (No guess waits here: the scan after a guess leaves no comment open.)
        self.confirm_pending();
        // (The text after a guess is most often given back soon: no room reserved.)
        let game = self.take_current(start, 0);
        if !wait || game.truncated {
            self.push_unclosed(game);
            return false;
        }
        self.pending = Some(Box::new(Pending {
            old: game,
            held: Vec::new(),
            held_cost: 0,
        }));
        true
    }

    /// The guess stands: its game, then what was held back since, are yielded.
    fn confirm_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            let Pending { old, held, .. } = *p;
            self.push_unclosed(old);
            for (game, keep) in held {
                if keep {
                    self.push(game);
                }
            }
        }
    }

    /// The guess is withdrawn: the game it cut is whole again, in the state it had at the
    /// guess (its comment open), with the text since (`unstored` more bytes of the piece
    /// being scanned are its too): `true`. Unless the scan cut more than [`HELD_CUTS`]
    /// times since, or that makes the game longer than the size limit: then the guess
    /// stands (`false`).
    fn withdraw_guess(&mut self, unstored: usize) -> bool {
        let Some(p) = self.pending.take() else {
            return false;
        };
        let held: usize = p.held.iter().map(|(game, _)| game.bytes.len()).sum();
        let len = p.old.bytes.len() + held + self.cur.bytes.len() + unstored;
        if p.held.len() > HELD_CUTS || self.cur.truncated || len > self.max_game_bytes {
            self.pending = Some(p);
            self.confirm_pending();
            return false;
        }
        let Pending { old, held, .. } = *p;
        let after = std::mem::replace(&mut self.cur, old);
        // The text is contiguous: nothing was cut by the limit, nor left out between chunks.
        self.cur.bytes.reserve(len - self.cur.bytes.len());
        for (game, _) in &held {
            self.cur.bytes.extend_from_slice(&game.bytes);
        }
        self.cur.bytes.extend_from_slice(&after.bytes);
        self.cur.comment_result = false;
        // What the scan since the guess took the text to be (a tag, a `%` line) is void.
        self.tag = TagScan::default();
        self.escape_line = false;
        true
    }

    /// The movetext part of a piece, from `piece[i]`; returns where the scan must start
    /// again if it stopped early (see [`State::scan_piece`]).
    fn scan_movetext(&mut self, piece: &[u8], mut i: usize, c: &mut Cursor) -> Option<usize> {
        loop {
            let mut state = MovetextState {
                in_comment: self.cur.in_comment,
                after_result: self.cur.after_result,
                depth: self.cur.depth,
                seen_movetext: self.cur.seen_movetext,
            };
            let scan = scan_movetext(piece, i, &mut state);
            self.cur.in_comment = state.in_comment;
            self.cur.after_result = state.after_result;
            self.cur.depth = state.depth;
            self.cur.seen_movetext = state.seen_movetext;
            self.cur.substantive |= state.seen_movetext;
            match scan {
                Scan::End => return None,
                Scan::OpenComment(open) if self.pending.is_some() => {
                    // A `{` after a guess, before the `}` that would close the comment of
                    // the guess. In the game after the guess it is text of that comment (a
                    // comment does not nest), and the guess is withdrawn; after that game,
                    // it is a later game's own comment, and the guess stands. Either way
                    // the scan starts again at the `{`, no longer limited.
                    self.cur.in_comment = false;
                    let uncut = self.pending.as_ref().is_some_and(|p| p.held.is_empty());
                    if !(uncut && self.withdraw_guess(open - c.seg)) {
                        self.confirm_pending();
                    }
                    return Some(open);
                }
                Scan::OpenComment(open) => {
                    if state.after_result {
                        self.note_stray(piece, open, c);
                    }
                    // It does not close on this piece: a result and a `1.` in it are taken
                    // for the next game (games one a line, a stray `{` in one of them).
                    self.cur.comment_result = false;
                    match comment_boundary(piece, open + 1, &mut self.cur.comment_result) {
                        Some(at) => {
                            if self.end_unclosed_comment(piece, at, c, true) {
                                return Some(at);
                            }
                            i = at;
                        }
                        None => return None,
                    }
                }
                Scan::Split(at) => {
                    // Something after the result: the next game (or text between games).
                    self.split_at(piece, at, c);
                    i = at;
                }
            }
        }
    }

    /// Whether `line` (at a line start) starts with move number 1 after a blank line or
    /// after a line that ends with a result token: where an unclosed comment or variation
    /// gives way to the next game.
    #[inline]
    fn first_move_after_end(&self, line: &[u8]) -> bool {
        (self.prev_blank || self.prev_result) && starts_first_move(&line[skip_blank(line, 0)..])
    }

    /// The end of the input: a comment opened after the result and never closed is a
    /// chunk of its own, then the last game (or chunk) ends.
    fn finish(&mut self) {
        // A comment still open at the end never closed.
        self.confirm_pending();
        let end = Start {
            at: 0,
            offset: self.offset,
            line: self.line,
            column: self.column,
        };
        match self.cur.stray.take() {
            Some(stray) if self.cur.in_comment && stray.at <= self.cur.bytes.len() => {
                let tail = self.cur.bytes.split_off(stray.at);
                let chunk_truncated = std::mem::take(&mut self.cur.truncated);
                self.emit(stray);
                self.cur.bytes = tail;
                self.cur.in_comment = true;
                self.cur.truncated = chunk_truncated;
                self.emit(end);
            }
            _ => self.emit(end),
        }
    }

    /// A comment opened at `piece[open]` after the result runs past this piece: remember
    /// where, in case it never closes.
    #[cold]
    fn note_stray(&mut self, piece: &[u8], open: usize, c: &mut Cursor) {
        let mut start = self.start_at(piece, open, c);
        start.at = self.cur.bytes.len() + (open - c.seg);
        self.cur.stray = Some(start);
    }
}

/// What the movetext scan tracks of the current game.
struct MovetextState {
    in_comment: bool,
    after_result: bool,
    depth: u32,
    seen_movetext: bool,
}

/// What the movetext scan of a piece found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// The end of the piece.
    End,
    /// A new game starts here (a token after a result, outside variations).
    Split(usize),
    /// A comment opens here and does not close in the piece.
    OpenComment(usize),
}

/// Scans movetext `bytes[i..]` (the rest of a line): where a new game starts, or where a
/// comment opens that does not close on this line, if either.
///
/// What counts: `{…}` comments, `(` and `)`, and result tokens (a whole token, at depth 0).
/// A token is a run of bytes that are not delimiters; a delimiter other than a space, `{`,
/// `(` or `)` (a stray `]`, say) is a token of its own. Anything but spaces and comments is
/// movetext.
///
/// Most of a line holds none of these events, so it is skipped 16 bytes at a time
/// ([`Chunk`]); the bytes around an event go through [`scan_item`].
#[inline]
fn scan_movetext(bytes: &[u8], mut i: usize, st: &mut MovetextState) -> Scan {
    // `i` is always at a token boundary: the line's start or just after a delimiter/token.
    while !st.after_result {
        let Some(chunk) = bytes.get(i..).and_then(|rest| rest.first_chunk::<CHUNK>()) else {
            break;
        };
        let chunk = Chunk::classify(chunk);
        let starts = (chunk.delimiters << 1) | 1;
        let mut events = chunk.structure;
        if st.depth == 0 {
            events |= chunk.result_starts & starts;
        }
        let quiet = if events == 0 {
            // The last token may run on past the chunk: stop after its last delimiter.
            match (u32::BITS - chunk.delimiters.leading_zeros()) as usize {
                0 => break, // one long token: the byte loop takes it
                n => n,
            }
        } else {
            events.trailing_zeros() as usize
        };
        st.seen_movetext |= !chunk.spaces & ((1u32 << quiet) - 1) != 0;
        i += quiet;
        if events != 0 {
            match scan_item(bytes, i, st) {
                Item::Next(next) => i = next,
                Item::Split => return Scan::Split(i),
                Item::OpenComment => return Scan::OpenComment(i),
            }
        }
    }
    scan_items(bytes, i, st)
}

/// The movetext scan byte by byte, item after item, from `bytes[i]`: the end of a line the
/// chunks do not cover (and what the chunked scan must equal).
fn scan_items(bytes: &[u8], mut i: usize, st: &mut MovetextState) -> Scan {
    while i < bytes.len() {
        match scan_item(bytes, i, st) {
            Item::Next(next) => i = next,
            Item::Split => return Scan::Split(i),
            Item::OpenComment => return Scan::OpenComment(i),
        }
    }
    Scan::End
}

/// What [`scan_item`] found.
enum Item {
    /// Go on from this index.
    Next(usize),
    /// A new game starts at the item.
    Split,
    /// A comment opens and does not close on this line.
    OpenComment,
}

/// Scans one item of movetext at `bytes[i]`: a space, a comment, a parenthesis or a token.
#[inline]
fn scan_item(bytes: &[u8], i: usize, st: &mut MovetextState) -> Item {
    let b = bytes[i];
    if is_space(b) {
        return Item::Next(i + 1);
    }
    if b == b'{' {
        return match memchr::memchr(b'}', &bytes[i + 1..]) {
            Some(k) => Item::Next(i + k + 2),
            None => {
                st.in_comment = true;
                Item::OpenComment
            }
        };
    }
    if st.after_result && st.depth == 0 {
        return Item::Split;
    }
    st.seen_movetext = true;
    match b {
        b'(' => st.depth += 1,
        b')' => st.depth = st.depth.saturating_sub(1),
        _ if is_delimiter(b) => {}
        _ => {
            let len = bytes[i..]
                .iter()
                .position(|&c| is_delimiter(c))
                .unwrap_or(bytes.len() - i);
            if st.depth == 0 && is_result(&bytes[i..i + len]) {
                st.after_result = true;
            }
            return Item::Next(i + len);
        }
    }
    Item::Next(i + 1)
}

/// Bytes [`scan_movetext`] classifies at once.
const CHUNK: usize = 16;

/// Where a result can start: `*`, or `0`, `1` or `2` followed by `-` or `/` (so move
/// numbers such as `12.` are not looked at). The last byte's follower is in the next
/// chunk: a digit there counts.
#[inline(always)]
fn result_starts(digits: u32, dashes: u32, stars: u32) -> u32 {
    (digits & ((dashes >> 1) | 1 << (CHUNK - 1))) | stars
}

/// Bit masks over [`CHUNK`] bytes (bit `k` for byte `k`).
#[derive(Debug, PartialEq, Eq)]
struct Chunk {
    /// Delimiters ([`is_delimiter`]).
    delimiters: u32,
    /// Spaces ([`is_space`]).
    spaces: u32,
    /// `{`, `(` and `)`.
    structure: u32,
    /// Bytes a result can start at ([`result_starts`]).
    result_starts: u32,
}

impl Chunk {
    #[inline(always)]
    fn classify(bytes: &[u8; CHUNK]) -> Chunk {
        #[cfg(target_arch = "x86_64")]
        return Chunk::classify_sse2(bytes);
        #[cfg(not(target_arch = "x86_64"))]
        return Chunk::classify_bytewise(bytes);
    }

    /// With SSE2 (part of every x86-64 CPU): a dozen vector compares.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn classify_sse2(bytes: &[u8; CHUNK]) -> Chunk {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
        };
        // SAFETY: SSE2 is part of every x86-64 CPU (the intrinsics only need the feature);
        // the load reads the 16 bytes of `bytes` (unaligned loads need no alignment).
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            // `v - low <= span` as unsigned bytes: min(x, span) == x.
            let within = |low: u8, span: u8| {
                let x = _mm_sub_epi8(v, _mm_set1_epi8(low as i8));
                _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(span as i8)), x)
            };
            let mask = |m: __m128i| _mm_movemask_epi8(m) as u32;
            let spaces = _mm_or_si128(_mm_or_si128(eq(b' '), eq(0x1a)), within(b'\t', 4));
            let structure = _mm_or_si128(_mm_or_si128(eq(b'{'), eq(b'(')), eq(b')'));
            let other = _mm_or_si128(
                _mm_or_si128(eq(b'}'), eq(b';')),
                _mm_or_si128(eq(b'['), eq(b']')),
            );
            let digits = mask(within(b'0', 2));
            let dashes = mask(_mm_or_si128(eq(b'-'), eq(b'/')));
            Chunk {
                delimiters: mask(_mm_or_si128(_mm_or_si128(spaces, structure), other)),
                spaces: mask(spaces),
                structure: mask(structure),
                result_starts: result_starts(digits, dashes, mask(eq(b'*'))),
            }
        }
    }

    /// Elsewhere: the same masks byte by byte (on x86-64 only the tests use it).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn classify_bytewise(bytes: &[u8; CHUNK]) -> Chunk {
        let mut chunk = Chunk {
            delimiters: 0,
            spaces: 0,
            structure: 0,
            result_starts: 0,
        };
        let (mut digits, mut dashes, mut stars) = (0, 0, 0);
        for (k, &b) in bytes.iter().enumerate() {
            let structure = b == b'{' || b == b'(' || b == b')';
            chunk.spaces |= u32::from(is_space(b)) << k;
            chunk.structure |= u32::from(structure) << k;
            chunk.delimiters |= u32::from(is_delimiter(b)) << k;
            digits |= u32::from(matches!(b, b'0'..=b'2')) << k;
            dashes |= u32::from(b == b'-' || b == b'/') << k;
            stars |= u32::from(b == b'*') << k;
        }
        chunk.result_starts = result_starts(digits, dashes, stars);
        chunk
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<io::Result<RawGame>> {
        loop {
            if let Some(game) = self.state.ready.pop_front() {
                return Some(Ok(game));
            }
            if self.finished {
                return None;
            }
            match self.step() {
                Ok(true) => {}
                Ok(false) => {
                    self.finished = true;
                    self.state.finish();
                }
                Err(e) => {
                    self.finished = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Space, tab, CR, LF, vertical tab, form feed, and the DOS end-of-file byte 0x1A (old
/// files end with one).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | 0x1a)
}

const fn delimiters() -> [bool; 256] {
    let mut t = [false; 256];
    let list = b" \t\r\n\x0b\x0c\x1a{}()[];";
    let mut i = 0;
    while i < list.len() {
        t[list[i] as usize] = true;
        i += 1;
    }
    t
}

static DELIMITER: [bool; 256] = delimiters();

/// Bytes that end a movetext token.
#[inline]
pub(crate) fn is_delimiter(b: u8) -> bool {
    DELIMITER[b as usize]
}

/// Whether `token` is one of the result spellings.
#[inline]
pub(crate) fn is_result(token: &[u8]) -> bool {
    matches!(
        token,
        b"1-0" | b"0-1" | b"1/2-1/2" | b"2-0" | b"0-2" | b"1-1" | b"0-0" | b"*"
    )
}

/// The index of the first byte of `bytes[j..]` that is not white space or a byte-order mark.
#[inline]
fn skip_blank(bytes: &[u8], mut j: usize) -> usize {
    loop {
        while j < bytes.len() && is_space(bytes[j]) {
            j += 1;
        }
        if bytes[j..].starts_with(BOM) {
            j += 3;
        } else {
            return j;
        }
    }
}

/// Whether `text` starts with move number 1: `1.` or `1…` (so `1...` too), not `10.`.
#[inline]
fn starts_first_move(text: &[u8]) -> bool {
    text.starts_with(b"1.") || text.starts_with("1\u{2026}".as_bytes())
}

/// The tag name at the start of `rest` (after `[`), skipping spaces.
fn tag_name(rest: &[u8]) -> &[u8] {
    let mut a = 0;
    while a < rest.len() && (rest[a] == b' ' || rest[a] == b'\t') {
        a += 1;
    }
    let mut b = a;
    while b < rest.len() && (rest[b].is_ascii_alphanumeric() || rest[b] == b'_') {
        b += 1;
    }
    &rest[a..b]
}

/// Whether a line looks like a tag pair: `[`, a name, spaces, `"`.
fn looks_like_tag(line: &[u8]) -> bool {
    let mut j = 0;
    while j < line.len() && is_space(line[j]) {
        j += 1;
    }
    if line.get(j) != Some(&b'[') {
        return false;
    }
    let name = tag_name(&line[j + 1..]);
    if name.is_empty() || !name[0].is_ascii_alphabetic() {
        return false;
    }
    let after = name.as_ptr() as usize - line.as_ptr() as usize + name.len();
    let rest = &line[after..];
    let k = rest.iter().position(|&b| b != b' ' && b != b'\t');
    matches!(k, Some(k) if rest[k] == b'"')
}

/// What the first tag pair of a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagForm {
    /// `[`, a name, `"`, a value closed by `"` on its line (`\"` escapes a quote), `]`.
    Whole,
    /// Not that.
    Broken,
    /// Whole so far, and the bytes end before its line does.
    RunsOn,
}

/// The form of the tag pair at the start of `line` (which starts with `[`).
fn tag_form(line: &[u8]) -> TagForm {
    let name = tag_name(&line[1..]);
    if name.is_empty() {
        return if line.len() == 1 + name_start(&line[1..]) {
            TagForm::RunsOn
        } else {
            TagForm::Broken
        };
    }
    let after = name.as_ptr() as usize - line.as_ptr() as usize + name.len();
    let mut j = after;
    while j < line.len() && (line[j] == b' ' || line[j] == b'\t') {
        j += 1;
    }
    match line.get(j) {
        None => return TagForm::RunsOn,
        Some(b'"') => {}
        Some(_) => return TagForm::Broken,
    }
    j += 1;
    loop {
        match line.get(j) {
            None => return TagForm::RunsOn,
            Some(b'\n' | b'\r') => return TagForm::Broken,
            Some(b'\\') => j += 2,
            Some(b'"') => break,
            Some(_) => j += 1,
        }
    }
    j += 1;
    while j < line.len() && (line[j] == b' ' || line[j] == b'\t') {
        j += 1;
    }
    match line.get(j) {
        None => TagForm::RunsOn,
        Some(b']') => TagForm::Whole,
        Some(_) => TagForm::Broken,
    }
}

/// Where a tag name starts in `rest` (after `[`): past spaces and tabs.
fn name_start(rest: &[u8]) -> usize {
    rest.iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(rest.len())
}

/// Skips tag pairs from `bytes[j]` — a `[`, or the inside of a tag that `st` says runs on
/// from the piece before — quote-aware (a value ends at the end of the line at the latest),
/// and the spaces after them; returns the index after. `st` is left inside a tag when the
/// last one runs on past `bytes`.
fn skip_tags(bytes: &[u8], mut j: usize, st: &mut TagScan) -> usize {
    loop {
        if !st.in_tag {
            if bytes.get(j) != Some(&b'[') {
                return j;
            }
            j += 1;
            *st = TagScan {
                in_tag: true,
                ..TagScan::default()
            };
        }
        while j < bytes.len() {
            let b = bytes[j];
            j += 1;
            if st.escaped {
                st.escaped = false;
                continue;
            }
            match b {
                b'\n' => {
                    *st = TagScan::default();
                    return j;
                }
                b'\\' if st.in_quotes => st.escaped = true,
                b'"' => st.in_quotes = !st.in_quotes,
                b']' if !st.in_quotes => {
                    st.in_tag = false;
                    break;
                }
                _ => {}
            }
        }
        if st.in_tag {
            return j;
        }
        while j < bytes.len() && is_space(bytes[j]) {
            j += 1;
        }
    }
}

/// In the text `bytes[i..]` of a comment that does not close there: the start of a token
/// that begins with move number 1 (`1.`, `1…`) right after a result token, with only white
/// space (line breaks too) between them: how the next game of an archive written one game
/// a line, or run together, begins. `after_result` carries whether the text before
/// `bytes[i]` ended with a result token.
fn comment_boundary(bytes: &[u8], mut i: usize, after_result: &mut bool) -> Option<usize> {
    while i < bytes.len() {
        if is_space(bytes[i]) {
            i += 1;
            continue;
        }
        let end = bytes[i..]
            .iter()
            .position(|&b| is_space(b))
            .map_or(bytes.len(), |k| i + k);
        let token = &bytes[i..end];
        if *after_result && starts_first_move(token) {
            return Some(i);
        }
        *after_result = is_result(token);
        i = end;
    }
    None
}

/// The last run of bytes that are not white space in `piece`, if any.
fn last_token(piece: &[u8]) -> Option<&[u8]> {
    let end = piece.iter().rposition(|&b| !is_space(b))? + 1;
    let start = piece[..end]
        .iter()
        .rposition(|&b| is_space(b))
        .map_or(0, |k| k + 1);
    Some(&piece[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &[u8]) -> Vec<RawGame> {
        GameSplitter::new(text).map(|g| g.unwrap()).collect()
    }

    fn texts(text: &[u8]) -> Vec<String> {
        split(text)
            .into_iter()
            .map(|g| String::from_utf8_lossy(&g.bytes).into_owned())
            .collect()
    }

    #[test]
    fn splits_at_tags_after_movetext_without_blank_lines() {
        let t = texts(b"[A \"1\"]\n1. c3-d4\n[A \"2\"]\n[B \"x\"]\n1. c3-b4 *\n");
        assert_eq!(
            t,
            [
                "[A \"1\"]\n1. c3-d4\n",
                "[A \"2\"]\n[B \"x\"]\n1. c3-b4 *\n"
            ]
        );
    }

    #[test]
    fn tags_only_games_split_at_repeated_first_tag() {
        let t = texts(b"[Event \"a\"]\n[Site \"s\"]\n\n[Event \"b\"]\n1. c3-d4 *");
        assert_eq!(t.len(), 2);
        // Without a blank line a repeated tag stays in its game (as the writer prints it).
        let t = texts(b"[Event \"a\"]\n[Event \"b\"]\n1. c3-d4 *");
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn results_end_games_and_comments_after_them_stay() {
        let t = texts(b"1. c3-d4 1-0 {after}\n1. c3-b4 (1. a3-b4 *) 0-1 garbage here\n");
        assert_eq!(
            t,
            [
                "1. c3-d4 1-0 {after}\n",
                "1. c3-b4 (1. a3-b4 *) 0-1 ",
                "garbage here\n"
            ]
        );
        let g = split(b"1. c3-d4 1-0 {after}\n1. c3-b4 (1. a3-b4 *) 0-1 garbage here\n");
        assert_eq!((g[2].offset, g[2].line, g[2].column), (47, 2, 27));
    }

    #[test]
    fn comments_hide_brackets_and_results() {
        let t = texts(b"1. c3-d4 {1-0\n[Event \n(} d6-e5 *\n");
        assert_eq!(t.len(), 1);
        let t = texts(b"[Event \"{\"]\n1. c3-d4 *\n");
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn unterminated_comment_ends_at_a_tag_line() {
        let t = texts(b"[Event \"a\"]\n1. c3-d4 {oops\nmore\n[Event \"b\"]\n1. c3-d4 *\n");
        assert_eq!(
            t,
            [
                "[Event \"a\"]\n1. c3-d4 {oops\nmore\n",
                "[Event \"b\"]\n1. c3-d4 *\n"
            ]
        );
    }

    #[test]
    fn an_unclosed_bracket_between_tagless_games_is_a_chunk_of_its_own() {
        let game = "1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n\n";
        // A comment opened before the first game and never closed.
        let text = format!("{{ a note, never closed\n\n{}", game.repeat(1000));
        let t = texts(text.as_bytes());
        assert_eq!(t.len(), 1001);
        assert_eq!(t[0], "{ a note, never closed\n\n");
        assert!(t[1..].iter().all(|g| g == game));
        // A `(` line between games.
        let text = format!("{}(\n\n{}", game.repeat(5), game.repeat(200));
        let t = texts(text.as_bytes());
        assert_eq!(t.len(), 206);
        assert_eq!(t[5], "(\n\n");
        assert!(t[6..].iter().all(|g| g == game));
        // A `{` after the last game of a tagged archive: the game stays whole.
        let t = texts(b"[Event \"a\"]\n1. c3-d4 1-0\n\n[Event \"b\"]\n1. c3-b4 0-1\n\n{\n");
        assert_eq!(
            t,
            [
                "[Event \"a\"]\n1. c3-d4 1-0\n\n",
                "[Event \"b\"]\n1. c3-b4 0-1\n\n",
                "{\n"
            ]
        );
        // A `{` after a result, in the middle of a tagless archive.
        let t = texts(format!("{game}{{ stray\n\n{game}").as_bytes());
        assert_eq!(t, [game, "{ stray\n\n", game]);
        // A file that is one unclosed comment is an error, not an archive without games.
        assert_eq!(
            texts(b"{ all of it\n1. c3-d4 1-0\n"),
            ["{ all of it\n1. c3-d4 1-0\n"]
        );
    }

    #[test]
    fn an_unclosed_bracket_inside_a_game_spoils_that_game_only() {
        let game = "1. c3-d4 f6-g5 1-0\n";
        for spoilt in [
            "1. c3-d4 {oops f6-g5 2. g3-h4 1-0\n\n",
            "1. c3-d4 (1. a3-b4 f6-g5 2. g3-h4 1-0\n\n",
            "1. c3-d4 (1. a3-b4 {x\n\n",
            "1. c3-d4 (1. a3-b4 (2. g3-h4 1-0\n \n",
        ] {
            let t = texts(format!("{spoilt}{game}\n{game}").as_bytes());
            assert_eq!(t, [spoilt, &format!("{game}\n"), game], "{spoilt:?}");
        }
        // A `1.` line right after the spoilt game, with no blank line, is taken for the
        // comment's text: the spoilt game runs on to the next blank line.
        let t = texts(format!("1. c3-d4 {{oops\n{game}\n{game}").as_bytes());
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn comments_and_variations_that_close_keep_blank_lines_and_later_moves() {
        for text in [
            &b"1. c3-d4 {a\n\nb\n10. c3-d4} f6-g5 1-0\n"[..],
            b"1. c3-d4 (1. a3-b4\n\n2. g3-h4) f6-g5 1-0\n",
            b"1. c3-d4 (1. a3-b4 {x\n\n} 1-0) f6-g5 1-0\n",
        ] {
            assert_eq!(texts(text).len(), 1, "{}", String::from_utf8_lossy(text));
        }
        // A closed comment between games is not a game.
        assert_eq!(texts(b"1. c3-d4 1-0\n{a\n\nb}\n").len(), 1);
    }

    #[test]
    fn a_comment_holding_a_result_at_a_line_end_and_then_1_stays_whole() {
        // The round trip's case (tests/roundtrip.proptest-regressions): in a variation, a
        // comment with `*` at the end of a line and a line starting with move number 1.
        assert_eq!(texts(b"b8-d8 ({*\n1.}) 1/2-1/2\n").len(), 1);
        let next = "1. c3-b4 f6-g5 0-1\n";
        for result in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"] {
            for game in [
                // At the top level, in a variation, in nested variations.
                format!("1. c3-d4 {{{result}\n1.}} f6-g5 1-0\n"),
                format!("1. c3-d4 ({{{result}\n1.}}) f6-g5 1-0\n"),
                format!(
                    "1. c3-d4 (1. a3-b4 (1... b6-a5 {{a {result}\n1. c3-d4 d6-e5}} 2. b4-c5)) \
                     f6-g5 1-0\n"
                ),
                // Over several lines; the result before `1.` on a line; before a blank line.
                format!("1. c3-d4 {{a\nb {result}\n1. c3-d4 f6-g5\nc}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a\n{result} 1. c3-d4}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a {result} 1. c3-d4\nb}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a {result}\n\n1. c3-d4}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a\n\n1. c3-d4 {result}\n1. c3-d4}} f6-g5 1-0\n"),
                // A game quoted in the comment, its result and text after it.
                format!("1. c3-d4 {{as in {result}\n1. c3-d4 d6-e5 {result} later}} f6-g5 1-0\n"),
                // A `%` line in the comment, and its `}` on one.
                format!("1. c3-d4 {{{result}\n1. c3-d4\n% x\n}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{{result}\n1.\n%}} f6-g5 1-0\n"),
                // A `{` in it (comments do not nest), and a `;` (no comment in PDN).
                format!("1. c3-d4 {{{result}\n1. {{ x}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{{result}\n1.{{\n1. x}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{{result}\n1. ; x}} f6-g5 1-0\n"),
                // In a comment after the result.
                format!("1. c3-d4 f6-g5 1-0 {{{result}\n1. c3-d4}}\n"),
                // The game's result right after the comment.
                format!("1. c3-d4 {{{result}\n1.}} {result}\n"),
                format!("1. c3-d4 {{{result}\n1. c3-d4 {result}\n}}{result}\n"),
            ] {
                for eol in ["\n", "\r\n", "\r"] {
                    let (game, next) = (game.replace('\n', eol), next.replace('\n', eol));
                    let text = format!("{game}{next}");
                    assert_eq!(texts(text.as_bytes()), [game.as_str(), &next], "{text:?}");
                    // Games run together: the next one on the comment's last line.
                    let game = game.trim_end();
                    let text = format!("{game} {next}");
                    assert_eq!(
                        texts(text.as_bytes()),
                        [format!("{game} "), next.clone()],
                        "{text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_guess_in_a_comment_that_does_not_close_before_the_next_games_still_cuts_it() {
        let game = "1. c3-d4 f6-g5 1-0\n";
        let oops = "1. c3-d4 {oops 1-0\n";
        // A `{` in the game after the guess is text of the same comment, which takes that
        // game (the price of reading `{1-0⏎1. {…}` as one comment).
        let text = format!("{oops}1. c3-b4 {{note}} 0-1\n{game}{game}");
        assert_eq!(
            texts(text.as_bytes()),
            [&text[..text.len() - 2 * game.len()], game, game]
        );
        // After a game it is a later game's own comment: the guess stands.
        let text = format!("{oops}{game}1. c3-b4 {{note}} 0-1\n{game}");
        assert_eq!(
            texts(text.as_bytes()),
            [oops, game, "1. c3-b4 {note} 0-1\n", game]
        );
        // So does a stray `}` two cuts later (after a game and more text it closes the
        // comment: a game quoted in it).
        let text = format!("{oops}{game}{game}stray }} 0-1\n{game}");
        assert_eq!(
            texts(text.as_bytes()),
            [oops, game, game, "stray } 0-1\n", game]
        );
        let text = format!("{oops}{game}stray }} 0-1\n{game}");
        assert_eq!(
            texts(text.as_bytes()),
            [&text[..text.len() - game.len()], game]
        );
        // Or a `}` that would make the game longer than the size limit.
        let long = format!("1. c3-b4 {}}} 0-1\n", "x ".repeat(100));
        let text = format!("{oops}{long}{game}");
        assert_eq!(
            texts(text.as_bytes()),
            [&text[..text.len() - game.len()], game]
        );
        let g: Vec<RawGame> = GameSplitter::new(text.as_bytes())
            .with_max_game_bytes(150)
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(g.len(), 3);
        assert_eq!(
            (g[0].bytes.as_slice(), g[0].truncated),
            (oops.as_bytes(), false)
        );
        assert_eq!(
            (g[1].bytes.as_slice(), g[1].truncated),
            (&long.as_bytes()[..150], true)
        );
        assert_eq!(g[2].bytes, game.as_bytes());
        // Or the end of the input.
        let text = format!("{oops}{game}");
        assert_eq!(texts(text.as_bytes()), [oops, game]);
    }

    #[test]
    fn a_guess_waits_across_pieces_and_buffers() {
        // The `}` of the comment more than a piece after the guess, on one long line or on
        // many; read through buffers of every size, the same games.
        let next = "1. c3-b4 f6-g5 0-1\n";
        for sep in [" ", "\n"] {
            let moves = format!("c3-d4{sep}").repeat(PIECE_BYTES / 3);
            for game in [
                format!("1. c3-d4 {{a 1-0 1.{sep}{moves}}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a 1-0\n1.{sep}{moves}}} f6-g5 1-0\n"),
                format!("1. c3-d4 {{a 1-0\n1.{sep}{moves}{{{moves}}} f6-g5 1-0\n"),
            ] {
                let text = format!("{game}{next}");
                for capacity in [7, 1000, 64 << 10, 1 << 20] {
                    let g = split_with(text.as_bytes(), capacity);
                    assert_eq!(g.len(), 2, "{sep:?} {capacity}");
                    assert!(g[0].bytes == game.as_bytes() && g[1].bytes == next.as_bytes());
                    assert_eq!(g[1].offset, game.len());
                }
            }
        }
        // And a guess that stands: read the same whatever the buffer.
        let text = format!("1. c3-d4 {{a 1-0\n{}", next.repeat(10_000));
        for capacity in [7, 1000, 64 << 10] {
            let g = split_with(text.as_bytes(), capacity);
            assert_eq!(g.len(), 10_001);
            assert_eq!(g[0].bytes, b"1. c3-d4 {a 1-0\n");
            assert!(g[1..].iter().all(|g| g.bytes == next.as_bytes()));
        }
    }

    #[test]
    fn bom_blank_and_comment_only_chunks() {
        let g = split(b"\xEF\xBB\xBF[Event \"a\"]\r\n1. c3-d4 *\r\n\r\n%end\r\n{bye}\r\n");
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].offset, g[0].line, g[0].column), (3, 1, 1));
        assert!(g[0].bytes.starts_with(b"[Event"));
        assert!(split(b"").is_empty());
        assert!(split(b"\n\n  \n% only a comment\n").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn chunked_scan_equals_the_byte_loop(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "1-", "2/", "0",
                    " ", "  ", "\t", "\r", "\x0b", "{", "}", "(", ")", "[", "]", ";", "$1",
                    "12.", "1.", "2...", "c3-d4", "22-18", "x", ":", "!?", "ж", "\x01", "\u{2026}",
                ]),
                0..40,
            ),
            depth in 0u32..3,
            after_result: bool,
            seen: bool,
        ) {
            let mut line = pieces.concat().into_bytes();
            line.push(b'\n');
            let fresh = || MovetextState {
                in_comment: false,
                after_result,
                depth,
                seen_movetext: seen,
            };
            let (mut fast, mut slow) = (fresh(), fresh());
            let a = scan_movetext(&line, 0, &mut fast);
            let b = scan_items(&line, 0, &mut slow);
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(
                (fast.in_comment, fast.after_result, fast.depth, fast.seen_movetext),
                (slow.in_comment, slow.after_result, slow.depth, slow.seen_movetext)
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn both_classifiers_agree(bytes: [u8; CHUNK]) {
            #[cfg(target_arch = "x86_64")]
            proptest::prop_assert_eq!(Chunk::classify_sse2(&bytes), Chunk::classify_bytewise(&bytes));
        }
    }

    #[test]
    fn both_classifiers_agree_on_every_byte() {
        for b in 0..=255u8 {
            let mut bytes = [b'c'; CHUNK];
            bytes[b as usize % CHUNK] = b;
            bytes[(b as usize + 7) % CHUNK] = b'-';
            assert_eq!(
                Chunk::classify(&bytes),
                Chunk::classify_bytewise(&bytes),
                "{b:#04x}"
            );
        }
    }

    #[test]
    fn results_are_found_across_chunks() {
        // Results at every offset of a line longer than a chunk, and one after a long token.
        for pad in 0..40 {
            let line = format!(
                "{}{}1-0 x\n",
                " c3-d4".repeat(pad / 6),
                " ".repeat(pad % 6 + 1)
            );
            let mut st = MovetextState {
                in_comment: false,
                after_result: false,
                depth: 0,
                seen_movetext: false,
            };
            let split = scan_movetext(line.as_bytes(), 0, &mut st);
            assert_eq!(split, Scan::Split(line.len() - 2), "{line:?}");
        }
        let line = b"abcdefghijklmnopqrstuvwxyz 0-1 {c} *\n";
        let mut st = MovetextState {
            in_comment: false,
            after_result: false,
            depth: 0,
            seen_movetext: false,
        };
        assert_eq!(scan_movetext(line, 0, &mut st), Scan::Split(line.len() - 2));
    }

    /// `text` split through a reader whose buffer holds `capacity` bytes.
    fn split_with(text: &[u8], capacity: usize) -> Vec<RawGame> {
        GameSplitter::new(std::io::BufReader::with_capacity(capacity, text))
            .map(|g| g.unwrap())
            .collect()
    }

    #[test]
    fn a_tag_line_longer_than_a_piece_stays_in_its_game() {
        // Issue 41: a tag value of more than 64 KiB (256 KiB without spaces) was cut into
        // pieces, the rest read as movetext, and the next tag line started a second game.
        let lengths = [
            PIECE_BYTES - 20,
            PIECE_BYTES - 1,
            PIECE_BYTES,
            PIECE_BYTES + 1,
            PIECE_BYTES + 7,
            MAX_PIECE_BYTES - 1,
            MAX_PIECE_BYTES,
            MAX_PIECE_BYTES + 1,
            2 * MAX_PIECE_BYTES + 3,
            66_000,
        ];
        // With spaces, without, and with what movetext would take for results, comments,
        // variations and escapes (and an escaped quote).
        let fillers: [&[u8]; 4] = [b"ab ", b"a", b"1-0 { ( ", b"x\\\" ] ["];
        for len in lengths {
            for filler in fillers {
                let mut value: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                if value.last() == Some(&b'\\') {
                    value.pop(); // `\"` would not close the value
                }
                for eol in ["\n", "\r\n"] {
                    for (first, second) in [("White", "Black"), ("Event", "White")] {
                        let mut game = Vec::new();
                        game.extend_from_slice(format!("[Event \"e\"]{eol}").as_bytes());
                        game.extend_from_slice(format!("[{first} \"").as_bytes());
                        game.extend_from_slice(&value);
                        game.extend_from_slice(format!("\"]{eol}[{second} \"x\"]{eol}").as_bytes());
                        game.extend_from_slice(format!("{eol}1. c3-d4 f6-g5 1-0{eol}").as_bytes());
                        // The long tag first, and after another tag.
                        let long_first = game[format!("[Event \"e\"]{eol}").len()..].to_vec();
                        for game in [game, long_first] {
                            let next = format!("{eol}[Event \"f\"]{eol}{eol}1. c3-d4 *{eol}");
                            let mut text = game.clone();
                            text.extend_from_slice(next.as_bytes());
                            for capacity in [1000, 8 << 10, 64 << 10, 1 << 20] {
                                let g = split_with(&text, capacity);
                                let what = format!(
                                    "{len} bytes of {:?}, {eol:?}, buffer {capacity}",
                                    String::from_utf8_lossy(filler)
                                );
                                assert_eq!(g.len(), 2, "{what}");
                                // The blank line before the next game stays with this one.
                                let mut whole = game.clone();
                                whole.extend_from_slice(eol.as_bytes());
                                assert!(
                                    g[0].bytes == whole,
                                    "{what}: {} bytes, not {}",
                                    g[0].bytes.len(),
                                    whole.len()
                                );
                                let lines = whole.iter().filter(|&&b| b == b'\n').count();
                                assert_eq!(g[1].line as usize, lines + 1, "{what}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_long_tag_line_after_a_broken_first_tag_starts_the_next_game() {
        // As a short whole tag line does, whatever its length.
        for len in [10, PIECE_BYTES + 5, 3 * PIECE_BYTES] {
            let value = "ab ".repeat(len / 3);
            let text = format!("[White \"Neema\n[Black \"{value}\"]\n\n1. c3-d4 *\n");
            let t = texts(text.as_bytes());
            assert_eq!(
                t,
                ["[White \"Neema\n", &text["[White \"Neema\n".len()..]],
                "{len}"
            );
        }
        // A long tag line that is itself broken stays with the broken one.
        let value = "ab ".repeat(PIECE_BYTES / 2);
        let text = format!("[White \"Neema\n[Black \"{value}\n1. c3-d4 *\n");
        assert_eq!(texts(text.as_bytes()).len(), 1);
    }

    #[test]
    fn an_escape_line_longer_than_a_piece_stays_one() {
        let long = "1-0 x ".repeat(PIECE_BYTES / 3);
        let text = format!("[Event \"a\"]\n%{long}\n1. c3-d4 1-0\n");
        assert_eq!(texts(text.as_bytes()).len(), 1);
    }

    #[test]
    fn a_stray_brace_costs_only_the_game_it_is_in() {
        // Issue 41: tag-less games one a line, no blank lines, a stray `{` after game 3:
        // the comment ran to the end of the file and 100 of 103 games were lost.
        let games: Vec<String> = (0..103)
            .map(|i| format!("1. c3-d4 f6-g5 2. g3-h4 g7-f6 {}", ["1-0", "0-1"][i % 2]))
            .collect();
        for eol in ["\n", "\r\n", "\r"] {
            for stray in [" {", " { a note", "\u{7b}"] {
                let mut lines = games.clone();
                lines[2].push_str(stray);
                let text = lines.join(eol) + eol;
                let t = texts(text.as_bytes());
                assert_eq!(t.len(), 103, "{stray:?} {eol:?}");
                for (k, game) in t.iter().enumerate() {
                    match k {
                        // Game 3 stays whole; the comment and game 4 make one chunk.
                        2 => assert_eq!(game.trim_end(), games[2], "{stray:?}"),
                        3 => assert!(
                            game.starts_with('{') && game.contains(&games[3]),
                            "{game:?}"
                        ),
                        _ => assert_eq!(game.trim_end(), games[k], "{k} {stray:?} {eol:?}"),
                    }
                }
            }
        }
        // A `{` inside game 4 costs game 4.
        let mut lines = games.clone();
        lines[3] = "1. c3-d4 {oops f6-g5 2. g3-h4 g7-f6 0-1".into();
        let t = texts((lines.join("\n") + "\n").as_bytes());
        assert_eq!(t.len(), 103);
        assert_eq!(t[3].trim_end(), lines[3]);
        assert_eq!(t[4].trim_end(), games[4]);
        // Games run together on one line.
        let mut lines = games.clone();
        lines[3] = "1. c3-d4 {oops f6-g5 2. g3-h4 g7-f6 0-1".into();
        let t = texts((lines.join(" ") + "\n").as_bytes());
        assert_eq!(t.len(), 103);
        assert_eq!(t[3].trim_end(), lines[3]);
        assert_eq!(t[102].trim_end(), games[102]);
        // A stray `(` after game 3.
        let mut lines = games.clone();
        lines[2].push_str(" (");
        let t = texts((lines.join("\n") + "\n").as_bytes());
        assert_eq!(t.len(), 103);
        assert_eq!(t[2].trim_end(), games[2]);
        assert!(
            t[3].starts_with('(') && t[3].contains(&games[3]),
            "{}",
            t[3]
        );
        assert_eq!(t[4].trim_end(), games[4]);
    }

    #[test]
    fn oversized_games_are_cut_and_skipped() {
        let mut text = b"[Event \"a\"]\n1. c3-d4 ".to_vec();
        text.extend(std::iter::repeat_n(b'x', 10_000));
        text.extend_from_slice(b"\nmore\n[Event \"b\"]\n1. c3-d4 *\n");
        let g: Vec<RawGame> = GameSplitter::new(&text[..])
            .with_max_game_bytes(100)
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(g.len(), 2);
        assert!(g[0].truncated && g[0].bytes.len() == 100);
        assert!(!g[1].truncated);
        assert_eq!((g[1].line, g[1].offset), (4, text.len() - 23));
    }
}
