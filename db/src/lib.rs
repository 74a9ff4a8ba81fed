//! drafti's game database: an index of PDN archives built once, and the queries it answers
//! quickly — the opening explorer, `find` (by tag, position, material, pattern) and twins.
//!
//! ```text
//! PDN archives ──drafti-archive (replay)──▶ IndexedGame (record, packed moves, first positions)
//!   ──IndexBuilder (streamed; positions sorted outside memory)──▶ index file
//!   (parts of a sharded build ──merge_parts──▶ the same file one build makes)
//! Index ──explore──▶ moves played from a position, their results, ratings and games
//!       ──find──▶ games by tag, and a position, material or pattern at some ply
//!       ──twins──▶ identical games, games cut short inside longer ones
//! ```
//!
//! **Positions are keyed exactly**: a key is the white pieces, black pieces and kings (three
//! 32-bit masks), the side to move and the variant, packed into 99 bits ([`PositionKey`]);
//! two positions never share one. The explorer indexes the first [`WINDOW`] plies of every
//! game; a position repeated within one game counts once, transpositions join, and a game in
//! which Black moved first (Tanzanian rules) is looked at through its mirrored board, as
//! `drafti openings` does. A whole index keeps the positions that two or more games reach;
//! one that a single game reaches is found from the games' packed moves.
//! A position of many games also keeps each move's totals, so that an unfiltered explorer
//! query reads no game record; the game table's records are sized to the archive
//! ([`RecordLayout`]: no bytes for dates, ratings or book names that no game has).
//!
//! **The file** ([`format`](mod@format)) is versioned and checked: a header, sections, and a trailer of
//! places and checksums; large sections are checked a 64 KiB page at a time as they are read.
//! A damaged or foreign file is an [`IndexError`] that names it.
//!
//! ```
//! use drafti_db::{Books, IndexBuilder, BuildOptions, IndexedGame, Index, explore, ExploreQuery, Filters, GameFilter};
//! use drafti_archive::replay::{replay, ReplayOptions};
//! use drafti_rules::{Color, Position, Variant};
//!
//! let books = Books::shipped().unwrap();
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("games.idx");
//! let mut builder = IndexBuilder::new(BuildOptions::default(), books.fingerprint()).unwrap();
//! for text in ["1. c3-d4 d6-e5 2. b2-c3 1-0", "1. c3-d4 f6-g5 0-1", "1. c3-d4 d6-e5 *"] {
//!     let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
//!     let game = replay(record, &ReplayOptions::default());
//!     builder.add(IndexedGame::new(Ok(&game), &books)).unwrap();
//! }
//! builder.finish(&path, Vec::new()).unwrap();
//!
//! let index = Index::open(&path).unwrap();
//! let filter = GameFilter::new(&index, &books, &Filters::default()).unwrap().unwrap();
//! let start = Position::start(Color::White);
//! let query = ExploreQuery { line: vec![start], variant: Variant::Tanzanian, filter: &filter, max_games: 10 };
//! let seen = explore(&index, &books, &query).unwrap();
//! assert_eq!(seen.stats.tally.games, 3);
//! assert_eq!(seen.moves.len(), 1); // c3-d4, three times
//! ```

#![warn(missing_docs)]

pub mod bits;
mod books;
mod build;
mod explore;
mod filter;
mod find;
pub mod format;
mod game;
mod index;
mod json;
mod key;
mod merge;
mod query;
mod record;
pub mod text;
mod write;

pub use books::{
    Books, BooksError, PositionBallot, FMJD_POSITIONS_TSV, FMJD_TSV, IDF_TSV, RUSSIAN_OPENINGS_TSV,
};
pub use build::{
    build_index, BuildError, BuildOptions, BuildSummary, IndexBuilder, InputFingerprint,
};
pub use explore::{
    explore, line_from_moves, names_of, query_variant, ExploreQuery, Explored, Found, LineError,
    MoveRow, Stats,
};
pub use filter::{FilterError, Filters, GameFilter};
pub use find::{find, twins, FindSummary, InGame, Match, Twin, TwinKind};
pub use format::IndexError;
pub use game::{decode_moves, IndexedGame, WINDOW};
pub use index::{GroupTotals, Index};
pub use json::{
    date_text, explore_rows, ExploreKind, ExploreRow, FoundGame, GameRef, IndexInfo, NameJson,
    StatsJson, TwinJson,
};
pub use key::{move_code, move_of_code, normalised, variant_code, MoveCode, PositionKey, NO_MOVE};
pub use merge::{merge_parts, MergeError};
pub use query::{MaterialQuery, Pattern, PositionQuery, QueryError};
pub use record::{parse_date, GameInfo, Material, Outcome, RecordLayout, RECORD_SIZE};
pub use write::{InputIdentity, Meta, PositionGroup, ShardSpec};
