//! Replay and validation, blunder judgement, openings and statistics for drafti.
pub mod analysis;
pub mod batch;
pub mod judge;
pub mod openings;
pub mod puzzles;
pub mod quality;
pub mod replay;
pub mod selfplay;
pub mod standings;
