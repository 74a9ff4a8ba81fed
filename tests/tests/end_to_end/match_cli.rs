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

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("drafti-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
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
