//! Endgame knowledge the learned weights cannot express: the draw laws' verdicts, endings
//! against a lone king (how to catch it, and when to crown the last man under law 2's count),
//! and materials that cannot be won.
//!
//! **Against a lone king** (Tanzanian; the other side has three or more pieces) the score
//! is not material but progress towards the catch, as in Petrov's triangle: hold the main
//! diagonal a1–h8, then the two double diagonals (a7–g1, b8–h2) and the two triple ones
//! (a3–f8, c1–h6), drive the lone king off them and take its squares away. Three kings
//! against one while the count runs: [`THREE_KINGS_WITH_COUNT`] plus that progress (not
//! scaled by the moves left: see `lone_king`). With a man still to crown (two kings and a man, say) there is no count yet:
//! [`LONE_KING_THREE`], a little below a draw. Both are small on purpose: the
//! endgame tables show that with three pieces against a lone king the wins are short (at
//! most 9 plies for three kings within the count, 15 for two kings and a man, 13 for a
//! king and two men), so a search that finds none is almost always in a draw — 60% of
//! two kings and a man against a king are — and then the strong side crowns, starts the
//! count and lets the law end the game instead of shuffling. Four or more pieces
//! against a lone king: [`LONE_KING_FOUR`] and up, no count at all; a lone king on the main
//! diagonal costs [`LONE_ON_MAIN`], so a sacrifice that drives it off is worth its king.
//!
//! | material | verdict |
//! |---|---|
//! | a node the laws have drawn (law 1, law 2 off the diagonal or with the count run out) | 0 |
//! | a lone king against three or more pieces (Tanzanian) | the progress score above |
//! | a king and a man against a king (Tanzanian: the man crowned is law 1's draw) | −2 for the side with the man (it crowns and ends the game rather than shuffling) |
//! | the side ahead has two pieces at most and the other a king | linear score / [`HOPELESS_DIVISOR`] |
//! | only kings, three against two (no law; a draw short of a shot) | −1 for the three (a trade into law 1 ends it) |
//! | Czech, Russian (no laws): one or two kings each, three against a lone king on the main diagonal | linear score / [`DRAWISH_DIVISOR`] |
//! | TzDraft: three or more kings against a lone king (its server's three-kings rule) | [`THREE_KINGS_WITH_COUNT`] plus the progress, as law 2's count, times the share of the 12 moves left |
//! | TzDraft: a king and a man, or two kings, against a king (its server draws it one ply on) | 0 |
//! | TzDraft otherwise | as Czech and Russian |

use super::geometry::{king_reach, DOUBLE_DIAGONALS, MAIN_DIAGONAL, TRIPLE_DIAGONALS};
use super::laws::LawState;
use drafti_rules::{tzdraft_endgame, tzdraft_strong_side, Color, DrawLaws, KingEnding, Position};

/// Three kings against one while the lone king's count runs (Tanzanian law 2): this much
/// plus the progress.
pub const THREE_KINGS_WITH_COUNT: i32 = 80;
/// TzDraft's three-kings rule: the strong side's moves since its last capture that draw.
const TZDRAFT_KING_MOVES: u32 = 12;
/// Three pieces with a man still to crown against a lone king (no count yet), less a
/// hundredth per step the men still have to go.
pub const LONE_KING_THREE: i32 = -5;
/// Four pieces against a lone king (no law: a win with time); each further piece adds
/// [`LONE_KING_PIECE`].
pub const LONE_KING_FOUR: i32 = 400;
/// Per piece beyond four against a lone king.
pub const LONE_KING_PIECE: i32 = 50;
/// Against a lone king: a king of the strong side on the main diagonal.
pub const HOLD_MAIN: i32 = 40;
/// Against a lone king: the lone king on the main diagonal (it cannot be caught there).
pub const LONE_ON_MAIN: i32 = 250;
/// Against a lone king: per double diagonal held by a king of the strong side.
pub const HOLD_DOUBLE: i32 = 15;
/// Against a lone king: per double diagonal the lone king stands on.
pub const LONE_ON_DOUBLE: i32 = 20;
/// Against a lone king: per triple diagonal held.
pub const HOLD_TRIPLE: i32 = 10;
/// Against a lone king: per triple diagonal the lone king stands on.
pub const LONE_ON_TRIPLE: i32 = 10;
/// Against a lone king: per square the lone king can move to.
pub const LONE_KING_MOBILITY: i32 = 6;
/// Against a lone king: per rank a man of the strong side has advanced.
pub const LONE_KING_MAN_RANK: i32 = 3;
/// The side ahead has at most two pieces against a king: the score is divided by this.
pub const HOPELESS_DIVISOR: i32 = 8;
/// Endings without draw laws (Czech, Russian) that are known draws (one or two kings each, or
/// three kings against a lone king that holds the main diagonal): the score is divided by this.
pub const DRAWISH_DIVISOR: i32 = 16;

/// What the endgame knowledge says of a position, from White's side.
pub(crate) enum Verdict {
    /// This score (hundredths of a man), whatever the weights.
    Score(i32),
    /// The linear evaluation divided by this.
    Scaled(i32),
    /// The linear evaluation as it is.
    Linear,
}

/// A lone king of `strong.other()` against the pieces of `strong`, from the strong side;
/// `count` is the lone-king moves left while law 2's count runs.
fn lone_king(pos: &Position, strong: Color, count: Option<u32>) -> i32 {
    let lone = pos.kings(strong.other()).0;
    let kings = pos.kings(strong).0;
    let men = pos.men(strong).0;
    let lone_sq = lone.trailing_zeros() as usize;
    let mut progress = 0;
    if kings & MAIN_DIAGONAL != 0 {
        progress += HOLD_MAIN;
    }
    if lone & MAIN_DIAGONAL != 0 {
        progress -= LONE_ON_MAIN;
    }
    for d in DOUBLE_DIAGONALS {
        if kings & d != 0 {
            progress += HOLD_DOUBLE;
        }
        if lone & d != 0 {
            progress -= LONE_ON_DOUBLE;
        }
    }
    for t in TRIPLE_DIAGONALS {
        if kings & t != 0 {
            progress += HOLD_TRIPLE;
        }
        if lone & t != 0 {
            progress -= LONE_ON_TRIPLE;
        }
    }
    progress -= LONE_KING_MOBILITY * king_reach(lone_sq, pos.occupied().0).count_ones() as i32;
    if count.is_some() {
        // Not scaled by the moves left: a value falling with the count would make crowning
        // later (beyond the horizon, where the count has not run) look better than crowning
        // now, and the engine would put it off for ever. The wins are short (at most 9
        // plies) and the search finds them; the count's end is the law's draw.
        return (THREE_KINGS_WITH_COUNT + progress).max(1);
    }
    // Men move up the board for White, down for Black: ranks advanced from their own side.
    let mut advance = 0;
    let mut rest = men;
    while rest != 0 {
        let sq = rest.trailing_zeros() as i32;
        rest &= rest - 1;
        let row = sq / 4; // 0 = the 8th rank
        advance += match strong {
            Color::White => 7 - row,
            Color::Black => row,
        };
    }
    let pieces = (kings | men).count_ones() as i32;
    if pieces <= 3 {
        // Wins are short here and the search finds them; what is left is nearly always a
        // draw, so a little below one: the strong side crowns (into law 2's count, or a
        // law's draw at once), the nearer its men are to the crown the better, rather than
        // shuffle.
        let steps_left = 7 * men.count_ones() as i32 - advance;
        return LONE_KING_THREE - steps_left;
    }
    (LONE_KING_FOUR + LONE_KING_PIECE * (pieces - 4) + progress + LONE_KING_MAN_RANK * advance)
        .max(20)
}

/// The verdict for `pos` in law state `state`.
#[inline]
pub(crate) fn evaluate(pos: &Position, laws: &DrawLaws, state: LawState) -> Verdict {
    let for_white = |strong: Color, score: i32| match strong {
        Color::White => score,
        Color::Black => -score,
    };
    match state {
        LawState::Drawn(_) => return Verdict::Score(0),
        LawState::Count(_) => {
            if let Some(KingEnding::ThreeAgainstOne { strong, .. }) = pos.king_ending() {
                let score = lone_king(pos, strong, state.moves_left(laws));
                return Verdict::Score(for_white(strong, score));
            }
        }
        LawState::Server(counts) => {
            // TzDraft's three-kings rule: won within the strong side's 12 moves or drawn,
            // as law 2's count (the progress counts the kings; men do not catch), and worth
            // less with every move the count has run: the wins are short and the search
            // finds them, so one it has not found with few moves left is nearly no win.
            // (Unlike law 2's, this count runs from the side's last capture whether or not
            // the material is there, so crowning later gains nothing.)
            if let Some(strong) = tzdraft_strong_side(pos) {
                let left = TZDRAFT_KING_MOVES.saturating_sub(counts.quiet_moves(strong));
                let score =
                    lone_king(pos, strong, Some(left)) * left as i32 / TZDRAFT_KING_MOVES as i32;
                return Verdict::Score(for_white(strong, score));
            }
            // Its endgame rule draws this material one ply on: a win must come now.
            if tzdraft_endgame(pos) {
                return Verdict::Score(0);
            }
        }
        LawState::Free => {}
    }
    let pieces = |c: Color| pos.pieces(c).count();
    let (w, b) = (pieces(Color::White), pieces(Color::Black));
    if w > 1 && b > 1 && w + b > 6 {
        return Verdict::Linear;
    }
    let kings = |c: Color| pos.kings(c).count();
    let men = pos.men(Color::White).count() + pos.men(Color::Black).count();
    if !laws.enabled {
        if men == 0 {
            let (wk, bk) = (kings(Color::White), kings(Color::Black));
            let drawish = match (wk, bk) {
                (1..=2, 1..=2) => true,
                (3, 1) => pos.kings(Color::Black).0 & MAIN_DIAGONAL != 0,
                (1, 3) => pos.kings(Color::White).0 & MAIN_DIAGONAL != 0,
                _ => false,
            };
            if drawish {
                return Verdict::Scaled(DRAWISH_DIVISOR);
            }
        }
        return Verdict::Linear;
    }
    // A lone king against three or more pieces.
    for (strong, n_strong, n_weak) in [(Color::White, w, b), (Color::Black, b, w)] {
        if n_weak == 1 && kings(strong.other()) == 1 && n_strong >= 3 {
            return Verdict::Score(for_white(strong, lone_king(pos, strong, None)));
        }
    }
    // A king and a man against a king: crowned, it is law 1's draw; the side with the man
    // crowns and ends the game rather than shuffling (a shot the search sees comes first).
    for (strong, n_strong, n_weak) in [(Color::White, w, b), (Color::Black, b, w)] {
        if n_strong == 2 && kings(strong) == 1 && n_weak == 1 && kings(strong.other()) == 1 {
            return Verdict::Score(for_white(strong, -2));
        }
    }
    // Otherwise a side with at most two pieces cannot win against a king (crowned, its
    // pieces make law 1's draw), short of a shot the search sees.
    let hopeless = |ahead: u32, behind: Color| ahead <= 2 && kings(behind) > 0;
    if (w > b && hopeless(w, Color::Black)) || (b > w && hopeless(b, Color::White)) {
        return Verdict::Scaled(HOPELESS_DIVISOR);
    }
    // Only kings, three against two: no law, but a draw short of a shot; the three would
    // rather trade into law 1 than shuffle.
    if men == 0 && w.min(b) == 2 && w.max(b) == 3 {
        let strong = if w == 3 { Color::White } else { Color::Black };
        return Verdict::Score(for_white(strong, -1));
    }
    if men == 0 && w == 3 && b == 3 {
        return Verdict::Score(0);
    }
    Verdict::Linear
}
