//! End-to-end tests of `drafti import tzdraft`: the fixtures of `tests/fixtures/tzdraft/`
//! (TzDraft records built by its `make.py` from drafti's self-play games) imported, the PDN
//! validated by `drafti validate` and read back to TzDraft's moves, the corrupted and the
//! malformed records reported, the tags, the JSON lines, stdin, `--out` and the exit codes.

use drafti_archive::import::tzdraft::{tzdraft_move, TzMove};
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_tests::{drafti_command, drafti_into_full_disk, run_drafti, temp_dir};
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("fixtures/tzdraft/{name}")
}

fn read_fixture(name: &str) -> Value {
    let path = format!("{}/fixtures/tzdraft/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The moves of a fixture's game, wherever its shape keeps them.
fn fixture_moves(game: &Value) -> Vec<TzMove> {
    let game = game.get("data").unwrap_or(game);
    let moves = game.get("moves").expect("moves");
    serde_json::from_value(moves.clone()).unwrap()
}

/// What identifies a move: from, to, the captured squares in order, the promotion.
fn key(m: &TzMove) -> (Option<i64>, Option<i64>, Vec<i64>, Option<bool>) {
    (
        m.from_square,
        m.to_square,
        m.captured_squares.clone(),
        m.is_promotion,
    )
}

/// The games of a PDN text replayed, each move back in TzDraft's form.
fn pdn_moves(pdn: &str) -> Vec<Vec<TzMove>> {
    drafti_pdn::parse_games(pdn.as_bytes())
        .into_iter()
        .map(|record| {
            let game = replay(record.unwrap(), &ReplayOptions::default());
            assert!(game.is_valid(), "{:?}", game.problems);
            game.moves
                .iter()
                .enumerate()
                .map(|(i, mv)| tzdraft_move(mv, game.positions[i].turn(), i + 1))
                .collect()
        })
        .collect()
}

fn tag<'a>(pdn: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    pdn.lines()
        .find_map(|l| l.strip_prefix(start.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// `drafti validate` of a PDN text: (exit code, stderr).
fn validate(pdn: &str, name: &str) -> (i32, String) {
    let scratch = temp_dir(name);
    let dir = scratch.path();
    let path = dir.join("games.pdn");
    std::fs::write(&path, pdn).unwrap();
    let (code, _, stderr) = run_drafti(&["validate", path.to_str().unwrap()]);
    (code, stderr)
}

#[test]
fn each_fixture_imports_validates_and_reads_back_to_the_same_moves() {
    for name in [
        "ranked.json",
        "timeout.json",
        "multicapture.json",
        "promotion.json",
    ] {
        let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", &fixture(name)]);
        let moves = fixture_moves(&read_fixture(name));
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(
            stderr,
            format!(
                "1 TzDraft game from {}: 1 valid, 0 invalid, 0 warnings, {} plies\n",
                fixture(name),
                moves.len()
            )
        );
        let (code, report) = validate(&pdn, "import-valid");
        assert_eq!(code, 0, "{name}: {report}");
        assert!(report.starts_with("1 game in 1 file: 1 valid, 0 invalid, 0 warnings"));
        let back = pdn_moves(&pdn);
        assert_eq!(back.len(), 1);
        let want: Vec<_> = moves.iter().map(key).collect();
        let got: Vec<_> = back[0].iter().map(key).collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn the_fixtures_hold_what_they_are_for() {
    let multi = fixture_moves(&read_fixture("multicapture.json"));
    assert!(multi.iter().any(|m| m.captured_squares.len() >= 2));
    let promotion = fixture_moves(&read_fixture("promotion.json"));
    let crowned = promotion
        .iter()
        .position(|m| m.is_promotion == Some(true))
        .unwrap();
    assert!(crowned + 1 < promotion.len(), "a promotion mid-game");
    let timeout = read_fixture("timeout.json");
    assert_eq!(timeout["endReason"], "TIME");
}

#[test]
fn tags_carry_every_field() {
    let (code, pdn, _) = run_drafti(&["import", "tzdraft", &fixture("ranked.json")]);
    assert_eq!(code, 0);
    let json = read_fixture("ranked.json");
    let game = &json["data"]["game"];
    let expect = [
        ("Event", "TzDraft ranked game"),
        ("Site", "TzDraft"),
        ("Date", "2026.03.02"),
        ("White", "Asha"),
        ("Black", "Juma"),
        ("Result", "1-0"),
        ("WhiteElo", "1207"),
        ("BlackElo", "1195"),
        ("Variant", "TzDraft"),
        ("Termination", "no legal move"),
        ("TimeControl", "600"),
        ("TzDraftType", "RANKED"),
        ("TzDraftRuleVersion", "TZ-8x8-v1.1"),
        ("TzDraftStatus", "FINISHED"),
        ("TzDraftEndReason", "NO_MOVES"),
        ("TzDraftWhiteUsername", "asha"),
        ("TzDraftCreatedAt", "2026-03-02T17:59:58.000Z"),
        ("TzDraftWhiteTimeMs", "312000"),
    ];
    for (name, value) in expect {
        assert_eq!(tag(&pdn, name), Some(value), "{name}\n{pdn}");
    }
    assert_eq!(tag(&pdn, "TzDraftId"), game["id"].as_str());
    assert_eq!(
        tag(&pdn, "TzDraftBlackPlayerId"),
        game["blackPlayerId"].as_str()
    );

    let (_, pdn, _) = run_drafti(&["import", "tzdraft", &fixture("timeout.json")]);
    assert_eq!(tag(&pdn, "Result"), Some("0-1"));
    assert_eq!(tag(&pdn, "Termination"), Some("time forfeit"));
    assert_eq!(tag(&pdn, "White"), Some("Neema"));
    assert_eq!(tag(&pdn, "TzDraftWhiteTimeMs"), Some("0"));
    assert_eq!(tag(&pdn, "TzDraftBlackTimeMs"), Some("41250"));
    // The engine's evaluations as analyze --pdn writes them: [%eval men] from White's side.
    let evals: Vec<String> = fixture_moves(&read_fixture("timeout.json"))
        .iter()
        .map(|m| format!("{{[%eval {:.2}]}}", m.engine_eval.unwrap() as f64 / 100.0))
        .collect();
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    let comments: Vec<String> = flat
        .match_indices("{[%eval ")
        .map(|(i, _)| flat[i..i + flat[i..].find('}').unwrap() + 1].to_string())
        .collect();
    assert_eq!(comments, evals);

    let (_, pdn, _) = run_drafti(&["import", "tzdraft", &fixture("promotion.json")]);
    assert_eq!(tag(&pdn, "Event"), Some("TzDraft AI game"));
    assert_eq!(tag(&pdn, "Black"), Some("TzDraft AI level 7"));
    assert_eq!(tag(&pdn, "TzDraftAiLevel"), Some("7"));
    assert_eq!(tag(&pdn, "BlackElo"), None);
}

const CORRUPTED: &str = "TzDraft game 00000000-0000-4000-8000-000000000005: illegal move 46 \
                         (17x14x1) at ply 46 (Black to move): the move from g5 to g1 captures \
                         f4, f2, not the squares listed (f4)";

#[test]
fn a_corrupted_move_is_named_and_the_game_kept_up_to_it() {
    let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", &fixture("corrupted.json")]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with(&format!(
            "fixtures/tzdraft/corrupted.json:1:1: error: {CORRUPTED}\n  --> game 1, ply 46\n"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("   = legal moves: g5xg1\n"), "{stderr}");
    assert!(stderr.ends_with(
        "1 TzDraft game from fixtures/tzdraft/corrupted.json: 0 valid, 1 invalid, 0 warnings, 45 \
         plies\n"
    ));
    // The PDN keeps the 45 moves before it, legal, and says where and why it is cut.
    let (code, _) = validate(&pdn, "import-cut");
    assert_eq!(code, 0);
    let moves = fixture_moves(&read_fixture("corrupted.json"));
    let back = pdn_moves(&pdn);
    let want: Vec<_> = moves[..45].iter().map(key).collect();
    assert_eq!(back[0].iter().map(key).collect::<Vec<_>>(), want);
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&format!("{{the record is cut here: {CORRUPTED}}} *")));
}

#[test]
fn an_array_goes_on_after_a_bad_game() {
    // drafti's self-play games (see make.py): the third plays on after TzDraft's server would
    // have drawn it, so they are checked against the article.
    let (code, out, stderr) = run_drafti(&[
        "import",
        "tzdraft",
        "--strict",
        "--json",
        &fixture("array.json"),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.starts_with(&format!(
        "fixtures/tzdraft/array.json:521:1: error: {CORRUPTED}\n  --> game 2, ply 46\n"
    )));
    let games = read_fixture("array.json");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["file"], "fixtures/tzdraft/array.json");
        assert_eq!(line["index"], i + 1);
        assert_eq!(line["source_id"], games[i]["id"]);
        assert_eq!(line["variant"], "tz");
        let plies = fixture_moves(&games[i]).len();
        if i == 1 {
            assert_eq!(line["status"], "invalid");
            assert_eq!(line["plies"], 45);
            assert_eq!(line["errors"][0]["kind"], "illegal_move");
            assert_eq!(line["errors"][0]["ply"], 46);
            assert_eq!(line["errors"][0]["line"], 521);
            assert_eq!(line["errors"][0]["move"], "17x14x1");
            assert_eq!(line["errors"][0]["message"], CORRUPTED);
        } else {
            assert_eq!(line["status"], "valid", "{line}");
            assert_eq!(line["plies"], plies);
            assert_eq!(line["errors"], Value::Array(Vec::new()));
        }
    }
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["tags"]["TzDraftType"], "AI");
    assert_eq!(
        lines[2]["tags"]["TzDraftLeagueGameId"],
        games[2]["leagueGameId"]
    );
}

#[test]
fn a_malformed_json_line_is_named_and_the_others_imported() {
    let path = fixture("games.jsonl");
    // These games are drafti's self-play under the article's rules (see make.py), and their
    // end reasons were mapped from the article's draw laws: checked against the article.
    let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", "--strict", &path]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "fixtures/tzdraft/games.jsonl:1:1: warning: TzDraft game \
         00000000-0000-4000-8000-000000000007: end reason DRAW_THREE_KINGS, but TzDraft's \
         three-kings rule: 12 moves of three kings without taking the lone king does not end \
         the game in the final position\n  --> game 1, ply 139\n\n\
         fixtures/tzdraft/games.jsonl:2:1: error: line 2 (game \
         00000000-0000-4000-8000-000000000009): malformed JSON: the game is cut off (the next \
         line starts another game)\n  --> game 2 (unreadable)\n\n4 TzDraft games from \
         fixtures/tzdraft/games.jsonl: 3 valid, 1 invalid, 1 warning, 234 plies\n"
    );
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let good: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(good.len(), 3);
    let back = pdn_moves(&pdn);
    assert_eq!(back.len(), 3);
    for (game, moves) in good.iter().zip(&back) {
        let want: Vec<_> = fixture_moves(game).iter().map(key).collect();
        assert_eq!(moves.iter().map(key).collect::<Vec<_>>(), want);
    }
    assert_eq!(validate(&pdn, "import-jsonl").0, 0);
    let (_, json, _) = run_drafti(&["import", "tzdraft", "--strict", "--json", &path]);
    let lines: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["status"], "invalid");
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["errors"][0]["kind"], "syntax");
    assert_eq!(
        lines[1]["source_id"],
        "00000000-0000-4000-8000-000000000009"
    );
    assert_eq!(lines[3]["line"], 4);
}

#[test]
fn stdin_and_out_give_the_same_pdn() {
    let (_, expected, _) = run_drafti(&["import", "tzdraft", &fixture("ranked.json")]);
    let scratch = temp_dir("import-out");
    let dir = scratch.path();
    let out = dir.join("ranked.pdn");
    let input = std::fs::File::open(format!(
        "{}/fixtures/tzdraft/ranked.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let output = drafti_command()
        .args(["import", "tzdraft", "-", "--out", out.to_str().unwrap()])
        .stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "1 TzDraft game from <stdin>: 1 valid, 0 invalid, 0 warnings, 59 plies\n"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);
}

#[test]
fn input_that_cannot_be_read_exits_2() {
    let (code, out, stderr) = run_drafti(&["import", "tzdraft", "no/such.json"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(stderr, "drafti: cannot open no/such.json: no such file\n");
    let (code, _, stderr) = run_drafti(&["import", "tzdraft", "fixtures/validate/black-first.pdn"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("drafti: fixtures/validate/black-first.pdn:1:"),
        "{stderr}"
    );
    let (code, _, stderr) = run_drafti(&["import", "tzdraft", "fixtures/tzdraft"]);
    assert_eq!(code, 2);
    assert_eq!(stderr, "drafti: fixtures/tzdraft is a directory\n");
    let scratch = temp_dir("import-png");
    let png = scratch.path().join("board.png");
    std::fs::write(&png, b"\n\x89PNG\r\n\x1a\n\0\0").unwrap();
    let (code, out, stderr) = run_drafti(&["import", "tzdraft", png.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "drafti: {}:2: not TzDraft JSON (expected a game object, an array of games or \
             JSON Lines; the line starts with \"\u{fffd}PNG\")\n",
            png.display()
        )
    );
}

#[cfg(unix)]
#[test]
fn a_write_error_exits_2() {
    let ranked = format!(
        "{}/fixtures/tzdraft/ranked.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, stderr) = drafti_into_full_disk(&["import", "tzdraft", &ranked]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("cannot write the report: No space left on device"),
        "{stderr}"
    );
}

#[test]
fn a_winner_the_final_position_contradicts_is_named() {
    // The ranked game ends with Black unable to move: a record saying Black won is wrong.
    let mut game = read_fixture("ranked.json");
    game["data"]["game"]["winner"] = "BLACK".into();
    let scratch = temp_dir("import-winner");
    let path = scratch.path().join("wrong.json");
    std::fs::write(&path, game.to_string()).unwrap();
    let (code, _, stderr) = run_drafti(&["import", "tzdraft", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with(&format!(
            "{}:1:1: error: TzDraft game 00000000-0000-4000-8000-000000000001: result 0-1 \
             contradicts the final position: Black is to move and has no legal move, so White \
             won\n  --> game 1 (Asha - Juma), ply 59\n",
            path.display()
        )),
        "{stderr}"
    );
}

/// The three warnings of `server-games.jsonl` (see its `.md`): what each says the article
/// forbids.
const SERVER_ONLY: [&str; 3] = [
    "TzDraft game 00000000-0000-4000-9000-000200000021: move c1xe3 at ply 22 (Black to move) is \
     legal on TzDraft's server, not under the article: the king stops on e3 after taking d2, \
     though from f4 it could go on capturing (the article makes a king land where it can go \
     on, and go on: c1xf4xh2)",
    "TzDraft game 00000000-0000-4000-9000-000200000028: move g1xa1 at ply 48 (Black to move) is \
     legal on TzDraft's server, not under the article: the king passes over f6, a piece it took \
     earlier in this move (the article leaves captured pieces on the board until the move ends, \
     where they block)",
    "TzDraft game 00000000-0000-4000-9000-000200000126: move f8-g7 at ply 52: the article's draw \
     law 1 had ended the game (only kings left, at most two each); TzDraft's server plays on",
];

#[test]
fn server_games_are_kept_whole_with_warnings_and_read_back_without_flags() {
    let path = fixture("server-games.jsonl");
    let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", &path]);
    assert_eq!(code, 0, "{stderr}");
    for (game, said) in SERVER_ONLY.iter().enumerate() {
        let at = format!("{path}:{}:1: warning: {said}\n", game + 2);
        assert!(stderr.contains(&at), "{at}\n{stderr}");
    }
    // Each warning shows its position.
    assert_eq!(stderr.matches("   = position: ").count(), 3, "{stderr}");
    assert!(stderr.contains("   = position: B:W11,23,25,26:BK32\n"));
    assert!(stderr.ends_with(&format!(
        "4 TzDraft games from {path}: 4 valid, 0 invalid, 3 warnings, 181 plies\n"
    )));
    // The PDN names its rules, so validate and analyze read it back without --variant.
    assert_eq!(pdn.matches("[Variant \"TzDraft\"]").count(), 4);
    let scratch = temp_dir("import-server");
    let dir = scratch.path();
    let file = dir.join("server.pdn");
    std::fs::write(&file, &pdn).unwrap();
    let file = file.to_str().unwrap();
    let (code, problems, report) = run_drafti(&["validate", file]);
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("4 games in 1 file: 4 valid, 0 invalid, 3 warnings, 181 plies"),
        "{report}"
    );
    assert_eq!(problems.matches("is legal on TzDraft's server").count(), 2);
    let (code, json, err) = run_drafti(&[
        "analyze",
        "--depth",
        "1",
        "--no-verify",
        "--no-egtb",
        "--json",
        file,
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for line in &lines {
        assert_eq!(line["variant"], "tzdraft");
        assert_eq!(line["status"], "analysed", "{line}");
    }
    // Under the article's rules those moves would not have been made.
    let (code, _, under_article) = run_drafti(&["validate", "--variant", "tz", file]);
    assert_eq!(code, 1);
    assert!(
        under_article.contains("1 valid, 3 invalid"),
        "{under_article}"
    );
}

#[test]
fn strict_makes_server_only_moves_errors_that_cut_their_game() {
    let path = fixture("server-games.jsonl");
    let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", "--strict", &path]);
    assert_eq!(code, 1);
    assert!(stderr.contains(&format!(
        "{path}:2:1: error: TzDraft game 00000000-0000-4000-9000-000200000021: illegal move 22 \
         (3x7x10) at ply 22 (Black to move): legal on TzDraft's server, not under the article: \
         the king stops on e3 after taking d2"
    )));
    assert!(stderr.contains(&format!(
        "{path}:4:1: error: TzDraft game 00000000-0000-4000-9000-000200000126: move f8-g7 at ply \
         52 after the game ended: the game was drawn by draw law 1"
    )));
    assert!(stderr.ends_with(&format!(
        "4 TzDraft games from {path}: 1 valid, 3 invalid, 0 warnings, 163 plies\n"
    )));
    assert_eq!(pdn.matches("[Variant \"Tanzanian\"]").count(), 4);
    // The two games cut at a move have no result: TzDraft's winner stays in its own tag.
    let results: Vec<&str> = pdn
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .collect();
    assert_eq!(results, ["0-1\"]", "*\"]", "*\"]", "1/2-1/2\"]"]);
    // --no-warnings still counts them.
    let (code, _, quiet) = run_drafti(&["import", "tzdraft", "--no-warnings", &path]);
    assert_eq!(code, 0);
    assert_eq!(
        quiet,
        format!("4 TzDraft games from {path}: 4 valid, 0 invalid, 3 warnings, 181 plies\n")
    );
}

#[test]
fn rows_that_are_no_games_are_refused_and_database_rows_read() {
    let scratch = temp_dir("import-rows");
    let dir = scratch.path();
    let file = dir.join("rows.jsonl");
    std::fs::write(
        &file,
        "{\"foo\":1}\n{\"success\":false,\"data\":null}\n\
         {\"id\":\"db1\",\"winner\":\"WHITE\",\"end_reason\":\"RESIGN\",\"game_type\":\"RANKED\",\
         \"moves\":[{\"move_number\":1,\"player\":\"WHITE\",\"from_square\":11,\"to_square\":15,\
         \"captured_squares\":[]}]}\n\
         {\"id\":\"db2\",\"moves\":[{\"move_number\":1,\"player\":\"WHITE\",\"to_square\":15}]}\n",
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let (code, pdn, stderr) = run_drafti(&["import", "tzdraft", name]);
    assert_eq!(code, 1);
    assert!(stderr.contains(&format!(
        "{name}:1:1: error: line 1: not a TzDraft game: no `moves` field"
    )));
    assert!(stderr.contains(&format!(
        "{name}:2:1: error: line 2: not a TzDraft game: an API answer with success: false"
    )));
    assert!(
        stderr.contains("the move has no fromSquare (nor its column from_square)"),
        "{stderr}"
    );
    assert!(!stderr.contains("square 0"), "{stderr}");
    assert!(stderr.ends_with(&format!(
        "4 TzDraft games from {name}: 1 valid, 3 invalid, 0 warnings, 1 plies\n"
    )));
    assert_eq!(tag(&pdn, "TzDraftType"), Some("RANKED"));
    assert!(pdn.contains("1. c3-d4 1-0"), "{pdn}");
}
