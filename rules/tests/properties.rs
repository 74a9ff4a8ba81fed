//! Property tests (proptest) over positions from random play — from the start with White or
//! Black first, in every variant — and over random legal setups:
//! - FEN write → read round trip, numeric and algebraic;
//! - every legal move's notation (short, against the full legal list; and full path, numeric
//!   and algebraic) parses back via `Position::parse_move` to exactly that move;
//! - perft(d) is the sum of its divide;
//! - `mirrored().mirrored()` is the identity, and the mirrored position's moves are the
//!   original's turned 180° (so the count is the same);
//! - the hash key differs on the side to move;
//! - playing a move keeps the mover's piece count and removes exactly the captured pieces.

use drafti_rules::{divide, perft, Bitboard, Color, Move, Position, Square, Variant};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

fn color() -> impl Strategy<Value = Color> {
    prop::sample::select(vec![Color::White, Color::Black])
}

/// A position reached by random legal moves from the start (`turn` moves first).
fn played() -> impl Strategy<Value = (Position, Variant)> {
    (
        variant(),
        color(),
        prop::collection::vec(any::<u32>(), 0..140),
    )
        .prop_map(|(variant, turn, choices)| {
            let mut pos = Position::start(turn);
            for choice in choices {
                let moves = pos.legal_moves(variant);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves[choice as usize % moves.len()]);
            }
            (pos, variant)
        })
}

/// A random legal setup: each square empty (mostly), a man or a king of either colour.
fn setup() -> impl Strategy<Value = (Position, Variant)> {
    let cell = prop_oneof![
        10 => Just(0u8),
        2 => Just(1u8), // white man
        1 => Just(2u8), // white king
        2 => Just(3u8), // black man
        1 => Just(4u8), // black king
    ];
    (variant(), color(), prop::collection::vec(cell, 32)).prop_filter_map(
        "not a legal setup",
        |(variant, turn, cells)| {
            let (mut white, mut black, mut kings) = (0u32, 0u32, 0u32);
            for (i, c) in cells.into_iter().enumerate() {
                let bit = 1u32 << i;
                match c {
                    1 => white |= bit,
                    2 => {
                        white |= bit;
                        kings |= bit
                    }
                    3 => black |= bit,
                    4 => {
                        black |= bit;
                        kings |= bit
                    }
                    _ => {}
                }
            }
            Position::from_parts(Bitboard(white), Bitboard(black), Bitboard(kings), turn)
                .ok()
                .map(|p| (p, variant))
        },
    )
}

fn position() -> impl Strategy<Value = (Position, Variant)> {
    prop_oneof![played(), setup()]
}

/// A move turned 180°: (from, to, captured set) with every square flipped.
fn flipped_key(m: &Move) -> (Square, Square, Vec<Square>) {
    let mut caps: Vec<Square> = m.captured().into_iter().map(Square::flip).collect();
    caps.sort();
    (m.from().flip(), m.to().flip(), caps)
}

fn key(m: &Move) -> (Square, Square, Vec<Square>) {
    let mut caps: Vec<Square> = m.captured().into_iter().collect();
    caps.sort();
    (m.from(), m.to(), caps)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fen_round_trips((pos, _v) in position()) {
        let numeric = pos.to_fen();
        let algebraic = pos.to_fen_algebraic();
        prop_assert_eq!(Position::from_fen(&numeric).unwrap(), pos, "{}", numeric);
        prop_assert_eq!(Position::from_fen(&algebraic).unwrap(), pos, "{}", algebraic);
        prop_assert_eq!(Position::from_fen(&algebraic).unwrap().to_fen(), numeric);
    }

    #[test]
    fn every_notation_parses_back_to_its_move((pos, v) in position()) {
        let legal = pos.legal_moves(v);
        for m in &legal {
            for numeric in [false, true] {
                for text in [m.notation(&legal, numeric), m.full_notation(numeric)] {
                    let found = pos.parse_move(v, &text).unwrap();
                    prop_assert_eq!(found, vec![*m], "{} in {} ({})", text, pos, v);
                }
            }
        }
    }

    #[test]
    fn mirroring_is_an_involution_and_keeps_the_moves((pos, v) in position()) {
        let mirrored = pos.mirrored();
        prop_assert_eq!(mirrored.mirrored(), pos);
        prop_assert_eq!(mirrored.turn(), pos.turn().other());
        let ours: BTreeSet<_> = pos.legal_moves(v).iter().map(flipped_key).collect();
        let theirs: BTreeSet<_> = mirrored.legal_moves(v).iter().map(key).collect();
        prop_assert_eq!(mirrored.count_moves(v), pos.count_moves(v));
        prop_assert_eq!(theirs, ours);
    }

    #[test]
    fn hash_key_depends_on_the_side_to_move((pos, _v) in position()) {
        let other = pos.with_turn(pos.turn().other());
        prop_assert_ne!(pos.hash_key(), other.hash_key());
        prop_assert_eq!(pos.hash_key(), Position::from_fen(&pos.to_fen()).unwrap().hash_key());
    }

    #[test]
    fn play_removes_exactly_the_captured_pieces((pos, v) in position()) {
        let me = pos.turn();
        for m in pos.legal_moves(v) {
            let next = pos.play(&m);
            prop_assert_eq!(next.turn(), me.other());
            prop_assert_eq!(next.pieces(me).count(), pos.pieces(me).count());
            prop_assert!(next.pieces(me).contains(m.to()));
            prop_assert_eq!(
                next.pieces(me.other()).0,
                pos.pieces(me.other()).0 & !m.captured().0
            );
            prop_assert_eq!(m.captured().count() as usize, m.capture_count());
            prop_assert!(m.captured().0 & !pos.pieces(me.other()).0 == 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn perft_is_the_sum_of_divide((pos, v) in position(), depth in 1u32..=3) {
        let parts = divide(&pos, v, depth);
        prop_assert_eq!(parts.len(), pos.legal_moves(v).len());
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        prop_assert_eq!(total, perft(&pos, v, depth));
    }
}

/// Found by `every_notation_parses_back_to_its_move`: the king e3 can take f2 alone (e3xg1)
/// or go round f4, f6, c7, f2 and also end on g1 (e3xg5xd8xb6xg1, through its own start
/// square). The single jump's full path is the two-square text `e3xg1`, which must read back
/// as that move, not as "ambiguous".
/// ```text
/// 8    W   .   .   .      b8 white king
/// 7  .   b   .   .        c7
/// 6    .   .   b   .      f6
/// 5  .   .   .   .
/// 4    .   .   b   .      f4
/// 3  .   .   W   .        e3 white king
/// 2    .   .   b   .      f2
/// 1  .   .   B   .        e1 black king; g1 empty
///    a b c d e f g h
/// ```
#[test]
fn single_jump_sharing_its_ends_with_a_longer_capture_reads_back() {
    let pos = Position::from_fen("W:WK1,K23:B6,11,19,27,K31").unwrap();
    for v in [Variant::Tanzanian, Variant::Russian] {
        let legal = pos.legal_moves(v);
        let to_g1: Vec<String> = legal
            .iter()
            .filter(|m| m.from().to_string() == "e3" && m.to().to_string() == "g1")
            .map(|m| m.notation(&legal, false))
            .collect();
        assert_eq!(to_g1, ["e3xg5xd8xb6xg1", "e3xg1"]);
        let short = pos.parse_move(v, "e3xg1").unwrap();
        assert_eq!(short.len(), 1);
        assert_eq!(short[0].capture_count(), 1);
        let long = pos.parse_move(v, "e3xg5xd8xb6xg1").unwrap();
        assert_eq!(long.len(), 1);
        assert_eq!(long[0].capture_count(), 4);
    }
}
