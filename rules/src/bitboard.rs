//! Sets of squares as 32-bit masks, and the geometry tables move generation runs on.
//!
//! Bit `i` is the square with numeric name `i + 1`. Rows alternate between squares on the
//! b/d/f/h files (rows 0, 2, 4, 6 from the top: 8th, 6th, 4th, 2nd rank) and the a/c/e/g files,
//! so a diagonal step is a shift by 4 plus or minus one depending on the row's parity.

use crate::Square;
use std::fmt;

/// A set of squares.
///
/// ```
/// use drafti_rules::{Bitboard, Square};
/// let set = Bitboard::from_square(Square::from_number(22).unwrap()) | Bitboard(1);
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.into_iter().map(|s| s.number()).collect::<Vec<_>>(), vec![1, 22]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding just `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

/// Squares of a set in increasing numeric order.
pub struct Squares(u32);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::new_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// A diagonal direction, named as White sees the board: north is towards the 8th rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Direction {
    /// Towards a8: up and to the left.
    NorthWest = 0,
    /// Towards h8: up and to the right.
    NorthEast = 1,
    /// Towards a1: down and to the left.
    SouthWest = 2,
    /// Towards h1: down and to the right.
    SouthEast = 3,
}

impl Direction {
    /// The four directions, in the order of their discriminants (for per-direction tables).
    pub const ALL: [Direction; 4] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::SouthWest,
        Direction::SouthEast,
    ];
}

pub(crate) const EVEN_ROWS: u32 = 0x0F0F_0F0F;
pub(crate) const ODD_ROWS: u32 = 0xF0F0_F0F0;
pub(crate) const LEFT_COLUMN: u32 = 0x1111_1111;
pub(crate) const RIGHT_COLUMN: u32 = 0x8888_8888;
/// The 8th rank (squares 1–4): where White's men are crowned.
pub(crate) const TOP_ROW: u32 = 0x0000_000F;
/// The 1st rank (squares 29–32): where Black's men are crowned.
pub(crate) const BOTTOM_ROW: u32 = 0xF000_0000;
/// The long diagonal a1–h8.
pub const MAIN_DIAGONAL: Bitboard = Bitboard(main_diagonal());

const fn main_diagonal() -> u32 {
    let mut set = 0;
    let mut f = 0;
    while f < 8 {
        if let Some(sq) = Square::from_coords(f, f) {
            set |= 1 << sq.index();
        }
        f += 1;
    }
    set
}

/// Every square of `set` moved one step in direction `dir` (squares leaving the board vanish).
#[inline(always)]
pub(crate) const fn shift(set: u32, dir: usize) -> u32 {
    match dir {
        0 => ((set & EVEN_ROWS) >> 4) | ((set & ODD_ROWS & !LEFT_COLUMN) >> 5),
        1 => ((set & EVEN_ROWS & !RIGHT_COLUMN) >> 3) | ((set & ODD_ROWS) >> 4),
        2 => ((set & EVEN_ROWS) << 4) | ((set & ODD_ROWS & !LEFT_COLUMN) << 3),
        _ => ((set & EVEN_ROWS & !RIGHT_COLUMN) << 5) | ((set & ODD_ROWS) << 4),
    }
}

/// No neighbour in that direction.
pub(crate) const NONE: u8 = 32;

/// `NEIGHBOUR[sq][dir]`: the adjacent square in `dir`, or [`NONE`].
pub(crate) static NEIGHBOUR: [[u8; 4]; 33] = neighbours();
/// `RAY[sq][dir]`: every square from `sq` (exclusive) to the edge in `dir`.
pub(crate) static RAY: [[u32; 4]; 33] = rays();

const fn neighbours() -> [[u8; 4]; 33] {
    let mut table = [[NONE; 4]; 33];
    let mut sq = 0;
    while sq < 32 {
        let mut dir = 0;
        while dir < 4 {
            let next = shift(1 << sq, dir);
            if next != 0 {
                table[sq][dir] = next.trailing_zeros() as u8;
            }
            dir += 1;
        }
        sq += 1;
    }
    table
}

const fn rays() -> [[u32; 4]; 33] {
    let mut table = [[0; 4]; 33];
    let mut sq = 0;
    while sq < 32 {
        let mut dir = 0;
        while dir < 4 {
            let mut ray = 0;
            let mut cur = shift(1 << sq, dir);
            while cur != 0 {
                ray |= cur;
                cur = shift(cur, dir);
            }
            table[sq][dir] = ray;
            dir += 1;
        }
        sq += 1;
    }
    table
}

/// The opposite direction (north-west ↔ south-east, north-east ↔ south-west).
#[inline(always)]
pub(crate) const fn opposite(dir: usize) -> usize {
    3 - dir
}

/// The two directions at right angles to `dir`, as a mask of direction bits.
#[inline(always)]
pub(crate) const fn perpendicular_mask(dir: usize) -> u8 {
    0b1111 & !(1 << dir) & !(1 << (3 - dir))
}

/// The square of `set` nearest to the origin of a ray going in `dir`.
#[inline(always)]
pub(crate) const fn nearest(set: u32, dir: usize) -> u8 {
    if dir < 2 {
        31 - set.leading_zeros() as u8
    } else {
        set.trailing_zeros() as u8
    }
}

/// Squares a king on `sq` reaches in `dir` over empty squares (`occupied` blocks).
#[inline(always)]
pub(crate) fn slide(sq: usize, dir: usize, occupied: u32) -> u32 {
    let ray = RAY[sq][dir];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let b = nearest(blockers, dir) as usize;
        ray ^ RAY[b][dir] ^ (1 << b)
    }
}

/// Every square a king on `sq` reaches in its four directions over empty squares (`occupied`
/// blocks): its quiet moves, and the reach an evaluation counts.
///
/// ```
/// use drafti_rules::{king_reach, Bitboard, Square};
/// let a1 = Square::parse("a1").unwrap();
/// assert_eq!(king_reach(a1, Bitboard::EMPTY).count(), 7);
/// ```
#[inline]
pub fn king_reach(sq: Square, occupied: Bitboard) -> Bitboard {
    let sq = sq.index() as usize;
    Bitboard((0..4).fold(0, |reach, dir| reach | slide(sq, dir, occupied.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        Square::parse(name).unwrap().index() as usize
    }

    #[test]
    fn steps_follow_the_diagonals() {
        assert_eq!(NEIGHBOUR[sq("c3")][0], sq("b4") as u8);
        assert_eq!(NEIGHBOUR[sq("c3")][1], sq("d4") as u8);
        assert_eq!(NEIGHBOUR[sq("c3")][2], sq("b2") as u8);
        assert_eq!(NEIGHBOUR[sq("c3")][3], sq("d2") as u8);
        assert_eq!(NEIGHBOUR[sq("a1")][0], NONE);
        assert_eq!(NEIGHBOUR[sq("a1")][1], sq("b2") as u8);
        assert_eq!(NEIGHBOUR[sq("h8")][2], sq("g7") as u8);
        assert_eq!(NEIGHBOUR[sq("h8")][1], NONE);
        assert_eq!(NEIGHBOUR[sq("h2")][1], NONE);
        assert_eq!(NEIGHBOUR[sq("a7")][2], NONE);
        // Every step is a true diagonal step, and steps are undone by the opposite direction.
        for s in Square::ALL {
            for dir in 0..4 {
                let n = NEIGHBOUR[s.index() as usize][dir];
                if n != NONE {
                    let t = Square::from_index(n).unwrap();
                    assert_eq!((s.file() as i8 - t.file() as i8).abs(), 1);
                    assert_eq!((s.rank() as i8 - t.rank() as i8).abs(), 1);
                    assert_eq!(NEIGHBOUR[n as usize][opposite(dir)], s.index());
                }
            }
        }
    }

    #[test]
    fn main_diagonal_and_rays() {
        assert_eq!(MAIN_DIAGONAL.count(), 8);
        assert_eq!(RAY[sq("a1")][1] | (1 << sq("a1")), MAIN_DIAGONAL.0);
        assert_eq!(RAY[sq("c3")][2], 1 << sq("b2") | 1 << sq("a1"));
    }
}
