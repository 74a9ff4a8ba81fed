//! Replay and validation, engine, blunder judgement, openings and statistics for drafti.
pub mod batch;
pub mod engine;
pub mod openings;
pub mod replay;
pub mod standings;
