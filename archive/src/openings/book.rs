//! The opening book: a TSV file of named lines, read into a table keyed by the position each
//! line reaches; the embedded default book; merging a user's book over it; and the generator
//! of the default (systematic) book.
//!
//! # Format
//! One entry per row, three tab-separated columns: `code`, `name`, `moves`. Rows whose first
//! non-blank character is `#` are comments; blank rows are skipped; an optional header row
//! `code<TAB>name<TAB>moves` is skipped. `moves` is PDN movetext from the start position
//! (`1. c3-d4 d6-e5 2. b2-c3`): move numbers are optional, `!`/`?` after a move are ignored,
//! and a line that starts with `1...` starts with a Black move (it is stored mirrored, like
//! every Black-first game). Lines are read with the Tanzanian rules and may be at most
//! [`CLASSIFY_PLIES`](super::CLASSIFY_PLIES) plies long. A code is one word (no spaces); a
//! book names each position once and uses each code once.

use super::{pack, FxHashMap, CLASSIFY_PLIES};
use drafti_rules::{Color, MoveText, Position, Variant};
use std::collections::HashMap;
use std::fmt;

/// The default book's text (`corpus/openings.tsv`), embedded in the binary.
pub const DEFAULT_BOOK_TSV: &str = include_str!("../../../corpus/openings.tsv");

/// The plies after which the default book names every distinct position.
pub const DEFAULT_BOOK_DEPTHS: [usize; 3] = [2, 3, 4];

/// One named position of a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// A short stable identifier (one word), e.g. `c3d4.d6e5`.
    pub code: String,
    /// A name for people, e.g. `c3-d4 d6-e5 (2 plies)` or `Samba`.
    pub name: String,
    /// The line as written in the book (whitespace collapsed).
    pub moves: String,
    /// The number of plies of the line.
    pub plies: usize,
    /// The position the line reaches, as if White had started (a line written Black-first is
    /// stored mirrored).
    pub position: Position,
    /// The 1-based row (line number) of the entry in its file.
    pub line: usize,
}

/// A column of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BookColumn {
    /// The first column.
    Code,
    /// The second column.
    Name,
    /// The third column.
    Moves,
}

impl fmt::Display for BookColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookColumn::Code => "code",
            BookColumn::Name => "name",
            BookColumn::Moves => "moves",
        })
    }
}

/// What is wrong with a book row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookErrorKind {
    /// The row does not have exactly three tab-separated columns.
    #[error("expected 3 tab-separated columns (code, name, moves), found {0}")]
    ColumnCount(usize),
    /// The code is empty.
    #[error("the code is empty")]
    EmptyCode,
    /// The code has a space or a control character, or starts with `#`.
    #[error("code '{0}' must be one word (no spaces or control characters, not starting with #)")]
    BadCode(String),
    /// The name is empty.
    #[error("the name is empty")]
    EmptyName,
    /// The moves column has no move.
    #[error("no moves")]
    NoMoves,
    /// Something that is neither a move nor a move number (a comment, variation, result…).
    #[error("ply {ply}: unexpected '{text}' (only moves and move numbers are allowed)")]
    UnexpectedToken {
        /// The 1-based ply it stands at.
        ply: usize,
        /// The token.
        text: String,
    },
    /// A token that is not a move.
    #[error("ply {ply}: '{text}' is not a move ({reason})")]
    BadMoveText {
        /// The 1-based ply.
        ply: usize,
        /// The token.
        text: String,
        /// Why.
        reason: String,
    },
    /// A move that is not legal.
    #[error("ply {ply}: {text} is not legal in {fen} (legal: {legal})")]
    IllegalMove {
        /// The 1-based ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// The position before it.
        fen: String,
        /// The legal moves there, space-separated.
        legal: String,
    },
    /// A move that can mean several legal moves.
    #[error("ply {ply}: {text} is ambiguous in {fen} (it can be {candidates})")]
    AmbiguousMove {
        /// The 1-based ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// The position before it.
        fen: String,
        /// The full path of each candidate, space-separated.
        candidates: String,
    },
    /// The line is longer than the classification window.
    #[error("the line has {plies} plies; only the first {max} plies of a game are classified")]
    TooLong {
        /// Plies of the line (counted up to the first one beyond the window).
        plies: usize,
        /// [`CLASSIFY_PLIES`].
        max: usize,
    },
    /// The code is used by an earlier row of the same book.
    #[error("code '{code}' is already used on line {first_line}")]
    DuplicateCode {
        /// The code.
        code: String,
        /// The row that uses it first.
        first_line: usize,
    },
    /// The position is named by an earlier row of the same book.
    #[error("the line reaches the same position as line {first_line} ('{code}'); a book names each position once")]
    DuplicatePosition {
        /// The earlier row's code.
        code: String,
        /// The earlier row.
        first_line: usize,
    },
    /// When merging: the code names another position in the book merged over.
    #[error("code '{code}' already names another position in the book this one is merged over (its line {base_line})")]
    CodeInBase {
        /// The code.
        code: String,
        /// The row of the other position in the base book.
        base_line: usize,
    },
}

/// A book row that cannot be read: the row (1-based line number), the column when one is to
/// blame, and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct BookError {
    /// The 1-based line number of the row in the book file.
    pub line: usize,
    /// The column at fault, if one is.
    pub column: Option<BookColumn>,
    /// What is wrong.
    pub kind: BookErrorKind,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

/// A set of named positions. Look-ups are by position, exact (no hash collisions).
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
    by_position: FxHashMap<u128, u32>,
    by_code: HashMap<String, u32>,
    /// Which material signatures (see [`material`]) some entry has: most positions of a
    /// game are rejected by one bit test, without hashing.
    materials: [u64; 6],
}

/// A position's material: White's piece count, Black's, and whether there are kings, as a
/// number below 338.
#[inline]
fn material(position: &Position) -> usize {
    let white = position.pieces(Color::White).count() as usize;
    let black = position.pieces(Color::Black).count() as usize;
    let kings =
        !(position.kings(Color::White).is_empty() && position.kings(Color::Black).is_empty());
    (white * 13 + black) * 2 + kings as usize
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Reads a book from TSV text (the format is in this module's documentation).
    ///
    /// ```
    /// use drafti_archive::openings::{Book, BookColumn};
    /// let book = Book::parse("# mine\nX\tExchange\t1. c3-d4 f6-e5 2. d4xf6 g7xe5\n").unwrap();
    /// assert_eq!(book.entries()[0].plies, 4);
    /// let err = Book::parse("X\tBad\t1. c3-d4 d6-d5\n").unwrap_err();
    /// assert_eq!((err.line, err.column), (1, Some(BookColumn::Moves)));
    /// assert!(err.to_string().starts_with("line 1, column moves: ply 2: 'd6-d5' is not a move"));
    /// ```
    pub fn parse(text: &str) -> Result<Book, BookError> {
        Book::parse_for(text, Variant::Tanzanian)
    }

    /// Reads a book whose lines are played under `variant`'s rules (a Russian book's lines
    /// may hold captures that only Russian rules allow).
    ///
    /// ```
    /// use drafti_archive::openings::Book;
    /// use drafti_rules::Variant;
    /// let book = Book::parse_for("K\tKol\t1. c3-d4 b6-a5 2. d4-c5 d6xb4 3. a3xc5\n", Variant::Russian).unwrap();
    /// assert_eq!(book.entries()[0].plies, 5);
    /// ```
    pub fn parse_for(text: &str, variant: Variant) -> Result<Book, BookError> {
        let mut book = Book::new();
        let mut header_allowed = true;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let row = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = row.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let columns: Vec<&str> = row.split('\t').map(str::trim).collect();
            if header_allowed
                && columns.len() == 3
                && columns[0].eq_ignore_ascii_case("code")
                && columns[1].eq_ignore_ascii_case("name")
                && columns[2].eq_ignore_ascii_case("moves")
            {
                header_allowed = false;
                continue;
            }
            header_allowed = false;
            let entry = parse_row(&columns, line, variant)?;
            book.insert(entry)?;
        }
        Ok(book)
    }

    /// The default book embedded in the binary (`corpus/openings.tsv`): every distinct
    /// position after 2, 3 and 4 plies from the start, with codes derived from the moves.
    ///
    /// ```
    /// use drafti_archive::openings::Book;
    /// let book = Book::builtin();
    /// assert!(book.by_code("c3d4.d6e5").is_some());
    /// ```
    pub fn builtin() -> Book {
        // The embedded text is checked by a unit test (it equals the generator's output and
        // parses), so this cannot fail on any build that passed the tests.
        Book::parse(DEFAULT_BOOK_TSV).unwrap_or_default()
    }

    fn insert(&mut self, entry: BookEntry) -> Result<(), BookError> {
        let at = |column, kind| BookError {
            line: entry.line,
            column,
            kind,
        };
        if let Some(&i) = self.by_code.get(&entry.code) {
            let first = &self.entries[i as usize];
            return Err(at(
                Some(BookColumn::Code),
                BookErrorKind::DuplicateCode {
                    code: entry.code.clone(),
                    first_line: first.line,
                },
            ));
        }
        let key = pack(&entry.position);
        if let Some(&i) = self.by_position.get(&key) {
            let first = &self.entries[i as usize];
            return Err(at(
                Some(BookColumn::Moves),
                BookErrorKind::DuplicatePosition {
                    code: first.code.clone(),
                    first_line: first.line,
                },
            ));
        }
        let index = self.entries.len() as u32;
        self.by_code.insert(entry.code.clone(), index);
        self.by_position.insert(key, index);
        let m = material(&entry.position);
        self.materials[m / 64] |= 1 << (m % 64);
        self.entries.push(entry);
        Ok(())
    }

    /// Merges `overlay` over this book: an overlay entry replaces the entry of the same
    /// position (so a user can give a systematic position its traditional name); the other
    /// overlay entries are added. An overlay code that names a different, remaining position
    /// of this book is an error naming the overlay row.
    ///
    /// ```
    /// use drafti_archive::openings::Book;
    /// let mut book = Book::builtin();
    /// let n = book.len();
    /// book.merge(Book::parse("MINE\tMy name\t1. c3-d4 d6-e5\n").unwrap()).unwrap();
    /// assert_eq!(book.len(), n);
    /// assert!(book.by_code("c3d4.d6e5").is_none());
    /// assert_eq!(book.by_code("MINE").unwrap().name, "My name");
    /// ```
    pub fn merge(&mut self, overlay: Book) -> Result<(), BookError> {
        let mut slots = self.entries.clone();
        let mut replaced = vec![false; slots.len()];
        let mut appended = Vec::new();
        for entry in overlay.entries {
            match self.by_position.get(&pack(&entry.position)) {
                Some(&i) => {
                    slots[i as usize] = entry;
                    replaced[i as usize] = true;
                }
                None => appended.push(entry),
            }
        }
        // The codes of the base entries that stay must not be taken by the overlay.
        let remaining: HashMap<&str, usize> = slots
            .iter()
            .zip(&replaced)
            .filter(|(_, r)| !**r)
            .map(|(e, _)| (e.code.as_str(), e.line))
            .collect();
        let from_overlay = slots
            .iter()
            .zip(&replaced)
            .filter(|(_, r)| **r)
            .map(|(e, _)| e)
            .chain(&appended);
        for e in from_overlay {
            if let Some(&base_line) = remaining.get(e.code.as_str()) {
                return Err(BookError {
                    line: e.line,
                    column: Some(BookColumn::Code),
                    kind: BookErrorKind::CodeInBase {
                        code: e.code.clone(),
                        base_line,
                    },
                });
            }
        }
        let mut merged = Book::new();
        for e in slots.into_iter().chain(appended) {
            merged.insert(e)?;
        }
        *self = merged;
        Ok(())
    }

    /// The entry naming `position` (as if White had started), if any.
    #[inline]
    pub fn lookup(&self, position: &Position) -> Option<&BookEntry> {
        self.lookup_index(position).map(|i| &self.entries[i])
    }

    /// The index of the entry naming `position` in [`entries`](Book::entries).
    #[inline]
    pub fn lookup_index(&self, position: &Position) -> Option<usize> {
        let m = material(position);
        if self.materials[m / 64] & (1 << (m % 64)) == 0 {
            return None;
        }
        self.by_position.get(&pack(position)).map(|&i| i as usize)
    }

    /// The entry with this code.
    pub fn by_code(&self, code: &str) -> Option<&BookEntry> {
        self.by_code.get(code).map(|&i| &self.entries[i as usize])
    }

    /// Every entry, in book order.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A fingerprint of the book's contents (codes, names and positions, in order), as 16 hex
    /// digits: two runs used the same book if their fingerprints are equal.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            h ^= 0xff;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for e in &self.entries {
            eat(e.code.as_bytes());
            eat(e.name.as_bytes());
            eat(&pack(&e.position).to_le_bytes());
        }
        format!("{h:016x}")
    }
}

fn parse_row(columns: &[&str], line: usize, variant: Variant) -> Result<BookEntry, BookError> {
    let err = |column, kind| BookError { line, column, kind };
    if columns.len() != 3 {
        return Err(err(None, BookErrorKind::ColumnCount(columns.len())));
    }
    let (code, name, moves) = (columns[0], columns[1], columns[2]);
    if code.is_empty() {
        return Err(err(Some(BookColumn::Code), BookErrorKind::EmptyCode));
    }
    if code.starts_with('#') || code.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(err(
            Some(BookColumn::Code),
            BookErrorKind::BadCode(code.to_string()),
        ));
    }
    if name.is_empty() {
        return Err(err(Some(BookColumn::Name), BookErrorKind::EmptyName));
    }
    let (position, plies) =
        play_line(moves, variant).map_err(|kind| err(Some(BookColumn::Moves), kind))?;
    Ok(BookEntry {
        code: code.to_string(),
        name: name.to_string(),
        moves: moves.split_whitespace().collect::<Vec<_>>().join(" "),
        plies,
        position,
        line,
    })
}

const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// Plays a book line from the start under `variant`; returns the position reached (as if
/// White had started) and its number of plies.
fn play_line(moves: &str, variant: Variant) -> Result<(Position, usize), BookErrorKind> {
    let mut pos: Option<Position> = None;
    let mut black_first = false;
    let mut plies = 0;
    for token in moves.split_whitespace() {
        let ply = plies + 1;
        // A move number: digits then dots or an ellipsis, maybe glued to the move.
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let mut rest = token;
        if digits > 0 {
            let after = &token[digits..];
            let marks = after
                .char_indices()
                .take_while(|&(_, c)| c == '.' || c == '…')
                .last()
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or(0);
            if marks > 0 {
                let ellipsis = after[..marks].contains('…') || after[..marks].len() >= 2;
                if plies == 0 && ellipsis {
                    black_first = true;
                }
                rest = &after[marks..];
            }
        } else if token == "..." || token == "…" {
            if plies == 0 {
                black_first = true;
            }
            continue;
        }
        if rest.is_empty() {
            continue;
        }
        let rest = rest.trim_end_matches(['!', '?']);
        if RESULTS.contains(&rest) || rest.starts_with(['{', '}', '(', ')', '$', ';', '[']) {
            return Err(BookErrorKind::UnexpectedToken {
                ply,
                text: token.to_string(),
            });
        }
        let text: MoveText =
            rest.parse().map_err(
                |e: drafti_rules::NotationError| BookErrorKind::BadMoveText {
                    ply,
                    text: rest.to_string(),
                    reason: e.to_string(),
                },
            )?;
        let here = *pos.get_or_insert(Position::start(if black_first {
            Color::Black
        } else {
            Color::White
        }));
        let found = here.find_moves(variant, &text);
        match found.len() {
            1 => pos = Some(here.play(&found[0])),
            0 => {
                let legal = here.legal_moves(variant);
                let names: Vec<String> = legal.iter().map(|m| m.notation(&legal, false)).collect();
                return Err(BookErrorKind::IllegalMove {
                    ply,
                    text: rest.to_string(),
                    fen: here.to_fen(),
                    legal: names.join(" "),
                });
            }
            _ => {
                let names: Vec<String> = found.iter().map(|m| m.full_notation(false)).collect();
                return Err(BookErrorKind::AmbiguousMove {
                    ply,
                    text: rest.to_string(),
                    fen: here.to_fen(),
                    candidates: names.join(" "),
                });
            }
        }
        plies = ply;
        if plies > CLASSIFY_PLIES {
            return Err(BookErrorKind::TooLong {
                plies,
                max: CLASSIFY_PLIES,
            });
        }
    }
    match pos {
        None => Err(BookErrorKind::NoMoves),
        Some(p) if black_first => Ok((p.mirrored(), plies)),
        Some(p) => Ok((p, plies)),
    }
}

/// A line being enumerated: its moves (short and full notation) and the position it reaches.
struct Line {
    position: Position,
    short: Vec<String>,
    full: Vec<String>,
}

impl Book {
    /// Writes the systematic book: every distinct position after each of `depths` plies from the
    /// start (White first, Tanzanian rules), one row each, in order of depth then code. The code
    /// is the position's canonical move order — the lexicographically first sequence of full
    /// move paths among the move orders of that length reaching it — written compactly (`c3d4`,
    /// `d4xf6`) and joined by `.`; the name is that order in PDN with the ply count. A position
    /// already named at a shallower depth is not repeated. The output is the same on every run.
    ///
    /// ```
    /// let tsv = drafti_archive::openings::Book::systematic_tsv(&[2]);
    /// let book = drafti_archive::openings::Book::parse(&tsv).unwrap();
    /// assert_eq!(book.len(), 49);
    /// assert_eq!(book.by_code("a3b4.b6a5").unwrap().name, "a3-b4 b6-a5 (2 plies)");
    /// ```
    pub fn systematic_tsv(depths: &[usize]) -> String {
        let max = depths.iter().copied().max().unwrap_or(0);
        let mut out = String::new();
        out.push_str(&header(depths));
        out.push_str("code\tname\tmoves\n");
        let mut seen: FxHashMap<u128, ()> = FxHashMap::default();
        let start = Position::start(Color::White);
        seen.insert(pack(&start), ());
        let mut level = vec![Line {
            position: start,
            short: Vec::new(),
            full: Vec::new(),
        }];
        for depth in 1..=max {
            let mut next: FxHashMap<u128, Line> = FxHashMap::default();
            for line in &level {
                let legal = line.position.legal_moves(Variant::Tanzanian);
                for mv in &legal {
                    let position = line.position.play(mv);
                    let mut full = line.full.clone();
                    full.push(mv.full_notation(false));
                    let better = match next.get(&pack(&position)) {
                        Some(old) => full < old.full,
                        None => true,
                    };
                    if better {
                        let mut short = line.short.clone();
                        short.push(mv.notation(&legal, false));
                        next.insert(
                            pack(&position),
                            Line {
                                position,
                                short,
                                full,
                            },
                        );
                    }
                }
            }
            let mut lines: Vec<Line> = next.into_values().collect();
            lines.sort_by(|a, b| a.full.cmp(&b.full));
            if depths.contains(&depth) {
                for line in &lines {
                    if seen.insert(pack(&line.position), ()).is_some() {
                        continue;
                    }
                    let code: Vec<String> = line.short.iter().map(|m| m.replace('-', "")).collect();
                    out.push_str(&format!(
                        "{}\t{} ({depth} plies)\t{}\n",
                        code.join("."),
                        line.short.join(" "),
                        movetext(&line.short)
                    ));
                }
            }
            level = lines;
        }
        out
    }
}

/// `1. c3-d4 d6-e5 2. b2-c3`.
pub(crate) fn movetext(moves: &[String]) -> String {
    let mut out = String::new();
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if i & 1 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        out.push_str(mv);
    }
    out
}

fn header(depths: &[usize]) -> String {
    let list: Vec<String> = depths.iter().map(usize::to_string).collect();
    let list = match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => list.join(""),
    };
    format!(
        "\
# drafti default opening book: Tanzanian draughts (8x8, flying kings).
# Generated by the rules core; do not edit by hand. To regenerate:
#   cargo run --release -p drafti-archive --example make_book > corpus/openings.tsv
#
# Columns (tab-separated): code, name, moves. `moves` is PDN movetext from the start
# position, White first. Entries are keyed by the position a line reaches, so transposed
# move orders get the same code; a game's opening is the deepest book position it passes
# through in its first 40 plies (a Black-first game through its mirrored board).
#
# This book names every distinct position after {} plies from the start. The code is the
# position's canonical move order (the lexicographically first of the move orders reaching
# it), moves without '-' joined by '.': c3d4.d6e5 is 1. c3-d4 d6-e5. Codes are stable: the
# same position gets the same code in every version.
#
# The traditional Tanzanian openings - Samba, Sumu ya pandu, Mabano, Goma la kizee, Pasati,
# Kata mara mbili, Mbuzi kavimba, Tege, Bana Mbavu, Chotara - have no published move
# sequences, so this book does not name them (nothing here is invented). To add a name once
# you know its line, write your own TSV file with rows like
#   SAMBA<TAB>Samba<TAB>1. <the line's moves, as PDN>
# and pass it with `drafti openings --book my-book.tsv`: it is merged over this book, and an
# entry for a position this book already names replaces the systematic code and name.
#
",
        list
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> BookError {
        Book::parse(text).unwrap_err()
    }

    #[test]
    fn embedded_book_is_the_generators_output() {
        assert_eq!(DEFAULT_BOOK_TSV, Book::systematic_tsv(&DEFAULT_BOOK_DEPTHS));
        let book = Book::parse(DEFAULT_BOOK_TSV).unwrap();
        assert_eq!(book.len(), 49 + 216 + 805);
        assert_eq!(Book::builtin().len(), book.len());
        for name in ["Samba", "Sumu ya pandu", "Chotara"] {
            assert!(DEFAULT_BOOK_TSV.contains(name), "the header lists {name}");
            assert!(book.entries().iter().all(|e| !e.name.contains(name)));
        }
        let e = book.by_code("c3d4.d6e5").unwrap();
        assert_eq!(
            (e.name.as_str(), e.moves.as_str(), e.plies),
            ("c3-d4 d6-e5 (2 plies)", "1. c3-d4 d6-e5", 2)
        );
    }

    #[test]
    fn errors_name_the_row_the_column_and_the_problem() {
        let e = error("# comment\n\nA\tonly two\n");
        assert_eq!((e.line, e.column), (3, None));
        assert_eq!(e.kind, BookErrorKind::ColumnCount(2));
        assert_eq!(
            e.to_string(),
            "line 3: expected 3 tab-separated columns (code, name, moves), found 2"
        );

        let e = error("code\tname\tmoves\n\tN\t1. c3-d4\n");
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, Some(BookColumn::Code), BookErrorKind::EmptyCode)
        );
        let e = error("A B\tN\t1. c3-d4\n");
        assert_eq!(e.kind, BookErrorKind::BadCode("A B".into()));
        let e = error("A\t \t1. c3-d4\n");
        assert_eq!(
            (e.column, e.kind),
            (Some(BookColumn::Name), BookErrorKind::EmptyName)
        );
        let e = error("A\tN\t 1. \n");
        assert_eq!(
            (e.column, e.kind),
            (Some(BookColumn::Moves), BookErrorKind::NoMoves)
        );

        let e = error("A\tN\t1. c3-d4 {idea}\n");
        assert_eq!(
            e.kind,
            BookErrorKind::UnexpectedToken {
                ply: 2,
                text: "{idea}".into()
            }
        );
        let e = error("A\tN\t1. c3-d4 d6-e5 1-0\n");
        assert_eq!(
            e.kind,
            BookErrorKind::UnexpectedToken {
                ply: 3,
                text: "1-0".into()
            }
        );
        let e = error("A\tN\t1. c3-d4 d6-e5 2. d4-i9\n");
        assert!(
            matches!(e.kind, BookErrorKind::BadMoveText { ply: 3, .. }),
            "{e}"
        );
        assert!(e
            .to_string()
            .starts_with("line 1, column moves: ply 3: 'd4-i9' is not a move"));

        let e = error("A\tN\t1. c3-d4\nB\tN\t1. c3-b4 d6-c5 2. b4-c5\n");
        assert_eq!(e.line, 2);
        assert_eq!(
            e.to_string(),
            "line 2, column moves: ply 3: b4-c5 is not legal in W:W17,21,23-32:B1-9,11,12,14 \
             (legal: b4xd6)"
        );

        let e = error("A\tN\t1. c3-d4\nB\tM\t1. c3-d4\n");
        assert_eq!(
            (e.line, e.kind),
            (
                2,
                BookErrorKind::DuplicatePosition {
                    code: "A".into(),
                    first_line: 1
                }
            )
        );
        let e = error("A\tN\t1. c3-d4 d6-e5\nA\tM\t1. a3-b4 b6-a5\n");
        assert_eq!(
            (e.line, e.column, e.kind),
            (
                2,
                Some(BookColumn::Code),
                BookErrorKind::DuplicateCode {
                    code: "A".into(),
                    first_line: 1
                }
            )
        );
    }

    #[test]
    fn lines_longer_than_the_window_are_refused() {
        let mut pos = Position::start(Color::White);
        let mut moves = Vec::new();
        for _ in 0..=CLASSIFY_PLIES {
            let legal = pos.legal_moves(Variant::Tanzanian);
            moves.push(legal[0].full_notation(false));
            pos = pos.play(&legal[0]);
        }
        let row = format!("L\tLong\t{}\n", movetext(&moves));
        let e = error(&row);
        assert_eq!(e.kind, BookErrorKind::TooLong { plies: 41, max: 40 });
        let row = format!("L\tForty\t{}\n", movetext(&moves[..40]));
        assert_eq!(Book::parse(&row).unwrap().entries()[0].plies, 40);
    }

    #[test]
    fn black_first_lines_are_stored_mirrored() {
        let book = Book::parse("B\tBlack first\t1... f6-e5 2. c3-d4\r\n").unwrap();
        let e = &book.entries()[0];
        let white = Book::parse("W\tWhite first\t1. c3-d4 f6-e5\n").unwrap();
        assert_eq!(e.position, white.entries()[0].position);
        let e = error("W\tN\t1. c3-d4\nB\tN\t1...f6-e5\n");
        assert!(matches!(e.kind, BookErrorKind::DuplicatePosition { .. }));
    }

    #[test]
    fn merging_renames_adds_and_refuses_taken_codes() {
        let mut book = Book::builtin();
        let n = book.len();
        let overlay = "# my names\nSAMBA?\tMy name\t1. c3-d4 d6-e5\nNEW\tFive\t1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. a3-b4\n";
        book.merge(Book::parse(overlay).unwrap()).unwrap();
        assert_eq!(book.len(), n + 1);
        assert_eq!(book.by_code("SAMBA?").unwrap().line, 2);
        assert!(book.by_code("c3d4.d6e5").is_none());
        assert_ne!(book.fingerprint(), Book::builtin().fingerprint());
        // Keeping a replaced entry's code is fine; taking another position's code is not.
        let mut book = Book::builtin();
        book.merge(Book::parse("c3d4.d6e5\tNamed\t1. c3-d4 d6-e5\n").unwrap())
            .unwrap();
        assert_eq!(book.by_code("c3d4.d6e5").unwrap().name, "Named");
        let mut book = Book::builtin();
        let base_line = book.by_code("a3b4.b6a5").unwrap().line;
        let e = book
            .merge(Book::parse("\na3b4.b6a5\tWrong\t1. c3-d4 d6-e5\n").unwrap())
            .unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(BookColumn::Code)));
        assert_eq!(
            e.kind,
            BookErrorKind::CodeInBase {
                code: "a3b4.b6a5".into(),
                base_line
            }
        );
        // The book is unchanged after a failed merge.
        assert_eq!(book.len(), n);
    }
}
