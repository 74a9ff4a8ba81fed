//! `drafti standings` without `--format` on archives that are not knockouts, and the groups
//! file checked against the games. `ussr-1950-round-robin-4.pdn` is the six games among four
//! players of the X USSR championship (1950), a round robin of Russian draughts: games 1, 2,
//! 5, 8, 112 and 114 of `shared/corpora/russian-ussr-championship-x-153games.pdn`
//! (github.com/wiegerw/pdn at e8fd04c7, games/succeed/ussr1947.pdn), byte for byte.

use drafti_tests::{run_drafti, temp_dir};
use serde_json::Value;

const ROUND_ROBIN: &str = "fixtures/standings/ussr-1950-round-robin-4.pdn";
const CHAMPIONSHIP: &str = "fixtures/standings/championship.pdn";
const GROUPS: &str = "fixtures/standings/championship-groups.txt";

/// `drafti standings ARGS --json`: the Events, after checking the exit code.
fn events(args: &[&str], code: i32) -> Vec<Value> {
    let mut all = vec!["standings", "--json"];
    all.extend_from_slice(args);
    let (status, stdout, stderr) = run_drafti(&all);
    assert_eq!(status, code, "stderr: {stderr}");
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

#[test]
fn a_round_robin_is_recognised_and_ranked_by_points_then_sonneborn_berger() {
    // Before: "knockout, 4 players, 6 matches", each match undecided after its one game.
    let e = events(&["--variant", "russian", ROUND_ROBIN], 0).remove(0);
    assert_eq!(e["format"], "round_robin");
    assert_eq!(e["recognised"], "every pair of the 4 players met once");
    assert_eq!(e["matches"], serde_json::json!([]));
    // Блиндер beat Миротин and drew with the other two: 2 points; Коган and Коршунов drew
    // their three: 1.5; Миротин 1. Sonneborn-Berger: Блиндер 1 (Миротин's points) + 1.5/2
    // + 1.5/2 = 2.5; Коган and Коршунов each 1.5/2 + 2/2 + 1/2 = 2.25, no game won either:
    // a shared second place; Миротин 1.5/2 + 1.5/2 = 1.5.
    let rows: Vec<(u64, &str, f64, f64, &str)> = e["round_robin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["name"].as_str().unwrap(),
                r["points"].as_f64().unwrap(),
                r["sonneborn_berger"].as_f64().unwrap(),
                r["tiebreak"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "Блиндер Б.", 2.0, 2.5, "-"),
            (2, "Коган М", 1.5, 2.25, "points"),
            (2, "Коршунов Д.", 1.5, 2.25, "shared"),
            (4, "Миротин Б.", 1.0, 1.5, "points"),
        ]
    );
    let (code, text, _) = run_drafti(&["standings", "--variant", "russian", ROUND_ROBIN]);
    assert_eq!(code, 0);
    assert!(text.starts_with(
        "Event: X чемпионат СССР (round-robin, 4 players, 6 games)\n  laws: every game counts: \
         a win 1 point, a draw 1/2\n  format: round-robin, recognised: every pair of the 4 \
         players met once (--format gives another)\n"
    ));
    assert!(
        text.contains("    1  Блиндер Б.   3      1  2  0  2       2.5\n"),
        "{text}"
    );
    // Asked for the article's matches, the Event is read as a knockout, and told it is not.
    let e = events(
        &["--variant", "russian", "--format", "matches", ROUND_ROBIN],
        1,
    )
    .remove(0);
    assert_eq!(e["format"], "knockout");
    assert_eq!(e["warnings"][0]["kind"], "not_a_knockout");
    assert!(e["warnings"][0]["message"]
        .as_str()
        .unwrap()
        .contains("6 pairs of the 4 players met, but a knockout of 4 players has at most 3 matches: --format round-robin fits"));
    // The CSV has the table's rows.
    let (code, csv, _) = run_drafti(&["standings", "--variant", "russian", "--csv", ROUND_ROBIN]);
    assert_eq!(code, 0);
    assert!(csv
        .contains("X чемпионат СССР,round-robin,round-robin,,1,Блиндер Б.,3,1,2,0,,,,2,,,,,2.5\n"));
}

#[test]
fn games_of_more_pairs_than_a_knockout_and_fewer_than_a_round_robin_are_swiss() {
    // Six players, three rounds: nine pairs, more than a knockout's five matches.
    let e = events(&["fixtures/standings/swiss.pdn"], 0).remove(0);
    assert_eq!(e["format"], "swiss");
    assert_eq!(
        e["recognised"],
        "9 pairs of the 6 players met: more than a knockout's 5 matches, fewer than a round \
         robin's 15"
    );
    // A knockout stays a knockout, with nothing said.
    let e = events(&["fixtures/standings/knockout8.pdn"], 0).remove(0);
    assert_eq!(e["format"], "knockout");
    assert!(e.get("recognised").is_none());
}

/// The groups file with `from` replaced by `to`, in a fresh folder (removed when the returned
/// guard drops), and its path.
fn groups_file(name: &str, from: &str, to: &str) -> (tempfile::TempDir, String) {
    let text = std::fs::read_to_string(format!("{}/{GROUPS}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace(from, to);
    let scratch = temp_dir("standings-groups");
    let path = scratch.path().join(name);
    std::fs::write(&path, text).unwrap();
    (scratch, path.to_string_lossy().into_owned())
}

#[test]
fn a_groups_file_name_no_game_has_and_a_player_in_no_group_are_named() {
    let args = |groups: &str| -> Vec<String> {
        [
            "--format",
            "groups+knockout",
            "--groups",
            groups,
            CHAMPIONSHIP,
        ]
        .map(String::from)
        .to_vec()
    };
    let right = args(GROUPS);
    let right: Vec<&str> = right.iter().map(String::as_str).collect();
    // The fixture has games recorded after their match was decided: exit 1 throughout.
    let good = events(&right, 1).remove(0);
    // A typing slip: before, a phantom Amnia, Bakari qualified, 0 warnings, exit 0.
    let (_typo_dir, typo) = groups_file("typo.txt", "Amina", "Amnia");
    let typo = args(&typo);
    let typo: Vec<&str> = typo.iter().map(String::as_str).collect();
    let e = events(&typo, 1).remove(0);
    let warnings: Vec<(&str, &str)> = e["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|w| (w["kind"].as_str().unwrap(), w["message"].as_str().unwrap()))
        .collect();
    assert_eq!(warnings[0].0, "unknown_group_player");
    assert!(
        warnings[0].1.starts_with(
            "the groups file puts Amnia in group A, but no game of this Event has that player"
        ),
        "{warnings:?}"
    );
    assert_eq!(warnings[1].0, "ungrouped_player");
    assert!(
        warnings[1]
            .1
            .starts_with("Amina plays in this Event (fixtures/standings/championship.pdn game 1"),
        "{warnings:?}"
    );
    // Another case is the same player: the same standings as the right file.
    let (_lower_dir, lower) = groups_file("lower.txt", "Amina", "aMINA");
    let lower = args(&lower);
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    assert_eq!(events(&lower, 1).remove(0), good);
}

#[test]
fn names_with_commas_are_written_in_quotes_in_the_groups_file() {
    let scratch = temp_dir("standings-commas");
    let dir = scratch.path();
    // The winner of a game starts the next: Black starts game 2.
    let game = |round: &str, white: &str, black: &str, result: &str, moves: &str| {
        format!(
            "[Event \"Cup\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    };
    let (white_first, black_first) = ("1. c3-d4 f6-g5", "1... f6-g5 2. c3-d4");
    let pdn = [
        game("1", "Juma, Amina", "Said, Bakari", "1-0", white_first),
        game("2", "Said, Bakari", "Juma, Amina", "1/2-1/2", black_first),
        game("3", "Kiko, Daudi", "Mosi, Eliya", "0-1", white_first),
        game("4", "Mosi, Eliya", "Kiko, Daudi", "0-1", white_first),
    ]
    .concat();
    let archive = dir.join("cup.pdn");
    std::fs::write(&archive, pdn).unwrap();
    let groups = dir.join("groups.txt");
    std::fs::write(
        &groups,
        "Group A: \"Juma, Amina\", \"Said, Bakari\"\nGroup B: \"Kiko, Daudi\", \"Mosi, Eliya\"\n",
    )
    .unwrap();
    let e = events(
        &[
            "--groups",
            groups.to_str().unwrap(),
            "--variant",
            "tz",
            archive.to_str().unwrap(),
        ],
        0,
    )
    .remove(0);
    assert_eq!(e["format"], "groups");
    assert_eq!(e["warnings"], serde_json::json!([]));
    let first: Vec<&str> = e["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["rows"][0]["name"].as_str().unwrap())
        .collect();
    // Amina won a game and drew the other: her match, first in group A. Daudi and Eliya won
    // one each: a drawn match, level on everything, listed by name.
    assert_eq!(first, ["Juma, Amina", "Kiko, Daudi"]);
}

#[test]
fn csv_cells_that_a_spreadsheet_would_run_as_formulas_are_quoted() {
    let pdn = "[Event \"=HYPERLINK(\\\"http://x\\\")\"]\n[White \"=1+1\"]\n[Black \"@SUM(A1)\"]\n\
               [Result \"1-0\"]\n\n1. c3-d4 f6-g5 1-0\n";
    let output = drafti_tests::drafti()
        .args(["standings", "--csv", "--variant", "tz", "-"])
        .write_stdin(pdn)
        .output()
        .unwrap();
    let csv = String::from_utf8(output.stdout).unwrap();
    // Before: `=HYPERLINK(...)` and `=1+1` as they are, run by the spreadsheet.
    assert_eq!(
        csv.lines().skip(1).collect::<Vec<_>>(),
        [
            "\"'=HYPERLINK(\"\"http://x\"\")\",matches,,\"'=1+1\",,,,1,0,0,1,1,0,0,1,1",
            "\"'=HYPERLINK(\"\"http://x\"\")\",matches,,\"'@SUM(A1)\",,,,1,0,0,1,0,0,1,0,0",
        ]
    );
}
