//! Engine analysis of draughts games: every position of a replayed game searched and every
//! move judged ([`analyse_game`], [`judge`]), positions where one move wins mined as puzzles
//! ([`puzzles`]), games played by the engine ([`selfplay`]), and how far cheap verdicts agree
//! with deep ones ([`quality`]). Built on `drafti-archive`'s replayed games: whole archives
//! analysed in input order ([`batch`]).
mod analyse;
pub mod batch;
pub mod judge;
pub mod puzzles;
pub mod quality;
pub mod selfplay;

pub use analyse::*;
