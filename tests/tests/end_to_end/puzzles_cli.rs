//! End-to-end tests of `drafti puzzles`: the constructed records of
//! `tests/fixtures/puzzles/constructed.pdn` (a known shot after a mistake, two winning moves,
//! the shot after a forced move) and a sample of the bundled corpus (its first games), mined
//! at the default budget: the JSON Lines schema, PDN records that validate, replay and verify
//! again at 4x the mining budget, the HTML page, and the same output for any `--jobs`.

use drafti_tests::{drafti, run_drafti};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const CONSTRUCTED: &str = "fixtures/puzzles/constructed.pdn";

/// Two endings the endgame tables decide: one move wins, and two moves win.
const TABLE_ENDINGS: &str = "fixtures/puzzles/table.pdn";

/// Games of the corpus in the sample: enough for a handful of puzzles, a few seconds of work.
const SAMPLE_GAMES: usize = 60;

fn temp_dir(name: &str) -> PathBuf {
    drafti_tests::temp_dir(&format!("puzzles-{name}"))
}

/// Runs `drafti puzzles ARGS` in the tests crate's folder: (exit code, stdout, stderr).
/// Without `--egtb`, no endgame tables (not the default folder's, whatever is built there).
fn puzzles(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["puzzles"];
    all.extend_from_slice(args);
    if !args.contains(&"--egtb") {
        all.push("--no-egtb");
    }
    run_drafti(&all)
}

fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// The first `SAMPLE_GAMES` games of `corpus/selfplay.pdn`, written once per test process.
fn sample() -> &'static Path {
    static SAMPLE: OnceLock<PathBuf> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/selfplay.pdn");
        let text = std::fs::read_to_string(corpus).unwrap();
        let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
        let end = starts.get(SAMPLE_GAMES).copied().unwrap_or(text.len());
        let path = temp_dir("sample").join("sample.pdn");
        std::fs::write(&path, &text[..end]).unwrap();
        path
    })
}

/// The sample mined with `--jobs 2`: its JSON Lines and PDN (mined once per test process).
fn mined_sample() -> &'static (String, String) {
    static MINED: OnceLock<(String, String)> = OnceLock::new();
    MINED.get_or_init(|| {
        let pdn = temp_dir("mined").join("puzzles.pdn");
        let (code, stdout, stderr) = puzzles(&[
            sample().to_str().unwrap(),
            "--json",
            "--jobs",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        (stdout, std::fs::read_to_string(pdn).unwrap())
    })
}

#[test]
fn the_known_shot_is_found_and_the_others_are_not() {
    let (code, stdout, stderr) = puzzles(&[CONSTRUCTED, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let found = json_lines(&stdout);
    assert_eq!(found.len(), 1, "{stdout}");
    let p = &found[0];
    assert_eq!(p["fen"], "W:W22,23,26,31:B7,8,12,14,15");
    assert_eq!(p["side"], "white");
    assert_eq!(
        p["solution"],
        serde_json::json!(["c3-d4", "e5xc3", "d2xf8"])
    );
    assert_eq!(p["solution_text"], "1. c3-d4 e5xc3 2. d2xf8");
    assert_eq!(p["gain"]["kind"], "material");
    assert_eq!(p["gain"]["men"], 4);
    assert_eq!(
        p["themes"],
        serde_json::json!(["sacrifice", "shot_3", "crowning"])
    );
    assert_eq!(p["shot"], 3);
    let source = &p["sources"][0];
    assert_eq!(source["game"], 1);
    assert_eq!(source["ply"], 2);
    assert_eq!(source["after"], "1... f6-e5");
    assert_eq!(source["white"], "Asha");
    assert!(stderr.contains("3 games (0 invalid)"), "{stderr}");
    // Issue 27, item 18: the scores are numbers (as `drafti search --json` gives them), with
    // the text beside them.
    for key in ["score", "second"] {
        let score = &p[key];
        let keys: Vec<&str> = score
            .as_object()
            .unwrap_or_else(|| panic!("{key} is an object: {p}"))
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["cp", "loss_in", "text", "win_in"], "{p}");
        let text = score["text"].as_str().unwrap();
        match (
            score["cp"].as_i64(),
            score["win_in"].as_u64(),
            score["loss_in"].as_u64(),
        ) {
            (Some(cp), None, None) => {
                let sign = if cp > 0 {
                    "+"
                } else if cp < 0 {
                    "-"
                } else {
                    ""
                };
                let v = cp.unsigned_abs();
                assert_eq!(text, format!("{sign}{}.{:02}", v / 100, v % 100), "{p}");
            }
            (None, Some(n), None) => assert_eq!(text, format!("win in {n}"), "{p}"),
            (None, None, Some(n)) => assert_eq!(text, format!("loss in {n}"), "{p}"),
            other => panic!("{key}: one of cp, win_in, loss_in: {other:?} in {p}"),
        }
    }
    // The shot wins: the solver's first move scores above the best other move.
    let value = |s: &serde_json::Value| match (s["cp"].as_i64(), s["win_in"].as_i64()) {
        (Some(cp), _) => cp,
        (None, Some(n)) => 1_000_000 - n,
        _ => -1_000_000 + s["loss_in"].as_i64().unwrap(),
    };
    assert!(value(&p["score"]) > value(&p["second"]) + 100, "{p}");

    // The text report says the same.
    let (code, text, _) = puzzles(&[CONSTRUCTED]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("1. White to play and win material worth 4 men"),
        "{text}"
    );
    assert!(text.contains("solution: 1. c3-d4 e5xc3 2. d2xf8"), "{text}");
    assert!(
        !text.contains("Chausiku") && !text.contains("Eliya"),
        "{text}"
    );
}

#[test]
fn the_sample_gives_puzzles_with_the_documented_fields() {
    let (json, _) = mined_sample();
    let found = json_lines(json);
    assert!(found.len() >= 3, "{json}");
    for (i, p) in found.iter().enumerate() {
        assert_eq!(p["number"], i + 1);
        for key in [
            "fen",
            "variant",
            "side",
            "task",
            "solution",
            "solution_text",
            "continuation",
            "gain",
            "themes",
            "shot",
            "captured",
            "lost",
            "depth",
            "difficulty",
            "score",
            "second",
            "occurrences",
            "sources",
        ] {
            assert!(p.get(key).is_some(), "{key} missing in {p}");
        }
        let difficulty = p["difficulty"].as_u64().unwrap();
        assert!((1..=5).contains(&difficulty));
        assert!(!p["solution"].as_array().unwrap().is_empty());
        assert!(p["gain"]["men"].as_i64().is_some());
        assert!(p["sources"][0]["file"]
            .as_str()
            .unwrap()
            .ends_with("sample.pdn"));
    }
    // Distinct positions: duplicates are merged.
    let mut fens: Vec<&str> = found.iter().map(|p| p["fen"].as_str().unwrap()).collect();
    fens.sort_unstable();
    let n = fens.len();
    fens.dedup();
    assert_eq!(fens.len(), n);
}

#[test]
fn the_pdn_records_validate_replay_and_verify_again_at_four_times_the_budget() {
    let (json, pdn) = mined_sample();
    let found = json_lines(json);
    let dir = temp_dir("verify");
    let path = dir.join("puzzles.pdn");
    std::fs::write(&path, pdn).unwrap();
    // One record per puzzle, each valid: the FEN and the solution replay by the rules.
    let output = drafti()
        .args(["validate", path.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let validated = String::from_utf8(output.stdout).unwrap();
    assert_eq!(validated.lines().count(), found.len());
    for (line, p) in validated.lines().zip(&found) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["status"], "valid", "{line}");
        assert_eq!(
            v["plies"].as_u64().unwrap() as usize,
            p["solution"].as_array().unwrap().len(),
            "{line}"
        );
    }
    for tag in ["[SetUp \"1\"]", "[FEN \"", "[Puzzle \"", "[Gain \""] {
        assert_eq!(pdn.matches(tag).count(), found.len(), "{tag}");
    }
    // Every solution checked again at 80,000 nodes per solver move (4x the default 20,000).
    let (code, stdout, stderr) = puzzles(&["--verify", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let checked = json_lines(&stdout);
    assert_eq!(checked.len(), found.len());
    assert!(
        checked.iter().all(|c| c["status"] == "verified"),
        "{stdout}"
    );
    assert!(stderr.contains("(100%) at 80,000 nodes"), "{stderr}");
}

#[test]
fn verify_rejects_a_wrong_solution() {
    let dir = temp_dir("wrong");
    let path = dir.join("wrong.pdn");
    // The shot's position with a quiet first move that wins nothing.
    std::fs::write(
        &path,
        "[FEN \"W:Wc3,d2,e1,e3:Bc5,e5,e7,g7,h6\"]\n\n1. e1-f2 *\n\n\
         [FEN \"W:Wc3,d2,e1,e3:Bc5,e5,e7,g7,h6\"]\n\n1. c3-d4 e5xc3 2. d2xf8 *\n",
    )
    .unwrap();
    let (code, stdout, _) = puzzles(&["--verify", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("refuted at ply 1"), "{stdout}");
    assert!(
        lines[1].contains("verified: White to play and win"),
        "{stdout}"
    );
}

#[test]
fn the_output_is_the_same_whatever_the_jobs() {
    let (json, pdn) = mined_sample();
    let other = temp_dir("jobs1").join("puzzles.pdn");
    let (code, stdout, stderr) = puzzles(&[
        sample().to_str().unwrap(),
        "--json",
        "--jobs",
        "1",
        "--pdn",
        other.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(&stdout, json);
    assert_eq!(&std::fs::read_to_string(other).unwrap(), pdn);
}

#[test]
fn the_html_page_is_well_formed_with_a_board_and_a_hidden_solution_per_puzzle() {
    let dir = temp_dir("html");
    let html = dir.join("puzzles.html");
    let (code, _, stderr) = puzzles(&[CONSTRUCTED, "--html", html.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&html).unwrap();
    let doc = roxmltree::Document::parse(text.trim_start_matches("<!DOCTYPE html>\n"))
        .expect("the page is well-formed XML");
    let articles: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("article"))
        .collect();
    assert_eq!(articles.len(), 1);
    let article = articles[0];
    let boards = article
        .descendants()
        .filter(|n| n.has_tag_name("svg") && n.attribute("class") == Some("board"))
        .count();
    assert_eq!(boards, 2, "the puzzle and, in the solution, the end");
    let details = article
        .descendants()
        .find(|n| n.has_tag_name("details"))
        .expect("the solution in <details>");
    assert!(
        details.attribute("open").is_none(),
        "hidden until asked for"
    );
    let solution: String = details
        .descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap())
        .collect();
    assert!(solution.contains("1. c3-d4 e5xc3 2. d2xf8"), "{solution}");
    // Self-contained: no script, nothing fetched.
    assert!(!text.contains("<script") && !text.contains("http://") && !text.contains("https://"));
}

#[test]
fn with_endgame_tables_the_only_table_win_is_a_puzzle_and_two_are_not() {
    // The tables of the fixture's material (a king and a man, or two kings, against two
    // men) and of what they lead to: a second or two.
    let dir = temp_dir("egtb");
    let tables = dir.to_str().unwrap();
    let (code, _, stderr) = run_drafti(&[
        "egtb",
        "build",
        "--signature",
        "KMvMM",
        "--signature",
        "KKvMM",
        "--dir",
        tables,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let pdn = dir.join("table-puzzles.pdn");
    let (code, stdout, stderr) = puzzles(&[
        TABLE_ENDINGS,
        "--egtb",
        tables,
        "--json",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("endgame tables: "), "{stderr}");
    // Issue 27, item 15: the summary names the tables the puzzles were solved with.
    assert!(
        stderr.contains(" to verify); endgame tables: tz up to 4 pieces on "),
        "{stderr}"
    );
    let found = json_lines(&stdout);
    assert_eq!(found.len(), 1, "{stdout}");
    let p = &found[0];
    assert_eq!(p["fen"], "W:W9,K32:B17,21");
    assert_eq!(p["exact"], true);
    assert_eq!(p["gain"]["kind"], "win");
    assert_eq!(p["gain"]["proven_win_in"], 7);
    assert_eq!(p["gain"]["text"], "table win in 7 plies");
    // Black's best defence by the tables: a3-b2 (lost in 6), not b4-c3 (lost in 4).
    assert_eq!(
        p["solution"],
        serde_json::json!(["g1-d4", "a3-b2", "d4xa1"])
    );
    assert_eq!(p["sources"][0]["white"], "Asha");
    // Its record verifies again with the tables.
    let (code, stdout, stderr) = puzzles(&["--verify", pdn.to_str().unwrap(), "--egtb", tables]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("verified: White to play and win"),
        "{stdout}"
    );
    // A folder without tables is an error that says so.
    let empty = temp_dir("egtb-empty");
    let (code, _, stderr) = puzzles(&[TABLE_ENDINGS, "--egtb", empty.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no endgame tables here"), "{stderr}");
}
