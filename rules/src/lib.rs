//! The rules core of drafti: squares, bitboards, positions, move generation for Tanzanian
//! draughts (the default) and its relatives Czech and Russian, FEN, notation, the draw laws
//! and perft. No dependencies.
//!
//! # The rules enforced (Tanzanian; see `RULES.md` of the project)
//! - 8×8 board, play on the dark squares, a1 dark; White's men start on 21–32 (rows 1–3),
//!   Black's on 1–12. Either player may start (a FEN or the replay says who).
//! - Men move one square diagonally forward; kings fly any distance over empty squares.
//! - Capturing is compulsory. Men capture forward only (never backward) and may capture
//!   kings; kings capture at a distance and land on any empty square beyond.
//! - A capture continues while the piece can capture again, also across intersecting
//!   diagonals. **Decision**: a king that can continue from some landing squares must land on
//!   one of those.
//! - **Decision**: captured pieces are removed when the move is complete; until then they
//!   block, and no piece is jumped twice.
//! - No priority: any capture sequence may be chosen, short or long, man or king.
//! - A man reaching the far row during a capture is crowned and the move ends there.
//! - Two capture routes with the same start, end and captured set are one move.
//! - A side to move without a legal move loses; the draw laws are in [`outcome`](Game).
//!
//! Czech differs by king priority (if a king can capture, a king must); Russian by men
//! capturing backward and a man crowned mid-capture continuing as a king (see [`Variant`]).
//!
//! # Tanzanian as TzDraft's server plays it ([`Variant::TzDraft`], `tzdraft`)
//! The online platform TzDraft (kayzo1903/TzDraft, at commit c6d93e58) states the article's
//! rules but its server plays three of them otherwise, and ends games by draw rules of its
//! own; drafti reads its games under that reading, named so that it is never mistaken for
//! the article's:
//! 1. a captured piece leaves the board at once, so a king may pass over its square again
//!    (even straight back);
//! 2. a capturing king may stop on any landing square nearer than the first one from which it
//!    could capture again;
//! 3. from that first square it must go on, and it may not land beyond it;
//! 4. the draw rules of its server instead of the article's (see [`Game`]).
//!
//! Everything else is as in Tanzanian. The move generation is checked against TzDraft's own
//! code run under node (`rules/tests/tzdraft_oracle.rs`, `tests/oracle/tzdraft/`).
//!
//! ```
//! use drafti_rules::{perft, Color, Position, Variant};
//! let start = Position::start(Color::White);
//! let moves = start.legal_moves(Variant::Tanzanian);
//! assert_eq!(moves.len(), 7);
//! assert_eq!(perft(&start, Variant::Czech, 5), 7361);
//! ```

#![warn(missing_docs)]

mod bitboard;
mod fen;
mod movegen;
mod mv;
mod notation;
mod outcome;
mod perft;
mod position;
mod rng;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::{king_reach, Bitboard, Direction, Squares, MAIN_DIAGONAL};
pub use fen::FenError;
pub use mv::{Move, MoveList, MAX_CAPTURES, MOVE_LIST_CAPACITY};
pub use notation::{
    move_number, numbered_line, LineError, LineProblem, MoveText, NotationError, Separator,
};
pub use outcome::{
    tzdraft_endgame, tzdraft_strong_side, DrawLaws, DrawReason, Game, KingEnding, Outcome,
    TzDraftCounts,
};
pub use perft::{divide, perft, perft_until};
pub use position::{Color, Piece, Position, SetupError};
pub use rng::SplitMix64;
pub use square::{ParseSquareError, Square};
pub use variant::{ParseVariantError, Variant};
