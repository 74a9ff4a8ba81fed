//! Self-consistency of every entry, from the forward generator alone (no un-moves).
//!
//! For each position of each table: no legal move must be a loss in 0; a position a law draws
//! must be a draw; otherwise the stored value must be exactly the best over its legal moves of
//! the value each move leads to (looked up in the tables, the law state carried as the game
//! carries it) — with, for a lone king to move against two kings and a man in Tanzanian, law
//! 3's claim beside them (the value after it, not turned round: it is no move): a win in `d`
//! has a move to an opponent's loss in `d − 1` and none quicker; a loss in `d` has every move
//! to an opponent's win, the slowest in `d − 1`; a draw has no move to an opponent's loss and
//! some move to a draw. By induction on the distance, a table that
//! passes is the game's exact solution (the only consistent labelling whose wins and losses
//! are all finite).

use super::build::layers;
use super::format::decode;
use super::index::Signature;
use super::probe::Tables;
use super::Value;
use crate::laws::{law3_claim, LawState};
use drafti_rules::{MoveList, Position};
use rayon::prelude::*;
use std::sync::Mutex;

/// What [`verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Tables checked.
    pub tables: usize,
    /// Positions checked.
    pub positions: u64,
    /// Positions whose entry is wrong (or whose moves lead to a missing table).
    pub errors: u64,
    /// The first few problems, each naming the table and the position.
    pub problems: Vec<String>,
}

impl VerifyReport {
    /// Whether every entry is consistent.
    pub fn ok(&self) -> bool {
        self.errors == 0
    }
}

const SHOWN_PROBLEMS: usize = 20;

/// Checks every entry of every table of `tables` (in parallel on the current rayon pool);
/// `on_progress` gets the number of positions done as they are done.
pub fn verify(tables: &Tables, on_progress: &(dyn Fn(u64) + Sync)) -> VerifyReport {
    let mut report = VerifyReport::default();
    let problems = Mutex::new(Vec::new());
    for info in tables.infos() {
        let sig = info.header.signature;
        let Some((payload, per_layer, table_layers)) = tables.raw(sig) else {
            continue;
        };
        report.tables += 1;
        let mut counts = [0u64; 3];
        for layer in 0..table_layers {
            let offset = u64::from(layer) * per_layer;
            const CHUNK: u64 = 1 << 14;
            let (checked, errors, wdl) = (0..per_layer.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(per_layer));
                    let mut out = (0u64, 0u64, [0u64; 3]);
                    let mut list = MoveList::new();
                    for i in start..end {
                        let Some(pos) = sig.position(i) else {
                            continue;
                        };
                        out.0 += 1;
                        let stored = decode(payload[(offset + i) as usize]);
                        match stored {
                            Some(Value::Win(_)) => out.2[0] += 1,
                            Some(Value::Draw) => out.2[1] += 1,
                            Some(Value::Loss(_)) => out.2[2] += 1,
                            None => {}
                        }
                        let law = if table_layers > 1 {
                            LawState::Count(layer)
                        } else {
                            LawState::at_root(&tables.laws(), &pos, None)
                        };
                        let expected = expected_value(tables, &pos, law, &mut list);
                        if stored != expected.as_ref().ok().copied() {
                            out.1 += 1;
                            let mut shown = problems.lock().unwrap_or_else(|e| e.into_inner());
                            if shown.len() < SHOWN_PROBLEMS {
                                let what = match expected {
                                    Ok(v) => format!("expected {v}"),
                                    Err(missing) => format!("a move leads to {missing}, missing"),
                                };
                                let stored = stored.map_or("no value".into(), |v| v.to_string());
                                let layer = if table_layers > 1 {
                                    format!(" (lone king's count {layer})")
                                } else {
                                    String::new()
                                };
                                shown.push(format!(
                                    "{sig}: {}{layer}: stored {stored}, {what}",
                                    pos.to_fen()
                                ));
                            }
                        }
                    }
                    on_progress(end - start);
                    out
                })
                .reduce(
                    || (0, 0, [0; 3]),
                    |a, b| {
                        (
                            a.0 + b.0,
                            a.1 + b.1,
                            [a.2[0] + b.2[0], a.2[1] + b.2[1], a.2[2] + b.2[2]],
                        )
                    },
                );
            report.positions += checked;
            report.errors += errors;
            for k in 0..3 {
                counts[k] += wdl[k];
            }
        }
        let h = info.header;
        if counts != [h.wins, h.draws, h.losses] || h.layers != layers(tables.laws(), sig) {
            report.errors += 1;
            let mut shown = problems.lock().unwrap_or_else(|e| e.into_inner());
            shown.push(format!(
                "{sig}: the header says {}/{}/{} wins/draws/losses in {} layers, the entries {}/{}/{} in {}",
                h.wins, h.draws, h.losses, h.layers, counts[0], counts[1], counts[2],
                layers(tables.laws(), sig)
            ));
        }
    }
    report.problems = problems.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// The value of `pos` computed from its legal moves and the tables' values after them.
fn expected_value(
    tables: &Tables,
    pos: &Position,
    law: LawState,
    list: &mut MoveList,
) -> Result<Value, Signature> {
    pos.generate_moves(tables.variant(), list);
    if list.is_empty() {
        return Ok(Value::Loss(0));
    }
    if let LawState::Drawn(_) = law {
        return Ok(Value::Draw);
    }
    let mut best: Option<Value> = None;
    for mv in list.iter() {
        let child = pos.play(mv);
        let child_law = law.after(&tables.laws(), &child, pos.turn());
        let v = tables
            .value(&child, child_law)
            .ok_or_else(|| Signature::of(&child))?
            .back();
        if best.is_none_or(|b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    // Law 3: the lone side's claim, as the build scores it (no move: not turned round).
    if let Some(crowned) = law3_claim(&tables.laws(), pos) {
        let v = tables
            .value(&crowned, LawState::Count(0))
            .ok_or_else(|| Signature::of(&crowned))?;
        if best.is_none_or(|b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    Ok(best.unwrap_or(Value::Loss(0)))
}
