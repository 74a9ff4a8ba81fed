//! Archives of draughts games, without an engine: each game read, replayed through the rules
//! and validated ([`replay`]), many games at once in input order ([`batch`]) from files opened
//! and checked to be text ([`input`]), classified by opening with statistics across archives
//! ([`openings`]), and ranked by the Tanzanian match laws ([`standings`]); other platforms'
//! records converted to PDN and replayed ([`import`]: TzDraft's JSON).
//!
//! ```text
//! bytes ──drafti-pdn──▶ GameRecord ──replay──▶ ReplayedGame ──▶ openings, standings
//!                         (batch: many files, rayon, input order, shards)
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod batch;
pub mod csv;
pub mod import;
pub mod input;
pub mod json_lines;
pub mod openings;
pub mod replay;
pub mod standings;
pub mod validation;
