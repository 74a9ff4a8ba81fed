//! Openings: a book of named positions, the classification of games by the deepest book
//! position they pass through, and statistics per opening and as a move tree.
//!
//! ```text
//! Book (TSV: code, name, moves) ──Book::lookup──▶ named positions (keyed by position)
//! game positions (first 40 plies) ──normalise──▶ as if White had started
//!                                 ──Book::classify──▶ Classification (deepest book position)
//!                                 ──OpeningStats::add_game──▶ per-opening and tree tallies
//! OpeningStats ──rows──▶ StatsRow table (JSON / CSV / text); merge_rows adds shards exactly
//! ```
//! - **Keyed by position**: two move orders that reach the same position get the same opening.
//! - **Colour normalisation**: in Tanzanian draughts either player may start. A game in
//!   which Black moved first is looked at through [`Position::mirrored`] (board turned 180°,
//!   colours swapped), so it reads as a White-first game and gets the same name as its
//!   mirror. The statistics still count results as written (1-0, 0-1) and say who started.
//! - **Window**: only the first [`CLASSIFY_PLIES`] plies of a game are looked at.
//!
//! ```
//! use drafti_archive::openings::{Book, OpeningStats};
//! use drafti_pdn::GameResult;
//! use drafti_rules::{Color, Position, Variant};
//!
//! let book = Book::parse("code\tname\tmoves\nA1\tMy line\t1. c3-d4 d6-e5\n").unwrap();
//! let mut positions = vec![Position::start(Color::White)];
//! for text in ["c3-d4", "d6-e5", "b2-c3"] {
//!     let pos = *positions.last().unwrap();
//!     let mv = pos.parse_move(Variant::Tanzanian, text).unwrap()[0];
//!     positions.push(pos.play(&mv));
//! }
//! let found = book.classify(&positions, Color::White).unwrap();
//! assert_eq!((found.entry.code.as_str(), found.ply), ("A1", 2));
//!
//! let mut stats = OpeningStats::new(&book, 4);
//! stats.add_game(&positions, Color::White, Some(GameResult::WhiteWin), 3);
//! let rows = stats.rows(1);
//! assert_eq!(rows[0].tally.games, 1);
//! assert_eq!(rows[1].code, "A1");
//! ```

mod book;
mod classify;
mod stats;

pub use book::{
    Book, BookColumn, BookEntry, BookError, BookErrorKind, DEFAULT_BOOK_DEPTHS, DEFAULT_BOOK_TSV,
};
pub use classify::{normalised, Classification};
pub use stats::{
    discover, merge_rows, parse_part, ArchiveIdentity, Candidate, EndKind, MergeError,
    OpeningStats, PartError, RowKind, StatsRow, TableEnd, Tally, CSV_HEADER,
};

use drafti_rules::{Color, Position};
use std::hash::{BuildHasherDefault, Hasher};

/// How many plies of a game classification and statistics look at.
pub const CLASSIFY_PLIES: usize = 40;

/// A position packed into one integer: exact (no collisions), cheap to hash.
#[inline]
pub(crate) fn pack(pos: &Position) -> u128 {
    let white = pos.pieces(Color::White).0 as u128;
    let black = pos.pieces(Color::Black).0 as u128;
    let kings = (pos.kings(Color::White).0 | pos.kings(Color::Black).0) as u128;
    let turn = (pos.turn() == Color::Black) as u128;
    white | black << 32 | kings << 64 | turn << 96
}

/// The multiply-rotate hash of rustc (FxHash): fast on small integer keys. Keys here are
/// exact packed positions, so a weak hash costs at most a few extra probes, never a wrong
/// answer.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
pub(crate) mod testutil {
    use drafti_rules::{Color, Position, Variant};

    /// The positions of a line played from the start with `first` to move.
    pub(crate) fn line(first: Color, moves: &[&str]) -> Vec<Position> {
        let mut positions = vec![Position::start(first)];
        for text in moves {
            let pos = *positions.last().unwrap();
            let found = pos.parse_move(Variant::Tanzanian, text).unwrap();
            assert_eq!(found.len(), 1, "{text} in {pos}");
            positions.push(pos.play(&found[0]));
        }
        positions
    }
}
