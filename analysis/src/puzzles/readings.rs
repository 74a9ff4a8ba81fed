//! A puzzle checked again under the other reading of the Tanzanian rules: a puzzle mined
//! under the article's rules ([`Variant::Tanzanian`]) is verified under TzDraft's server
//! reading ([`Variant::TzDraft`]), and the other way round.
//!
//! The two readings differ in a king's captures (TzDraft's server removes a captured piece
//! at once, lets a capturing king stop early and forbids it to fly past the first square
//! from which it could go on), so a line sound under one may hold a move the other forbids,
//! or give a side other moves to choose from. The check walks the solution:
//! - every move of it, the solver's and the opponent's, must be legal under the other
//!   reading with the same start, landing square and captured pieces;
//! - where a position of the line has other legal moves under the other reading (a reply
//!   that is no longer forced, another capture), or the puzzle rests on the endgame tables
//!   (built for the article's draw laws), the line is verified again ([`verify::verify`])
//!   under the other reading at the verification budget: every solver move must still be
//!   the one winning move.
//!
//! Where both readings give the same moves at every position of the line, the puzzle's own
//! verification stands (searching it again would only measure the engine's noise).

use super::verify::{self, Refuted};
use super::{with_tables, Failure, Puzzle, PuzzleOptions};
use drafti_rules::{Move, Position, Square, Variant};

/// A puzzle's verification under the other reading of its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadingCheck {
    /// The reading checked: TzDraft's for a Tanzanian puzzle, the article's for a TzDraft one.
    pub reading: Variant,
    /// `None`: the solution holds under it too; else where and why it does not.
    pub refuted: Option<Refuted>,
}

impl ReadingCheck {
    /// Whether the solution holds under the other reading.
    pub fn sound(&self) -> bool {
        self.refuted.is_none()
    }
}

/// The other reading of `variant`'s rules, for the two readings of the Tanzanian rules.
pub const fn other_reading(variant: Variant) -> Option<Variant> {
    match variant {
        Variant::Tanzanian => Some(Variant::TzDraft),
        Variant::TzDraft => Some(Variant::Tanzanian),
        Variant::Czech | Variant::Russian => None,
    }
}

/// A move as both readings name it: start, landing square, captured pieces.
fn key(mv: &Move) -> (Square, Square, u32) {
    (mv.from(), mv.to(), mv.captured().0)
}

/// The legal moves of `pos` under `variant`, as [`key`]s, sorted.
fn moves(pos: &Position, variant: Variant) -> Vec<(Square, Square, u32)> {
    let mut out: Vec<_> = pos.legal_moves(variant).iter().map(key).collect();
    out.sort_unstable();
    out
}

/// How the solution from `start` fares under `reading` by the rules alone: `Err` at the
/// first move `reading` forbids, else whether some position of the line has other legal
/// moves under `reading` than under `variant`.
pub fn compare_moves(
    start: &Position,
    solution: &[Move],
    variant: Variant,
    reading: Variant,
) -> Result<bool, Refuted> {
    let mut pos = *start;
    let mut differs = false;
    for (i, mv) in solution.iter().enumerate() {
        let theirs = moves(&pos, reading);
        if theirs.binary_search(&key(mv)).is_err() {
            return Err(Refuted {
                at: i,
                failure: Failure::IllegalMove,
            });
        }
        differs |= theirs != moves(&pos, variant);
        pos = pos.play(mv);
    }
    Ok(differs)
}

/// Checks `puzzle` under the other reading of its rules (see the module's doc), searching
/// `nodes` nodes per solver move when it must be verified again (with that reading's endgame
/// tables from `options`, when it has any); `None` for a variant with one reading. Returns
/// the check and the nodes searched. Runs on this thread's engine for the other reading:
/// call it outside another engine's work.
pub fn check(puzzle: &Puzzle, nodes: u64, options: &PuzzleOptions) -> Option<(ReadingCheck, u64)> {
    let reading = other_reading(puzzle.variant)?;
    let refuted = |refuted| {
        Some((
            ReadingCheck {
                reading,
                refuted: Some(refuted),
            },
            0,
        ))
    };
    match compare_moves(&puzzle.position, &puzzle.solution, puzzle.variant, reading) {
        Err(r) => return refuted(r),
        Ok(false) if !puzzle.exact => {
            let holds = ReadingCheck {
                reading,
                refuted: None,
            };
            return Some((holds, 0));
        }
        Ok(_) => {}
    }
    let tables = options.tables_for(reading);
    Some(with_tables(reading, options.tt_mb, tables, |engine| {
        engine.set_stop_flag(options.stop.clone());
        let verified = verify::verify(
            engine,
            &puzzle.position,
            &puzzle.solution,
            puzzle.reference,
            nodes,
            options.max_plies,
        );
        engine.set_stop_flag(drafti_engine::StopFlag::new());
        match verified {
            Ok(v) => (
                ReadingCheck {
                    reading,
                    refuted: None,
                },
                v.nodes,
            ),
            Err(refuted) => (
                ReadingCheck {
                    reading,
                    refuted: Some(refuted),
                },
                0,
            ),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start: &Position, variant: Variant, moves: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        moves
            .iter()
            .map(|text| {
                let mv = pos.parse_move(variant, text).unwrap()[0];
                pos = pos.play(&mv);
                mv
            })
            .collect()
    }

    #[test]
    fn a_king_landing_tzdraft_forbids_is_refuted_by_the_rules() {
        // The king on a1 takes b2; it could go on from d4 (over e3) and from f6 (over g5).
        // The article lets it land on either; TzDraft's server stops it at d4, the first.
        let start = Position::from_fen("W:WKa1,h2:Bb2,e3,g5,a7").unwrap();
        let solution = line(&start, Variant::Tanzanian, &["a1xh4"]);
        assert_eq!(
            compare_moves(&start, &solution, Variant::Tanzanian, Variant::TzDraft),
            Err(Refuted {
                at: 0,
                failure: Failure::IllegalMove
            })
        );
        // a1xd4xg1 is legal under both, but the moves to choose from differ (a1xc3 is
        // TzDraft's only): the line must be searched again.
        let solution = line(&start, Variant::Tanzanian, &["a1xg1"]);
        assert_eq!(
            compare_moves(&start, &solution, Variant::Tanzanian, Variant::TzDraft),
            Ok(true)
        );
        // Without kings the readings agree.
        let start = Position::from_fen("W:Wc3,d2,e1,e3:Bc5,e5,e7,g7,h6").unwrap();
        let solution = line(&start, Variant::Tanzanian, &["c3-d4", "e5xc3", "d2xf8"]);
        assert_eq!(
            compare_moves(&start, &solution, Variant::Tanzanian, Variant::TzDraft),
            Ok(false)
        );
    }
}
