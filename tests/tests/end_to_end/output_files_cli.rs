//! Output files (`analyze --pdn OUT`, `report --html OUT`) appear only when complete: an
//! interrupted run (Ctrl-C) leaves an older OUT as it was and no temporary file behind. What
//! OUT is stays what it was: a FIFO or a device is written into, a symbolic link is followed
//! (its target replaced, the link kept), a replaced file keeps its mode and owner; `-` is
//! stdout, or refused where stdout carries something else. An output that is one of the
//! command's inputs, by whatever path, is refused before any work.

use drafti_tests::{drafti, drafti_command, drafti_path};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test, removed when the returned guard drops.
fn temp_dir(name: &str) -> tempfile::TempDir {
    drafti_tests::temp_dir(&format!("out-{name}"))
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
    let scratch = temp_dir("analyze");
    let dir = scratch.path();
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
        dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(dir, "out.pdn"), Vec::<String>::new());
}

#[test]
fn interrupted_report_keeps_the_older_html_and_leaves_nothing() {
    let scratch = temp_dir("report");
    let dir = scratch.path();
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
        dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(dir, "r.html"), Vec::<String>::new());
}

#[test]
fn finished_analyze_replaces_the_pdn_with_the_usual_permissions() {
    let scratch = temp_dir("done");
    let dir = scratch.path();
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
    assert_eq!(others(dir, "out.pdn"), Vec::<String>::new());
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
    let scratch = temp_dir("dash");
    let dir = scratch.path();
    let output = drafti()
        .current_dir(dir)
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
    assert_eq!(others(dir, ""), Vec::<String>::new());
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
    let scratch = temp_dir("fifo");
    let dir = scratch.path();
    let (svg, still) = through_fifo(dir, "board.svg", |fifo| {
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
    let (html, still) = through_fifo(dir, "r.html", |fifo| {
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
    let (pdn, still) = through_fifo(dir, "out.pdn", |fifo| {
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
    let mut names = others(dir, "");
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
    let scratch = temp_dir("link");
    let dir = scratch.path();
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
    let mut names = others(dir, "");
    names.sort();
    assert_eq!(names, ["dangling.svg", "link.svg", "real.svg", "sub"]);
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = temp_dir("mode");
    let dir = scratch.path();
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
    let scratch = temp_dir("folder");
    let dir = scratch.path();
    let output = drafti()
        .args(["show", START, "--svg"])
        .arg(dir)
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
    let scratch = temp_dir("refused");
    let dir = scratch.path();
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
        let output = drafti().current_dir(dir).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end(), format!("drafti: {message}"), "{args:?}");
    }
    assert_eq!(others(dir, ""), Vec::<String>::new());
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
    let scratch = temp_dir("killed");
    let dir = scratch.path();
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
        while !others(dir, "").iter().any(|n| n.starts_with(&own)) {
            assert!(Instant::now() < deadline, "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    };
    let mut killed = start_writing();
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();
    let stale = others(dir, "");
    assert_eq!(stale.len(), 1, "{stale:?}");
    // A run still writing keeps its part while the next one writes; the stale one goes.
    let mut running = start_writing();
    let both = drafti().args(quick).output().unwrap();
    assert!(
        both.status.success(),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    let left = others(dir, "out.pdn");
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        left[0].starts_with(&format!(".out.pdn.{}.", running.id())),
        "{left:?}"
    );
    running.kill().unwrap();
    running.wait().unwrap();
    let again = drafti().args(quick).output().unwrap();
    assert!(again.status.success());
    assert_eq!(others(dir, "out.pdn"), Vec::<String>::new());
}

/// The files of `dir`, each with its bytes (links as where they point).
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = match std::fs::read_link(&path) {
                Ok(target) => target.to_string_lossy().as_bytes().to_vec(),
                Err(_) => std::fs::read(&path).unwrap(),
            };
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// A fresh folder holding `games.pdn` (two short games), for the commands to read and write;
/// removed when the returned guard drops.
fn with_games(name: &str) -> tempfile::TempDir {
    let dir = temp_dir(name);
    let games = format!(
        "{}/fixtures/standings/two-nil.pdn",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(games, dir.path().join("games.pdn")).unwrap();
    dir
}

/// `drafti ARGS` run in `dir` is refused before any work (exit 2), its message naming
/// `input` as the input the output is, and leaves every file of `dir` as it was.
fn refused_as_input(dir: &Path, args: &[&str], input: &str) {
    let before = contents(dir);
    let output = drafti().current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(&format!("that is the input {input},")),
        "{args:?}: {stderr}"
    );
    assert_eq!(contents(dir), before, "{args:?}");
}

#[test]
fn analyze_refuses_a_pdn_that_is_its_input_by_any_path() {
    // Issue 41: `analyze --pdn OUT` with OUT the input replaced the games read with the
    // annotated ones, silently.
    let scratch = with_games("input-analyze");
    let dir = scratch.path();
    std::os::unix::fs::symlink("games.pdn", dir.join("link.pdn")).unwrap();
    std::fs::hard_link(dir.join("games.pdn"), dir.join("hard.pdn")).unwrap();
    let nodes = ["--nodes", "100", "--jobs", "1"];
    for (input, output) in [
        ("games.pdn", "games.pdn"),
        ("./games.pdn", "games.pdn"),
        ("games.pdn", "link.pdn"),
        ("link.pdn", "games.pdn"),
        ("games.pdn", "hard.pdn"),
    ] {
        let args = [&["analyze", input, "--pdn", output][..], &nodes].concat();
        refused_as_input(dir, &args, input);
    }
    // Among other inputs, with --json: the same.
    let args = [
        "analyze",
        "-",
        "games.pdn",
        "--json",
        "--pdn",
        "./games.pdn",
    ];
    refused_as_input(dir, &[&args[..], &nodes].concat(), "games.pdn");
    // Another file is written as usual.
    drafti()
        .current_dir(dir)
        .args([&["analyze", "games.pdn", "--pdn", "out.pdn"][..], &nodes].concat())
        .assert()
        .success();
    assert!(dir.join("out.pdn").exists());
}

#[test]
fn puzzles_refuse_a_pdn_or_html_that_is_their_input() {
    let scratch = with_games("input-puzzles");
    let dir = scratch.path();
    for flag in ["--pdn", "--html"] {
        let args = ["puzzles", "games.pdn", flag, "./games.pdn", "--jobs", "1"];
        refused_as_input(dir, &args, "games.pdn");
    }
}

#[test]
fn report_refuses_an_html_that_is_its_input_or_analysis_part() {
    let scratch = with_games("input-report");
    let dir = scratch.path();
    let nodes = ["--nodes", "100", "--jobs", "1"];
    let args = [
        &["report", "games.pdn", "--html", "./games.pdn"][..],
        &nodes,
    ]
    .concat();
    refused_as_input(dir, &args, "games.pdn");
    let part = drafti()
        .current_dir(dir)
        .args([&["analyze", "games.pdn", "--json"][..], &nodes].concat())
        .output()
        .unwrap();
    assert!(part.status.success());
    std::fs::write(dir.join("part.jsonl"), part.stdout).unwrap();
    let args = [
        "report",
        "--from-analysis",
        "part.jsonl",
        "--html",
        "part.jsonl",
    ];
    refused_as_input(dir, &args, "part.jsonl");
}

#[test]
fn report_refuses_an_html_dir_whose_pages_are_its_inputs() {
    // `--html-dir DIR` writes DIR/index.html and DIR/games-0001.html…: an input that is one
    // of them, by whatever path, is refused before any work, as `--html` is.
    let scratch = with_games("input-report-pages");
    let dir = scratch.path();
    let pages = dir.join("pages");
    std::fs::create_dir(&pages).unwrap();
    std::fs::copy(dir.join("games.pdn"), pages.join("index.html")).unwrap();
    std::fs::hard_link(dir.join("games.pdn"), pages.join("games-0001.html")).unwrap();
    std::fs::copy(dir.join("games.pdn"), pages.join("games.pdn")).unwrap();
    let nodes = [
        "--preset",
        "fast",
        "--depth",
        "1",
        "--no-verify",
        "--jobs",
        "1",
    ];
    for (input, page) in [
        ("pages/index.html", "pages/index.html"),
        ("./pages/index.html", "pages/index.html"),
        ("games.pdn", "pages/games-0001.html"),
    ] {
        let args = [&["report", input, "--html-dir", "pages"][..], &nodes].concat();
        let before = contents(&pages);
        let output = drafti().current_dir(dir).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("the page {page} there is the input {input},")),
            "{args:?}: {stderr}"
        );
        assert_eq!(contents(&pages), before, "{args:?}");
    }
    // A file of the folder that is no page is read, and the pages written around it.
    let output = drafti()
        .current_dir(dir)
        .args(
            [
                &["report", "pages/games.pdn", "--html-dir", "pages"][..],
                &nodes,
            ]
            .concat(),
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("wrote pages/index.html (2 games in 1 page and the index,"),
        "{stderr}"
    );
    let index = std::fs::read_to_string(pages.join("index.html")).unwrap();
    assert!(index.contains("drafti report"), "the index page is written");
    assert!(pages.join("games.pdn").exists());
}

#[test]
fn standings_refuse_an_html_that_is_an_archive_or_the_groups_file() {
    let scratch = with_games("input-standings");
    let dir = scratch.path();
    let groups = format!(
        "{}/fixtures/standings/championship-groups.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(groups, dir.join("groups.txt")).unwrap();
    refused_as_input(
        dir,
        &["standings", "games.pdn", "--html", "./games.pdn"],
        "games.pdn",
    );
    let args = ["standings", "games.pdn", "--groups", "groups.txt"];
    refused_as_input(
        dir,
        &[&args[..], &["--html", "groups.txt"]].concat(),
        "groups.txt",
    );
}

#[test]
fn import_refuses_an_out_that_is_its_input() {
    let scratch = temp_dir("input-import");
    let dir = scratch.path();
    let json = format!(
        "{}/fixtures/tzdraft/promotion.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(json, dir.join("games.json")).unwrap();
    let args = ["import", "tzdraft", "games.json", "--out", "./games.json"];
    refused_as_input(dir, &args, "games.json");
}

#[test]
fn show_refuses_an_svg_that_is_the_game_file() {
    let scratch = with_games("input-show");
    let dir = scratch.path();
    let args = ["show", "games.pdn", "--game", "1", "--svg", "./games.pdn"];
    refused_as_input(dir, &args, "games.pdn");
}

#[test]
fn index_build_and_merge_refuse_an_output_that_is_an_input() {
    let scratch = with_games("input-index");
    let dir = scratch.path();
    let args = [
        "index",
        "build",
        "games.pdn",
        "-o",
        "./games.pdn",
        "--jobs",
        "1",
    ];
    refused_as_input(dir, &args, "games.pdn");
    for k in ["1", "2"] {
        let shard = format!("{k}/2");
        let part = format!("p{k}.idx");
        let args = [
            "index",
            "build",
            "games.pdn",
            "--shard",
            &shard,
            "-o",
            &part,
        ];
        drafti().current_dir(dir).args(args).assert().success();
    }
    let args = ["index", "merge", "p1.idx", "p2.idx", "-o", "./p2.idx"];
    refused_as_input(dir, &args, "p2.idx");
}

#[test]
fn match_refuses_a_pdn_that_is_its_openings_file() {
    let scratch = temp_dir("input-match");
    let dir = scratch.path();
    std::fs::write(dir.join("openings.txt"), "W:WK1,K10:B28\n").unwrap();
    let engine = format!("{} hub", drafti_path().display());
    let args = [
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--nodes",
        "100",
        "--openings",
        "openings.txt",
        "--pdn",
        "./openings.txt",
    ];
    refused_as_input(dir, &args, "openings.txt");
}

#[test]
fn a_command_whose_stdout_is_its_input_refuses_to_read_it() {
    // `drafti validate a.pdn >> a.pdn` appended the summary to the archive it read; `fmt`
    // would read its own output back.
    let scratch = with_games("input-stdout");
    let dir = scratch.path();
    let games = dir.join("games.pdn");
    for command in [&["validate"][..], &["fmt"], &["openings", "--per-game"]] {
        let before = std::fs::read(&games).unwrap();
        let stdout = std::fs::OpenOptions::new()
            .append(true)
            .open(&games)
            .unwrap();
        let output = drafti_command()
            .current_dir(dir)
            .args(command)
            .arg("./games.pdn")
            .stdout(stdout)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(
            stderr.contains("stdout is the input ./games.pdn"),
            "{command:?}: {stderr}"
        );
        assert_eq!(std::fs::read(&games).unwrap(), before, "{command:?}");
    }
    // The readers of other files: TzDraft's JSON, the parts `openings merge` adds.
    let json = format!(
        "{}/fixtures/tzdraft/promotion.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(json, dir.join("games.json")).unwrap();
    let part = drafti_command()
        .current_dir(dir)
        .args(["openings", "games.pdn", "--json"])
        .output()
        .unwrap();
    std::fs::write(dir.join("part.json"), part.stdout).unwrap();
    for (command, input) in [
        (&["import", "tzdraft", "games.json"][..], "games.json"),
        (&["openings", "merge", "part.json"], "part.json"),
    ] {
        let before = std::fs::read(dir.join(input)).unwrap();
        let stdout = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join(input))
            .unwrap();
        let output = drafti_command()
            .current_dir(dir)
            .args(command)
            .stdout(stdout)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(
            stderr.contains(&format!("stdout is the input {input}")),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read(dir.join(input)).unwrap(),
            before,
            "{command:?}"
        );
    }
    // Stdout on another file: as usual.
    let other = std::fs::File::create(dir.join("out.txt")).unwrap();
    let output = drafti_command()
        .current_dir(dir)
        .args(["validate", "games.pdn"])
        .stdout(other)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
}
