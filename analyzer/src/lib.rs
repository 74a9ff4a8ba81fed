//! Replay and validation, engine, blunder judgement, openings and statistics for drafti.
