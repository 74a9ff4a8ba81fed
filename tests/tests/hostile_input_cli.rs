//! Issue 16: archives as people really have them. One test per defect of the issue (named
//! `dNN_…`), each on a fixture of `corpus/bad/` or a generated input, asserting the exact
//! outcome: the exit code (never 101, a panic), the count of games and their statuses, and
//! for the long-line inputs the peak memory of the process.

use drafti_tests::{drafti, drafti_path};
use serde_json::Value;
use std::path::PathBuf;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let output = drafti().args(args).output().expect("drafti runs");
    Run {
        code: output
            .status
            .code()
            .expect("exit code (not killed by a signal)"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn bad(name: &str) -> String {
    format!("{}/../corpus/bad/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn corpus(name: &str) -> String {
    format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("drafti-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// `drafti validate --json FILE ARGS`: exit code, one object per game, stderr.
fn validate_json(file: &str, args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all = vec!["validate", "--json", file];
    all.extend(args);
    let r = run(&all);
    let games = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (r.code, games, r.stderr)
}

fn statuses(games: &[Value]) -> Vec<&str> {
    games
        .iter()
        .map(|g| g["status"].as_str().unwrap())
        .collect()
}

/// The bundled self-play archive (2,000 games) with `\n` replaced by `sep`.
fn archive(sep: &[u8]) -> Vec<u8> {
    let text = std::fs::read(corpus("selfplay.pdn")).unwrap();
    let mut out = Vec::with_capacity(text.len());
    for &b in &text {
        if b == b'\n' {
            out.extend_from_slice(sep);
        } else {
            out.push(b);
        }
    }
    out
}

#[test]
fn d01_a_problem_past_column_65536_is_reported_not_a_panic() {
    let mut text = b"{".to_vec();
    text.extend(std::iter::repeat_n(b'a', 65534));
    text.extend_from_slice(b"} 1. c3-c5 *\n");
    let file = temp_file("d01.pdn", &text);
    let r = run(&["validate", &file]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(":1:65541: error: illegal move c3-c5 at ply 1"),
        "{}",
        r.stdout
    );
    // The excerpt shows the end of the long line, cut, with the caret under the move.
    let excerpt: Vec<&str> = r.stdout.lines().skip(2).take(3).collect();
    assert!(
        excerpt[1].starts_with("1 | …aaaa") && excerpt[1].ends_with("} 1. c3-c5 *"),
        "{excerpt:?}"
    );
    let caret = excerpt[2].find('^').unwrap();
    assert_eq!(
        excerpt[1].chars().count() - 7,
        excerpt[2][..caret].chars().count()
    );
}

#[test]
fn d02_many_games_on_one_line_are_all_read() {
    // 40,000 games of one result token each, on one line (80 KB): 1.8 GB before the fix
    // (the memory is checked in memory_cli.rs).
    let file = temp_file("d02-stars.pdn", "* ".repeat(40_000).as_bytes());
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!((code, games.len()), (0, 40_000));
    // The bundled corpus with CR-only line ends (one 1.8 MB "line" to a `\n` reader).
    let cr = temp_file("d02-cr.pdn", &archive(b"\r"));
    let (code, games, stderr) = validate_json(&cr, &[]);
    assert_eq!((code, games.len()), (0, 2_000), "{stderr}");
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
    // Lines are counted at each `\r`: game 2 starts where it does in the `\n` file.
    assert_eq!(games[1]["line"], 18);
    // All of it on one line, games joined by spaces.
    let line = temp_file("d02-line.pdn", &archive(b" "));
    let (code, games, _) = validate_json(&line, &[]);
    assert_eq!((code, games.len()), (0, 2_000));
    assert_eq!(games[1999]["line"], 1);
}

#[test]
fn d03_no_game_is_lost_past_the_size_limit_and_the_limit_is_named() {
    // 50 games of 100 KB each with CR-only line ends (5 MB, over the 4 MiB game limit).
    let mut text = Vec::new();
    for i in 0..50 {
        text.extend_from_slice(
            format!("[Event \"e{i}\"]\r[Result \"*\"]\r\r1. c3-d4 {{").as_bytes(),
        );
        text.extend(std::iter::repeat_n(b'x', 100_000));
        text.extend_from_slice(b"} d6-e5 *\r\r");
    }
    let file = temp_file("d03-50.pdn", &text);
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!((code, games.len()), (0, 50));
    assert_eq!(games[49]["tags"]["Event"], "e49");

    // One game over the limit between two good ones: an error naming the limit, and both
    // neighbours read.
    let mut text = b"[Event \"a\"]\r1. c3-d4 *\r[Event \"huge\"]\r1. c3-d4 {".to_vec();
    text.extend(std::iter::repeat_n(b'y', 5 << 20));
    text.extend_from_slice(b"} *\r[Event \"c\"]\r1. c3-d4 *\r");
    let file = temp_file("d03-huge.pdn", &text);
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["valid", "invalid", "valid"]);
    assert_eq!(games[2]["tags"]["Event"], "c");
    let message = games[1]["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("game is longer than the limit of 4194304 bytes"),
        "{message}"
    );
}

#[test]
fn d07_a_byte_order_mark_mid_file_and_mixed_line_ends_split_nothing() {
    let (code, games, stderr) = validate_json(&bad("mixed-line-ends.pdn"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let events: Vec<&str> = games
        .iter()
        .map(|g| g["tags"]["Event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["lf", "bom", "cr", "crlf"]);
    let lines: Vec<u64> = games.iter().map(|g| g["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 6, 10, 14]);
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
}

#[test]
fn d11_perft_and_show_report_a_write_error() {
    for args in [
        &["perft", "--depth", "3"][..],
        &["show", "W:W21-32:B1-12"][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = std::process::Command::new(drafti_path())
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("cannot write the report: No space left on device"),
            "{stderr}"
        );
    }
}

#[test]
fn d12_fmt_keeps_move_number_0_of_a_fen_game_and_is_idempotent() {
    let r = run(&["fmt", &bad("fen-move-zero.pdn")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "[FEN \"W:W21-32:B1-12\"]\n\n0. c3-d4 d6-e5 1. b2-c3 *\n"
    );
    let again = temp_file("d12.pdn", r.stdout.as_bytes());
    assert_eq!(run(&["fmt", &again]).stdout, r.stdout);
}

#[test]
fn d14_a_dos_end_of_file_byte_is_white_space() {
    let (code, games, stderr) = validate_json(&bad("dos-eof.pdn"), &[]);
    assert_eq!((code, games.len()), (0, 2), "{stderr}");
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
}
