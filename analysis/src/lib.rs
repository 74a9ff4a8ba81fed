//! Engine analysis of draughts games: every position of a replayed game searched and every
//! move judged ([`analyse_game`], [`judge`]), positions where one move wins mined as puzzles
//! ([`puzzles`]), games played by the engine ([`selfplay`]), and how far cheap verdicts agree
//! with deep ones ([`quality`]). Built on `drafti-archive`'s replayed games: whole archives
//! analysed in input order ([`batch`]), their analysis written as JSON Lines ([`json`], the
//! format's one set of types) and read back from the parts of a sharded run ([`parts`]).
mod analyse;
pub mod batch;
pub mod bench;
pub mod consensus;
pub mod json;
pub mod judge;
pub mod parts;
pub mod preset;
pub mod puzzles;
pub mod quality;
pub mod selfplay;

pub use analyse::*;
