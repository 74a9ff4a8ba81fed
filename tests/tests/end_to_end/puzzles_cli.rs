//! End-to-end tests of `drafti puzzles`: the constructed records of
//! `tests/fixtures/puzzles/constructed.pdn` (a known shot after a mistake, two winning moves,
//! the shot after a forced move) and a sample of the bundled corpus (its first games), mined
//! at the default budget: the JSON Lines schema, PDN records that validate, replay and verify
//! again at 4x the mining budget, the HTML page, and the same output for any `--jobs`.

use drafti_rules::{Move, Position, Variant};
use drafti_tests::{drafti, process_temp_dir, run_drafti};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const CONSTRUCTED: &str = "fixtures/puzzles/constructed.pdn";

/// Two endings the endgame tables decide: one move wins, and two moves win.
const TABLE_ENDINGS: &str = "fixtures/puzzles/table.pdn";

/// Games of the corpus in the sample: enough for a handful of puzzles, a few seconds of work.
const SAMPLE_GAMES: usize = 60;

fn temp_dir(name: &str) -> tempfile::TempDir {
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
        let path = process_temp_dir("puzzles-sample").join("sample.pdn");
        std::fs::write(&path, &text[..end]).unwrap();
        path
    })
}

/// The sample mined with `--jobs 2`: its JSON Lines and PDN (mined once per test process).
fn mined_sample() -> &'static (String, String) {
    static MINED: OnceLock<(String, String)> = OnceLock::new();
    MINED.get_or_init(|| {
        let scratch = temp_dir("mined");
        let pdn = scratch.path().join("puzzles.pdn");
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
    // Issue 27, item 18, and issue 41's one score on the wire: the scores are numbers in the
    // one JSON form of every command (exactly one of cp, win_in, loss_in), with the text.
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
    let scratch = temp_dir("verify");
    let dir = scratch.path();
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
    let scratch = temp_dir("wrong");
    let dir = scratch.path();
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
    let scratch = temp_dir("jobs1");
    let other = scratch.path().join("puzzles.pdn");
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
    let scratch = temp_dir("html");
    let dir = scratch.path();
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
    // Self-contained: the scripts that make the boards solvable are in the page (and the
    // engine's module as data), nothing is fetched; the only URL is the SVG namespace.
    assert!(text.contains(r#"id="drafti-wasm""#), "the rules' module");
    assert!(!text.contains("https://") && !text.contains("src="));
    assert_eq!(
        text.matches("http://").count(),
        text.matches("http://www.w3.org/2000/svg").count()
    );
}

#[test]
fn with_endgame_tables_the_only_table_win_is_a_puzzle_and_two_are_not() {
    // The tables of the fixture's material (a king and a man, or two kings, against two
    // men) and of what they lead to: a second or two.
    let scratch = temp_dir("egtb");
    let dir = scratch.path();
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
    let empty_scratch = temp_dir("egtb-empty");
    let empty = empty_scratch.path();
    let (code, _, stderr) = puzzles(&[TABLE_ENDINGS, "--egtb", empty.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no endgame tables here"), "{stderr}");
}

// ---------------------------------------------------------------------------------------
// `--format tzdraft` and `--format lichess`: checked against TzDraft's puzzle model and
// lichess's puzzle CSV, and against the same puzzles' `--json`.

/// The sample mined in `format` with `--jobs jobs`: stdout (mined once per test process).
fn mined_as(format: &'static str, jobs: &'static str) -> String {
    static RUNS: OnceLock<std::sync::Mutex<std::collections::HashMap<String, String>>> =
        OnceLock::new();
    let runs = RUNS.get_or_init(Default::default);
    let key = format!("{format} {jobs}");
    if let Some(out) = runs.lock().unwrap().get(&key) {
        return out.clone();
    }
    let (code, stdout, stderr) = puzzles(&[
        sample().to_str().unwrap(),
        "--format",
        format,
        "--jobs",
        jobs,
    ]);
    assert_eq!(code, 0, "{stderr}");
    // Only TzDraft leaves puzzles out of the sample: those its reading does not hold.
    for note in stderr.lines().filter(|l| l.contains("left out of the ")) {
        assert!(
            format == "tzdraft" && note.ends_with("does not hold under TzDraft's server reading"),
            "{stderr}"
        );
    }
    runs.lock().unwrap().insert(key, stdout.clone());
    stdout
}

/// The legal move of `pos` from `from` to `to` taking exactly `captured` (drafti squares).
fn legal_move(pos: &Position, from: u8, to: u8, captured: &[u8]) -> Move {
    let mut want: Vec<u8> = captured.to_vec();
    want.sort_unstable();
    let found: Vec<Move> = pos
        .legal_moves(Variant::Tanzanian)
        .into_iter()
        .filter(|m| {
            let mut took: Vec<u8> = m.captures().map(|s| s.number()).collect();
            took.sort_unstable();
            m.from().number() == from && m.to().number() == to && took == want
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{from}-{to} x{captured:?} in {}",
        pos.to_fen()
    );
    found[0]
}

/// drafti's square of a TzDraft square (a JSON number 1–32): 33 − n.
fn drafti_square(n: &serde_json::Value) -> u8 {
    let n = n.as_u64().expect("a square number");
    assert!((1..=32).contains(&n), "square {n}");
    33 - n as u8
}

/// A TzDraft move (`{from, to, captures}`) played in `pos`, checked legal.
fn tzdraft_move(pos: &Position, mv: &serde_json::Value) -> Move {
    let captured: Vec<u8> = mv["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(drafti_square)
        .collect();
    legal_move(
        pos,
        drafti_square(&mv["from"]),
        drafti_square(&mv["to"]),
        &captured,
    )
}

/// TzDraft's pieces back into a drafti position (`turn` to move), each square 33 − n.
fn tzdraft_position(pieces: &serde_json::Value, turn: &serde_json::Value) -> Position {
    let mut white = Vec::new();
    let mut black = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for piece in pieces.as_array().unwrap() {
        assert_eq!(piece.as_object().unwrap().len(), 3, "{piece}");
        let sq = drafti_square(&piece["position"]);
        assert!(seen.insert(sq), "two pieces on {sq}");
        let name = match piece["type"].as_str().unwrap() {
            "MAN" => sq.to_string(),
            "KING" => format!("K{sq}"),
            other => panic!("piece type {other}"),
        };
        match piece["color"].as_str().unwrap() {
            "WHITE" => white.push(name),
            "BLACK" => black.push(name),
            other => panic!("colour {other}"),
        }
    }
    let side = match turn.as_str().unwrap() {
        "WHITE" => "W",
        "BLACK" => "B",
        other => panic!("side to move {other}"),
    };
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
}

/// The moves of a `--json` puzzle's solution, parsed in its position.
fn json_solution(p: &serde_json::Value) -> (Position, Vec<Move>) {
    let start = Position::from_fen(p["fen"].as_str().unwrap()).unwrap();
    let mut pos = start;
    let mut moves = Vec::new();
    for text in p["solution"].as_array().unwrap() {
        let found = pos
            .parse_move(Variant::Tanzanian, text.as_str().unwrap())
            .unwrap();
        assert_eq!(found.len(), 1, "{text}");
        pos = pos.play(&found[0]);
        moves.push(found[0]);
    }
    (start, moves)
}

const TZDRAFT_FIELDS: [&str; 13] = [
    "id",
    "title",
    "pieces",
    "sideToMove",
    "solution",
    "evalGap",
    "difficulty",
    "theme",
    "status",
    "sourceGameId",
    "sourceMoveNum",
    "setupMove",
    "setupPieces",
];

/// The themes TzDraft's miner and pages use, and its default.
const TZDRAFT_THEMES: [&str; 9] = [
    "tactical",
    "sacrifice",
    "king-trap",
    "endgame",
    "promotion",
    "capture-trap",
    "zugzwang",
    "position-trap",
    "combination",
];

#[test]
fn the_tzdraft_puzzles_follow_tzdraft_s_model_and_replay_from_their_pieces() {
    let (json, _) = mined_sample();
    // TzDraft takes the puzzles that hold under its server's reading.
    let found: Vec<serde_json::Value> = json_lines(json)
        .into_iter()
        .filter(|p| p["other_reading"]["holds"] == true)
        .collect();
    let tz = json_lines(&mined_as("tzdraft", "2"));
    assert_eq!(tz.len(), found.len());
    let mut ids = std::collections::HashSet::new();
    for (t, p) in tz.iter().zip(&found) {
        let fields: Vec<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = TZDRAFT_FIELDS.to_vec();
        expected.sort_unstable();
        assert_eq!(fields, expected, "{t}");
        let id = t["id"].as_str().unwrap();
        assert_eq!(id.len(), 36, "{id}");
        assert_eq!(id.matches('-').count(), 4, "{id}");
        assert!(ids.insert(id.to_string()), "id {id} twice");
        assert_eq!(t["title"], p["task"]);
        assert!((1..=5).contains(&t["difficulty"].as_u64().unwrap()), "{t}");
        assert_eq!(t["difficulty"], p["difficulty"]);
        assert!(
            TZDRAFT_THEMES.contains(&t["theme"].as_str().unwrap()),
            "{t}"
        );
        assert_eq!(t["status"], "PENDING");
        assert!(t["evalGap"].is_i64(), "{t}");
        // Games of a PDN file, not of TzDraft: no TzDraft game to point to.
        assert!(t["sourceGameId"].is_null(), "{t}");
        assert_eq!(t["sourceMoveNum"], p["sources"][0]["ply"]);

        // The pieces, turned back through 33 − n, are the puzzle's position.
        let pos = tzdraft_position(&t["pieces"], &t["sideToMove"]);
        let (start, solution) = json_solution(p);
        assert_eq!(pos, start, "{t}");
        // The solution replays legally, the opponent's replies marked, the solver last;
        // it is the --json solution up to its solver's last move.
        let moves = t["solution"].as_array().unwrap();
        assert_eq!(moves.len() % 2, 1, "{t}");
        let mut now = pos;
        for (i, mv) in moves.iter().enumerate() {
            let opp = mv.get("isOpp").is_some();
            assert_eq!(opp, i % 2 == 1, "{t}");
            if opp {
                assert_eq!(mv["isOpp"], true);
            }
            assert_eq!(now.turn() != pos.turn(), opp);
            let played = tzdraft_move(&now, mv);
            assert_eq!(played, solution[i], "{t}");
            now = now.play(&played);
        }
        assert!(solution.len() - moves.len() <= 1, "{t}");
        // The setup move, played from the setup pieces, gives the puzzle's pieces.
        let other = if t["sideToMove"] == "WHITE" {
            "BLACK"
        } else {
            "WHITE"
        };
        let before = tzdraft_position(&t["setupPieces"], &serde_json::json!(other));
        assert_eq!(before.play(&tzdraft_move(&before, &t["setupMove"])), pos);
    }
}

#[test]
fn the_lichess_rows_parse_as_csv_and_replay_from_the_opponent_s_last_move() {
    let (json, _) = mined_sample();
    let found = json_lines(json);
    let csv_text = mined_as("lichess", "2");
    let mut reader = csv::ReaderBuilder::new().from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "PuzzleId",
            "FEN",
            "Moves",
            "Rating",
            "RatingDeviation",
            "Popularity",
            "NbPlays",
            "Themes",
            "GameUrl",
            "OpeningTags"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), found.len());
    let mut ids = std::collections::HashSet::new();
    for (row, p) in rows.iter().zip(&found) {
        assert_eq!(row.len(), 10, "{row:?}");
        let id = &row[0];
        assert!(
            id.len() == 8 && id.chars().all(|c| c.is_ascii_alphanumeric()),
            "{id}"
        );
        assert!(ids.insert(id.to_string()), "PuzzleId {id} twice");
        // FEN + Moves replay legally; after the first move, the puzzle's position.
        let (start, solution) = json_solution(p);
        let mut pos = Position::from_fen(&row[1]).unwrap();
        let moves: Vec<&str> = row[2].split(' ').collect();
        assert_eq!(moves.len() % 2, 0, "{row:?}");
        for (i, text) in moves.iter().enumerate() {
            assert!(text
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == 'x'));
            let mv = pos.parse_move(Variant::Tanzanian, text).unwrap();
            assert_eq!(mv.len(), 1, "{text} in {row:?}");
            if i > 0 {
                assert_eq!(mv[0], solution[i - 1], "{row:?}");
            }
            pos = pos.play(&mv[0]);
            if i == 0 {
                assert_eq!(pos, start, "{row:?}");
            }
        }
        let difficulty = p["difficulty"].as_u64().unwrap();
        assert_eq!(row[3], (1000 + 300 * (difficulty - 1)).to_string());
        assert_eq!(&row[4], "350");
        // Nobody has voted on or played it yet.
        assert_eq!((&row[5], &row[6]), ("0", "0"), "{row:?}");
        assert!(!row[7].is_empty() && !row[7].contains(','), "{row:?}");
        // The corpus's games have no address and no opening's name.
        assert_eq!((&row[8], &row[9]), ("", ""), "{row:?}");
    }
}

#[test]
fn the_lichess_row_takes_the_game_s_address_and_opening_name() {
    let scratch = temp_dir("lichess-tags");
    let dir = scratch.path();
    let path = dir.join("tagged.pdn");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CONSTRUCTED))
        .unwrap()
        .replacen(
            "[Result \"1-0\"]",
            "[Result \"1-0\"]\n[Site \"https://example.org/game/7\"]\n[Opening \"Kikwete's opening\"]",
            1,
        );
    std::fs::write(&path, text).unwrap();
    let (code, stdout, stderr) = puzzles(&[path.to_str().unwrap(), "--format", "lichess"]);
    assert_eq!(code, 0, "{stderr}");
    let mut reader = csv::ReaderBuilder::new().from_reader(stdout.as_bytes());
    assert_eq!(reader.headers().unwrap().len(), 10);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    assert_eq!(rows[0].len(), 10, "{stdout}");
    assert_eq!(&rows[0][8], "https://example.org/game/7");
    assert_eq!(&rows[0][9], "Kikwetes_opening");
}

#[test]
fn the_tzdraft_and_lichess_outputs_are_the_same_whatever_the_jobs() {
    for format in ["tzdraft", "lichess"] {
        let two = mined_as(format, "2");
        assert!(two.lines().count() >= 3, "{two}");
        assert_eq!(mined_as(format, "1"), two, "--format {format}");
    }
}

#[test]
fn format_json_is_json_and_the_platform_formats_do_not_verify() {
    let (code, json, _) = puzzles(&[CONSTRUCTED, "--json"]);
    assert_eq!(code, 0);
    let (code, formatted, _) = puzzles(&[CONSTRUCTED, "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(formatted, json);
    let (code, stdout, stderr) = puzzles(&["--verify", CONSTRUCTED, "--format", "lichess"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains(
            "--verify writes text or JSON: --format tzdraft and lichess are for mined puzzles"
        ),
        "{stderr}"
    );
}

#[test]
fn a_puzzle_with_no_move_before_it_is_left_out_of_the_lichess_rows() {
    // The shot of the constructed record, set up at the puzzle itself (White to move).
    let scratch = temp_dir("no-setup");
    let dir = scratch.path();
    let path = dir.join("setup.pdn");
    std::fs::write(
        &path,
        "[SetUp \"1\"]\n[FEN \"W:W22,23,26,31:B7,8,12,14,15\"]\n1. 22-18 *\n",
    )
    .unwrap();
    let (code, stdout, stderr) = puzzles(&[path.to_str().unwrap(), "--format", "lichess"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n"
    );
    assert!(
        stderr.contains(
            "1 puzzle left out of the lichess output: no source game has a move before the \
             puzzle (a row starts with it)"
        ),
        "{stderr}"
    );
    // TzDraft holds it: no setup move.
    let (code, stdout, _) = puzzles(&[path.to_str().unwrap(), "--format", "tzdraft"]);
    assert_eq!(code, 0);
    let t = json_lines(&stdout);
    assert_eq!(t.len(), 1, "{stdout}");
    assert!(t[0]["setupMove"].is_null() && t[0]["setupPieces"].is_null());
}

#[test]
fn a_russian_puzzle_is_left_out_of_the_tzdraft_output() {
    let (code, stdout, stderr) =
        puzzles(&[CONSTRUCTED, "--variant", "russian", "--format", "tzdraft"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, json, _) = puzzles(&[CONSTRUCTED, "--variant", "russian", "--json"]);
    let n = json_lines(&json).len();
    assert!(n >= 1, "{json}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(&format!(
            "{n} puzzle{} left out of the tzdraft output: TzDraft plays Tanzanian draughts only",
            if n == 1 { "" } else { "s" }
        )),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn a_write_error_in_the_platform_formats_is_reported_with_exit_code_2() {
    for format in ["tzdraft", "lichess"] {
        let args = ["puzzles", CONSTRUCTED, "--no-egtb", "--format", format];
        let (code, stderr) = drafti_tests::drafti_into_full_disk(&args);
        assert_eq!(code, Some(2), "{format}: {stderr}");
        assert!(
            stderr.contains("cannot write the report: No space left on device"),
            "{format}: {stderr}"
        );
    }
}

#[test]
fn the_text_shows_terminal_escapes_of_the_source_game_visibly() {
    // The constructed shot, its players named with escape sequences (the report's defect,
    // in the puzzles' text too).
    let pdn = std::fs::read_to_string(format!("{}/{CONSTRUCTED}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replacen("[White \"Asha\"]", "[White \"Asha\u{1b}[2J\"]", 1);
    let output = drafti()
        .args(["puzzles", "--nodes", "2000", "-"])
        .write_stdin(pdn)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("(Asha\\x1b[2J - Baraka)"), "{stdout}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
}

// ---------------------------------------------------------------------------------------
// TzDraft's reading of the rules and TzDraft's puzzle players.

/// A king landing the article allows and TzDraft's server forbids (game 1), the shot with a
/// capture of three (game 2), and the same shot in a game played on TzDraft (game 3).
const READINGS: &str = "fixtures/puzzles/readings.pdn";

/// Five games of the bundled corpus (corpus/showcase.pdn game 3, corpus/selfplay.pdn games
/// 29, 33, 55, 65 as the pattern evaluation played them) whose puzzles' solutions stop before
/// the gain is realised: the engine's continuation after them captures, crowns or gives
/// material; and game 37 of the network's self-play, a sacrifice with a shot of three.
const CONTINUATIONS: &str = "fixtures/puzzles/continuations.pdn";

#[test]
fn a_puzzle_sound_under_the_article_but_not_under_tzdraft_s_reading_is_left_out_and_marked() {
    let (code, json, stderr) = puzzles(&[READINGS, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let found = json_lines(&json);
    assert_eq!(found.len(), 3, "{json}");
    // Game 1: d4xa1 is the article's only winning move; TzDraft's server forbids it.
    assert_eq!(found[0]["solution"], serde_json::json!(["d4xa1"]));
    assert_eq!(
        found[0]["other_reading"],
        serde_json::json!({"rules": "tzdraft", "holds": false, "refuted_at_ply": 1,
                           "reason": "a move is not legal"})
    );
    // The shot holds under both readings, each checked under the other.
    assert_eq!(found[1]["other_reading"]["rules"], "tzdraft");
    assert_eq!(found[1]["other_reading"]["holds"], true);
    assert_eq!(found[2]["variant"], "tzdraft");
    assert_eq!(found[2]["other_reading"]["rules"], "tz");
    assert_eq!(found[2]["other_reading"]["holds"], true);
    assert!(
        stderr.contains("TzDraft: 1 of 2 does not hold under its server's reading"),
        "{stderr}"
    );

    // The TzDraft output leaves game 1's puzzle out and says so; it takes the puzzle mined
    // under TzDraft's own reading.
    let (code, stdout, stderr) = puzzles(&[READINGS, "--format", "tzdraft"]);
    assert_eq!(code, 0, "{stderr}");
    let tz = json_lines(&stdout);
    assert_eq!(tz.len(), 2, "{stdout}");
    for t in &tz {
        let pos = tzdraft_position(&t["pieces"], &t["sideToMove"]);
        assert_eq!(pos.to_fen(), found[1]["fen"].as_str().unwrap(), "{t}");
    }
    assert!(
        stderr.contains(
            "1 puzzle left out of the tzdraft output: the solution does not hold under \
             TzDraft's server reading"
        ),
        "{stderr}"
    );
    // The text says it too.
    let (_, text, _) = puzzles(&[READINGS]);
    assert!(
        text.contains(
            "does not hold under TzDraft's server reading (at ply 1 of the solution: a move \
             is not legal)"
        ),
        "{text}"
    );
}

#[test]
fn a_solver_move_of_several_jumps_is_marked_not_enterable_and_the_option_leaves_it_out() {
    let (code, json, stderr) = puzzles(&[READINGS, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let enterable: Vec<&serde_json::Value> = json_lines(&json)
        .iter()
        .map(|p| p["tzdraft_enterable"].clone())
        .collect::<Vec<_>>()
        .leak()
        .iter()
        .collect();
    // d4xa1 takes one piece; d2xb4xd6xf8 takes three in one move.
    assert_eq!(
        enterable,
        [&serde_json::json!(true), &false.into(), &false.into()]
    );
    assert!(
        stderr.contains("2 of 3 cannot be entered in its puzzle players"),
        "{stderr}"
    );
    let (code, json, stderr) = puzzles(&[READINGS, "--json", "--tzdraft-enterable"]);
    assert_eq!(code, 0, "{stderr}");
    let kept = json_lines(&json);
    assert_eq!(kept.len(), 1, "{json}");
    assert_eq!(kept[0]["solution"], serde_json::json!(["d4xa1"]));
    assert!(
        stderr.contains("0 of 1 cannot be entered in its puzzle players"),
        "{stderr}"
    );
    // A Russian puzzle is none of TzDraft's: the option leaves it out too.
    let (code, json, _) = puzzles(&[
        CONSTRUCTED,
        "--variant",
        "russian",
        "--json",
        "--tzdraft-enterable",
    ]);
    assert_eq!((code, json.as_str()), (0, ""));
}

/// Material of `color` in `pos`: a man 1, a king 3.
fn material(pos: &Position, color: drafti_rules::Color) -> i32 {
    let kings = pos.kings(color).count() as i32;
    pos.pieces(color).count() as i32 + 2 * kings
}

/// The solver's balance (its material less the opponent's) in `pos`.
fn balance(pos: &Position, solver: drafti_rules::Color) -> i32 {
    material(pos, solver) - material(pos, solver.other())
}

/// What a line of moves from `start` (the solver to move) shows, read off the moves alone:
/// the most pieces one solver move takes, a king taken, a man crowned, a first move that
/// gives material (the solver down after the reply), a quiet first move then a capture.
#[derive(Debug, Default)]
struct Shown {
    shot: usize,
    king_capture: bool,
    crowning: bool,
    sacrifice: bool,
    capture_trap: bool,
}

fn shown(start: &Position, line: &[Move]) -> Shown {
    let solver = start.turn();
    let mut s = Shown::default();
    let mut pos = *start;
    for (i, mv) in line.iter().enumerate() {
        if i % 2 == 0 {
            s.shot = s.shot.max(mv.capture_count());
            s.king_capture |= mv.captured().0 & pos.kings(solver.other()).0 != 0;
            s.crowning |= mv.promotes();
            s.capture_trap |= i > 0 && mv.is_capture() && !line[0].is_capture();
        }
        pos = pos.play(mv);
        if i == 1 {
            s.sacrifice = balance(&pos, solver) < balance(start, solver);
        }
    }
    s
}

#[test]
fn the_themes_agree_with_the_lines_exported() {
    let (code, json, stderr) = puzzles(&[CONTINUATIONS, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let found = json_lines(&json);
    assert!(found.len() >= 4, "{json}");
    // Some solutions stop before the gain: the engine's continuation is not the puzzle's.
    assert!(found
        .iter()
        .any(|p| !p["continuation"].as_array().unwrap().is_empty()));
    for p in &found {
        let (start, solution) = json_solution(p);
        let s = shown(&start, &solution);
        let themes: Vec<&str> = p["themes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let has = |name: &str| themes.contains(&name);
        assert_eq!(p["shot"], s.shot, "{p}");
        assert_eq!(has(&format!("shot_{}", s.shot)), s.shot >= 2, "{p}");
        assert_eq!(
            themes.iter().filter(|t| t.starts_with("shot_")).count(),
            usize::from(s.shot >= 2),
            "{p}"
        );
        assert_eq!(has("king_capture"), s.king_capture, "{p}");
        assert_eq!(has("crowning"), s.crowning, "{p}");
        assert_eq!(has("sacrifice"), s.sacrifice, "{p}");
    }

    // TzDraft's theme, read against the line it is given.
    let (code, stdout, stderr) = puzzles(&[CONTINUATIONS, "--format", "tzdraft"]);
    assert_eq!(code, 0, "{stderr}");
    let tz = json_lines(&stdout);
    assert!(!tz.is_empty());
    for t in &tz {
        let start = tzdraft_position(&t["pieces"], &t["sideToMove"]);
        let mut pos = start;
        let line: Vec<Move> = t["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| {
                let played = tzdraft_move(&pos, mv);
                pos = pos.play(&played);
                played
            })
            .collect();
        let s = shown(&start, &line);
        match t["theme"].as_str().unwrap() {
            "king-trap" => assert!(s.king_capture, "{t}"),
            "sacrifice" => assert!(s.sacrifice && !s.king_capture, "{t}"),
            "capture-trap" => assert!(s.capture_trap, "{t}"),
            "combination" => assert!(s.shot >= 2 && !s.capture_trap, "{t}"),
            "promotion" | "endgame" | "tactical" => {
                assert!(!s.king_capture && !s.sacrifice, "{t}")
            }
            other => panic!("theme {other}: {t}"),
        }
        if t["theme"] == "tactical" {
            assert!(s.shot < 2 && !s.crowning && !s.capture_trap, "{t}");
        }
    }

    // lichess's themes, read against the row's moves (the first is the opponent's).
    let (code, stdout, stderr) = puzzles(&[CONTINUATIONS, "--format", "lichess"]);
    assert_eq!(code, 0, "{stderr}");
    let mut reader = csv::ReaderBuilder::new().from_reader(stdout.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(!rows.is_empty());
    for row in &rows {
        let mut pos = Position::from_fen(&row[1]).unwrap();
        let mut line = Vec::new();
        for (i, text) in row[2].split(' ').enumerate() {
            let mv = pos.parse_move(Variant::Tanzanian, text).unwrap()[0];
            pos = pos.play(&mv);
            if i == 0 {
                continue;
            }
            line.push(mv);
        }
        let start = Position::from_fen(&row[1])
            .unwrap()
            .play(&pos_first(&row[1], &row[2]));
        let s = shown(&start, &line);
        let themes: Vec<&str> = row[7].split(' ').collect();
        let shots: Vec<&&str> = themes.iter().filter(|t| t.starts_with("shot")).collect();
        if s.shot >= 2 {
            assert_eq!(shots, [&format!("shot{}", s.shot).as_str()], "{row:?}");
        } else {
            assert!(shots.is_empty(), "{row:?}");
        }
        assert_eq!(themes.contains(&"sacrifice"), s.sacrifice, "{row:?}");
        assert_eq!(themes.contains(&"promotion"), s.crowning, "{row:?}");
        assert_eq!(themes.contains(&"kingCapture"), s.king_capture, "{row:?}");
    }
}

/// The first move of a lichess row (the opponent's), parsed in the row's FEN.
fn pos_first(fen: &str, moves: &str) -> Move {
    let pos = Position::from_fen(fen).unwrap();
    let first = moves.split(' ').next().unwrap();
    pos.parse_move(Variant::Tanzanian, first).unwrap()[0]
}
