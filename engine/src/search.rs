//! The search: iterative deepening over a principal-variation alpha-beta search.
//!
//! - **Root**: the moves of the last iteration in score order; the first `multipv` get a full
//!   window (exact scores and lines), the rest a null window around the `multipv`-th best
//!   score, re-searched when they beat it.
//! - **Inner nodes**: draw laws (see `laws`), repetition of a position earlier on the path
//!   or in the game (a draw), mate-distance pruning, the transposition table (cut-offs
//!   outside the principal variation only, so proven lines come out whole), ordered moves
//!   (hash move, captures by what they take, crowning, killers, history), principal variation
//!   search with a one-ply late-move reduction for quiet moves that give nothing away, and a
//!   one-ply extension when there is a single legal move (a forced capture, usually). Off in
//!   the shipped engine (`Config`): ProbCut, and Scan's singular extension at PV nodes.
//! - **Quiescence**: at depth 0 a side that must capture goes on capturing (every capture, as
//!   the rules force one); a side without a capture is evaluated, or loses if it has no move.
//!   Off in the shipped engine: one ply more for a quiet position under a capture threat
//!   (`qs-threat`), and a kingless quiet position's moves that give a capture (`qs-sacrifice`),
//!   once per line between them.
//! - **Limits**: node counts are checked at every node, the clock (with a movetime) and the
//!   stop flag every 1024 nodes; an interrupted iteration is thrown away. Depth 1 always
//!   completes.

use super::laws::{law3_claim, LawState};
use super::order::{pick, MAX_PLY};
use super::score::{Score, INFINITY, PROVEN_BOUND, WIN};
use super::tt::{Bound, MoveKey, NO_MOVE};
use super::{DepthInfo, Engine, Limits, RootLine, SearchResult, DEFAULT_DEPTH, MAX_DEPTH};
use drafti_rules::zobrist::{piece_key, BLACK_TO_MOVE};
use drafti_rules::{Color, Move, MoveList, Outcome, Position, MOVE_LIST_CAPACITY};
use std::time::Instant;

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
    /// Late-move reductions by depth and move number (`lmr = 2`).
    reductions: Vec<[i8; 64]>,
    /// The divisor the reductions were computed with.
    reductions_divisor: i32,
    /// The move the next `alpha_beta` call leaves out: the singular extension's test
    /// search (`Config::singular`) sets it, the call takes it at once (`NO_MOVE` otherwise).
    excluded: MoveKey,
}

/// The singular extension (`Config::singular`, Scan's numbers): the least depth of a PV
/// node tested, how much shallower the test search is (and the hash entry may be), and the
/// margin below the hash score the other moves must stay under (hundredths of a man).
const SINGULAR_DEPTH: i32 = 8;
const SINGULAR_REDUCTION: i32 = 4;
const SINGULAR_MARGIN: i32 = 40;

/// Mixed into the table key of a singular test search, so that its result (the node
/// without `excluded`) is not taken for the node's.
#[inline]
fn excluded_key(excluded: MoveKey) -> u64 {
    let bits =
        u64::from(excluded.from) | u64::from(excluded.to) << 8 | u64::from(excluded.captured) << 16;
    (bits + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// Depths the reduction table covers (deeper ones use its last row).
const LMR_DEPTHS: usize = 64;

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
            reductions: Vec::new(),
            reductions_divisor: 0,
            excluded: NO_MOVE,
        }
    }

    /// Makes the reduction table for `divisor` (hundredths), if not made already.
    fn prepare_reductions(&mut self, divisor: i32) {
        if self.reductions_divisor == divisor {
            return;
        }
        self.reductions = (0..LMR_DEPTHS)
            .map(|d| {
                let mut row = [0i8; 64];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        let v = (d as f64).ln() * (i as f64).ln() * 100.0 / f64::from(divisor);
                        *r = v.clamp(0.0, 30.0) as i8;
                    }
                }
                row
            })
            .collect();
        self.reductions_divisor = divisor;
    }
}

/// The bit of `key` in the history filter.
#[inline]
fn filter_bit(key: u64) -> (usize, u64) {
    let b = (key >> 40) as usize & 1023;
    (b >> 6, 1u64 << (b & 63))
}

/// How an iteration at the root came out against its aspiration window.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Window {
    /// The best score is inside the window (exact).
    Inside,
    /// Every move scored at most the window's low end.
    FailLow,
    /// A move scored at least the window's high end (it is now first).
    FailHigh,
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
            st.prepare_reductions(self.config.lmr_divisor);
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

        let law = LawState::at_root(&self.laws, pos, limits.king_count);
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

        for depth in 1..=max_depth {
            self.state.can_stop = depth > 1;
            // An aspiration window around the last score (one line, not a proven score),
            // widened on each side that fails.
            let last = root[0].score;
            let mut delta = self.config.aspiration;
            let aspire = delta > 0 && multipv == 1 && depth >= 4 && last.abs() < PROVEN_BOUND;
            let (mut alpha, mut beta) = if aspire {
                (last - delta, last + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let mut interrupted = None;
            let mut changed = false;
            loop {
                let mut iteration = root.clone();
                self.state.root_changed = false;
                let window = self.search_root(
                    pos,
                    root_key,
                    law,
                    depth as i32,
                    &mut iteration,
                    multipv,
                    alpha,
                    beta,
                );
                if self.state.stopped {
                    if self.state.root_changed {
                        interrupted = Some(iteration);
                    } else if changed {
                        interrupted = Some(root.clone());
                    }
                    break;
                }
                changed |= self.state.root_changed;
                delta = delta.saturating_mul(2);
                match window {
                    Window::Inside => {
                        root = iteration;
                        break;
                    }
                    Window::FailLow => {
                        alpha = if delta > 400 {
                            -INFINITY
                        } else {
                            (alpha - delta).max(-INFINITY)
                        };
                    }
                    Window::FailHigh => {
                        // Keep the move that failed high first for the re-search.
                        root = iteration;
                        beta = if delta > 400 {
                            INFINITY
                        } else {
                            (beta + delta).min(INFINITY)
                        };
                    }
                }
            }
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
            let out_of_nodes = self.state.nodes >= self.state.node_limit;
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

    /// One iteration at the root within the window `(alpha, beta)` (the full window with
    /// multipv); `moves` come back best first (exact scores first).
    #[allow(clippy::too_many_arguments)]
    fn search_root(
        &mut self,
        pos: &Position,
        key: u64,
        law: LawState,
        depth: i32,
        moves: &mut [RootMove],
        multipv: usize,
        alpha: i32,
        beta: i32,
    ) -> Window {
        let mover = pos.turn();
        self.state.nodes += 1;
        self.state.played[0] = NO_MOVE;
        for i in 0..moves.len() {
            let mv = moves[i].mv;
            let child = pos.play(&mv);
            let child_key = key_after(pos, key, &mv);
            let child_law = law.after(&self.laws, &child, mover);
            let irreversible = mv.is_capture() || pos.men(mover).contains(mv.from());
            let half = u32::from(!irreversible);
            self.state.keys.push(child_key);
            self.state.played[0] = MoveKey::of(&mv);
            let search = |engine: &mut Engine, a: i32, b: i32| {
                -engine.alpha_beta(&child, child_key, child_law, depth - 1, -b, -a, 1, half)
            };
            let (score, exact) = if i < multipv {
                // The first move with the window, or every one of the multipv best in full.
                let s = search(self, alpha, beta);
                (s, s > alpha && s < beta)
            } else {
                let floor = moves[multipv - 1].score.max(alpha);
                let mut s = search(self, floor, floor + 1);
                if s > floor && !self.state.stopped {
                    s = search(self, floor, beta);
                }
                (s, s > floor && s < beta)
            };
            self.state.keys.pop();
            if self.state.stopped {
                return Window::Inside;
            }
            if score >= beta {
                moves[i].score = score;
                moves[i].exact = false;
                moves[i].pv = vec![mv];
                moves[..=i].rotate_right(1);
                self.state.root_changed |= i > 0;
                return Window::FailHigh;
            }
            if i == 0 && score <= alpha {
                return Window::FailLow;
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
        Window::Inside
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
        // The singular extension's test search: this node without one move (taken at once,
        // so that no other call sees it).
        let excluded = if self.config.singular != 0 {
            std::mem::replace(&mut self.state.excluded, NO_MOVE)
        } else {
            NO_MOVE
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, law, alpha, beta, ply, true);
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

        let mut tt_key = key ^ law.key_mix();
        if !excluded.is_none() {
            tt_key ^= excluded_key(excluded);
        }
        let mut hash_move = NO_MOVE;
        // The hash score, where the singular extension is to test the hash move.
        let mut singular_score = None;
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
            if self.config.singular != 0
                && pv_node
                && depth >= SINGULAR_DEPTH
                && !hash_move.is_none()
                && entry.bound() != Bound::Upper
                && entry.depth() >= depth - SINGULAR_REDUCTION
            {
                let s = Score::from_tt(entry.score(), ply).0;
                if s.abs() < PROVEN_BOUND {
                    singular_score = Some(s);
                }
            }
        }

        // ProbCut: a shallower search that beats beta by a margin predicts a cut-off (no
        // null move: draughts is full of zugzwang).
        if self.config.probcut > 0 && !pv_node && depth >= self.config.probcut_depth {
            let margin = self.config.probcut * depth;
            let raised = beta + margin;
            if raised.abs() < PROVEN_BOUND {
                let shallow = (depth * self.config.probcut_keep / 100).max(1);
                // In a singular test search the prediction is of the node without its
                // left-out move too (Scan's ProbCut forgets it).
                self.state.excluded = excluded;
                let s = self.alpha_beta(pos, key, law, shallow, raised - 1, raised, ply, halfmove);
                if self.state.stopped {
                    return 0;
                }
                if s >= raised {
                    return s - margin;
                }
                self.state.pv[ply].clear();
            }
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

        // Singular extension: if every other move (and the claim) stays below the hash
        // score by a margin in a shallower null-window search of this node, the hash move is
        // searched a ply deeper. Searched before the moves are generated: the test search
        // reuses this ply's move list and line.
        let mut singular = false;
        if let Some(hash_score) = singular_score {
            let floor = hash_score - SINGULAR_MARGIN;
            self.state.excluded = hash_move;
            let s = self.alpha_beta(
                pos,
                key,
                law,
                depth - SINGULAR_REDUCTION,
                floor,
                floor + 1,
                ply,
                halfmove,
            );
            if self.state.stopped {
                return 0;
            }
            self.state.pv[ply].clear();
            singular = s <= floor;
        }

        pos.generate_moves(self.variant, &mut self.state.lists[ply]);
        let mut n = self.state.lists[ply].len();
        if n == 0 {
            return lost_at(ply);
        }
        // A single legal move is extended (Scan's `ext`: then no singular extension too).
        let new_depth = depth - 1 + i32::from(n == 1);
        let extend_hash_move = singular && n > 1;
        if !excluded.is_none() {
            // The singular test search: the left-out move goes to the end of the list, past
            // the moves searched.
            let list = &mut self.state.lists[ply];
            if let Some(j) = list.iter().position(|m| excluded.is(m)) {
                list.swap(j, n - 1);
                n -= 1;
            }
            if n == 0 {
                // No other move: each of them (none) fails low.
                return alpha_start;
            }
        }
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
            let child_law = law.after(&self.laws, &child, mover);
            let irreversible = mv.is_capture() || pos.men(mover).contains(mv.from());
            let child_half = if irreversible { 0 } else { halfmove + 1 };
            self.state.keys.push(child_key);
            self.state.played[ply] = MoveKey::of(&mv);
            let score = if i == 0 {
                // The hash move, when legal, comes first (it orders above everything).
                let extension = i32::from(extend_hash_move && hash_move.is(&mv));
                -self.alpha_beta(
                    &child,
                    child_key,
                    child_law,
                    new_depth + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                    child_half,
                )
            } else {
                let quiet = !captures
                    && !mv.promotes()
                    && !self.order.is_killer(&mv, ply)
                    && !counter.is(&mv);
                let r = match self.config.lmr {
                    1 if depth >= 3 && i >= 3 && quiet && !child.has_capture(self.variant) => 1,
                    3 if depth >= 2 && i >= if pv_node { 3 } else { 1 } && quiet => {
                        1 + i32::from(!pv_node && i >= 4 && new_depth > 2)
                    }
                    2 if depth >= 3 && i >= 2 && quiet => {
                        let row = &self.state.reductions[(depth as usize).min(LMR_DEPTHS - 1)];
                        let mut r = i32::from(row[i.min(63)]);
                        if pv_node {
                            r -= 1;
                        }
                        if child.has_capture(self.variant) {
                            r -= 1;
                        }
                        r.clamp(0, new_depth - 1)
                    }
                    _ => 0,
                };
                let mut s = -self.alpha_beta(
                    &child,
                    child_key,
                    child_law,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_half,
                );
                if s > alpha && r > 0 {
                    s = -self.alpha_beta(
                        &child,
                        child_key,
                        child_law,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_half,
                    );
                }
                if s > alpha && s < beta {
                    s = -self.alpha_beta(
                        &child,
                        child_key,
                        child_law,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        child_half,
                    );
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
                        // A singular test search teaches the ordering nothing (as in Scan).
                        if !mv.is_capture() && excluded.is_none() {
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

    /// Capture sequences to the end; a quiet position is evaluated. `quiet_allowed`: the
    /// line may still search a quiet position's moves, once (`qs-threat`'s ply or
    /// `qs-sacrifice`'s moves, whichever comes first; both off in the shipped engine).
    fn quiescence(
        &mut self,
        pos: &Position,
        law: LawState,
        alpha: i32,
        beta: i32,
        ply: usize,
        quiet_allowed: bool,
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
            let claimed = self.quiescence(
                &crowned,
                LawState::Count(0),
                alpha,
                beta,
                ply,
                quiet_allowed,
            );
            if self.state.stopped {
                return 0;
            }
            self.state.pv[ply].clear();
            if claimed >= beta {
                return claimed;
            }
            let on = self.quiet_or_captures(pos, law, alpha.max(claimed), beta, ply, quiet_allowed);
            if on > claimed {
                return on;
            }
            self.state.pv[ply].clear();
            return claimed;
        }
        self.quiet_or_captures(pos, law, alpha, beta, ply, quiet_allowed)
    }

    /// Quiescence below its checks: a quiet position evaluated (or searched a ply when
    /// threatened, or its sacrifices tried), captures searched.
    fn quiet_or_captures(
        &mut self,
        pos: &Position,
        law: LawState,
        alpha: i32,
        beta: i32,
        ply: usize,
        quiet_allowed: bool,
    ) -> i32 {
        if ply >= MAX_PLY - 1 || !pos.has_capture(self.variant) {
            if !pos.has_legal_move(self.variant) {
                return lost_at(ply);
            }
            // A threat (the opponent would capture if it were its move): one ply more, once
            // per quiescence line.
            if self.config.qs_threat != 0
                && quiet_allowed
                && ply < MAX_PLY - 2
                && pos.with_turn(pos.turn().other()).has_capture(self.variant)
            {
                // Every move, each answered by quiescence without a further threat
                // extension (the side to move cannot pass: no stand-pat).
                return self.every_move(pos, law, alpha, beta, ply, false);
            }
            let stand_pat = self.static_eval(pos, law, ply);
            if self.config.qs_sacrifice != 0
                && quiet_allowed
                && stand_pat < beta
                && ply < MAX_PLY - 2
                && pos.kings(Color::White).0 | pos.kings(Color::Black).0 == 0
                && !pos.with_turn(pos.turn().other()).has_capture(self.variant)
            {
                return self.sacrifices(pos, law, alpha, beta, ply, stand_pat);
            }
            return stand_pat;
        }
        self.every_move(pos, law, alpha, beta, ply, quiet_allowed)
    }

    /// A quiet position without kings (`Config::qs_sacrifice`): the better of `stand_pat`
    /// and the moves after which the opponent must capture, each answered by quiescence
    /// with the line's quiet budget spent.
    fn sacrifices(
        &mut self,
        pos: &Position,
        law: LawState,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stand_pat: i32,
    ) -> i32 {
        let mut best = stand_pat;
        alpha = alpha.max(stand_pat);
        pos.generate_moves(self.variant, &mut self.state.lists[ply]);
        let n = self.state.lists[ply].len();
        let mover = pos.turn();
        for i in 0..n {
            let mv = self.state.lists[ply][i];
            let child = pos.play(&mv);
            if !child.has_capture(self.variant) {
                continue;
            }
            let child_law = law.after(&self.laws, &child, mover);
            let score = -self.quiescence(&child, child_law, -beta, -alpha, ply + 1, false);
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

    /// Every move of `pos`, each answered by quiescence (`quiet_allowed` passed on).
    fn every_move(
        &mut self,
        pos: &Position,
        law: LawState,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiet_allowed: bool,
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
        let mover = pos.turn();
        let mut best = -INFINITY;
        for i in 0..n {
            {
                let st = &mut self.state;
                pick(&mut st.lists[ply], &mut st.scores[ply][..n], i);
            }
            let mv = self.state.lists[ply][i];
            let child = pos.play(&mv);
            let child_law = law.after(&self.laws, &child, mover);
            let score = -self.quiescence(&child, child_law, -beta, -alpha, ply + 1, quiet_allowed);
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
