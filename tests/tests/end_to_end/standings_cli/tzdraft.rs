//! `drafti standings --format tzdraft` on the hand-made archives `tzdraft-round-robin.pdn`
//! (four players, three rounds) and `tzdraft-knockout.pdn` (four players, semi-finals and a
//! final): each of TzDraft's match-ending rules, the round robin's match points and ranking
//! by match wins, the single elimination's tree and winner, as JSON, text and CSV. Every
//! expected value is worked out by hand in the comments (and in the fixtures' headers).

use drafti_tests::{run_drafti, temp_dir};
use serde_json::{json, Value};

const ROUND_ROBIN: &str = "fixtures/standings/tzdraft-round-robin.pdn";
const KNOCKOUT: &str = "fixtures/standings/tzdraft-knockout.pdn";

/// `drafti standings --format tzdraft ARGS --json`: the one Event, after the exit code.
fn event(args: &[&str], code: i32) -> Value {
    let mut all = vec!["standings", "--format", "tzdraft", "--json"];
    all.extend_from_slice(args);
    let (status, stdout, stderr) = run_drafti(&all);
    assert_eq!(status, code, "stderr: {stderr}");
    let mut lines = stdout.lines();
    let e = serde_json::from_str(lines.next().expect("one Event")).expect("JSON");
    assert_eq!(lines.next(), None, "one Event");
    e
}

/// Each match as (players, score, status, winner, decided after).
fn matches(e: &Value) -> Vec<(String, String, String, String, Value)> {
    e["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| {
            (
                format!("{} – {}", m["players"][0], m["players"][1]).replace('"', ""),
                format!("{}-{}", m["score"][0], m["score"][1]),
                m["status"].as_str().unwrap().to_string(),
                m["winner"].as_str().unwrap_or("-").to_string(),
                m["decided_after"].clone(),
            )
        })
        .collect()
}

fn m(
    players: &str,
    score: &str,
    status: &str,
    winner: &str,
    after: Value,
) -> (String, String, String, String, Value) {
    (
        players.into(),
        score.into(),
        status.into(),
        winner.into(),
        after,
    )
}

/// A table row: (rank, name, W, D, L, unfinished, points, tie-break).
type Row = (u64, String, u64, u64, u64, u64, u64, String);

/// The table's rows.
fn table(e: &Value) -> Vec<Row> {
    e["tzdraft"]["table"]
        .as_array()
        .expect("a round-robin table")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["name"].as_str().unwrap().to_string(),
                r["won"].as_u64().unwrap(),
                r["drawn"].as_u64().unwrap(),
                r["lost"].as_u64().unwrap(),
                r["unfinished"].as_u64().unwrap(),
                r["points"].as_u64().unwrap(),
                r["tiebreak"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn row(
    rank: u64,
    name: &str,
    won: u64,
    drawn: u64,
    lost: u64,
    unfinished: u64,
    points: u64,
    tiebreak: &str,
) -> Row {
    (
        rank,
        name.into(),
        won,
        drawn,
        lost,
        unfinished,
        points,
        tiebreak.into(),
    )
}

#[test]
fn each_ending_rule_decides_or_leaves_a_match_as_tzdraft_does() {
    let e = event(&[ROUND_ROBIN], 0);
    assert_eq!(e["format"], "tzdraft");
    assert_eq!(e["tzdraft"]["kind"], "round_robin");
    assert_eq!(
        matches(&e),
        [
            // Bakari loses games 1 and 2: two losses in a row end it after two games.
            m("Amina – Bakari", "2-0", "decided", "Amina", json!(2)),
            // W L W: no two losses in a row; after the third game Chausiku leads 2-1.
            m("Chausiku – Daudi", "2-1", "decided", "Chausiku", json!(3)),
            // W D D: the draws do not end it (1-0 after two games goes on); after the third
            // game Amina leads.
            m("Amina – Chausiku", "1-0", "decided", "Amina", json!(3)),
            // W L D: level after three games, and no fourth game: unfinished.
            m("Bakari – Daudi", "1-1", "undecided", "-", Value::Null),
            m("Amina – Daudi", "0-2", "decided", "Daudi", json!(2)),
            // W D L D W: level after three and four games (draws never end a match); the
            // fifth game gives Bakari the lead.
            m("Bakari – Chausiku", "2-1", "decided", "Bakari", json!(5)),
        ]
    );
    // Games after the third are TzDraft's extra games; no start-order law (TzDraft's server
    // gives the colours).
    let stages: Vec<Value> = e["matches"][5]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["stage"].clone())
        .collect();
    assert_eq!(
        stages,
        [
            Value::Null,
            Value::Null,
            Value::Null,
            json!("extra"),
            json!("extra")
        ]
    );
    // The unfinished match is a warning naming its players and its three games, not a
    // violation: exit 0.
    let warnings = e["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["kind"], "unfinished_match");
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Bakari – Daudi: unfinished"),
        "{message}"
    );
    assert!(message.contains("1-1 after 3 games"), "{message}");
    assert!(message.ends_with("not scored"), "{message}");
    let games: Vec<u64> = warnings[0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [9, 10, 11]);
}

#[test]
fn the_round_robin_scores_3_1_0_and_ranks_by_match_wins() {
    // Amina 2 wins (6 points); Daudi, Bakari and Chausiku 1 win each (3 points; the
    // unfinished match scores nothing). Daudi's games +1 (4 won, 3 lost) beat Bakari's and
    // Chausiku's -1: they share third.
    let e = event(&[ROUND_ROBIN], 0);
    assert_eq!(
        e["tzdraft"]["tiebreaks"],
        json!(["match_wins", "points", "game_difference"])
    );
    assert_eq!(
        e["tzdraft"]["points"],
        json!({"win": 3, "draw": 1, "loss": 0})
    );
    assert_eq!(
        table(&e),
        [
            row(1, "Amina", 2, 0, 1, 0, 6, "-"),
            row(2, "Daudi", 1, 0, 1, 1, 3, "match_wins"),
            row(3, "Bakari", 1, 0, 1, 1, 3, "game_difference"),
            row(3, "Chausiku", 1, 0, 2, 0, 3, "shared"),
        ]
    );
    // Past the round's deadline TzDraft's server draws the unfinished match: 1 point each.
    // Daudi and Bakari now have 4, Chausiku 3: match wins level, points tell them apart.
    let e = event(&["--deadline-passed", ROUND_ROBIN], 0);
    assert_eq!(e["matches"][3]["status"], "drawn");
    assert_eq!(e["matches"][3]["settled_at_deadline"], true);
    assert_eq!(
        table(&e),
        [
            row(1, "Amina", 2, 0, 1, 0, 6, "-"),
            row(2, "Daudi", 1, 1, 1, 0, 4, "match_wins"),
            row(3, "Bakari", 1, 1, 1, 0, 4, "game_difference"),
            row(4, "Chausiku", 1, 0, 2, 0, 3, "points"),
        ]
    );
    assert_eq!(e["warnings"][0]["kind"], "settled_at_deadline");
    assert!(e["warnings"][0]["message"]
        .as_str()
        .unwrap()
        .ends_with("settled at the round's deadline: a drawn match"));
}

#[test]
fn the_single_elimination_has_its_tree_and_its_winner() {
    let e = event(&[KNOCKOUT], 0);
    assert_eq!(e["tzdraft"]["kind"], "single_elimination");
    assert_eq!(
        matches(&e),
        [
            m("Amina – Bakari", "2-0", "decided", "Amina", json!(2)),
            // L W W: Chausiku's one loss is not two in a row; a leader after the third game.
            m("Chausiku – Daudi", "2-1", "decided", "Chausiku", json!(3)),
            // D W W: the draw does not end it; Chausiku's two losses in a row do.
            m("Amina – Chausiku", "2-0", "decided", "Amina", json!(3)),
        ]
    );
    // The rounds come from the Round tags' first part; the final's winner is the winner.
    let rounds: Vec<(String, Vec<(u64, String)>)> = e["bracket"]["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["matches"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        (
                            m["number"].as_u64().unwrap(),
                            m["winner"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        rounds,
        [
            (
                "Semi-finals".to_string(),
                vec![(1, "Amina".to_string()), (2, "Chausiku".to_string())]
            ),
            ("Final".to_string(), vec![(3, "Amina".to_string())]),
        ]
    );
    assert_eq!(e["bracket"]["champion"], "Amina");
    assert_eq!(e["knockout"]["champion"], "Amina");
    assert_eq!(e["tzdraft"]["still_in"], json!(["Amina"]));
    assert_eq!(e["warnings"], json!([]));
}

#[test]
fn an_unfinished_final_has_no_winner_and_both_finalists_are_still_in() {
    // The final without its third game: 1-0 after a draw and a win; not decided.
    let scratch = temp_dir("standings-tzdraft-unfinished");
    let dir = scratch.path();
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(KNOCKOUT))
            .unwrap();
    let cut = text.rfind("[Event").unwrap();
    let path = dir.join("cut.pdn");
    std::fs::write(&path, &text[..cut]).unwrap();
    let path = path.to_str().unwrap();
    let e = event(&[path], 0);
    assert_eq!(e["matches"][2]["status"], "undecided");
    assert_eq!(e["bracket"]["champion"], Value::Null);
    assert_eq!(e["tzdraft"]["still_in"], json!(["Amina", "Chausiku"]));
    assert_eq!(e["warnings"][0]["kind"], "unfinished_match");
    // At the deadline the player ahead in games wins the single-elimination match.
    let e = event(&["--deadline-passed", path], 0);
    assert_eq!(e["matches"][2]["winner"], "Amina");
    assert_eq!(e["bracket"]["champion"], "Amina");
    assert_eq!(e["warnings"][0]["kind"], "settled_at_deadline");
}

#[test]
fn tzdraft_as_text_and_csv() {
    let (code, text, _) = run_drafti(&["standings", "--format", "tzdraft", ROUND_ROBIN]);
    assert_eq!(code, 0);
    assert!(text.starts_with("Event: TzDraft Ligi (tzdraft: round robin, 4 players, 6 matches)\n"));
    assert!(text.contains(
        "  Match 4: Bakari – Daudi: 1-1, 1 drawn; goals 1-1; undecided: 1-1 after 3 games: \
         another game must follow"
    ));
    assert!(text.contains("    4 extra  "), "{text}");
    assert!(text.contains(
        "  Round robin (TzDraft: match win 3, draw 1, loss 0; ranked by match wins, points, \
         game difference, then a shared rank)"
    ));
    assert!(text.contains(
        "    2  Daudi     2        1  0  1  1           4-1-3        +1   3       tie-break: \
         match wins"
    ));
    let (code, csv, _) = run_drafti(&["standings", "--format", "tzdraft", "--csv", ROUND_ROBIN]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("event,format,stage,group,rank,player,played,won"));
    assert_eq!(
        lines[1..],
        [
            "TzDraft Ligi,tzdraft,round-robin,,1,Amina,3,2,0,1,3,2,1,6,,,,,",
            "TzDraft Ligi,tzdraft,round-robin,,2,Daudi,2,1,0,1,4,3,1,3,,,match_wins,,",
            "TzDraft Ligi,tzdraft,round-robin,,3,Bakari,2,1,0,1,3,4,-1,3,,,game_difference,,",
            "TzDraft Ligi,tzdraft,round-robin,,3,Chausiku,3,1,0,2,3,4,-1,3,,,shared,,",
        ]
    );
    let (code, text, _) = run_drafti(&["standings", "--format", "tzdraft", KNOCKOUT]);
    assert_eq!(code, 0);
    assert!(text.contains("    Final\n      Match 3: Amina – Chausiku: 2-0; Amina wins\n"));
    assert!(
        text.ends_with("  Champion: Amina\n  Still in: Amina\n"),
        "{text}"
    );
    let (code, csv, _) = run_drafti(&["standings", "--format", "tzdraft", "--csv", KNOCKOUT]);
    assert_eq!(code, 0);
    assert_eq!(
        csv.lines().nth(1),
        Some("TzDraft Kombe,tzdraft,knockout,Final,1,Amina,2,2,0,0,4,0,4,,,,,,")
    );
}

#[test]
fn the_html_page_has_the_table_and_deadline_passed_needs_the_format() {
    let scratch = temp_dir("standings-tzdraft-html");
    let dir = scratch.path();
    let out = dir.join("ligi.html");
    let out = out.to_str().unwrap();
    let (code, _, _) = run_drafti(&[
        "standings",
        "--format",
        "tzdraft",
        "--html",
        out,
        ROUND_ROBIN,
    ]);
    assert_eq!(code, 0);
    let html = std::fs::read_to_string(out).unwrap();
    assert!(html.contains(
        "<h3>Round robin (TzDraft: match win 3, draw 1, loss 0; ranked by match wins, points, \
         game difference, then a shared rank)</h3>"
    ));
    assert!(html.contains("<td>Daudi</td>"));
    assert!(html.contains("unfinished_match: Bakari – Daudi: unfinished"));
    let (code, _, stderr) = run_drafti(&["standings", "--deadline-passed", ROUND_ROBIN]);
    assert_eq!(code, 2);
    assert_eq!(stderr, "drafti: --deadline-passed needs --format tzdraft\n");
}

#[test]
fn odd_tags_give_warnings_not_panics() {
    // A game without Black, one with the same player on both sides, Rounds that are text or
    // empty parts: each is a warning or a match of its own, never a crash.
    let scratch = temp_dir("standings-tzdraft-odd");
    let dir = scratch.path();
    let path = dir.join("odd.pdn");
    let game = |round: &str, white: &str, black: &str, result: &str| {
        format!(
            "[Event \"Odd\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n1. c3-d4 f6-g5 {result}\n\n"
        )
    };
    let text = [
        game("1.1", "Amina", "?", "1-0"),
        game("1.1", "Amina", "Amina", "1-0"),
        game(".", "Amina", "Bakari", "*"),
        game("final.x", "Amina", "Bakari", "0-1"),
        game("..2", "Bakari", "Amina", "1-0"),
    ]
    .concat();
    std::fs::write(&path, text).unwrap();
    let e = event(&[path.to_str().unwrap()], 1);
    let kinds: Vec<&str> = e["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"missing_player"), "{kinds:?}");
    assert!(kinds.contains(&"unfinished_match"), "{kinds:?}");
}
