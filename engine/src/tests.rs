//! Tests of the engine as a whole: forced wins with their distance and line (checked by
//! replaying the line in a `Game`), the draw laws, repetition, multipv, determinism.

use super::search::key_after;
use super::*;
use drafti_rules::{Color, DrawReason, Game, MoveList};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn search(fen: &str, variant: Variant, limits: &Limits) -> SearchResult {
    Engine::new(variant, 4).search(&pos(fen), limits, &[], |_| {})
}

/// Plays `pv` from `fen` in a `Game` (which adjudicates the draw laws) and returns the
/// outcome after the last move.
fn replay(fen: &str, variant: Variant, pv: &[Move]) -> Option<Outcome> {
    let mut game = Game::new(pos(fen), variant);
    for mv in pv {
        assert!(
            game.outcome().is_none(),
            "the line goes on after the game ended"
        );
        let legal = game.position().legal_moves(variant);
        assert!(legal.contains(mv), "{mv:?} is not legal in the line");
        game.play(mv);
    }
    game.outcome()
}

/// A proven win: the distance is the line's length and the line ends in the win.
fn assert_forced_win(fen: &str, variant: Variant, depth: u32, distance: u32) -> SearchResult {
    let result = search(fen, variant, &Limits::depth(depth));
    assert_eq!(result.score, Score::win_in(distance), "{fen}: {result:?}");
    assert_eq!(
        result.pv.len() as u32,
        distance,
        "{fen}: line {:?}",
        result.pv
    );
    let winner = pos(fen).turn();
    assert_eq!(
        replay(fen, variant, &result.pv),
        Some(Outcome::Win(winner)),
        "{fen}: line {:?}",
        result.pv
    );
    result
}

#[test]
fn multi_piece_shot() {
    // White gives c3-d4; Black must take e5xc3 (captures are compulsory); b2 then takes
    // three: b2xd4xb6xd8, crowned on d8, and the king takes the last man.
    let fen = "W:Wa1,b2,c3,e3,g3:Bc5,c7,e5,h6";
    let result = assert_forced_win(fen, Variant::Tanzanian, 10, 5);
    let shot = result.pv[2];
    assert_eq!(shot.capture_count(), 3);
    assert!(shot.promotes());
    assert_eq!(shot.full_notation(false), "b2xd4xb6xd8");
}

#[test]
fn shot_with_a_man_that_cannot_capture_backward() {
    // Men capture forward only in Tanzanian: after b4-c5, Black's a5 must go on to b4 and
    // c3 takes it; in Russian the a5 man could not be left behind the same way.
    assert_forced_win("W:We5,b4,c3:Ba5,a7", Variant::Tanzanian, 10, 5);
}

#[test]
fn runaway_man() {
    // d6 runs to the crown; the new king catches both black men.
    let result = assert_forced_win("W:Wd6:Bh8,g7", Variant::Tanzanian, 24, 19);
    assert!(result.pv[2].promotes(), "{:?}", result.pv);
}

#[test]
fn three_kings_against_one_won_within_the_count() {
    // White holds the main diagonal (a1); the lone king in the double corner is caught.
    let fen = "W:WKb8,Kd6,Ka1:BKg1";
    assert_forced_win(fen, Variant::Tanzanian, 12, 7);
    // The win needs three lone-king moves: with 8 made, 11 < 12, still a win…
    let mut engine = Engine::new(Variant::Tanzanian, 4);
    let limits = Limits {
        king_count: Some(8),
        ..Limits::depth(12)
    };
    let r = engine.search(&pos(fen), &limits, &[], |_| {});
    assert_eq!(r.score, Score::win_in(7));
    // …with 9 made the count reaches 12 first: no win.
    let limits = Limits {
        king_count: Some(9),
        ..Limits::depth(12)
    };
    let r = engine.search(&pos(fen), &limits, &[], |_| {});
    assert!(r.score.win_distance().is_none(), "{}", r.score);
    assert!(r.score < Score::centi_men(THREE_KINGS_WITH_COUNT + 100));
}

#[test]
fn three_kings_without_the_main_diagonal_are_a_draw() {
    let r = search("W:WKc1,Ke1,Kg1:BKb8", Variant::Tanzanian, &Limits::depth(6));
    assert_eq!(r.score, Score::DRAW);
    assert_eq!(
        r.outcome,
        Some(Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal))
    );
    assert!(r.best.is_none());
}

#[test]
fn at_most_two_kings_each_is_a_draw() {
    // At the root: the game is over.
    let r = search("W:WK1,K2:BK30", Variant::Tanzanian, &Limits::depth(6));
    assert_eq!(
        (r.score, r.outcome),
        (Score::DRAW, Some(Outcome::Draw(DrawReason::FewKings)))
    );
    // In the search: three kings against two, where Black must capture (over c3 or f2)
    // into two kings each. White is a king up (no law speaks of three kings against two),
    // but it is a draw.
    let fen = "B:WKc3,Kf2,Kh8:BKd4,Kb8";
    let r = search(fen, Variant::Tanzanian, &Limits::depth(6));
    assert!(r.best.unwrap().is_capture());
    assert_eq!(r.score, Score::DRAW);
    // Russian has no draw laws: one king against one is just a small edge.
    let r = search("W:WK1,K2:BK30", Variant::Russian, &Limits::depth(4));
    assert!(r.outcome.is_none() && r.best.is_some());
}

#[test]
fn no_move_is_a_loss_on_the_spot() {
    // White's man on a1… blocked: b2 held by Black with c3 behind it.
    let r = search("W:Wa1:Bb2,c3", Variant::Tanzanian, &Limits::depth(4));
    assert_eq!(r.score, Score::loss_in(0));
    assert_eq!(r.outcome, Some(Outcome::Win(Color::Black)));
    assert!(r.best.is_none() && r.pv.is_empty());
}

#[test]
fn loss_found_with_its_distance() {
    // The shot position after c3-d4: Black must take and loses in 4 plies.
    let fen = "B:Wa1,b2,d4,e3,g3:Bc5,c7,e5,h6";
    let r = search(fen, Variant::Tanzanian, &Limits::depth(8));
    assert_eq!(r.score, Score::loss_in(4));
    assert_eq!(r.pv.len(), 4);
    assert_eq!(
        replay(fen, Variant::Tanzanian, &r.pv),
        Some(Outcome::Win(Color::White))
    );
}

#[test]
fn repetition_in_the_game_scores_as_a_draw() {
    // One king each is a law draw in Tanzanian, so use Russian, where only the repetition
    // draws: if every line comes back to a position of the game, the score is exactly 0.
    let fen = "W:WKc1:BKf8";
    let p = pos(fen);
    let mut engine = Engine::new(Variant::Russian, 1);
    let plain = engine.search(&p, &Limits::depth(3), &[], |_| {});
    // Every position after one White move and one Black move, in the history: any line
    // comes back to one of them, or to the root itself.
    let mut history = vec![p.hash_key()];
    for w in p.legal_moves(Variant::Russian) {
        let a = p.play(&w);
        for b in a.legal_moves(Variant::Russian) {
            history.push(a.play(&b).hash_key());
        }
    }
    let repeated = engine.search(&p, &Limits::depth(3), &history, |_| {});
    assert_eq!(repeated.score, Score::DRAW);
    assert!(plain.best.is_some());
}

#[test]
fn multipv_lists_distinct_moves_by_score() {
    let fen = "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,13";
    let limits = Limits::depth(5).with_multipv(4);
    let r = search(fen, Variant::Tanzanian, &limits);
    let legal = pos(fen).legal_moves(Variant::Tanzanian);
    assert_eq!(r.lines.len(), 4.min(legal.len()));
    for pair in r.lines.windows(2) {
        assert!(pair[0].score >= pair[1].score);
        assert!(!pair[0].mv.same_move(&pair[1].mv));
    }
    for line in &r.lines {
        assert_eq!(line.pv[0], line.mv);
    }
    assert_eq!(r.best, Some(r.lines[0].mv));
    // Each line's score is the move's own score: search it alone and compare (equal up to
    // what the order of the moves searched before changes in the reductions).
    let mut engine = Engine::new(Variant::Tanzanian, 4);
    for line in &r.lines {
        let alone = engine
            .search_moves(&pos(fen), &Limits::depth(5), &[], &[line.mv], |_| {})
            .unwrap();
        let (a, b) = (alone.score.as_centi_men(), line.score.as_centi_men());
        match (a, b) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 10, "{:?}: {a} {b}", line.mv),
            _ => assert_eq!(alone.score, line.score, "{:?}", line.mv),
        }
    }
    // More lines than moves: every move, once.
    let all = search(fen, Variant::Tanzanian, &Limits::depth(3).with_multipv(99));
    assert_eq!(all.lines.len(), legal.len());
}

#[test]
fn search_moves_rejects_illegal_moves() {
    let start = pos("W:W21-32:B1-12");
    let black_move = pos("B:W21-32:B1-12").legal_moves(Variant::Tanzanian)[0];
    let mut engine = Engine::new(Variant::Tanzanian, 1);
    let err = engine
        .search_moves(&start, &Limits::depth(2), &[], &[black_move], |_| {})
        .unwrap_err();
    assert!(matches!(err, SearchError::IllegalMove(_)));
}

#[test]
fn node_limit_is_deterministic() {
    let fen = "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14";
    let limits = Limits::nodes(60_000);
    let first = search(fen, Variant::Tanzanian, &limits);
    assert!(first.depth >= 3);
    // Same engine again (after other searches), a fresh engine, other threads.
    let mut reused = Engine::new(Variant::Tanzanian, 4);
    reused.search(&pos("W:W21-32:B1-12"), &Limits::depth(6), &[], |_| {});
    let again = reused.search(&pos(fen), &limits, &[], |_| {});
    let threads: Vec<SearchResult> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|_| s.spawn(|| search(fen, Variant::Tanzanian, &limits)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for other in std::iter::once(&again).chain(&threads) {
        assert_eq!(
            (other.best, other.score, &other.pv, other.depth, other.nodes),
            (first.best, first.score, &first.pv, first.depth, first.nodes)
        );
    }
}

#[test]
fn whole_iterations_stop_before_a_depth_that_cannot_finish() {
    let fens = [
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        "W:W21-32:B1-12",
    ];
    let (mut plain_nodes, mut whole_nodes, mut same_depth_for_less) = (0, 0, 0);
    for fen in fens {
        for nodes in [20_000, 60_000, 100_000] {
            let plain = search(fen, Variant::Tanzanian, &Limits::nodes(nodes));
            let whole_limits = Limits {
                whole_iterations: true,
                ..Limits::nodes(nodes)
            };
            let whole = search(fen, Variant::Tanzanian, &whole_limits);
            assert!(whole.depth <= plain.depth && whole.nodes <= plain.nodes);
            // The last completed iteration's result, as a search to that depth finds it.
            let to_depth = search(fen, Variant::Tanzanian, &Limits::depth(whole.depth));
            assert_eq!(
                (whole.best, whole.score, &whole.pv),
                (to_depth.best, to_depth.score, &to_depth.pv)
            );
            plain_nodes += plain.nodes;
            whole_nodes += whole.nodes;
            if whole.depth == plain.depth && whole.nodes < plain.nodes {
                same_depth_for_less += 1;
            }
        }
    }
    // The same answer for fewer nodes happens; an estimate too high costs a depth now and
    // then; overall the nodes fall (here by a fifth).
    assert!(same_depth_for_less >= 1);
    assert!(
        whole_nodes * 10 < plain_nodes * 9,
        "{whole_nodes} of {plain_nodes}"
    );
}

#[test]
fn a_kept_table_saves_work_and_stays_deterministic() {
    let fen = "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14";
    let run = || {
        let mut engine = Engine::new(Variant::Tanzanian, 4);
        engine.set_keep_table(true);
        let first = engine.search(&pos(fen), &Limits::depth(9), &[], |_| {});
        let second = engine.search(&pos(fen), &Limits::depth(9), &[], |_| {});
        (first, second)
    };
    let (first, second) = run();
    assert!(
        second.nodes * 4 < first.nodes * 3,
        "the second search reuses the first: {} then {} nodes",
        first.nodes,
        second.nodes
    );
    let (a, b) = (first.score.as_centi_men(), second.score.as_centi_men());
    assert!(
        a.zip(b).is_some_and(|(a, b)| (a - b).abs() <= 10),
        "{a:?} {b:?}"
    );
    let (_, again) = run();
    assert_eq!((again.best, again.nodes), (second.best, second.nodes));
}

#[test]
fn depth_reports_come_in_order() {
    let mut depths = Vec::new();
    let r = Engine::new(Variant::Tanzanian, 1).search(
        &pos("W:W21-32:B1-12"),
        &Limits::depth(6),
        &[],
        |info| {
            assert!(!info.pv().is_empty());
            depths.push(info.depth);
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
    // The line is a sequence of legal moves (replay asserts each one).
    assert_eq!(replay("W:W21-32:B1-12", Variant::Tanzanian, &r.pv), None);
    assert_eq!(r.depth, 6);
    assert!(r.seldepth >= 6);
}

#[test]
fn every_variant_searches() {
    for variant in Variant::ALL {
        let r = search("W:W21-32:B1-12", variant, &Limits::depth(6));
        assert!(r.best.is_some(), "{variant}");
        assert!(!r.score.is_proven());
    }
    // Russian men capture backward: d4xb2 takes Black's last piece, a win in 1. In
    // Tanzanian (and Czech) the man cannot, and there is no such win.
    let fen = "W:Wd4,a1:Bc3";
    let r = search(fen, Variant::Russian, &Limits::depth(4));
    assert_eq!(r.score, Score::win_in(1));
    for variant in [Variant::Tanzanian, Variant::Czech] {
        let r = search(fen, variant, &Limits::depth(4));
        assert_ne!(r.score, Score::win_in(1), "{variant}");
    }
}

#[test]
fn incremental_keys_match() {
    let mut p = pos("W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14");
    let mut list = MoveList::new();
    for i in 0..80 {
        p.generate_moves(Variant::Tanzanian, &mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[(i * 5 + 3) % list.len()];
        assert_eq!(key_after(&p, p.hash_key(), &mv), p.play(&mv).hash_key());
        p = p.play(&mv);
    }
}

#[test]
fn evaluate_is_from_the_side_to_move() {
    let engine = Engine::new(Variant::Tanzanian, 0);
    let w = engine.evaluate(&pos("W:W21-32:B1-11"));
    let b = engine.evaluate(&pos("B:W21-32:B1-11"));
    assert!(w > Score::centi_men(50));
    assert!(b < Score::centi_men(-50));
    // The two differ only by the side-to-move term (counted for White, then for Black).
    let weights = crate::weights::shipped(Variant::Tanzanian);
    let to_move = weights.mg[crate::weights::TO_MOVE]
        .abs()
        .max(weights.eg[crate::weights::TO_MOVE].abs())
        / crate::weights::UNIT
        + 1;
    let (w, b) = (w.as_centi_men().unwrap(), b.as_centi_men().unwrap());
    assert!((w + b).abs() <= 2 * to_move, "{w} {b} {to_move}");
}

/// Plays `fen` out with the engine on both sides (`nodes` a move, the table kept between
/// moves as in a game) and returns how the rules core's `Game` ended it, and after how many
/// plies (`None` if still running after `max_plies`).
fn play_out(fen: &str, nodes: u64, max_plies: usize) -> (Option<Outcome>, usize) {
    let variant = Variant::Tanzanian;
    let mut engine = Engine::new(variant, 16);
    engine.set_keep_table(true);
    let mut game = Game::new(pos(fen), variant);
    let mut history = Vec::new();
    for ply in 0..max_plies {
        if game.outcome().is_some() {
            return (game.outcome(), ply);
        }
        let limits = Limits::nodes(nodes).with_game_counts(&game);
        let result = engine.search(game.position(), &limits, &history, |_| {});
        let mv = result.best.expect("a move while the game runs");
        history.push(game.position().hash_key());
        game.play(&mv);
    }
    (game.outcome(), max_plies)
}

#[test]
fn endings_a_piece_up_are_won_where_a_win_exists() {
    // Each a win for White to move by the endgame tables (`drafti egtb probe`, distance
    // in plies in brackets), played out by the engine against itself to the end.
    let wins = [
        (
            "W:W5,K11,K18:BK32",
            "two kings and a man against a king (9)",
        ),
        (
            "W:WK11,K24,32:BK9",
            "two kings and a man against a king (9)",
        ),
        (
            "W:WK14,15,K23:BK32",
            "two kings and a man against a king (9)",
        ),
        (
            "W:WK1,K4,K17:BK28",
            "three kings against one within the count (7)",
        ),
        (
            "W:WK10,K19,K29:BK12",
            "three kings against one within the count (7)",
        ),
        ("W:WK6,7,32:BK1", "a king and two men against a king (9)"),
        (
            "W:W14,23,K26,K32:BK24",
            "two kings and two men against a king (29)",
        ),
        (
            "W:WK13,14,15,K17:BK1",
            "two kings and two men against a king (29)",
        ),
        (
            "W:WK1,K11,K14,18:BK26",
            "three kings and a man against a king (21)",
        ),
        (
            "W:WK11,K17,23,K30:BK31",
            "three kings and a man against a king (21)",
        ),
        ("W:WK4,K8,K12,K29:BK27", "four kings against a king (21)"),
    ];
    for (fen, what) in wins {
        let (outcome, plies) = play_out(fen, 100_000, 120);
        assert_eq!(
            outcome,
            Some(Outcome::Win(Color::White)),
            "{what}: {fen} not won ({plies} plies)"
        );
    }
}

#[test]
fn drawn_endings_a_piece_up_end_by_a_law() {
    // Table draws where the side a piece up cannot win: rather than shuffling, it crowns
    // into a draw law (a king and a man: law 1 at once; two kings and a man: law 2's count
    // runs out, or the law draws at once without the main diagonal).
    for fen in ["W:W12,K19:BK4", "W:WK10,12:BK18", "W:W5,K19,K25:BK21"] {
        let (outcome, plies) = play_out(fen, 50_000, 80);
        assert!(
            matches!(outcome, Some(Outcome::Draw(_))),
            "{fen}: {outcome:?} after {plies} plies"
        );
    }
}

/// A Tanzanian engine with law 3 on (`true`, as shipped) or off.
fn law3_engine(on: bool) -> Engine {
    let config = Config {
        law3: i32::from(on),
        ..Config::default()
    };
    let variant = Variant::Tanzanian;
    Engine::with_config(variant, 4, DrawLaws::for_variant(variant), config)
}

#[test]
fn law3_the_lone_side_claims_a_draw_where_playing_on_loses() {
    // White: a man on a7, kings on e5 (the main diagonal) and f4; Black's king on b8. Without
    // law 3 White wins in 3 plies (the endgame tables of version 1 said so too); with it,
    // wherever White's king stays on the diagonal Black crowns the man and the count runs
    // out, and every other line gives a king away: a draw.
    let fen = "W:W5,K15,K19:BK1";
    let off = law3_engine(false).search(&pos(fen), &Limits::depth(10), &[], |_| {});
    assert_eq!(off.score, Score::win_in(3), "{off:?}");
    assert_eq!(
        replay(fen, Variant::Tanzanian, &off.pv),
        Some(Outcome::Win(Color::White))
    );
    let on = law3_engine(true).search(&pos(fen), &Limits::depth(10), &[], |_| {});
    assert_eq!(on.score, Score::DRAW, "{on:?}");
    // The lone side to move at the root: a lone king on d8 must take f6 and is taken back,
    // unless it crowns the man on b8 first: then it takes a king and law 1 draws.
    let lone = "W:WK2:B1,K11,K20";
    let result = law3_engine(true).search(&pos(lone), &Limits::depth(8), &[], |_| {});
    assert_eq!(result.lines[0].score, Score::loss_in(2), "{result:?}");
    assert_eq!(result.claim, Some(Score::DRAW));
    assert_eq!(result.score, Score::DRAW);
    let result = law3_engine(false).search(&pos(lone), &Limits::depth(8), &[], |_| {});
    assert_eq!((result.score, result.claim), (Score::loss_in(2), None));
}

#[test]
fn law3_a_claim_that_does_not_help_leaves_the_win() {
    // The king on f6 holds the main diagonal, so Black may claim at each of its moves: the
    // three kings then win within the count. A win in 9 either way (the tables agree).
    let fen = "W:WK11,K24,32:BK9";
    for on in [true, false] {
        let result = law3_engine(on).search(&pos(fen), &Limits::depth(14), &[], |_| {});
        assert_eq!(result.score, Score::win_in(9), "law3 {on}: {result:?}");
        assert_eq!(
            replay(fen, Variant::Tanzanian, &result.pv),
            Some(Outcome::Win(Color::White))
        );
    }
    // The lone king on h8 to move: claiming loses as fast as playing on.
    let lone = "W:WK4:B1,K11,K15";
    let result = law3_engine(true).search(&pos(lone), &Limits::depth(8), &[], |_| {});
    assert_eq!(result.score, Score::loss_in(2), "{result:?}");
    assert_eq!(result.claim, Some(Score::loss_in(2)));
}

#[test]
fn law3_no_claim_without_a_king_on_the_main_diagonal() {
    // Black's kings on e3 and f2, its man on b8: the main diagonal is not held.
    let fen = "W:WK5:B1,K23,K27";
    let result = law3_engine(true).search(&pos(fen), &Limits::depth(8), &[], |_| {});
    assert_eq!(result.claim, None);
    assert_eq!(result.score, Score::loss_in(2), "{result:?}");
    let off = law3_engine(false).search(&pos(fen), &Limits::depth(8), &[], |_| {});
    assert_eq!(result.score, off.score);
    assert_eq!(result.best, off.best);
}

/// An engine with `settings` applied to the shipped switches.
fn engine_with(variant: Variant, settings: &str) -> Engine {
    let mut config = Config::default();
    config.apply(settings).unwrap();
    Engine::with_config(variant, 4, DrawLaws::for_variant(variant), config)
}

/// Each depth's best move, score, nodes and line of a search to `depth`.
fn depth_by_depth(
    fen: &str,
    variant: Variant,
    settings: &str,
    depth: u32,
) -> Vec<(u32, Move, Score, u64, Vec<Move>)> {
    let mut seen = Vec::new();
    engine_with(variant, settings).search(&pos(fen), &Limits::depth(depth), &[], |info| {
        let line = &info.lines[0];
        seen.push((info.depth, line.mv, line.score, info.nodes, line.pv.clone()));
    });
    seen
}

/// The search stays sound under `setting`: every depth completes with a legal move, a score
/// in range and a line legal move by move, and the same search twice is the same.
fn assert_sound(setting: &str) {
    // The variants' starts, middle games with and without kings, and a shot.
    let positions = [
        ("W:W21-32:B1-12", Variant::Tanzanian),
        ("W:W21-32:B1-12", Variant::Czech),
        ("W:W21-32:B1-12", Variant::Russian),
        (
            "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
            Variant::Tanzanian,
        ),
        ("B:W19,20,25,26,28-30:B1,3-5,9,11,12,21", Variant::Russian),
        ("W:WKa3,c3,e3,g3:BKh6,b6,d6", Variant::Russian),
        ("W:WKb2,c3,g3:BKg7,b6,f6", Variant::Czech),
        ("W:W17,24,25,27,30,31:B7,9,10,11,15,18", Variant::Tanzanian),
    ];
    for (fen, variant) in positions {
        let seen = depth_by_depth(fen, variant, setting, 10);
        assert_eq!(seen.len(), 10, "{setting}: {fen}");
        let legal = pos(fen).legal_moves(variant);
        for (depth, mv, score, _, pv) in &seen {
            assert!(legal.contains(mv), "{setting}: {fen} depth {depth}: {mv:?}");
            assert!(
                (Score::loss_in(0)..=Score::win_in(0)).contains(score),
                "{setting}: {fen} depth {depth}: {score}"
            );
            assert_eq!(pv[0], *mv);
            // Every move of the line is legal where it is played.
            let mut game = Game::new(pos(fen), variant);
            for m in pv {
                if game.outcome().is_some() {
                    break;
                }
                assert!(game.position().legal_moves(variant).contains(m), "{pv:?}");
                game.play(m);
            }
        }
        let again = depth_by_depth(fen, variant, setting, 10);
        assert_eq!(seen, again, "{setting}: {fen} twice");
    }
}

#[test]
fn the_search_is_sound_with_and_without_reductions() {
    assert_sound("");
    assert_sound("lmr=0");
}

#[cfg(feature = "search-ideas")]
#[test]
fn search_ideas_keep_the_search_sound() {
    for setting in [
        "probcut=10",
        "counter-moves=1",
        "piece-history=1",
        "probcut=10,counter-moves=1",
    ] {
        assert_sound(setting);
    }
}

#[test]
fn a_shot_behind_a_forced_capture_is_found_at_depth_2() {
    // White: b4, g3, b2, f2, c1, e1; Black: e7, b6, d6, f6, e5, d4. b4-c5 gives a man
    // (d6xb4 is forced), b2-c3 gives another (b4xd2 or d4xb2), and the c1 man takes three
    // (c1xe3xc5xa7 or c1xa3xc5xa7): a man up, on a7. At depth 1 the second sacrifice is a
    // quiet move at the horizon; at depth 2 the forced capture's extension reaches it.
    let fen = "W:W17,24,25,27,30,31:B7,9,10,11,15,18";
    let variant = Variant::Tanzanian;
    let shot = pos(fen)
        .legal_moves(variant)
        .into_iter()
        .find(|m| m.full_notation(false) == "b4-c5")
        .unwrap();
    let at = |depth| engine_with(variant, "").search(&pos(fen), &Limits::depth(depth), &[], |_| {});
    let (shallow, deeper) = (at(1), at(2));
    assert_ne!(shallow.best, Some(shot), "{shallow:?}");
    assert_eq!(deeper.best, Some(shot), "{deeper:?}");
    assert!(deeper.score > Score::centi_men(200), "{}", deeper.score);
}

/// A TzDraft game's three kings against one, played quietly until the strong side has made
/// `moves` moves since its last capture, White to move.
fn tzdraft_three_kings_after(moves: u32) -> Game {
    let variant = Variant::TzDraft;
    let mut game = Game::new(pos("W:WK1,K3,K5:BK30"), variant);
    while game.tzdraft_counts().unwrap().quiet_moves(Color::White) < moves
        || game.position().turn() != Color::White
    {
        let p = *game.position();
        let quiet = p
            .legal_moves(variant)
            .into_iter()
            .find(|m| !m.is_capture() && !p.play(m).has_capture(variant))
            .expect("a quiet move");
        game.play(&quiet);
        assert_eq!(game.outcome(), None);
    }
    game
}

#[test]
fn tzdraft_searches_count_on_from_the_game() {
    let mut engine = Engine::new(Variant::TzDraft, 16);
    let search = |engine: &mut Engine, game: &Game, counts: bool| {
        let mut limits = Limits::nodes(200_000);
        if counts {
            limits.tzdraft_counts = game.tzdraft_counts();
        }
        engine.clear();
        engine.search(game.position(), &limits, &[], |_| {})
    };
    // Two quiet moves made: ten left to catch the lone king, whose search counts on.
    let early = tzdraft_three_kings_after(2);
    let late = tzdraft_three_kings_after(11);
    let (early_score, late_score) = (
        search(&mut engine, &early, true).score,
        search(&mut engine, &late, true).score,
    );
    assert!(early_score > Score::DRAW, "{early_score:?}");
    // White's 12th quiet move draws by the three-kings rule and no capture ends it first:
    // a draw, though the same position searched as a game's start is no draw.
    assert_eq!(late_score, Score::DRAW);
    assert!(search(&mut engine, &late, false).score > Score::DRAW);
}

#[test]
fn tzdraft_endgame_rule_and_king_against_king_are_draws() {
    let mut engine = Engine::new(Variant::TzDraft, 16);
    // A king each: over at once.
    let r = engine.search(&pos("W:WK1:BK30"), &Limits::nodes(1_000), &[], |_| {});
    assert_eq!(
        r.outcome,
        Some(Outcome::Draw(DrawReason::TzDraftKingAgainstKing))
    );
    // Two kings against a king the strong side cannot trap at once: the server draws it
    // one ply on, so nothing is won (Czech rules score such kings as such too, but here it
    // is the rule, not the evaluation).
    let r = engine.search(&pos("W:WK1,K3:BK30"), &Limits::nodes(50_000), &[], |_| {});
    assert_eq!(r.score, Score::DRAW);
}
