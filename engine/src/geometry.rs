//! Board geometry the evaluation needs: king reach (from the rules core), diagonal steps,
//! squares attacked by men and the forward cones of men, as tables of 32-bit square sets (bit `i` is the square numbered `i + 1`, as in
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

/// `STEP[sq][dir]`: the diagonal neighbour of `sq` (as a square index) in direction `dir`
/// — 0 up-left, 1 up-right, 2 down-left, 3 down-right, "up" towards the 8th rank — or
/// [`NO_SQUARE`] off the board.
pub(crate) static STEP: [[u8; 4]; 32] = {
    let mut table = [[NO_SQUARE; 4]; 32];
    let mut sq = 0;
    while sq < 32 {
        let (f, r) = coords(sq);
        let deltas = [(-1, 1), (1, 1), (-1, -1), (1, -1)];
        let mut d = 0;
        while d < 4 {
            if let Some(i) = index_at(f + deltas[d].0, r + deltas[d].1) {
                table[sq][d] = i as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
};

/// No square (off the board) in [`STEP`].
pub(crate) const NO_SQUARE: u8 = 32;

/// The squares where men of the side moving *up* could capture a piece: the piece stands
/// diagonally in front of one of them and the square beyond it is empty (men capture
/// forward only in Tanzanian and Czech). For the side moving down, turn the board.
#[inline]
pub(crate) fn attacked_by_men(men: u32, empty: u32) -> u32 {
    let mut attacked = 0;
    let mut rest = men;
    while rest != 0 {
        let m = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        for (dir, &target) in STEP[m].iter().enumerate().take(2) {
            if target == NO_SQUARE {
                continue;
            }
            let beyond = STEP[target as usize][dir];
            if beyond != NO_SQUARE && empty & (1 << beyond) != 0 {
                attacked |= 1 << target;
            }
        }
    }
    attacked
}

/// The long diagonal a1–h8.
pub(crate) const MAIN_DIAGONAL: u32 = drafti_rules::MAIN_DIAGONAL.0;

/// The two "double" diagonals a7–g1 and b8–h2, next to the double corners: where a lone
/// king hides from three kings.
pub(crate) const DOUBLE_DIAGONALS: [u32; 2] = [
    square_set(&[(0, 6), (1, 5), (2, 4), (3, 3), (4, 2), (5, 1), (6, 0)]),
    square_set(&[(1, 7), (2, 6), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1)]),
];

/// The two "triple" diagonals a3–f8 and c1–h6, beside the main diagonal: the last lines a
/// lone king is driven from (Petrov's triangle).
pub(crate) const TRIPLE_DIAGONALS: [u32; 2] = [
    square_set(&[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)]),
    square_set(&[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)]),
];

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
    fn steps_and_attacks() {
        let c3 = Square::parse("c3").unwrap().index() as usize;
        assert_eq!(1u32 << STEP[c3][0], bit("b4"));
        assert_eq!(1u32 << STEP[c3][1], bit("d4"));
        assert_eq!(1u32 << STEP[c3][2], bit("b2"));
        assert_eq!(1u32 << STEP[c3][3], bit("d2"));
        let a1 = Square::parse("a1").unwrap().index() as usize;
        assert_eq!(STEP[a1][0], NO_SQUARE);
        assert_eq!(STEP[a1][2], NO_SQUARE);
        // A man on c3 attacks b4 (a5 empty) and d4 (e5 empty) but not d4 when e5 is taken.
        let empty = !bit("c3");
        assert_eq!(attacked_by_men(bit("c3"), empty), bit("b4") | bit("d4"));
        assert_eq!(attacked_by_men(bit("c3"), empty & !bit("e5")), bit("b4"));
    }

    #[test]
    fn ranks_and_cones() {
        let d6 = Square::parse("d6").unwrap().index() as usize;
        assert_eq!(
            CONE[d6],
            bit("c7") | bit("e7") | bit("b8") | bit("d8") | bit("f8")
        );
        assert_eq!(DOUBLE_DIAGONALS[0] & DOUBLE_DIAGONALS[1], 0);
        let ends = bit("a7") | bit("g1");
        assert_eq!(DOUBLE_DIAGONALS[0] & ends, ends);
        assert_eq!(TRIPLE_DIAGONALS[0] & DOUBLE_DIAGONALS[0], bit("c5"));
        assert_eq!(TRIPLE_DIAGONALS[1].count_ones(), 6);
    }
}
