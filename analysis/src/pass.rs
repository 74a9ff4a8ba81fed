//! The pass: every position of a game searched, every move judged.
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
//! use drafti_analysis::{analyse_game, AnalysisOptions};
//! use drafti_engine::Limits;
//! use drafti_archive::replay::{replay, ReplayOptions};
//! let record = drafti_pdn::parse_games(b"1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *").remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! let options = AnalysisOptions { limits: Limits::depth(4), ..AnalysisOptions::default() };
//! let analysis = analyse_game(&game, &options);
//! assert_eq!(analysis.moves.len(), 5);
//! assert_eq!(analysis.positions, 6);
//! ```

use crate::game::{GameAnalysis, MoveAnalysis, PositionEval};
use crate::judge::{self, Verdict};
use crate::options::AnalysisOptions;
use crate::searcher::{with_engine, Searcher};
use crate::tables::{doubt_king_ending, use_tables};
use crate::verify::Settle;
use drafti_archive::replay::ReplayedGame;
use drafti_engine::egtb::Tables;
use drafti_engine::{Engine, Limits, Score, StopFlag};
use drafti_rules::{Move, MoveList};
use rayon::prelude::*;
use std::sync::Arc;

/// A game longer than this many positions is cut into parts analysed in parallel.
pub const SEGMENT_POSITIONS: usize = 120;

/// One task: positions `lo..hi` of game `game`, searched backwards by one engine.
#[derive(Clone, Copy, Debug)]
struct Segment {
    game: usize,
    lo: usize,
    hi: usize,
}

/// The segments of a game of `positions` positions: one for a game of up to
/// [`SEGMENT_POSITIONS`], else near-equal parts of at most that many. They depend only on the
/// game's length, so a game's analysis is the same alone, in an archive, and for any threads.
fn segments(game: usize, positions: usize) -> Vec<Segment> {
    let parts = positions.div_ceil(SEGMENT_POSITIONS).max(1);
    (0..parts)
        .map(|k| Segment {
            game,
            lo: k * positions / parts,
            hi: (k + 1) * positions / parts,
        })
        .collect()
}

/// What one segment's task found for its positions `lo..hi`.
struct SegmentResult {
    evals: Vec<PositionEval>,
    /// Move `i`'s analysis for every move `lo <= i < hi`.
    moves: Vec<MoveAnalysis>,
    nodes: u64,
}

/// The score of a move, from the mover's side, that leads to a position scored `after` (from
/// its side to move): negated, a proven result one ply further away.
///
/// ```
/// use drafti_engine::Score;
/// use drafti_analysis::move_score;
/// assert_eq!(move_score(Score::loss_in(4)), Score::win_in(5));
/// assert_eq!(move_score(Score::centi_men(-35)), Score::centi_men(35));
/// ```
pub fn move_score(after: Score) -> Score {
    match (after.win_distance(), after.loss_distance()) {
        (Some(d), _) => Score::loss_in(d + 1),
        (_, Some(d)) => Score::win_in(d + 1),
        _ => -after,
    }
}

/// The verdict of a pass: best and played scores from the searches of positions `i` and
/// `i + 1`.
fn pass_verdict(
    before: &PositionEval,
    after: &PositionEval,
    played: &Move,
) -> (Score, bool, Verdict) {
    let is_best = before.best.is_some_and(|b| b.same_move(played));
    let played_score = if is_best {
        before.score
    } else {
        move_score(after.score)
    };
    (
        played_score,
        is_best,
        judge::judge(before.score, played_score, is_best),
    )
}

impl Searcher<'_> {
    /// The task of one segment: its positions searched from the last to the first by one
    /// engine whose table is kept (fresh for the segment), each move nominated as soon as the
    /// positions before and after it are searched and, if nominated, re-searched deeper right
    /// away, so what the deep searches learned is in the table for the earlier positions.
    fn segment(
        &self,
        seg: Segment,
        options: &AnalysisOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> SegmentResult {
        let tables = options.tables.get(self.game.variant);
        with_engine(
            self.game.variant,
            options.tt_mb,
            &options.engine,
            |engine| {
                // Stopped, the segment's searches end at once and their results are dropped:
                // the table's clearing is the only work left worth skipping.
                if !options.stop.is_raised() {
                    engine.clear();
                }
                engine.set_keep_table(true);
                engine.set_stop_flag(options.stop.clone());
                use_tables(engine, tables);
                let result = self.search_segment(engine, seg, options, tables, progress);
                engine.set_keep_table(false);
                // The engine is the thread's: later work has a flag of its own.
                engine.set_stop_flag(StopFlag::new());
                result
            },
        )
    }

    /// [`Searcher::segment`] in `engine`, its table and `tables` set.
    fn search_segment(
        &self,
        engine: &mut Engine,
        seg: Segment,
        options: &AnalysisOptions,
        tables: Option<&Arc<Tables>>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> SegmentResult {
        let mut nodes = 0;
        // A position's value is its last completed depth's: the pass starts no depth it could
        // not finish within its nodes, since an unfinished depth is work for nothing.
        let limits = Limits {
            whole_iterations: true,
            ..options.limits.clone()
        };
        let search = |engine: &mut Engine, i: usize| -> PositionEval {
            self.search_position(engine, i, &limits, tables)
        };
        // The position after the segment (the next segment's first): the played score of
        // the segment's last move.
        let mut after = (seg.hi < self.game.positions.len()).then(|| search(engine, seg.hi));
        nodes += after.as_ref().map_or(0, |e| e.nodes);
        let mut evals = Vec::with_capacity(seg.hi - seg.lo);
        let mut moves = Vec::with_capacity(seg.hi - seg.lo);
        for i in (seg.lo..seg.hi).rev() {
            let eval = match after.as_ref().and_then(|next| self.forced_eval(i, next)) {
                Some(eval) => eval,
                None => search(engine, i),
            };
            nodes += eval.nodes;
            progress(1);
            if let Some(next) = &after {
                let exact = tables.and_then(|t| self.exact_move(t, i));
                let m = match exact {
                    Some(m) => m,
                    None => {
                        let (m, spent) = self.judge_move(engine, i, &eval, next, options);
                        nodes += spent;
                        m
                    }
                };
                moves.push(m);
            }
            after = Some(eval.clone());
            evals.push(eval);
        }
        evals.reverse();
        moves.reverse();
        SegmentResult {
            evals,
            moves,
            nodes,
        }
    }

    /// Position `i`'s value when it has one legal move (a compulsory capture, most often): the
    /// position after it, `next`, already searched, is its only line, so a search of its own
    /// would spend the pass's nodes to learn one ply less. `None` when there is a choice.
    fn forced_eval(&self, i: usize, next: &PositionEval) -> Option<PositionEval> {
        let mut list = MoveList::new();
        self.game.positions[i].generate_moves(self.game.variant, &mut list);
        let [only] = list.as_slice() else {
            return None;
        };
        Some(PositionEval {
            best: Some(*only),
            score: move_score(next.score),
            pv: std::iter::once(*only)
                .chain(next.pv.iter().copied())
                .collect(),
            // A table's value stays exact through a forced move (and keeps its depth 0).
            depth: if next.exact { 0 } else { next.depth + 1 },
            nodes: 0,
            exact: next.exact,
        })
    }

    /// Move `i` judged from the pass's searches of the positions before (`eval`) and after it
    /// (`next`) and, if that nominates it, re-searched (and confirmed) in `engine`. Returns
    /// the analysis and the nodes the re-searches spent.
    fn judge_move(
        &self,
        engine: &mut Engine,
        i: usize,
        eval: &PositionEval,
        next: &PositionEval,
        options: &AnalysisOptions,
    ) -> (MoveAnalysis, u64) {
        let played = self.game.moves[i];
        let (played_score, is_best, verdict) = pass_verdict(eval, next, &played);
        let nominated = !is_best
            && (verdict.proven.is_some()
                || verdict.drop >= options.nominate_drop
                || eval.score.is_proven()
                || next.score.is_proven());
        let (m, nodes) = match (&options.verify, nominated) {
            (Some(limits), true) if options.verify_from_pass => {
                let limits = Limits {
                    depth: limits.depth.map(|d| d.max(eval.depth)),
                    ..limits.clone()
                };
                self.verify_and_confirm(engine, i, &limits, options)
            }
            (Some(limits), true) => self.verify_and_confirm(engine, i, limits, options),
            _ => {
                let m = MoveAnalysis {
                    ply: i + 1,
                    mover: self.game.positions[i].turn(),
                    played,
                    best: eval.best,
                    best_score: eval.score,
                    pv: eval.pv.clone(),
                    played_score,
                    played_is_best: is_best,
                    verdict,
                    depth: eval.depth,
                    confirmed_depth: None,
                    exact: false,
                    unsettled: false,
                };
                (m, 0)
            }
        };
        let pos = &self.game.positions[i];
        (doubt_king_ending(m, pos, self.game.variant), nodes)
    }

    /// Move `i` re-searched within `limits` and, when that verdict rests on a proven result
    /// or lies in the confirmation band, confirmed deeper (the deeper verdict replaces it).
    fn verify_and_confirm(
        &self,
        engine: &mut Engine,
        i: usize,
        limits: &Limits,
        options: &AnalysisOptions,
    ) -> (MoveAnalysis, u64) {
        let (m, mut nodes) = self.verify(engine, i, limits, Settle::of(options));
        let (low, high) = options.confirm_band;
        let near_the_line = m.verdict.proven.is_some() || (low..high).contains(&m.verdict.drop);
        match options.confirm.as_ref().filter(|_| near_the_line) {
            Some(deeper) => {
                let (confirmed, spent) = self.verify(engine, i, deeper, Settle::of(options));
                nodes += spent;
                (confirmed, nodes)
            }
            None => (m, nodes),
        }
    }
}

/// Analyses one game on the calling thread (the same result as [`analyse_games`]).
pub fn analyse_game(game: &ReplayedGame, options: &AnalysisOptions) -> GameAnalysis {
    let searcher = Searcher::new(game);
    let results: Vec<SegmentResult> = segments(0, game.positions.len())
        .into_iter()
        .map(|seg| searcher.segment(seg, options, &|_| {}))
        .collect();
    assemble(game, results)
}

/// Analyses many games, their segments spread over rayon's current pool; results in the
/// order of `games`, each the same as [`analyse_game`]'s. `progress` is called (from the
/// workers) with the number of positions just finished.
pub fn analyse_games(
    games: &[&ReplayedGame],
    options: &AnalysisOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GameAnalysis> {
    let searchers: Vec<Searcher<'_>> = games.iter().map(|g| Searcher::new(g)).collect();
    let tasks: Vec<Segment> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| segments(g, game.positions.len()))
        .collect();
    // Longest first, so a long game does not start last and keep one worker busy alone.
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(tasks[t].hi - tasks[t].lo));
    let results: Vec<SegmentResult> = order
        .par_iter()
        .with_max_len(1)
        .map(|&t| searchers[tasks[t].game].segment(tasks[t], options, progress))
        .collect();
    // Back to task order (games in order, their segments in order).
    let mut by_task: Vec<Option<SegmentResult>> = (0..tasks.len()).map(|_| None).collect();
    for (&t, r) in order.iter().zip(results) {
        by_task[t] = Some(r);
    }
    let mut by_task = by_task.into_iter().map(|r| r.expect("every task ran"));
    games
        .iter()
        .enumerate()
        .map(|(g, game)| {
            let parts = tasks.iter().filter(|s| s.game == g).count();
            assemble(game, by_task.by_ref().take(parts).collect())
        })
        .collect()
}

/// A game's analysis from its segments' results, in order.
fn assemble(game: &ReplayedGame, results: Vec<SegmentResult>) -> GameAnalysis {
    let nodes = results.iter().map(|r| r.nodes).sum();
    let mut evals = Vec::with_capacity(game.positions.len());
    let mut moves = Vec::with_capacity(game.moves.len());
    for r in results {
        evals.extend(r.evals);
        moves.extend(r.moves);
    }
    GameAnalysis::from_moves(game, moves, evals.pop(), nodes)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::judge::Judgement;
    use crate::tables::doubted_king_ending;
    use drafti_archive::replay::{replay, ReplayOptions};
    use drafti_engine::Limits;
    use drafti_rules::Variant;

    pub(crate) fn game(text: &str) -> ReplayedGame {
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
    fn a_re_search_no_shallower_than_the_pass_reaches_the_pass_depth() {
        // White's 8. c3-d4 gives two men: nominated, and re-searched.
        let g = game("1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. b2-c3 h8-g7 4. a1-b2 g7-f6 5. a3-b4 b6-c5 6. b4-a5 c5-d4 7. e3xc5 d6xb4 8. c3-d4 e5xa1 9. f2-e3 f6-e5 *");
        let shallow = AnalysisOptions {
            limits: Limits::depth(6),
            verify: Some(Limits::depth(3)),
            confirm: None,
            ..AnalysisOptions::default()
        };
        let from_pass = AnalysisOptions {
            verify_from_pass: true,
            ..shallow.clone()
        };
        let (a, b) = (analyse_game(&g, &shallow), analyse_game(&g, &from_pass));
        let (x, y) = (&a.moves[14], &b.moves[14]);
        assert!(x.confirmed_depth.is_some() && y.confirmed_depth.is_some());
        assert_eq!(x.depth, 3);
        assert!(y.depth >= 6, "{}", y.depth);
        assert!(b.nodes > a.nodes);
        assert!(from_pass
            .label()
            .contains("depth 3, no shallower than the pass"));
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

    #[test]
    fn a_position_with_one_legal_move_takes_the_next_positions_value() {
        // Position 2 (before 2. d4xb6) has one legal move; position 3 has two recaptures.
        let g = game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *");
        let options = AnalysisOptions {
            limits: Limits::depth(4),
            ..AnalysisOptions::default()
        };
        let a = analyse_game(&g, &options);
        let (forced, next) = (&a.moves[2], &a.moves[3]);
        assert_eq!(forced.best_score, move_score(next.best_score));
        assert_eq!(forced.depth, next.depth + 1);
        assert_eq!(forced.pv[1..], next.pv[..]);
        // A position with a choice is searched.
        assert_eq!(next.depth, 4);
    }

    #[test]
    fn an_evaluated_blunder_in_a_king_ending_beyond_the_tables_is_not_settled() {
        // A Czech master game (the held-out half): two kings and a man against a king and two
        // men, drawn in the 6-piece tables after e1-a5 as before it; without the tables the
        // evaluation scores the move 2.4 men down.
        let text = "[GameType \"29\"]\n[FEN \"B:WK15,19,K29:B4,21,K31\"]\n1... e1-a5 *";
        let doubted = |text: &str| {
            let g = game(text);
            let m = analyse_game(&g, &AnalysisOptions::default())
                .moves
                .remove(0);
            assert!(m.verdict.drop >= judge::BLUNDER_DROP, "{m:?}");
            assert!(m.verdict.proven.is_none() && !m.exact);
            (m.judgement(), m.unsettled)
        };
        assert_eq!(doubted(text), (Some(Judgement::Mistake), true));
        // Russian alike.
        let russian = text.replace("\"29\"", "\"25\"");
        assert_eq!(doubted(&russian), (Some(Judgement::Mistake), true));
        // Seven pieces: judged as searched (a man more for White, far from the crown).
        let seven = text.replace("B:WK15,19,K29", "B:WK15,19,K29,32");
        let g = game(&seven);
        assert!(!doubted_king_ending(&g.positions[0], g.variant));
        // Tanzanian: its evaluation knows these endings by its draw laws; not doubted.
        let tanzanian = text.replace("[GameType \"29\"]\n", "");
        let g = game(&tanzanian);
        assert_eq!(g.variant, Variant::Tanzanian);
        assert!(!doubted_king_ending(&g.positions[0], g.variant));
        // No king for one side: judged as searched.
        let g = game("[GameType \"29\"]\n[FEN \"B:W15,19,29:B4,21,K31\"]\n*");
        assert!(!doubted_king_ending(&g.positions[0], g.variant));
    }

    #[test]
    fn a_tzdraft_game_is_searched_with_its_server_counts() {
        // Three kings against one played quietly: White's 12th move since its last capture
        // draws by TzDraft's three-kings rule, so before it the position is a draw though
        // the same position as a game's start (the count from zero) is not.
        let variant = Variant::TzDraft;
        let start = drafti_rules::Position::from_fen("W:WK1,K3,K5:BK30").unwrap();
        let mut rules = drafti_rules::Game::new(start, variant);
        let mut moves = Vec::new();
        while moves.len() < 22 {
            let p = *rules.position();
            let quiet = p
                .legal_moves(variant)
                .into_iter()
                .find(|m| !p.play(m).has_capture(variant))
                .unwrap();
            moves.push(quiet.full_notation(false));
            rules.play(&quiet);
        }
        assert_eq!(rules.outcome(), None);
        let line = drafti_rules::numbered_line(drafti_rules::Color::White, &moves);
        let fen = rules.position().to_fen();
        let g = game(&format!(
            "[Variant \"TzDraft\"]\n[FEN \"W:WK1,K3,K5:BK30\"]\n{line} *"
        ));
        let options = AnalysisOptions {
            limits: Limits::nodes(100_000),
            ..AnalysisOptions::default()
        };
        let last = analyse_game(&g, &options).final_eval.unwrap();
        assert_eq!(last.score, drafti_engine::Score::DRAW, "{last:?}");
        let fresh = game(&format!("[Variant \"TzDraft\"]\n[FEN \"{fen}\"]\n*"));
        let first = analyse_game(&fresh, &options).final_eval.unwrap();
        assert!(first.score > drafti_engine::Score::DRAW, "{first:?}");
    }
}
