//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator against published figures. Counts at the last ply in bulk (legal moves are
//! counted, not played).

use crate::{Move, MoveList, Position, Variant};

/// The number of legal move sequences of `depth` plies from `pos`.
///
/// ```
/// use drafti_rules::{perft, Color, Position, Variant};
/// let start = Position::start(Color::White);
/// assert_eq!(perft(&start, Variant::Russian, 4), 1469);
/// ```
pub fn perft(pos: &Position, variant: Variant, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(variant) as u64,
        _ => {
            let mut list = MoveList::new();
            pos.generate_moves(variant, &mut list);
            list.iter()
                .map(|mv| perft(&pos.play(mv), variant, depth - 1))
                .sum()
        }
    }
}

/// Perft split by the first move: each legal move with the count below it.
pub fn divide(pos: &Position, variant: Variant, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves(variant)
        .into_iter()
        .map(|mv| (mv, perft(&pos.play(&mv), variant, depth - 1)))
        .collect()
}
