//! One module per subcommand: its arguments (clap) and `run`.

pub mod analyze;
pub mod bench;
pub mod egtb;
pub mod explore;
pub mod find;
pub mod fmt;
pub mod hub;
pub mod import;
pub mod index;
pub mod r#match;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod puzzles;
pub mod report;
pub mod search;
pub mod selfplay;
pub mod show;
pub mod standings;
pub mod validate;
