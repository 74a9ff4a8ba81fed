//! The pieces of the analysis quality benchmark (`drafti-lab quality`): a **reference**
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

use drafti_analysis::judge::{self, win_percent, Judgement, Verdict};
use drafti_analysis::{move_score, EndgameTables, GameAnalysis, PositionEval, Searcher};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::{Limits, Score};
use drafti_rules::{Position, Variant};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

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

/// Move `ply` (1-based, as [`drafti_analysis::MoveAnalysis::ply`]) of `game` judged again alone at
/// `nodes`, as the analysis's re-search judges a move (the position searched with a fresh
/// table, then the played move to the same depth; the deepest depth's verdict): how a verdict
/// holds up under a deeper look.
pub fn recheck_move(
    game: &ReplayedGame,
    ply: usize,
    nodes: u64,
    tables: &EndgameTables,
) -> Verdict {
    Searcher::new(game)
        .judge_alone(ply - 1, &Limits::nodes(nodes), REFERENCE_TT_MB, tables)
        .0
        .verdict
}

/// The endgame tables' verdict on every move of `game` whose position they hold (`None`
/// elsewhere): exact, nothing searched.
pub fn table_verdicts(game: &ReplayedGame, tables: &EndgameTables) -> Vec<Option<Verdict>> {
    if tables.get(game.variant).is_none() {
        return vec![None; game.moves.len()];
    }
    let searcher = Searcher::new(game);
    (0..game.moves.len())
        .map(|i| searcher.judge_from_tables(i, tables).map(|m| m.verdict))
        .collect()
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

/// The first line of a reference's cache file (`drafti-lab quality --reference FILE`):
/// what its searches were made with. A file with another header is refused, never
/// overwritten ([`crate::LabError::OtherReference`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceHeader {
    /// [`drafti_engine::Engine::fingerprint`].
    pub engine: String,
    /// Nodes of each search.
    pub nodes: u64,
    /// Transposition table of each search, MiB.
    pub tt_mb: usize,
    /// The endgame tables used, as the analysis labels them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub egtb: Option<String>,
    /// Each game searched as one sequence ([`reference_evals_in_sequence`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sequence: bool,
    /// Every move judged alone ([`reference_moves`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moves: bool,
}

impl ReferenceHeader {
    /// In words, for an error that compares two headers: the engine, nodes, table, mode and
    /// endgame tables.
    ///
    /// ```
    /// use drafti_lab::quality::ReferenceHeader;
    /// let header = ReferenceHeader {
    ///     engine: "76f3456a3961d6a3".into(),
    ///     nodes: 2_000_000,
    ///     tt_mb: 16,
    ///     egtb: None,
    ///     sequence: false,
    ///     moves: false,
    /// };
    /// assert_eq!(
    ///     header.describe(),
    ///     "engine 76f3456a3961d6a3, 2000000 nodes a position, 16 MiB table, every position alone, no endgame tables"
    /// );
    /// ```
    pub fn describe(&self) -> String {
        let mode = if self.sequence {
            "each game as one sequence"
        } else if self.moves {
            "every move alone"
        } else {
            "every position alone"
        };
        format!(
            "engine {}, {} nodes a position, {} MiB table, {mode}, {}",
            self.engine,
            self.nodes,
            self.tt_mb,
            self.egtb.as_deref().map_or_else(
                || "no endgame tables".to_string(),
                |t| format!("tables {t}")
            ),
        )
    }
}

/// A score as the reference files write it: (centi-men, proven distance ±N plies), exactly
/// one set; `0` is a loss on the spot.
///
/// ```
/// use drafti_lab::quality::{score_fields, score_from_fields};
/// use drafti_engine::Score;
/// assert_eq!(score_fields(Score::centi_men(-35)), (Some(-35), None));
/// assert_eq!(score_fields(Score::loss_in(0)), (None, Some(0)));
/// assert_eq!(score_from_fields(None, Some(7)), Some(Score::win_in(7)));
/// assert_eq!(score_from_fields(Some(1), Some(1)), None);
/// ```
pub fn score_fields(score: Score) -> (Option<i32>, Option<i32>) {
    match (score.win_distance(), score.loss_distance()) {
        (Some(n), _) => (None, Some(n as i32)),
        (_, Some(n)) => (None, Some(-(n as i32))),
        _ => (score.as_centi_men(), None),
    }
}

/// The score of its two fields ([`score_fields`]); `None` unless exactly one is set.
pub fn score_from_fields(centi_men: Option<i32>, proven: Option<i32>) -> Option<Score> {
    match (centi_men, proven) {
        (Some(cm), None) => Some(Score::centi_men(cm)),
        (None, Some(n)) if n > 0 => Some(Score::win_in(n.unsigned_abs())),
        (None, Some(n)) => Some(Score::loss_in(n.unsigned_abs())),
        _ => None,
    }
}

/// One position of a reference's cache file, after its header. Scores are two fields each
/// ([`score_fields`]), as the files have been written since the first references.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceLine {
    /// The archive's file name.
    pub file: String,
    /// The game's number in it, from 1.
    pub game: usize,
    /// Position index: 0 is the start, `ply` the position after `ply` moves.
    pub ply: usize,
    /// The score in centi-men from the side to move; `null` when proven.
    pub score: Option<i32>,
    /// Proven result: +N win in N plies, −N loss in N plies (0: no move, lost).
    pub proven: Option<i32>,
    /// The best move in full notation (`null` when the game is over).
    pub best: Option<String>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Looked up in the endgame tables.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// The played move's score searched alone ([`reference_moves`]), from the mover's side:
    /// centi-men, or `played_proven` as `proven`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_score: Option<i32>,
    /// The played move's proven result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_proven: Option<i32>,
}

impl ReferenceLine {
    /// The line of position `ply` of game `game` of `file`.
    pub fn new(file: &str, game: usize, ply: usize, r: &ReferenceEval) -> ReferenceLine {
        let (score, proven) = score_fields(r.eval.score);
        let (played_score, played_proven) = r.played.map_or((None, None), score_fields);
        ReferenceLine {
            file: file.to_string(),
            game,
            ply,
            score,
            proven,
            best: r.eval.best.map(|b| b.full_notation(false)),
            depth: r.eval.depth,
            nodes: r.eval.nodes,
            exact: r.eval.exact,
            played_score,
            played_proven,
        }
    }

    /// The search this line holds of `pos`; `None` when it does not fit (its best move is
    /// not legal there, or a score is not one of its two fields), so it is searched again.
    pub fn eval(&self, pos: &Position, variant: Variant) -> Option<ReferenceEval> {
        let best = match &self.best {
            Some(text) => Some(
                pos.legal_moves(variant)
                    .into_iter()
                    .find(|m| &m.full_notation(false) == text)?,
            ),
            None => None,
        };
        let played = match (self.played_score, self.played_proven) {
            (None, None) => None,
            (cm, proven) => Some(score_from_fields(cm, proven)?),
        };
        Some(ReferenceEval {
            eval: PositionEval {
                best,
                score: score_from_fields(self.score, self.proven)?,
                pv: best.into_iter().collect(),
                depth: self.depth,
                nodes: self.nodes,
                exact: self.exact,
            },
            played,
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_loss_on_the_spot_reads_back_as_a_loss() {
        // White has no move: its man on a1 is blocked and cannot capture.
        let pos = Position::from_fen("W:Wa1:Bb2,c3").unwrap();
        assert!(pos.legal_moves(Variant::Tanzanian).is_empty());
        let text = r#"{"file":"x.pdn","game":1,"ply":4,"score":null,"proven":0,"best":null,"depth":0,"nodes":0}"#;
        let line: ReferenceLine = serde_json::from_str(text).unwrap();
        let r = line.eval(&pos, Variant::Tanzanian).unwrap();
        assert_eq!(r.eval.score, Score::loss_in(0));
        assert_eq!(r.played, None);
        // And written as it was read.
        let again = ReferenceLine::new("x.pdn", 1, 4, &r);
        assert_eq!(serde_json::to_string(&again).unwrap(), text);
    }

    #[test]
    fn a_cached_line_goes_there_and_back() {
        let pos = Position::from_fen("W:W21-32:B1-12").unwrap();
        let best = pos.legal_moves(Variant::Russian)[0];
        for (score, played) in [
            (Score::centi_men(-35), None),
            (Score::win_in(9), Some(Score::centi_men(12))),
            (Score::centi_men(0), Some(Score::loss_in(0))),
            (Score::loss_in(4), Some(Score::loss_in(6))),
        ] {
            let r = ReferenceEval {
                eval: PositionEval {
                    best: Some(best),
                    score,
                    pv: vec![best],
                    depth: 11,
                    nodes: 2_000_000,
                    exact: false,
                },
                played,
            };
            let text = serde_json::to_string(&ReferenceLine::new("r.pdn", 3, 0, &r)).unwrap();
            let line: ReferenceLine = serde_json::from_str(&text).unwrap();
            let back = line.eval(&pos, Variant::Russian).unwrap();
            assert_eq!((back.eval.score, back.played), (score, played), "{text}");
            assert!(back.eval.best.is_some_and(|b| b.same_move(&best)));
        }
        // A line whose score has both fields, or neither, does not fit.
        let both = r#"{"file":"r.pdn","game":3,"ply":0,"score":5,"proven":3,"best":null,"depth":1,"nodes":9}"#;
        let line: ReferenceLine = serde_json::from_str(both).unwrap();
        assert!(line.eval(&pos, Variant::Russian).is_none());
    }
}
