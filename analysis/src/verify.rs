//! Verification: a move judged again by a deeper search of its own. The pass nominates a
//! move; its re-search (and, near the blunder line, its confirmation) searches the whole
//! position and then the played move alone to the same depth, so both are scored alike
//! ([`verify_move`]). A blunder stands only when the last depths of that search agree, or
//! when its drop at the deepest is clear ([`Settle`]).
//! [`recheck`] judges a move again apart from its game; [`recheck_blunders`] judges the
//! blunders a report is about to list.

use crate::game::MoveAnalysis;
use crate::judge::{self, Judgement};
use crate::searcher::{with_sized_engine, GameCounts, Searcher};
use crate::tables::{doubt_king_ending, exact_move, use_tables, EndgameTables};
use drafti_engine::{Engine, Limits, Score, SearchResult};
use drafti_rules::{Move, Position, Variant};
use rayon::prelude::*;

/// A node bound on a re-search, as a multiple of its limit's node count: in simple king
/// endings a depth-limited search can go on for minutes.
const PLAYED_NODE_FACTOR: u64 = 4;

/// Transposition table of a [`recheck`], MiB.
pub const RECHECK_TT_MB: usize = 16;

/// How [`recheck_blunders`] judges a blunder again: a search to this depth…
pub const RECHECK_DEPTH: u32 = 16;

/// …within this many nodes (at least as deep as `drafti analyze`'s own checks: depth 10
/// within 1,000,000 nodes, then depth 16 within 500,000).
pub const RECHECK_NODES: u64 = 1_000_000;

/// …and a blunder only when it held at this many of the re-check's deepest depths: stricter
/// than the analysis's [`crate::DEFAULT_BLUNDER_DEPTHS`], so what the summary lists as a
/// blunder has held longer than the pass's verdicts need to.
pub const RECHECK_BLUNDER_DEPTHS: u32 = 3;

/// When a re-searched blunder stands: it is the verdict of the last `depths` completed depths
/// of its search, or its drop at the deepest reaches `clear_drop`; else it is reported as a
/// mistake ([`MoveAnalysis::unsettled`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settle {
    pub depths: u32,
    pub clear_drop: Option<f64>,
}

impl Settle {
    /// Every blunder stands (a reference's verdict is its deepest depth's).
    pub const EVERY: Settle = Settle {
        depths: 1,
        clear_drop: None,
    };

    /// As `options` settle a blunder.
    pub fn of(options: &crate::AnalysisOptions) -> Settle {
        Settle {
            depths: options.blunder_depths,
            clear_drop: options.clear_blunder_drop,
        }
    }

    /// Whether a blunder with `drop` at its deepest depth, the verdict of the last `held`
    /// depths, stands.
    fn stands(&self, held: u32, drop: f64) -> bool {
        held >= self.depths || self.clear_drop.is_some_and(|clear| drop >= clear)
    }
}

impl Searcher<'_> {
    /// Move `i` judged alone, as a re-search judges it: its position searched within
    /// `limits` by this thread's engine with a `tt_mb` table fresh for the move, then the
    /// played move alone to the same depth in that table (both moves searched alike). Exact
    /// when `tables` hold the position. Returns the analysis and the nodes spent.
    pub fn judge_alone(
        &self,
        i: usize,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> (MoveAnalysis, u64) {
        let tables = tables.get(self.game.variant);
        if let Some(m) = tables.and_then(|t| self.exact_move(t, i)) {
            return (m, 0);
        }
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.clear();
            engine.set_keep_table(true);
            use_tables(engine, tables);
            // The reference's verdict is its deepest depth's, settled or not.
            let judged = self.verify(engine, i, limits, Settle::EVERY);
            engine.set_keep_table(false);
            judged
        })
    }

    /// Move `i` judged from the endgame tables alone: exact, or `None` when they do not hold
    /// its position (nothing is searched).
    pub fn judge_from_tables(&self, i: usize, tables: &EndgameTables) -> Option<MoveAnalysis> {
        self.exact_move(tables.get(self.game.variant)?, i)
    }

    /// Re-searches move `i` deeper ([`verify_move`]) in `engine` (its table kept).
    pub(crate) fn verify(
        &self,
        engine: &mut Engine,
        i: usize,
        limits: &Limits,
        settle: Settle,
    ) -> (MoveAnalysis, u64) {
        let m = MoveRef {
            pos: &self.game.positions[i],
            history: self.history(i),
            played: self.game.moves[i],
            counts: self.counts[i],
            ply: i + 1,
        };
        verify_move(engine, &m, limits, settle)
    }

    /// Move `i` with what a search of it needs, owned: to judge it again later, apart from
    /// its game ([`recheck`]).
    pub fn move_to_check(&self, i: usize) -> MoveToCheck {
        MoveToCheck {
            variant: self.game.variant,
            position: self.game.positions[i],
            played: self.game.moves[i],
            history: self.history(i).to_vec(),
            counts: self.counts[i],
            ply: i + 1,
        }
    }
}

/// One move of a game and what a search of it needs: the position before it, the earlier
/// positions' keys (repetitions) and the running count of draw law 2. Made from a replayed
/// game ([`Searcher::move_to_check`]), so its move is legal.
#[derive(Clone, Debug)]
pub struct MoveToCheck {
    /// The rules.
    variant: Variant,
    /// The position before the move.
    position: Position,
    /// The move played.
    played: Move,
    /// The hash keys before `position` in its game that a search can meet again.
    history: Vec<u64>,
    /// The draw rules' running counts at `position`.
    counts: GameCounts,
    /// The move's ply in its game, from 1.
    ply: usize,
}

impl MoveToCheck {
    /// The position before the move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn as_ref(&self) -> MoveRef<'_> {
        MoveRef {
            pos: &self.position,
            history: &self.history,
            played: self.played,
            counts: self.counts,
            ply: self.ply,
        }
    }
}

/// `m` judged again alone within `limits` (the position searched with a fresh table, then the
/// played move to the same depth), a blunder only when it is the verdict of the last
/// `blunder_depths` completed depths, however large its drop (stricter than the analysis's
/// re-search); exact when `tables` hold the position. Deterministic: the same move and
/// limits give the same verdict on any thread.
pub fn recheck(
    m: &MoveToCheck,
    limits: &Limits,
    blunder_depths: u32,
    tables: &EndgameTables,
) -> MoveAnalysis {
    let tables = tables.get(m.variant);
    if let Some(exact) =
        tables.and_then(|t| exact_move(t, &m.position, m.counts.king, m.played, m.ply))
    {
        return exact;
    }
    with_sized_engine(m.variant, RECHECK_TT_MB, |engine| {
        engine.clear();
        engine.set_keep_table(true);
        use_tables(engine, tables);
        let settle = Settle {
            depths: blunder_depths,
            clear_drop: None,
        };
        let (judged, _) = verify_move(engine, &m.as_ref(), limits, settle);
        engine.set_keep_table(false);
        doubt_king_ending(judged, &m.position, m.variant)
    })
}

/// `moves` judged again as a report's biggest blunders are, before it lists them: each alone
/// to [`RECHECK_DEPTH`] within [`RECHECK_NODES`] ([`recheck`], with `tables`; a blunder only
/// when it held at the last [`RECHECK_BLUNDER_DEPTHS`] depths), one move a task on
/// rayon's current pool. The results, in the order of `moves`, depend only on the moves,
/// never on the threads.
pub fn recheck_blunders(moves: &[MoveToCheck], tables: &EndgameTables) -> Vec<MoveAnalysis> {
    let limits = Limits {
        depth: Some(RECHECK_DEPTH),
        nodes: Some(RECHECK_NODES),
        ..Limits::default()
    };
    moves
        .par_iter()
        .with_max_len(1)
        .map(|m| recheck(m, &limits, RECHECK_BLUNDER_DEPTHS, tables))
        .collect()
}

/// A move to re-search: its position, the keys before it, the move, the draw rules' counts.
struct MoveRef<'a> {
    pos: &'a Position,
    history: &'a [u64],
    played: Move,
    counts: GameCounts,
    ply: usize,
}

/// One completed depth of the search of the whole position: its score, best move and line.
struct BestAtDepth {
    depth: u32,
    score: Score,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// Both searches of a re-search, with what each completed depth found.
struct Searches {
    /// The whole position.
    full: SearchResult,
    full_by_depth: Vec<BestAtDepth>,
    /// The played move alone, to the full search's depth.
    alone: SearchResult,
    alone_by_depth: Vec<(u32, Score)>,
}

/// Re-searches a move deeper: the whole position and the played move alone, to the same
/// depth, in `engine` (its table kept). A blunder that does not stand as `settle` says is
/// judged a mistake. Returns the analysis and the nodes spent.
fn verify_move(
    engine: &mut Engine,
    m: &MoveRef<'_>,
    limits: &Limits,
    settle: Settle,
) -> (MoveAnalysis, u64) {
    let Searches {
        mut full,
        full_by_depth,
        alone,
        alone_by_depth,
    } = search_both(engine, m, limits);
    // The played move's search stopped at its node bound before the full search's depth:
    // the best move and score of that same depth, so both are searched alike.
    if alone.depth < full.depth {
        if let Some(b) = full_by_depth
            .iter()
            .find(|b| b.depth == alone.depth && b.best.is_some())
        {
            (full.score, full.best, full.pv, full.depth) =
                (b.score, b.best, b.pv.clone(), alone.depth);
        }
    }
    let played = m.played;
    let is_best = full.best.is_some_and(|b| b.same_move(&played));
    let played_score = if is_best { full.score } else { alone.score };
    let verdict = judge::judge(full.score, played_score, is_best);
    let depth = full.depth.min(alone.depth);
    let confirmed = settled_since(
        depth,
        &full_by_depth,
        &alone_by_depth,
        played,
        verdict.judgement,
    );
    // `confirmed` is at most `depth`: the depths from it on gave the final verdict.
    let unsettled = verdict.judgement == Some(Judgement::Blunder)
        && !settle.stands(depth - confirmed + 1, verdict.drop);
    let analysis = MoveAnalysis {
        ply: m.ply,
        mover: m.pos.turn(),
        played,
        best: full.best,
        best_score: full.score,
        pv: full.pv,
        played_score,
        played_is_best: is_best,
        verdict: verdict.unsettled_if(unsettled),
        depth,
        confirmed_depth: Some(confirmed),
        exact: false,
        unsettled,
    };
    (analysis, full.nodes + alone.nodes)
}

/// The whole position of `m` searched within `limits`, then the played move alone to the
/// depth that search completed (its nodes bounded by [`PLAYED_NODE_FACTOR`] times the
/// limit's), in `engine` (its table kept).
fn search_both(engine: &mut Engine, m: &MoveRef<'_>, limits: &Limits) -> Searches {
    let limits_at = m.counts.limits(limits);
    let mut full_by_depth = Vec::new();
    let full = engine.search(m.pos, &limits_at, m.history, |d| {
        full_by_depth.push(BestAtDepth {
            depth: d.depth,
            score: d.score,
            best: d.lines.first().map(|l| l.mv),
            pv: d.pv().to_vec(),
        })
    });
    let played_limits = Limits {
        depth: Some(full.depth.max(1)),
        nodes: limits.nodes.map(|n| n.saturating_mul(PLAYED_NODE_FACTOR)),
        ..limits_at.clone()
    };
    let mut alone_by_depth = Vec::new();
    let alone = engine
        .search_moves(m.pos, &played_limits, m.history, &[m.played], |d| {
            alone_by_depth.push((d.depth, d.score))
        })
        .expect("the played move is legal: the game replayed");
    Searches {
        full,
        full_by_depth,
        alone,
        alone_by_depth,
    }
}

/// The shallowest depth from which every completed depth of both searches (up to `depth`)
/// gives the judgement `final_judgement` to `played`.
fn settled_since(
    depth: u32,
    full_by_depth: &[BestAtDepth],
    alone_by_depth: &[(u32, Score)],
    played: Move,
    final_judgement: Option<Judgement>,
) -> u32 {
    let mut confirmed = depth;
    for b in full_by_depth.iter().rev() {
        let Some(&(_, at_depth)) = alone_by_depth.iter().find(|p| p.0 == b.depth) else {
            continue;
        };
        let best_here = b.best.is_some_and(|mv| mv.same_move(&played));
        let played_score = if best_here { b.score } else { at_depth };
        let j = judge::judge(b.score, played_score, best_here);
        if j.judgement != final_judgement {
            break;
        }
        confirmed = b.depth;
    }
    confirmed
}

#[cfg(test)]
mod tests {
    use super::Settle;
    use crate::AnalysisOptions;

    #[test]
    fn a_clear_drop_settles_a_blunder_that_held_one_depth() {
        let settle = Settle::of(&AnalysisOptions::default());
        assert_eq!(settle.depths, 2);
        assert!(settle.stands(2, 0.3), "held at 2 depths");
        assert!(
            !settle.stands(1, 0.3),
            "one depth, a drop under the clear one"
        );
        assert!(!settle.stands(1, 0.449));
        assert!(settle.stands(1, 0.45), "one depth, a clear drop");
        assert!(settle.stands(1, 1.2));
    }

    #[test]
    fn the_strict_settling_asks_for_every_depth() {
        let strict = Settle {
            depths: 3,
            clear_drop: None,
        };
        assert!(!strict.stands(2, 1.9));
        assert!(strict.stands(3, 0.3));
        assert!(Settle::EVERY.stands(1, 0.3));
    }
}
