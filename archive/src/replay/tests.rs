use super::*;
use drafti_pdn::parse_games;

fn run(text: &str) -> ReplayedGame {
    let record = parse_games(text.as_bytes()).remove(0).expect("parses");
    replay(record, &ReplayOptions::default())
}

fn kinds(game: &ReplayedGame) -> Vec<ProblemKind> {
    game.problems.iter().map(|p| p.kind).collect()
}

#[test]
fn valid_game_keeps_moves_and_positions() {
    let game = run("1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *");
    assert!(game.is_valid(), "{:?}", game.problems);
    assert_eq!(game.moves.len(), 6);
    assert_eq!(game.positions.len(), 7);
    assert_eq!(game.positions[0], game.start);
    assert_eq!(game.positions[6], *game.final_position());
    assert!(game.moves[3].is_capture());
    for (i, mv) in game.moves.iter().enumerate() {
        assert_eq!(game.positions[i].play(mv), game.positions[i + 1]);
    }
}

fn replay_with(text: &str, variant: Option<drafti_rules::Variant>) -> ReplayedGame {
    let record = parse_games(text.as_bytes()).remove(0).expect("parses");
    let options = ReplayOptions {
        variant_override: variant,
        ..ReplayOptions::default()
    };
    replay(record, &options)
}

#[test]
fn variant_from_tags() {
    use drafti_rules::Variant;
    assert_eq!(
        run("[GameType \"25,W,8,8,A0,0\"]\n*").variant,
        Variant::Russian
    );
    assert_eq!(run("[GameType \"29\"]\n*").variant, Variant::Czech);
    assert_eq!(run("[GameType \"TZ\"]\n*").variant, Variant::Tanzanian);
    assert_eq!(
        run("[Variant \"Tanzanian\"]\n*").variant,
        Variant::Tanzanian
    );
    assert_eq!(run("[Event \"x\"]\n*").variant, Variant::Tanzanian);
    let game = run("[GameType \"20\"]\n1. 32-28 *");
    assert_eq!(kinds(&game), [ProblemKind::UnknownVariant]);
    assert!(game.problems[0].message.contains("GameType 20"));
    let game = replay_with("[GameType \"20\"]\n1. c3-d4 *", Some(Variant::Czech));
    assert!(game.is_valid());
    assert_eq!(game.variant, Variant::Czech);
}

#[test]
fn black_may_start_a_tanzanian_game_only() {
    let game = run("1... b6-a5 2. c3-d4 *");
    assert!(game.is_valid(), "{:?}", game.problems);
    assert_eq!(game.first_mover, drafti_rules::Color::Black);
    assert_eq!(game.start.turn(), drafti_rules::Color::Black);
    let game = replay_with(
        "1... b6-a5 2. c3-d4 *",
        Some(drafti_rules::Variant::Russian),
    );
    assert_eq!(kinds(&game), [ProblemKind::IllegalMove]);
}

#[test]
fn illegal_and_ambiguous_moves_carry_the_position_and_the_choices() {
    let game = run("1. c3-b4 f6-g5 2. b4-c5 b6-a5 *");
    let p = &game.problems[0];
    assert_eq!(p.kind, ProblemKind::IllegalMove);
    assert_eq!(p.ply, Some(4));
    assert_eq!(p.move_text.as_deref(), Some("b6-a5"));
    let mut legal = p.legal.clone();
    legal.sort();
    assert_eq!(legal, ["b6xd4", "d6xb4"]);
    assert!(
        p.message.ends_with("a capture is compulsory"),
        "{}",
        p.message
    );
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.positions.len(), 4);
    assert!(!game.is_complete());

    let game = run("[FEN \"B:WK16,18,19,27:BK29\"]\n1... a1xe1 *");
    let p = &game.problems[0];
    assert_eq!(p.kind, ProblemKind::AmbiguousMove);
    let mut legal = p.legal.clone();
    legal.sort();
    assert_eq!(legal, ["a1xe5xg3xe1", "a1xf6xh4xe1"]);
    // An intermediate square that only one route passes tells them apart; g3 is on both
    // (the long route passes it between h4 and f2), and every square of the short route is
    // on the long one, so only its exact path names it.
    let fen = "[FEN \"B:WK16,18,19,27:BK29\"]\n1... ";
    assert!(run(&format!("{fen}a1xh4xe1 *")).is_valid());
    assert!(run(&format!("{fen}a1xe5xg3xe1 *")).is_valid());
    assert_eq!(
        kinds(&run(&format!("{fen}a1xg3xe1 *"))),
        [ProblemKind::AmbiguousMove]
    );
}

#[test]
fn variations_are_replayed_from_their_branch_point() {
    let game = run("1. c3-d4 (1. c3-b4 f6-g5 (1... b6-a5 2. b4-c5) 2. b4-a5) d6-e5 *");
    assert!(game.is_valid(), "{:?}", game.problems);
    let game = run("1. c3-d4 (1. c3-b4 f6-g5 2. b4-c3) d6-e5 *");
    assert_eq!(kinds(&game), [ProblemKind::IllegalMove]);
    assert!(game.problems[0].in_variation);
    assert_eq!(game.problems[0].ply, Some(3));
    assert!(game.is_complete());
}

#[test]
fn results_are_checked() {
    let game = run("[Result \"1-0\"]\n1. c3-d4 0-1");
    assert_eq!(kinds(&game), [ProblemKind::ResultMismatch]);
    let game = run("[FEN \"W:Wc3:Bd4,f6\"]\n1. c3xg7 1/2-1/2");
    assert_eq!(kinds(&game), [ProblemKind::ResultContradictsPosition]);
    assert_eq!(
        game.outcome,
        Some(drafti_rules::Outcome::Win(drafti_rules::Color::White))
    );
    let game = run("[FEN \"W:Wc3:Bd4,f6\"]\n1. c3xg7 b8-a7 1-0");
    assert_eq!(kinds(&game), [ProblemKind::MoveAfterEnd]);
    let game = run("[FEN \"W:WK29:BK4,18\"]\n1. a1xf6 1-0");
    assert_eq!(kinds(&game), [ProblemKind::DrawNotRecorded]);
    assert!(game.is_valid());
    assert_eq!(game.played_result(), Some(drafti_pdn::GameResult::WhiteWin));
}

#[test]
fn notation_warnings() {
    let game = run("1. c3-b4 f6-g5 2. b4-c5 b6-d4 4. e3xc5 *");
    assert!(game.is_valid());
    assert_eq!(
        kinds(&game),
        [ProblemKind::CaptureWrittenAsQuiet, ProblemKind::MoveNumber]
    );
    // Both numbering habits for a Black start are accepted.
    assert!(run("1... b6-a5 2. c3-d4 a5-b4 *").problems.is_empty());
    assert!(run("1. b6-a5 c3-d4 2. a5-b4 *").problems.is_empty());
}

#[test]
fn canonical_record_rewrites_notation() {
    let game = run("1. 22-17 11-16 2. 17-14 9-18 *");
    let record = canonical_record(&game, Notation::Algebraic, false).unwrap();
    let text = drafti_pdn::write_game(&record);
    assert_eq!(text, "1. c3-b4 f6-g5 2. b4-c5 b6xd4 *\n");
}

#[test]
fn canonical_move_numbers_past_the_largest_are_an_error_not_a_repeat() {
    // Issue 41: a FEN game numbered from 4294967295 was written with that number twice.
    for (text, largest) in [
        (
            "[FEN \"W:W21-32:B1-12\"]\n4294967295. c3-d4 f6-g5 d4-c5 *",
            4_294_967_296,
        ),
        (
            "[FEN \"B:W21-32:B1-12\"]\n4294967295... f6-g5 c3-d4 *",
            4_294_967_296,
        ),
        (
            // Only a variation runs past it.
            "[FEN \"W:W21-32:B1-12\"]\n4294967294. c3-d4 f6-g5 4294967295. d4-c5 \
             (4294967295. b2-c3 b6-a5 c3-b4) *",
            4_294_967_296,
        ),
    ] {
        let game = run(text);
        assert!(game.is_valid(), "{text}: {:?}", game.problems);
        let err = canonical_record(&game, Notation::Source, false).unwrap_err();
        assert_eq!(
            err,
            super::CanonicalError::NumberTooLarge(largest),
            "{text}"
        );
    }
    // Up to the largest, the numbers are written.
    let game = run("[FEN \"W:W21-32:B1-12\"]\n4294967295. c3-d4 f6-g5 *");
    let record = canonical_record(&game, Notation::Source, false).unwrap();
    assert!(drafti_pdn::write_game(&record).contains("4294967295. c3-d4 f6-g5 *"));
}

#[test]
fn max_plies_stops_the_mainline_and_the_checks_after_it() {
    // Ply 5 is illegal and the result contradicts nothing replayed: only 4 plies are read.
    let text = "1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. a1-b2 d6xb4 2-0";
    let record = parse_games(text.as_bytes()).remove(0).expect("parses");
    let options = ReplayOptions {
        max_plies: Some(4),
        ..ReplayOptions::default()
    };
    let game = replay(record.clone(), &options);
    assert!(game.is_valid(), "{:?}", game.problems);
    assert!(!game.is_complete());
    assert_eq!((game.moves.len(), game.positions.len()), (4, 5));
    assert_eq!(game.outcome, None);
    // The whole game has the illegal move; a limit past the game's end changes nothing.
    let whole = replay(record.clone(), &ReplayOptions::default());
    assert_eq!(kinds(&whole), [ProblemKind::IllegalMove]);
    let options = ReplayOptions {
        max_plies: Some(40),
        ..ReplayOptions::default()
    };
    assert_eq!(kinds(&replay(record, &options)), kinds(&whole));
}

#[test]
fn a_record_cut_right_after_its_tags_is_cut_short() {
    let cut = "[Event \"x\"]\n[PlyCount \"73\"]\n";
    let game = run(cut);
    assert_eq!(
        kinds(&game),
        [ProblemKind::PlyCountMismatch, ProblemKind::MissingResult]
    );
    assert_eq!(
        game.problems[0].message,
        "the PlyCount tag says 73 plies, the movetext has 0: the record looks cut short (and \
         has no result token)"
    );
    // The same message as a cut inside the movetext.
    let inside = run("[PlyCount \"4\"]\n1. c3-d4 f6-g5\n");
    assert_eq!(
        inside.problems.iter().find(|p| p.kind == ProblemKind::PlyCountMismatch).map(|p| &p.message[..]),
        Some("the PlyCount tag says 4 plies, the movetext has 2: the record looks cut short (and has no result token)")
    );
    // A forfeit keeps its result and no moves, with PlyCount 0 or 1 (or any, with a result).
    for text in [
        "[PlyCount \"73\"]\n1. 0-2\n",
        "[PlyCount \"0\"]\n0-2\n",
        "[PlyCount \"1\"]\n",
        "[PlyCount \"0\"]\n",
    ] {
        let game = run(text);
        assert!(
            !kinds(&game).contains(&ProblemKind::PlyCountMismatch),
            "{text}"
        );
    }
}
