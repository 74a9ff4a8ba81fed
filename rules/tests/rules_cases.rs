//! One test per rule of RULES.md: a position built for the rule, with its COMPLETE legal move
//! set asserted (every expected set was worked out by hand on the diagram drawn above it).
//!
//! Moves are compared as `from-to` (quiet) or `fromxto[captured,…]` (captured squares sorted),
//! i.e. by (from, to, captured set), the identity of a move in RULES.md; where the route is
//! unique the full path (`c3xe5xg7`) is checked too. Every helper call also checks that the
//! list has no duplicate, and that `count_moves`, `has_legal_move` (and `has_quiet_move` without
//! a capture) and `perft(1)` agree with it.
//!
//! Diagrams: `w`/`b` men, `W`/`B` kings, `.` empty dark squares, as White sees the board.

use drafti_rules::{
    perft, Color, DrawLaws, DrawReason, Game, Move, Outcome, Position, Square, Variant,
};
use std::collections::BTreeSet;

const TZ: Variant = Variant::Tanzanian;
const CZ: Variant = Variant::Czech;
const RU: Variant = Variant::Russian;
const TZD: Variant = Variant::TzDraft;
/// The rule sets that read captures as the article does (all but TzDraft's server).
const ARTICLE: [Variant; 3] = [TZ, CZ, RU];

/// A move's identity: start, end, captured set.
fn key(m: &Move) -> String {
    if !m.is_capture() {
        return format!("{}-{}", m.from(), m.to());
    }
    let mut caps: Vec<String> = m.captured().into_iter().map(|s| s.to_string()).collect();
    caps.sort();
    format!("{}x{}[{}]", m.from(), m.to(), caps.join(","))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Asserts the complete legal move set of `fen` under `variant`; returns the moves.
fn assert_moves(fen: &str, variant: Variant, expected: &[&str]) -> Vec<Move> {
    let p = pos(fen);
    let moves = p.legal_moves(variant);
    let keys: Vec<String> = moves.iter().map(key).collect();
    let set: BTreeSet<String> = keys.iter().cloned().collect();
    assert_eq!(
        set.len(),
        keys.len(),
        "{variant}: a move is listed twice in {fen}: {keys:?}"
    );
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        set.len(),
        expected.len(),
        "{variant}: duplicate in the expectation"
    );
    assert_eq!(
        set,
        want,
        "{variant}: legal moves of {fen}\n{}",
        p.board_text()
    );
    assert_eq!(
        p.count_moves(variant),
        moves.len(),
        "{variant}: count_moves"
    );
    assert_eq!(p.has_legal_move(variant), !moves.is_empty());
    if !p.has_capture(variant) {
        assert_eq!(
            p.has_quiet_move(),
            !moves.is_empty(),
            "{variant}: has_quiet_move"
        );
    }
    assert_eq!(perft(&p, variant, 1), moves.len() as u64);
    moves
}

/// Asserts the set of full notations (every landing square) of the legal moves.
fn assert_paths(fen: &str, variant: Variant, expected: &[&str]) {
    let moves = pos(fen).legal_moves(variant);
    let got: BTreeSet<String> = moves.iter().map(|m| m.full_notation(false)).collect();
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want, "{variant}: paths of {fen}");
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Men move
// ---------------------------------------------------------------------------------------------

/// Men move one square diagonally forward, never backward, in every variant.
/// ```text
/// 8  . . . . . . . b        h8 black man (no part in it)
/// 7  . . . . . . . .
/// 6  . . . . . . . .
/// 5  . . . . . . . .
/// 4  . . . . . . . .
/// 3  . . w . . . . .        c3 -> b4, d4 (not b2, d2)
/// 2  . . . . . . . w        h2 -> g3     (not g1)
/// 1  w . . . . . . .        a1 -> b2
///    a b c d e f g h
/// ```
#[test]
fn men_move_forward_only() {
    for v in Variant::ALL {
        assert_moves("W:Wa1,c3,h2:Bh8", v, &["a1-b2", "c3-b4", "c3-d4", "h2-g3"]);
    }
}

/// Black's forward is down the board (towards rank 1), quiet moves and captures alike.
/// ```text
/// 8  . . . . . . . b        h8 -> g7
/// 6  . . . b . . . .        d6 -> c5, e5 (not c7, e7)
/// 1  w . . . . . . .
/// ```
/// And a capture: Black d4 takes e3 forward (to f2); c5 lies behind it, so only Russian
/// men may take it (to b6).
/// ```text
/// 6  . . . . . . . .
/// 5  . . w . . . . .        c5 white (behind Black's d4)
/// 4  . . . b . . . .        d4 black man
/// 3  . . . . w . . .        e3 white (in front), f2 empty
/// ```
#[test]
fn black_to_move_uses_blacks_forward_direction() {
    for v in Variant::ALL {
        assert_moves("B:Wa1:Bd6,h8", v, &["d6-c5", "d6-e5", "h8-g7"]);
    }
    assert_moves("B:Wc5,e3:Bd4", TZ, &["d4xf2[e3]"]);
    assert_moves("B:Wc5,e3:Bd4", CZ, &["d4xf2[e3]"]);
    assert_moves("B:Wc5,e3:Bd4", RU, &["d4xf2[e3]", "d4xb6[c5]"]);
    // The same position with White to move: White's c5 and e3 move up the board.
    assert_moves("W:Wc5,e3:Bd4", TZ, &["c5-b6", "c5-d6", "e3-f4"]);
}

// ---------------------------------------------------------------------------------------------
// Captures by men
// ---------------------------------------------------------------------------------------------

/// A man never captures backward in Tanzanian and Czech; it does in Russian.
/// ```text
/// 5  . . . . . . . .
/// 4  . . . w . . . .        d4 white man
/// 3  . . b . b . . .        c3, e3 black men behind it; b2 and f2 empty
/// 2  . . . . . . . .
/// ```
#[test]
fn man_cannot_capture_backward_except_in_russian() {
    assert_moves("W:Wd4:Bc3,e3", TZ, &["d4-c5", "d4-e5"]);
    assert_moves("W:Wd4:Bc3,e3", CZ, &["d4-c5", "d4-e5"]);
    assert_moves("W:Wd4:Bc3,e3", RU, &["d4xb2[c3]", "d4xf2[e3]"]);
}

/// Capturing is compulsory: the quiet moves of g3 and of the king h2 are not legal while c3
/// can take d4.
/// ```text
/// 5  . . . . . . . .
/// 4  . . . b . . . .        d4 black man, e5 empty
/// 3  . . w . . . w .        c3, g3 white men
/// 2  . . . . . . . W        h2 white king (blocked by g3 on its long diagonal)
/// ```
#[test]
fn capture_is_compulsory() {
    for v in Variant::ALL {
        let moves = assert_moves("W:Wc3,g3,Kh2:Bd4", v, &["c3xe5[d4]"]);
        assert!(moves[0].is_capture() && !moves[0].promotes());
    }
    // Without the capture the same pieces have quiet moves (so the test above is not vacuous).
    assert_moves(
        "W:Wc3,g3,Kh2:Bh8",
        TZ,
        &["c3-b4", "c3-d4", "g3-f4", "g3-h4", "h2-g1"],
    );
}

/// Men capture kings (both colours).
/// ```text
/// 5  . . . . . . . .
/// 4  . . . B . . . .        d4 black KING, e5 empty
/// 3  . . w . . . . .        c3 white man
/// ```
#[test]
fn men_capture_kings() {
    for v in Variant::ALL {
        assert_moves("W:Wc3:BKd4", v, &["c3xe5[d4]"]);
        // Black man e5 takes the white king d4 forward, landing c3.
        assert_moves("B:WKd4:Be5", v, &["e5xc3[d4]"]);
    }
}

/// A capture continues across a diagonal that crosses the one it arrived on: c3 takes d4
/// going north-east, lands e5, then takes d6 going north-west, landing c7.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . . .        c7 empty: the end
/// 6  . . . b . . . .        d6
/// 5  . . . . . . . .        e5 empty
/// 4  . . . b . . . .        d4
/// 3  . . w . . . . .        c3
/// ```
#[test]
fn capture_continues_across_intersecting_diagonals() {
    for v in Variant::ALL {
        assert_moves("W:Wc3:Bd4,d6", v, &["c3xc7[d4,d6]"]);
        assert_paths("W:Wc3:Bd4,d6", v, &["c3xe5xc7"]);
    }
    // A king too: a1 takes c3 (north-east), must stop on d4, the one square from which it
    // can go on, and takes f2 going south-east, landing g1 (the edge).
    // 3  . . b . . . . .   c3 black
    // 2  . . . . . b . .   f2 black
    // 1  W . . . . . . .   a1 white king; g1 empty
    for v in Variant::ALL {
        assert_moves("W:WKa1:Bc3,f2", v, &["a1xg1[c3,f2]"]);
        assert_paths("W:WKa1:Bc3,f2", v, &["a1xd4xg1"]);
    }
}

/// No majority rule: a 1-piece capture and a 3-piece capture are both legal.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . . .        e7 empty: end of the long capture
/// 6  . . . . . b . .        f6
/// 5  . . . . . . . .        c5, g5 empty
/// 4  . b . . . b . .        b4, f4
/// 3  w . . . . . . .        a3 white man: a3xc5 (1 piece)
/// 2  . . . b . . . .        d2
/// 1  . . w . . . . .        c1 white man: c1xe3xg5xe7 (3 pieces)
/// ```
#[test]
fn free_choice_between_short_and_long_captures() {
    for v in Variant::ALL {
        assert_moves(
            "W:Wa3,c1:Bb4,d2,f4,f6",
            v,
            &["a3xc5[b4]", "c1xe7[d2,f4,f6]"],
        );
        assert_paths("W:Wa3,c1:Bb4,d2,f4,f6", v, &["a3xc5", "c1xe3xg5xe7"]);
    }
}

/// A man that reaches the far row during a capture is crowned and the move ends there
/// (Tanzanian, Czech); in Russian it goes on capturing as a king.
/// ```text
/// 8  . . . . . . . .        d8 empty: crowning square
/// 7  . . . . b . . .        e7
/// 6  . b . . . w . .        f6 white man; b6 black; a5 empty
/// 5  . . . . . . . .
/// ```
/// From d8 a king could take b6 (d8-c7-b6-a5): Russian does, Tanzanian and Czech stop.
#[test]
fn man_crowned_mid_capture_stops_except_in_russian() {
    let fen = "W:Wf6:Be7,b6";
    for v in [TZ, CZ] {
        let moves = assert_moves(fen, v, &["f6xd8[e7]"]);
        assert!(moves[0].promotes());
        let after = pos(fen).play(&moves[0]);
        assert_eq!(
            after.kings(Color::White).into_iter().collect::<Vec<_>>(),
            [sq("d8")]
        );
        assert!(after.pieces(Color::Black).contains(sq("b6")));
    }
    let moves = assert_moves(fen, RU, &["f6xa5[b6,e7]"]);
    assert_paths(fen, RU, &["f6xd8xa5"]);
    assert!(moves[0].promotes());
    let after = pos(fen).play(&moves[0]);
    assert_eq!(
        after.kings(Color::White).into_iter().collect::<Vec<_>>(),
        [sq("a5")]
    );
    assert!(after.pieces(Color::Black).is_empty());
}

/// Promotion by a quiet move (both colours); the man is a king afterwards.
/// ```text
/// 8  . . . . . . . .        b8, d8 empty
/// 7  . . w . . . . .        c7 white man
/// ...
/// 2  . . . . . b . .        f2 black man -> e1, g1
/// ```
#[test]
fn promotion_by_quiet_move() {
    for v in Variant::ALL {
        let moves = assert_moves("W:Wc7:Bf2", v, &["c7-b8", "c7-d8"]);
        for m in &moves {
            assert!(m.promotes(), "{m:?}");
            let after = pos("W:Wc7:Bf2").play(m);
            assert!(after.kings(Color::White).contains(m.to()));
        }
        let moves = assert_moves("B:Wc7:Bf2", v, &["f2-e1", "f2-g1"]);
        for m in &moves {
            assert!(m.promotes(), "{m:?}");
            let after = pos("B:Wc7:Bf2").play(m);
            assert!(after.kings(Color::Black).contains(m.to()));
        }
        // A man not reaching the far row is not crowned.
        let moves = assert_moves("W:Wc5:Bf2", v, &["c5-b6", "c5-d6"]);
        assert!(moves.iter().all(|m| !m.promotes()));
    }
}

// ---------------------------------------------------------------------------------------------
// Kings
// ---------------------------------------------------------------------------------------------

/// A flying king moves any distance over empty squares, stopped by any piece.
/// ```text
/// 8  . . . . . . . b        h8 black man (edge: nothing beyond, so no capture)
/// 7  . . . . . . . .
/// 6  . w . . . . . .        b6 white man blocks the king's north-west line
/// 5  . . . . . . . .
/// 4  . . . W . . . .        d4 white king
/// 3  . . . . . . . .
/// 2  . . . . . . . .
/// 1  . . . . . . . .
/// ```
#[test]
fn flying_king_quiet_moves() {
    for v in Variant::ALL {
        assert_moves(
            "W:WKd4,b6:Bh8",
            v,
            &[
                "d4-c5", "d4-e5", "d4-f6", "d4-g7", "d4-e3", "d4-f2", "d4-g1", "d4-c3", "d4-b2",
                "d4-a1", "b6-a7", "b6-c7",
            ],
        );
    }
}

/// A king captures at a distance and lands on any empty square beyond the piece, up to the
/// next occupied square.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . w .        g7 white man: the king cannot land on or beyond it
/// 6  . . . . . . . .        f6 landing
/// 5  . . . . . . . .        e5 landing
/// 4  . . . b . . . .        d4 black man
/// 3  . . . . . . . .
/// 2  . . . . . . . .
/// 1  W . . . . . . .        a1 white king
/// ```
#[test]
fn king_captures_at_a_distance() {
    for v in Variant::ALL {
        assert_moves("W:WKa1,g7:Bd4", v, &["a1xe5[d4]", "a1xf6[d4]"]);
        // With the diagonal open it may land on any of the four squares.
        assert_moves(
            "W:WKa1:Bd4",
            v,
            &["a1xe5[d4]", "a1xf6[d4]", "a1xg7[d4]", "a1xh8[d4]"],
        );
    }
}

/// A king that can go on capturing from some landing squares must land on one of those.
/// ```text
/// 8  . . . . . . . .        d8 empty
/// 7  . . . . b . . .        e7 black: reachable only from f6 (f6-e7-d8)
/// 6  . . . . . . . .        f6
/// 5  . . . . . . . .
/// 4  . . . b . . . .        d4 black
/// 1  W . . . . . . .        a1 white king
/// ```
/// Landing on e5, g7 or h8 (legal in the previous test) is not allowed here.
///
/// TzDraft's server: the king may stop on e5, nearer than f6 (the first square it goes on
/// from), must go on from f6, and may not land on g7 or h8 beyond it.
#[test]
fn king_must_land_where_it_can_continue() {
    for v in ARTICLE {
        assert_moves("W:WKa1:Bd4,e7", v, &["a1xd8[d4,e7]"]);
        assert_paths("W:WKa1:Bd4,e7", v, &["a1xf6xd8"]);
    }
    assert_moves("W:WKa1:Bd4,e7", TZD, &["a1xe5[d4]", "a1xd8[d4,e7]"]);
    assert_paths("W:WKa1:Bd4,e7", TZD, &["a1xe5", "a1xf6xd8"]);
}

/// The "Turkish strike" case: captured pieces stay on the board until the move ends and
/// block the king's path; and no piece is jumped twice.
/// ```text
/// 8  . . . . . . . .        d8
/// 7  . . . . . . . .        e7: second landing
/// 6  . . . b . b . .        d6 (Z), f6 (Y)
/// 5  . . . . b . . .        e5 black: blocks f4's north-west line (e5+d6 in a row)
/// 4  . . . . . . . .        c5: third landing; g5: first landing
/// 3  . . . . b . . .        e3 (X)
/// 2  . . . . . b . .        f2 (W), g1 empty
/// 1  . . W . . . . .        c1 white king
///    a b c d e f g h
/// ```
/// c1 takes e3 (north-east) and must land on g5 (the only square it goes on from), takes f6
/// (north-west) and must land on e7, takes d6 (south-west) and lands on c5, b4 or a3. From
/// c5 the south-east line d4-e3-f2-g1 would take f2 if e3 were already gone; it is not:
/// e3 still stands and blocks. So the move ends, on any of the three squares.
///
/// TzDraft's server removes e3 at once: from c5 the king goes on over d4 and e3's empty
/// square to take f2 and land on g1 (the only square it may then stop on, the first from
/// which it goes on). And after taking e3 it may stop on f4, nearer than g5.
#[test]
fn captured_pieces_block_until_the_move_ends() {
    assert_moves(
        "W:WKc1:Bd6,e3,e5,f2,f6",
        TZD,
        &["c1xf4[e3]", "c1xg1[d6,e3,f2,f6]"],
    );
    assert_paths("W:WKc1:Bd6,e3,e5,f2,f6", TZD, &["c1xf4", "c1xg5xe7xc5xg1"]);
    for v in ARTICLE {
        assert_moves(
            "W:WKc1:Bd6,e3,e5,f2,f6",
            v,
            &["c1xc5[d6,e3,f6]", "c1xb4[d6,e3,f6]", "c1xa3[d6,e3,f6]"],
        );
        assert_paths(
            "W:WKc1:Bd6,e3,e5,f2,f6",
            v,
            &["c1xg5xe7xc5", "c1xg5xe7xb4", "c1xg5xe7xa3"],
        );
    }
}

/// No piece is jumped twice: the same ring without f2. From c5 the king faces e3 again with
/// f2 and g1 empty beyond it; jumping it a second time would give c1xf2 / c1xg1.
///
/// Second position: b6 added, so that c5 is a square the king must go on from (over b6 to
/// a7) and its lines are searched again, the one through e3 included; and d8 now continues
/// too (over b6 to a5).
/// ```text
/// 8  . . . . . . . .        d8: second landing (then d8xa5 over b6)
/// 7  . . . . . . . .        a7: end; e7: second landing
/// 6  . b . b . b . .        b6, d6, f6
/// 5  . . . . b . . .        e5; c5: third landing
/// 4  . . . . . . . .        g5: first landing
/// 3  . . . . b . . .        e3
/// 2  . . . . . . . .        f2, g1 empty: e3 must not be taken twice
/// 1  . . W . . . . .        c1
/// ```
///
/// TzDraft's server: e3 is off the board once taken, so it cannot be taken again either; the
/// king may stop on f4 after the first capture (nearer than g5), and in the second position
/// it must go on from c5 (over b6), so the first capture has f4 and the ring one way.
#[test]
fn a_piece_is_not_jumped_twice() {
    assert_moves(
        "W:WKc1:Bd6,e3,e5,f6",
        TZD,
        &[
            "c1xf4[e3]",
            "c1xc5[d6,e3,f6]",
            "c1xb4[d6,e3,f6]",
            "c1xa3[d6,e3,f6]",
        ],
    );
    assert_moves(
        "W:WKc1:Bb6,d6,e3,e5,f6",
        TZD,
        &["c1xf4[e3]", "c1xa7[b6,d6,e3,f6]"],
    );
    for v in ARTICLE {
        assert_moves(
            "W:WKc1:Bd6,e3,e5,f6",
            v,
            &["c1xc5[d6,e3,f6]", "c1xb4[d6,e3,f6]", "c1xa3[d6,e3,f6]"],
        );
        assert_moves(
            "W:WKc1:Bb6,d6,e3,e5,f6",
            v,
            &["c1xa7[b6,d6,e3,f6]", "c1xa5[b6,e3,f6]"],
        );
        assert_paths(
            "W:WKc1:Bb6,d6,e3,e5,f6",
            v,
            &["c1xg5xe7xc5xa7", "c1xg5xd8xa5"],
        );
    }
}

/// Tanzanian (and Russian) has no priority: a man may capture even when a king could. Czech:
/// if a king can capture, only king captures are legal.
/// ```text
/// 8  . . . . . . . .        b8 landing
/// 7  . . . . . . . .        c7 landing
/// 6  . . . . . . . .        d6 landing
/// 5  . . . . b . . .        e5 black (taken by the king)
/// 4  . b . . . . . .        b4 black (taken by the man); c5 empty
/// 3  w . . . . . . .        a3 white man
/// 2  . . . . . . . W        h2 white king
/// ```
/// (From d6 the king looks south-west at c5-b4: b4 is followed by the white a3, no capture.)
#[test]
fn man_may_capture_when_a_king_could_except_in_czech() {
    let fen = "W:Wa3,Kh2:Bb4,e5";
    let all = ["h2xd6[e5]", "h2xc7[e5]", "h2xb8[e5]", "a3xc5[b4]"];
    assert_moves(fen, TZ, &all);
    assert_moves(fen, RU, &all);
    assert_moves(fen, CZ, &["h2xd6[e5]", "h2xc7[e5]", "h2xb8[e5]"]);
    // Czech priority applies only when a king can capture: without e5 the man must.
    for v in Variant::ALL {
        assert_moves("W:Wa3,Kh2:Bb4", v, &["a3xc5[b4]"]);
    }
}

/// Duplicate routes are one move: the king c3 can go round the four pieces b4, b6, d4, d6
/// either way (c3-e5-c7-a5-c3 or c3-a5-c7-e5-c3). The two routes ending on c3 take the same
/// set, so c3xc3 is one move; each direction then has two more final squares of its own.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . . . . . .        c7
/// 6  . b . b . . . .        b6, d6
/// 5  . . . . . . . .        a5, e5
/// 4  . b . b . . . .        b4, d4
/// 3  . . W . . . . .        c3 white king
/// 2  . . . . . . . .        d2 (after b4, clockwise), b2 (after d4, anticlockwise)
/// 1  . . . . . . . .        e1, a1
/// ```
#[test]
fn duplicate_routes_are_one_move() {
    let fen = "W:WKc3:Bb4,b6,d4,d6";
    for v in Variant::ALL {
        let moves = assert_moves(
            fen,
            v,
            &[
                "c3xc3[b4,b6,d4,d6]",
                "c3xd2[b4,b6,d4,d6]",
                "c3xe1[b4,b6,d4,d6]",
                "c3xb2[b4,b6,d4,d6]",
                "c3xa1[b4,b6,d4,d6]",
            ],
        );
        assert_eq!(perft(&pos(fen), v, 1), 5);
        let back = moves.iter().find(|m| m.to() == sq("c3")).unwrap();
        assert_eq!(back.capture_count(), 4);
    }
    // The same ring around a man: Russian men capture backward and go round it both ways,
    // one move; Tanzanian and Czech men stop at c7 after two pieces, by two routes that take
    // different pieces, so those are two moves (written with their landing squares).
    let fen = "W:Wc3:Bb4,b6,d4,d6";
    assert_moves(fen, RU, &["c3xc3[b4,b6,d4,d6]"]);
    for v in [TZ, CZ] {
        let moves = assert_moves(fen, v, &["c3xc7[d4,d6]", "c3xc7[b4,b6]"]);
        let written: BTreeSet<String> = moves.iter().map(|m| m.notation(&moves, false)).collect();
        assert_eq!(
            written,
            BTreeSet::from(["c3xa5xc7".to_string(), "c3xe5xc7".to_string()])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

/// A side to move without a legal move loses.
#[test]
fn side_without_legal_move_loses() {
    // White a3 is blocked: b4 is taken and c5 behind it too.
    // 5  . . b . . . . .
    // 4  . b . . . . . .
    // 3  w . . . . . . .
    for v in Variant::ALL {
        assert_moves("W:Wa3:Bb4,c5", v, &[]);
        let game = Game::new(pos("W:Wa3:Bb4,c5"), v);
        assert_eq!(game.outcome(), Some(Outcome::Win(Color::Black)));
    }
    // No pieces at all.
    assert_eq!(
        Game::new(pos("B:Wc3:B"), TZ).outcome(),
        Some(Outcome::Win(Color::White))
    );
    // Taking the last piece wins.
    let mut game = Game::new(pos("W:Wc3:Bd4"), TZ);
    assert_eq!(game.outcome(), None);
    let mv = game.position().legal_moves(TZ)[0];
    game.play(&mv);
    assert_eq!(game.outcome(), Some(Outcome::Win(Color::White)));
    // Blocked forward but able to capture backward: lost in Tanzanian and Czech, not in Russian.
    // 6  . . . b . . . .   d6 black (behind c5)
    // 5  b . b . . . . .   a5, c5 black
    // 4  . w . . . . . .   b4 white man
    // 3  . . b . . . . .   c3 black, d2 empty
    let fen = "W:Wb4:Ba5,c3,c5,d6";
    for v in [TZ, CZ] {
        assert_moves(fen, v, &[]);
        assert_eq!(
            Game::new(pos(fen), v).outcome(),
            Some(Outcome::Win(Color::Black))
        );
    }
    assert_moves(fen, RU, &["b4xd2[c3]"]);
    assert_eq!(Game::new(pos(fen), RU).outcome(), None);
}

/// Law 1: only kings, one or two each: drawn (Tanzanian only).
#[test]
fn draw_law_few_kings() {
    for fen in [
        "W:WKa1:BKh8",
        "W:WKa1,Kc1:BKh8",
        "B:WKa1:BKh8,Kf8",
        "W:WKa1,Kc1:BKh8,Kf8",
    ] {
        assert_eq!(
            Game::new(pos(fen), TZ).outcome(),
            Some(Outcome::Draw(DrawReason::FewKings)),
            "{fen}"
        );
        for v in [CZ, RU] {
            assert_eq!(Game::new(pos(fen), v).outcome(), None, "{v} {fen}");
        }
        let off = DrawLaws {
            enabled: false,
            king_count: 12,
        };
        assert_eq!(Game::with_laws(pos(fen), TZ, off).outcome(), None);
    }
    // A man on the board, or three kings against two: not law 1.
    for fen in [
        "W:WKa1,c3:BKh8",
        "W:WKa1:BKh8,c7",
        "W:WKa1,Kc1,Ke1:BKh8,Kf8",
    ] {
        assert_eq!(Game::new(pos(fen), TZ).outcome(), None, "{fen}");
    }
}

/// Law 2, first half: three kings against one with none of the three on the main diagonal
/// a1-h8 is drawn at once, also when the material arises by a capture.
#[test]
fn draw_law_three_kings_off_the_main_diagonal() {
    // White kings a3, c1, e1 (none on a1-h8); Black king h6.
    let fen = "W:WKa3,Kc1,Ke1:BKh6";
    assert_eq!(
        Game::new(pos(fen), TZ).outcome(),
        Some(Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal))
    );
    assert_eq!(
        Game::new(pos("B:WKh6:BKa3,Kc1,Ke1"), TZ).outcome(),
        Some(Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal))
    );
    for v in [CZ, RU] {
        assert_eq!(Game::new(pos(fen), v).outcome(), None);
    }
    // Arising by a capture: a3 takes d6 (landing e7 or f8), leaving c1, e1 and e7/f8.
    // 8  . . . . . . . .
    // 6  . . . b . . . B   d6 black man, h6 black king
    // 3  W . . . . . . .   a3
    // 1  . . W . W . . .   c1, e1
    let mut game = Game::new(pos("W:WKa3,Kc1,Ke1:Bd6,Kh6"), TZ);
    assert_eq!(game.outcome(), None);
    let moves = assert_moves(
        game.position().to_fen().as_str(),
        TZ,
        &["a3xe7[d6]", "a3xf8[d6]"],
    );
    game.play(&moves[0]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal))
    );
}

const ROUTE: [(&str, &str); 4] = [("a3", "b4"), ("h4", "g3"), ("b4", "a3"), ("g3", "h4")];

/// Plays White a3-b4 / b4-a3 and Black h4-g3 / g3-h4 alternately (or the same seen from the
/// other side when `flip`), `plies` plies, checking each is legal and no capture exists.
/// ```text
/// 4  . . . . . . . B        h4 black king (shuffles to g3)
/// 3  W . . . . . . .        a3 white king (shuffles to b4)
/// 1  W . W . . . . .        a1 (main diagonal), c1
/// ```
/// No capture is possible in any of the four positions of the cycle.
fn shuffle(game: &mut Game, plies: usize, flip: bool, mut after_each: impl FnMut(usize, &Game)) {
    for ply in 0..plies {
        let (from, to) = ROUTE[ply % 4];
        let (from, to) = if flip {
            (sq(from).flip(), sq(to).flip())
        } else {
            (sq(from), sq(to))
        };
        let legal = game.position().legal_moves(game.variant());
        let mv = *legal
            .iter()
            .find(|m| m.from() == from && m.to() == to)
            .unwrap_or_else(|| panic!("{from}-{to} not legal in {}", game.position()));
        assert!(legal.iter().all(|m| !m.is_capture()));
        game.play(&mv);
        after_each(ply, game);
    }
}

/// Law 2, second half: with a king on the main diagonal, the lone king's side counts its own
/// moves and the game is drawn when the count reaches 12 (or the agreed number).
#[test]
fn draw_law_three_kings_count() {
    let fen = "W:WKa1,Kc1,Ka3:BKh4";
    let mut game = Game::new(pos(fen), TZ);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.king_count(), Some(0));
    // 12 Black moves are plies 2, 4, ..., 24 (White moves first).
    shuffle(&mut game, 24, false, |ply, g| {
        let black_moves = (ply as u32).div_ceil(2);
        if black_moves < 12 {
            assert_eq!(g.outcome(), None, "after ply {}", ply + 1);
            assert_eq!(g.king_count(), Some(black_moves));
        } else {
            assert_eq!(
                g.outcome(),
                Some(Outcome::Draw(DrawReason::KingCountReached(12)))
            );
        }
    });
    // An agreed count of 3.
    let laws = DrawLaws {
        enabled: true,
        king_count: 3,
    };
    let mut game = Game::with_laws(pos(fen), TZ, laws);
    shuffle(&mut game, 6, false, |ply, g| {
        if ply < 5 {
            assert_eq!(g.outcome(), None);
        } else {
            assert_eq!(
                g.outcome(),
                Some(Outcome::Draw(DrawReason::KingCountReached(3)))
            );
        }
    });
    // Czech and Russian: no draw law, the game goes on.
    for v in [CZ, RU] {
        let mut game = Game::new(pos(fen), v);
        shuffle(&mut game, 40, false, |_, g| assert_eq!(g.outcome(), None));
    }
    // Black has the three kings (h8 on the main diagonal, f8, h6) and White the lone king a5;
    // Black starts and White's moves count.
    let mirrored = pos(fen).mirrored();
    assert_eq!(mirrored, pos("B:WKa5:BKh8,Kf8,Kh6"));
    let mut game = Game::new(mirrored, TZ);
    assert_eq!(game.king_count(), Some(0));
    shuffle(&mut game, 24, true, |ply, g| {
        let white_moves = (ply as u32).div_ceil(2);
        if white_moves < 12 {
            assert_eq!(g.outcome(), None);
            assert_eq!(g.king_count(), Some(white_moves));
        } else {
            assert_eq!(
                g.outcome(),
                Some(Outcome::Draw(DrawReason::KingCountReached(12)))
            );
        }
    });
}

// ---------------------------------------------------------------------------------------------
// TzDraft's server reading (Variant::TzDraft)
// ---------------------------------------------------------------------------------------------

/// TzDraft's server removes a captured piece at once, so a king may turn straight back over
/// its square. c3 takes d4 and from e5 (the first square it goes on from) flies back over d4
/// and c3 to take b2; or takes b2 first and flies back over b2 to take d4.
/// ```text
/// 8  . . . . . . . .        h8, g7, f6, e5: landings beyond d4
/// 4  . . . b . . . .        d4 black
/// 3  . . W . . . . .        c3 white king
/// 2  . b . . . . . .        b2 black
/// 1  . . . . . . . .        a1 landing beyond b2
/// ```
#[test]
fn tzdraft_king_turns_back_over_a_taken_piece() {
    let fen = "W:WKc3:Bb2,d4";
    for v in ARTICLE {
        assert_moves(
            fen,
            v,
            &[
                "c3xa1[b2]",
                "c3xe5[d4]",
                "c3xf6[d4]",
                "c3xg7[d4]",
                "c3xh8[d4]",
            ],
        );
    }
    assert_moves(
        fen,
        TZD,
        &[
            "c3xa1[b2,d4]",
            "c3xe5[b2,d4]",
            "c3xf6[b2,d4]",
            "c3xg7[b2,d4]",
            "c3xh8[b2,d4]",
        ],
    );
    assert_paths(
        fen,
        TZD,
        &["c3xe5xa1", "c3xa1xe5", "c3xa1xf6", "c3xa1xg7", "c3xa1xh8"],
    );
}

/// TzDraft's server's draw rules: one king each is drawn at once; two kings each play on (the
/// article's law 1 would have drawn) until 60 plies pass without a capture.
#[test]
fn tzdraft_king_against_king_and_the_thirty_move_rule() {
    assert_eq!(
        Game::new(pos("W:WKa1:BKh8"), TZD).outcome(),
        Some(Outcome::Draw(DrawReason::TzDraftKingAgainstKing))
    );
    let fen = "W:WKa3,Kc1:BKh4,Kh6";
    assert_eq!(
        Game::new(pos(fen), TZ).outcome(),
        Some(Outcome::Draw(DrawReason::FewKings))
    );
    let mut game = Game::new(pos(fen), TZD);
    assert_eq!(game.outcome(), None);
    shuffle(&mut game, 60, false, |ply, g| {
        let want = (ply == 59).then_some(Outcome::Draw(DrawReason::TzDraftThirtyMoves));
        assert_eq!(g.outcome(), want, "after ply {}", ply + 1);
    });
}

/// Three kings against one: TzDraft counts the strong side's moves (12), where the article
/// counts the lone king's.
#[test]
fn tzdraft_three_kings_rule() {
    let mut game = Game::new(pos("W:WKa1,Kc1,Ka3:BKh4"), TZD);
    // White's 12th move is ply 23.
    shuffle(&mut game, 23, false, |ply, g| {
        let want = (ply == 22).then_some(Outcome::Draw(DrawReason::TzDraftThreeKings));
        assert_eq!(g.outcome(), want, "after ply {}", ply + 1);
    });
}

/// Two kings (or a king and a man) against a king: the server counts every ply of the game
/// once the material is on the board before a move, so the game is drawn one ply after the
/// material arises; a game that starts with it counts from its start.
#[test]
fn tzdraft_endgame_rule_one_ply_after() {
    let mut game = Game::new(pos("W:WKa3,Kc1:BKh4,Kh6"), TZD);
    shuffle(&mut game, 12, false, |_, g| assert_eq!(g.outcome(), None));
    for (text, drawn) in [
        ("a3-b4", false),
        ("h6-g5", false),
        ("c1xh6", false),
        ("h4-g3", true),
    ] {
        let mv = game.position().parse_move(TZD, text).unwrap()[0];
        game.play(&mv);
        let want = drawn.then_some(Outcome::Draw(DrawReason::TzDraftEndgame));
        assert_eq!(game.outcome(), want, "after {text}");
    }
    let mut game = Game::new(pos("W:WKa3,Kc1:BKh4"), TZD);
    shuffle(&mut game, 10, false, |ply, g| {
        let want = (ply == 9).then_some(Outcome::Draw(DrawReason::TzDraftEndgame));
        assert_eq!(g.outcome(), want, "after ply {}", ply + 1);
    });
}
