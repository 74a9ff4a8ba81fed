//! The search: iterative deepening over a principal-variation alpha-beta search.
//!
//! - **Root**: the moves of the last iteration in score order; the first `multipv` get a full
//!   window (exact scores and lines), the rest a null window around the `multipv`-th best
//!   score, re-searched when they beat it.
//! - **Inner nodes**: draw laws (see `laws`), repetition of a position earlier on the path
//!   or in the game (a draw), mate-distance pruning, the transposition table (cut-offs
//!   outside the principal variation only, so proven lines come out whole), ordered moves
//!   (hash move, captures by what they take, crowning, killers, history), principal variation
//!   search. The policies are short named functions, as in Scan: [`reduction`] (late quiet
//!   moves searched shallower) and [`extension`] (a single legal move searched deeper).
//!   ProbCut is a live idea built with the `search-ideas` feature only.
//! - **Quiescence**: at depth 0 a side that must capture goes on capturing (every capture, as
//!   the rules force one); a side without a capture is evaluated, or loses if it has no move.
//! - **Limits**: node counts are checked at every node, the clock (with a movetime) and the
//!   stop flag every 1024 nodes; an interrupted iteration is thrown away. Depth 1 always
//!   completes.
//!
//! Ideas measured and deleted (their figures are in docs/engine.md and docs/lab/): aspiration
//! windows, the one-ply and logarithmic reduction schemes, Scan's singular extension, a
//! quiescence ply under a capture threat, and quiescence sacrifices.

use super::clock::Instant;
use super::laws::{law3_claim, LawState};
use super::order::{pick, MAX_PLY};
#[cfg(feature = "search-ideas")]
use super::score::PROVEN_BOUND;
use super::score::{Score, INFINITY, WIN};
use super::tt::{Bound, MoveKey, NO_MOVE};
use super::{DepthInfo, Engine, Limits, RootLine, SearchResult, DEFAULT_DEPTH, MAX_DEPTH};
use drafti_rules::zobrist::{piece_key, BLACK_TO_MOVE};
use drafti_rules::{Move, MoveList, Outcome, Position, MOVE_LIST_CAPACITY};

/// The search's working memory, kept in the engine between searches (no allocation per
/// node: move lists and ordering scores live here, one per ply, not on the thread's stack).
pub(crate) struct State {
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    deadline: Option<Instant>,
    can_stop: bool,
    stopped: bool,
    /// Hash keys of the game's earlier positions, then of the positions on the search path.
    keys: Vec<u64>,
    history_len: usize,
    pv: Vec<Vec<Move>>,
    lists: Vec<MoveList>,
    scores: Vec<[i32; MOVE_LIST_CAPACITY]>,
    /// Whether the iteration at the root found a new best move (another move scored above
    /// the first one).
    root_changed: bool,
    /// The move played at each ply of the path (for counter-moves).
    played: Vec<MoveKey>,
    /// A 1024-bit filter of the game's earlier positions: most nodes learn from one bit
    /// that they repeat none of them.
    history_filter: [u64; 16],
}

impl State {
    pub fn new() -> State {
        State {
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            deadline: None,
            can_stop: false,
            stopped: false,
            keys: Vec::new(),
            history_len: 0,
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: vec![[0; MOVE_LIST_CAPACITY]; MAX_PLY + 1],
            root_changed: false,
            played: vec![NO_MOVE; MAX_PLY + 1],
            history_filter: [0; 16],
        }
    }
}

/// From this iteration on [`Limits::whole_iterations`] may stop a search: the first ones cost
/// little and say little of how the tree grows.
const WHOLE_ITERATIONS_FROM: u32 = 4;

/// The nodes the next iteration will likely take: the last one's (`last`) times its growth
/// over the one before (`before`), the growth kept within 1.2–6 so that one odd iteration does
/// not make the estimate wild.
fn next_iteration_nodes(last: u64, before: u64) -> u64 {
    let growth = if before > 0 {
        last as f64 / before as f64
    } else {
        2.0
    };
    (last as f64 * growth.clamp(1.2, 6.0)).ceil() as u64
}

/// The bit of `key` in the history filter.
#[inline]
fn filter_bit(key: u64) -> (usize, u64) {
    let b = (key >> 40) as usize & 1023;
    (b >> 6, 1u64 << (b & 63))
}

/// A root move and what the current iteration knows of it.
#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    /// Whether `score` is exact (otherwise an upper bound from a null-window search).
    exact: bool,
    pv: Vec<Move>,
}

/// The key of the position after `mv`, from the key of `pos` (incremental Zobrist).
#[inline]
pub(crate) fn key_after(pos: &Position, key: u64, mv: &Move) -> u64 {
    let us = pos.turn();
    let them = us.other();
    let from = mv.from().index();
    let to = mv.to().index();
    let was_king = pos.kings(us).0 & (1 << from) != 0;
    let mut k = key
        ^ BLACK_TO_MOVE
        ^ piece_key(us, was_king, from)
        ^ piece_key(us, was_king || mv.promotes(), to);
    let their_kings = pos.kings(them).0;
    let mut captured = mv.captured().0;
    while captured != 0 {
        let sq = captured.trailing_zeros();
        captured &= captured - 1;
        k ^= piece_key(them, their_kings & (1 << sq) != 0, sq as u8);
    }
    k
}

/// The score of a loss on the spot at `ply`.
#[inline]
fn lost_at(ply: usize) -> i32 {
    -(WIN - ply as i32)
}

impl Engine {
    /// The whole search: set up, iterate, report.
    pub(super) fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        history: &[u64],
        only: Option<&[Move]>,
        mut on_depth: impl FnMut(&DepthInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        self.order.clear();
        let root_key = pos.hash_key();
        {
            let st = &mut self.state;
            st.nodes = 0;
            st.seldepth = 0;
            st.stopped = false;
            st.can_stop = false;
            st.node_limit = limits.nodes.unwrap_or(u64::MAX);
            st.deadline = limits.movetime.map(|t| start + t);
            st.keys.clear();
            st.keys.extend_from_slice(history);
            st.history_len = history.len();
            st.history_filter = [0; 16];
            for &k in history {
                let (word, bit) = filter_bit(k);
                st.history_filter[word] |= bit;
            }
            st.keys.push(root_key);
        }
        let mut result = SearchResult {
            best: None,
            score: Score::DRAW,
            pv: Vec::new(),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: start.elapsed(),
            lines: Vec::new(),
            outcome: None,
            claim: None,
        };

        let law = self.root_law(pos, limits);
        self.enter_node(0, pos);
        let legal = pos.legal_moves(self.variant);
        if legal.is_empty() {
            result.score = Score::loss_in(0);
            result.outcome = Some(Outcome::Win(pos.turn().other()));
            return result;
        }
        if let LawState::Drawn(reason) = law {
            result.outcome = Some(Outcome::Draw(reason));
            return result;
        }
        let mut root: Vec<RootMove> = legal
            .iter()
            .filter(|m| only.is_none_or(|only| only.iter().any(|o| o.same_move(m))))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                exact: false,
                pv: vec![mv],
            })
            .collect();
        if root.is_empty() {
            return result;
        }
        // Law 3 at the root: the claim is no move, so it is scored beside the moves (not
        // when only some moves are searched: then their own scores are asked for).
        let claim = only.is_none().then(|| self.claim(pos)).flatten();
        // Captures that take most first, for the first iteration.
        root.sort_by_key(|r| std::cmp::Reverse(r.mv.capture_count()));
        let multipv = limits.multipv.clamp(1, root.len());
        let max_depth = limits
            .depth
            .unwrap_or(if limits.nodes.is_some() || limits.movetime.is_some() {
                MAX_DEPTH
            } else {
                DEFAULT_DEPTH
            })
            .clamp(1, MAX_DEPTH);

        // Nodes at the end of the last iteration, and that iteration's own nodes.
        let mut last_iteration = (0u64, 0u64);
        for depth in 1..=max_depth {
            self.state.can_stop = depth > 1;
            let mut iteration = root.clone();
            self.state.root_changed = false;
            self.search_root(pos, root_key, law, depth as i32, &mut iteration, multipv);
            // The moves this iteration put first, when it was interrupted (the clock or a
            // stop) after finding a new best one.
            let interrupted = if self.state.stopped {
                self.state.root_changed.then_some(iteration)
            } else {
                root = iteration;
                None
            };
            let mut claim_score = None;
            if let (Some(crowned), false) = (claim, self.state.stopped) {
                claim_score = Some(self.search_claim_at_root(&crowned, depth as i32));
            }
            if self.state.stopped {
                // Stopped by the clock or the stop flag (never by the node limit, whose
                // result is the last completed iteration): a better move this iteration
                // found is played (the time spent on it is not lost).
                let by_nodes = self.state.nodes >= self.state.node_limit;
                if let Some(partial) = interrupted
                    .filter(|_| self.config.partial_iteration != 0 && multipv == 1 && !by_nodes)
                {
                    result.best = Some(partial[0].mv);
                    result.score = Score(partial[0].score);
                    result.pv = partial[0].pv.clone();
                    result.lines = vec![RootLine {
                        mv: partial[0].mv,
                        score: result.score,
                        pv: result.pv.clone(),
                    }];
                }
                break;
            }
            let lines: Vec<RootLine> = root[..multipv]
                .iter()
                .map(|r| RootLine {
                    mv: r.mv,
                    score: Score(r.score),
                    pv: r.pv.clone(),
                })
                .collect();
            result.best = Some(lines[0].mv);
            result.score = lines[0].score;
            result.claim = claim_score;
            if let Some(c) = claim_score.filter(|c| c.0 > result.score.0) {
                result.score = c;
            }
            result.pv = lines[0].pv.clone();
            result.depth = depth;
            result.seldepth = self.state.seldepth as u32;
            result.nodes = self.state.nodes;
            result.elapsed = start.elapsed();
            let info = DepthInfo {
                depth,
                seldepth: result.seldepth,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                lines,
            };
            on_depth(&info);
            result.lines = info.lines;

            // Every line proven, and searched deep enough that no shorter result is hidden.
            let settled = result.lines.iter().all(|l| {
                let distance = l.score.win_distance().or(l.score.loss_distance());
                distance.is_some_and(|d| depth >= d + 2)
            });
            let spent = self.state.nodes - last_iteration.0;
            let next_would_overrun = limits.whole_iterations
                && limits.nodes.is_some()
                && depth >= WHOLE_ITERATIONS_FROM
                && self.state.nodes + next_iteration_nodes(spent, last_iteration.1)
                    > self.state.node_limit;
            last_iteration = (self.state.nodes, spent);
            let out_of_nodes = next_would_overrun || self.state.nodes >= self.state.node_limit;
            let out_of_time = self.state.deadline.is_some_and(|d| Instant::now() >= d);
            if settled || out_of_nodes || out_of_time || self.stop.is_raised() {
                break;
            }
        }
        result.nodes = self.state.nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// Law 3's claim at the root: the position after it (`crowned`, the same side to move,
    /// the count at 0) searched as deep as the root's moves (`depth` − 1, as `alpha_beta`
    /// searches a claim) with a full window, scored from the root.
    fn search_claim_at_root(&mut self, crowned: &Position, depth: i32) -> Score {
        let key = crowned.hash_key();
        // Searched as a node one ply down (the search's nodes below the root are), its key
        // where that ply's key goes, then its score taken back to the root: no ply passes.
        self.state.keys.push(key);
        self.state.played[0] = NO_MOVE;
        let s = self.alpha_beta(
            crowned,
            key,
            LawState::Count(0),
            depth - 1,
            -INFINITY,
            INFINITY,
            1,
            0,
        );
        self.state.keys.pop();
        Score::from_tt(Score(s).to_tt(1), 0)
    }

    /// The position after law 3's claim by the side to move, if it may claim and the
    /// search is to consider it (`Config::law3`).
    #[inline]
    fn claim(&self, pos: &Position) -> Option<Position> {
        if self.config.law3 == 0 {
            return None;
        }
        law3_claim(&self.laws, pos)
    }

    /// One iteration at the root with a full window; `moves` come back best first (exact
    /// scores first).
    fn search_root(
        &mut self,
        pos: &Position,
        key: u64,
        law: LawState,
        depth: i32,
        moves: &mut [RootMove],
        multipv: usize,
    ) {
        let mover = pos.turn();
        self.state.nodes += 1;
        self.state.played[0] = NO_MOVE;
        for i in 0..moves.len() {
            let mv = moves[i].mv;
            let child = pos.play(&mv);
            let child_key = key_after(pos, key, &mv);
            let child_law = law.after_move(&self.laws, pos, &child, mv.is_capture());
            let irreversible = mv.is_capture() || pos.men(mover).contains(mv.from());
            let half = u32::from(!irreversible);
            self.state.keys.push(child_key);
            self.state.played[0] = MoveKey::of(&mv);
            let search = |engine: &mut Engine, a: i32, b: i32| {
                -engine.alpha_beta(&child, child_key, child_law, depth - 1, -b, -a, 1, half)
            };
            let (score, exact) = if i < multipv {
                // Every one of the multipv best in full.
                (search(self, -INFINITY, INFINITY), true)
            } else {
                let floor = moves[multipv - 1].score;
                let mut s = search(self, floor, floor + 1);
                if s > floor && !self.state.stopped {
                    s = search(self, floor, INFINITY);
                }
                (s, s > floor)
            };
            self.state.keys.pop();
            if self.state.stopped {
                return;
            }
            moves[i].score = score;
            moves[i].exact = exact;
            if exact {
                let mut pv = Vec::with_capacity(1 + self.state.pv[1].len());
                pv.push(mv);
                pv.extend_from_slice(&self.state.pv[1]);
                moves[i].pv = pv;
                // Insert among the exact moves, best first, ahead of the failed-low ones.
                let mut j = i;
                while j > 0 && (!moves[j - 1].exact || moves[j - 1].score < score) {
                    moves.swap(j - 1, j);
                    j -= 1;
                }
                self.state.root_changed |= i > 0 && j == 0;
            }
        }
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        let st = &mut self.state;
        if st.stopped {
            return true;
        }
        if !st.can_stop {
            return false;
        }
        st.stopped = st.nodes >= st.node_limit
            || (st.nodes & 1023 == 0
                && (self.stop.is_raised() || st.deadline.is_some_and(|d| Instant::now() >= d)));
        st.stopped
    }

    /// Whether the position with `key` at `ply` repeats one on the path or in the game.
    /// `halfmove` counts the plies since the last capture or man move on the path.
    #[inline]
    fn is_repetition(&self, key: u64, ply: usize, halfmove: u32) -> bool {
        let st = &self.state;
        let here = st.history_len + ply;
        let reach = (halfmove as usize).min(ply);
        let mut back = 2;
        while back <= reach {
            if st.keys[here - back] == key {
                return true;
            }
            back += 2;
        }
        if (halfmove as usize) < ply {
            return false;
        }
        let (word, bit) = filter_bit(key);
        st.history_filter[word] & bit != 0 && st.keys[..st.history_len].contains(&key)
    }

    #[inline]
    fn bump(&mut self, ply: usize) {
        self.state.nodes += 1;
        if ply > self.state.seldepth {
            self.state.seldepth = ply;
        }
    }

    /// Copies `mv` followed by the child's line into the line of `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.state.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The principal-variation alpha-beta search of a node below the root.
    #[allow(clippy::too_many_arguments)]
    fn alpha_beta(
        &mut self,
        pos: &Position,
        key: u64,
        law: LawState,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        halfmove: u32,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, law, alpha, beta, ply);
        }
        self.enter_node(ply, pos);
        self.state.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        self.bump(ply);
        if let LawState::Drawn(_) = law {
            return if pos.has_legal_move(self.variant) {
                0
            } else {
                lost_at(ply)
            };
        }
        if self.is_repetition(key, ply, halfmove) {
            return 0;
        }
        if let Some(score) = self.table_score(pos, law, ply) {
            return score;
        }
        // Mate-distance pruning: nothing here beats a win found nearer the root.
        alpha = alpha.max(lost_at(ply));
        beta = beta.min(-lost_at(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;

        let tt_key = key ^ law.key_mix(pos);
        let mut hash_move = NO_MOVE;
        if let Some(entry) = self.tt.probe(tt_key) {
            hash_move = entry.mv();
            if !pv_node && entry.depth() >= depth {
                let s = Score::from_tt(entry.score(), ply).0;
                match entry.bound() {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        #[cfg(feature = "search-ideas")]
        if let Some(s) = self.probcut(pos, key, law, depth, beta, ply, halfmove, pv_node) {
            return s;
        }

        let alpha_start = alpha;
        let mut best = -INFINITY;
        // Law 3: the lone side may claim instead of playing on. The claim is no move, so the
        // position after it is searched at this ply (distances stay exact), but a ply
        // shallower, as deep as a move's reply: at the same depth it would cost as much as
        // the node itself at every lone-king node of a line. The node is worth the better of
        // the claim and the moves, and that is what the table stores. Searched before the
        // moves are generated: its search reuses this ply's move list.
        if let Some(crowned) = self.claim(pos) {
            if !pos.has_legal_move(self.variant) {
                return lost_at(ply);
            }
            let s = self.alpha_beta(
                &crowned,
                crowned.hash_key(),
                LawState::Count(0),
                depth - 1,
                alpha,
                beta,
                ply,
                0,
            );
            if self.state.stopped {
                return 0;
            }
            // The line ends at the claim (its moves are not this position's).
            self.state.pv[ply].clear();
            best = s;
            if s >= beta {
                self.tt
                    .store(tt_key, depth, Bound::Lower, Score(s).to_tt(ply), NO_MOVE);
                return s;
            }
            alpha = alpha.max(s);
        }

        pos.generate_moves(self.variant, &mut self.state.lists[ply]);
        let n = self.state.lists[ply].len();
        if n == 0 {
            return lost_at(ply);
        }
        let new_depth = depth - 1 + extension(n);
        let mover = pos.turn();
        let previous = self.state.played[ply - 1];
        let counter = self.order.counter(mover, previous);
        {
            let st = &mut self.state;
            self.order.score_moves(
                pos,
                &st.lists[ply],
                hash_move,
                counter,
                ply,
                &mut st.scores[ply][..n],
            );
        }
        let captures = self.state.lists[ply][0].is_capture();
        let mut best_move = NO_MOVE;

        for i in 0..n {
            {
                let st = &mut self.state;
                pick(&mut st.lists[ply][..n], &mut st.scores[ply][..n], i);
            }
            let mv = self.state.lists[ply][i];
            let child = pos.play(&mv);
            let child_key = key_after(pos, key, &mv);
            let child_law = law.after_move(&self.laws, pos, &child, mv.is_capture());
            if new_depth > 0 {
                self.tt.prefetch(child_key ^ child_law.key_mix(&child));
            }
            let irreversible = mv.is_capture() || pos.men(mover).contains(mv.from());
            let child_half = if irreversible { 0 } else { halfmove + 1 };
            self.state.keys.push(child_key);
            self.state.played[ply] = MoveKey::of(&mv);
            let search = |engine: &mut Engine, depth: i32, a: i32, b: i32| {
                -engine.alpha_beta(
                    &child,
                    child_key,
                    child_law,
                    depth,
                    -b,
                    -a,
                    ply + 1,
                    child_half,
                )
            };
            let score = if i == 0 {
                // The hash move, when legal, comes first (it orders above everything).
                search(self, new_depth, alpha, beta)
            } else {
                let quiet = !captures
                    && !mv.promotes()
                    && !self.order.is_killer(&mv, ply)
                    && !counter.is(&mv);
                let r = if self.config.lmr != 0 && quiet {
                    reduction(depth, new_depth, i, pv_node)
                } else {
                    0
                };
                let mut s = search(self, new_depth - r, alpha, alpha + 1);
                if s > alpha && r > 0 {
                    s = search(self, new_depth, alpha, alpha + 1);
                }
                if s > alpha && s < beta {
                    s = search(self, new_depth, alpha, beta);
                }
                s
            };
            self.state.keys.pop();
            if self.state.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = MoveKey::of(&mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !mv.is_capture() {
                            self.order.cutoff(
                                pos,
                                &mv,
                                &self.state.lists[ply][..i],
                                ply,
                                depth,
                                previous,
                            );
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(tt_key, depth, bound, Score(best).to_tt(ply), best_move);
        best
    }

    /// ProbCut (a live idea, `Config::probcut`): outside PV nodes, a shallower search that
    /// beats beta by a margin predicts a cut-off (no null move: draughts is full of
    /// zugzwang). The cut-off's score, or `None` to search the node.
    #[cfg(feature = "search-ideas")]
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position,
        key: u64,
        law: LawState,
        depth: i32,
        beta: i32,
        ply: usize,
        halfmove: u32,
        pv_node: bool,
    ) -> Option<i32> {
        if self.config.probcut == 0 || pv_node || depth < self.config.probcut_depth {
            return None;
        }
        let margin = self.config.probcut * depth;
        let raised = beta + margin;
        if raised.abs() >= PROVEN_BOUND {
            return None;
        }
        let shallow = (depth * self.config.probcut_keep / 100).max(1);
        let s = self.alpha_beta(pos, key, law, shallow, raised - 1, raised, ply, halfmove);
        if self.state.stopped {
            return Some(0);
        }
        if s >= raised {
            return Some(s - margin);
        }
        self.state.pv[ply].clear();
        None
    }

    /// Capture sequences to the end; a quiet position is evaluated.
    fn quiescence(
        &mut self,
        pos: &Position,
        law: LawState,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.enter_node(ply, pos);
        self.state.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        self.bump(ply);
        if let LawState::Drawn(_) = law {
            return if pos.has_legal_move(self.variant) {
                0
            } else {
                lost_at(ply)
            };
        }
        if let Some(score) = self.table_score(pos, law, ply) {
            return score;
        }
        if let Some(crowned) = self.claim(pos) {
            // Law 3, as in `alpha_beta`: the better of the claim and playing on.
            if !pos.has_legal_move(self.variant) {
                return lost_at(ply);
            }
            let claimed = self.quiescence(&crowned, LawState::Count(0), alpha, beta, ply);
            if self.state.stopped {
                return 0;
            }
            self.state.pv[ply].clear();
            if claimed >= beta {
                return claimed;
            }
            let on = self.quiet_or_captures(pos, law, alpha.max(claimed), beta, ply);
            if on > claimed {
                return on;
            }
            self.state.pv[ply].clear();
            return claimed;
        }
        self.quiet_or_captures(pos, law, alpha, beta, ply)
    }

    /// Quiescence below its checks: a quiet position evaluated, captures searched.
    fn quiet_or_captures(
        &mut self,
        pos: &Position,
        law: LawState,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if ply >= MAX_PLY - 1 || !pos.has_capture(self.variant) {
            // At the ply cap has_capture was not asked: only there may a capture exist.
            let stuck = if ply >= MAX_PLY - 1 {
                !pos.has_legal_move(self.variant)
            } else {
                !pos.has_quiet_move()
            };
            if stuck {
                return lost_at(ply);
            }
            return self.static_eval(pos, law, ply);
        }
        self.captures(pos, law, alpha, beta, ply)
    }

    /// The captures of `pos` (its only moves: capture is compulsory), each answered by
    /// quiescence.
    fn captures(
        &mut self,
        pos: &Position,
        law: LawState,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        pos.generate_moves(self.variant, &mut self.state.lists[ply]);
        let n = self.state.lists[ply].len();
        {
            let st = &mut self.state;
            self.order.score_moves(
                pos,
                &st.lists[ply],
                NO_MOVE,
                NO_MOVE,
                ply,
                &mut st.scores[ply][..n],
            );
        }
        let mut best = -INFINITY;
        for i in 0..n {
            {
                let st = &mut self.state;
                pick(&mut st.lists[ply], &mut st.scores[ply][..n], i);
            }
            let mv = self.state.lists[ply][i];
            let child = pos.play(&mv);
            let child_law = law.after_move(&self.laws, pos, &child, mv.is_capture());
            let score = -self.quiescence(&child, child_law, -beta, -alpha, ply + 1);
            if self.state.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// How many plies shallower the `i`-th move (from 0) of a node is searched, when it is
/// quiet (no capture, no crowning, not a killer or the counter-move), as Scan's `reduce`: at
/// depth 2 or more, one ply from the 2nd move (the 4th at PV nodes), two from the 5th
/// outside PV nodes where that leaves more than a ply. A reduced move that beats alpha is
/// searched again at full depth.
#[inline]
fn reduction(depth: i32, new_depth: i32, i: usize, pv_node: bool) -> i32 {
    let first_reduced = if pv_node { 3 } else { 1 };
    if depth < 2 || i < first_reduced {
        return 0;
    }
    1 + i32::from(!pv_node && i >= 4 && new_depth > 2)
}

/// How many plies deeper the moves of a node with `moves` legal moves are searched, as
/// Scan's `extend`: one for a single legal move (usually a forced capture).
#[inline]
fn extension(moves: usize) -> i32 {
    i32::from(moves == 1)
}
