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
//! TzDraft games end by its server's draw rules instead (`drafti_rules::TzDraftCounts`: 60
//! plies of kings without a capture; three or more kings that made 12 moves since their
//! side's last capture against a lone king; a king and a man or two kings against a king one
//! ply on; a king each). Their counts are the state ([`LawState::Server`]), carried down
//! the path from the game's counts at the root (`Limits::tzdraft_counts`) and counted after
//! every move exactly as `drafti_rules::Game` counts them.
//!
//! A node whose state is drawn is still lost if the side to move has no legal move (the
//! game adjudicates the blocked side first).

use drafti_rules::{
    Bitboard, Color, DrawLaws, DrawReason, KingEnding, Position, TzDraftCounts, MAIN_DIAGONAL,
};

/// TzDraft: a run of plies without a capture this long is mixed into the transposition keys
/// even with men on the board (their last crowning could start the 30-move rule's count).
const TZDRAFT_LONG_RUN: u32 = 30;

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
    /// TzDraft: its server's counts after the moves to this node.
    Server(TzDraftCounts),
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

    /// The state at the root of a TzDraft search: the game's counts (from its start when the
    /// caller has no game), and one king each drawn.
    pub(crate) fn tzdraft_root(pos: &Position, counts: TzDraftCounts) -> LawState {
        TzDraftCounts::drawn_at_start(pos).map_or(LawState::Server(counts), LawState::Drawn)
    }

    /// The state after the move from `parent` into `child` (`capture`: whether it took).
    #[inline]
    pub(crate) fn after_move(
        self,
        laws: &DrawLaws,
        parent: &Position,
        child: &Position,
        capture: bool,
    ) -> LawState {
        match self {
            LawState::Server(mut counts) => {
                match counts.play(parent, child, parent.turn(), capture) {
                    Some(reason) => LawState::Drawn(reason),
                    None => LawState::Server(counts),
                }
            }
            _ => self.after(laws, child, parent.turn()),
        }
    }

    /// The state after `mover` played into `child` (the laws of RULES.md; TzDraft's counts
    /// need the move: [`LawState::after_move`]).
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

    /// Mixed into transposition-table keys of `pos` so that positions with different counts
    /// differ. TzDraft's counts where its rules can tell them apart, each capped where they
    /// no longer can: the plies since the last capture with only kings on the board, or once
    /// they reach [`TZDRAFT_LONG_RUN`] (the 30-move rule; men's moves count too, so a run with
    /// men on the board matters only after its last men crown, far below a short run); the
    /// strong side's moves where the other has a lone king (the three-kings rule; the lone
    /// side loses pieces only to the strong side's captures, which reset them); the plies
    /// played below ten with three pieces left (the endgame rule, which needs ten plies of a
    /// game). Elsewhere nothing: a TzDraft middle game transposes as freely as a Tanzanian
    /// one (a run mixed in everywhere parted every transposition of a capture and a quiet move).
    #[inline]
    pub(crate) fn key_mix(self, pos: &Position) -> u64 {
        match self {
            LawState::Count(n) => (u64::from(n) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            LawState::Server(counts) => {
                let occupied = pos.occupied().0;
                let kings_only = pos.kings(Color::White).0 | pos.kings(Color::Black).0 == occupied;
                let run = if kings_only || counts.quiet_run() >= TZDRAFT_LONG_RUN {
                    u64::from(counts.quiet_run().min(60)) + 1
                } else {
                    0
                };
                let lone = |side: Color| pos.pieces(side).count() == 1 && pos.kings(side).0 != 0;
                let strong_moves = |side: Color| {
                    if lone(side.other()) {
                        u64::from(counts.quiet_moves(side).min(12)) + 1
                    } else {
                        0
                    }
                };
                let plies = if occupied.count_ones() <= 3 {
                    u64::from(counts.plies().min(9)) + 1
                } else {
                    0
                };
                let packed = run
                    | plies << 8
                    | strong_moves(Color::White) << 16
                    | strong_moves(Color::Black) << 24;
                packed.wrapping_mul(0xD6E8_FEB8_6659_FD93)
            }
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
    use drafti_rules::{Game, TzDraftCounts, Variant};

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

    /// TzDraft: the state counts as the game does along pseudo-random lines from every
    /// material its rules speak of, and draws where and why the game draws.
    #[test]
    fn follows_tzdraft_server_counts() {
        let laws = DrawLaws::for_variant(Variant::TzDraft);
        let starts = [
            "W:WK1,K3,K5:BK30",         // three kings against one
            "W:WK1,K3,10:BK30",         // two kings and a man: crowning starts the count
            "W:WK1,K2:BK30,K31",        // kings only: the 30-move rule
            "B:WK1,22:BK30",            // a king and a man against a king
            "W:WK1,K3,K5,K7:BK30",      // four kings
            "W:W21,22,25,K3:B9,10,K30", // men and kings on both sides
        ];
        let mut draws = std::collections::HashSet::new();
        for (n, fen) in starts.iter().enumerate() {
            for seed in 0..6usize {
                let start = Position::from_fen(fen).unwrap();
                let mut game = Game::new(start, Variant::TzDraft);
                let mut state = LawState::tzdraft_root(&start, TzDraftCounts::default());
                let mut pos = start;
                for i in 0..200usize {
                    if game.outcome().is_some() {
                        break;
                    }
                    // Odd seeds play quietly where they can (no capture for the other
                    // side next), so that the counts run out.
                    let moves = pos.legal_moves(Variant::TzDraft);
                    let quiet: Vec<_> = moves
                        .iter()
                        .filter(|m| seed % 2 == 1 && !pos.play(m).has_capture(Variant::TzDraft))
                        .copied()
                        .collect();
                    let pool = if quiet.is_empty() {
                        &moves[..]
                    } else {
                        &quiet[..]
                    };
                    let mv = pool[(i * 7 + seed * 3 + n) % pool.len()];
                    game.play(&mv);
                    let child = pos.play(&mv);
                    state = state.after_move(&laws, &pos, &child, mv.is_capture());
                    pos = child;
                    match (state, game.outcome()) {
                        (LawState::Server(c), None) => assert_eq!(Some(c), game.tzdraft_counts()),
                        (LawState::Drawn(r), Some(drafti_rules::Outcome::Draw(g))) => {
                            assert_eq!(r, g);
                            draws.insert(format!("{r:?}"));
                        }
                        // A side without a move loses whatever the counts say.
                        (_, Some(drafti_rules::Outcome::Win(_))) => break,
                        (s, o) => panic!("{fen} ply {i}: state {s:?} but game {o:?}"),
                    }
                }
            }
        }
        for reason in [
            "TzDraftThirtyMoves",
            "TzDraftThreeKings",
            "TzDraftEndgame",
            "TzDraftKingAgainstKing",
        ] {
            assert!(
                draws.contains(reason),
                "no line reached {reason}: {draws:?}"
            );
        }
    }

    /// TzDraft's counts are in the transposition key where a rule can still tell them apart.
    #[test]
    fn tzdraft_keys_tell_counts_apart() {
        let laws = DrawLaws::for_variant(Variant::TzDraft);
        let three = Position::from_fen("W:WK1,K3,K5:BK30").unwrap();
        let mut a = LawState::tzdraft_root(&three, TzDraftCounts::default());
        let mut pos = three;
        // Play quiet moves until White has made three of them.
        for _ in 0..5 {
            let moves = pos.legal_moves(Variant::TzDraft);
            let mv = *moves
                .iter()
                .find(|m| !pos.play(m).has_capture(Variant::TzDraft))
                .unwrap();
            let child = pos.play(&mv);
            a = a.after_move(&laws, &pos, &child, false);
            pos = child;
        }
        let fresh = LawState::tzdraft_root(&pos, TzDraftCounts::default());
        assert_ne!(a.key_mix(&pos), fresh.key_mix(&pos));
        assert_ne!(fresh.key_mix(&pos), 0);
        // Other variants' states mix nothing new.
        assert_eq!(LawState::Free.key_mix(&pos), 0);
        // Nor does a middle game with a short run: its transpositions stay one entry.
        let start = Position::from_fen("W:W21-32:B1-12").unwrap();
        let state = LawState::tzdraft_root(&start, TzDraftCounts::default());
        assert_eq!(state.key_mix(&start), 0);
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
