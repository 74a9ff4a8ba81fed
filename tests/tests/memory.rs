//! Issue 16, defect 2: `drafti validate` reads archives whose lines are long (CR-only line
//! ends, games run together on one line) in flat memory: the peak resident memory of the
//! process does not grow with the archive. Defect 10: `drafti standings` stays close to
//! `validate` on an archive of one Event. Issue 27, item 8: the Hub engine drops a line
//! without end, and `drafti match` an engine's flood of lines, in bounded memory; `drafti
//! report` copies what is piped in to a temporary file in flat memory. The memory
//! tests are in their own binary: a
//! child's recorded peak includes the RSS of the test process that spawned it, which is kept
//! small here (the archives are written to disk piece by piece, never held in memory).
#![allow(clippy::print_stdout, clippy::print_stderr)]
#![cfg(target_os = "linux")]

use drafti_tests::drafti_command;
use std::io::Write;

/// Runs `drafti ARGS` and returns (exit code, peak resident memory in KiB) of that process
/// (`wait4` reports the child's `ru_maxrss`).
// The child is waited for, by `wait4` (which `Child::wait` cannot give the rusage of).
#[allow(clippy::zombie_processes)]
fn peak_rss_kib(args: &[&str]) -> (i32, i64) {
    let child = drafti_command()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data, filled in by the kernel; the pid is our own child,
    // waited for exactly once here.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    assert!(libc::WIFEXITED(status), "drafti was killed");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// Writes the bundled self-play archive `copies` times with `\n` replaced by `sep`, in a
/// fresh folder removed when the returned path drops.
fn write_archive(name: &str, copies: usize, sep: &[u8]) -> drafti_tests::TempPath {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/selfplay.pdn");
    let path = drafti_tests::temp_path("memory", name);
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..copies {
        let text = std::fs::read(corpus).unwrap();
        for line in text.split(|&b| b == b'\n') {
            out.write_all(line).unwrap();
            out.write_all(sep).unwrap();
        }
    }
    out.flush().unwrap();
    drop(out);
    path
}

#[test]
fn validate_memory_is_flat_on_long_lines() {
    let stars = drafti_tests::temp_path("memory-stars", "stars.pdn");
    std::fs::write(&stars, "* ".repeat(40_000)).unwrap();
    // 40,000 games on one 80 KB line: 1.8 GB before the fix.
    let (code, peak) = peak_rss_kib(&["validate", "-j2", stars.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(peak < 64 << 10, "peak RSS {peak} KiB");

    let lf = write_archive("lf.pdn", 1, b"\n");
    let (code, base) = peak_rss_kib(&["validate", "-j2", lf.to_str().unwrap()]);
    assert_eq!(code, 0);
    for (name, sep) in [("cr", &b"\r"[..]), ("line", b" ")] {
        for copies in [1, 4] {
            // 1.8 MB and 7 MB; the bundled corpus with CR-only line ends needed 7 GB.
            let file = write_archive(&format!("{name}{copies}.pdn"), copies, sep);
            let (code, peak) = peak_rss_kib(&["validate", "-j2", file.to_str().unwrap()]);
            drop(file);
            assert_eq!(code, 0, "{name} x{copies}");
            assert!(
                peak < base + (8 << 10),
                "{name} x{copies}: peak RSS {peak} KiB, the LF archive {base} KiB"
            );
        }
    }
}

#[test]
fn a_stray_parenthesis_loses_no_game_in_flat_memory() {
    // Five games, a `(` line, then 200,000 games (7 MB): before, the `(` opened a variation
    // that swallowed every later game (6 games in all).
    let path = drafti_tests::temp_path("memory-paren", "paren.pdn");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let game = b"1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n\n";
    for i in 0..200_005 {
        if i == 5 {
            out.write_all(b"(\n\n").unwrap();
        }
        out.write_all(game).unwrap();
    }
    out.flush().unwrap();
    drop(out);
    let file = path.to_str().unwrap();
    let (code, peak) = peak_rss_kib(&["validate", "-j2", file]);
    let summary = drafti_command()
        .args(["validate", "-j2", file])
        .output()
        .unwrap();
    assert_eq!(code, 1);
    assert!(peak < 64 << 10, "peak RSS {peak} KiB");
    let stderr = String::from_utf8_lossy(&summary.stderr);
    assert!(
        stderr.contains("200,006 games in 1 file: 200,005 valid, 1 invalid"),
        "{stderr}"
    );
}

#[test]
fn jobs_is_capped_and_the_cap_stays_in_bounded_memory() {
    let path = drafti_tests::temp_path("memory-jobs", "one.pdn");
    std::fs::write(&path, "1. c3-d4 f6-g5 1-0\n").unwrap();
    let file = path.to_str().unwrap();
    // Before: --jobs 16000 on one game was killed at 120 s with 3.4 GB; now refused.
    let (code, peak) = peak_rss_kib(&["validate", "--jobs", "16000", file]);
    assert_eq!(code, 2);
    assert!(peak < 32 << 10, "peak RSS {peak} KiB");
    // The cap itself: 1024 threads, about 250 MB.
    let (code, peak) = peak_rss_kib(&["validate", "--jobs", "1024", file]);
    assert_eq!(code, 0);
    assert!(peak < 512 << 10, "peak RSS {peak} KiB");
}

#[test]
fn standings_memory_stays_close_to_validate_on_one_big_event() {
    // 32,000 games, 28 MB, one Event of 3 matches with 48,000 game_after_decision warnings:
    // before, standings kept a ~0.9 KB summary a game and the Event's whole report (peak
    // 50-100 MB over validate's); now 32-byte records and 24-byte warnings (10-20 MB over).
    let archive = write_archive("event16.pdn", 16, b"\n");
    let file = archive.to_str().unwrap();
    let (code, validate) = peak_rss_kib(&["validate", "-j2", file]);
    assert_eq!(code, 0);
    for format in [None, Some("--json"), Some("--csv")] {
        let mut args = vec!["standings", "-j2", file];
        args.extend(format);
        let (code, peak) = peak_rss_kib(&args);
        assert_eq!(
            code, 1,
            "{format:?}: the archive has game_after_decision warnings"
        );
        assert!(
            peak < validate + (32 << 10),
            "standings {format:?}: peak RSS {peak} KiB, validate {validate} KiB"
        );
    }
}

/// `drafti report` copies stdin to a temporary file to judge the variant guess before the
/// search: through one bounded buffer, never the whole input in memory. 64 MiB of untagged
/// Czech games piped in are copied, replayed and refused (exit 2) with a peak under 48 MiB
/// (about 23 MiB when written).
#[test]
#[allow(clippy::zombie_processes)] // waited for by wait4, for its peak memory
fn report_copies_stdin_in_flat_memory() {
    use std::io::Read;
    use std::process::Stdio;
    let game = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/variant/czech-2007-23-25.pdn"
    ))
    .unwrap();
    let mut child = drafti_command()
        .args(["report", "-j2", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut written = 0;
    while written < 64 << 20 {
        stdin.write_all(&game).unwrap();
        stdin.write_all(b"\r\n").unwrap();
        written += game.len() + 2;
    }
    drop(stdin);
    let mut status = 0;
    // SAFETY: `rusage` is plain data filled in by the kernel; the pid is our own child,
    // waited for once.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    let stderr = reader.join().unwrap();
    assert!(libc::WIFEXITED(status), "drafti was killed");
    assert_eq!(libc::WEXITSTATUS(status), 2, "{stderr}");
    assert!(
        stderr.starts_with("drafti: <stdin>: no GameType or Variant tag")
            && stderr.contains("give --variant czech"),
        "{stderr}"
    );
    let peak_mib = usage.ru_maxrss / 1024;
    assert!(peak_mib < 48, "peak resident memory {peak_mib} MiB");
}

/// The Hub engine's stdin (issue 27, item 8).
mod hub {
    use drafti_tests::drafti_command;
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    /// Issue 27, item 8: a line without end is not held: `drafti hub` reads 200 MiB of one line in
    /// bounded memory, answers one short `error` quoting its start, and goes on.
    #[cfg(target_os = "linux")]
    #[test]
    #[allow(clippy::zombie_processes)] // waited for by wait4, for its peak memory
    fn an_endless_line_is_dropped_in_bounded_memory() {
        let mut child = drafti_command()
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        let chunk = vec![b'x'; 1 << 20];
        stdin.write_all(b"pos pos=").unwrap();
        for _ in 0..200 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\nping\nquit\n").unwrap();
        drop(stdin);
        let mut status = 0;
        // SAFETY: `rusage` is plain data filled in by the kernel; the pid is our own child,
        // waited for once.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
        assert_eq!(pid, child.id() as libc::pid_t);
        let lines = reader.join().unwrap();
        assert_eq!(
            lines,
            [
                format!(
                    "error message=\"a line of {} bytes is longer than 65536: not read (it began \
                     'pos pos=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…') (position unset)\"",
                    8 + (200 << 20)
                ),
                "pong".to_string()
            ]
        );
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        let peak_mib = usage.ru_maxrss / 1024;
        assert!(peak_mib < 40, "peak resident memory {peak_mib} MiB");
    }
}

/// The lines `drafti match` reads from its engines (issue 27, item 8).
mod engines {
    use drafti_tests::{drafti_command, drafti_path};
    use serde_json::Value;

    fn hub(args: &str) -> String {
        format!("{} hub --hash 4 {args}", drafti_path().display())
    }

    fn broken(mode: &str) -> String {
        format!(
            "{}/fixtures/match/broken_engine.sh {mode}",
            env!("CARGO_MANIFEST_DIR")
        )
    }

    fn summary(stdout: &[u8]) -> Value {
        serde_json::from_slice(stdout).expect("one JSON object")
    }

    /// `drafti match ARGS` run to its end (a watchdog fails the test after two minutes instead of
    /// hanging): (exit code, stdout, stderr, peak resident memory of the match and the engines it
    /// waited for, in MiB).
    #[cfg(target_os = "linux")]
    #[allow(clippy::zombie_processes)] // waited for by wait4, for its peak memory
    fn match_with_peak(args: &[&str]) -> (i32, String, String, i64) {
        use std::io::Read;
        let mut child = drafti_command()
            .arg("match")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let err = std::thread::spawn(move || {
            let mut text = String::new();
            stderr.read_to_string(&mut text).unwrap();
            text
        });
        let pid = child.id() as libc::pid_t;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let mut status = 0;
        // SAFETY: `rusage` is plain data filled in by the kernel; the pid is our own child,
        // reaped once by wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if done == pid {
                break;
            }
            if std::time::Instant::now() > until {
                let _ = child.kill();
                panic!("drafti match {args:?} did not end within two minutes");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        assert!(libc::WIFEXITED(status), "drafti match was killed");
        (
            libc::WEXITSTATUS(status),
            out,
            err.join().unwrap(),
            usage.ru_maxrss / 1024,
        )
    }

    /// Issue 27, item 8: an engine that floods `info` lines, or writes one line without end, is
    /// forfeited on its deadline even while its lines keep coming, and the match reads them in
    /// bounded memory.
    #[cfg(target_os = "linux")]
    #[test]
    fn flooding_engines_forfeit_on_time_in_bounded_memory() {
        for mode in ["flood", "longline"] {
            let engine = broken(mode);
            let (code, out, err, peak_mib) = match_with_peak(&[
                "--engine",
                &hub("--nodes 300"),
                "--engine",
                &engine,
                "--games",
                "2",
                "--movetime",
                "200",
                "--margin",
                "200",
                "--json",
            ]);
            assert_eq!(code, 0, "{mode}: {err}");
            let s = summary(out.as_bytes());
            assert_eq!(
                (s["wins"].as_u64(), s["games"].as_u64()),
                (Some(2), Some(2)),
                "{s}"
            );
            assert_eq!(s["terminations"]["forfeit"], 2, "{mode}: {s}");
            let games: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
            assert_eq!(games.len(), 2, "{err}");
            for line in games {
                assert!(
                    line.contains("(time forfeit: ") && line.contains("no answer within 0.4 s"),
                    "{mode}: {line}"
                );
            }
            assert!(peak_mib < 64, "{mode}: peak resident memory {peak_mib} MiB");
        }
    }
}

#[test]
fn import_tzdraft_reads_json_lines_in_bounded_memory() {
    // One game a line (tests/fixtures/tzdraft/games.jsonl's first), then a line of 100 MB (a
    // damaged export): skipped as an unreadable game, read in at most 1 MiB (a game of
    // 6,000 plies is that long).
    let jsonl = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tzdraft/games.jsonl");
    let text = std::fs::read_to_string(jsonl).unwrap();
    let game = text.lines().next().unwrap();
    let scratch = drafti_tests::temp_dir("memory-tz");
    let dir = scratch.path();
    let write = |name: &str, games: usize, long_line: bool| {
        let path = dir.join(name);
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        writeln!(out, "{game}").unwrap();
        if long_line {
            out.write_all(b"{\"id\": \"long\", \"notes\": \"").unwrap();
            let chunk = vec![b'x'; 1 << 20];
            for _ in 0..100 {
                out.write_all(&chunk).unwrap();
            }
            out.write_all(b"\"}\n").unwrap();
        }
        for _ in 1..games {
            writeln!(out, "{game}").unwrap();
        }
        out.flush().unwrap();
        path.to_string_lossy().into_owned()
    };
    let one = write("one.jsonl", 1, false);
    let (code, base) = peak_rss_kib(&["import", "tzdraft", &one]);
    assert_eq!(code, 0);
    let many = write("many.jsonl", 2000, false);
    let (code, peak) = peak_rss_kib(&["import", "tzdraft", &many]);
    assert_eq!(code, 0);
    assert!(
        peak < base + (4 << 10),
        "2,000 games: peak RSS {peak} KiB, one game {base} KiB"
    );
    let long = write("long.jsonl", 2, true);
    let (code, peak) = peak_rss_kib(&["import", "tzdraft", &long]);
    assert_eq!(code, 1);
    assert!(
        peak < base + (12 << 10),
        "a 100 MB line: peak RSS {peak} KiB, one game {base} KiB"
    );
}
