//! What the commands share: errors that end a command, variant and FEN arguments.

pub use drafti_report::thousands;
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

/// An output file that appears only once it is complete: the bytes go to a temporary file
/// in the same directory (so the final rename stays on one file system), which
/// [`commit`](Self::commit) renames over `path`. Until then an older file at `path` is
/// untouched. The temporary file is removed when the value is dropped without a commit (an
/// error, an early return) and when the process is interrupted (Ctrl-C, SIGTERM, SIGHUP).
///
/// Also a scratch file: write, read back through [`temp_path`](Self::temp_path), drop.
pub struct OutputFile {
    path: std::path::PathBuf,
    /// `None` only after the commit took it.
    temp: Option<tempfile::NamedTempFile>,
}

/// Temporary files to remove if the process is interrupted.
static PENDING_OUTPUTS: std::sync::Mutex<Vec<std::path::PathBuf>> =
    std::sync::Mutex::new(Vec::new());

/// Removes the pending temporary files on Ctrl-C (and SIGTERM, SIGHUP), then exits with the
/// usual code of an interrupted command (130). Installed with the first output file.
fn remove_outputs_on_interrupt() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        // If another handler is already installed, that one decides; nothing to do here.
        let _ = ctrlc::set_handler(|| {
            let pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
            for path in pending.iter() {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(130);
        });
    });
}

impl OutputFile {
    /// Starts writing `path` (nothing appears there before [`commit`](Self::commit)).
    pub fn create(path: &std::path::Path) -> Result<OutputFile, CliError> {
        remove_outputs_on_interrupt();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".part");
        // The file the user gets has the usual permissions (0666 less the umask), as a file
        // made by `File::create` would, not the 0600 of a private temporary file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        // Registered while the lock is held, so an interrupt cannot miss a file just made.
        let mut pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
        let temp = builder
            .tempfile_in(dir)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
        pending.push(temp.path().to_path_buf());
        Ok(OutputFile {
            path: path.to_path_buf(),
            temp: Some(temp),
        })
    }

    /// Where the bytes are until the commit.
    pub fn temp_path(&self) -> &std::path::Path {
        self.temp().path()
    }

    fn temp(&self) -> &tempfile::NamedTempFile {
        self.temp
            .as_ref()
            .expect("only a commit takes the file, and it consumes self")
    }

    /// Flushes the file to disk and renames it to its final path; returns its size.
    pub fn commit(mut self) -> std::io::Result<u64> {
        let temp = self.temp.take().expect("not committed yet");
        let temp_path = temp.path().to_path_buf();
        let mut pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| *p != temp_path);
        temp.as_file().sync_all()?;
        let size = temp.as_file().metadata()?.len();
        temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(size)
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Not committed: `NamedTempFile`'s own drop removes the file, right after this.
        if let Some(temp) = &self.temp {
            let mut pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
            pending.retain(|p| p != temp.path());
        }
    }
}

impl std::io::Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.temp.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.temp.as_mut().expect("not committed").flush()
    }
}
