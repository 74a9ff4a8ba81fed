//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator against published figures. Counts at the last ply in bulk (legal moves are
//! counted, not played).

use crate::{Move, MoveList, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering};

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

/// [`perft`] that gives up once `stop` is raised (looked at before each node above the
/// last ply): `None` then. For a caller that must answer an interrupt within milliseconds
/// while a count runs for hours.
///
/// ```
/// use drafti_rules::{perft_until, Color, Position, Variant};
/// use std::sync::atomic::AtomicBool;
/// let start = Position::start(Color::White);
/// assert_eq!(perft_until(&start, Variant::Russian, 4, &AtomicBool::new(false)), Some(1469));
/// assert_eq!(perft_until(&start, Variant::Russian, 4, &AtomicBool::new(true)), None);
/// ```
pub fn perft_until(pos: &Position, variant: Variant, depth: u32, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(pos.count_moves(variant) as u64),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut list = MoveList::new();
            pos.generate_moves(variant, &mut list);
            list.iter()
                .map(|mv| perft_until(&pos.play(mv), variant, depth - 1, stop))
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
