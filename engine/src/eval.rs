//! The static evaluation, in hundredths of a man from the side to move.
//!
//! Most of it is **linear in learned weights** (see `weights`, fitted by Texel tuning on
//! self-play results): for each side, seen from its own side of the board (Black's pieces
//! turned 180°), the features below are counted, each count multiplied by its weight, and
//! Black's sum subtracted from White's. So the evaluation is symmetric by construction
//! (tested): the position turned around with the colours swapped scores the same for the
//! side to move. Every weight has an opening and an endgame value, interpolated linearly by
//! the pieces on the board (24 → 0).
//!
//! | feature (per side) | count |
//! |---|---|
//! | `man`, `man-square` | men, and each man's square |
//! | `king`, `king-extra`, `king-square` | the first king, every further king, each king's square |
//! | `king-mobility`, `king-mobility-attacked` | squares the kings can move to, safe ones and ones an enemy man could capture on |
//! | `main-diagonal`, `main-diagonal-sole` | kings on a1–h8; holding it with the other side off it |
//! | `runaway` | men nothing can stop (no enemy king, no enemy man in the forward cone), by steps to the crown |
//! | `race-ahead` | the side whose fastest runaway crowns first (the side to move gains a step) |
//! | `to-move` | the side to move |
//! | `balance` | \|men on files a–d − men on files e–h\| |
//! | `pattern` | the men of each of nine overlapping 4×4 regions (files a–d, c–f, e–h × ranks 1–4, 3–6, 5–8), one weight per configuration (3⁸ = 6561 per region), as Scan does on 10×10 |
//!
//! Hand-written knowledge on top, matching the draw laws and the endgame (see `endgame`):
//! a node the laws have drawn is 0; three kings against one while the count runs is valued by
//! the lone-king moves left; materials that cannot be won are scaled towards 0.

use super::endgame;
use super::geometry::{attacked_by_men, king_reach, CONE, MAIN_DIAGONAL};
use super::laws::LawState;
use super::weights::{self, Weights, BASE_REGIONS, REGIONS, REGION_SHIFTS, REGION_STATES, UNIT};
use drafti_rules::{Color, DrawLaws, Position, Variant};

/// A man's nominal value in hundredths of a man: the shipped weights' `man` (tested), for
/// callers that count material (the puzzles' gains).
pub const MAN: i32 = 100;
/// A king's nominal value: the shipped weights' first king (tested).
pub const KING: i32 = 300;

/// Pieces on the board at the start: where the opening values of the weights apply fully.
pub(crate) const FULL_BOARD: i32 = 24;

/// Where the features of a position go: the engine adds up their weights, the trainer
/// records them.
pub(crate) trait Sink {
    /// Whether the men's own weights (`man`, `man-square`) are folded into the patterns'
    /// (see [`Tables`]), so those features need not be counted.
    const FOLDED: bool = false;
    /// Feature `param` occurs `count` times (negative for the other side).
    fn add(&mut self, param: usize, count: i32);
    /// The regions whose patterns count (the search skips regions whose weights are all
    /// zero: weights fitted with fewer regions evaluate as fast as before).
    #[inline(always)]
    fn regions(&self) -> usize {
        REGIONS
    }
    /// Region `region` has configuration `index` (`sign` −1 for the other side).
    #[inline(always)]
    fn pattern(&mut self, region: usize, index: usize, sign: i32) {
        self.add(weights::PATTERN + region * REGION_STATES + index, sign);
    }
}

/// The weights laid out for the search: opening and endgame values side by side, and the
/// men's own weights folded into the patterns (each square's `man-square` weight, and the
/// `man` weight, added to the configurations of one region that covers the square with an
/// own man on it), so evaluating a position never visits its men one by one. Gives exactly
/// the sum of the weights of the features.
pub(crate) struct Tables {
    params: Vec<[i32; 2]>,
    /// Regions `regions..` have no weight (see [`Sink::regions`]).
    regions: usize,
    /// Halves the size of the largest table (in the cache during a search); a weight
    /// beyond ±32767 units (±32 men) is clamped.
    patterns: Vec<[i16; 2]>,
}

impl Tables {
    pub(crate) fn new(w: &Weights) -> Tables {
        let params: Vec<[i32; 2]> = (0..weights::PARAMS).map(|p| [w.mg[p], w.eg[p]]).collect();
        // The region each square's own weights go to: the first that covers it.
        let mut home = [usize::MAX; 32];
        for (r, &shift) in REGION_SHIFTS.iter().enumerate() {
            for (sq, h) in home.iter_mut().enumerate() {
                if *h == usize::MAX && region_bits(1 << sq, shift) != 0 {
                    *h = r;
                }
            }
        }
        let mut patterns = vec![[0i16; 2]; REGIONS * REGION_STATES];
        for (r, &shift) in REGION_SHIFTS.iter().enumerate() {
            // The squares of the region in the order of the index's digits.
            let squares: Vec<usize> = (0..32)
                .filter(|&sq| region_bits(1 << sq, shift) != 0)
                .collect();
            for index in 0..REGION_STATES {
                let mut entry = params[weights::PATTERN + r * REGION_STATES + index];
                let mut digits = index;
                for &sq in &squares {
                    if digits % 3 == 1 && home[sq] == r {
                        for k in 0..2 {
                            entry[k] +=
                                params[weights::MAN][k] + params[weights::MAN_SQUARE + sq][k];
                        }
                    }
                    digits /= 3;
                }
                patterns[r * REGION_STATES + index] =
                    entry.map(|v| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16);
            }
        }
        let regions = (0..REGIONS)
            .rev()
            .find(|&r| {
                patterns[r * REGION_STATES..(r + 1) * REGION_STATES]
                    .iter()
                    .any(|e| *e != [0, 0])
            })
            .map_or(0, |r| r + 1);
        Tables {
            params,
            regions,
            patterns,
        }
    }
}

/// The tables of `variant`'s shipped weights, each made once.
pub(crate) fn shipped_tables(variant: Variant) -> std::sync::Arc<Tables> {
    use std::sync::{Arc, LazyLock};
    static SHIPPED: [LazyLock<Arc<Tables>>; 3] = [
        LazyLock::new(|| Arc::new(Tables::new(&weights::shipped(Variant::Tanzanian)))),
        LazyLock::new(|| Arc::new(Tables::new(&weights::shipped(Variant::Czech)))),
        LazyLock::new(|| Arc::new(Tables::new(&weights::shipped(Variant::Russian)))),
    ];
    Arc::clone(&SHIPPED[weights::shipped_index(variant)])
}

/// Adds up the weights from [`Tables`].
struct Fast<'a> {
    t: &'a Tables,
    sum: [i32; 2],
}

impl Sink for Fast<'_> {
    const FOLDED: bool = true;

    #[inline(always)]
    fn regions(&self) -> usize {
        self.t.regions
    }

    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        let w = self.t.params[param];
        self.sum[0] += w[0] * count;
        self.sum[1] += w[1] * count;
    }

    #[inline(always)]
    fn pattern(&mut self, region: usize, index: usize, sign: i32) {
        let w = self.t.patterns[region * REGION_STATES + index];
        self.sum[0] += i32::from(w[0]) * sign;
        self.sum[1] += i32::from(w[1]) * sign;
    }
}

/// Adds up the opening and endgame weights of the features.
struct Sum<'a> {
    w: &'a Weights,
    mg: i32,
    eg: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.mg += self.w.mg[param] * count;
        self.eg += self.w.eg[param] * count;
    }
}

/// The other side's features, subtracted.
struct Negated<'a, S: Sink>(&'a mut S);

impl<S: Sink> Sink for Negated<'_, S> {
    const FOLDED: bool = S::FOLDED;

    #[inline(always)]
    fn regions(&self) -> usize {
        self.0.regions()
    }

    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.0.add(param, -count);
    }

    #[inline(always)]
    fn pattern(&mut self, region: usize, index: usize, sign: i32) {
        self.0.pattern(region, index, -sign);
    }
}

/// One side's pieces, seen from that side (its men move up the board).
#[derive(Clone, Copy)]
struct Side {
    men: u32,
    kings: u32,
}

impl Side {
    fn of(pos: &Position, color: Color) -> Side {
        let side = Side {
            men: pos.men(color).0,
            kings: pos.kings(color).0,
        };
        match color {
            Color::White => side,
            Color::Black => side.turned(),
        }
    }

    /// The same pieces with the board turned 180°.
    fn turned(self) -> Side {
        Side {
            men: self.men.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }
}

/// Base-3 value of the 8 bits of a region (bit i → 3^i).
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The 8 bits of `set` in the region at `shift` (see [`REGION_SHIFTS`]): four consecutive
/// rows (row 0 is the 8th rank), in each row two neighbouring squares of its four (those lie
/// in four consecutive files).
#[inline(always)]
fn region_bits(set: u32, shift: u32) -> usize {
    let y = set >> shift;
    ((y & 3) | ((y >> 2) & 0xC) | ((y >> 4) & 0x30) | ((y >> 6) & 0xC0)) as usize
}

/// Steps a man on `sq` (own side's view) needs to be crowned.
#[inline]
fn steps_to_crown(sq: usize) -> usize {
    sq / 4
}

/// The steps of `own`'s fastest runaway man (no enemy king, no enemy man in its cone), if any.
#[inline]
fn fastest_runaway(own: Side, opp: Side) -> Option<usize> {
    if opp.kings != 0 {
        return None;
    }
    // Enemy men seen from `own`'s side are `opp` turned back.
    let enemy_men = opp.men.reverse_bits();
    let mut best: Option<usize> = None;
    let mut men = own.men;
    while men != 0 {
        let m = men.trailing_zeros() as usize;
        men &= men - 1;
        if CONE[m] & enemy_men == 0 {
            let s = steps_to_crown(m);
            best = Some(best.map_or(s, |b: usize| b.min(s)));
        }
    }
    best
}

/// The features of one side, `own` against `opp` (both seen from `own`'s side).
#[inline(always)]
fn side_features<S: Sink>(own: Side, opp: Side, to_move: bool, sink: &mut S) {
    let enemy_men = opp.men.reverse_bits();
    let enemy_kings = opp.kings.reverse_bits();
    let occupied = own.men | own.kings | enemy_men | enemy_kings;

    let men = own.men.count_ones() as i32;
    if !S::FOLDED {
        sink.add(weights::MAN, men);
        let mut rest = own.men;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            sink.add(weights::MAN_SQUARE + sq, 1);
        }
    }

    let kings = own.kings.count_ones() as i32;
    if kings > 0 {
        sink.add(weights::KING, 1);
        if kings > 1 {
            sink.add(weights::KING_EXTRA, kings - 1);
        }
        // Squares where an enemy man could capture: enemy men move down the board here,
        // so turn the board to let them move up.
        let attacked = attacked_by_men(opp.men, !(occupied.reverse_bits())).reverse_bits();
        let (mut safe, mut unsafe_) = (0, 0);
        let mut rest = own.kings;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            sink.add(weights::KING_SQUARE + sq, 1);
            let reach = king_reach(sq, occupied);
            safe += (reach & !attacked).count_ones() as i32;
            unsafe_ += (reach & attacked).count_ones() as i32;
        }
        sink.add(weights::KING_MOBILITY, safe);
        sink.add(weights::KING_MOBILITY_ATTACKED, unsafe_);
        // The long diagonal a1–h8 turned 180° is itself.
        let on_diagonal = (own.kings & MAIN_DIAGONAL).count_ones() as i32;
        if on_diagonal > 0 {
            sink.add(weights::MAIN_DIAGONAL, on_diagonal);
            if enemy_kings & MAIN_DIAGONAL == 0 {
                sink.add(weights::MAIN_DIAGONAL_SOLE, 1);
            }
        }
    }

    if let Some(steps) = fastest_runaway(own, opp) {
        // Count every runaway by its steps; the race compares the fastest ones.
        let mut rest = own.men;
        while rest != 0 {
            let m = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if CONE[m] & enemy_men == 0 {
                let s = steps_to_crown(m).max(1);
                sink.add(weights::RUNAWAY + s - 1, 1);
            }
        }
        let theirs = fastest_runaway(opp, own);
        let ahead = match theirs {
            None => true,
            Some(t) => steps + usize::from(!to_move) <= t,
        };
        if ahead {
            sink.add(weights::RACE_AHEAD, 1);
        }
    }

    if to_move {
        sink.add(weights::TO_MOVE, 1);
    }

    // Files a–d hold squares 0, 1 of each row on rows with dark squares on b, d, f, h
    // (even rows) and squares 0, 1 on the others too: the left two of every row.
    const LEFT: u32 = 0x3333_3333;
    let left = (own.men & LEFT).count_ones() as i32;
    sink.add(weights::BALANCE, (2 * left - men).abs());

    // The first nine regions cover the board; the loop over them is fixed so that it
    // unrolls, and the others are looked at only when their weights are not all zero.
    for (r, &shift) in REGION_SHIFTS.iter().enumerate().take(BASE_REGIONS) {
        let index = TERNARY[region_bits(own.men, shift)] as usize
            + 2 * TERNARY[region_bits(enemy_men, shift)] as usize;
        sink.pattern(r, index, 1);
    }
    if sink.regions() > BASE_REGIONS {
        for (r, &shift) in REGION_SHIFTS.iter().enumerate().skip(BASE_REGIONS) {
            let index = TERNARY[region_bits(own.men, shift)] as usize
                + 2 * TERNARY[region_bits(enemy_men, shift)] as usize;
            sink.pattern(r, index, 1);
        }
    }
}

/// The linear features of `pos` from White's side, into `sink`; returns the pieces on the
/// board (the interpolation between opening and endgame values).
#[inline(always)]
pub(crate) fn features<S: Sink>(pos: &Position, sink: &mut S) -> i32 {
    let white = Side::of(pos, Color::White);
    let black = Side::of(pos, Color::Black);
    let white_to_move = pos.turn() == Color::White;
    side_features(white, black, white_to_move, sink);
    side_features(black, white, !white_to_move, &mut Negated(sink));
    (pos.occupied().count() as i32).min(FULL_BOARD)
}

/// The linear part from White's side, in hundredths of a man, feature by feature (the
/// trainer's view).
pub(crate) fn linear(pos: &Position, w: &Weights) -> i32 {
    let mut sum = Sum { w, mg: 0, eg: 0 };
    let pieces = features(pos, &mut sum);
    interpolate(sum.mg, sum.eg, pieces)
}

/// The same from the search's tables.
#[inline]
pub(crate) fn linear_fast(pos: &Position, t: &Tables) -> i32 {
    let mut sum = Fast { t, sum: [0; 2] };
    let pieces = features(pos, &mut sum);
    interpolate(sum.sum[0], sum.sum[1], pieces)
}

/// Opening and endgame sums (in weight units) to hundredths of a man for `pieces` pieces.
#[inline]
pub(crate) fn interpolate(mg: i32, eg: i32, pieces: i32) -> i32 {
    let total = mg as i64 * pieces as i64 + eg as i64 * (FULL_BOARD - pieces) as i64;
    (total / (FULL_BOARD as i64 * UNIT as i64)) as i32
}

/// The static evaluation of `pos` from the side to move, in hundredths of a man: the laws'
/// draws, the endgame knowledge, else the linear evaluation.
pub(crate) fn evaluate(pos: &Position, laws: &DrawLaws, state: LawState, t: &Tables) -> i32 {
    let white = match endgame::evaluate(pos, laws, state) {
        endgame::Verdict::Score(s) => s,
        endgame::Verdict::Scaled(divisor) => linear_fast(pos, t) / divisor,
        endgame::Verdict::Linear => linear_fast(pos, t),
    };
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_rules::Variant;

    fn eval(fen: &str, variant: Variant) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let laws = DrawLaws::for_variant(variant);
        evaluate(
            &pos,
            &laws,
            LawState::at_root(&laws, &pos, None),
            &Tables::new(&weights::shipped(variant)),
        )
    }

    /// Collects the features.
    struct Collect(Vec<(usize, i32)>);
    impl Sink for Collect {
        fn add(&mut self, param: usize, count: i32) {
            self.0.push((param, count));
        }
    }

    #[test]
    fn start_is_even_and_symmetric() {
        let tz = Variant::Tanzanian;
        // The start with either side to move: the same up to the side-to-move weight.
        assert_eq!(eval("W:W21-32:B1-12", tz), eval("B:W21-32:B1-12", tz));
        for fen in [
            "W:W21-32:B1-12",
            "W:W18,21-27,29-32:B1-12",
            "B:WK4,22,23,30:B9,12,K29",
            "W:Wa3,c3,e5,Kh2:Bb6,d8,f6,h6,Ka7",
            "W:W15,K32:B20,28",
            "B:W5,6,13,14,17,18,25:B8,11,12,15,16,19,20",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let laws = DrawLaws::for_variant(tz);
            let w = weights::shipped(Variant::Tanzanian);
            let t = Tables::new(&w);
            let a = evaluate(&pos, &laws, LawState::Free, &t);
            let b = evaluate(&pos.mirrored(), &laws, LawState::Free, &t);
            assert_eq!(a, b, "{fen}");
            // The search's folded tables give exactly the sum of the features' weights.
            assert_eq!(linear_fast(&pos, &t), linear(&pos, &w), "{fen}");
            // The features themselves cancel exactly between a position and its mirror.
            let mut fa = Collect(Vec::new());
            let mut fb = Collect(Vec::new());
            features(&pos, &mut fa);
            features(&pos.mirrored(), &mut fb);
            let mut sum = std::collections::BTreeMap::new();
            for (p, c) in fa.0.into_iter().chain(fb.0) {
                *sum.entry(p).or_insert(0) += c;
            }
            assert!(sum.values().all(|&c| c == 0), "{fen}: {sum:?}");
        }
    }

    #[test]
    fn regions_cover_the_board() {
        let mut covered = [0; 32];
        for shift in REGION_SHIFTS {
            for (sq, c) in covered.iter_mut().enumerate() {
                if region_bits(1 << sq, shift) != 0 {
                    *c += 1;
                }
            }
            assert_eq!(
                (0..32).filter(|&s| region_bits(1 << s, shift) != 0).count(),
                8
            );
        }
        assert!(covered.iter().all(|&c| c >= 1));
        // c3 (square 22, index 21) lies in files a-d and c-f of ranks 1-4, 2-5 and 3-6.
        assert_eq!(covered[21], 6);
    }

    #[test]
    fn material_and_runaway() {
        let tz = Variant::Tanzanian;
        assert!(eval("W:W21-32:B1-11", tz) > 60);
        assert!(eval("W:W21-32:B1-11", tz) < 200);
        // A man with a free path to the crown is worth far more than one facing a man.
        // c5 runs free; the black man on h4 is held by the one on g3.
        let free = eval("W:Wc5,g3:Bh4,h8", tz);
        // The same with a black man on a7, in c5's way.
        let stopped = eval("W:Wc5,g3:Bh4,a7", tz);
        assert!(free > stopped + 50, "free {free} stopped {stopped}");
        // A king is worth more than a man.
        assert!(eval("W:WK29,K30,22:BK4,10", tz) > eval("W:WK29,21,22:BK4,10", tz));
    }

    #[test]
    fn endgame_knowledge() {
        let tz = Variant::Tanzanian;
        assert_eq!(eval("W:WK1,K2:BK30", tz), 0);
        assert_eq!(eval("W:WKc1,Ke1,Kg1:BKb8", tz), 0);
        let three = eval("W:WKa1,Kc1,Ke1:BKh2", tz);
        assert!(three > 0 && three < 400, "{three}");
        // Without laws, two kings against one is a small edge, not two men's worth.
        let russian = eval("W:WK1,K2:BK30", Variant::Russian);
        assert!(russian > 0 && russian < 50, "{russian}");
    }
}
