//! The parts of the `drafti` binary that another program of the workspace shares: the flag
//! groups ([`args`]) with what they read ([`input`], [`tables`]), the progress bars and worker
//! threads ([`progress`], [`workers`]), the errors and exit codes
//! ([`error`]), the output files ([`files`]: an input is never one) and the games of a match
//! as PDN ([`match_runner`]). `drafti-lab quality` takes
//! `drafti analyze`'s search flags from here, so its candidate is set as the command it
//! measures; the lab's duel writes its games as `drafti match` does.
// The binary's own parts: reading inputs and tables, they tell the terminal what they do.
#![allow(clippy::print_stderr)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod args;
pub mod error;
pub mod files;
pub mod input;
pub mod match_runner;
pub mod progress;
pub mod tables;
pub mod workers;
