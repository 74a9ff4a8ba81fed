//! End-to-end tests of `drafti analyze` and `drafti selfplay` in engine mode.
//!
//! Fixtures (tests/fixtures/analyze/):
//! - `planted.pdn`: 14 plies of depth-10 engine play, then White's 8. c3-d4?? gives two men
//!   and a king to the shot 8... e5xa1 (d4 and b2 taken, crowned), then the engine's best
//!   moves; Black's play is sound.
//! - `mixed.pdn`: four engine self-play games (`selfplay --nodes 4000 --seed 21
//!   --max-plies 80`), one game with an illegal move, and the planted game.
//! - `planted-master.pdn`: the first 14 plies of a real master game (Krista - Bajusz, Czech
//!   championship 2007, game 1 of `tests/fixtures/corpora/czech-championship-2007-102games.pdn`;
//!   Czech rules, no GameType tag), then White's planted 8. c3-b4?? (8... a5xa1 crowns), then
//!   the engine's best moves.
//! - `abatsiev-17.pdn`: game 17 of `tests/fixtures/corpora/russian-abatsiev-ussr-events-56games.pdn`
//!   (Russian rules, no GameType tag), whose 32... c5-b4 a depth-6 pass alone calls a mistake
//!   and a 2,000,000-node search of the position plays itself (score 0; before the second
//!   generation of the Russian weights the pass's case here was 33. d2-e3).
//! - `ussr-x-121.pdn`: game 121 of `tests/fixtures/corpora/russian-ussr-championship-x-153games.pdn`
//!   (Russian rules), whose 21. g3-h4 the re-search at depth 10 calls a blunder (+3.47 ->
//!   +0.80), the confirmation at depth 16 no blunder, and the 2,000,000-node reference a move
//!   as good as its best (a drop of 0.01; from `drafti-lab quality --sample 8 --moves`).
//! - `czech-2007-17.pdn`: game 17 of `tests/fixtures/corpora/czech-championship-2007-102games.pdn`
//!   (Czech rules), whose 12. c3-d4 the confirmation at depth 14 calls a blunder from depth
//!   12 on only, and every deep reference a mistake or less (2,000,000 nodes a position: a
//!   drop of 0.21; 4,000,000: 0.28; judged move by move at 2,000,000: 0.14).
//! - `table-ending.pdn`: a constructed Tanzanian ending (5 pieces, then 4 after Black's
//!   capture): White's 2. b8-d6 leaves a table draw for a loss in 4, Black's 2... h8xa1
//!   misses the table's win in 3 (2... e7xc5).

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

/// The moves of a game's JSON that carry a judgement.
fn flagged(game: &Value) -> Vec<Value> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["judgement"].is_null())
        .cloned()
        .collect()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Move `index` (from 0) of the first game that `analyze ARGS --json` prints, checked to be
/// `number` `text`.
fn analysed_move(args: &[&str], index: usize, number: &str, text: &str) -> Value {
    let (code, out) = analyze(&[args, &["--json"]].concat());
    assert_eq!(code, 0, "{out}");
    let m = json_lines(&out)[0]["moves"][index].clone();
    assert_eq!(
        (m["move_number"].clone(), m["move"].clone()),
        (number.into(), text.into())
    );
    m
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
        let flagged = flagged(g);
        assert_eq!(flagged.len(), 1, "{limit:?}: {flagged:?}");
        let f = &flagged[0];
        assert_eq!(f["ply"], 15);
        assert_eq!(f["move_number"], "8.");
        assert_eq!(f["move"], "c3-d4");
        assert_eq!(f["side"], "white");
        assert_eq!(f["judgement"], "blunder");
        assert_ne!(f["best"], "c3-d4");
        assert!(f["win_before"].as_f64().unwrap() - f["win_after"].as_f64().unwrap() >= 15.0);
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
fn a_blunder_planted_in_a_master_game_is_flagged_and_the_masters_moves_are_not() {
    let (code, out) = analyze(&[
        &fixture("planted-master.pdn"),
        "--variant",
        "czech",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let g = &json_lines(&out)[0];
    // No master's move is a mistake or a blunder. (5... c7-b6, before a forced capture, is an
    // inaccuracy to the depth-10 re-search: -0.52 against +0.04, within what such a search
    // tells apart.)
    let flagged: Vec<Value> = flagged(g)
        .into_iter()
        .filter(|m| m["judgement"] != "inaccuracy")
        .collect();
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    let f = &flagged[0];
    assert_eq!(
        (f["ply"].clone(), f["move"].clone()),
        (15.into(), "c3-b4".into())
    );
    assert_eq!(f["judgement"], "blunder");
    // Confirmed by the deeper re-search, best and played move alike (a drop far beyond the
    // blunder's: no second confirmation needed).
    assert_eq!(f["depth"], 10);
    assert!(f["confirmed_depth"].as_u64().unwrap() <= 10);
    assert!(f["score_after"]["cp"].as_i64().unwrap() <= -300, "{f}");
}

#[test]
fn a_verdict_of_the_shallow_search_that_a_deep_one_refutes_is_not_reported() {
    let game = fixture("abatsiev-17.pdn");
    let ply_64 = |args: &[&str]| {
        let base = [game.as_str(), "--variant", "russian", "--depth", "6"];
        analysed_move(&[&base[..], args].concat(), 63, "32...", "c5-b4")
    };
    // A pass at depth 6 (the old default) alone flags 32... c5-b4 …
    assert!(!ply_64(&["--no-verify"])["judgement"].is_null());
    // … the re-search at depth 10 does not, and says so.
    let m = ply_64(&[]);
    assert!(m["judgement"].is_null(), "{m}");
    assert_eq!(m["depth"], 10);
    assert!(!m["confirmed_depth"].is_null());
}

#[test]
fn the_default_pass_sees_a_shot_that_a_pass_at_depth_6_calls_the_best_move() {
    // USSR championship 1950, game 1: 28... d6-c5 lets in 29. d2-c3 b6-a5 30. e3-d4 c5xg5
    // 31. h4xf6, and White wins; a 2,000,000-node search drops it by 1.0.
    let game = fixture("ussr-x-1.pdn");
    let ply_56 = |args: &[&str]| {
        let base = [game.as_str(), "--variant", "russian"];
        analysed_move(&[&base[..], args].concat(), 55, "28...", "d6-c5")
    };
    // Six plies do not reach the shot: the pass takes d6-c5 for the best move, so nothing
    // looks at it again.
    let shallow = ply_56(&["--depth", "6"]);
    assert_eq!(shallow["best"], "d6-c5", "{shallow}");
    assert!(shallow["judgement"].is_null(), "{shallow}");
    assert!(shallow["confirmed_depth"].is_null(), "{shallow}");
    // The default pass (25,000 nodes a position) sees it, and the re-search calls it a
    // blunder, with a better move.
    let m = ply_56(&[]);
    assert_eq!(m["judgement"], "blunder", "{m}");
    assert_ne!(m["best"], "d6-c5", "{m}");
    assert!(m["depth"].as_u64().unwrap() >= 10, "{m}");
    assert!(m["win_before"].as_f64().unwrap() - m["win_after"].as_f64().unwrap() >= 30.0);
}

#[test]
fn a_verdict_near_the_threshold_is_confirmed_deeper() {
    let game = fixture("ussr-x-121.pdn");
    let ply_41 = |args: &[&str]| {
        let base = [game.as_str(), "--variant", "russian", "--depth", "6"];
        analysed_move(&[&base[..], args].concat(), 40, "21.", "g3-h4")
    };
    // The re-search at depth 10 alone (every blunder standing) calls 21. g3-h4 a blunder,
    // by a drop under 0.7 …
    let m = ply_41(&["--no-confirm", "--blunder-depths", "1"]);
    assert_eq!(m["judgement"], "blunder", "{m}");
    assert_eq!(m["depth"], 10);
    // … so it is searched again at depth 16, which finds much less: no blunder (at
    // 2,000,000 nodes g3-h4 is as good as the best move). The band and the settled depths
    // of when this case was found are pinned: the confirmations of the game's other moves
    // fill the kept table, so another band changes what this depth-16 search finds.
    let m = ply_41(&["--confirm-band", "0.2-0.7", "--blunder-depths", "4"]);
    assert_ne!(m["judgement"], "blunder", "{m}");
    assert!(m["win_before"].as_f64().unwrap() - m["win_after"].as_f64().unwrap() < 15.0);
    assert_eq!(m["depth"], 16);
}

#[test]
fn a_blunder_that_has_not_settled_with_depth_is_reported_as_a_mistake() {
    let game = fixture("czech-2007-17.pdn");
    let base = [game.as_str(), "--variant", "czech", "--depth", "6"];
    let three_depths = ["--blunder-depths", "3"];
    let ply_34 = |args: &[&str]| -> (Value, String) {
        let args = [&base[..], args].concat();
        let m = analysed_move(&args, 33, "17...", "e5-f4");
        let (code, text) = analyze(&args);
        assert_eq!(code, 0, "{text}");
        let line = text
            .lines()
            .find(|l| l.contains(" 17... e5-f4"))
            .unwrap_or_default()
            .to_string();
        (m, line)
    };
    // With every blunder standing, the confirmation calls 17... e5-f4 a blunder (+3.21 ->
    // +1.28 at depth 16), but only from depth 15 on: two depths.
    let (every, _) = ply_34(&["--blunder-depths", "1"]);
    assert_eq!(every["judgement"], "blunder", "{every}");
    assert_eq!(every["depth"], 16, "{every}");
    assert_eq!(every["confirmed_depth"], 15, "{every}");
    assert_eq!(every["unsettled"], false);
    // By default a blunder must hold at the last 2 depths: this one does.
    let (default, _) = ply_34(&[]);
    assert_eq!(default["judgement"], "blunder", "{default}");
    assert_eq!(default["unsettled"], false, "{default}");
    // When it must hold at the last 3: the same numbers, a mistake.
    let (m, line) = ply_34(&three_depths);
    assert_eq!(m["judgement"], "mistake", "{m}");
    assert_eq!(m["unsettled"], true, "{m}");
    for field in [
        "score_before",
        "score_after",
        "depth",
        "confirmed_depth",
        "best",
    ] {
        assert_eq!(m[field], every[field], "{field}");
    }
    assert!(m["win_before"].as_f64().unwrap() - m["win_after"].as_f64().unwrap() >= 15.0);
    assert!(
        line.contains("e5-f4?  mistake") && line.contains("only since depth 15: not settled"),
        "{line}"
    );
    // The annotated PDN gives it a mistake's NAG and says why in its comment.
    let scratch = drafti_tests::temp_dir("unsettled");
    let dir = scratch.path();
    let out = dir.join("annotated.pdn");
    let pdn_out = ["--pdn", out.to_str().unwrap()];
    let (code, _) = analyze(&[&base[..], &three_depths, &pdn_out].concat());
    assert_eq!(code, 0);
    // (Lines are wrapped: compared with every line end as a space.)
    let pdn = std::fs::read_to_string(&out).unwrap().replace('\n', " ");
    assert!(
        pdn.contains(
            "e5-f4? {[%eval -1.28] +1.28 (best +3.21: g7-h6; a blunder's drop, not settled)}"
        ),
        "{pdn}"
    );
}

#[test]
fn a_blunder_scored_in_a_king_ending_beyond_the_tables_is_reported_as_a_mistake() {
    // A Czech master game: two kings and a man against a king and two men, drawn in the
    // 6-piece tables after e1-a5 as before it. Without tables the evaluation scores the move
    // 2.4 men down, a blunder's drop it cannot tell from a draw's.
    let scratch = drafti_tests::temp_dir("king-ending");
    let ending = scratch.path().join("ending.pdn");
    let text = "[GameType \"29\"]\n[FEN \"B:WK15,19,K29:B4,21,K31\"]\n\n1... e1-a5 *\n";
    std::fs::write(&ending, text).unwrap();
    let path = ending.to_str().unwrap();
    let m = analysed_move(&[path], 0, "1...", "e1-a5");
    assert_eq!(
        (&m["judgement"], &m["unsettled"]),
        (&"mistake".into(), &true.into()),
        "{m}"
    );
    assert!(m["win_before"].as_f64().unwrap() - m["win_after"].as_f64().unwrap() >= 15.0);
    let (code, out) = analyze(&[path]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("e1-a5?  mistake")
            && out.contains("kings on both sides beyond the tables, which the evaluation cannot judge: not settled"),
        "{out}"
    );
    // The report built from the analysis's JSON counts it a mistake too, not a blunder.
    let (code, json) = analyze(&[path, "--json"]);
    assert_eq!(code, 0, "{json}");
    let part = scratch.path().join("part.jsonl");
    std::fs::write(&part, json).unwrap();
    let report = drafti()
        .args(["report", "--from-analysis", part.to_str().unwrap()])
        .output()
        .unwrap();
    let summary = String::from_utf8(report.stdout).unwrap();
    let all: Vec<&str> = summary
        .lines()
        .find(|l| l.trim_start().starts_with("all "))
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    // all, games, moves, blunders, mistakes, …
    assert_eq!(all.get(1..5), Some(&["1", "1", "0", "1"][..]), "{summary}");
    // The same ending in Tanzanian is judged as searched: its evaluation knows it.
    let tanzanian = scratch.path().join("tanzanian.pdn");
    std::fs::write(&tanzanian, text.replace("[GameType \"29\"]\n", "")).unwrap();
    let m = analysed_move(&[tanzanian.to_str().unwrap()], 0, "1...", "e1-a5");
    assert_eq!(m["unsettled"], false, "{m}");
}

#[test]
fn every_move_has_its_numbers_in_the_json() {
    let (code, out) = analyze(&[
        &fixture("mixed.pdn"),
        "--depth",
        "4",
        "--verify-depth",
        "6",
        "--json",
    ]);
    assert_eq!(code, 1, "the invalid game");
    let mut seen = 0;
    for g in json_lines(&out)
        .iter()
        .filter(|g| g["status"] == "analysed")
    {
        let moves = g["moves"].as_array().unwrap();
        assert_eq!(moves.len(), g["plies"].as_u64().unwrap() as usize);
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m["ply"], i + 1);
            assert_eq!(m["side"], if i % 2 == 0 { "white" } else { "black" });
            assert!(m["move"].is_string() && m["move_number"].is_string());
            for when in ["before", "after"] {
                // A score's one shape: exactly one of its three numbers, and its text.
                let score = &m[format!("score_{when}")];
                let set = ["cp", "win_in", "loss_in"]
                    .iter()
                    .filter(|k| score[**k].is_i64())
                    .count();
                assert!(set == 1 && score["text"].is_string(), "{m}");
                let win = m[format!("win_{when}")].as_f64().unwrap();
                assert!((0.0..=100.0).contains(&win), "{m}");
            }
            let pv = m["pv"].as_array().unwrap();
            assert!(!pv.is_empty());
            assert_eq!(m["best"], pv[0]);
            assert!(m["depth"].as_u64().unwrap() >= 1);
            assert!(m["confirmed_depth"].is_null() || m["confirmed_depth"].is_u64());
            assert!(m["judgement"].is_null() || m["judgement"].is_string());
            assert!((0.0..=100.0).contains(&m["accuracy"].as_f64().unwrap()));
            // Round trip: the record's move replays (the JSON names real moves).
            seen += 1;
        }
    }
    assert!(seen > 100);
}

#[test]
fn a_game_alone_and_inside_an_archive_gets_the_same_analysis() {
    // A long game (cut into parts analysed in parallel) and the fixture's games.
    let games = drafti()
        .args([
            "selfplay",
            "--games",
            "30",
            "--nodes",
            "300",
            "--max-plies",
            "160",
            // A seed whose 30 games include one still running at the cap (the engine's
            // games are short; which seeds have one changes with the evaluation).
            "--seed",
            "4",
        ])
        .output()
        .unwrap();
    assert!(games.status.success());
    let games = String::from_utf8(games.stdout).unwrap();
    let long = games
        .split("[Event ")
        .find(|g| g.contains("[PlyCount \"160\"]"))
        .map(|g| format!("[Event {g}"))
        .expect("a game of 160 plies");
    let mixed = std::fs::read_to_string(fixture("mixed.pdn")).unwrap();
    let archive = format!("{mixed}\n{long}");
    let settings = ["--depth", "3", "--verify-depth", "5", "--json", "-"];
    let run = |text: &str, jobs: &str| -> Vec<Value> {
        let out = drafti()
            .arg("analyze")
            .args(settings)
            .args(["--jobs", jobs])
            .write_stdin(text.to_string())
            .output()
            .unwrap();
        let mut games = json_lines(&String::from_utf8(out.stdout).unwrap());
        for g in &mut games {
            let g = g.as_object_mut().unwrap();
            // Where the game stood: its number and line, its record's text and ordinal.
            g.remove("index");
            g.remove("line");
            g.remove("record");
            g.remove("run");
        }
        games
    };
    let together = run(&archive, "2");
    assert_eq!(together.last().unwrap()["plies"], 160, "a long game");
    assert_eq!(together, run(&archive, "1"), "--jobs 1 and 2");
    let alone = run(&long, "2");
    assert_eq!(together.last(), alone.last(), "the long game alone");
    let planted = run(
        &std::fs::read_to_string(fixture("planted.pdn")).unwrap(),
        "1",
    );
    assert_eq!(together[5], planted[0], "the planted game alone");
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
        .find(|l| l.starts_with("  ply") && l.contains("c3-d4??"))
        .expect("the blunder is listed");
    assert!(line.contains("ply  15  8. c3-d4??  blunder:"), "{line}");
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
    let scratch = drafti_tests::temp_dir("analyze");
    let dir = scratch.path();
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
}

#[test]
fn a_preset_is_the_settings_it_names_and_the_flags_given_with_it_change_it() {
    let planted = fixture("planted.pdn");
    let search_of = |json: &str| json_lines(json)[0]["search"].as_str().unwrap().to_string();
    let (code, fast) = analyze(&[&planted, "--json", "--preset", "fast"]);
    assert_eq!(code, 0);
    let (_, spelled_out) = analyze(&[
        &planted,
        "--json",
        "--depth",
        "5",
        "--verify-depth",
        "8",
        "--confirm-depth",
        "10",
        "--confirm-nodes",
        "100000",
    ]);
    assert_eq!(fast, spelled_out, "fast is the report's settings");
    let (_, default) = analyze(&[&planted, "--json", "--preset", "default"]);
    let (_, no_preset) = analyze(&[&planted, "--json"]);
    assert_eq!(default, no_preset, "default is analyze's default");
    assert_ne!(search_of(&fast), search_of(&default));
    let (_, changed) = analyze(&[&planted, "--json", "--preset", "fast", "--depth", "4"]);
    assert!(
        search_of(&changed)
            .starts_with("depth 4; moves with a pass drop of 0.05 re-searched to depth 8"),
        "{}",
        search_of(&changed)
    );
    // thorough is the default with a pass of 400,000 nodes a position and re-searches no
    // shallower than it (a second on this game).
    let (code, thorough) = analyze(&[&planted, "--json", "--preset", "thorough"]);
    assert_eq!(code, 0);
    assert_eq!(
        search_of(&thorough),
        search_of(&default)
            .replacen("25000 nodes", "400000 nodes", 1)
            .replacen(
                "(at most 1000000 nodes)",
                "(at most 1000000 nodes), no shallower than the pass",
                1
            )
    );
    // The deep preset, its pass shortened to keep the test quick: its re-searches and its
    // confirmation are bounded by nodes alone.
    let (code, deep) = analyze(&[&planted, "--json", "--preset", "deep", "--nodes", "3000"]);
    assert_eq!(code, 0);
    assert_eq!(
        search_of(&deep),
        "3000 nodes; moves with a pass drop of 0.05 re-searched to 2000000 nodes, verdicts with \
         a drop of 0.25-0.7 or a proven result confirmed at 5000000 nodes; a blunder only when \
         it held at the last 2 depths or its drop reached 0.45"
    );
    let out = drafti()
        .args(["analyze", &planted, "--preset", "fastest"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("unknown preset 'fastest' (known: fast, default, thorough, deep)"),
        "{err}"
    );
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
    let scratch = drafti_tests::temp_dir("analyze-pdn");
    let dir = scratch.path();
    let out = dir.join("annotated.pdn");
    let out = out.to_str().unwrap();
    let (code, _) = analyze(&[&fixture("planted.pdn"), "--depth", "4", "--pdn", out]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(out).unwrap();
    // The header says what judged the game.
    assert!(
        text.contains("[Annotator \"drafti 0.2.0 (engine ")
            && text.contains("): depth 4; moves with a pass drop of 0.05 re-searched to depth 10"),
        "{text}"
    );
    // The blunder's NAG $4 is written as its move suffix ??, PDN's short form.
    assert!(text.contains("8. c3-d4??"), "{text}");
    assert!(text.contains("(best "), "{text}");
    assert_eq!(
        text.matches("[%eval ").count(),
        20,
        "an evaluation on every move\n{text}"
    );
    let reread = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
    let nags: Vec<(usize, u8)> = reread
        .moves
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(i, n)| n.nags.iter().map(move |g| (i + 1, g.value)))
        .collect();
    assert_eq!(nags, [(15, 4)], "one NAG: $4 on the blunder");
    let comment = &reread.moves.nodes[14].comments[0].text;
    assert!(
        comment.starts_with("[%eval -") && comment.contains("(best "),
        "{comment}"
    );
    let status = drafti().args(["validate", out]).output().unwrap().status;
    assert!(status.success());
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

/// Tanzanian endgame tables of at most four pieces in `root/tz`, built for this test.
fn small_tables(root: &std::path::Path) {
    let out = drafti()
        .args(["egtb", "build", "--pieces", "4", "--dir"])
        .arg(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn verdicts_in_table_positions_are_exact_and_say_so() {
    let cache = tempfile::tempdir().unwrap();
    let root = cache.path().join("drafti").join("egtb");
    small_tables(&root);
    let game = fixture("table-ending.pdn");
    let run = |args: &[&str], env_cache: bool| {
        let mut cmd = drafti();
        cmd.arg("analyze").arg(&game).args(args);
        // The default folder, or one without tables.
        let empty = tempfile::tempdir().unwrap();
        cmd.env(
            "XDG_CACHE_HOME",
            if env_cache {
                cache.path()
            } else {
                empty.path()
            },
        );
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let root_arg = root.to_str().unwrap();
    // --egtb DIR, and the default folder without the flag: the same exact verdicts.
    for (args, env_cache) in [
        (&["--json", "--egtb", root_arg][..], false),
        (&["--json"], true),
    ] {
        let (out, err) = run(args, env_cache);
        assert!(
            err.contains("endgame tables: ") && err.contains("41 tables, up to 4 pieces"),
            "{err}"
        );
        let g = &json_lines(&out)[0];
        assert!(
            g["search"]
                .as_str()
                .unwrap()
                .contains("endgame tables: tz up to 4 pieces"),
            "{g}"
        );
        let moves = g["moves"].as_array().unwrap();
        // The first move has five pieces before it: searched, not exact, sound.
        assert_eq!(moves[0]["exact"], false, "{}", moves[0]);
        assert!(moves[0]["judgement"].is_null(), "{}", moves[0]);
        let draw = &moves[1];
        assert_eq!(
            (&draw["exact"], &draw["judgement"], &draw["reason"]),
            (
                &Value::Bool(true),
                &Value::from("blunder"),
                &Value::from("draw_thrown_away")
            ),
            "{draw}"
        );
        assert_eq!(
            (&draw["score_before"]["cp"], &draw["score_after"]["loss_in"]),
            (&Value::from(0), &Value::from(4))
        );
        assert_eq!(draw["best"], "c3-b4");
        let win = &moves[2];
        assert_eq!(
            (
                &win["exact"],
                &win["reason"],
                &win["score_before"]["win_in"],
                &win["score_after"]["cp"]
            ),
            (
                &Value::Bool(true),
                &Value::from("win_thrown_away"),
                &Value::from(3),
                &Value::from(0)
            ),
            "{win}"
        );
        assert_eq!(win["best"], "e7xc5");
        // The capture into a law-1 draw is the only move: exact, no verdict.
        assert_eq!(
            (&moves[3]["exact"], &moves[3]["judgement"]),
            (&Value::Bool(true), &Value::Null)
        );
    }
    let (text, _) = run(&["--egtb", root_arg], false);
    assert!(
        text.contains("2. b8-d6??  blunder (draw thrown away: loss in 4)"),
        "{text}"
    );
    assert!(
        text.contains("2... h8xa1??  blunder (win in 3 missed)"),
        "{text}"
    );
    assert_eq!(text.matches("exact: endgame tables").count(), 2, "{text}");
    // Without tables the search finds the same blunders, but not as exact table verdicts.
    for args in [&["--json", "--no-egtb"][..], &["--json"]] {
        let (out, err) = run(args, args.len() == 2);
        assert!(!err.contains("endgame tables"), "{err}");
        let g = &json_lines(&out)[0];
        let moves = g["moves"].as_array().unwrap();
        assert!(moves.iter().all(|m| m["exact"] == false), "{g}");
        assert_eq!(moves[1]["reason"], "losing_move");
    }
    // A folder without tables given explicitly is an error naming it.
    let empty = tempfile::tempdir().unwrap();
    let out = drafti()
        .args(["analyze", &game, "--egtb"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no endgame tables here"));
}

/// Issue 27, item 14: games analysed under `--variant` are written with `--pdn` carrying the
/// GameType tag of that variant, so the file reads back under the same rules.
#[test]
fn the_annotated_pdn_of_a_variant_run_names_its_variant() {
    let scratch = drafti_tests::temp_dir("analyze-variant");
    let dir = scratch.path();
    let input = dir.join("untagged.pdn");
    std::fs::write(&input, "1. c3-d4 f6-g5 2. g3-h4 g7-f6 *\n").unwrap();
    let out = dir.join("czech.pdn");
    let (code, _) = analyze(&[
        input.to_str().unwrap(),
        "--variant",
        "czech",
        "--depth",
        "2",
        "--no-verify",
        "--no-egtb",
        "--pdn",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&out).unwrap();
    let reread = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
    assert_eq!(reread.tag("GameType"), Some("29"), "{text}");
}

/// Issue 27, item 18: `--json-moves` is the per-move table of `--json`, flat: one row per
/// move of every analysed game, with the game's keys, the move's fields as in the nested
/// output (`pv` one string), and no row for an invalid game.
#[test]
fn json_moves_is_one_flat_row_per_move() {
    let settings = [
        "--depth",
        "2",
        "--verify-depth",
        "3",
        "--no-confirm",
        "--no-egtb",
    ];
    let files = [fixture("planted.pdn"), fixture("mixed.pdn")];
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.extend(settings);
    let (_, nested) = analyze(&[&args[..], &["--json"]].concat());
    let (code, flat) = analyze(&[&args[..], &["--json-moves"]].concat());
    assert!(code == 0 || code == 1);
    let games: Vec<Value> = nested
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rows: Vec<Value> = flat
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut expected = Vec::new();
    for g in &games {
        for m in g["moves"].as_array().unwrap() {
            let mut row = serde_json::Map::new();
            for key in ["file", "index", "white", "black", "result", "variant"] {
                row.insert(key.to_string(), g[key].clone());
            }
            for (key, value) in m.as_object().unwrap() {
                // A score's fields are columns named after it (`score_before_cp`, …).
                if let Some(score) = value.as_object() {
                    for (field, v) in score {
                        row.insert(format!("{key}_{field}"), v.clone());
                    }
                    continue;
                }
                let value = match key.as_str() {
                    "pv" => Value::from(
                        value
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_str().unwrap())
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                    _ => value.clone(),
                };
                row.insert(key.clone(), value);
            }
            expected.push(Value::Object(row));
        }
    }
    assert!(expected.len() > 20, "{nested}");
    assert_eq!(rows, expected);
    for row in &rows {
        assert!(
            row.as_object()
                .unwrap()
                .values()
                .all(|v| !v.is_array() && !v.is_object()),
            "{row}"
        );
    }
}

/// Issue 27, item 15: the tables used are named in the summary and in the JSON `run` line,
/// and only the analysed variant's: under `--variant czech`, the Tanzanian tables of the
/// default folder are neither loaded nor named.
#[test]
fn only_the_analysed_variants_tables_are_used_and_named() {
    let cache = tempfile::tempdir().unwrap();
    small_tables(&cache.path().join("drafti").join("egtb"));
    let game = fixture("table-ending.pdn");
    let run = |variant: &[&str]| {
        let out = drafti()
            .arg("analyze")
            .arg(&game)
            .args(["--json", "--depth", "2", "--no-verify"])
            .args(variant)
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let first: Value = serde_json::from_str(
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        (first, String::from_utf8(out.stderr).unwrap())
    };
    for variant in [&[][..], &["--variant", "tz"]] {
        let (first, stderr) = run(variant);
        assert_eq!(first["run"]["tables"], "tz up to 4 pieces", "{first}");
        assert!(
            first["search"]
                .as_str()
                .unwrap()
                .ends_with("; endgame tables: tz up to 4 pieces"),
            "{first}"
        );
        assert!(
            stderr.contains("depth 2; not re-searched; endgame tables: tz up to 4 pieces on "),
            "{stderr}"
        );
    }
    let (first, stderr) = run(&["--variant", "czech"]);
    assert_eq!(first["run"]["tables"], Value::Null, "{first}");
    assert_eq!(first["search"], "depth 2; not re-searched", "{first}");
    assert!(!stderr.contains("endgame tables"), "{stderr}");
}

/// Issue 27, item 14: games skipped as invalid because a file without a variant tag was read
/// as Tanzanian get the note validate gives, naming the variant that fits; none under
/// `--variant`. Since the refusal before the search, a file is refused with that variant
/// (exit 2, nothing written); read from stdin, the games are written and the note ends it.
#[test]
fn skipped_games_of_a_wrong_variant_guess_are_named_with_the_variant_that_fits() {
    let russian = format!(
        "{}/fixtures/corpora/russian-ussr-championship-x-153games.pdn",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |file: &str, extra: &[&str]| {
        let mut command = drafti();
        command
            .arg("analyze")
            .arg(file)
            .args(["--depth", "1", "--no-verify", "--no-egtb"])
            .args(extra);
        if file == "-" {
            command.pipe_stdin(&russian).unwrap();
        }
        let out = command.output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, stdout, stderr) = run(&russian, &[]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "drafti: {russian}: no GameType or Variant tag, so its 153 games were read as \
             Tanzanian (tz); all 152 invalid ones replay valid as russian: give --variant \
             russian (or --variant tz to read them as Tanzanian all the same)\n"
        )
    );
    let (code, stdout, stderr) = run("-", &[]);
    assert_eq!(code, 1);
    assert!(!stdout.is_empty());
    assert!(
        stderr.ends_with(
            "note: <stdin>: no GameType or Variant tag, so its 153 games were read as \
             Tanzanian (tz); all 152 invalid ones replay valid as russian: try --variant \
             russian\n"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = run(&russian, &["--variant", "russian", "--nodes", "50"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("note:"), "{stderr}");
}

#[test]
fn a_win_the_lone_side_draws_by_law_3_is_not_called_won() {
    // Constructed: White's two kings (e5 on the main diagonal) and a man against a king. 1.
    // f4-h2 wins in 3 if Black must play on (b8xf4 is forced, h2xb8 takes the king), but
    // Black may claim law 3 first: crown a7, then take e5 into two kings against one, law
    // 1's draw. So the analysis calls 1. f4-h2 a draw, not a win in 3.
    let scratch = drafti_tests::temp_dir("analyze-law3");
    let dir = scratch.path();
    let pdn = dir.join("law3.pdn");
    std::fs::write(
        &pdn,
        "[Event \"law 3\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"W:W5,K15,K19:BK1\"]\n\n\
         1. f4-h2 b8xf4 2. h2xb8 1-0\n",
    )
    .unwrap();
    let (code, out) = analyze(&[pdn.to_str().unwrap(), "--json", "--no-egtb"]);
    assert_eq!(code, 0, "{out}");
    let games = json_lines(&out);
    let first = &games[0]["moves"][0];
    assert_eq!(first["move"], "f4-h2");
    assert_eq!(
        (
            first["score_before"]["cp"].as_i64(),
            first["score_after"]["cp"].as_i64()
        ),
        (Some(0), Some(0)),
        "{first}"
    );
    assert_eq!(first["judgement"], Value::Null);
}
