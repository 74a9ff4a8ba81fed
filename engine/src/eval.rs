//! The static evaluation: every term and weight, in hundredths of a man, in one place.
//!
//! The score is computed for White and for Black with the same tables (Black's pieces are
//! turned 180° onto White's side, so the evaluation is symmetric by construction) and
//! returned from the side to move. Weights marked *tapered* move from their opening value
//! (24 pieces on the board) to their endgame value (none) in proportion to the pieces left.
//!
//! | term | weight | why |
//! |---|---|---|
//! | man | [`MAN`] = 100 | the unit |
//! | king | [`KING`] = 300 | a flying king is worth about three men |
//! | advancement and tempo | [`ADVANCE_OPENING`] → [`ADVANCE_ENDGAME`] by rank, tapered | men that have moved up gain tempo and are nearer the crown; cheap early, decisive late |
//! | centre | [`CENTRE_MAN`] (c5 d4 e5 f4), [`NEAR_CENTRE_MAN`] (c3 e3 d6 f6), tapered to 0 | central men restrict the opponent and support each other |
//! | back-rank guard | [`BACK_GUARD_STRONG`] (c1 e1), [`BACK_GUARD_WEAK`] (a1 g1), tapered to 0, only while the opponent has men | men left at home stop enemy men from being crowned |
//! | king mobility | [`KING_MOBILITY`] per reachable square | a flying king's strength is its reach |
//! | main diagonal | [`KING_MAIN_DIAGONAL`] per king on a1–h8, [`MAIN_DIAGONAL_HELD`] if the opponent has no king there | the long diagonal cuts the board in two; it decides three kings against one |
//! | runaway man | [`RUNAWAY_BASE`] − [`RUNAWAY_STEP`] × steps to the crown | no enemy man in its forward cone and no enemy king: it will be crowned |
//! | endgame knowledge | see [`evaluate`] | matches the draw laws: one or two kings each is 0; three kings against one is valued by the lone-king moves left in the count |

use super::geometry::{
    king_reach, BACK_GUARD_STRONG as GUARD_STRONG_SQUARES, BACK_GUARD_WEAK as GUARD_WEAK_SQUARES,
    CENTRE, CONE, DOUBLE_CORNER, MAIN_DIAGONAL, NEAR_CENTRE, RANK,
};
use super::laws::LawState;
use drafti_rules::{Color, DrawLaws, Position};

/// A man.
pub const MAN: i32 = 100;
/// A king.
pub const KING: i32 = 300;
/// Bonus of a man by its rank counted from its own side (0 = home row … 6 = one step from
/// the crown), with 24 pieces on the board.
pub const ADVANCE_OPENING: [i32; 8] = [0, 0, 1, 3, 5, 7, 9, 0];
/// The same with no pieces left (interpolated in between).
pub const ADVANCE_ENDGAME: [i32; 8] = [0, 5, 10, 16, 24, 34, 48, 0];
/// A man on c5, d4, e5 or f4 (opening value; tapered to a third).
pub const CENTRE_MAN: i32 = 6;
/// A man on c3, e3 (White) or d6, f6 (Black) (opening value; tapered to 0).
pub const NEAR_CENTRE_MAN: i32 = 3;
/// A man on c1 or e1 (White) / f8 or d8 (Black) while the opponent has men (opening value;
/// tapered to 0).
pub const BACK_GUARD_STRONG: i32 = 12;
/// A man on a1 or g1 (White) / h8 or b8 (Black), likewise.
pub const BACK_GUARD_WEAK: i32 = 5;
/// Per square a king can move to.
pub const KING_MOBILITY: i32 = 3;
/// Per king on the main diagonal a1–h8.
pub const KING_MAIN_DIAGONAL: i32 = 20;
/// When a side has a king on the main diagonal and the other has none there.
pub const MAIN_DIAGONAL_HELD: i32 = 20;
/// A runaway man (nothing can stop it being crowned) one step from the crown…
pub const RUNAWAY_BASE: i32 = 180;
/// …less this per further step.
pub const RUNAWAY_STEP: i32 = 25;
/// Three kings against one while the lone king's count runs: this much when the count
/// starts, falling to 0 as the count nears its end (Tanzanian law 2).
pub const THREE_KINGS_WITH_COUNT: i32 = 200;
/// Three kings against one: per square the lone king can reach (counted against the strong
/// side; a cornered lone king is close to being caught).
pub const LONE_KING_MOBILITY: i32 = 6;
/// Three kings against one: the lone king on a double-corner diagonal defends best.
pub const LONE_KING_DOUBLE_CORNER: i32 = 20;
/// Endings without draw laws (Czech, Russian) that are known draws (one or two kings each, or
/// three kings against a lone king that holds the main diagonal): the score is divided by this.
pub const DRAWISH_DIVISOR: i32 = 16;

/// Pieces on the board at the start: the opening end of tapered weights.
const FULL_BOARD: i32 = 24;

/// `opening` with a full board, `endgame` with none, linear in between.
#[inline]
fn taper(opening: i32, endgame: i32, pieces: i32) -> i32 {
    (opening * pieces + endgame * (FULL_BOARD - pieces)) / FULL_BOARD
}

/// One side's pieces.
#[derive(Clone, Copy)]
struct Side {
    men: u32,
    kings: u32,
}

impl Side {
    fn of(pos: &Position, color: Color) -> Side {
        Side {
            men: pos.men(color).0,
            kings: pos.kings(color).0,
        }
    }

    /// The same pieces with the board turned 180° (Black's men then move up the board).
    fn turned(self) -> Side {
        Side {
            men: self.men.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }
}

/// The terms of one side, `own` moving up the board (as White's men do) against `opp`.
fn side_score(own: Side, opp: Side, pieces: i32) -> i32 {
    let occupied = own.men | own.kings | opp.men | opp.kings;
    let mut score = MAN * own.men.count_ones() as i32 + KING * own.kings.count_ones() as i32;

    // Advancement and tempo.
    for rank in 1..7 {
        let n = (own.men & RANK[rank]).count_ones() as i32;
        if n != 0 {
            score += n * taper(ADVANCE_OPENING[rank], ADVANCE_ENDGAME[rank], pieces);
        }
    }

    // Centre.
    score += (own.men & CENTRE).count_ones() as i32 * taper(CENTRE_MAN, CENTRE_MAN / 3, pieces);
    score += (own.men & NEAR_CENTRE).count_ones() as i32 * taper(NEAR_CENTRE_MAN, 0, pieces);

    // Back-rank guard, while there are enemy men to stop.
    if opp.men != 0 {
        score += (own.men & GUARD_STRONG_SQUARES).count_ones() as i32
            * taper(BACK_GUARD_STRONG, 0, pieces);
        score +=
            (own.men & GUARD_WEAK_SQUARES).count_ones() as i32 * taper(BACK_GUARD_WEAK, 0, pieces);
    }

    // Kings: mobility and the main diagonal.
    let mut kings = own.kings;
    while kings != 0 {
        let k = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        score += KING_MOBILITY * king_reach(k, occupied).count_ones() as i32;
    }
    let on_diagonal = (own.kings & MAIN_DIAGONAL).count_ones() as i32;
    score += KING_MAIN_DIAGONAL * on_diagonal;
    if on_diagonal > 0 && opp.kings & MAIN_DIAGONAL == 0 {
        score += MAIN_DIAGONAL_HELD;
    }

    // Runaway men: no enemy king, no enemy man in the forward cone.
    if opp.kings == 0 {
        let mut men = own.men;
        while men != 0 {
            let m = men.trailing_zeros() as usize;
            men &= men - 1;
            if CONE[m] & opp.men == 0 {
                let steps = 7 - rank_of(m);
                score += (RUNAWAY_BASE - RUNAWAY_STEP * (steps - 1)).max(0);
            }
        }
    }
    score
}

#[inline]
fn rank_of(sq: usize) -> i32 {
    // Squares 1–4 are the 8th rank; four squares a rank.
    7 - (sq / 4) as i32
}

/// Three kings (`strong`) against one while law 2's count runs, from the strong side.
fn three_against_one(pos: &Position, strong: Color, moves_left: u32, limit: u32) -> i32 {
    let lone = pos.kings(strong.other()).0;
    let own = pos.kings(strong).0;
    let occupied = pos.occupied().0;
    let lone_sq = lone.trailing_zeros() as usize;
    let mut score = THREE_KINGS_WITH_COUNT * moves_left as i32 / limit.max(1) as i32;
    score -= LONE_KING_MOBILITY * king_reach(lone_sq, occupied).count_ones() as i32;
    if lone & DOUBLE_CORNER != 0 {
        score -= LONE_KING_DOUBLE_CORNER;
    }
    if own & MAIN_DIAGONAL != 0 && lone & MAIN_DIAGONAL == 0 {
        score += MAIN_DIAGONAL_HELD;
    }
    score
}

/// The static evaluation of `pos` from the side to move, in hundredths of a man.
///
/// Endgame knowledge, matching the draw laws:
/// - a node the laws have drawn scores 0 (law 1: one or two kings each; law 2 without the
///   main diagonal, or with the count run out);
/// - three kings against one while the count runs (Tanzanian): not the material but
///   [`THREE_KINGS_WITH_COUNT`] scaled by the lone-king moves left, less the lone king's
///   reach; the search proves the win when there is one within the count;
/// - without draw laws (Czech, Russian): one or two kings each, or three against a lone king
///   on the main diagonal, are known draws: the ordinary score divided by
///   [`DRAWISH_DIVISOR`].
pub(crate) fn evaluate(pos: &Position, laws: &DrawLaws, state: LawState) -> i32 {
    let white_for_mover = |score: i32| match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    match state {
        LawState::Drawn(_) => return 0,
        LawState::Count(_) => {
            if let Some(drafti_rules::KingEnding::ThreeAgainstOne { strong, .. }) =
                pos.king_ending()
            {
                let left = state.moves_left(laws).unwrap_or(0);
                let score = three_against_one(pos, strong, left, laws.king_count);
                return white_for_mover(match strong {
                    Color::White => score,
                    Color::Black => -score,
                });
            }
        }
        LawState::Free => {}
    }

    let pieces = pos.occupied().count() as i32;
    let white = Side::of(pos, Color::White);
    let black = Side::of(pos, Color::Black);
    let mut score =
        side_score(white, black, pieces) - side_score(black.turned(), white.turned(), pieces);

    if !laws.enabled && white.men == 0 && black.men == 0 {
        let (w, b) = (white.kings.count_ones(), black.kings.count_ones());
        let drawish = match (w, b) {
            (1..=2, 1..=2) => true,
            (3, 1) => black.kings & MAIN_DIAGONAL != 0,
            (1, 3) => white.kings & MAIN_DIAGONAL != 0,
            _ => false,
        };
        if drawish {
            score /= DRAWISH_DIVISOR;
        }
    }
    white_for_mover(score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_rules::Variant;

    fn eval(fen: &str, variant: Variant) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let laws = DrawLaws::for_variant(variant);
        evaluate(&pos, &laws, LawState::at_root(&laws, &pos, None))
    }

    #[test]
    fn start_is_even_and_symmetric() {
        let tz = Variant::Tanzanian;
        assert_eq!(eval("W:W21-32:B1-12", tz), 0);
        assert_eq!(eval("B:W21-32:B1-12", tz), 0);
        for fen in [
            "W:W18,21-27,29-32:B1-12",
            "B:WK4,22,23,30:B9,12,K29",
            "W:Wa3,c3,e5,Kh2:Bb6,d8,f6,h6,Ka7",
            "W:W15,K32:B20,28",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let laws = DrawLaws::for_variant(tz);
            let a = evaluate(&pos, &laws, LawState::Free);
            let b = evaluate(&pos.mirrored(), &laws, LawState::Free);
            assert_eq!(a, b, "{fen}");
        }
    }

    #[test]
    fn material_and_runaway() {
        let tz = Variant::Tanzanian;
        // A king is worth more than a man; White to move is ahead.
        assert!(eval("W:WK1:B28", tz) > eval("W:W28:B5", tz) - 1000);
        assert!(eval("W:W21-32:B1-11", tz) > 80);
        // A man with a free path to the crown is worth far more than one facing a man.
        // c5 runs free; the black man on h4 is held by the one on g3.
        let free = eval("W:Wc5,g3:Bh4,h8", tz);
        // The same with a black man on a7, in c5's way.
        let stopped = eval("W:Wc5,g3:Bh4,a7", tz);
        assert!(free > stopped + 100, "free {free} stopped {stopped}");
    }

    #[test]
    fn endgame_knowledge() {
        let tz = Variant::Tanzanian;
        assert_eq!(eval("W:WK1,K2:BK30", tz), 0);
        assert_eq!(eval("W:WKc1,Ke1,Kg1:BKb8", tz), 0);
        let three = eval("W:WKa1,Kc1,Ke1:BKh2", tz);
        assert!(three > 0 && three <= THREE_KINGS_WITH_COUNT + MAIN_DIAGONAL_HELD);
        // Without laws, two kings against one is a small edge, not two men's worth.
        let russian = eval("W:WK1,K2:BK30", Variant::Russian);
        assert!(russian > 0 && russian < 50, "{russian}");
    }
}
