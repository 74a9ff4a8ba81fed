//! End-to-end tests of `drafti search`: a forced win with its distance and line, the JSON
//! objects, multipv, node-limited determinism, the draw laws, and usage errors (exit 2).

use drafti_tests::drafti;
use serde_json::Value;

/// White gives c3-d4, Black must take, b2 takes three and the king takes the last man.
const SHOT: &str = "W:Wa1,b2,c3,e3,g3:Bc5,c7,e5,h6";
/// White to move, quiet moves only.
const MIDDLEGAME: &str = "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,13";

/// Runs `drafti search ARGS`, checks the exit code, returns stdout.
fn search(args: &[&str], code: i32) -> String {
    let out = drafti()
        .arg("search")
        .args(args)
        .output()
        .expect("drafti runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "drafti search {args:?}\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// A number that orders scores (a score's one JSON form): proven wins above estimates above
/// proven losses.
fn rank(v: &Value) -> i64 {
    if let Some(n) = v["win_in"].as_i64() {
        1_000_000 - n
    } else if let Some(n) = v["loss_in"].as_i64() {
        -1_000_000 + n
    } else {
        v["cp"].as_i64().expect("cp")
    }
}

#[test]
fn forced_win_with_distance_and_line() {
    let text = search(&["--fen", SHOT, "--depth", "10"], 0);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("depth"), "{text}");
    let last_depth = lines[lines.len() - 2];
    assert!(last_depth.contains("win in 5"), "{text}");
    assert!(
        last_depth.ends_with("1. c3-d4 e5xc3 2. b2xd8 h6-g5 3. d8xh4"),
        "{text}"
    );
    assert!(
        lines[lines.len() - 1].starts_with("best c3-d4  score win in 5"),
        "{text}"
    );
}

#[test]
fn json_objects_per_depth_and_result() {
    let objects = json_lines(&search(&["--fen", SHOT, "--depth", "10", "--json"], 0));
    let (result, depths) = objects.split_last().expect("objects");
    assert!(!depths.is_empty());
    for (i, d) in depths.iter().enumerate() {
        assert_eq!(d["type"], "depth");
        assert_eq!(d["depth"].as_u64(), Some(i as u64 + 1));
        for key in [
            "seldepth", "nodes", "nps", "time_ms", "score", "pv", "lines",
        ] {
            assert!(!d[key].is_null(), "{key} in {d}");
        }
    }
    assert_eq!(result["type"], "result");
    assert_eq!(result["best"], "c3-d4");
    assert_eq!(
        result["score"],
        serde_json::json!({"cp": null, "win_in": 5, "loss_in": null, "text": "win in 5"})
    );
    assert_eq!(
        result["pv"],
        serde_json::json!(["c3-d4", "e5xc3", "b2xd8", "h6-g5", "d8xh4"])
    );
    assert!(result["nodes"].as_u64().unwrap() > 0);
    assert!(result["outcome"].is_null());
    assert_eq!(result["depth"], depths.last().unwrap()["depth"]);
}

#[test]
fn multipv_lists_distinct_moves_ordered_by_score() {
    let objects = json_lines(&search(
        &[
            "--fen",
            MIDDLEGAME,
            "--depth",
            "6",
            "--multipv",
            "3",
            "--json",
        ],
        0,
    ));
    let result = objects.last().unwrap();
    let lines = result["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let moves: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
    for pair in lines.windows(2) {
        assert!(
            rank(&pair[0]["score"]) >= rank(&pair[1]["score"]),
            "{lines:?}"
        );
    }
    assert_eq!(result["best"], lines[0]["move"]);
    for line in lines {
        assert_eq!(line["pv"][0], line["move"]);
    }
    // Text: one row per line per depth, marked depth/k, then the K moves.
    let text = search(&["--fen", MIDDLEGAME, "--depth", "4", "--multipv", "2"], 0);
    assert!(text.contains("\n  4/2  "), "{text}");
    assert!(text.contains("\n  2. "), "{text}");
}

#[test]
fn node_limit_gives_the_same_result_every_run() {
    let args = ["--fen", MIDDLEGAME, "--nodes", "50000", "--json"];
    let strip = |text: &str| -> Vec<Value> {
        json_lines(text)
            .into_iter()
            .map(|mut v| {
                let o = v.as_object_mut().unwrap();
                o.remove("nps");
                o.remove("time_ms");
                v
            })
            .collect()
    };
    let a = strip(&search(&args, 0));
    let b = strip(&search(&args, 0));
    assert_eq!(a, b);
    assert!(a.last().unwrap()["depth"].as_u64().unwrap() >= 3);
}

#[test]
fn draw_laws_end_the_game_at_the_root() {
    let text = search(&["--fen", "W:WK1,K2:BK29,K30"], 0);
    assert!(text.contains("game over: draw: only kings left"), "{text}");
    let result = json_lines(&search(&["--fen", "W:WK1,K2:BK29,K30", "--json"], 0));
    assert_eq!(result[0]["best"], Value::Null);
    assert_eq!(result[0]["score"]["cp"], 0);
    // Russian has no such law: it searches.
    let text = search(
        &[
            "--fen",
            "W:WK1,K2:BK29,K30",
            "--variant",
            "russian",
            "--depth",
            "3",
        ],
        0,
    );
    assert!(text.contains("best "), "{text}");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--fen", "W:W33:B1"][..],
        &["--fen", "X:W21:B1"],
        &["--fen", SHOT, "--depth", "3", "--nodes", "100"],
        &["--fen", SHOT, "--nodes", "100", "--movetime", "10"],
        &["--fen", SHOT, "--multipv", "0"],
        &["--fen", SHOT, "--depth", "0"],
        &["--fen", SHOT, "--variant", "chess"],
        &["--depth", "3"],
    ] {
        let out = drafti().arg("search").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn numeric_notation_and_movetime() {
    let result = json_lines(&search(
        &["--fen", SHOT, "--depth", "8", "--json", "--numeric"],
        0,
    ));
    assert_eq!(result.last().unwrap()["best"], "22-18");
    let text = search(&["--fen", MIDDLEGAME, "--movetime", "100"], 0);
    assert!(text.contains("best "), "{text}");
}

/// A write error on stdout is reported as one ("cannot write the report: ..."), exit 2, for
/// `search` (text and JSON) and `moves`; it also stops the search (a ten-minute `--movetime`
/// search ends at its first line).
#[test]
fn search_and_moves_report_a_write_error() {
    for args in [
        &["search", "--fen", "W:W21-32:B1-12", "--depth", "3"][..],
        &[
            "search",
            "--fen",
            "W:W21-32:B1-12",
            "--depth",
            "3",
            "--json",
        ],
        &[
            "search",
            "--fen",
            "W:W21-32:B1-12",
            "--movetime",
            "600000",
            "--json",
        ],
        &["moves", "--fen", "W:W21-32:B1-12"],
        &["moves", "--fen", "W:W21-32:B1-12", "--json"],
    ] {
        let (code, stderr) = drafti_tests::drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(
            stderr, "drafti: cannot write the report: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn law3_the_lone_side_may_crown_the_man_and_draw() {
    // White (two kings, e5 on the main diagonal, and a man) wins in 3 only if Black may
    // not claim law 3; with the claim the search finds no win: a draw, whichever drawing
    // move it keeps.
    let fen = "W:W5,K15,K19:BK1";
    let text = search(&["--fen", fen, "--depth", "10", "--no-egtb"], 0);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("best ") && last.contains("  score 0.00  depth 10"),
        "{text}"
    );
    assert!(!text.contains("claim"), "White has no claim: {text}");
    // The lone king to move: its only move loses in 2, the claim draws (it then takes a
    // king and law 1 draws).
    let lone = "W:WK2:B1,K11,K20";
    let text = search(&["--fen", lone, "--depth", "8", "--no-egtb"], 0);
    let tail: Vec<&str> = text.lines().rev().take(2).collect();
    assert!(
        tail[1].starts_with("best d8xg5  score 0.00  depth 4"),
        "{text}"
    );
    assert_eq!(
        tail[0],
        "claim law 3 (crown the man, law 2's count from 0)  score 0.00, better than every move"
    );
    let objects = json_lines(&search(
        &["--fen", lone, "--depth", "8", "--no-egtb", "--json"],
        0,
    ));
    let result = objects.last().unwrap();
    assert_eq!(result["lines"][0]["score"]["text"], "loss in 2");
    assert_eq!(result["score"]["text"], "0.00");
    assert_eq!(
        result["claim"],
        serde_json::json!({
            "score": {"cp": 0, "win_in": null, "loss_in": null, "text": "0.00"},
            "best": true
        })
    );
    // Kings off the main diagonal (e3, f2): no claim, the loss in 2 stands.
    let objects = json_lines(&search(
        &[
            "--fen",
            "W:WK5:B1,K23,K27",
            "--depth",
            "8",
            "--no-egtb",
            "--json",
        ],
        0,
    ));
    let result = objects.last().unwrap();
    assert_eq!(result["score"]["loss_in"], 2);
    assert!(result.get("claim").is_none(), "{result}");
}

#[test]
fn moves_give_the_search_its_games_draw_counts() {
    // Three kings against one under TzDraft's server: after 11 of White's quiet moves (no
    // position twice, no capture on offer) its 12th draws, so nothing is won; the position
    // they reach, given alone, counts from zero.
    let moves = "a3-f8 h4-d8 f8-d6 d8-b6 d6-b8 b6-a7 b8-c7 a7-b8 c7-d8 b8-a7 d8-a5 a7-b8 \
                 a5-b6 b8-a7 b6-d8 a7-b8 d8-a5 b8-a7 a5-b4 a7-b8 b4-f8 b8-a7";
    let start = "W:WKa1,Kc1,Ka3:BKh4";
    let common = ["--variant", "tzdraft", "--nodes", "100000", "--json"];
    let counted = json_lines(&search(
        &[&["--fen", start, "--moves", moves][..], &common].concat(),
        0,
    ));
    let last = counted.last().unwrap();
    assert_eq!(last["score"]["text"], "0.00", "{last}");
    let reached = "W:WKf8,Ka1,Kc1:BKa7";
    let fresh = json_lines(&search(&[&["--fen", reached][..], &common].concat(), 0));
    assert!(fresh.last().unwrap()["score"]["cp"].as_i64().unwrap() > 0);
    let route = ["a3-b4", "h4-g3", "b4-a3", "g3-h4"];
    let moves: Vec<&str> = (0..22).map(|i| route[i % 4]).collect();
    let moves = moves.join(" ");
    // Tanzanian law 2 alike: the lone king's 11 moves made, White cannot catch it in time
    // on this route; --king-count says the same.
    let law2 = ["--nodes", "100000", "--json"];
    let by_moves = json_lines(&search(
        &[&["--fen", start, "--moves", &moves][..], &law2].concat(),
        0,
    ));
    let by_count = json_lines(&search(
        &[
            &["--fen", "W:WKa1,Kc1,Ka3:BKh4", "--king-count", "11"][..],
            &law2,
        ]
        .concat(),
        0,
    ));
    assert_eq!(
        by_moves.last().unwrap()["score"],
        by_count.last().unwrap()["score"]
    );
    // Errors name the move, or the end of the game.
    let out = drafti()
        .args(["search", "--fen", start, "--moves", "a3-b4 a3-b4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--moves: a3-b4 is not legal after 1 plies"),
        "{stderr}"
    );
    let all: Vec<&str> = (0..23).map(|i| route[i % 4]).collect();
    let out = drafti()
        .args([
            "search",
            "--variant",
            "tzdraft",
            "--fen",
            start,
            "--moves",
            &all.join(" "),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game is over after them"), "{stderr}");
}
