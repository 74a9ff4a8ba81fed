//! Games from other platforms' records into PDN, each replayed through the rules core.
//!
//! - [`tzdraft`]: TzDraft's game records (its API's JSON: one game, an array, or JSON Lines).
pub mod tzdraft;
