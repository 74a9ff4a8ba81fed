//! The end-to-end tests of drafti, one module per command or concern, in one test binary
//! (one link instead of one per file). Each module says what it checks.
//!
//! The peak-memory tests are a binary of their own (`tests/tests/memory.rs`): a child's peak
//! RSS as `wait4` reports it includes the memory of the process that spawned it (the kernel
//! keeps the pre-`exec` high-water mark), so they must be spawned by a small process.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod analyze_cli;
mod bench_cli;
mod docs_cli;
mod egtb_cli;
mod explorer_cli;
mod fmt_cli;
mod help_cli;
mod hostile_input_cli;
mod hub_protocol;
mod hub_pydraughts;
mod import_cli;
mod match_cli;
mod openings_cli;
mod output_files_cli;
mod puzzles_cli;
mod pydraughts_oracle;
mod report_board;
mod report_browser;
mod report_cli;
mod report_from_analysis;
mod report_verdicts;
mod search_cli;
mod selfplay_cli;
mod show_cli;
mod slurm_cli;
mod standings_cli;
mod validate_cli;
mod variant_cli;
