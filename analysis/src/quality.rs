//! The pieces of the analysis quality benchmark (`drafti bench --quality`): a **reference**
//! that searches every position of a game alone, uniformly, with a node limit (reproducible,
//! one fresh table per search, so each position's result can be cached on its own), or, as
//! the analysis does, every game as one sequence from its last position back, or judges
//! every move alone as the analysis's re-search does; the reference's verdict on every move,
//! and the agreement of an analysis's verdicts (or a second reference's) with it.
//!
//! ```text
//! position i ──search(nodes N)──▶ best_i, score_i          (every i, independently)
//! move i: best score_i, played −score_{i+1} (none when best_i is the move) ──▶ judge
//!   (judging moves alone: played = the played move searched to score_i's depth after it)
//! candidate's judgement of move i  vs  reference's ──▶ per class: both / candidate / reference
//! ```

use crate::judge::{self, win_percent, Judgement, Verdict};
use crate::{move_score, EndgameTables, GameAnalysis, PositionEval, Searcher};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::{Engine, Limits, Score};
use drafti_rules::{Position, Variant};
use rayon::prelude::*;

/// Transposition table of each reference search, MiB (part of what makes a reference run
/// reproducible, so it is fixed).
pub const REFERENCE_TT_MB: usize = 16;

/// Searches positions `indices` of `game`, each alone with a fresh table and `nodes` as its
/// limit, spread over rayon's current pool; results in the order of `indices`. With
/// endgame tables, a position they hold is looked up (exact) and the searches probe them.
pub fn reference_evals(
    game: &ReplayedGame,
    nodes: u64,
    indices: &[usize],
    tables: &EndgameTables,
) -> Vec<PositionEval> {
    each_position(game, indices, |searcher, i| {
        searcher.search_alone(i, &Limits::nodes(nodes), REFERENCE_TT_MB, tables)
    })
}

/// `f` of every position `indices` of `game`, one position a task over rayon's current
/// pool; results in the order of `indices`.
fn each_position<T: Send>(
    game: &ReplayedGame,
    indices: &[usize],
    f: impl Fn(&Searcher, usize) -> T + Sync,
) -> Vec<T> {
    let searcher = Searcher::new(game);
    indices
        .par_iter()
        .with_max_len(1)
        .map(|&i| f(&searcher, i))
        .collect()
}

/// Transposition table of a reference that searches a whole game as one sequence, MiB
/// (larger than [`REFERENCE_TT_MB`]: what it keeps from later positions is the point).
pub const REFERENCE_SEQUENCE_TT_MB: usize = 64;

/// Searches every position of `game` as one sequence, from the last to the first, in one
/// engine whose table is kept (fresh for the game), each within `nodes`: the reference made
/// the way the analysis searches, so what a deep search of a later position found is known
/// when the earlier ones are searched. Results in the game's order.
pub fn reference_evals_in_sequence(
    game: &ReplayedGame,
    nodes: u64,
    tables: &EndgameTables,
) -> Vec<PositionEval> {
    Searcher::new(game).search_in_sequence(&Limits::nodes(nodes), REFERENCE_SEQUENCE_TT_MB, tables)
}

/// One position of a reference: its search and, for a reference that judges every move
/// alone ([`reference_moves`]), the played move's score.
#[derive(Clone, Debug)]
pub struct ReferenceEval {
    /// The position's search (or lookup in the endgame tables).
    pub eval: PositionEval,
    /// The score of the move played from this position, from the mover's side, searched to
    /// `eval`'s depth in the same table (the best score when it is the best move); `None`
    /// when the played move is judged from the next position's search instead.
    pub played: Option<Score>,
}

impl From<PositionEval> for ReferenceEval {
    fn from(eval: PositionEval) -> ReferenceEval {
        ReferenceEval { eval, played: None }
    }
}

/// Searches positions `indices` of `game` as [`reference_evals`] does, and judges the move
/// played from each alone as the analysis's re-search does: after the position's search
/// (fresh table, `nodes` as its limit), the played move alone to the same depth in that
/// table, so the best and the played move are searched alike. The last position (no move)
/// is only searched.
pub fn reference_moves(
    game: &ReplayedGame,
    nodes: u64,
    indices: &[usize],
    tables: &EndgameTables,
) -> Vec<ReferenceEval> {
    let limits = Limits::nodes(nodes);
    each_position(game, indices, |searcher, i| {
        if i == game.moves.len() {
            return searcher
                .search_alone(i, &limits, REFERENCE_TT_MB, tables)
                .into();
        }
        let (m, nodes) = searcher.judge_alone(i, &limits, REFERENCE_TT_MB, tables);
        ReferenceEval {
            eval: PositionEval {
                best: m.best,
                score: m.best_score,
                pv: m.pv,
                depth: m.depth,
                nodes,
                exact: m.exact,
            },
            played: Some(m.played_score),
        }
    })
}

/// The reference's verdict on every move of `game` from the searches of all its positions
/// (`evals[i]` is position `i`'s): the best score of position `i` against the played move's
/// score (its own search where the reference has one, else the negated score of position
/// `i + 1`), no drop when the played move is the best one; exact when both are from the
/// endgame tables.
pub fn reference_verdicts(game: &ReplayedGame, evals: &[ReferenceEval]) -> Vec<Verdict> {
    (0..game.moves.len())
        .map(|i| {
            let before = &evals[i].eval;
            let is_best = before.best.is_some_and(|b| b.same_move(&game.moves[i]));
            let (played, exact) = match evals[i].played {
                Some(played) => (played, before.exact),
                None => (
                    move_score(evals[i + 1].eval.score),
                    before.exact && evals[i + 1].eval.exact,
                ),
            };
            if exact {
                judge::judge_exact(before.score, played, is_best)
            } else {
                judge::judge(before.score, played, is_best)
            }
        })
        .collect()
}

/// A short stable name of the engine's behaviour: a hash of what it finds (nodes, score, best
/// move) on fixed positions at fixed node limits. Any change of the search or the evaluation
/// changes it, so a cached reference run is never mixed with another engine's.
pub fn engine_fingerprint() -> String {
    const PROBES: [(&str, Variant); 3] = [
        ("W:W21-32:B1-12", Variant::Russian),
        ("W:W21-32:B1-12", Variant::Czech),
        (
            "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
            Variant::Tanzanian,
        ),
    ];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        for b in x.to_le_bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (fen, variant) in PROBES {
        let pos = Position::from_fen(fen).expect("a valid probe position");
        let mut engine = Engine::new(variant, REFERENCE_TT_MB);
        let r = engine.search(&pos, &Limits::nodes(100_000), &[], |_| {});
        mix(r.nodes);
        mix(r.score.raw() as u64);
        mix(u64::from(r.depth));
        if let Some(best) = r.best {
            for b in best.full_notation(false).bytes() {
                mix(u64::from(b));
            }
        }
    }
    format!("{hash:016x}")
}

/// How one judgement class agrees: moves the candidate puts in it, moves the reference puts
/// in it, moves both do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassAgreement {
    /// Flagged by the candidate.
    pub candidate: usize,
    /// Flagged by the reference.
    pub reference: usize,
    /// Flagged by both.
    pub both: usize,
}

impl ClassAgreement {
    fn add(&mut self, candidate: bool, reference: bool) {
        self.candidate += usize::from(candidate);
        self.reference += usize::from(reference);
        self.both += usize::from(candidate && reference);
    }

    /// The share of the candidate's flags the reference confirms (`None` without flags).
    pub fn precision(&self) -> Option<f64> {
        (self.candidate > 0).then(|| self.both as f64 / self.candidate as f64)
    }

    /// The share of the reference's flags the candidate finds (`None` without flags).
    pub fn recall(&self) -> Option<f64> {
        (self.reference > 0).then(|| self.both as f64 / self.reference as f64)
    }
}

/// The agreement of a candidate analysis with the reference over many games.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    /// Judged exactly a blunder by each.
    pub blunder: ClassAgreement,
    /// Exactly a mistake.
    pub mistake: ClassAgreement,
    /// Exactly an inaccuracy.
    pub inaccuracy: ClassAgreement,
    /// A mistake or a blunder.
    pub at_least_mistake: ClassAgreement,
    /// The candidate's blunders that the reference calls at least a mistake.
    pub blunders_at_least_mistake: usize,
    /// Moves compared.
    pub moves: usize,
    /// Sum of |candidate − reference| of the mover's win% (0–100) before the move.
    pub win_before_diff: f64,
    /// The same after the move.
    pub win_after_diff: f64,
}

impl Agreement {
    /// Adds one game: the candidate's analysis and the reference's verdicts on its moves.
    pub fn add(&mut self, candidate: &GameAnalysis, reference: &[Verdict]) {
        self.add_verdicts(candidate.moves.iter().map(|m| &m.verdict), reference);
    }

    /// Adds one game's verdicts of any candidate (a second reference, say) against the
    /// reference's, move by move.
    pub fn add_verdicts<'a>(
        &mut self,
        candidate: impl IntoIterator<Item = &'a Verdict>,
        reference: &[Verdict],
    ) {
        for (c, r) in candidate.into_iter().zip(reference) {
            let (c_j, r_j) = (c.judgement, r.judgement);
            self.blunder.add(
                c_j == Some(Judgement::Blunder),
                r_j == Some(Judgement::Blunder),
            );
            self.mistake.add(
                c_j == Some(Judgement::Mistake),
                r_j == Some(Judgement::Mistake),
            );
            self.inaccuracy.add(
                c_j == Some(Judgement::Inaccuracy),
                r_j == Some(Judgement::Inaccuracy),
            );
            self.at_least_mistake.add(
                c_j >= Some(Judgement::Mistake),
                r_j >= Some(Judgement::Mistake),
            );
            if c_j == Some(Judgement::Blunder) && r_j >= Some(Judgement::Mistake) {
                self.blunders_at_least_mistake += 1;
            }
            self.moves += 1;
            self.win_before_diff += (win_percent(c.wc_before) - win_percent(r.wc_before)).abs();
            self.win_after_diff += (win_percent(c.wc_after) - win_percent(r.wc_after)).abs();
        }
    }

    /// Mean |difference| of win% before and after the move.
    pub fn mean_win_diffs(&self) -> (f64, f64) {
        let n = self.moves.max(1) as f64;
        (self.win_before_diff / n, self.win_after_diff / n)
    }
}
