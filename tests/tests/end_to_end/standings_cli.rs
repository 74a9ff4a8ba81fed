//! End-to-end tests of `drafti standings` on the hand-made archives in
//! `tests/fixtures/standings/` (real legal Tanzanian games; the Result tags decide). Every
//! expected standing is worked out by hand in the comments.

use drafti_tests::drafti;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/standings/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `drafti standings ARGS FILES --json` (files from the fixtures), checks the exit
/// code, returns one JSON value per Event.
fn standings_json(files: &[&str], args: &[&str], code: i32) -> Vec<Value> {
    let output = drafti()
        .arg("standings")
        .args(files.iter().map(|f| fixture(f)))
        .args(args)
        .arg("--json")
        .output()
        .expect("drafti runs");
    assert_eq!(
        output.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_str().expect("string").to_string())
        .collect()
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("number"))
        .collect()
}

#[test]
fn two_nil_match() {
    // Amina wins game 1 (White, she starts) and game 2 (she has Black and starts: the winner
    // starts; a Black-first record). 2-0 after two games: decided, Amina wins, no limboti,
    // 2 goals to 0, no warning, exit 0.
    let events = standings_json(&["two-nil.pdn"], &[], 0);
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(e["event"], "Dar Club Night");
    assert_eq!(e["format"], "matches");
    assert_eq!(e["knockout"], Value::Null);
    let m = &e["matches"][0];
    assert_eq!(strings(&m["players"]), ["Amina", "Bakari"]);
    assert_eq!(numbers(&m["score"]), [2, 0]);
    assert_eq!(numbers(&m["goals"]), [2, 0]);
    assert_eq!(m["status"], "decided");
    assert_eq!(m["winner"], "Amina");
    assert_eq!(m["loser"], "Bakari");
    assert_eq!(m["decided_after"], 2);
    assert_eq!(m["limboti"], 0);
    assert_eq!(m["games"][1]["first_mover"], "black");
    assert_eq!(m["games"][1]["started_by"], "Amina");
    assert_eq!(e["warnings"], Value::Array(vec![]));
}

#[test]
fn one_all_then_limboti() {
    // g1 Amina (started) wins; g2 Amina starts, Bakari wins: 1-1, limboti. g3 Bakari starts
    // (winner of g2), drawn. g4 Amina starts (she did not start the drawn g3); Bakari wins:
    // the first won limboti decides. Bakari wins after 4 games (2 limboti), score
    // Amina 1 – Bakari 2 with 1 draw.
    let events = standings_json(&["limboti.pdn"], &[], 0);
    let m = &events[0]["matches"][0];
    assert_eq!(strings(&m["players"]), ["Amina", "Bakari"]);
    assert_eq!(numbers(&m["score"]), [1, 2]);
    assert_eq!(m["draws"], 1);
    assert_eq!(m["limboti"], 2);
    assert_eq!(m["decided_after"], 4);
    assert_eq!(m["winner"], "Bakari");
    assert_eq!(events[0]["warnings"], Value::Array(vec![]));
}

#[test]
fn a_draw_then_the_correct_starter() {
    // g1 drawn, started by Amina (White). Bakari, who did not start it, starts g2 with Black
    // (the record begins with a Black move) and wins. No warning; 0-1 after two games, so
    // the match is undecided until limboti.
    let events = standings_json(&["draw-starter.pdn"], &[], 0);
    let e = &events[0];
    let m = &e["matches"][0];
    assert_eq!(m["games"][0]["started_by"], "Amina");
    assert_eq!(m["games"][1]["started_by"], "Bakari");
    assert_eq!(m["games"][1]["first_mover"], "black");
    assert_eq!(m["status"], "undecided");
    assert_eq!(
        m["undecided_reason"],
        "0-1 after two games: limboti must follow"
    );
    assert_eq!(e["warnings"], Value::Array(vec![]));
}

#[test]
fn a_start_order_violation_is_reported_with_its_games() {
    // Amina wins g1, so she must start g2; Bakari (White in g2) starts it. One start_order
    // warning naming games 1 and 2 of the file; exit 1. The result stands: Amina 2-0.
    let events = standings_json(&["start-violation.pdn"], &[], 1);
    let e = &events[0];
    let w = &e["warnings"][0];
    assert_eq!(e["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(w["kind"], "start_order");
    let games: Vec<u64> = w["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [1, 2]);
    assert!(w["message"]
        .as_str()
        .unwrap()
        .contains("Bakari started, but Amina should have"));
    assert_eq!(e["matches"][0]["winner"], "Amina");

    // Under the loser-starts house rule Bakari (loser of g1) was right to start: exit 0.
    let events = standings_json(&["start-violation.pdn"], &["--loser-starts"], 0);
    assert_eq!(events[0]["warnings"], Value::Array(vec![]));

    // In text mode the warning is printed with the tables.
    let output = drafti()
        .current_dir(format!("{}/fixtures/standings", env!("CARGO_MANIFEST_DIR")))
        .args(["standings", "start-violation.pdn"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains(
        "  Warnings\n    start_order: start-violation.pdn game 2 (round 2): Bakari started, but \
         Amina should have: Amina won the previous game and the winner starts \
         (start-violation.pdn game 1 (round 1))\n"
    ));
}

#[test]
fn a_supa_win_counts_twelve_goals() {
    // g1: Amina wins with no king ever on the board: a supa. g2 (from a FEN set-up) Amina
    // crowns a man on move 1, then wins: not a supa. With --supa Amina has 12 + 1 = 13
    // goals; without, 1 + 1 = 2. Either way the match is 2-0 and she has 1 supa win.
    let events = standings_json(&["supa.pdn"], &["--supa"], 0);
    let m = &events[0]["matches"][0];
    assert_eq!(numbers(&m["goals"]), [13, 0]);
    assert_eq!(numbers(&m["score"]), [2, 0]);
    assert_eq!(m["games"][0]["king_appeared"], false);
    assert_eq!(m["games"][0]["supa"], true);
    assert_eq!(m["games"][0]["goals"], 12);
    assert_eq!(m["games"][1]["king_appeared"], true);
    assert_eq!(m["games"][1]["supa"], false);
    assert_eq!(m["games"][1]["goals"], 1);
    assert_eq!(events[0]["players"][0]["name"], "Amina");
    assert_eq!(events[0]["players"][0]["goals"], 13);
    assert_eq!(events[0]["players"][0]["supa_wins"], 1);

    let events = standings_json(&["supa.pdn"], &[], 0);
    assert_eq!(numbers(&events[0]["matches"][0]["goals"]), [2, 0]);
}

/// (rank, name, points, goals, eliminated_by) of each ranking line.
fn ranking(e: &Value) -> Vec<(u64, String, u64, u64, Option<String>)> {
    e["knockout"]["ranking"]
        .as_array()
        .expect("a knockout")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["name"].as_str().unwrap().to_string(),
                r["points"].as_u64().unwrap(),
                r["goals"].as_u64().unwrap(),
                r["eliminated_by"].as_str().map(String::from),
            )
        })
        .collect()
}

fn line(
    rank: u64,
    name: &str,
    points: u64,
    goals: u64,
    by: Option<&str>,
) -> (u64, String, u64, u64, Option<String>) {
    (rank, name.to_string(), points, goals, by.map(String::from))
}

#[test]
fn knockout_of_four() {
    // Semifinals: Amina beats Bakari 2-0; Chausiku – Daudi 1-1, then Daudi wins the first
    // limboti. Final: Amina beats Daudi 2-0.
    // Points (opponents eliminated): Amina 2, Daudi 1, Chausiku 0, Bakari 0.
    // Goals: Amina 2+2 = 4, Daudi 2+0 = 2, Chausiku 1, Bakari 0.
    // Ranking: 1 Amina, 2 Daudi, 3 Chausiku (0 points but 1 goal), 4 Bakari; champion Amina.
    let events = standings_json(&["knockout4.pdn"], &[], 0);
    let e = &events[0];
    assert_eq!(e["format"], "knockout");
    assert_eq!(e["matches"].as_array().unwrap().len(), 3);
    assert_eq!(e["knockout"]["champion"], "Amina");
    assert_eq!(
        ranking(e),
        [
            line(1, "Amina", 2, 4, None),
            line(2, "Daudi", 1, 2, Some("Amina")),
            line(3, "Chausiku", 0, 1, Some("Daudi")),
            line(4, "Bakari", 0, 0, Some("Amina")),
        ]
    );
    assert_eq!(
        strings(&e["knockout"]["ranking"][0]["eliminated"]),
        ["Bakari", "Daudi"]
    );
    assert_eq!(e["warnings"], Value::Array(vec![]));
}

#[test]
fn knockout_of_eight() {
    // Quarterfinals: Amina 2-0 Baraka; Daudi 2-0 Chausiku; Eliya – Fatuma 1-1, Fatuma wins
    // limboti 3; Gimbi – Hamisi two draws, Gimbi wins limboti 3.
    // Semifinals: Amina 2-0 Daudi; Gimbi 2-0 Fatuma.
    // Final: Amina wins g1, Gimbi g2, g3 drawn, Gimbi wins limboti g4.
    // Points: Gimbi 3, Amina 2, Daudi 1, Fatuma 1, others 0.
    // Goals (1 a win): Gimbi 1+2+2 = 5, Amina 2+2+1 = 5, Daudi 2, Fatuma 2, Eliya 1, others 0.
    // Ranking: 1 Gimbi, 2 Amina, 3= Daudi and Fatuma, 5 Eliya, 6= Baraka, Chausiku, Hamisi.
    let events = standings_json(&["knockout8.pdn"], &[], 0);
    let e = &events[0];
    assert_eq!(e["matches"].as_array().unwrap().len(), 7);
    assert_eq!(e["knockout"]["champion"], "Gimbi");
    assert_eq!(
        ranking(e),
        [
            line(1, "Gimbi", 3, 5, None),
            line(2, "Amina", 2, 5, Some("Gimbi")),
            line(3, "Daudi", 1, 2, Some("Amina")),
            line(3, "Fatuma", 1, 2, Some("Gimbi")),
            line(5, "Eliya", 0, 1, Some("Fatuma")),
            line(6, "Baraka", 0, 0, Some("Amina")),
            line(6, "Chausiku", 0, 0, Some("Daudi")),
            line(6, "Hamisi", 0, 0, Some("Gimbi")),
        ]
    );
    assert_eq!(e["warnings"], Value::Array(vec![]));

    // No game of this archive ever has a king, so with --supa every win is 12 goals and
    // the ranking is the same with goals times 12.
    let events = standings_json(&["knockout8.pdn"], &["--supa"], 0);
    let goals: Vec<u64> = ranking(&events[0]).iter().map(|r| r.3).collect();
    assert_eq!(goals, [60, 60, 24, 24, 12, 0, 0, 0]);
}

#[test]
fn knockout_of_eight_as_csv() {
    // One row per player in ranking order; games W-D-L per player worked out from the
    // matches above (Gimbi: won 1+2+2, drew 2+1, lost 1; Hamisi: drew 2, lost 1; ...).
    let expected = "\
event,format,rank,player,points,eliminated,eliminated_by,matches,matches_won,matches_lost,matches_undecided,games_won,games_drawn,games_lost,goals,supa_wins
Zanzibar Open,knockout,1,Gimbi,3,Hamisi; Fatuma; Amina,,3,3,0,0,5,3,1,5,5
Zanzibar Open,knockout,2,Amina,2,Baraka; Daudi,Gimbi,3,2,1,0,5,1,2,5,5
Zanzibar Open,knockout,3,Daudi,1,Chausiku,Amina,2,1,1,0,2,0,2,2,2
Zanzibar Open,knockout,3,Fatuma,1,Eliya,Gimbi,2,1,1,0,2,0,3,2,2
Zanzibar Open,knockout,5,Eliya,0,,Fatuma,1,0,1,0,1,0,2,1,1
Zanzibar Open,knockout,6,Baraka,0,,Amina,1,0,1,0,0,0,2,0,0
Zanzibar Open,knockout,6,Chausiku,0,,Daudi,1,0,1,0,0,0,2,0,0
Zanzibar Open,knockout,6,Hamisi,0,,Gimbi,1,0,1,0,0,2,1,0,0
";
    drafti()
        .args(["standings", "--csv", &fixture("knockout8.pdn")])
        .assert()
        .code(0)
        .stdout(expected);
}

#[test]
fn matches_of_two_players_as_csv_leave_knockout_columns_empty() {
    let expected = "\
event,format,rank,player,points,eliminated,eliminated_by,matches,matches_won,matches_lost,matches_undecided,games_won,games_drawn,games_lost,goals,supa_wins
Dar Club Night,matches,,Amina,,,,1,1,0,0,2,0,0,2,2
Dar Club Night,matches,,Bakari,,,,1,0,1,0,0,0,2,0,0
";
    drafti()
        .args(["standings", "--csv", &fixture("two-nil.pdn")])
        .assert()
        .code(0)
        .stdout(expected);
}

#[test]
fn several_files_and_stdin() {
    // Two files give two Events, in the order given.
    let events = standings_json(&["knockout4.pdn", "two-nil.pdn"], &[], 0);
    let names: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Kariakoo Cup", "Dar Club Night"]);
    // `-` reads stdin.
    let text = std::fs::read(fixture("two-nil.pdn")).unwrap();
    let output = drafti()
        .args(["standings", "-", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let e: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(e["matches"][0]["winner"], "Amina");
    assert_eq!(e["matches"][0]["games"][0]["file"], "<stdin>");
}

#[test]
fn text_report_of_a_knockout() {
    let expected = "\
Event: Kariakoo Cup (knockout, 4 players, 3 matches)
  laws: winner starts the next game

  Match 1: Amina – Bakari: 2-0; goals 2-0; Amina wins after 2 games
    game  record            round  White – Black   result  started
    1     knockout4.pdn #1  1.1    Amina – Bakari  1-0     Amina (White)  1 goal
    2     knockout4.pdn #2  1.2    Bakari – Amina  0-1     Amina (Black)  1 goal
  Match 2: Chausiku – Daudi: 1-2; goals 1-2; Daudi wins after 3 games (1 limboti)
    game       record            round  White – Black     result  started
    1          knockout4.pdn #3  1.1    Chausiku – Daudi  1-0     Chausiku (White)  1 goal
    2          knockout4.pdn #4  1.2    Daudi – Chausiku  1-0     Chausiku (Black)  1 goal
    3 limboti  knockout4.pdn #5  1.3    Chausiku – Daudi  0-1     Daudi (Black)     1 goal
  Match 3: Amina – Daudi: 2-0; goals 2-0; Amina wins after 2 games
    game  record            round  White – Black  result  started
    1     knockout4.pdn #6  2.1    Amina – Daudi  1-0     Amina (White)  1 goal
    2     knockout4.pdn #7  2.2    Daudi – Amina  0-1     Amina (Black)  1 goal

  Ranking (points = opponents eliminated)
    rank  player    points  goals  eliminated     eliminated by
    1     Amina     2       4      Bakari, Daudi  -
    2     Daudi     1       2      Chausiku       Amina
    3     Chausiku  0       1      -              Daudi
    4     Bakari    0       0      -              Amina
  Champion: Amina
";
    // Run from the fixtures folder so the file name is short.
    let output = drafti()
        .current_dir(format!("{}/fixtures/standings", env!("CARGO_MANIFEST_DIR")))
        .args(["standings", "knockout4.pdn"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "7 games and 3 matches in 1 event; 0 warnings (0 violations)\n"
    );
}

#[test]
fn usage_and_input_errors_exit_two() {
    drafti()
        .args(["standings", "--json", "--csv", &fixture("two-nil.pdn")])
        .assert()
        .code(2);
    drafti()
        .args(["standings", &fixture("no-such-file.pdn")])
        .assert()
        .code(2);
}

#[test]
fn swapped_colours_are_checked_only_when_asked() {
    // supa.pdn: Amina has White in both games of the match (Amina - Bakari 1-0 twice).
    let events = standings_json(&["supa.pdn"], &[], 0);
    assert!(events[0]["warnings"].as_array().unwrap().is_empty());
    let events = standings_json(&["supa.pdn"], &["--swap-colours"], 1);
    let warnings = events[0]["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0]["kind"], "colour_order");
    assert!(warnings[0]["message"]
        .as_str()
        .unwrap()
        .contains("game 2 (round 2): Amina has White again"));
    // limboti.pdn swaps colours every game: nothing to report.
    let events = standings_json(&["limboti.pdn"], &["--swap-colours"], 0);
    assert!(events[0]["warnings"].as_array().unwrap().is_empty());
}

#[test]
fn the_players_table_shows_supa_wins_only_under_supa() {
    // supa.pdn: Amina wins both games of the match, the first with no king on the board (a
    // supa win). Without --supa a supa win scores 1 goal like any other, so the text table
    // has no supa column; with --supa it has, and the supa win counts 12.
    let players = |args: &[&str]| {
        let output = drafti()
            .current_dir(format!("{}/fixtures/standings", env!("CARGO_MANIFEST_DIR")))
            .arg("standings")
            .args(args)
            .arg("supa.pdn")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let text = String::from_utf8(output.stdout).unwrap();
        let table = text.split("  Players\n").nth(1).expect("a players table");
        table
            .lines()
            .take(3)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        players(&[]),
        [
            "    player  matches W-L-U  games W-D-L  goals",
            "    Amina   1-0-0          2-0-0        2",
            "    Bakari  0-1-0          0-0-2        0",
        ]
    );
    assert_eq!(
        players(&["--supa"]),
        [
            "    player  matches W-L-U  games W-D-L  goals  supa wins",
            "    Amina   1-0-0          2-0-0        13     1",
            "    Bakari  0-1-0          0-0-2        0      0",
        ]
    );
}

/// Issue 27, item 14: `standings --variant` replays every game under those rules, whatever
/// its tags say (here a GameType drafti does not know, an error without it).
#[test]
fn the_variant_can_be_given() {
    let game = "[Event \"Cup\"]\n[GameType \"20\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 1-0\n";
    let run = |args: &[&str]| {
        let out = drafti()
            .arg("standings")
            .args(args)
            .write_stdin(game.as_bytes().to_vec())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = run(&["-"]);
    assert!(
        stderr.contains("note: 1 game has errors (run drafti validate)"),
        "{stderr}"
    );
    let stderr = run(&["-", "--variant", "tz"]);
    assert_eq!(
        stderr,
        "1 game and 1 match in 1 event; 0 warnings (0 violations)\n"
    );
}

/// The championship formats: groups, groups+knockout, Swiss.
mod formats;

/// Round robins and Swiss events recognised from their pairings; the groups file's names
/// checked against the games; the CSV safe for spreadsheets.
mod recognised;

/// `--format tzdraft`: TzDraft's single elimination and round robin.
mod tzdraft;
