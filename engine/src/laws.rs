//! The draw laws of RULES.md as the search sees them: a small state carried down the search
//! path, updated after every move exactly as `drafti_rules::Game` adjudicates a game.
//!
//! - Law 1 (only kings, one or two each): the node is a draw.
//! - Law 2 (three kings against one): when the material first arises without one of the
//!   three on the main diagonal, a draw; otherwise the lone king's moves are counted along
//!   the path, and the node where the count reaches the agreed number (12) is a draw. The
//!   count is part of the state: the transposition table keys mix it in, so a position with
//!   8 lone-king moves left is never confused with the same position with 2 left.
//! - Law 3 (two kings and a man against a king) is a claim the lone side *may* make; it is
//!   not forced, so the search ignores it.
//!
//! Russian and Czech have no draw laws here: the state stays [`LawState::Free`].
//!
//! A node whose state is drawn is still lost if the side to move has no legal move (the
//! game adjudicates the blocked side first).

use drafti_rules::{Color, DrawLaws, DrawReason, KingEnding, Position};

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
