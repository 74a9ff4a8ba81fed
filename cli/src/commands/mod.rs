//! One module per subcommand: its arguments (clap) and `run`.

pub mod moves;
pub mod perft;
pub mod search;
pub mod show;
