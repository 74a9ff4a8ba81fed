//! End-to-end tests of `drafti analyze` and `drafti selfplay` in engine mode.
//!
//! Fixtures (tests/fixtures/analyze/):
//! - `planted.pdn`: 14 plies of depth-8 engine play, then White's 8. a3-b4?? gives two men
//!   and a king to the shot 8... c5xc1 (a3 and b2 taken, crowned); Black's play is sound.
//! - `mixed.pdn`: four engine self-play games (`selfplay --nodes 4000 --seed 21
//!   --max-plies 80`), one game with an illegal move, and the planted game.

use drafti_tests::drafti;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/analyze/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn analyze(args: &[&str]) -> (i32, String) {
    let out = drafti().arg("analyze").args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn the_planted_blunder_is_flagged_and_the_sound_moves_are_not() {
    let planted = fixture("planted.pdn");
    for limit in [
        &["--depth", "4"][..],
        &["--depth", "6"],
        &["--nodes", "3000"],
    ] {
        let (code, out) = analyze(&[&[planted.as_str(), "--json"][..], limit].concat());
        assert_eq!(code, 0, "{out}");
        let games = json_lines(&out);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g["status"], "analysed");
        assert_eq!(g["plies"], 20);
        assert_eq!(g["positions"], 21);
        let flagged = g["flagged"].as_array().unwrap();
        assert_eq!(flagged.len(), 1, "{limit:?}: {flagged:?}");
        let f = &flagged[0];
        assert_eq!(f["ply"], 15);
        assert_eq!(f["move_number"], "8.");
        assert_eq!(f["move"], "a3-b4");
        assert_eq!(f["side"], "white");
        assert_eq!(f["judgement"], "blunder");
        assert_ne!(f["best"], "a3-b4");
        assert!(f["wc_before"].as_f64().unwrap() - f["wc_after"].as_f64().unwrap() >= 0.3);
        let white = &g["sides"]["white"];
        let black = &g["sides"]["black"];
        assert_eq!(
            (
                white["inaccuracies"].clone(),
                white["mistakes"].clone(),
                white["blunders"].clone()
            ),
            (0.into(), 0.into(), 1.into())
        );
        assert_eq!(
            (
                black["inaccuracies"].clone(),
                black["mistakes"].clone(),
                black["blunders"].clone()
            ),
            (0.into(), 0.into(), 0.into())
        );
        assert!(white["accuracy"].as_f64().unwrap() < black["accuracy"].as_f64().unwrap());
    }
}

#[test]
fn the_text_report_names_the_blunder_and_the_best_line() {
    let (code, out) = analyze(&[&fixture("planted.pdn"), "--depth", "4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("White: 0 inaccuracies, 0 mistakes, 1 blunder; accuracy"),
        "{out}"
    );
    assert!(
        out.contains("Black: 0 inaccuracies, 0 mistakes, 0 blunders; accuracy"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("  ply") && l.contains("a3-b4??"))
        .expect("the blunder is listed");
    assert!(line.contains("ply  15  8. a3-b4??  blunder:"), "{line}");
    assert!(line.contains("; best "), "{line}");
    assert_eq!(
        out.matches("??").count(),
        2,
        "only the blunder (and the tag) carry ??"
    );
}

#[test]
fn jobs_1_and_jobs_2_give_identical_output() {
    let mixed = fixture("mixed.pdn");
    let dir = std::env::temp_dir().join(format!("drafti-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let pdn = dir.join(format!("out{jobs}.pdn"));
        let pdn = pdn.to_str().unwrap();
        let (code_text, text) = analyze(&[&mixed, "--nodes", "2000", "--jobs", jobs, "--pdn", pdn]);
        let (code_json, json) = analyze(&[&mixed, "--nodes", "2000", "--jobs", jobs, "--json"]);
        assert_eq!(
            (code_text, code_json),
            (1, 1),
            "an invalid game makes exit code 1"
        );
        outputs.push((text, json, std::fs::read_to_string(pdn).unwrap()));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "text report");
    assert_eq!(outputs[0].1, outputs[1].1, "JSON Lines");
    assert_eq!(outputs[0].2, outputs[1].2, "annotated PDN");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn invalid_games_are_reported_and_skipped() {
    let (code, out) = analyze(&[&fixture("mixed.pdn"), "--depth", "2", "--json"]);
    assert_eq!(code, 1);
    let games = json_lines(&out);
    assert_eq!(games.len(), 6);
    let statuses: Vec<&str> = games
        .iter()
        .map(|g| g["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["analysed", "analysed", "analysed", "analysed", "invalid", "analysed"]
    );
    let bad = &games[4];
    assert_eq!(bad["errors"][0]["kind"], "illegal_move");
    assert_eq!(bad["errors"][0]["ply"], 3);
    assert!(bad["sides"].is_null());
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["index"], i + 1);
    }
}

#[test]
fn the_annotated_pdn_carries_nags_and_comments_and_still_validates() {
    let dir = std::env::temp_dir().join(format!("drafti-analyze-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("annotated.pdn");
    let out = out.to_str().unwrap();
    let (code, _) = analyze(&[&fixture("planted.pdn"), "--depth", "4", "--pdn", out]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(out).unwrap();
    assert!(text.contains("8. a3-b4?? {"), "{text}");
    assert!(text.contains("(best "), "{text}");
    assert_eq!(
        text.matches('{').count(),
        1,
        "one comment: the blunder's\n{text}"
    );
    let status = drafti().args(["validate", out]).output().unwrap().status;
    assert!(status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn engine_selfplay_is_reproducible_and_valid() {
    let play = |seed: &str| {
        let out = drafti()
            .args([
                "selfplay",
                "--games",
                "3",
                "--nodes",
                "800",
                "--max-plies",
                "60",
            ])
            .args(["--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let a = play("4");
    assert_eq!(a, play("4"));
    assert_ne!(a, play("5"));
    assert_eq!(a.matches("[White \"drafti n800\"]").count(), 3);
    assert!(a.contains("[Variant \"Tanzanian\"]") && a.contains("[PlyCount \""));
    let validated = drafti()
        .args(["validate", "-", "--json"])
        .write_stdin(a)
        .output()
        .unwrap();
    assert!(validated.status.success());
}

#[test]
fn a_match_swaps_colours_every_other_game() {
    let out = drafti()
        .args([
            "selfplay",
            "--games",
            "2",
            "--depth",
            "3",
            "--opponent-depth",
            "1",
        ])
        .args(["--noise", "0", "--max-plies", "30"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let whites: Vec<&str> = text.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(whites, ["[White \"drafti d3\"]", "[White \"drafti d1\"]"]);
}
