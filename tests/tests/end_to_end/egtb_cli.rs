//! End-to-end tests of `drafti egtb`: build (and resume), info, probe (text and JSON, the
//! law-2 count), verify, a corrupt file named in the error, and `drafti search` using the
//! tables. Tables of at most four pieces in a temporary folder (a few seconds).

use drafti_tests::{drafti, drafti_command, drafti_into_full_disk, isolated_home};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Tanzanian tables of at most four pieces, built once for this test process (in a folder
/// removed when it exits: a `TempDir` in a static is never dropped).
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = drafti_tests::process_temp_dir("egtb-tables");
        let out = run(
            &[
                "egtb",
                "build",
                "--pieces",
                "4",
                "--dir",
                dir.to_str().unwrap(),
            ],
            0,
        );
        assert!(out.contains("tz: 41 tables (41 built, 0 kept)"), "{out}");
        assert!(out.contains("built KKKvK"), "{out}");
        dir
    })
}

fn dir() -> &'static str {
    tables().to_str().unwrap()
}

fn run(args: &[&str], code: i32) -> String {
    let out = drafti().args(args).output().expect("drafti runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "drafti {args:?}\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_second_build_keeps_every_table() {
    let out = run(&["egtb", "build", "--pieces", "4", "--dir", dir()], 0);
    assert!(out.contains("tz: 41 tables (0 built, 41 kept)"), "{out}");
}

#[test]
fn probe_gives_the_value_the_best_move_and_the_line() {
    let out = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WKb8,Kd6,Ka1:BKg1",
            "--dir",
            dir(),
        ],
        0,
    );
    assert!(out.contains("table  KKKvK"), "{out}");
    assert!(
        out.contains("value  win in 7: White to move wins in 7 plies"),
        "{out}"
    );
    assert!(out.contains("best   b8-a7"), "{out}");
    let json = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WKb8,Kd6,Ka1:BKg1",
            "--dir",
            dir(),
            "--json",
        ],
        0,
    );
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["result"], "win");
    assert_eq!(v["distance"], 7);
    assert_eq!(v["line"].as_array().unwrap().len(), 7);
    assert_eq!(v["best"], v["line"][0]);
    assert_eq!(v["moves"][0]["value"], "win in 7");
    // With 9 lone-king moves already made the count runs out first: a draw.
    let json = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WKb8,Kd6,Ka1:BKg1",
            "--dir",
            dir(),
            "--json",
            "--king-count",
            "9",
        ],
        0,
    );
    let v: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["result"], "draw");
    // Law 1: two kings against one.
    let out = run(
        &["egtb", "probe", "--fen", "W:WK1,K2:BK30", "--dir", dir()],
        0,
    );
    assert!(out.contains("value  draw"), "{out}");
    // More pieces than the tables have: an error naming the signature.
    let out = run(
        &["egtb", "probe", "--fen", "W:W21,22,23:B1,2", "--dir", dir()],
        2,
    );
    assert!(
        out.contains("it has 5 pieces, and the tables in") && out.contains("MMMvMM"),
        "{out}"
    );
}

#[test]
fn verify_and_info() {
    let out = run(&["egtb", "verify", "--dir", dir()], 0);
    assert!(
        out.contains("tz: 41 tables") && out.contains("every entry consistent"),
        "{out}"
    );
    let out = run(&["egtb", "info", "--dir", dir(), "--json"], 0);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 41);
    let kkkvk = rows.iter().find(|r| r["signature"] == "KKKvK").unwrap();
    assert_eq!(kkkvk["layers"], 12);
    let kkvk = rows.iter().find(|r| r["signature"] == "KKvK").unwrap();
    assert_eq!(kkvk["wins"], 0, "law 1");
    for r in &rows {
        let sum = r["wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap();
        assert_eq!(sum, r["positions"].as_u64().unwrap());
    }
}

/// A copy of the tables in a new temporary folder (and its `tz` folder).
fn copy_of_tables() -> (tempfile::TempDir, std::path::PathBuf) {
    let copy = tempfile::tempdir().unwrap();
    let to = copy.path().join("tz");
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(tables().join("tz")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
    (copy, to)
}

#[test]
fn a_table_missing_after_a_move_is_an_error_naming_it() {
    let (copy, to) = copy_of_tables();
    std::fs::remove_file(to.join("MvKM.egtb")).unwrap();
    let d = copy.path().to_str().unwrap();
    // Before: "best   none: the game is over", exit 0.
    for json in [false, true] {
        let mut args = vec!["egtb", "probe", "--fen", "W:W22,K10:B5", "--dir", d];
        if json {
            args.push("--json");
        }
        let out = drafti().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.trim_end(),
            format!(
                "drafti: cannot probe W:WK10,22:B5: the table MvKM is needed but missing ({})",
                to.join("MvKM.egtb").display()
            )
        );
    }
    // The position's own table missing: an error too.
    let out = run(&["egtb", "probe", "--fen", "B:W22,K10:B5", "--dir", d], 2);
    assert!(
        out.contains("cannot probe B:WK10,22:B5: its table MvKM is missing"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_table_is_an_error_not_a_hang() {
    let (copy, to) = copy_of_tables();
    let fifo = to.join("stray.egtb");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let d = copy.path().to_str().unwrap();
    for args in [
        &["egtb", "info", "--dir", d][..],
        &[
            "search",
            "--fen",
            "W:WK1,22:BK30",
            "--egtb",
            d,
            "--depth",
            "2",
        ],
    ] {
        // Before: blocked in open() until something wrote to the FIFO.
        let mut child = drafti_command()
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("drafti {args:?} still waits on the FIFO");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "{}: not an endgame table: it is a FIFO (tables are regular files)",
                fifo.display()
            )),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_corrupt_file_is_reported_by_name() {
    let (copy, to) = copy_of_tables();
    let file = to.join("KMvKM.egtb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[5000] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let d = copy.path().to_str().unwrap();
    for args in [
        vec!["egtb", "verify", "--dir", d],
        vec!["egtb", "probe", "--fen", "W:WK1:BK30", "--dir", d],
        vec![
            "search",
            "--fen",
            "W:WK1,22:BK30",
            "--egtb",
            d,
            "--depth",
            "2",
        ],
    ] {
        let out = run(&args, 2);
        assert!(
            out.contains("KMvKM.egtb") && out.contains("checksum mismatch"),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn search_uses_the_tables_and_says_so() {
    // A king and a man against a king: exact from the first iteration, and the same win as
    // the table's.
    let fen = "W:WKa1,c3:BKh8";
    let probe: Value = serde_json::from_str(
        run(
            &["egtb", "probe", "--fen", fen, "--dir", dir(), "--json"],
            0,
        )
        .trim(),
    )
    .unwrap();
    let out = drafti()
        .args([
            "search",
            "--fen",
            fen,
            "--egtb",
            dir(),
            "--depth",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("endgame tables: ") && stderr.contains("41 tables, up to 4 pieces"),
        "{stderr}"
    );
    let last: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(last["score"]["text"], probe["value"], "{last}");
    // A folder without tables given explicitly is an error.
    let empty = tempfile::tempdir().unwrap();
    let out = run(
        &[
            "search",
            "--fen",
            fen,
            "--egtb",
            empty.path().to_str().unwrap(),
        ],
        2,
    );
    assert!(out.contains("tz"), "{out}");
}

#[test]
fn the_tests_never_read_the_users_tables() {
    // Every drafti the tests run has the empty isolated home as HOME and XDG_CACHE_HOME,
    // so tables the user built in ~/.cache/drafti/egtb change no test's result.
    let expected = format!(
        "drafti: no endgame tables for tz in {} (drafti egtb build --variant tz --pieces 4 \
         --dir {} builds them)\n",
        isolated_home().join("drafti/egtb/tz").display(),
        isolated_home().join("drafti/egtb").display()
    );
    let out = drafti().args(["egtb", "info"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
    let out = drafti_command().args(["egtb", "info"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
    assert_eq!(std::fs::read_dir(isolated_home()).unwrap().count(), 0);
}

/// `egtb info` on rules with no tables built (issue 27, item 17): a clear message with the
/// command that builds them, not a raw OS error; the same for a folder that is not there.
#[test]
fn info_without_tables_says_how_to_build_them() {
    let out = drafti()
        .args(["egtb", "info", "--variant", "russian", "--dir", dir()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "drafti: no endgame tables for russian in {}/russian (drafti egtb build --variant \
             russian --pieces 4 --dir {} builds them)\n",
            dir(),
            dir()
        )
    );
    assert!(out.stdout.is_empty());
}

/// A build of more than ten billion new positions prints its estimate and stops without
/// `--yes` (issue 27, item 17): nothing is written, not even the folder.
#[test]
fn a_huge_build_needs_yes() {
    let scratch = tempfile::tempdir().unwrap();
    let d = scratch.path().join("eg");
    let out = drafti()
        .args([
            "egtb",
            "build",
            "--pieces",
            "8",
            "--dir",
            d.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("drafti: tz: ")
            && stderr.contains("new tables of at most 8 pieces hold ")
            && stderr.ends_with(" GB on disk and hours of work; give --yes to build them\n"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(!d.exists());
}

/// Every `egtb` subcommand reports a write error on stdout and exits 2 (issue 27, item 11:
/// it was a panic, exit 101).
#[test]
fn every_subcommand_reports_a_write_error() {
    let scratch = tempfile::tempdir().unwrap();
    let fresh = scratch.path().to_str().unwrap();
    for args in [
        &["egtb", "build", "--pieces", "2", "--dir", fresh][..],
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WKb8,Kd6,Ka1:BKg1",
            "--dir",
            dir(),
        ],
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WKb8,Kd6,Ka1:BKg1",
            "--dir",
            dir(),
            "--json",
        ],
        &["egtb", "verify", "--dir", dir()],
        &["egtb", "info", "--dir", dir()],
        &["egtb", "info", "--dir", dir(), "--json"],
    ] {
        let (code, stderr) = drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(
            stderr, "drafti: cannot write the report: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

/// Issue 27, item 15: `search` and `hub` take `--egtb DIR` and `--no-egtb` (the one table
/// policy of every command): by default the cache's tables are used and said on stderr,
/// `--no-egtb` uses none, `--egtb DIR` those of DIR.
#[cfg(unix)]
#[test]
fn search_and_hub_take_egtb_and_no_egtb() {
    use std::io::Write;
    let cache = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(cache.path().join("drafti")).unwrap();
    std::os::unix::fs::symlink(tables(), cache.path().join("drafti/egtb")).unwrap();
    let said = format!(
        "endgame tables: {}/drafti/egtb/tz (41 tables, up to 4 pieces)\n",
        cache.path().display()
    );
    let search = |extra: &[&str]| {
        let out = drafti()
            .env("XDG_CACHE_HOME", cache.path())
            .args(["search", "--fen", "W:WK1,K10:B28", "--depth", "3"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{extra:?}: {out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(search(&[]), said);
    assert_eq!(search(&["--no-egtb"]), "");
    assert_eq!(
        search(&["--egtb", dir()]),
        format!("endgame tables: {}/tz (41 tables, up to 4 pieces)\n", dir())
    );
    let both = drafti()
        .args([
            "search",
            "--fen",
            "W:WK1,K10:B28",
            "--egtb",
            dir(),
            "--no-egtb",
        ])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));

    let hub = |extra: &[&str]| {
        let mut child = drafti_command()
            .env("XDG_CACHE_HOME", cache.path())
            .arg("hub")
            .args(["--hash", "1"])
            .args(extra)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"hub\ninit\nquit\n").unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{extra:?}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).ends_with("wait\nready\n"));
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(hub(&[]), said);
    assert_eq!(hub(&["--no-egtb"]), "");
    assert_eq!(
        hub(&["--egtb", dir()]),
        format!("endgame tables: {}/tz (41 tables, up to 4 pieces)\n", dir())
    );
}

#[test]
fn probe_shows_law_3s_claim() {
    // A lone king on d8 must take f6 and is taken back; crowning the man on b8 first (law 3:
    // the king on f6 holds the main diagonal) lets it take a king into law 1's draw.
    let out = run(
        &["egtb", "probe", "--fen", "W:WK2:B1,K11,K20", "--dir", dir()],
        0,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1..],
        [
            "value  draw: a draw with best play (White to move)",
            "best   claim law 3: crown the man, law 2's count from 0 (White still to move)",
            "claim  law 3 (crown the man, count from 0): draw",
            "moves",
            "  d8xg5        loss in 2",
        ],
        "{out}"
    );
    let json: Value = serde_json::from_str(&run(
        &[
            "egtb",
            "probe",
            "--fen",
            "W:WK2:B1,K11,K20",
            "--dir",
            dir(),
            "--json",
        ],
        0,
    ))
    .unwrap();
    assert_eq!(json["best"], Value::Null);
    assert_eq!(
        json["claim"],
        serde_json::json!({"value": "draw", "result": "draw", "distance": null, "best": true})
    );
    // White to move has no claim: no claim field.
    let json: Value = serde_json::from_str(&run(
        &[
            "egtb",
            "probe",
            "--fen",
            "W:W5,K15,K19:BK1",
            "--dir",
            dir(),
            "--json",
        ],
        0,
    ))
    .unwrap();
    assert_eq!(json["value"], "draw");
    assert!(json.get("claim").is_none(), "{json}");
}

/// Issue 41: a table whose header is damaged (the first count of its signature set to 0xFE,
/// checksum left as it was) panicked every command that opened the tables, `egtb info`
/// included, and every searching command when the file was in the default folder, with no
/// flag given. Now each says "corrupt endgame table" naming the file, exit 2; the default
/// folder's error says how to go on (`--no-egtb`), which then works.
#[test]
fn a_damaged_header_is_an_error_naming_the_file_in_every_command() {
    let root = tempfile::tempdir().unwrap();
    let tables = root.path().join("tables");
    let t = tables.to_str().unwrap();
    run(&["egtb", "build", "--pieces", "2", "--dir", t], 0);
    let file = tables.join("tz/KvK.egtb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[16] = 0xFE;
    std::fs::write(&file, bytes).unwrap();
    let named = |out: &str| {
        assert!(
            out.contains("KvK.egtb: corrupt endgame table") && !out.contains("panicked"),
            "{out}"
        );
    };
    for args in [
        vec!["egtb", "info", "--dir", t],
        vec!["egtb", "verify", "--dir", t],
        vec!["egtb", "probe", "--fen", "W:WK1:BK30", "--dir", t],
        vec!["search", "--fen", "W:WK1:BK30", "--egtb", t, "--depth", "2"],
    ] {
        named(&run(&args, 2));
    }
    // The same file in the default folder, no flag given.
    let cache = root.path().join("cache");
    std::fs::create_dir_all(cache.join("drafti/egtb/tz")).unwrap();
    std::fs::copy(&file, cache.join("drafti/egtb/tz/KvK.egtb")).unwrap();
    let game = root.path().join("game.pdn");
    std::fs::write(&game, "1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n").unwrap();
    let g = game.to_str().unwrap();
    let html = root.path().join("report.html");
    for args in [
        vec!["analyze", "--nodes", "100", g],
        vec!["report", "--nodes", "100", g],
        vec![
            "report",
            "--nodes",
            "100",
            "--html",
            html.to_str().unwrap(),
            g,
        ],
        vec!["search", "--fen", "W:WK1:BK30", "--depth", "2"],
        vec!["puzzles", "--nodes", "100", g],
    ] {
        let out = drafti()
            .env("XDG_CACHE_HOME", &cache)
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        named(&stderr);
        assert!(stderr.contains("--no-egtb"), "{args:?}: {stderr}");
        let mut without = args.clone();
        without.push("--no-egtb");
        let out = drafti()
            .env("XDG_CACHE_HOME", &cache)
            .args(&without)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{without:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Issue 41: a position without its table was refused as `(they have at most 3 pieces)`,
/// also when the position had at most 3 and only its own table was missing. Now the
/// message says which of the two, and the command that builds the table.
#[test]
fn a_position_without_its_table_says_why_and_how_to_build_it() {
    let root = tempfile::tempdir().unwrap();
    let r = root.path().to_str().unwrap();
    run(
        &[
            "egtb",
            "build",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--dir",
            r,
        ],
        0,
    );
    let out = run(
        &[
            "egtb",
            "probe",
            "--variant",
            "russian",
            "--fen",
            "W:WK1,K2:BK30,K29",
            "--dir",
            r,
        ],
        2,
    );
    assert_eq!(
        out,
        format!(
            "drafti: cannot probe W:WK1,K2:BK29,K30: it has 4 pieces, and the tables in \
             {r}/russian have at most 3 (drafti egtb build --variant russian --signature KKvKK \
             --dir {r} builds its table)\n"
        )
    );
    std::fs::remove_file(root.path().join("russian/KvKK.egtb")).unwrap();
    let out = run(
        &[
            "egtb",
            "probe",
            "--variant",
            "russian",
            "--fen",
            "W:WK1:BK30,K29",
            "--dir",
            r,
        ],
        2,
    );
    assert_eq!(
        out,
        format!(
            "drafti: cannot probe W:WK1:BK29,K30: its table KvKK is missing, \
             {r}/russian/KvKK.egtb (drafti egtb build --variant russian --signature KvKK --dir \
             {r} builds it)\n"
        )
    );
    // The command it gives builds the table, and the probe answers.
    run(
        &[
            "egtb",
            "build",
            "--variant",
            "russian",
            "--signature",
            "KvKK",
            "--dir",
            r,
        ],
        0,
    );
    run(
        &[
            "egtb",
            "probe",
            "--variant",
            "russian",
            "--fen",
            "W:WK1:BK30,K29",
            "--dir",
            r,
        ],
        0,
    );
}

/// The report's header names the tables a run used, and quotes its preset's figures measured
/// that way.
#[test]
fn the_reports_trust_line_names_the_tables_its_figures_were_measured_with() {
    let root = tempfile::tempdir().unwrap();
    let game = root.path().join("game.pdn");
    std::fs::write(&game, "1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n").unwrap();
    let g = game.to_str().unwrap();
    let trust = |out: &str| -> String {
        out.lines()
            .find(|l| l.starts_with("How far to trust the verdicts"))
            .unwrap_or_else(|| panic!("no trust line: {out}"))
            .to_string()
    };
    // These tables hold 4 pieces; the figures are of the 5-piece ones.
    let fewer = trust(&run(&["report", "--preset", "fast", "--egtb", dir(), g], 0));
    assert!(
        fewer.contains("(preset fast, with endgame tables of up to 4 pieces), on 100 Tanzanian games (engine self-play) judged again by two far deeper searches with the same endgame tables (exact 6-piece tables in the endings)"),
        "{fewer}"
    );
    assert!(
        fewer.ends_with(
            "Those figures are with tables of up to 5 pieces; this run's hold at most 4, so \
             its verdicts in endings are weaker."
        ),
        "{fewer}"
    );
    let without = trust(&run(&["report", "--preset", "fast", "--no-egtb", g], 0));
    assert!(
        without.contains("(preset fast, without endgame tables), on 100 Tanzanian games (engine self-play) judged again by two far deeper searches with endgame tables of up to 5 pieces (exact 6-piece tables in the endings)"),
        "{without}"
    );
    assert!(without.contains("build them on first use"), "{without}");
    // thorough quotes its own figures: the default's settings with a deeper pass.
    let thorough = trust(&run(
        &["report", "--preset", "thorough", "--egtb", dir(), g],
        0,
    ));
    assert!(
        thorough.contains("(preset thorough, with endgame tables of up to 4 pieces)")
            && thorough.contains("5 of its 391 blunders were not even mistakes, and it missed 5 of 279 game-losing moves"),
        "{thorough}"
    );
    // deep has figures of its own with the tables, and others without.
    let deep = trust(&run(&["report", "--preset", "deep", "--egtb", dir(), g], 0));
    assert!(
        deep.contains("on 11 Czech and Russian master games judged again by two searches of 1 and 2 million nodes a position with the same endgame tables"),
        "{deep}"
    );
    let deep_without = trust(&run(&["report", "--preset", "deep", "--no-egtb", g], 0));
    assert!(
        deep_without.contains("(preset deep, without endgame tables)")
            && deep_without.contains("none of its 15 blunders"),
        "{deep_without}"
    );
}

/// analyze and report build the default folder's tables of their games' variants on first
/// use, once (here of 3 pieces, through the variable the tests otherwise set to 0), and only
/// there: not with --no-egtb, not in a folder --egtb names.
#[test]
fn analyze_and_report_build_the_tables_of_their_games_on_first_use() {
    let cache = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let games = root.path().join("games.pdn");
    std::fs::write(
        &games,
        "[GameType \"29\"]\n1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n\n[GameType \"TZ\"]\n1. c3-d4 *\n",
    )
    .unwrap();
    let g = games.to_str().unwrap();
    let run_with = |args: &[&str], pieces: &str| {
        let out = drafti()
            .env("XDG_CACHE_HOME", cache.path())
            .env(drafti_tests::FIRST_USE_TABLES, pieces)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let egtb = cache.path().join("drafti/egtb");
    let analyze = ["analyze", "--preset", "fast", g];
    let (code, _, err) = run_with(&["analyze", "--preset", "fast", "--no-egtb", g], "3");
    assert_eq!(code, Some(0), "{err}");
    assert!(!egtb.exists() && !err.contains("endgame tables"), "{err}");

    let (code, _, err) = run_with(&analyze, "3");
    assert_eq!(code, Some(0), "{err}");
    for variant in ["czech", "tz"] {
        assert!(
            err.contains(&format!(
                "endgame tables: building the {variant} tables of up to 3 pieces in {}, once",
                egtb.join(variant).display()
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!("endgame tables: built 16 {variant} tables in ")),
            "{err}"
        );
        assert!(egtb.join(variant).join("KKvK.egtb").is_file());
    }
    // Only the variants of the games.
    assert!(!egtb.join("russian").exists(), "{err}");
    assert!(
        err.contains("endgame tables: czech up to 3 pieces, tz up to 3 pieces on "),
        "{err}"
    );

    // Once: the next run finds them; a larger number builds only what is missing.
    let (code, _, err) = run_with(&analyze, "3");
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("building"), "{err}");
    let (code, out, err) = run_with(
        &["report", "--preset", "fast", "--variant", "russian", g],
        "2",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("endgame tables: built 4 russian tables in "),
        "{err}"
    );
    assert!(
        out.contains("(preset fast, with endgame tables of up to 2 pieces)"),
        "{out}"
    );

    // Not in a folder --egtb names: there, tables are the user's to build.
    let mine = tempfile::tempdir().unwrap();
    let (code, _, err) = run_with(
        &[
            "analyze",
            "--preset",
            "fast",
            "--egtb",
            mine.path().to_str().unwrap(),
            g,
        ],
        "3",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no endgame tables here"), "{err}");

    // A cache that cannot be written costs the tables, not the report.
    let file = root.path().join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    let out = drafti()
        .env("XDG_CACHE_HOME", &file)
        .env(drafti_tests::FIRST_USE_TABLES, "3")
        .args(["report", "--preset", "fast", g])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for variant in ["czech", "tz"] {
        assert!(
            stderr.contains(&format!(
                "warning: endgame tables: cannot build the {variant} tables in {}",
                file.join("drafti/egtb").join(variant).display()
            )),
            "{stderr}"
        );
    }
    assert!(
        stdout.contains("(preset fast, without endgame tables)"),
        "{stdout}"
    );

    let (code, _, err) = run_with(&analyze, "six");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("DRAFTI_FIRST_USE_TABLES=six: expected the most pieces of the endgame tables built on first use, 0 (none) to 5"),
        "{err}"
    );
}

/// puzzles builds the tables of its games' variants on first use too, as analyze does, so a
/// puzzle's verdicts are those its game's analysis gives whichever command ran first.
#[test]
fn puzzles_build_the_tables_of_their_games_on_first_use() {
    let cache = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let games = root.path().join("games.pdn");
    std::fs::write(
        &games,
        "[GameType \"29\"]\n1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n",
    )
    .unwrap();
    let run_with = |extra: &[&str]| {
        let out = drafti()
            .env("XDG_CACHE_HOME", cache.path())
            .env(drafti_tests::FIRST_USE_TABLES, "3")
            .args(["puzzles", "--nodes", "500"])
            .args(extra)
            .arg(&games)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{err}");
        err
    };
    let egtb = cache.path().join("drafti/egtb");
    let err = run_with(&["--no-egtb"]);
    assert!(!egtb.exists(), "{err}");
    let err = run_with(&[]);
    assert!(
        err.contains(&format!(
            "endgame tables: building the czech tables of up to 3 pieces in {}, once",
            egtb.join("czech").display()
        )),
        "{err}"
    );
    assert!(egtb.join("czech").join("KKvK.egtb").is_file());
    // Only the games' variant.
    assert!(
        !egtb.join("tz").exists() && !egtb.join("russian").exists(),
        "{err}"
    );
    let err = run_with(&[]);
    assert!(!err.contains("building"), "{err}");
}

/// Two runs that start together (the shards of a cluster job on one machine) build the tables
/// once: the second waits on the first's lock, then finds them built.
#[test]
fn runs_that_start_together_build_the_tables_once() {
    let cache = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let games = root.path().join("games.pdn");
    std::fs::write(&games, "1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n").unwrap();
    let runs: Vec<std::process::Child> = (0..2)
        .map(|_| {
            drafti_command()
                .env("XDG_CACHE_HOME", cache.path())
                .env(drafti_tests::FIRST_USE_TABLES, "4")
                .args(["analyze", "--preset", "fast", "--jobs", "1"])
                .arg(&games)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let errs: Vec<String> = runs
        .into_iter()
        .map(|run| {
            let out = run.wait_with_output().unwrap();
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(out.status.success(), "{err}");
            assert!(err.contains("tz up to 4 pieces"), "{err}");
            err
        })
        .collect();
    let builders = errs
        .iter()
        .filter(|e| e.contains("building the tz tables"))
        .count();
    assert_eq!(builders, 1, "{errs:?}");
    assert!(
        errs.iter().any(|e| e.contains("built 41 tz tables")),
        "{errs:?}"
    );
}
