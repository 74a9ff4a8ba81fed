//! Helpers shared by drafti's end-to-end tests.

#[cfg(unix)]
pub mod browser;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

/// A command running the `drafti` binary of this build profile, built first if need be,
/// with the empty [`isolated_home`] as its `HOME` and `XDG_CACHE_HOME` (a test that wants
/// tables passes `--egtb`/`--dir` or sets `XDG_CACHE_HOME` itself, which overrides it), and
/// no endgame tables built on first use ([`FIRST_USE_TABLES`]).
///
/// A binary-only package cannot be a (dev-)dependency (Cargo ignores it, so
/// `CARGO_BIN_EXE_drafti` is not set in this crate's tests): the binary is built with the same
/// cargo, target directory and profile as the running test, once per test process (a no-op
/// when it is fresh).
pub fn drafti() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::new(drafti_path());
    command
        .env("HOME", isolated_home())
        .env("XDG_CACHE_HOME", isolated_home())
        .env(FIRST_USE_TABLES, "0");
    command
}

/// The variable that turns off `analyze`'s and `report`'s building of endgame tables on
/// first use (a minute of work a variant): a test that wants it sets it again.
pub const FIRST_USE_TABLES: &str = "DRAFTI_FIRST_USE_TABLES";

/// [`drafti`] as a plain `std::process::Command`, for tests that spawn the binary themselves
/// (to signal it, talk to it or measure it): isolated the same way.
pub fn drafti_command() -> std::process::Command {
    let mut command = std::process::Command::new(drafti_path());
    isolate(&mut command);
    command
}

/// Gives `command` (drafti, or a program that runs drafti) the empty [`isolated_home`] as
/// `HOME` and `XDG_CACHE_HOME`, and no tables built on first use.
pub fn isolate(command: &mut std::process::Command) -> &mut std::process::Command {
    command
        .env("HOME", isolated_home())
        .env("XDG_CACHE_HOME", isolated_home())
        .env(FIRST_USE_TABLES, "0")
}

/// An empty folder of this test process (`<temp>/drafti-home-XXXXXX`), the home and cache of
/// every drafti the tests run: nothing of the user's (endgame tables built in
/// `~/.cache/drafti/egtb`) changes what a test sees.
///
/// Every test of the process shares it (drafti is spawned from some 200 places, each would
/// need a guard of its own), so it is a [`process_temp_dir`], removed as the process exits.
pub fn isolated_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| process_temp_dir("home"))
}

/// A fresh folder shared by the tests of this process (`<temp>/drafti-<name>-XXXXXX`, made
/// once and kept in a static), removed with everything in it when the process exits.
///
/// A static is never dropped, so no guard can remove such a folder: the process removes it
/// in an `atexit` handler, which runs whether the tests passed or failed (only a process
/// killed by a signal or aborted leaves it behind). A folder for one test is a [`temp_dir`].
pub fn process_temp_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name).keep();
    remove_at_exit(dir.clone());
    dir
}

/// The folders [`process_temp_dir`] made, removed by [`remove_process_temp_dirs`].
static PROCESS_TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn remove_at_exit(dir: PathBuf) {
    PROCESS_TEMP_DIRS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(dir);
    #[cfg(unix)]
    {
        static REGISTERED: std::sync::Once = std::sync::Once::new();
        REGISTERED.call_once(|| {
            // SAFETY: the handler is a plain function that never unwinds and touches only a
            // static.
            let registered = unsafe { libc::atexit(remove_process_temp_dirs) };
            assert_eq!(
                registered, 0,
                "atexit registers the removal of the tests' folders"
            );
        });
    }
}

/// Removes the folders of [`process_temp_dir`] as the process exits.
#[cfg(unix)]
extern "C" fn remove_process_temp_dirs() {
    // `try_lock`: a thread stopped holding the lock at exit must not hang the process.
    let dirs = match PROCESS_TEMP_DIRS.try_lock() {
        Ok(dirs) => dirs,
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for dir in dirs.iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The path of the `drafti` binary of this build profile (built first if need be). Spawn it
/// through [`drafti_command`] (or [`isolate`] the program that runs it), not directly.
pub fn drafti_path() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| {
        if let Some(path) = option_env!("CARGO_BIN_EXE_drafti") {
            return PathBuf::from(path);
        }
        let exe = std::env::current_exe().expect("test executable");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps");
        let target_dir = profile_dir.parent().expect("target directory");
        let profile = profile_dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("profile name");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut build = std::process::Command::new(cargo);
        build
            .args(["build", "--quiet", "--package", "drafti", "--bin", "drafti"])
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        match profile {
            "debug" => {}
            "release" => {
                build.arg("--release");
            }
            other => {
                build.args(["--profile", other]);
            }
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "cargo build of drafti failed");
        profile_dir.join(format!("drafti{}", std::env::consts::EXE_SUFFIX))
    });
    bin
}

/// A fresh folder for one test's files, `<temp>/drafti-<name>-XXXXXX` (a new one at each call),
/// removed with everything in it when the returned guard drops, whether the test passed or
/// failed: keep the guard alive as long as the folder's paths are used.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("drafti-{name}-"))
        .tempdir()
        .expect("temporary folder")
}

/// The path `<temp>/drafti-<dir_name>-XXXXXX/<file_name>` in a fresh [`temp_dir`] of its own
/// (the file is not made): the folder, with whatever was written in it, is removed when this
/// drops. It reads as its [`Path`] (`&path` as an argument, `path.display()`).
pub fn temp_path(dir_name: &str, file_name: &str) -> TempPath {
    let dir = temp_dir(dir_name);
    TempPath {
        path: dir.path().join(file_name),
        _dir: dir,
    }
}

/// A path in a folder of its own, removed when this drops: see [`temp_path`].
#[derive(Debug)]
pub struct TempPath {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for TempPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempPath {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

/// Runs `drafti ARGS` in the tests crate's folder (so fixture paths read the same on every
/// machine): (exit code, stdout, stderr).
pub fn run_drafti(args: &[&str]) -> (i32, String, String) {
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("drafti runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    )
}

/// Runs `drafti ARGS` with its stdout on `/dev/full`, where every write fails with ENOSPC, as
/// the tests of write errors do: (exit code, stderr).
#[cfg(unix)]
pub fn drafti_into_full_disk(args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let output = drafti_command()
        .args(args)
        .stdout(full)
        .output()
        .expect("drafti runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
