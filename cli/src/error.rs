//! How a command ends: an exit code (0 success, 1 invalid games or a check that failed), or
//! a [`CliError`] with a one-line reason (exit code 2). A reader of stdout that went away
//! (`drafti … | head`) is neither: `main` ends quietly, whatever command it was (as ripgrep
//! does), so commands only propagate their write errors.

use std::fmt;
use std::io;
use std::process::ExitCode;

/// An error that ends a command with exit code 2 and a one-line reason, or quietly when it
/// is stdout's reader going away.
#[derive(Debug)]
pub struct CliError {
    message: String,
    broken_pipe: bool,
}

impl CliError {
    /// An error with this one-line reason.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            broken_pipe: false,
        }
    }

    /// A failure to write `what` (a report on stdout, a file): `cannot write WHAT: REASON`,
    /// or the quiet end when the failure is a broken pipe.
    pub fn writing(what: &str, e: &io::Error) -> CliError {
        CliError {
            message: format!("cannot write {what}: {e}"),
            broken_pipe: e.kind() == io::ErrorKind::BrokenPipe,
        }
    }

    /// Whether this is stdout's reader going away rather than a failure.
    pub fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error + 'static> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError {
            message: e.to_string(),
            broken_pipe: is_broken_pipe(&e),
        }
    }
}

/// Whether an I/O error in `e`'s chain of sources is a broken pipe.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return true;
            }
        }
        next = e.source();
    }
    false
}

/// The result of a command: an exit code, or an error (exit code 2).
pub type CommandResult = Result<ExitCode, CliError>;

/// The end of writing the report to stdout: `Ok`, or the error that ends the command (a
/// broken pipe quietly).
pub fn report_written(written: io::Result<()>) -> Result<(), CliError> {
    written.map_err(|e| CliError::writing("the report", &e))
}

/// Exit code 1 when `failed` (invalid games, a failed check), else 0.
pub fn exit_code(failed: bool) -> ExitCode {
    ExitCode::from(u8::from(failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_pipe_is_found_in_the_chain_of_sources() {
        #[derive(Debug, thiserror::Error)]
        #[error("sink failed")]
        struct Wrapper(#[source] io::Error);

        let direct = CliError::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(direct.is_broken_pipe());
        let wrapped = CliError::from(Wrapper(io::Error::from(io::ErrorKind::BrokenPipe)));
        assert!(wrapped.is_broken_pipe());
        let other = CliError::from(Wrapper(io::Error::from(io::ErrorKind::StorageFull)));
        assert!(!other.is_broken_pipe());
        assert_eq!(other.to_string(), "sink failed");
        let written = CliError::writing("the report", &io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(written.is_broken_pipe());
        assert!(!CliError::new("usage").is_broken_pipe());
    }
}
