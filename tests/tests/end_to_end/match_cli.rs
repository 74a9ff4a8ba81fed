//! `drafti match` end to end: `drafti hub` at two node limits (the stronger wins with a
//! significant score, the PDN replays as valid, the SPRT stops early), and engines that fail
//! on purpose (`tests/fixtures/match/broken_engine.sh`: exits mid-game, hangs, plays an
//! illegal move), each of which loses its games, recorded in the `Termination` tag, while
//! the match goes on.

use drafti_tests::{drafti, drafti_path};
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

/// `name` in a fresh folder, removed when the returned path drops.
fn temp(name: &str) -> drafti_tests::TempPath {
    drafti_tests::temp_path("match", name)
}

#[test]
fn the_stronger_engine_wins_and_the_games_replay() {
    let pdn = temp("nodes.pdn");
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 300"),
            "--engine",
            &hub("--nodes 8000"),
        ])
        .args(["--games", "16", "--json", "--pdn"])
        .arg(&pdn)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = summary(&out.stdout);
    assert_eq!(s["games"], 16);
    assert_eq!(s["model"], "pentanomial");
    // The first engine (300 nodes) loses clearly: the whole 95% interval is below zero.
    let high = s["elo_high"].as_f64().unwrap_or(f64::NEG_INFINITY);
    assert!(high < 0.0, "{s}");
    assert!(s["losses"].as_u64().unwrap() >= 10, "{s}");
    assert_eq!(s["terminations"]["forfeit"], 0, "{s}");
    // One progress line per game on stderr.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("game ")).count(),
        16
    );

    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event \"drafti match\"]").count(), 16);
    assert!(text.contains("{opening}"));
    // Evaluations as comments: score/depth.
    assert!(text.contains("/"), "{text}");
    let validated = drafti()
        .arg("validate")
        .arg(&pdn)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        validated.status.success(),
        "{}",
        String::from_utf8_lossy(&validated.stdout)
    );
    let games: Vec<Value> = String::from_utf8_lossy(&validated.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 16);

    // The same match again: node limits make it the same games.
    let again = temp("again.pdn");
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 300"),
            "--engine",
            &hub("--nodes 8000"),
        ])
        .args(["--games", "16", "--concurrency", "2", "--pdn"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
}

#[test]
fn sprt_stops_early() {
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 200"),
            "--engine",
            &hub("--nodes 8000"),
        ])
        .args(["--games", "200", "--sprt", "0,50", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = summary(&out.stdout);
    assert_eq!(s["sprt"]["verdict"], "H0", "{s}");
    let games = s["games"].as_u64().unwrap();
    assert!(games < 60, "{s}");
    assert!(s["sprt"]["llr"].as_f64().unwrap() <= s["sprt"]["lower"].as_f64().unwrap());
}

#[test]
fn broken_engines_lose_and_the_match_goes_on() {
    for (mode, termination) in [
        ("exit", "abandoned: "),
        ("hang", "time forfeit: "),
        ("illegal", "rules infraction: "),
    ] {
        let pdn = temp(&format!("{mode}.pdn"));
        let out = drafti()
            .args([
                "match",
                "--engine",
                &hub("--nodes 500"),
                "--engine",
                &broken(mode),
            ])
            .args([
                "--games",
                "4",
                "--movetime",
                "50",
                "--margin",
                "300",
                "--json",
                "--pdn",
            ])
            .arg(&pdn)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s = summary(&out.stdout);
        assert_eq!(
            (s["wins"].as_u64(), s["games"].as_u64()),
            (Some(4), Some(4)),
            "{mode}: {s}"
        );
        assert_eq!(s["terminations"]["forfeit"], 4, "{mode}: {s}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        let tags: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("[Termination"))
            .collect();
        assert_eq!(tags.len(), 4);
        for tag in tags {
            assert!(
                tag.contains(termination) && tag.contains(&format!("broken-{mode}")),
                "{tag}"
            );
        }
        // The forfeited games are still valid records (the illegal move is not written).
        drafti().arg("validate").arg(&pdn).assert().success();
    }
}

/// With `--egtb`, a position the tables hold ends the game with their exact result: from the
/// start for openings inside the tables (two kings against a man: a draw; a king against a
/// man: White wins in 3 plies, whoever plays White), after the capture that enters them for
/// one outside (two kings against two men). Without tables the same openings are played out.
#[test]
fn endgame_tables_adjudicate() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tables.path().to_str().unwrap();
    let built = drafti()
        .args(["egtb", "build", "--pieces", "3", "--dir", dir])
        .output()
        .unwrap();
    assert!(built.status.success());
    let openings = temp("table-openings.txt");
    std::fs::write(&openings, "W:WK1,K10:B28\nW:WK10:B20\nW:WK1,K10:B28,20\n").unwrap();
    let pdn = temp("tables.pdn");
    let out = drafti()
        .args(["match", "--engine", &hub("--nodes 500")])
        .args(["--engine", &hub("--nodes 2000")])
        .args(["--games", "6", "--json", "--egtb", dir, "--openings"])
        .arg(&openings)
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("endgame tables: "), "{stderr}");
    let s = summary(&out.stdout);
    assert!(s["terminations"]["tables"].as_u64().unwrap() >= 4, "{s}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let ends: Vec<(&str, &str)> = text
        .split("[Event ")
        .skip(1)
        .map(|game| {
            let tag = |name: &str| {
                let start = game.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
                &game[start..start + game[start..].find('"').unwrap()]
            };
            (tag("Result"), tag("Termination"))
        })
        .collect();
    assert_eq!(ends.len(), 6);
    for game in &ends[..2] {
        assert_eq!(
            *game,
            ("1/2-1/2", "draw: adjudicated by the endgame tables")
        );
    }
    for game in &ends[2..4] {
        assert_eq!(
            *game,
            (
                "1-0",
                "adjudicated by the endgame tables: White wins in 3 plies"
            )
        );
    }
    assert!(text.contains("[PlyCount \"0\"]"));
    let validated = drafti().arg("validate").arg(&pdn).output().unwrap();
    assert!(validated.status.success());

    let out = drafti()
        .args(["match", "--engine", &hub("--nodes 500")])
        .args(["--engine", &hub("--nodes 2000")])
        .args(["--games", "2", "--json", "--openings"])
        .arg(&openings)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(summary(&out.stdout)["terminations"]["tables"], 0);
}

/// Issue 27, item 16: an engine that exits leaving a child that holds its output open is
/// scored as abandoned (not a time forfeit), and the child does not outlive the match: the
/// engine's whole process group is killed.
#[test]
fn an_engine_leaving_a_child_is_abandoned_and_the_child_killed() {
    let pids = temp("orphans.txt");
    let _ = std::fs::remove_file(&pids);
    let engine = format!("{} {}", broken("orphan"), pids.display());
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 300"),
            "--engine",
            &engine,
        ])
        .args([
            "--games",
            "2",
            "--movetime",
            "100",
            "--margin",
            "200",
            "--json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let s = summary(&out.stdout);
    assert_eq!(s["terminations"]["forfeit"], 2, "{s}");
    let games: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stderr}");
    for line in games {
        assert!(
            line.contains("(abandoned: ") && line.contains("the engine exited with status 3"),
            "{line}"
        );
    }
    let orphans = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(orphans.lines().count(), 2, "{orphans}");
    for pid in orphans.lines() {
        // Gone, or a zombie waiting for a parent that never reaps (PID 1 of a container).
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let alive = state
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|s| s != "Z");
        assert!(
            !alive,
            "the engine's child {pid} outlived the match: {state}"
        );
    }
}

/// Issue 27, item 16: `--engine` runs through `sh -c`, so `cd DIR && CMD` and `VAR=x CMD`
/// work.
#[test]
fn engine_commands_are_shell_commands() {
    let engine = format!("cd / && DRAFTI_TEST=1 {}", hub("--nodes 200"));
    let out = drafti()
        .args([
            "match",
            "--engine",
            &engine,
            "--engine",
            &hub("--nodes 200"),
        ])
        .args(["--games", "2", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let s = summary(&out.stdout);
    assert_eq!(s["games"], 2, "{s}");
    assert_eq!(s["terminations"]["forfeit"], 0, "{s}");
}

/// Issue 27, item 10: absurd times are refused when the flags are read (an `Instant` plus
/// u64::MAX seconds panicked; a move time the Hub engines refuse was blamed on them).
#[test]
fn absurd_times_are_refused_at_parse_time() {
    for (flag, value, message) in [
        (
            "--move-timeout",
            "18446744073709551615",
            "error: invalid value '18446744073709551615' for '--move-timeout <S>': \
             18446744073709551615 is not in 1..=86400\n",
        ),
        (
            "--movetime",
            "86400001",
            "error: invalid value '86400001' for '--movetime <MS>': 86400001 is not in \
             1..=86400000\n",
        ),
        (
            "--margin",
            "18446744073709551615",
            "error: invalid value '18446744073709551615' for '--margin <MS>': \
             18446744073709551615 is not in 0..=3600000\n",
        ),
    ] {
        let out = drafti()
            .args(["match", "--engine", "true", "--engine", "true", flag, value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(message), "{stderr}");
    }
}

/// Issue 27, item 16: a FEN openings file with one bad line is refused naming the line; a
/// FEN opening whose game is already over is skipped with a note, the others played.
#[test]
fn fen_openings_name_their_bad_line_and_skip_finished_games() {
    let bad = temp("bad-openings.txt");
    std::fs::write(&bad, "# openings\nW:W21-32:B1-12\n\nW:W21-32:B1-99\n").unwrap();
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 100"),
            "--engine",
            &hub("--nodes 100"),
        ])
        .arg("--openings")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "drafti: {}: line 4: bad FEN square '99': square 99 is out of range (numeric \
             squares are 1-32)\n",
            bad.display()
        )
    );

    // Issue 41: a position that cannot arise was played, as two wins counted in the Elo.
    let impossible = temp("impossible-openings.txt");
    std::fs::write(&impossible, "W:W21-32:B1-12\n\nW:WK1:B\n").unwrap();
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 100"),
            "--engine",
            &hub("--nodes 100"),
        ])
        .args(["--games", "2", "--openings"])
        .arg(&impossible)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "drafti: {}: line 3: bad FEN: Black has no pieces but White is to move: the \
             position cannot arise (Black made the last move, and no move leaves its own side \
             without pieces)\n",
            impossible.display()
        )
    );

    let over = temp("over-openings.txt");
    std::fs::write(&over, "B:W21:B\nW:W21-32:B1-12\n").unwrap();
    let out = drafti()
        .args([
            "match",
            "--engine",
            &hub("--nodes 100"),
            "--engine",
            &hub("--nodes 100"),
        ])
        .args(["--games", "2", "--json", "--openings"])
        .arg(&over)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "drafti: {}: line 1: the game is already over there (White wins: Black has no \
             legal move): skipped\n",
            over.display()
        )),
        "{stderr}"
    );
    let s = summary(&out.stdout);
    assert_eq!(s["games"], 2, "{s}");
    assert_eq!(
        s["terminations"]["normal"].as_u64().unwrap()
            + s["terminations"]["draw_rule"].as_u64().unwrap()
            + s["terminations"]["repetition"].as_u64().unwrap()
            + s["terminations"]["ply_cap"].as_u64().unwrap(),
        2,
        "{s}"
    );
}
