//! What the commands share: errors that end a command, variant and FEN arguments.

use drafti_rules::{Position, Variant};
use std::fmt;

/// An error that ends a command with exit code 2 and a one-line reason.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}

/// The result of a command: an exit code, or an error (exit code 2).
pub type CommandResult = Result<std::process::ExitCode, CliError>;

/// Parses `--variant` values: tz, czech, russian (and their aliases).
pub fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// Parses a FEN argument.
pub fn parse_fen(text: &str) -> Result<Position, String> {
    Position::from_fen(text).map_err(|e| e.to_string())
}

/// The worker threads `--jobs N` asks for: `N`, or one per core for 0.
pub fn jobs(requested: usize) -> usize {
    if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        requested
    }
}

/// A pool of `jobs` worker threads named `drafti-NAME-i`, with stacks deep enough for the
/// engine's search.
pub fn worker_pool(jobs: usize, name: &'static str) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(16 << 20)
        .thread_name(move |i| format!("drafti-{name}-{i}"))
        .build()
        .map_err(|e| CliError(format!("cannot start the worker threads: {e}")))
}

/// The end of writing a report to stdout: a reader that went away (`drafti … | head`) is not
/// an error; any other failure is.
pub fn report_written(written: std::io::Result<()>) -> Result<(), CliError> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError(format!("cannot write the report: {e}")))
        }
        _ => Ok(()),
    }
}

/// Warns on stderr about each input that held no game.
pub fn warn_empty_inputs(names: &[String], games_per_input: &[u64]) {
    for (name, n) in names.iter().zip(games_per_input) {
        if *n == 0 {
            eprintln!("warning: {name}: no games found");
        }
    }
}

/// A count with thousands separators: `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
