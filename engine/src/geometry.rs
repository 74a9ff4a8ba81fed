//! Board geometry the evaluation needs: king reach (from the rules core), ranks, files and the forward cones of
//! men, as tables of 32-bit square sets (bit `i` is the square numbered `i + 1`, as in
//! `drafti_rules::Bitboard`). Built at compile time from square coordinates.

use drafti_rules::Square;

const fn index_at(file: i8, rank: i8) -> Option<usize> {
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        return None;
    }
    match Square::from_coords(file as u8, rank as u8) {
        Some(sq) => Some(sq.index() as usize),
        None => None,
    }
}

const fn coords(index: usize) -> (i8, i8) {
    let mut file = 0;
    while file < 8 {
        let mut rank = 0;
        while rank < 8 {
            if let Some(i) = index_at(file, rank) {
                if i == index {
                    return (file, rank);
                }
            }
            rank += 1;
        }
        file += 1;
    }
    (0, 0)
}

/// `RANK[r]`: the squares of rank `r` (0 = 1st … 7 = 8th).
pub(crate) static RANK: [u32; 8] = {
    let mut table = [0u32; 8];
    let mut sq = 0;
    while sq < 32 {
        let (_, r) = coords(sq);
        table[r as usize] |= 1 << sq;
        sq += 1;
    }
    table
};

/// `CONE[sq]`: for a White man on `sq`, its forward cone up to the 8th rank: every square it
/// could pass on its way to be crowned. Enemy men move towards it and never sideways, so one
/// outside the cone can never enter it in front of the man; an enemy man that is to stop or
/// capture the man (men capture forward only, in Tanzanian and Czech) must stand in the
/// cone. Black's cones are these turned 180°.
pub(crate) static CONE: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut sq = 0;
    while sq < 32 {
        let (f, r) = coords(sq);
        let mut rank = r + 1;
        while rank < 8 {
            let reach = rank - r;
            let mut file = f - reach;
            while file <= f + reach {
                if let Some(i) = index_at(file, rank) {
                    table[sq] |= 1 << i;
                }
                file += 1;
            }
            rank += 1;
        }
        sq += 1;
    }
    table
};

/// The four central squares c5, d4, e5, f4.
pub(crate) const CENTRE: u32 = square_set(&[(2, 4), (3, 3), (4, 4), (5, 3)]);
/// The squares around the centre that men develop to: c3, e3, d6, f6.
pub(crate) const NEAR_CENTRE: u32 = square_set(&[(2, 2), (4, 2), (3, 5), (5, 5)]);

/// White's back-rank squares that guard against crowning: c1, e1 (and g1 with a1 less so).
pub(crate) const BACK_GUARD_STRONG: u32 = square_set(&[(2, 0), (4, 0)]);
/// a1 and g1.
pub(crate) const BACK_GUARD_WEAK: u32 = square_set(&[(0, 0), (6, 0)]);

/// The long diagonal a1–h8.
pub(crate) const MAIN_DIAGONAL: u32 = drafti_rules::MAIN_DIAGONAL.0;

/// The two double-corner diagonals (a7–g1 and b8–h2): where a lone king defends longest.
pub(crate) const DOUBLE_CORNER: u32 = square_set(&[(0, 6), (1, 7), (6, 0), (7, 1)]);

const fn square_set(squares: &[(i8, i8)]) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < squares.len() {
        if let Some(sq) = index_at(squares[i].0, squares[i].1) {
            set |= 1 << sq;
        }
        i += 1;
    }
    set
}

/// The squares a king on `sq` reaches in all four directions (the rules core's geometry).
#[inline]
pub(crate) fn king_reach(sq: usize, occupied: u32) -> u32 {
    drafti_rules::Square::from_index(sq as u8).map_or(0, |sq| {
        drafti_rules::king_reach(sq, drafti_rules::Bitboard(occupied)).0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(name: &str) -> u32 {
        1 << Square::parse(name).unwrap().index()
    }

    #[test]
    fn main_diagonal_and_king_reach() {
        let a1 = Square::parse("a1").unwrap().index() as usize;
        assert_eq!(king_reach(a1, 0) | bit("a1"), MAIN_DIAGONAL);
        let c3 = Square::parse("c3").unwrap().index() as usize;
        assert_eq!(
            king_reach(c3, bit("f6") | bit("a5")),
            bit("d4") | bit("e5") | bit("b4") | bit("b2") | bit("a1") | bit("d2") | bit("e1")
        );
        assert_eq!(king_reach(a1, 0).count_ones(), 7);
    }

    #[test]
    fn ranks_and_cones() {
        assert_eq!(RANK[0], bit("a1") | bit("c1") | bit("e1") | bit("g1"));
        assert_eq!(RANK.iter().map(|r| r.count_ones()).sum::<u32>(), 32);
        let d6 = Square::parse("d6").unwrap().index() as usize;
        assert_eq!(
            CONE[d6],
            bit("c7") | bit("e7") | bit("b8") | bit("d8") | bit("f8")
        );
        assert_eq!(CENTRE.count_ones(), 4);
        assert_eq!(DOUBLE_CORNER.count_ones(), 4);
    }
}
