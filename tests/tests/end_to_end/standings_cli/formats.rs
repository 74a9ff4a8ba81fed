//! `drafti standings --format groups|groups+knockout|swiss` on the hand-made archives
//! `league.pdn` (four groups by Group tags, each showing a tie-break rule),
//! `championship.pdn` with `championship-groups.txt` (two groups of three, then semi-finals
//! and a final) and `swiss.pdn` (three rounds of six players). Every expected value is worked
//! out by hand in the comments.

use drafti_tests::{run_drafti, temp_dir};
use serde_json::Value;

const LEAGUE: &str = "fixtures/standings/league.pdn";
const CHAMPIONSHIP: &str = "fixtures/standings/championship.pdn";
const GROUPS: &str = "fixtures/standings/championship-groups.txt";
const SWISS: &str = "fixtures/standings/swiss.pdn";

/// `drafti standings ARGS --json`: the one Event, after checking the exit code.
fn event(args: &[&str], code: i32) -> Value {
    let mut all = vec!["standings", "--json"];
    all.extend_from_slice(args);
    let (status, stdout, stderr) = run_drafti(&all);
    assert_eq!(status, code, "stderr: {stderr}");
    serde_json::from_str(stdout.lines().next().expect("one Event")).expect("JSON")
}

/// A group's rows as (rank, name, points, goal difference, goals for, tie-break).
fn rows(group: &Value) -> Vec<(u64, String, u64, i64, u64, String)> {
    group["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["name"].as_str().unwrap().to_string(),
                r["points"].as_u64().unwrap(),
                r["goal_difference"].as_i64().unwrap(),
                r["goals_for"].as_u64().unwrap(),
                r["tiebreak"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect()
}

fn row(
    rank: u64,
    name: &str,
    pts: u64,
    gd: i64,
    gf: u64,
    tb: &str,
) -> (u64, String, u64, i64, u64, String) {
    (rank, name.to_string(), pts, gd, gf, tb.to_string())
}

#[test]
fn group_tables_break_ties_by_points_goal_difference_goals_for_head_to_head() {
    let e = event(&["--format", "groups", LEAGUE], 0);
    assert_eq!(e["format"], "groups");
    assert_eq!(
        e["table_rules"]["tiebreaks"],
        serde_json::json!(["points", "goal_difference", "goals_for", "head_to_head"])
    );
    let groups = e["groups"].as_array().expect("groups");
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
    // A: Bakari, Chausiku and Daudi beat each other 1-0 in a cycle and Amina 2-0: 6 pts,
    // 3-1 each; their mini-table is level too (3 pts, 1-1 each): a shared first place.
    assert_eq!(
        rows(&groups[0]),
        [
            row(1, "Bakari", 6, 2, 3, "-"),
            row(1, "Chausiku", 6, 2, 3, "shared"),
            row(1, "Daudi", 6, 2, 3, "shared"),
            row(4, "Amina", 0, -6, 0, "points"),
        ]
    );
    // B: Eliya wins all (9); Fatuma and Gift 4 pts, Fatuma 3-2 (+1), Gift 2-2 (0).
    assert_eq!(
        rows(&groups[1]),
        [
            row(1, "Eliya", 9, 4, 4, "-"),
            row(2, "Fatuma", 4, 1, 3, "points"),
            row(3, "Gift", 4, 0, 2, "goal_difference"),
            row(4, "Halima", 0, -5, 0, "points"),
        ]
    );
    // C: Kassim 5; Idd (1-1, 1-1, 0-0) and Jabiri (0-0, 1-1, 0-0) 3 pts, GD 0: 2 goals to 1.
    assert_eq!(
        rows(&groups[2]),
        [
            row(1, "Kassim", 5, 2, 4, "-"),
            row(2, "Idd", 3, 0, 2, "points"),
            row(3, "Jabiri", 3, 0, 1, "goals_for"),
            row(4, "Lulu", 2, -2, 1, "points"),
        ]
    );
    // D: Mosi and Neema 6 pts, 3-1 each; Mosi beat Neema 1-0. Omari 6 pts, 2-1 (+1).
    assert_eq!(
        rows(&groups[3]),
        [
            row(1, "Mosi", 6, 2, 3, "-"),
            row(2, "Neema", 6, 2, 3, "head_to_head"),
            row(3, "Omari", 6, 1, 2, "goal_difference"),
            row(4, "Pili", 0, -5, 0, "points"),
        ]
    );
    // No knock-out in `groups`: nobody is marked as qualified.
    assert!(groups[0]["rows"][0]["qualified"] == false);
    // A level group match is a drawn match.
    let drawn = &e["matches"][9];
    assert_eq!(
        (
            drawn["players"].clone(),
            drawn["status"].clone(),
            drawn["law"].clone()
        ),
        (
            serde_json::json!(["Fatuma", "Gift"]),
            "drawn".into(),
            "two_games".into()
        )
    );
}

#[test]
fn match_points_can_be_configured() {
    // Win 2, draw 1: Kassim (1 win, 2 draws) 4, Idd (3 draws) 3, Lulu 2.
    let e = event(&["--format", "groups", "--points", "2,1,0", LEAGUE], 0);
    let c: Vec<(String, u64)> = rows(&e["groups"][2])
        .into_iter()
        .map(|r| (r.1, r.2))
        .collect();
    assert_eq!(
        c,
        [
            ("Kassim".into(), 4),
            ("Idd".into(), 3),
            ("Jabiri".into(), 3),
            ("Lulu".into(), 2)
        ]
    );
    let (code, _, stderr) = run_drafti(&["standings", "--points", "3,1", LEAGUE]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("expected three numbers up to 1000: win,draw,loss"),
        "{stderr}"
    );
}

#[test]
fn without_format_group_tags_make_groups_and_matches_keep_the_knockout() {
    // The same archive without --format: its Group tags make the group tables.
    let e = event(&[LEAGUE], 0);
    assert_eq!(e["format"], "groups");
    assert_eq!(e["recognised"], "the players are in groups");
    assert_eq!(e["groups"].as_array().map(Vec::len), Some(4));
    // --format matches reads it as the article's knockout, and says the pairings cannot be
    // one: 24 pairs of 16 players, where a knockout has 15 matches.
    let e = event(&["--format", "matches", LEAGUE], 1);
    assert_eq!(e["format"], "knockout");
    assert!(e.get("groups").is_none() && e.get("table_rules").is_none());
    let first = &e["warnings"][0];
    assert_eq!(first["kind"], "not_a_knockout");
    assert_eq!(
        first["message"],
        "24 pairs of the 16 players met, but a knockout of 16 players has at most 15 matches: \
         --format swiss fits (without --format, each Event's format is recognised)"
    );
}

#[test]
fn groups_then_a_knock_out_decided_by_tege() {
    let e = event(
        &[
            "--format",
            "groups+knockout",
            "--groups",
            GROUPS,
            "--tiebreak",
            "tege",
            CHAMPIONSHIP,
        ],
        0,
    );
    assert_eq!(e["format"], "groups_knockout");
    // Group A: Amina 6; Chausiku and Bakari drew 1-1, Amina beat Bakari 2-0 but Chausiku
    // only 1-0: Chausiku -1, Bakari -2. Group B: Daudi +2, Eliya +1 (both 4 pts).
    let qualified = |g: &Value| -> Vec<String> {
        g["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["qualified"] == true)
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(qualified(&e["groups"][0]), ["Amina", "Chausiku"]);
    assert_eq!(qualified(&e["groups"][1]), ["Daudi", "Eliya"]);
    // Semi-finals: Amina – Eliya 1-1, then Amina wins both tie-break games (after 4);
    // Daudi – Chausiku 1-1, 1-1, then tege 1-2 with a draw (after 8). The final (a Stage
    // tag: Amina and Chausiku are both of group A): 0-0, 1-1, 2-2, a drawn golden-goal game,
    // then Chausiku scores (after 10).
    let bracket = &e["bracket"];
    /// A round: its name, and each match's number, winner and games played.
    type Round = (String, Vec<(u64, String, u64)>);
    let rounds: Vec<Round> = bracket["rounds"]
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
                            m["decided_after"].as_u64().unwrap(),
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
                vec![(7, "Amina".to_string(), 4), (8, "Chausiku".to_string(), 8)]
            ),
            ("Final".to_string(), vec![(9, "Chausiku".to_string(), 10)]),
        ]
    );
    assert_eq!(bracket["champion"], "Chausiku");
    let stages: Vec<&str> = e["matches"][8]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["stage"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        stages,
        [
            "-",
            "-",
            "tie-break",
            "tie-break",
            "tege",
            "tege",
            "tege",
            "tege",
            "golden goal",
            "golden goal"
        ]
    );
}

#[test]
fn without_tege_the_knock_out_keeps_sudden_death_limboti() {
    // Amina – Eliya: 1-1, then Amina wins the first limboti: decided after 3; the fourth
    // game is reported as played after the decision (a violation: exit 1).
    let e = event(
        &[
            "--format",
            "groups+knockout",
            "--groups",
            GROUPS,
            CHAMPIONSHIP,
        ],
        1,
    );
    let semi = &e["bracket"]["rounds"][0]["matches"][0];
    assert_eq!(
        (semi["winner"].as_str(), semi["decided_after"].as_u64()),
        (Some("Amina"), Some(3))
    );
    assert_eq!(e["warnings"][0]["kind"], "game_after_decision");
}

#[test]
fn groups_and_knock_out_as_text_and_csv() {
    let args = [
        "standings",
        "--format",
        "groups+knockout",
        "--groups",
        GROUPS,
        "--tiebreak",
        "tege",
    ];
    let (code, stdout, _) = run_drafti(&[&args[..], &[CHAMPIONSHIP]].concat());
    assert_eq!(code, 0);
    let tail: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("  Group B"))
        .collect();
    assert_eq!(
        tail.join("\n"),
        "  Group B (win 3, draw 1, loss 0; ranked by points, goal difference, goals for, head to head, then a shared rank; 2 qualify)
    #  player  P  W  D  L  GF  GA  GD  Pts
    1  Daudi   2  1  1  0  3   1   +2  4    qualified
    2  Eliya   2  1  1  0  2   1   +1  4    qualified, tie-break: goal difference
    3  Fatuma  2  0  0  2  0   3   -3  0

  Knock-out
    Semi-finals
      Match 7: Amina – Eliya: 3-1; Amina wins
      Match 8: Daudi – Chausiku: 3-4; Chausiku wins
    Final
      Match 9: Amina – Chausiku: 3-4; Chausiku wins
  Champion: Chausiku"
    );
    assert!(stdout.contains(
        "  Match 9: Amina – Chausiku: 3-4, 3 drawn; goals 3-4; Chausiku wins after 10 games (golden goal)\n"
    ));
    assert!(stdout.contains(
        "    5 tege       fixtures/standings/championship.pdn #21  8.5    Daudi – Chausiku  0-1"
    ));
    let (code, csv, _) = run_drafti(&[&args[..], &["--csv", CHAMPIONSHIP]].concat());
    assert_eq!(code, 0);
    assert_eq!(
        csv,
        "event,format,stage,group,rank,player,played,won,drawn,lost,goals_for,goals_against,goal_difference,points,buchholz,buchholz_cut1,tiebreak,qualified,sonneborn_berger
Tanzania Championship 2023,groups+knockout,group,A,1,Amina,2,2,0,0,3,0,3,6,,,,true,
Tanzania Championship 2023,groups+knockout,group,A,2,Chausiku,2,0,1,1,1,2,-1,1,,,points,true,
Tanzania Championship 2023,groups+knockout,group,A,3,Bakari,2,0,1,1,1,3,-2,1,,,goal_difference,false,
Tanzania Championship 2023,groups+knockout,group,B,1,Daudi,2,1,1,0,3,1,2,4,,,,true,
Tanzania Championship 2023,groups+knockout,group,B,2,Eliya,2,1,1,0,2,1,1,4,,,goal_difference,true,
Tanzania Championship 2023,groups+knockout,group,B,3,Fatuma,2,0,0,2,0,3,-3,0,,,points,false,
Tanzania Championship 2023,groups+knockout,knockout,Final,1,Chausiku,2,2,0,0,8,6,2,,,,,,
Tanzania Championship 2023,groups+knockout,knockout,Final,2,Amina,2,1,0,1,6,5,1,,,,,,
Tanzania Championship 2023,groups+knockout,knockout,Semi-finals,3,Daudi,1,0,0,1,3,4,-1,,,,,,
Tanzania Championship 2023,groups+knockout,knockout,Semi-finals,3,Eliya,1,0,0,1,1,3,-2,,,,,,
"
    );
}

#[test]
fn swiss_results_ranked_by_points_then_buchholz() {
    // Points: Amina 2.5; Fatuma and Daudi 2; Chausiku 1.5; Bakari and Eliya 0.5.
    // Buchholz: Fatuma (Eliya 0.5 + Amina 2.5 + Daudi 2) 5 before Daudi (Chausiku 1.5 +
    // Eliya 0.5 + Fatuma 2) 4; Bakari and Eliya 4.5 each, cut-1 4 each: shared.
    let (code, stdout, stderr) = run_drafti(&["standings", "--format", "swiss", SWISS]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "Event: Arusha Open (swiss, 6 players, 9 games)
  laws: every game is a round's pairing: a win 1 point, a draw 1/2

  Ranking (win 1, draw 1/2 a game; ranked by points, Buchholz, Buchholz cut-1, then a shared rank)
    #  player    games  W  D  L  points  Buchholz  cut-1
    1  Amina     3      2  1  0  2.5     4         3.5
    2  Fatuma    3      1  2  0  2       5         4.5
    3  Daudi     3      1  2  0  2       4         3.5    tie-break: Buchholz
    4  Chausiku  3      1  1  1  1.5     5         4.5
    5  Bakari    3      0  1  2  0.5     4.5       4
    5  Eliya     3      0  1  2  0.5     4.5       4      shared rank
"
    );
    assert_eq!(
        stderr,
        "9 games and 0 matches in 1 event; 0 warnings (0 violations)\n"
    );
    let e = event(&["--format", "swiss", SWISS], 0);
    assert_eq!(e["swiss"][0]["points"], 2.5);
    assert_eq!(e["swiss"][1]["buchholz_cut1"], 4.5);
}

#[test]
fn bad_groups_files_are_named_with_their_line() {
    let scratch = temp_dir("standings-groups");
    let dir = scratch.path();
    let cases = [
        (
            "Group A: Amina, Bakari\nAmina, Chausiku\n",
            "2: expected `Group NAME: player, player, ...`",
        ),
        (
            "Group A: Amina\nGroup B: Bakari, Amina\n",
            "2: Amina is already in group A",
        ),
        (
            "# nothing\n",
            "1: no groups: expected lines `Group NAME: player, player, ...`",
        ),
        ("Group A: Amina,\n", "1: an empty player name in group A"),
    ];
    for (n, (text, error)) in cases.iter().enumerate() {
        let path = dir.join(format!("g{n}.txt"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let (code, stdout, stderr) =
            run_drafti(&["standings", "--format", "groups", "--groups", path, LEAGUE]);
        assert_eq!((code, stdout.as_str()), (2, ""));
        assert_eq!(stderr, format!("drafti: {path}:{error}\n"));
    }
    let (code, _, stderr) =
        run_drafti(&["standings", "--format", "swiss", "--groups", GROUPS, LEAGUE]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "drafti: --groups needs --format groups or --format groups+knockout (or no --format)\n"
    );
    let (code, _, stderr) = run_drafti(&["standings", "--format", "cup", LEAGUE]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "expected one of matches, knockout, round-robin, groups, groups+knockout, swiss"
        ),
        "{stderr}"
    );
}

#[test]
fn the_html_page_has_the_group_tables_and_the_tree() {
    let scratch = temp_dir("standings-html");
    let dir = scratch.path();
    let out = dir.join("cup.html");
    let out = out.to_str().unwrap();
    let (code, stdout, _) = run_drafti(&[
        "standings",
        "--format",
        "groups+knockout",
        "--groups",
        GROUPS,
        "--tiebreak",
        "tege",
        "--html",
        out,
        CHAMPIONSHIP,
    ]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("Event: Tanzania Championship 2023"));
    let html = std::fs::read_to_string(out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.ends_with("</html>\n"));
    assert!(html.contains("<h3>Group A (win 3, draw 1, loss 0; ranked by points, goal difference, goals for, head to head, then a shared rank; 2 qualify)</h3>"));
    assert!(html.contains("<tr><td>1</td><td>Amina</td><td class=\"r\">2</td><td class=\"r\">2</td><td class=\"r\">0</td><td class=\"r\">0</td><td class=\"r\">3</td><td class=\"r\">0</td><td class=\"r\">+3</td><td class=\"r\">6</td><td>qualified</td></tr>"));
    assert!(html.contains(
        "<section><h3>Final</h3><div class=\"ms\"><div class=\"m\">Amina 3<br/><b>Chausiku</b> 4"
    ));
    assert!(html.contains("Champion: <b>Chausiku</b>"));
    // A write error is an error (exit 2); stdout cannot be the page.
    let (code, _, stderr) = run_drafti(&["standings", "--html", "-", LEAGUE]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "drafti: --html -: stdout carries the standings; give --html a file name\n"
    );
    let (code, _, stderr) = run_drafti(&["standings", "--html", "/dev/full", LEAGUE]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("drafti: cannot write /dev/full: "),
        "{stderr}"
    );
}

#[test]
fn a_shared_last_qualifying_place_is_not_decided_by_the_tables() {
    // league.pdn has no knock-out games. With one qualifier a group, group A's first place
    // is shared by three: none is marked, and the text says why; group B's Eliya qualifies.
    let args = [
        "standings",
        "--format",
        "groups+knockout",
        "--qualifiers",
        "1",
        LEAGUE,
    ];
    let (code, stdout, _) = run_drafti(&args);
    assert_eq!(code, 0);
    let group_a: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("  Group A"))
        .take(7)
        .collect();
    assert_eq!(
        group_a.join("\n"),
        "  Group A (win 3, draw 1, loss 0; ranked by points, goal difference, goals for, head to head, then a shared rank; 1 qualifies)
    #  player    P  W  D  L  GF  GA  GD  Pts
    1  Bakari    3  2  0  1  3   1   +2  6
    1  Chausiku  3  2  0  1  3   1   +2  6    shared rank
    1  Daudi     3  2  0  1  3   1   +2  6    shared rank
    4  Amina     3  0  0  3  0   6   -6  0
    the last qualifying place is a shared rank: the tables cannot tell who goes through (those players are not marked)"
    );
    assert!(stdout.contains("    1  Eliya   3  3  0  0  4   0   +4  9    qualified\n"));
    assert!(stdout.ends_with(
        "  Knock-out\n    no knock-out matches yet\n  Champion: none yet (no decided final)\n"
    ));
    let e = event(&args[1..], 0);
    assert_eq!(e["groups"][0]["tie_at_cut"], true);
    assert_eq!(e["table_rules"]["qualifiers"], 1);
}

#[test]
fn control_characters_in_group_names_are_shown_visibly() {
    // A Group tag with an escape sequence: the text shows it as \x1b, the HTML as U+FFFD.
    let scratch = temp_dir("standings-control");
    let dir = scratch.path();
    let pdn = dir.join("control.pdn");
    let game = |round: &str, white: &str, black: &str, moves: &str, result: &str| {
        format!(
            "[Event \"E\"]\n[Round \"{round}\"]\n[Group \"A\u{1b}[31m\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    };
    // Amina wins game 1 and, as its winner, starts game 2 with Black.
    std::fs::write(
        &pdn,
        game("1", "Amina", "Bakari", "1. c3-d4 f6-g5", "1-0")
            + &game("2", "Bakari", "Amina", "1... f6-g5 2. c3-d4", "0-1"),
    )
    .unwrap();
    let html = dir.join("control.html");
    let (code, stdout, _) = run_drafti(&[
        "standings",
        "--format",
        "groups",
        "--html",
        html.to_str().unwrap(),
        pdn.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("  Group A\\x1b[31m (win 3, draw 1, loss 0;"),
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h3>Group A\u{fffd}[31m (win 3"));
    assert_eq!(code, 0);
}
