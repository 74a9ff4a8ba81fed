//! The draw laws of RULES.md as the search sees them: a small state carried down the search
//! path, updated after every move exactly as `drafti_rules::Game` adjudicates a game.
//!
//! - Law 1 (only kings, one or two each): the node is a draw.
//! - Law 2 (three kings against one): when the material first arises without one of the
//!   three on the main diagonal, a draw; otherwise the lone king's moves are counted along
//!   the path, and the node where the count reaches the agreed number (12) is a draw. The
//!   count is part of the state: the transposition table keys mix it in, so a position with
//!   8 lone-king moves left is never confused with the same position with 2 left.
//! - Law 3 (two kings and a man against a king, the main diagonal held by the stronger side):
//!   the lone side *may* crown the opponent's man and start law 2's count. [`law3_claim`]
//!   says when it may and gives the position after the claim; the search (`Config::law3`)
//!   and the endgame tables give the lone side the claim as one more option at every such
//!   node. The decisions, in RULES.md's terms:
//!   - *When*: Tanzanian rules with the laws adjudicated; the lone side to move (a claim is
//!     made on one's turn); exactly two kings and one man against exactly one king; "the main
//!     diagonal held by the stronger side" = one of its two **kings** stands on a1–h8 (a man
//!     holds no diagonal: it only steps forward; and it is law 2's own test, on the kings).
//!   - *What*: the man becomes a king where it stands and law 2's count starts at 0; the lone
//!     side then makes its move as usual, and that move is the first it counts. The claim is
//!     no move (law 2 "counts its own moves": the lone king's moves, not the crowning of an
//!     opposing man), so it costs the lone side no tempo: the position after the claim is the
//!     three kings against one with the *lone side still to move* and the count at 0.
//!   - *Its value*: the value of that position under law 2 with the count at 0. The lone
//!     side's node is worth the better, for it, of its moves and the claim.
//!
//! Russian and Czech have no draw laws here: the state stays [`LawState::Free`].
//!
//! A node whose state is drawn is still lost if the side to move has no legal move (the
//! game adjudicates the blocked side first).

use drafti_rules::{Bitboard, Color, DrawLaws, DrawReason, KingEnding, Position, MAIN_DIAGONAL};

/// Law 3: the position after the side to move claims it (the opponent's man crowned where it
/// stands; the side to move still to move, law 2's count to start at 0), or `None` when it
/// may not: the laws are not adjudicated, the material is not exactly two kings and a man
/// against the mover's lone king, or neither of the two kings stands on the main diagonal.
/// Cheap: one population count decides for every other material.
#[inline]
pub(crate) fn law3_claim(laws: &DrawLaws, pos: &Position) -> Option<Position> {
    if !laws.enabled || pos.occupied().count() != 4 {
        return None;
    }
    let lone = pos.turn();
    let strong = lone.other();
    let (kings, men) = (pos.kings(strong).0, pos.men(strong).0);
    if pos.men(lone).0 != 0
        || pos.kings(lone).count() != 1
        || kings.count_ones() != 2
        || men.count_ones() != 1
        || kings & MAIN_DIAGONAL.0 == 0
    {
        return None;
    }
    let (white, black) = (pos.pieces(Color::White).0, pos.pieces(Color::Black).0);
    let all_kings = pos.kings(Color::White).0 | pos.kings(Color::Black).0 | men;
    Position::from_parts(Bitboard(white), Bitboard(black), Bitboard(all_kings), lone).ok()
}

/// Where the draw laws stand at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LawState {
    /// No draw law speaks of this material.
    Free,
    /// Three kings against one: the lone king has made this many moves.
    Count(u32),
    /// A draw law ends the game here.
    Drawn(DrawReason),
}

impl LawState {
    /// The state at the root of a search. `king_count` is the running count of law 2 when
    /// the caller knows it (from its game); without it a 3-against-1 root starts counting at
    /// zero if one of the three holds the main diagonal, and is drawn otherwise.
    pub(crate) fn at_root(laws: &DrawLaws, pos: &Position, king_count: Option<u32>) -> LawState {
        if !laws.enabled {
            return LawState::Free;
        }
        match pos.king_ending() {
            Some(KingEnding::FewKings) => LawState::Drawn(DrawReason::FewKings),
            Some(KingEnding::ThreeAgainstOne { diagonal, .. }) => match king_count {
                Some(n) if n >= laws.king_count => LawState::Drawn(DrawReason::KingCountReached(n)),
                Some(n) => LawState::Count(n),
                None if diagonal => LawState::Count(0),
                None => LawState::Drawn(DrawReason::ThreeKingsOffMainDiagonal),
            },
            None => LawState::Free,
        }
    }

    /// The state after `mover` played into `child`.
    #[inline]
    pub(crate) fn after(self, laws: &DrawLaws, child: &Position, mover: Color) -> LawState {
        if !laws.enabled {
            return LawState::Free;
        }
        // Only kings left is the one case a law can speak of.
        let occupied = child.occupied().0;
        if child.kings(Color::White).0 | child.kings(Color::Black).0 != occupied {
            return LawState::Free;
        }
        match child.king_ending() {
            Some(KingEnding::FewKings) => LawState::Drawn(DrawReason::FewKings),
            Some(KingEnding::ThreeAgainstOne { strong, diagonal }) => match self {
                LawState::Count(n) => {
                    let n = if mover == strong.other() { n + 1 } else { n };
                    if n >= laws.king_count {
                        LawState::Drawn(DrawReason::KingCountReached(n))
                    } else {
                        LawState::Count(n)
                    }
                }
                _ if diagonal => LawState::Count(0),
                _ => LawState::Drawn(DrawReason::ThreeKingsOffMainDiagonal),
            },
            None => LawState::Free,
        }
    }

    /// Mixed into transposition-table keys so that positions with different counts differ.
    #[inline]
    pub(crate) fn key_mix(self) -> u64 {
        match self {
            LawState::Count(n) => (u64::from(n) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            _ => 0,
        }
    }

    /// Lone-king moves left before the count draws, if the count runs.
    pub(crate) fn moves_left(self, laws: &DrawLaws) -> Option<u32> {
        match self {
            LawState::Count(n) => Some(laws.king_count.saturating_sub(n)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_rules::{Game, Variant};

    /// The state agrees with `Game` along random-ish king lines.
    #[test]
    fn follows_the_game_adjudication() {
        let laws = DrawLaws::for_variant(Variant::Tanzanian);
        let start = Position::from_fen("W:WKa1,Kc1,Ke1:BKh2").unwrap();
        let mut game = Game::new(start, Variant::Tanzanian);
        let mut state = LawState::at_root(&laws, &start, None);
        assert_eq!(state, LawState::Count(0));
        let mut pos = start;
        for i in 0..40 {
            if game.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves(Variant::Tanzanian);
            let mv = moves[(i * 7) % moves.len()];
            let mover = pos.turn();
            game.play(&mv);
            pos = pos.play(&mv);
            state = state.after(&laws, &pos, mover);
            match (state, game.outcome(), game.king_count()) {
                (LawState::Count(n), None, Some(m)) => assert_eq!(n, m),
                (LawState::Drawn(r), Some(drafti_rules::Outcome::Draw(g)), _) => assert_eq!(r, g),
                (LawState::Free, None, None) => {}
                (_, Some(drafti_rules::Outcome::Win(_)), _) => break,
                (s, o, c) => panic!("state {s:?} but game {o:?} count {c:?}"),
            }
        }
        assert!(matches!(state, LawState::Drawn(_)));
    }

    #[test]
    fn roots() {
        let laws = DrawLaws::for_variant(Variant::Tanzanian);
        let few = Position::from_fen("W:WK1,K2:BK30").unwrap();
        assert_eq!(
            LawState::at_root(&laws, &few, None),
            LawState::Drawn(DrawReason::FewKings)
        );
        let off = Position::from_fen("W:WKc1,Ke1,Kg1:BKb8").unwrap();
        assert!(matches!(
            LawState::at_root(&laws, &off, None),
            LawState::Drawn(DrawReason::ThreeKingsOffMainDiagonal)
        ));
        assert_eq!(LawState::at_root(&laws, &off, Some(5)), LawState::Count(5));
        let russian = DrawLaws::for_variant(Variant::Russian);
        assert_eq!(LawState::at_root(&russian, &few, None), LawState::Free);
    }
}

#[cfg(test)]
mod law3_tests {
    use super::*;
    use drafti_rules::Variant;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn the_claim_exists_exactly_as_decided() {
        let tz = DrawLaws::for_variant(Variant::Tanzanian);
        // Black's lone king to move; White's king on e5 holds the main diagonal.
        let held = pos("B:W5,K15,K19:BK1");
        let crowned = law3_claim(&tz, &held).expect("a claim");
        assert_eq!(crowned, pos("B:WK5,K15,K19:BK1"));
        assert_eq!(
            LawState::at_root(&tz, &crowned, None),
            LawState::Count(0),
            "law 2's count starts"
        );
        // Not for the side with the man, not off the diagonal (a man on it does not hold
        // it), not with other material, not without the laws.
        assert_eq!(law3_claim(&tz, &pos("W:W5,K15,K19:BK1")), None);
        assert_eq!(law3_claim(&tz, &pos("B:W29,K14,K19:BK1")), None);
        assert_eq!(law3_claim(&tz, &pos("B:W5,6,K15:BK1")), None);
        assert_eq!(law3_claim(&tz, &pos("B:W5,K15,K19:B2")), None);
        assert_eq!(law3_claim(&tz, &pos("B:W5,K15,K19:BK1,K2")), None);
        assert_eq!(law3_claim(&tz, &pos("B:W5,K15,K19,K20:BK1")), None);
        let russian = DrawLaws::for_variant(Variant::Russian);
        assert_eq!(law3_claim(&russian, &held), None);
    }
}
