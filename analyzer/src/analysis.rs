//! Analysis of whole games: every position searched, every move judged.
//!
//! ```text
//! ReplayedGame ──one search per position (positions 0..=n, rayon)──▶ best move, score, line
//!   move i: best = search(i); played ≈ −search(i+1)            (the "after" of i is free)
//!   if that flags the move: re-search the played move alone from i at the depth search(i)
//!   completed (search_moves), so best and played are scored alike ──▶ judge ──▶ GameAnalysis
//! ```
//! Work is spread over rayon's **current** pool as (game, position) tasks — call
//! [`analyse_games`] inside `pool.install` to choose the threads. Each task uses its
//! thread's engine; a search limited by depth or nodes does not depend on what the engine
//! searched before, so the result is the same whatever the threads and their scheduling.
//!
//! Repetitions and the count of draw law 2 are known to every search: it gets the hash keys
//! of the game's earlier positions and the running count.
//!
//! ```
//! use drafti_analyzer::analysis::{analyse_game, AnalysisOptions};
//! use drafti_engine::Limits;
//! use drafti_analyzer::replay::{replay, ReplayOptions};
//! let record = drafti_pdn::parse_games(b"1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *").remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! let options = AnalysisOptions { limits: Limits::depth(4), ..AnalysisOptions::default() };
//! let analysis = analyse_game(&game, &options);
//! assert_eq!(analysis.moves.len(), 5);
//! assert_eq!(analysis.positions, 6);
//! ```

use crate::judge::{self, game_accuracy, win_percent, Judgement, SideSummary, Verdict};
use crate::replay::ReplayedGame;
use crate::selfplay::with_engine;
use drafti_engine::{Limits, Score, SearchResult};
use drafti_pdn::{Comment, GameRecord, Nag};
use drafti_rules::{Color, Game, Move, Position, Variant};
use rayon::prelude::*;

/// The default search of each position: this many plies (see `docs/engine.md`, "Analysis
/// speed", for the choice).
pub const DEFAULT_DEPTH: u32 = 6;

/// How games are analysed.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The search of every position (depth or nodes; never time, so results are
    /// reproducible).
    pub limits: Limits,
    /// Transposition table of each worker's engine, MiB.
    pub tt_mb: usize,
    /// Re-search a flagged move alone at the best move's depth (see the module docs).
    /// Without it the judgement compares the best score of position i with the negated
    /// score of position i+1.
    pub verify: bool,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            limits: Limits::depth(DEFAULT_DEPTH),
            tt_mb: 4,
            verify: true,
        }
    }
}

impl AnalysisOptions {
    /// The default options with the search of every position limited by `depth` and/or
    /// `nodes` (with both, whichever is reached first); neither: the default.
    pub fn from_limits(depth: Option<u32>, nodes: Option<u64>) -> AnalysisOptions {
        let limits = match (depth, nodes) {
            (None, None) => return AnalysisOptions::default(),
            (d, n) => Limits {
                depth: d,
                nodes: n,
                ..Limits::default()
            },
        };
        AnalysisOptions {
            limits,
            ..AnalysisOptions::default()
        }
    }

    /// What the settings are, for reports: `depth 6`, `nodes 3000, at most depth 8`.
    pub fn label(&self) -> String {
        match (self.limits.depth, self.limits.nodes) {
            (Some(d), None) => format!("depth {d}"),
            (None, Some(n)) => format!("nodes {n}"),
            (Some(d), Some(n)) => format!("nodes {n}, at most depth {d}"),
            (None, None) => "default".to_string(),
        }
    }
}

/// The search of one position.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The best move (`None` when the game is over there).
    pub best: Option<Move>,
    /// The best score, from the side to move.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl From<SearchResult> for PositionEval {
    fn from(r: SearchResult) -> PositionEval {
        PositionEval {
            best: r.best,
            score: r.score,
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
        }
    }
}

/// One judged move of the mainline.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// 1-based ply (the first move of the game is ply 1).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The best move of the position before it.
    pub best: Option<Move>,
    /// The best move's score, from the mover's side.
    pub best_score: Score,
    /// The best line, starting with the best move.
    pub pv: Vec<Move>,
    /// The played move's score, from the mover's side.
    pub played_score: Score,
    /// Whether the played move is the best move.
    pub played_is_best: bool,
    /// The verdict (judgement, winning chances, accuracy).
    pub verdict: Verdict,
}

impl MoveAnalysis {
    /// The judgement, if the move is flagged.
    pub fn judgement(&self) -> Option<Judgement> {
        self.verdict.judgement
    }
}

/// A game's analysis.
#[derive(Clone, Debug, Default)]
pub struct GameAnalysis {
    /// Every mainline move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// White's counts and accuracy.
    pub white: SideSummary,
    /// Black's counts and accuracy.
    pub black: SideSummary,
    /// Positions searched (plies + 1).
    pub positions: usize,
    /// Nodes searched in all.
    pub nodes: u64,
}

impl GameAnalysis {
    /// The flagged moves.
    pub fn flagged(&self) -> impl Iterator<Item = &MoveAnalysis> {
        self.moves.iter().filter(|m| m.verdict.judgement.is_some())
    }

    /// The summary of `color`.
    pub fn side(&self, color: Color) -> &SideSummary {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// The played move's score from a re-search, and its nodes (`None`: not searched).
type Verified = Option<(Score, u64)>;

/// What each search of a game's positions needs besides the position: the earlier hash keys
/// (repetitions) and the running count of draw law 2.
pub struct Searcher<'a> {
    game: &'a ReplayedGame,
    keys: Vec<u64>,
    king_counts: Vec<Option<u32>>,
}

type Prepared<'a> = Searcher<'a>;

fn prepare(game: &ReplayedGame) -> Prepared<'_> {
    Searcher::new(game)
}

impl<'a> Searcher<'a> {
    /// The keys and counts of every position of `game`.
    pub fn new(game: &'a ReplayedGame) -> Searcher<'a> {
        let keys = game.positions.iter().map(Position::hash_key).collect();
        let mut rules = Game::new(game.start, game.variant);
        let mut king_counts = Vec::with_capacity(game.positions.len());
        king_counts.push(rules.king_count());
        for mv in &game.moves {
            rules.play(mv);
            king_counts.push(rules.king_count());
        }
        Searcher {
            game,
            keys,
            king_counts,
        }
    }

    /// Position `i` searched alone within `limits` (depth and nodes; multipv 1) by this
    /// thread's engine for the variant with a `tt_mb` table, fresh for the search.
    pub fn search_alone(&self, i: usize, limits: &Limits, tt_mb: usize) -> PositionEval {
        let limits = Limits {
            king_count: self.king_counts[i],
            multipv: 1,
            ..limits.clone()
        };
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.set_keep_table(false);
            engine
                .search(&self.game.positions[i], &limits, &self.keys[..i], |_| {})
                .into()
        })
    }
}

thread_local! {
    /// This thread's engines, one per variant and table size (a table's size changes what
    /// a search finds, so it is part of what makes a result reproducible).
    static ENGINES: std::cell::RefCell<Vec<(usize, drafti_engine::Engine)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn with_sized_engine<R>(
    variant: Variant,
    tt_mb: usize,
    f: impl FnOnce(&mut drafti_engine::Engine) -> R,
) -> R {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let i = match engines
            .iter()
            .position(|(mb, e)| *mb == tt_mb && e.variant() == variant)
        {
            Some(i) => i,
            None => {
                engines.push((tt_mb, drafti_engine::Engine::new(variant, tt_mb)));
                engines.len() - 1
            }
        };
        f(&mut engines[i].1)
    })
}

fn limits_at(options: &AnalysisOptions, p: &Prepared<'_>, i: usize) -> Limits {
    Limits {
        king_count: p.king_counts[i],
        multipv: 1,
        ..options.limits.clone()
    }
}

fn search_position(options: &AnalysisOptions, p: &Prepared<'_>, i: usize) -> PositionEval {
    let pos = &p.game.positions[i];
    let limits = limits_at(options, p, i);
    with_engine(p.game.variant, options.tt_mb, |engine| {
        engine.search(pos, &limits, &p.keys[..i], |_| {}).into()
    })
}

/// Node budget of a re-check, as a multiple of the position search's: enough to reach the
/// same depth almost always, and a bound where a node-limited search went very deep (king
/// endings), which unbounded would run for minutes.
const RECHECK_NODE_FACTOR: u64 = 4;

/// The played move of ply `i` searched alone at `depth`; its score from the mover's side.
fn search_played(options: &AnalysisOptions, p: &Prepared<'_>, i: usize, depth: u32) -> Verified {
    let pos = &p.game.positions[i];
    let limits = Limits {
        depth: Some(depth.max(1)),
        nodes: options
            .limits
            .nodes
            .map(|n| n.saturating_mul(RECHECK_NODE_FACTOR)),
        ..limits_at(options, p, i)
    };
    let played = p.game.moves[i];
    with_engine(p.game.variant, options.tt_mb, |engine| {
        engine
            .search_moves(pos, &limits, &p.keys[..i], &[played], |_| {})
            .ok()
            .filter(|r| r.best.is_some())
            .map(|r| (r.score, r.nodes))
    })
}

fn preliminary(evals: &[PositionEval], moves: &[Move], i: usize) -> (Score, bool, Verdict) {
    let played_score = -evals[i + 1].score;
    let is_best = evals[i].best.is_some_and(|b| b.same_move(&moves[i]));
    let verdict = judge::judge(evals[i].score, played_score, is_best);
    (played_score, is_best, verdict)
}

/// Analyses one game on the calling thread.
pub fn analyse_game(game: &ReplayedGame, options: &AnalysisOptions) -> GameAnalysis {
    let p = prepare(game);
    let evals: Vec<PositionEval> = (0..game.positions.len())
        .map(|i| search_position(options, &p, i))
        .collect();
    let verified: Vec<(usize, Verified)> = to_verify(options, game, &evals)
        .into_iter()
        .map(|i| (i, search_played(options, &p, i, evals[i].depth)))
        .collect();
    assemble(game, &evals, &verified)
}

/// Which plies (0-based) need the played move re-searched.
fn to_verify(options: &AnalysisOptions, game: &ReplayedGame, evals: &[PositionEval]) -> Vec<usize> {
    if !options.verify {
        return Vec::new();
    }
    (0..game.moves.len())
        .filter(|&i| {
            let (_, is_best, verdict) = preliminary(evals, &game.moves, i);
            !is_best && verdict.judgement.is_some()
        })
        .collect()
}

/// Analyses many games, their positions spread over rayon's current pool; results in the
/// order of `games`. `progress` is called (from the workers) with the number of positions
/// just finished.
pub fn analyse_games(
    games: &[&ReplayedGame],
    options: &AnalysisOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GameAnalysis> {
    let prepared: Vec<Prepared<'_>> = games.iter().map(|g| prepare(g)).collect();
    let tasks: Vec<(usize, usize)> = prepared
        .iter()
        .enumerate()
        .flat_map(|(g, p)| (0..p.game.positions.len()).map(move |i| (g, i)))
        .collect();
    let mut flat: Vec<PositionEval> = tasks
        .par_iter()
        .with_max_len(1)
        .map(|&(g, i)| {
            let e = search_position(options, &prepared[g], i);
            progress(1);
            e
        })
        .collect();
    // Split the flat results back per game, in order.
    let mut evals: Vec<Vec<PositionEval>> = Vec::with_capacity(games.len());
    for p in prepared.iter().rev() {
        let rest = flat.split_off(flat.len() - p.game.positions.len());
        evals.push(rest);
    }
    evals.reverse();
    let verify_tasks: Vec<(usize, usize)> = prepared
        .iter()
        .enumerate()
        .flat_map(|(g, p)| {
            to_verify(options, p.game, &evals[g])
                .into_iter()
                .map(move |i| (g, i))
        })
        .collect();
    let verified: Vec<(usize, usize, Verified)> = verify_tasks
        .par_iter()
        .with_max_len(1)
        .map(|&(g, i)| {
            (
                g,
                i,
                search_played(options, &prepared[g], i, evals[g][i].depth),
            )
        })
        .collect();
    (0..games.len())
        .map(|g| {
            let mine: Vec<(usize, Verified)> = verified
                .iter()
                .filter(|v| v.0 == g)
                .map(|v| (v.1, v.2))
                .collect();
            assemble(games[g], &evals[g], &mine)
        })
        .collect()
}

fn assemble(
    game: &ReplayedGame,
    evals: &[PositionEval],
    verified: &[(usize, Verified)],
) -> GameAnalysis {
    let mut analysis = GameAnalysis {
        positions: evals.len(),
        nodes: evals.iter().map(|e| e.nodes).sum(),
        ..GameAnalysis::default()
    };
    for (i, mv) in game.moves.iter().enumerate() {
        let mover = game.positions[i].turn();
        let (mut played_score, is_best, mut verdict) = preliminary(evals, &game.moves, i);
        if let Some((_, Some((score, nodes)))) = verified.iter().find(|v| v.0 == i) {
            played_score = *score;
            verdict = judge::judge(evals[i].score, played_score, is_best);
            analysis.nodes += nodes;
        }
        let side = match mover {
            Color::White => &mut analysis.white,
            Color::Black => &mut analysis.black,
        };
        side.count(verdict.judgement);
        analysis.moves.push(MoveAnalysis {
            ply: i + 1,
            mover,
            played: *mv,
            best: evals[i].best,
            best_score: evals[i].score,
            pv: evals[i].pv.clone(),
            played_score,
            played_is_best: is_best,
            verdict,
        });
    }
    // White's win percentage in every position, for the volatility weights.
    let white_wins: Vec<f64> = evals
        .iter()
        .zip(&game.positions)
        .map(|(e, pos)| {
            let s = if pos.turn() == Color::White {
                e.score
            } else {
                -e.score
            };
            win_percent(judge::winning_chances(s))
        })
        .collect();
    for color in [Color::White, Color::Black] {
        let moves: Vec<(usize, f64)> = analysis
            .moves
            .iter()
            .filter(|m| m.mover == color)
            .map(|m| (m.ply - 1, m.verdict.accuracy))
            .collect();
        let accuracy = game_accuracy(&white_wins, &moves);
        match color {
            Color::White => analysis.white.accuracy = accuracy,
            Color::Black => analysis.black.accuracy = accuracy,
        }
    }
    analysis
}

/// A line of moves from `pos` in notation (`c3-d4 d6xb4 …`), each move as short as it can
/// be among the legal moves of its position.
pub fn line_text(pos: &Position, variant: Variant, line: &[Move], numeric: bool) -> String {
    let mut pos = *pos;
    let mut words = Vec::with_capacity(line.len());
    for mv in line {
        let legal = pos.legal_moves(variant);
        words.push(mv.notation(&legal, numeric));
        pos = pos.play(mv);
    }
    words.join(" ")
}

/// The comment written on a flagged move by [`annotate`]: `-2.10 (best +0.35: d6-c5)`.
/// Scores are from the mover's side.
pub fn flag_comment(
    m: &MoveAnalysis,
    before: &Position,
    variant: Variant,
    numeric: bool,
) -> String {
    let best = m
        .best
        .map(|b| b.notation(&before.legal_moves(variant), numeric))
        .unwrap_or_default();
    let reason = m
        .verdict
        .proven
        .map(|r| format!("{r}; "))
        .unwrap_or_default();
    format!("{reason}{} (best {}: {best})", m.played_score, m.best_score)
}

/// Writes the analysis into `record`: on each flagged mainline move a NAG (`$6` ?!, `$2` ?,
/// `$4` ??, put first and replacing earlier move-strength NAGs) and a comment from
/// [`flag_comment`]. `numeric` chooses square numbers for the best moves.
pub fn annotate(
    record: &mut GameRecord,
    game: &ReplayedGame,
    analysis: &GameAnalysis,
    numeric: bool,
) {
    for m in analysis.flagged() {
        let Some(node) = record.moves.nodes.get_mut(m.ply - 1) else {
            continue;
        };
        let Some(judgement) = m.judgement() else {
            continue;
        };
        node.nags.retain(|n| !(1..=6).contains(&n.value));
        node.nags.insert(
            0,
            Nag {
                value: judgement.nag(),
                span: Default::default(),
            },
        );
        node.comments.push(Comment {
            text: flag_comment(m, &game.positions[m.ply - 1], game.variant, numeric),
            span: Default::default(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{replay, ReplayOptions};

    fn game(text: &str) -> ReplayedGame {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        let g = replay(record, &ReplayOptions::default());
        assert!(g.is_valid(), "{:?}", g.problems);
        g
    }

    #[test]
    fn parallel_and_serial_agree() {
        let a = game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 c7-b6 4. d2-e3 h6-g5 5. f4xh6 d6-e5 6. g3-h4 c5-b4 7. a3xa7 f6-g5 8. h4xf6 e7xg5 *");
        let b =
            game("1. c3-b4 d6-e5 2. b2-c3 c7-d6 3. g3-f4 e5xg3 4. f2xh4 d6-c5 5. b4xd6 e7xc5 *");
        let options = AnalysisOptions {
            limits: Limits::depth(4),
            ..AnalysisOptions::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let both = pool.install(|| analyse_games(&[&a, &b], &options, &|_| {}));
        for (g, par) in [&a, &b].iter().zip(&both) {
            let ser = analyse_game(g, &options);
            assert_eq!(ser.moves.len(), par.moves.len());
            for (x, y) in ser.moves.iter().zip(&par.moves) {
                assert_eq!(x.best, y.best);
                assert_eq!(x.best_score, y.best_score);
                assert_eq!(x.played_score, y.played_score);
                assert_eq!(x.verdict.judgement, y.verdict.judgement);
            }
            assert_eq!(ser.nodes, par.nodes);
        }
    }

    #[test]
    fn the_best_move_is_never_flagged() {
        let g = game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *");
        let a = analyse_game(&g, &AnalysisOptions::default());
        for m in &a.moves {
            if m.played_is_best {
                assert_eq!(m.judgement(), None);
            }
        }
        // The forced capture is the only move.
        assert!(a.moves[2].played_is_best);
    }
}
