//! Helpers shared by drafti's end-to-end tests.

#[cfg(unix)]
pub mod browser;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A command running the `drafti` binary of this build profile, built first if need be,
/// with the empty [`isolated_home`] as its `HOME` and `XDG_CACHE_HOME` (a test that wants
/// tables passes `--egtb`/`--dir` or sets `XDG_CACHE_HOME` itself, which overrides it).
///
/// A binary-only package cannot be a (dev-)dependency (Cargo ignores it, so
/// `CARGO_BIN_EXE_drafti` is not set in this crate's tests): the binary is built with the same
/// cargo, target directory and profile as the running test, once per test process (a no-op
/// when it is fresh).
pub fn drafti() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::new(drafti_path());
    command
        .env("HOME", isolated_home())
        .env("XDG_CACHE_HOME", isolated_home());
    command
}

/// [`drafti`] as a plain `std::process::Command`, for tests that spawn the binary themselves
/// (to signal it, talk to it or measure it): isolated the same way.
pub fn drafti_command() -> std::process::Command {
    let mut command = std::process::Command::new(drafti_path());
    isolate(&mut command);
    command
}

/// Gives `command` (drafti, or a program that runs drafti) the empty [`isolated_home`] as
/// `HOME` and `XDG_CACHE_HOME`.
pub fn isolate(command: &mut std::process::Command) -> &mut std::process::Command {
    command
        .env("HOME", isolated_home())
        .env("XDG_CACHE_HOME", isolated_home())
}

/// An empty folder of this test process (`<temp>/drafti-home-<pid>`), the home and cache of
/// every drafti the tests run: nothing of the user's (endgame tables built in
/// `~/.cache/drafti/egtb`) changes what a test sees.
pub fn isolated_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("drafti-home-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the tests' home folder");
        dir
    })
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

/// A fresh folder for one test's files: `<temp>/drafti-<name>-<pid>-<n>`, a new one at each
/// call (the tests share one process, and two may pick the same name).
pub fn temp_dir(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("drafti-{name}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
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
