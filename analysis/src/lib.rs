//! Engine analysis of draughts games: every position of a replayed game searched and every
//! move judged ([`analyse_game`], [`judge`]), positions where one move wins mined as puzzles
//! ([`puzzles`]), games played by the engine ([`selfplay`]), and the hot paths timed
//! ([`mod@bench`]). Built on `drafti-archive`'s replayed games: whole archives
//! analysed in input order ([`batch`]), their analysis written as JSON Lines ([`json`], the
//! format's one set of types) and read back from the parts of a sharded run ([`parts`]).
//!
//! The analysis of a game, by concept: its settings ([`AnalysisOptions`], named sets in
//! [`preset`]); the endgame tables ([`EndgameTables`]); the pass over every position
//! ([`analyse_games`]); the re-search of a nominated move and any move judged again alone
//! ([`recheck`]); what it finds ([`GameAnalysis`]); the record annotated with it
//! ([`annotate`]).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod annotate;
pub mod batch;
pub mod bench;
mod game;
pub mod json;
pub mod judge;
mod options;
pub mod parts;
mod pass;
pub mod preset;
pub mod puzzles;
mod searcher;
pub mod selfplay;
mod tables;
mod verify;

pub use annotate::{annotate, eval_command, flag_comment};
/// The scores of the analysis (the engine's): an estimate, or a proven result.
pub use drafti_engine::Score;
pub use game::{GameAnalysis, MoveAnalysis, PositionEval};
pub use options::{label_doubts_king_endings, label_table_pieces};
pub use options::{
    AnalysisOptions, AnalysisOverrides, DEFAULT_BLUNDER_DEPTHS, DEFAULT_CLEAR_BLUNDER_DROP,
    DEFAULT_CONFIRM_BAND, DEFAULT_CONFIRM_DEPTH, DEFAULT_CONFIRM_NODES, DEFAULT_DEPTH,
    DEFAULT_NOMINATE_DROP, DEFAULT_PASS_NODES, DEFAULT_TT_MB, DEFAULT_VERIFY_DEPTH,
    DEFAULT_VERIFY_NODES,
};
pub use pass::{analyse_game, analyse_games, move_score, SEGMENT_POSITIONS};
pub use searcher::{repetition_draws, Searcher};
pub use tables::{
    doubted_king_ending, first_use_pieces, EndgameTables, FirstUseVariableError,
    DOUBTED_ENDING_PIECES, FIRST_USE_PIECES, FIRST_USE_VARIABLE,
};
pub use verify::{
    recheck, recheck_blunders, MoveToCheck, RECHECK_BLUNDER_DEPTHS, RECHECK_DEPTH, RECHECK_NODES,
    RECHECK_TT_MB,
};
