use super::*;
use crate::replay::ReplayedGame;
use drafti_rules::{Color, Position};

fn read(text: &str) -> Vec<Imported> {
    let mut games = Vec::new();
    import("t.json", text.as_bytes(), &ReplayOptions::default(), |g| {
        games.push(g);
        Ok(())
    })
    .unwrap();
    games
}

fn game(i: &Imported) -> &ReplayedGame {
    match &i.game {
        Validated::Game(g) => g,
        Validated::Unreadable(p) => panic!("unreadable: {}", p.message),
    }
}

/// The TzDraft moves of a line of legal moves from the start (White first).
fn moves_of(line: &[&str]) -> Vec<TzMove> {
    let mut pos = Position::start(Color::White);
    let mut out = Vec::new();
    for (ply, text) in line.iter().enumerate() {
        let legal = pos.legal_moves(Variant::Tanzanian);
        let mv = *legal
            .iter()
            .find(|m| m.full_notation(false) == *text || m.notation(&legal, false) == *text)
            .unwrap_or_else(|| panic!("{text} is legal"));
        out.push(tzdraft_move(&mv, pos.turn(), ply + 1));
        pos = pos.play(&mv);
    }
    out
}

fn game_json(id: &str, moves: &[TzMove]) -> String {
    format!(
        r#"{{"id":"{id}","status":"FINISHED","gameType":"RANKED","winner":"WHITE","endReason":"RESIGN","moves":{}}}"#,
        serde_json::to_string(moves).unwrap()
    )
}

#[test]
fn squares_are_turned_round() {
    // TzDraft's White starts on 1-12: drafti's 21-32 (a1 ... h2, rows 1-3).
    let white: Vec<String> = (1..=12).map(|n| square(n).unwrap().to_string()).collect();
    assert_eq!(white[0], "g1");
    assert_eq!(white[3], "a1");
    assert_eq!(white[11], "a3");
    for n in 1..=32 {
        assert_eq!(i64::from(tzdraft_number(square(n).unwrap())), n);
    }
    assert_eq!(square(-1), None);
    assert_eq!(square(i64::MAX), None);
}

#[test]
fn a_move_converts_both_ways() {
    let moves = moves_of(&["c3-d4", "f6-e5", "d4xf6"]);
    assert_eq!(moves[0].from_square, Some(11)); // c3 is drafti's 22
    assert_eq!(moves[0].to_square, Some(15));
    assert_eq!(moves[2].captured_squares, vec![18]); // e5
    assert_eq!(moves[2].notation.as_deref(), Some("15x18x22"));
    assert_eq!(moves[1].player.as_deref(), Some("BLACK"));
}

#[test]
fn a_game_is_tagged_and_replayed() {
    let json = r#"{"success": true, "data": {"game": {"id": "abc", "status": "FINISHED",
      "gameType": "RANKED", "ruleVersion": "TZ-8x8-v1.1", "initialTimeMs": 600000,
      "whitePlayerId": "u1", "blackPlayerId": "u2", "whiteElo": 1250, "blackElo": 1180,
      "winner": "BLACK", "endReason": "TIME", "startedAt": "2026-03-02T19:00:00.000Z",
      "clockInfo": {"whiteTimeMs": "0", "blackTimeMs": 41000, "lastMoveAt": "2026-03-02T19:20:00.000Z"},
      "someFutureField": [1, 2]},
      "players": {"white": {"username": "asha", "displayName": "Asha"}, "black": {"username": "juma"}},
      "moves": [{"moveNumber": 1, "player": "WHITE", "fromSquare": 10, "toSquare": 14,
                 "capturedSquares": [], "isPromotion": false, "notation": "10-14", "engineEval": 35}]}}"#;
    let games = read(json);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].source_id.as_deref(), Some("abc"));
    let g = game(&games[0]);
    assert!(g.is_valid(), "{:?}", g.problems);
    let t = |n: &str| g.record.tag(n).map(str::to_string);
    assert_eq!(t("White").as_deref(), Some("Asha"));
    assert_eq!(t("Black").as_deref(), Some("juma"));
    assert_eq!(t("WhiteElo").as_deref(), Some("1250"));
    assert_eq!(t("Date").as_deref(), Some("2026.03.02"));
    assert_eq!(t("Result").as_deref(), Some("0-1"));
    assert_eq!(t("Termination").as_deref(), Some("time forfeit"));
    assert_eq!(t("TimeControl").as_deref(), Some("600"));
    assert_eq!(t("Variant").as_deref(), Some("TzDraft"));
    assert_eq!(t("TzDraftId").as_deref(), Some("abc"));
    assert_eq!(t("TzDraftRuleVersion").as_deref(), Some("TZ-8x8-v1.1"));
    assert_eq!(t("TzDraftWhiteTimeMs").as_deref(), Some("0"));
    assert_eq!(t("TzDraftBlackTimeMs").as_deref(), Some("41000"));
    let pdn = drafti_pdn::write_game(&g.record);
    assert!(pdn.ends_with("\n1. e3-f4 {[%eval 0.35]} 0-1\n"), "{pdn}");
}

#[test]
fn an_illegal_move_cuts_the_game_and_names_the_rule() {
    let mut moves = moves_of(&["c3-d4", "f6-e5", "d4xf6", "g7xe5"]);
    moves[2].captured_squares.clear(); // d4xf6 without its capture listed
    let games = read(&game_json("g9", &moves));
    let g = game(&games[0]);
    assert!(!g.is_valid());
    assert_eq!(g.moves.len(), 2);
    let p = g.errors().next().unwrap();
    assert_eq!(p.kind, ProblemKind::IllegalMove);
    assert_eq!(p.ply, Some(3));
    assert_eq!(
        p.message,
        "TzDraft game g9: illegal move 3 (15x18x22) at ply 3 (White to move): the move from d4 to \
         f6 captures e5, not the squares listed (none)"
    );
    // Kept in the PDN as a comment where the record is cut.
    let pdn = drafti_pdn::write_game(&g.record);
    assert!(
        pdn.contains("1. c3-d4 f6-e5\n{the record is cut here: TzDraft game g9: illegal move 3"),
        "{pdn}"
    );
}

#[test]
fn each_broken_rule_is_named() {
    let reason = |m: TzMove| {
        let pos = Position::start(Color::White);
        convert::mismatch(
            &pos,
            Variant::TzDraft,
            &pos.legal_moves(Variant::TzDraft),
            &m,
        )
        .unwrap_err()
    };
    let quiet = |from, to| TzMove {
        from_square: Some(from),
        to_square: Some(to),
        ..TzMove::default()
    };
    assert_eq!(reason(quiet(11, 19)), "c3-c5 is not a diagonal move");
    assert_eq!(reason(quiet(15, 19)), "there is no piece on d4");
    assert_eq!(reason(quiet(8, 12)), "a3 is occupied");
    assert_eq!(reason(quiet(22, 18)), "f6 holds a Black piece");
    assert_eq!(
        reason(quiet(40, 14)),
        "square 40 is not on the board (TzDraft's squares are 1-32)"
    );
    let mut marked = quiet(11, 15);
    marked.player = Some("BLACK".to_string());
    assert_eq!(
        reason(marked),
        "the move is marked BLACK, but White is to move"
    );
    let mut crowned = quiet(11, 15);
    crowned.is_promotion = Some(true);
    assert_eq!(
        reason(crowned),
        "isPromotion is true, but the move does not crown a man (d4)"
    );
    // A database row without its squares names the field, never "square 0".
    let row = TzMove {
        to_square: Some(15),
        ..TzMove::default()
    };
    assert_eq!(
        reason(row),
        "the move has no fromSquare (nor its column from_square)"
    );
}

#[test]
fn json_lines_go_on_after_a_malformed_line() {
    let good = game_json("ok1", &moves_of(&["c3-d4"]));
    let text = format!("{good}\n\n{{\"id\": \"bad7\", \"moves\": [\n{good}\n");
    let games = read(&text);
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].line, 3);
    assert_eq!(games[1].source_id.as_deref(), Some("bad7"));
    let Validated::Unreadable(p) = &games[1].game else {
        panic!("line 3 is not JSON")
    };
    assert_eq!(
        p.message,
        "line 3 (game bad7): malformed JSON: the game is cut off (the next line starts another \
         game)"
    );
    assert_eq!(games[2].line, 4);
    assert!(game(&games[2]).is_valid());
}

#[test]
fn an_array_gives_each_game_its_line() {
    let a = game_json("a", &moves_of(&["c3-d4"]));
    let text = format!("[\n  {a},\n  {a}\n]\n");
    let games = read(&text);
    assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [2, 3]);
    assert_eq!(games[1].index, 1);
    // An array cut inside its first game: that game is damaged, nothing else is lost.
    let games = read("[\n{\"id\": \"c1\",\n");
    assert_eq!(games.len(), 1);
    let Validated::Unreadable(p) = &games[0].game else {
        panic!("cut")
    };
    assert_eq!(
        p.message,
        "line 2 (game c1): malformed JSON: the game is cut off (the input ends inside it)"
    );
}

#[test]
fn text_that_is_not_json_is_refused() {
    let err = import(
        "a.pdn",
        &b"\n[Event \"x\"]\n"[..],
        &ReplayOptions::default(),
        |_| Ok(()),
    );
    // `[` starts a JSON array, but what is in it is no object.
    assert_eq!(
        err.unwrap_err().to_string(),
        "a.pdn:2: not TzDraft JSON (expected a game object, an array of games or JSON Lines; \
         the line starts with \"Event \\\"x\\\"\")"
    );
    let err = import(
        "a.pdn",
        &b"1. c3-d4 *\n"[..],
        &ReplayOptions::default(),
        |_| Ok(()),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "a.pdn:1: not TzDraft JSON (expected a game object, an array of games or JSON Lines; \
         the line starts with \"1. c3-d4 *\")"
    );
}

#[test]
fn a_wrong_field_type_is_an_unreadable_game() {
    let games = read("{\"id\": \"t1\", \"moves\": [{\"fromSquare\": \"x\"}]}\n");
    let Validated::Unreadable(p) = &games[0].game else {
        panic!("not a game")
    };
    assert!(
        p.message
            .starts_with("line 1 (game t1): not a TzDraft game: invalid type"),
        "{}",
        p.message
    );
}

#[test]
fn a_game_too_long_is_skipped_in_bounded_memory() {
    let good = game_json("ok", &moves_of(&["c3-d4"]));
    let mut text = format!("{good}\n{{\"id\": \"");
    text.push_str(&"x".repeat(MAX_GAME_BYTES + 10));
    text.push_str("\"}\n");
    text.push_str(&good);
    let games = read(&text);
    assert_eq!(games.len(), 3);
    let Validated::Unreadable(p) = &games[1].game else {
        panic!("too long")
    };
    assert_eq!(p.message, "line 2: a game longer than 1 MiB, skipped");
    assert!(game(&games[2]).is_valid());
}

#[test]
fn what_the_record_says_cannot_break_the_pdn() {
    let mut moves = moves_of(&["c3-d4"]);
    moves.push(TzMove {
        from_square: Some(11),
        to_square: Some(15),
        notation: Some("9-13} 1-0 {".to_string()),
        ..TzMove::default()
    });
    let mut json: serde_json::Value = serde_json::from_str(&game_json("x", &moves)).unwrap();
    json["id"] = serde_json::json!("a}\"b");
    json["whitePlayer"] = serde_json::json!({"displayName": "Line\nbreak \"quoted\""});
    let games = read(&json.to_string());
    let g = game(&games[0]);
    let pdn = drafti_pdn::write_game(&g.record);
    let again = drafti_pdn::parse_games(pdn.as_bytes());
    assert_eq!(again.len(), 1, "{pdn}");
    let again = again.into_iter().next().unwrap().unwrap();
    assert_eq!(again.tag("White"), Some("Line break \"quoted\""));
    assert_eq!(again.tag("TzDraftId"), Some("a}\"b"));
    assert_eq!(again.moves.nodes.len(), 1);
    assert!(again.moves.nodes[0].comments[0]
        .text
        .contains("illegal move 2 (9-13) 1-0 () at ply 2"));
}

#[test]
fn captured_squares_must_come_in_an_order_the_piece_can_take_them() {
    // White's man on c3 takes d4 then f6 (c3xe5xg7); a king on a1 takes b2, then d4 or c5.
    let check = |fen: &str, reverse: bool| {
        let pos = Position::from_fen(fen).unwrap();
        let legal = pos.legal_moves(Variant::Tanzanian);
        let mut m = tzdraft_move(&legal[0], pos.turn(), 1);
        if reverse {
            m.captured_squares.reverse();
        }
        convert::mismatch(&pos, Variant::Tanzanian, &legal, &m).map(|mv| mv.full_notation(false))
    };
    assert_eq!(check("W:Wc3:Bd4,f6", false), Ok("c3xe5xg7".to_string()));
    assert_eq!(
        check("W:Wc3:Bd4,f6", true),
        Err("the piece on c3 cannot take f6, d4 in this order (it takes them as d4, f6)".into())
    );
    // A king's loop round the board takes the same pieces either way round: one move (the
    // generator keeps one route), and TzDraft may list the other.
    assert_eq!(
        check("W:WKc1:Bg7,b2,b4,d2", false),
        Ok("c1xa3xf8xh6xc1".to_string())
    );
    assert_eq!(
        check("W:WKc1:Bg7,b2,b4,d2", true),
        Ok("c1xa3xf8xh6xc1".to_string())
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let good = game_json("bom", &moves_of(&["c3-d4"]));
    for text in [format!("\u{feff}{good}\n"), format!("\u{feff}[\n{good}\n]")] {
        let games = read(&text);
        assert_eq!(games.len(), 1);
        assert!(game(&games[0]).is_valid());
    }
}

fn unreadable_message(i: &Imported) -> &str {
    match &i.game {
        Validated::Unreadable(p) => &p.message,
        Validated::Game(g) => panic!("a game: {:?}", g.record.tags),
    }
}

#[test]
fn a_record_that_is_no_game_is_refused() {
    let text = r#"{"foo":1}
{"id":"p1","pieces":[{"p":1,"c":"WHITE","k":false}],"sideToMove":"WHITE","solution":[]}
{"success":false,"data":null}
{"id":"m1","game_id":"g1","move_number":1,"from_square":11,"to_square":15}
{"id":"g2","status":"FINISHED","winner":"WHITE"}
{"id":"g3","status":"FINISHED","winner":"WHITE","moves":[]}
"#;
    let games = read(text);
    assert_eq!(games.len(), 6);
    let said: Vec<&str> = games[..5].iter().map(unreadable_message).collect();
    assert_eq!(
        said,
        [
            "line 1: not a TzDraft game: no `moves` field (a TzDraft game is {id, status, \
             winner, …, moves: [...]})",
            "line 2 (game p1): not a TzDraft game: a puzzle (p1), not a game",
            "line 3: not a TzDraft game: an API answer with success: false, holding no game",
            "line 4 (game m1): not a TzDraft game: a row of the moves table alone: give each \
             game with its moves (a `moves` array)",
            "line 5 (game g2): not a TzDraft game: game g2 has no `moves` (a row of the games \
             table alone: export each game with its moves)",
        ]
    );
    // A game with an empty list of moves is a game (one that was never played on).
    assert!(game(&games[5]).is_valid());
}

#[test]
fn database_rows_are_read() {
    let text = r#"{"id":"db1","status":"FINISHED","game_type":"RANKED","rule_version":"TZ-8x8-v1.1",
 "white_player_id":"u1","black_player_id":"u2","white_elo":1200,"black_elo":1190,"winner":"WHITE",
 "end_reason":"RESIGN","initial_time_ms":600000,"created_at":"2026-03-02 18:00:00.000",
 "started_at":"2026-03-02 18:00:00.000",
 "moves":[{"id":"m1","game_id":"db1","move_number":1,"player":"WHITE","from_square":11,
 "to_square":15,"captured_squares":[],"is_promotion":false,"is_multi_capture":false,
 "notation":"11-15","engine_eval":null,"created_at":"2026-03-02 18:00:03.500"}]}"#;
    let games = read(&text.replace('\n', ""));
    let g = game(&games[0]);
    assert!(g.is_valid(), "{:?}", g.problems);
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.record.tag("TzDraftType"), Some("RANKED"));
    assert_eq!(g.record.tag("WhiteElo"), Some("1200"));
    assert_eq!(g.record.tag("Termination"), Some("resignation"));
    assert_eq!(g.record.tag("Date"), Some("2026.03.02"));
    let pdn = drafti_pdn::write_game(&g.record);
    assert!(
        pdn.contains("1. c3-d4 {[%clk 0:09:56.500] [%emt 0:00:03.500]} 1-0"),
        "{pdn}"
    );
}

#[test]
fn move_numbers_put_rows_in_order_and_name_gaps() {
    let line = moves_of(&["c3-d4", "f6-e5", "d4xf6", "g7xe5"]);
    let mut shuffled = line.clone();
    shuffled.swap(0, 3);
    shuffled.swap(1, 2);
    let g = &read(&game_json("o1", &shuffled))[0];
    assert!(game(g).is_valid());
    assert_eq!(game(g).moves.len(), 4);

    let mut gap = line.clone();
    gap.remove(2);
    let mut duplicate = line.clone();
    duplicate[2].move_number = Some(2);
    for (moves, said, kept) in [
        (gap, "moveNumber 3 is missing (the moves go from 2 to 4)", 2),
        (duplicate, "moveNumber 2 is given twice", 2),
    ] {
        let games = read(&game_json("o2", &moves));
        let g = game(&games[0]);
        let p = g.errors().next().unwrap();
        assert_eq!(p.kind, ProblemKind::MoveOrder);
        assert_eq!(
            p.message,
            format!("TzDraft game o2: {said}; the game is cut after move {kept}")
        );
        assert_eq!(g.moves.len(), kept);
        assert_eq!(g.record.tag("Result"), Some("*"));
    }
}

#[test]
fn a_game_cut_short_has_no_result() {
    let mut moves = moves_of(&["c3-d4", "f6-e5"]);
    // TzDraft's 9 to 17 (drafti's 24 to 16): a man two rows on, no capture.
    moves[0].from_square = Some(9);
    moves[0].to_square = Some(17);
    moves[0].notation = None;
    let games = read(&game_json("c1", &moves));
    let g = game(&games[0]);
    assert!(!g.is_valid());
    assert_eq!(g.moves.len(), 0);
    assert_eq!(g.record.tag("Result"), Some("*"));
    assert_eq!(g.record.tag("TzDraftWinner"), Some("WHITE"));
    // Read back, the record is an unfinished game: no forfeit win for anyone.
    let pdn = drafti_pdn::write_game(&g.record);
    let back = crate::replay::replay(
        drafti_pdn::parse_games(pdn.as_bytes()).remove(0).unwrap(),
        &ReplayOptions::default(),
    );
    assert_eq!(
        back.played_result(),
        Some(drafti_pdn::GameResult::Unknown),
        "{pdn}"
    );
}

#[test]
fn move_times_become_clock_comments() {
    let mut moves = moves_of(&["c3-d4", "f6-e5", "d4xf6"]);
    for (m, t) in moves
        .iter_mut()
        .zip(["19:00:05.000Z", "19:00:07.250Z", "19:00:17.000Z"])
    {
        m.created_at = Some(format!("2026-03-02T{t}"));
    }
    let mut json: serde_json::Value = serde_json::from_str(&game_json("t1", &moves)).unwrap();
    json["startedAt"] = "2026-03-02T19:00:00.000Z".into();
    json["initialTimeMs"] = 60000.into();
    let games = read(&json.to_string());
    // The writer wraps movetext; compare it on one line.
    let one_line = |pdn: String| pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    let pdn = one_line(drafti_pdn::write_game(&game(&games[0]).record));
    assert!(
        pdn.contains(
            "1. c3-d4 {[%clk 0:00:55] [%emt 0:00:05]} f6-e5 {[%clk 0:00:57.750] [%emt \
             0:00:02.250]} 2. d4xf6 {[%clk 0:00:45.250] [%emt 0:00:09.750]}"
        ),
        "{pdn}"
    );
    // Against TzDraft's AI the server runs no clock: the times only.
    json["gameType"] = "AI".into();
    let games = read(&json.to_string());
    let pdn = one_line(drafti_pdn::write_game(&game(&games[0]).record));
    assert!(pdn.contains("1. c3-d4 {[%emt 0:00:05]} f6-e5"), "{pdn}");
}

#[test]
fn an_end_reason_the_position_contradicts_is_a_warning() {
    let mut json: serde_json::Value =
        serde_json::from_str(&game_json("e1", &moves_of(&["c3-d4"]))).unwrap();
    json["endReason"] = "NO_MOVES".into();
    let games = read(&json.to_string());
    let g = game(&games[0]);
    assert!(g.is_valid());
    let p = g.warnings().next().unwrap();
    assert_eq!(p.kind, ProblemKind::EndReason);
    assert_eq!(
        p.message,
        "TzDraft game e1: end reason NO_MOVES, but Black is to move and has a legal move in the \
         final position"
    );
    json["endReason"] = "DRAW_ENDGAME".into();
    let games = read(&json.to_string());
    assert!(game(&games[0]).warnings().next().unwrap().message.contains(
        "end reason DRAW_ENDGAME, but TzDraft's endgame rule: a king and a man, or two kings, \
         against a king does not end the game"
    ));
}

#[test]
fn no_file_shape_loses_its_games() {
    let one = |id: &str| game_json(id, &moves_of(&["c3-d4", "f6-e5"]));
    let valid = |games: &[Imported]| {
        games
            .iter()
            .filter(|g| matches!(&g.game, Validated::Game(g) if g.is_valid()))
            .count()
    };
    // A compact array on one line over 1 MiB (JSON.stringify, json.dumps, jq -c).
    let ids: Vec<String> = (0..4000).map(|i| one(&format!("a{i}"))).collect();
    let compact = format!("[{}]", ids.join(","));
    assert!(compact.len() > MAX_GAME_BYTES);
    let games = read(&compact);
    assert_eq!((games.len(), valid(&games)), (4000, 4000));
    assert_eq!(games[3999].source_id.as_deref(), Some("a3999"));
    // JSON Lines whose first line is cut.
    let cut = format!("{}\n{}\n{}\n", &one("c0")[..40], one("c1"), one("c2"));
    let games = read(&cut);
    assert_eq!((games.len(), valid(&games)), (3, 2));
    // Two games on one line; a line then a pretty-printed game.
    let pretty = serde_json::to_string_pretty(
        &serde_json::from_str::<serde_json::Value>(&one("p1")).unwrap(),
    )
    .unwrap();
    let text = format!("{}{}\n{}\n{pretty}\n", one("t1"), one("t2"), one("t3"));
    let games = read(&text);
    assert_eq!((games.len(), valid(&games)), (4, 4));
    assert_eq!(games[3].line, 3);
    // Trailing commas (after each line, before the closing bracket) and a byte order mark
    // on a later line (two files put together).
    let text = format!(
        "[\n{},\n{},\n]\n\u{feff}{}\n{{\"id\": \"bad\", \"moves\": [1,]}}\n{}\n",
        one("k1"),
        one("k2"),
        one("k3"),
        one("k4")
    );
    let games = read(&text);
    assert_eq!((games.len(), valid(&games)), (5, 4));
    let message = unreadable_message(&games[3]);
    assert_eq!(
        message,
        "line 6 (game bad): not a TzDraft game: invalid type: integer `1`, expected struct \
         TzMove (column 25)"
    );
}
