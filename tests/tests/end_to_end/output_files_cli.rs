//! Output files (`analyze --pdn OUT`, `report --html OUT`) appear only when complete: an
//! interrupted run (Ctrl-C) leaves an older OUT as it was and no temporary file behind. What
//! OUT is stays what it was: a FIFO or a device is written into, a symbolic link is followed
//! (its target replaced, the link kept), a replaced file keeps its mode and owner; `-` is
//! stdout, or refused where stdout carries something else.

use drafti_tests::{drafti, drafti_command, drafti_path};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("drafti-out-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn corpus(name: &str) -> String {
    format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Names in `dir` other than `keep`.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

/// Starts `drafti ARGS`, waits until a temporary `.part` file appears in `dir` (the command
/// is writing), interrupts it with SIGINT and returns its exit code.
fn interrupt_while_writing(args: &[&str], dir: &Path) -> Option<i32> {
    let mut child = drafti_command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !others(dir, "").iter().any(|n| n.ends_with(".part")) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "drafti ended before writing"
        );
        assert!(Instant::now() < deadline, "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap().code()
}

#[test]
fn interrupted_analyze_keeps_the_older_pdn_and_leaves_nothing() {
    let dir = temp_dir("analyze");
    let out = dir.join("out.pdn");
    std::fs::write(&out, "older\n").unwrap();
    let code = interrupt_while_writing(
        &[
            "analyze",
            &corpus("selfplay.pdn"),
            "--depth",
            "9",
            "--jobs",
            "1",
            "--pdn",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(&dir, "out.pdn"), Vec::<String>::new());
}

#[test]
fn interrupted_report_keeps_the_older_html_and_leaves_nothing() {
    let dir = temp_dir("report");
    let out = dir.join("r.html");
    std::fs::write(&out, "older\n").unwrap();
    let code = interrupt_while_writing(
        &[
            "report",
            &corpus("selfplay.pdn"),
            "--depth",
            "9",
            "--jobs",
            "1",
            "--html",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(&dir, "r.html"), Vec::<String>::new());
}

#[test]
fn finished_analyze_replaces_the_pdn_with_the_usual_permissions() {
    let dir = temp_dir("done");
    let out = dir.join("out.pdn");
    std::fs::write(&out, "older\n").unwrap();
    let output = drafti()
        .args(["analyze", &corpus("showcase.pdn"), "--depth", "2", "--pdn"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.code().is_some_and(|c| c <= 1), "{output:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("[Event"), "{text}");
    assert_eq!(others(&dir, "out.pdn"), Vec::<String>::new());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        let umask = Command::new("sh").args(["-c", "umask"]).output().unwrap();
        let umask = u32::from_str_radix(String::from_utf8_lossy(&umask.stdout).trim(), 8).unwrap();
        // As `File::create` would make it, not the 0600 of a private temporary file.
        assert_eq!(mode, 0o666 & !umask);
    }
}

#[test]
fn analyze_refuses_a_pdn_on_stdout_and_makes_no_file_named_dash() {
    let dir = temp_dir("dash");
    let output = drafti()
        .current_dir(&dir)
        .args([
            "analyze",
            &corpus("showcase.pdn"),
            "--depth",
            "2",
            "--pdn",
            "-",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--pdn -: stdout carries the analysis"),
        "{stderr}"
    );
    assert_eq!(others(&dir, ""), Vec::<String>::new());
}

const START: &str = "W:W21-32:B1-12";

/// The bytes `run` writes into a new FIFO named `name` in `dir` (read by a thread while
/// `run` runs), and whether the FIFO is still one afterwards.
#[cfg(unix)]
fn through_fifo(dir: &Path, name: &str, run: impl FnOnce(&Path)) -> (Vec<u8>, bool) {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let fifo = dir.join(name);
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    run(&fifo);
    // Had drafti not opened the FIFO, the reader would wait forever: release it.
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo);
    let bytes = reader.join().unwrap();
    let still = std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo();
    (bytes, still)
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = temp_dir("fifo");
    let (svg, still) = through_fifo(&dir, "board.svg", |fifo| {
        drafti()
            .args(["show", START, "--svg"])
            .arg(fifo)
            .assert()
            .success();
    });
    assert!(still, "the FIFO was replaced");
    assert!(
        svg.starts_with(b"<?xml"),
        "{}",
        String::from_utf8_lossy(&svg)
    );
    // The HTML report (a scratch file for its sections, then the page) and analyze --pdn.
    let (html, still) = through_fifo(&dir, "r.html", |fifo| {
        let output = drafti()
            .args(["report", &corpus("showcase.pdn"), "--depth", "2", "--html"])
            .arg(fifo)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
    });
    assert!(still, "the FIFO was replaced");
    let html = String::from_utf8(html).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"),
        "{html}"
    );
    let (pdn, still) = through_fifo(&dir, "out.pdn", |fifo| {
        let output = drafti()
            .args(["analyze", &corpus("showcase.pdn"), "--depth", "2", "--pdn"])
            .arg(fifo)
            .output()
            .unwrap();
        assert!(output.status.code().is_some_and(|c| c <= 1), "{output:?}");
    });
    assert!(still, "the FIFO was replaced");
    assert!(pdn.starts_with(b"[Event"));
    // Nothing else was made beside them (no temporary file left, none renamed).
    let mut names = others(&dir, "");
    names.sort();
    assert_eq!(names, ["board.svg", "out.pdn", "r.html"]);
}

#[cfg(unix)]
#[test]
fn a_device_is_written_into_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    for args in [
        &["show", START, "--svg", "/dev/null"][..],
        &[
            "report",
            &corpus("showcase.pdn"),
            "--depth",
            "1",
            "--html",
            "/dev/null",
        ],
    ] {
        let output = drafti().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
    }
    let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device());
}

#[cfg(unix)]
#[test]
fn a_symlink_is_followed_its_target_replaced_with_its_mode_and_owner() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = temp_dir("link");
    let target = dir.join("real.svg");
    std::fs::write(&target, "older\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    // As root, another owner too (kept only where the system lets us set it).
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        std::os::unix::fs::chown(&target, Some(4321), Some(4321)).unwrap();
    }
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink("real.svg", &link).unwrap();
    drafti()
        .args(["show", START, "--svg"])
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.svg"));
    let meta = std::fs::metadata(&target).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    }
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("<?xml"));
    // A link to nothing yet: the file is made where it points.
    std::os::unix::fs::symlink("sub/new.svg", dir.join("dangling.svg")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    drafti()
        .args(["show", START, "--svg"])
        .arg(dir.join("dangling.svg"))
        .assert()
        .success();
    assert!(std::fs::read_to_string(dir.join("sub/new.svg"))
        .unwrap()
        .starts_with("<?xml"));
    let mut names = others(&dir, "");
    names.sort();
    assert_eq!(names, ["dangling.svg", "link.svg", "real.svg", "sub"]);
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("mode");
    for (args, name) in [
        (vec!["show", START, "--svg"], "board.svg"),
        (
            vec!["report", &corpus("showcase.pdn"), "--depth", "1", "--html"],
            "r.html",
        ),
        (
            vec!["analyze", &corpus("showcase.pdn"), "--depth", "1", "--pdn"],
            "a.pdn",
        ),
    ] {
        let out = dir.join(name);
        std::fs::write(&out, "older\n").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        let output = drafti().args(&args).arg(&out).output().unwrap();
        assert!(output.status.code().is_some_and(|c| c <= 1), "{output:?}");
        assert_ne!(std::fs::read_to_string(&out).unwrap(), "older\n");
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640, "{name}");
    }
}

#[test]
fn a_folder_is_refused() {
    let dir = temp_dir("folder");
    let output = drafti()
        .args(["show", START, "--svg"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("it is a folder"), "{stderr}");
}

#[test]
fn dash_is_stdout_or_refused_where_stdout_carries_something_else() {
    let output = drafti()
        .args(["show", START, "--svg", "-"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    // The SVG alone, instead of the text board.
    let svg = String::from_utf8(output.stdout).unwrap();
    assert!(
        svg.starts_with("<?xml") && svg.ends_with("</svg>\n"),
        "{svg}"
    );
    let dir = temp_dir("refused");
    let showcase = corpus("showcase.pdn");
    let hub = format!("{} hub", drafti_path().display());
    for (args, message) in [
        (
            vec!["puzzles", &showcase, "--pdn", "-"],
            "--pdn -: stdout carries the list of puzzles; give --pdn a file name",
        ),
        (
            vec!["puzzles", &showcase, "--html", "-"],
            "--html -: stdout carries the list of puzzles; give --html a file name",
        ),
        (
            vec!["report", &showcase, "--html", "-"],
            "--html -: stdout carries the text summary; give --html a file name",
        ),
        (
            vec![
                "match", "--engine", &hub, "--engine", &hub, "--games", "2", "--nodes", "100",
                "--pdn", "-",
            ],
            "--pdn -: stdout carries the match's summary; give --pdn a file name",
        ),
        (
            vec!["analyze", &showcase, "--pdn", "-"],
            "--pdn -: stdout carries the analysis; give --pdn a file name",
        ),
    ] {
        let output = drafti().current_dir(&dir).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end(), format!("drafti: {message}"), "{args:?}");
    }
    assert_eq!(others(&dir, ""), Vec::<String>::new());
}

/// A reader that stops early (`drafti … | head -1`): every command that writes much ends
/// quietly with exit code 0, whether it was writing text, JSON Lines or PDN (one broken-pipe
/// policy, in `main`: drafti no longer resets SIGPIPE).
#[test]
fn a_reader_that_stops_early_ends_drafti_quietly() {
    use std::io::{BufRead, BufReader};
    let selfplay = corpus("selfplay.pdn");
    let commands: [&[&str]; 4] = [
        &["validate", "--json", &selfplay],
        &["fmt", &selfplay],
        &["openings", "--per-game", "--json", &selfplay],
        &["selfplay", "--random", "--games", "100000"],
    ];
    for args in commands {
        let mut child = drafti_tests::drafti_command()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?} wrote nothing");
        // The read end is closed here, with most of the output unread.
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{args:?}");
    }
}

/// Issue 41: a run killed with SIGKILL (no handler runs) left its `.OUT.XXXXXX.part` for
/// ever. The next run that writes the same output removes it (its process is gone), and
/// leaves a part of a run still going.
#[cfg(unix)]
#[test]
fn a_killed_runs_part_is_removed_by_the_next_run() {
    let dir = temp_dir("killed");
    let out = dir.join("out.pdn");
    let out_arg = out.to_str().unwrap();
    let selfplay = corpus("selfplay.pdn");
    let slow = [
        "analyze",
        &selfplay,
        "--depth",
        "9",
        "--jobs",
        "1",
        "--no-egtb",
        "--pdn",
        out_arg,
    ];
    let small = format!(
        "{}/fixtures/analyze/abatsiev-17.pdn",
        env!("CARGO_MANIFEST_DIR")
    );
    let quick = [
        "analyze",
        &small,
        "--variant",
        "russian",
        "--depth",
        "1",
        "--no-egtb",
        "--pdn",
        out_arg,
    ];
    // Started, and writing: its own part is there.
    let start_writing = || {
        let child = drafti_command()
            .args(slow)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let own = format!(".out.pdn.{}.", child.id());
        let deadline = Instant::now() + Duration::from_secs(60);
        while !others(&dir, "").iter().any(|n| n.starts_with(&own)) {
            assert!(Instant::now() < deadline, "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    };
    let mut killed = start_writing();
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();
    let stale = others(&dir, "");
    assert_eq!(stale.len(), 1, "{stale:?}");
    // A run still writing keeps its part while the next one writes; the stale one goes.
    let mut running = start_writing();
    let both = drafti().args(quick).output().unwrap();
    assert!(
        both.status.success(),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    let left = others(&dir, "out.pdn");
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        left[0].starts_with(&format!(".out.pdn.{}.", running.id())),
        "{left:?}"
    );
    running.kill().unwrap();
    running.wait().unwrap();
    let again = drafti().args(quick).output().unwrap();
    assert!(again.status.success());
    assert_eq!(others(&dir, "out.pdn"), Vec::<String>::new());
}
