//! Material signatures and the index of a position within its signature's table.
//!
//! Every table holds positions with **White to move**; a position with Black to move is
//! turned 180° with the colours swapped ([`Position::mirrored`], a symmetry of all three
//! variants: the main diagonal a1–h8 maps onto itself) and looked up in the table of the
//! swapped material. So the signature `KMvK` (the side to move has a king and a man, the other
//! side a king) and `KvKM` are two tables.
//!
//! The index of a position is a mixed-radix number of four combinatorial ranks (colex order):
//!
//! ```text
//! index = ((rank(white men in the 28 squares a White man can stand on) × C(28, bm)
//!          + rank(black men in their 28 squares)) × C(32 − wm − bm, wk)
//!          + rank(white kings among the squares the men leave free)) × C(32 − wm − bm − wk, bk)
//!          + rank(black kings among the squares still free)
//! ```
//!
//! Kings are ranked among the free squares, so that part is perfect; only the men of the two
//! sides may collide (a few per cent of a signature with men of both sides): those indices
//! decode to no position and hold a draw that nothing ever probes.

use drafti_rules::{Bitboard, Color, Position};
use std::fmt;

/// The most pieces (both sides together) a signature may have.
pub const MAX_PIECES: u32 = 8;

/// `BINOMIAL[n][k]` = C(n, k) for n ≤ 32, k ≤ 8.
static BINOMIAL: [[u64; 9]; 33] = {
    let mut t = [[0u64; 9]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k).
#[inline]
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The squares a White man can stand on (all but the 8th rank, where it is crowned): bit 4
/// up; a Black man stands on bits 0–27.
const WHITE_MEN_SHIFT: u32 = 4;
const MAN_SQUARES: u32 = 28;

/// The material of a table: men and kings of the side to move (White) and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// Men of the side to move.
    pub white_men: u8,
    /// Kings of the side to move.
    pub white_kings: u8,
    /// Men of the other side.
    pub black_men: u8,
    /// Kings of the other side.
    pub black_kings: u8,
}

impl Signature {
    /// The signature of `pos` as its table sees it (the side to move is "white").
    #[inline]
    pub fn of(pos: &Position) -> Signature {
        let (us, them) = (pos.turn(), pos.turn().other());
        Signature {
            white_men: pos.men(us).count() as u8,
            white_kings: pos.kings(us).count() as u8,
            black_men: pos.men(them).count() as u8,
            black_kings: pos.kings(them).count() as u8,
        }
    }

    /// The signature with the sides swapped: where this table's moves lead.
    pub const fn swapped(self) -> Signature {
        Signature {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// Pieces on the board (summed as `u32`: a signature read from a damaged file may hold
    /// any counts).
    pub const fn pieces(self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// Men on the board.
    pub const fn men(self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// Whether only kings are left.
    pub const fn kings_only(self) -> bool {
        self.men() == 0
    }

    /// Every signature with at most `max_pieces` pieces and at least one piece a side, in
    /// build order: fewer pieces first, then fewer men (captures and crowning lead only to
    /// signatures earlier in this order), then by name.
    pub fn all_up_to(max_pieces: u32) -> Vec<Signature> {
        let max = max_pieces.min(MAX_PIECES) as u8;
        let mut all = Vec::new();
        for wm in 0..=max {
            for wk in 0..=max - wm {
                for bm in 0..=max - wm - wk {
                    for bk in 0..=max - wm - wk - bm {
                        let sig = Signature {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        };
                        if wm + wk > 0 && bm + bk > 0 && wm <= 12 && bm <= 12 {
                            all.push(sig);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|s| (s.pieces(), s.men(), s.name()));
        all
    }

    /// The number of indices of one layer of this signature's table.
    pub fn positions(self) -> u64 {
        let (wm, wk, bm, bk) = self.counts();
        let free = 32 - wm - bm;
        binomial(MAN_SQUARES, wm)
            * binomial(MAN_SQUARES, bm)
            * binomial(free, wk)
            * binomial(free - wk, bk)
    }

    #[inline]
    fn counts(self) -> (u32, u32, u32, u32) {
        (
            self.white_men as u32,
            self.white_kings as u32,
            self.black_men as u32,
            self.black_kings as u32,
        )
    }

    /// The slot of this signature in a dense array (every count below 9).
    #[inline]
    pub(crate) fn slot(self) -> usize {
        let (wm, wk, bm, bk) = self.counts();
        (((wm * 9 + wk) * 9 + bm) * 9 + bk) as usize
    }

    /// The number of slots [`Signature::slot`] uses.
    pub(crate) const SLOTS: usize = 9 * 9 * 9 * 9;

    /// The name, side to move first: `K` a king, `M` a man; `KKMvK`.
    pub fn name(self) -> String {
        let side = |kings: u8, men: u8| "K".repeat(kings as usize) + &"M".repeat(men as usize);
        format!(
            "{}v{}",
            side(self.white_kings, self.white_men),
            side(self.black_kings, self.black_men)
        )
    }

    /// The signature named `name` (as [`Signature::name`] writes it: `KKMvK`), if it is one.
    pub fn from_name(name: &str) -> Option<Signature> {
        let (us, them) = name.split_once('v')?;
        let side = |text: &str| -> Option<(u8, u8)> {
            let kings = text.bytes().filter(|&b| b == b'K').count();
            let men = text.bytes().filter(|&b| b == b'M').count();
            (kings + men == text.len() && !text.is_empty() && text.len() <= 12)
                .then_some((men as u8, kings as u8))
        };
        let ((wm, wk), (bm, bk)) = (side(us)?, side(them)?);
        let sig = Signature {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        };
        (sig.pieces() <= MAX_PIECES).then_some(sig)
    }

    /// The index of `pos` (White to move, of this signature) in one layer.
    #[inline]
    pub fn index(self, pos: &Position) -> u64 {
        let (wm, wk, bm, bk) = self.counts();
        let white_men = pos.men(Color::White).0;
        let black_men = pos.men(Color::Black).0;
        let white_kings = pos.kings(Color::White).0;
        let black_kings = pos.kings(Color::Black).0;
        let free = !(white_men | black_men);
        let mut index = rank(white_men >> WHITE_MEN_SHIFT);
        index = index * binomial(MAN_SQUARES, bm) + rank(black_men);
        index = index * binomial(32 - wm - bm, wk) + rank(squeeze(white_kings, free));
        let free = free & !white_kings;
        index * binomial(32 - wm - bm - wk, bk) + rank(squeeze(black_kings, free))
    }

    /// The position (White to move) at `index` of one layer; `None` where the men of the two
    /// sides would share a square (or the index is out of range).
    pub fn position(self, index: u64) -> Option<Position> {
        let (wm, wk, bm, bk) = self.counts();
        let free_men = 32 - wm - bm;
        let radix_bk = binomial(free_men - wk, bk);
        let radix_wk = binomial(free_men, wk);
        let radix_bm = binomial(MAN_SQUARES, bm);
        let (rest, bk_rank) = (index / radix_bk, index % radix_bk);
        let (rest, wk_rank) = (rest / radix_wk, rest % radix_wk);
        let (wm_rank, bm_rank) = (rest / radix_bm, rest % radix_bm);
        if wm_rank >= binomial(MAN_SQUARES, wm) {
            return None;
        }
        let white_men = unrank(wm_rank, wm, MAN_SQUARES) << WHITE_MEN_SHIFT;
        let black_men = unrank(bm_rank, bm, MAN_SQUARES);
        if white_men & black_men != 0 {
            return None;
        }
        let free = !(white_men | black_men);
        let white_kings = expand(unrank(wk_rank, wk, free_men), free);
        let black_kings = expand(unrank(bk_rank, bk, free_men - wk), free & !white_kings);
        Position::from_parts(
            Bitboard(white_men | white_kings),
            Bitboard(black_men | black_kings),
            Bitboard(white_kings | black_kings),
            Color::White,
        )
        .ok()
    }
}

/// The signature and the index in one layer of `pos` as its table holds it, whichever side
/// is to move: [`Signature::of`] and [`Signature::index`] of [`normalized`]`(pos)`, computed
/// without turning the board (x86 has no bit-reversal instruction: a Black-to-move position
/// is ranked from its highest square down instead). The probe's hot path.
#[inline]
pub(crate) fn signature_and_index(pos: &Position) -> (Signature, u64) {
    let (white, black) = (pos.pieces(Color::White).0, pos.pieces(Color::Black).0);
    let kings = pos.kings(Color::White).0 | pos.kings(Color::Black).0;
    let (white_men, black_men) = (white & !kings, black & !kings);
    let (white_kings, black_kings) = (white & kings, black & kings);
    let free = !(white_men | black_men);
    let free_men = free.count_ones();
    if pos.turn() == Color::White {
        let sig = Signature {
            white_men: white_men.count_ones() as u8,
            white_kings: white_kings.count_ones() as u8,
            black_men: black_men.count_ones() as u8,
            black_kings: black_kings.count_ones() as u8,
        };
        let mut index = rank(white_men >> WHITE_MEN_SHIFT);
        index = index * binomial(MAN_SQUARES, sig.black_men as u32) + rank(black_men);
        index = index * binomial(free_men, sig.white_kings as u32) + rank_among(white_kings, free);
        let free_men = free_men - sig.white_kings as u32;
        let index = index * binomial(free_men, sig.black_kings as u32)
            + rank_among(black_kings, free & !white_kings);
        (sig, index)
    } else {
        // Turned 180°: square s becomes 31 − s, and a Black man on s a White man on 31 − s,
        // which the White-man rank counts from bit 4: 27 − s.
        let sig = Signature {
            white_men: black_men.count_ones() as u8,
            white_kings: black_kings.count_ones() as u8,
            black_men: white_men.count_ones() as u8,
            black_kings: white_kings.count_ones() as u8,
        };
        let mut index = rank_turned(black_men, 27);
        index = index * binomial(MAN_SQUARES, sig.black_men as u32) + rank_turned(white_men, 31);
        index = index * binomial(free_men, sig.white_kings as u32)
            + rank_among_turned(black_kings, free);
        let free_men = free_men - sig.white_kings as u32;
        let index = index * binomial(free_men, sig.black_kings as u32)
            + rank_among_turned(white_kings, free & !black_kings);
        (sig, index)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// `pos` as its table holds it: with White to move (turned and colour-swapped otherwise).
#[inline]
pub(crate) fn normalized(pos: &Position) -> Position {
    if pos.turn() == Color::White {
        *pos
    } else {
        pos.mirrored()
    }
}

/// The colex rank of a set given by its members' positions in increasing order: Σ C(position,
/// i) over them, i from 1.
#[inline(always)]
fn colex(positions: impl Iterator<Item = u32>) -> u64 {
    positions
        .zip(1..)
        .map(|(p, i)| BINOMIAL[p as usize][i])
        .sum()
}

/// The squares of `set`, lowest first.
#[inline(always)]
fn upward(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = set.trailing_zeros();
            set &= set - 1;
            sq
        })
    })
}

/// The squares of `set`, highest first (the order of the set turned 180°).
#[inline(always)]
fn downward(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = 31 - set.leading_zeros();
            set ^= 1 << sq;
            sq
        })
    })
}

/// The colex rank of a set of bit positions.
#[inline(always)]
fn rank(set: u32) -> u64 {
    colex(upward(set))
}

/// [`rank`] of the set turned 180° and shifted so that square `top` is position 0: each
/// member `s` at position `top − s`.
#[inline(always)]
fn rank_turned(set: u32, top: u32) -> u64 {
    colex(downward(set).map(|sq| top - sq))
}

/// `rank(squeeze(set, free))` in one pass: each member at its rank among the squares of `free`.
#[inline(always)]
fn rank_among(set: u32, free: u32) -> u64 {
    colex(upward(set).map(|sq| (free & ((1 << sq) - 1)).count_ones()))
}

/// [`rank_among`] of the set and `free` turned 180°: each member at the count of free squares
/// above it.
#[inline(always)]
fn rank_among_turned(set: u32, free: u32) -> u64 {
    colex(downward(set).map(|sq| ((free >> sq) >> 1).count_ones()))
}

/// The set of `k` bit positions below `n` with colex rank `r`.
fn unrank(mut r: u64, k: u32, n: u32) -> u32 {
    let mut set = 0;
    let mut top = n as usize;
    for i in (1..=k as usize).rev() {
        let mut s = top - 1;
        while BINOMIAL[s][i] > r {
            s -= 1;
        }
        set |= 1 << s;
        r -= BINOMIAL[s][i];
        top = s;
    }
    set
}

/// Each member of `set` (a subset of `free`) replaced by its rank among the squares of `free`.
#[inline]
fn squeeze(mut set: u32, free: u32) -> u32 {
    let mut out = 0;
    while set != 0 {
        let sq = set.trailing_zeros();
        out |= 1 << (free & ((1u32 << sq) - 1)).count_ones();
        set &= set - 1;
    }
    out
}

/// The inverse of [`squeeze`]: bit `i` of `set` becomes the `i`-th square of `free`.
fn expand(mut set: u32, free: u32) -> u32 {
    let mut out = 0;
    while set != 0 {
        let nth = set.trailing_zeros();
        let mut squares = free;
        for _ in 0..nth {
            squares &= squares - 1;
        }
        out |= squares & squares.wrapping_neg();
        set &= set - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips_and_positions_are_dense() {
        for sig in Signature::all_up_to(3) {
            let mut valid = 0u64;
            let mut seen = std::collections::HashSet::new();
            for index in 0..sig.positions() {
                if let Some(pos) = sig.position(index) {
                    assert_eq!(Signature::of(&pos), sig, "{sig} {index}");
                    assert_eq!(sig.index(&pos), index, "{sig} {pos}");
                    assert_eq!(signature_and_index(&pos), (sig, index), "{sig} {pos}");
                    let turned = pos.mirrored();
                    assert_eq!(signature_and_index(&turned), (sig, index), "{sig} {turned}");
                    assert!(seen.insert(pos));
                    valid += 1;
                }
            }
            // Every position of the signature is there: count them independently.
            let expected = count_positions(sig);
            assert_eq!(valid, expected, "{sig}");
            assert!(
                valid * 100 >= sig.positions() * 90,
                "{sig}: the index wastes little"
            );
        }
    }

    #[test]
    fn the_probe_index_is_the_index_of_the_normalized_position() {
        // Beyond the exhaustive 3-piece check above: random indices of every signature up to
        // 8 pieces, each position with either side to move.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for sig in Signature::all_up_to(MAX_PIECES) {
            let mut checked = 0;
            while checked < 20 {
                let Some(pos) = sig.position(next() % sig.positions()) else {
                    continue;
                };
                for p in [pos, pos.mirrored()] {
                    let norm = normalized(&p);
                    let expected = (Signature::of(&norm), Signature::of(&norm).index(&norm));
                    assert_eq!(signature_and_index(&p), expected, "{sig} {p}");
                }
                checked += 1;
            }
        }
    }

    /// Positions of a signature counted square by square (no ranking): every set of squares
    /// for each kind of piece, kinds placed one after another on the squares still empty.
    fn count_positions(sig: Signature) -> u64 {
        fn sets(k: u8, allowed: u32, from: u32, out: &mut Vec<u32>, acc: u32) {
            if k == 0 {
                out.push(acc);
                return;
            }
            for sq in from..32 {
                if allowed & (1 << sq) != 0 {
                    sets(k - 1, allowed, sq + 1, out, acc | 1 << sq);
                }
            }
        }
        let kinds = [
            (Color::White, false, sig.white_men),
            (Color::White, true, sig.white_kings),
            (Color::Black, false, sig.black_men),
            (Color::Black, true, sig.black_kings),
        ];
        let mut boards = vec![(0u32, 0u32, 0u32)];
        for (color, king, n) in kinds {
            let mut next = Vec::new();
            for &(white, black, kings) in &boards {
                let mut placed = Vec::new();
                sets(n, !(white | black), 0, &mut placed, 0);
                for set in placed {
                    let (w, b) = match color {
                        Color::White => (white | set, black),
                        Color::Black => (white, black | set),
                    };
                    next.push((w, b, if king { kings | set } else { kings }));
                }
            }
            boards = next;
        }
        boards
            .into_iter()
            .filter(|&(w, b, k)| {
                Position::from_parts(Bitboard(w), Bitboard(b), Bitboard(k), Color::White).is_ok()
            })
            .count() as u64
    }

    #[test]
    fn names_and_order() {
        let sig = Signature {
            white_men: 1,
            white_kings: 2,
            black_men: 0,
            black_kings: 1,
        };
        assert_eq!(sig.name(), "KKMvK");
        assert_eq!(sig.swapped().name(), "KvKKM");
        assert_eq!(Signature::from_name("KKMvK"), Some(sig));
        assert_eq!(Signature::from_name("KMKvK"), Some(sig));
        for bad in ["KKMK", "vK", "KxvK", "KKKKKvKKKK"] {
            assert_eq!(Signature::from_name(bad), None, "{bad}");
        }
        let all = Signature::all_up_to(4);
        // n pieces: C(n + 3, 3) ways to split them into four counts, less the 2(n + 1) with a
        // side empty: 4, 12 and 25 signatures of 2, 3 and 4 pieces.
        assert_eq!(all.len(), 4 + 12 + 25);
        assert_eq!(Signature::all_up_to(5).len(), 41 + 44);
        for pair in all.windows(2) {
            assert!((pair[0].pieces(), pair[0].men()) <= (pair[1].pieces(), pair[1].men()));
        }
    }
}
