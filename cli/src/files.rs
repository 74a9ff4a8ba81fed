//! Output files (`--pdn OUT`, `--html OUT`, …): written whole or not at all, whatever the
//! target is (a file, a link, a FIFO, a device, `-` for stdout), and removed when the command
//! is interrupted, or by a later run when it was killed.

use crate::error::CliError;
use std::fmt;
use std::io::Write;

/// An output file (`--pdn OUT`, `--html OUT`, …), by what `OUT` is:
/// - `-`: stdout (for commands whose stdout is free: see [`refuse_stdout`]);
/// - a regular file, or nothing yet: the bytes go to a temporary file in the same directory
///   (so the final rename stays on one file system), which [`commit`](Self::commit) renames
///   over it; until then an older file is untouched. A replaced file keeps its mode, and its
///   owner and group where the system lets us set them. The temporary file is removed when
///   the value is dropped without a commit (an error, an early return) and when the process
///   is interrupted (Ctrl-C, SIGTERM, SIGHUP); one left by a process killed outright
///   (SIGKILL, a crash) is removed by the next run that writes the same output (see
///   `remove_stale_parts`);
/// - a symbolic link: what it points to, as above, beside the link's target (the link
///   stays);
/// - an existing FIFO or character device (`/dev/null`, a terminal), or a `/dev/stdout`-like
///   link into `/proc`: written in place, as a shell's `>` would (appended to a regular file
///   behind `/proc`, which a shell opened already). A folder, a block device or a socket is
///   refused.
pub struct OutputFile {
    sink: Sink,
    written: u64,
}

enum Sink {
    /// Renamed over `path` at the commit (`temp` is `None` only after the commit took it).
    Replace {
        path: std::path::PathBuf,
        temp: Option<tempfile::NamedTempFile>,
    },
    /// Written where it is.
    Through(std::fs::File),
    /// `-`; `closed` once its reader went away (`| head`), which is not an error.
    Stdout { closed: bool },
}

/// Temporary files to remove if the process is interrupted.
static PENDING_OUTPUTS: std::sync::Mutex<Vec<std::path::PathBuf>> =
    std::sync::Mutex::new(Vec::new());

/// Removes the pending temporary files on Ctrl-C (and SIGTERM, SIGHUP), then exits with the
/// usual code of an interrupted command (130). Installed with the first output file.
// The exit is the binary's: only `drafti`'s commands create output files.
#[allow(clippy::exit)]
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

/// `FLAG -` where stdout already carries `carries`: a clear refusal (and no file named `-`).
pub fn refuse_stdout(flag: &str, path: &std::path::Path, carries: &str) -> Result<(), CliError> {
    if path == std::path::Path::new("-") {
        return Err(CliError::new(format!(
            "{flag} -: stdout carries {carries}; give {flag} a file name"
        )));
    }
    Ok(())
}

/// Refuses `FLAG OUTPUT` when OUTPUT is one of `inputs`, by whatever path it is named (a
/// link, `./a.pdn` for `a.pdn`, a hard link): its replacement would destroy what is read.
/// Called before any work; `-` and paths that are no regular file (yet) never clash.
pub fn refuse_input_as_output(
    flag: &str,
    output: &std::path::Path,
    inputs: impl IntoIterator<Item = impl AsRef<std::path::Path>>,
) -> Result<(), CliError> {
    let Some(written) = regular_file(output) else {
        return Ok(());
    };
    for input in inputs {
        let input = input.as_ref();
        if regular_file(input).is_some_and(|read| read == written) {
            return Err(CliError::new(format!(
                "{flag} {}: that is the input {}, which the output would replace; give {flag} another file",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Refuses `FLAG DIR` when a page the command would write in the folder DIR (a file already
/// there whose name `is_page` accepts) is one of `inputs`, by whatever path it is named: as
/// [`refuse_input_as_output`] for a single file. A folder not made yet never clashes.
pub fn refuse_input_as_page(
    flag: &str,
    dir: &std::path::Path,
    is_page: impl Fn(&str) -> bool,
    inputs: impl IntoIterator<Item = impl AsRef<std::path::Path>>,
) -> Result<(), CliError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let pages: Vec<(std::path::PathBuf, same_file::Handle)> = entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(&is_page))
        .filter_map(|e| regular_file(&e.path()).map(|h| (e.path(), h)))
        .collect();
    for input in inputs {
        let input = input.as_ref();
        let Some(read) = regular_file(input) else {
            continue;
        };
        if let Some((page, _)) = pages.iter().find(|(_, written)| *written == read) {
            return Err(CliError::new(format!(
                "{flag} {}: the page {} there is the input {}, which the output would replace; give {flag} another folder",
                dir.display(),
                page.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Refuses to read `inputs` when stdout is one of them (`drafti fmt a.pdn >> a.pdn`): what
/// the command writes would land in what it reads (GNU cat refuses the same). Under `>` the
/// shell emptied the file already: saying so beats reading nothing.
pub fn refuse_stdout_as_input(
    inputs: impl IntoIterator<Item = impl AsRef<std::path::Path>>,
) -> Result<(), CliError> {
    let Some(stdout) = stdout_file() else {
        return Ok(());
    };
    for input in inputs {
        let input = input.as_ref();
        if regular_file(input).is_some_and(|read| read == stdout) {
            return Err(CliError::new(format!(
                "stdout is the input {}: the output would be written into what is read; send it to another file",
                input.display()
            )));
        }
    }
    Ok(())
}

/// Stdout, when it is a regular file (a copy of its descriptor: a closed stdout is `None`,
/// never closed again).
fn stdout_file() -> Option<same_file::Handle> {
    #[cfg(unix)]
    let file = {
        use std::os::fd::AsFd;
        std::fs::File::from(std::io::stdout().as_fd().try_clone_to_owned().ok()?)
    };
    #[cfg(windows)]
    let file = {
        use std::os::windows::io::AsHandle;
        std::fs::File::from(std::io::stdout().as_handle().try_clone_to_owned().ok()?)
    };
    #[cfg(not(any(unix, windows)))]
    return None;
    #[cfg(any(unix, windows))]
    {
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        same_file::Handle::from_file(file).ok()
    }
}

/// The file at `path` (links followed) to compare with others, when it is a regular file:
/// a FIFO or a device is never opened here (that could block, or take what it holds).
fn regular_file(path: &std::path::Path) -> Option<same_file::Handle> {
    if path == std::path::Path::new("-") || !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    same_file::Handle::from_path(path).ok()
}

/// What an output path names, once its links are followed.
enum Resolved {
    Stdout,
    /// A regular file (its metadata), or nothing yet (`None`), at this path.
    File(std::path::PathBuf, Option<std::fs::Metadata>),
    /// Something to write in place (opened by the path given; `append` for a regular file).
    Through {
        append: bool,
    },
}

/// Follows the symbolic links of `path` (at most 40, as the kernel does) to the path they
/// end at, which may not exist; `None` for a link into `/proc` (`/dev/stdout`,
/// `/proc/self/fd/N`), whose target is an open file, not a path to replace.
fn follow_links(path: &std::path::Path) -> std::io::Result<Option<std::path::PathBuf>> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                if at.starts_with("/proc") {
                    return Ok(None);
                }
                let target = std::fs::read_link(&at)?;
                // A relative target is relative to the link's folder; `join` keeps an
                // absolute one as it is.
                at = match at.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(Some(at)),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

fn resolve(path: &std::path::Path) -> Result<Resolved, CliError> {
    if path == std::path::Path::new("-") {
        return Ok(Resolved::Stdout);
    }
    let fail =
        |e: &dyn fmt::Display| CliError::new(format!("cannot write {}: {e}", path.display()));
    let target = follow_links(path).map_err(|e| fail(&e))?;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        // Nothing there yet (or a link to nothing): made at the end of the links.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match target {
                Some(target) => Ok(Resolved::File(target, None)),
                None => Err(fail(&e)),
            }
        }
        Err(e) => return Err(fail(&e)),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err(fail(&"it is a folder"));
    }
    if kind.is_file() {
        return Ok(match target {
            Some(target) => Resolved::File(target, Some(meta)),
            None => Resolved::Through { append: true },
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_block_device() {
            return Err(fail(
                &"it is a block device (drafti writes files, pipes and character devices)",
            ));
        }
        if kind.is_socket() {
            return Err(fail(&"it is a socket"));
        }
    }
    Ok(Resolved::Through { append: false })
}

/// Gives `file` the owner (where the system lets us) and the mode of `like`.
fn copy_owner_and_mode(file: &std::fs::File, like: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Owner first: a change of owner clears the set-user-ID bits the mode then restores.
        // Not permitted (another user's file) leaves ours, and the group if that is allowed.
        if std::os::unix::fs::fchown(file, Some(like.uid()), Some(like.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(like.gid()));
        }
    }
    file.set_permissions(like.permissions())
}

impl OutputFile {
    /// Starts writing `path` (for a file, nothing appears there before
    /// [`commit`](Self::commit)).
    pub fn create(path: &std::path::Path) -> Result<OutputFile, CliError> {
        let fail =
            |e: std::io::Error| CliError::new(format!("cannot write {}: {e}", path.display()));
        let sink = match resolve(path)? {
            Resolved::Stdout => Sink::Stdout { closed: false },
            Resolved::Through { append } => Sink::Through(
                std::fs::OpenOptions::new()
                    .write(true)
                    .append(append)
                    .open(path)
                    .map_err(fail)?,
            ),
            Resolved::File(target, existing) => {
                let temp = temp_beside(&target, existing.is_none()).map_err(fail)?;
                if let Some(like) = &existing {
                    copy_owner_and_mode(temp.as_file(), like).map_err(fail)?;
                }
                Sink::Replace {
                    path: target,
                    temp: Some(temp),
                }
            }
        };
        Ok(OutputFile { sink, written: 0 })
    }

    /// Flushes the file to disk and renames it to its final path (or flushes what is written
    /// in place); returns the bytes written.
    pub fn commit(mut self) -> std::io::Result<u64> {
        match &mut self.sink {
            Sink::Replace { path, temp } => {
                let temp = temp.take().expect("not committed yet");
                unregister(temp.path());
                temp.as_file().sync_all()?;
                temp.persist(&*path).map_err(|e| e.error)?;
            }
            Sink::Through(file) => file.flush()?,
            Sink::Stdout { .. } => self.flush()?,
        }
        Ok(self.written)
    }
}

/// A temporary file in the folder of `path`, registered for removal on an interrupt; with
/// the usual permissions of a new file (0666 less the umask) when `usual_mode`, else the
/// private 0600 until its owner and mode are set.
fn temp_beside(
    path: &std::path::Path,
    usual_mode: bool,
) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    temp_in(dir, path, usual_mode)
}

fn temp_in(
    dir: &std::path::Path,
    path: &std::path::Path,
    usual_mode: bool,
) -> std::io::Result<tempfile::NamedTempFile> {
    remove_outputs_on_interrupt();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    #[cfg(unix)]
    remove_stale_parts(dir, &name);
    // `.OUT.PID.XXXXXX.part`: whose it is, for the runs after a kill.
    let prefix = format!(".{name}.{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .rand_bytes(PART_RANDOM_LEN)
        .suffix(".part");
    // A new file gets the usual permissions, as one made by `File::create` would.
    #[cfg(unix)]
    if usual_mode {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    #[cfg(not(unix))]
    let _ = usual_mode;
    // Registered while the lock is held, so an interrupt cannot miss a file just made.
    let mut pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
    let temp = builder.tempfile_in(dir)?;
    // Held as long as the file is open: a run on another machine sharing the folder (whose
    // process ids mean nothing here) sees the file is in use.
    #[cfg(unix)]
    let _ = rustix::fs::flock(
        temp.as_file(),
        rustix::fs::FlockOperation::NonBlockingLockExclusive,
    );
    pending.push(temp.path().to_path_buf());
    Ok(temp)
}

/// The random letters of a temporary file's name.
const PART_RANDOM_LEN: usize = 6;

/// Removes the temporary files of the output `name` in `dir` that runs killed without a
/// chance to clean up (SIGKILL, a crash, a power cut) left behind: those whose process (its
/// id is in the name) is gone and that no process holds locked. Best effort: a file that
/// cannot be looked at, or one of an older drafti (no process id in its name), is left.
#[cfg(unix)]
fn remove_stale_parts(dir: &std::path::Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|n| part_owner(n, &prefix)) else {
            continue;
        };
        if pid == std::process::id() || process_alive(pid) {
            continue;
        }
        let path = entry.path();
        // A regular file (a link is not followed), which no process holds locked.
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        let free = rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive);
        if free.is_ok() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The process id in the name of one of our temporary files, `{prefix}{pid}.XXXXXX.part`
/// (strictly: so the files of an output whose name goes on after `prefix` are not taken).
#[cfg(unix)]
fn part_owner(file_name: &str, prefix: &str) -> Option<u32> {
    let middle = file_name.strip_prefix(prefix)?.strip_suffix(".part")?;
    let (pid, random) = middle.split_once('.')?;
    let ours = pid.bytes().all(|b| b.is_ascii_digit())
        && random.len() == PART_RANDOM_LEN
        && random.bytes().all(|b| b.is_ascii_alphanumeric());
    ours.then(|| pid.parse().ok()).flatten()
}

/// Whether the process `pid` runs (one of another user counts).
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    rustix::process::test_kill_process(pid) != Err(rustix::io::Errno::SRCH)
}

fn unregister(temp: &std::path::Path) {
    let mut pending = PENDING_OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
    pending.retain(|p| p != temp);
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Not committed: `NamedTempFile`'s own drop removes the file, right after this.
        if let Sink::Replace {
            temp: Some(temp), ..
        } = &self.sink
        {
            unregister(temp.path());
        }
    }
}

impl std::io::Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = match &mut self.sink {
            Sink::Replace { temp, .. } => temp.as_mut().expect("not committed").write(buf)?,
            Sink::Through(file) => file.write(buf)?,
            Sink::Stdout { closed: true } => buf.len(),
            Sink::Stdout { closed } => match std::io::stdout().write(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    *closed = true;
                    buf.len()
                }
                other => other?,
            },
        };
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Replace { temp, .. } => temp.as_mut().expect("not committed").flush(),
            Sink::Through(file) => file.flush(),
            Sink::Stdout { closed: true } => Ok(()),
            Sink::Stdout { closed } => match std::io::stdout().flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    *closed = true;
                    Ok(())
                }
                other => other,
            },
        }
    }
}

/// A scratch file for an output's parts (read back through [`path`](Self::path), never
/// committed): beside the output when that is a file, else in the temporary folder. Removed
/// when dropped and when the process is interrupted.
pub struct ScratchFile {
    temp: tempfile::NamedTempFile,
}

impl ScratchFile {
    /// A scratch file for the output `beside`.
    pub fn create(beside: &std::path::Path) -> Result<ScratchFile, CliError> {
        let fail =
            |e: std::io::Error| CliError::new(format!("cannot write {}: {e}", beside.display()));
        let temp = match resolve(beside)? {
            Resolved::File(target, _) => temp_beside(&target, false),
            _ => temp_in(&std::env::temp_dir(), beside, false),
        }
        .map_err(fail)?;
        Ok(ScratchFile { temp })
    }

    /// Where the bytes are.
    pub fn path(&self) -> &std::path::Path {
        self.temp.path()
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        unregister(self.temp.path());
    }
}

impl std::io::Write for ScratchFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.temp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.temp.flush()
    }
}

/// Writes an output file (created before the work, so that a bad path fails early) with
/// `write` and puts it in place.
pub fn write_file(
    mut file: OutputFile,
    path: &std::path::Path,
    write: impl FnOnce(&mut OutputFile) -> std::io::Result<()>,
) -> Result<(), CliError> {
    write(&mut file)
        .and_then(|()| file.commit().map(|_| ()))
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::path::Path;

    /// The id of a process that has ended.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_killed_runs_part_is_removed_and_no_other() {
        // Issue 41: a run killed with SIGKILL left its `.OUT.XXXXXX.part` for ever.
        let dir = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let stale = format!(".out.pdn.{dead}.abcdef.part");
        let mut kept = vec![
            // Alive (init), locked by a live process, of an older drafti, of other outputs,
            // a link, the output itself.
            ".out.pdn.1.abcdef.part".to_string(),
            format!(".out.pdn.{dead}.locked.part"),
            ".out.pdn.abcdef.part".to_string(),
            format!(".out.pdn.x.{dead}.abcdef.part"),
            format!(".out.pdn.123.{dead}.abcdef.part"),
            format!(".other.pdn.{dead}.abcdef.part"),
            "out.pdn".to_string(),
        ];
        for name in std::iter::once(&stale).chain(&kept) {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let link = format!(".out.pdn.{dead}.link00.part");
        std::os::unix::fs::symlink("out.pdn", dir.path().join(&link)).unwrap();
        kept.push(link);
        let locked = std::fs::File::open(dir.path().join(&kept[1])).unwrap();
        rustix::fs::flock(&locked, rustix::fs::FlockOperation::LockExclusive).unwrap();

        remove_stale_parts(dir.path(), "out.pdn");
        kept.sort();
        assert_eq!(names(dir.path()), kept);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("out.pdn")).unwrap(),
            "x"
        );
        drop(locked);
    }

    #[test]
    fn an_output_in_writing_carries_its_process_id_and_is_locked() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.pdn");
        let file = OutputFile::create(&out).unwrap();
        let names = names(dir.path());
        assert_eq!(names.len(), 1);
        assert_eq!(part_owner(&names[0], ".out.pdn."), Some(std::process::id()));
        // Another open file description cannot take the lock while it is written.
        let other = std::fs::File::open(dir.path().join(&names[0])).unwrap();
        assert!(
            rustix::fs::flock(&other, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                .is_err()
        );
        // Nor does a run of this process remove it.
        remove_stale_parts(dir.path(), "out.pdn");
        assert_eq!(self::names(dir.path()).len(), 1);
        drop(file);
        assert!(self::names(dir.path()).is_empty());
    }
}
