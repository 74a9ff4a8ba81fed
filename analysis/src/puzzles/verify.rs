//! Verification: a solution searched again, every solver move at a (deeper) budget.
//!
//! A line passes when, at every solver move with a choice, the search finds the line's move
//! (or a capture [equivalent] to it) as the one winning move and
//! every other clearly worse, and when the gain is realised: at the end of the line (no
//! capture pending, the solver at least a man up on the reference or a man through), or
//! by the engine's continuation from there at the same budget (the solver's moves on it
//! winning), or the opponent is left without a move; or the first move is still a proven
//! win.

use super::solve::{self, equivalent, Judged, SolverMove};
use super::Failure;
use drafti_engine::Engine;
use drafti_rules::{Move, Position};

/// What a verification found.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The first move as the verification searched it (its `depth_needed` is the puzzle's
    /// depth).
    pub first: SolverMove,
    /// The engine's line after the solution to where the gain is realised (see
    /// [`solve::Line::continuation`]), searched at the verification budget.
    pub continuation: Vec<Move>,
    /// How the line ends.
    pub end: solve::End,
    /// Nodes searched.
    pub nodes: u64,
}

/// Where and why a line failed its verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refuted {
    /// The 0-based index in the line of the solver move that failed (the line's length when
    /// the end is what failed).
    pub at: usize,
    /// Why.
    pub failure: Failure,
}

/// Verifies `line` from `start` (the solver to move) with searches of `nodes` nodes;
/// `reference` is the solver's balance the gain is measured from. A line that does not
/// realise its gain itself must do it within `max_plies` more of the engine's moves.
pub fn verify(
    engine: &mut Engine,
    start: &Position,
    line: &[Move],
    reference: i32,
    nodes: u64,
    max_plies: usize,
) -> Result<Verified, Refuted> {
    let variant = engine.variant();
    let solver = start.turn();
    let mut pos = *start;
    let mut keys = vec![start.hash_key()];
    let mut first: Option<SolverMove> = None;
    let mut total = 0;
    for (i, mv) in line.iter().enumerate() {
        let legal = pos.legal_moves(variant);
        if !legal.iter().any(|m| m.same_move(mv)) {
            return Err(Refuted {
                at: i,
                failure: Failure::IllegalMove,
            });
        }
        if pos.turn() == solver && (legal.len() > 1 || i == 0) {
            let refuted = |failure| Err(Refuted { at: i, failure });
            match solve::judge_solver(engine, &pos, &keys[..keys.len() - 1], nodes) {
                Judged::Unique(found) => {
                    total += found.nodes;
                    if !equivalent(&found.mv, mv) {
                        return refuted(Failure::OtherMove);
                    }
                    if i == 0 {
                        if found.second.is_none() {
                            return refuted(Failure::Forced);
                        }
                        first = Some(found);
                    }
                }
                Judged::NotWinning(_) => return refuted(Failure::NotWinning),
                Judged::Ambiguous(_) => return refuted(Failure::Ambiguous),
            }
        }
        pos = pos.play(mv);
        keys.push(pos.hash_key());
    }
    let Some(first) = first else {
        return Err(Refuted {
            at: 0,
            failure: Failure::NotWinning,
        });
    };
    let mut continuation = Vec::new();
    let end = match solve::realised(start, &pos, reference, variant, engine.tables()) {
        Some(end) => Some(end),
        None => {
            match solve::continuation(engine, start, line, reference, nodes, max_plies, &mut total)
            {
                Some((rest, end)) => {
                    continuation = rest;
                    Some(end)
                }
                None => first
                    .score
                    .win_distance()
                    .is_some()
                    .then_some(solve::End::ProvenWin),
            }
        }
    };
    let Some(end) = end else {
        return Err(Refuted {
            at: line.len(),
            failure: Failure::Unrealised,
        });
    };
    Ok(Verified {
        first,
        continuation,
        end,
        nodes: total,
    })
}
