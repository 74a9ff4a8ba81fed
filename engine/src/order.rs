//! Move ordering: the hash move first, then captures by what they take, crowning moves,
//! the two killer moves of the ply, the counter-move (the quiet move that last refuted the
//! opponent's previous move), and the rest by their history score, kept apart for men and
//! kings (a king's move from a to b has nothing to do with a man's).

use super::tt::MoveKey;
use drafti_rules::{Color, Move, Position};

/// Plies the killer table covers (the search never goes deeper).
pub(crate) const MAX_PLY: usize = 128;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
const COUNTER: i32 = 1 << 25;
/// History scores stay below this (halved when one reaches it).
const HISTORY_CAP: i32 = 1 << 20;

/// Killers and history: what caused cut-offs earlier in this search.
pub(crate) struct Order {
    killers: Vec<[MoveKey; 2]>,
    history: Vec<i32>,
    /// By the side to move and the opponent's previous move (from, to).
    counters: Vec<MoveKey>,
    /// Whether history is kept apart for men and kings.
    by_piece: bool,
    /// Whether counter-moves are used.
    use_counters: bool,
}

impl Order {
    pub fn new(by_piece: bool, use_counters: bool) -> Order {
        Order {
            killers: vec![[MoveKey::default(); 2]; MAX_PLY + 1],
            history: vec![0; 2 * 2 * 32 * 32],
            counters: vec![MoveKey::default(); 2 * 32 * 32],
            by_piece,
            use_counters,
        }
    }

    /// Forgets everything (each search starts afresh, for determinism).
    pub fn clear(&mut self) {
        self.killers.fill([MoveKey::default(); 2]);
        self.history.fill(0);
        self.counters.fill(MoveKey::default());
    }

    #[inline]
    fn history_index(&self, pos: &Position, mv: &Move) -> usize {
        let color = pos.turn();
        let king = self.by_piece && pos.kings(color).contains(mv.from());
        (color as usize) * 2048
            + usize::from(king) * 1024
            + (mv.from().index() as usize) * 32
            + mv.to().index() as usize
    }

    #[inline]
    fn counter_index(color: Color, previous: MoveKey) -> usize {
        (color as usize) * 1024 + previous.from as usize * 32 + previous.to as usize
    }

    /// The counter-move to `previous` for `color` (none when counters are off or there was
    /// no previous move).
    #[inline]
    pub fn counter(&self, color: Color, previous: MoveKey) -> MoveKey {
        if !self.use_counters || previous.is_none() {
            return MoveKey::default();
        }
        self.counters[Order::counter_index(color, previous)]
    }

    /// Ordering scores of `moves` (higher first).
    pub fn score_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        hash_move: MoveKey,
        counter: MoveKey,
        ply: usize,
        scores: &mut [i32],
    ) {
        let killers = self.killers[ply.min(MAX_PLY)];
        let enemy_kings = pos.kings(pos.turn().other()).0;
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            *score = if hash_move.is(mv) {
                HASH_MOVE
            } else if mv.is_capture() {
                let taken = mv.captured().0;
                CAPTURE
                    + 16 * (taken.count_ones() as i32
                        + 2 * (taken & enemy_kings).count_ones() as i32)
                    + i32::from(mv.promotes())
            } else if mv.promotes() {
                PROMOTION
            } else if killers[0].is(mv) {
                KILLER + 1
            } else if killers[1].is(mv) {
                KILLER
            } else if !counter.is_none() && counter.is(mv) {
                COUNTER
            } else {
                self.history[self.history_index(pos, mv)]
            };
        }
    }

    /// Whether `mv` is a killer at `ply` (killers are not reduced).
    #[inline]
    pub fn is_killer(&self, mv: &Move, ply: usize) -> bool {
        let k = &self.killers[ply.min(MAX_PLY)];
        k[0].is(mv) || k[1].is(mv)
    }

    /// A quiet move of `pos` caused a cut-off at `ply` with `depth` plies left, in answer to
    /// the opponent's `previous` move; `tried` are the quiet moves searched before it.
    pub fn cutoff(
        &mut self,
        pos: &Position,
        mv: &Move,
        tried: &[Move],
        ply: usize,
        depth: i32,
        previous: MoveKey,
    ) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if !k[0].is(mv) {
            k[1] = k[0];
            k[0] = MoveKey::of(mv);
        }
        if self.use_counters && !previous.is_none() {
            self.counters[Order::counter_index(pos.turn(), previous)] = MoveKey::of(mv);
        }
        let bonus = depth * depth;
        let i = self.history_index(pos, mv);
        self.history[i] += bonus;
        for other in tried {
            let j = self.history_index(pos, other);
            self.history[j] = (self.history[j] - bonus).max(-HISTORY_CAP);
        }
        if self.history[i] >= HISTORY_CAP {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }
}

/// Moves the best-scored remaining move to position `i` (selection sort, one step at a time:
/// most nodes cut off after a move or two).
#[inline]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    // The best score kept in a register and no bounds check per step: this loop runs at
    // every node.
    let mut best = i;
    let mut best_score = scores[i];
    debug_assert_eq!(moves.len(), scores.len());
    for (j, &score) in scores.iter().enumerate().skip(i + 1) {
        if score > best_score {
            best = j;
            best_score = score;
        }
    }
    if best != i {
        moves.swap(i, best);
        scores.swap(i, best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_rules::Variant;

    const NO_MOVE_KEY: MoveKey = MoveKey {
        from: 0,
        to: 0,
        captured: 0,
    };

    #[test]
    fn hash_move_then_killers_then_history() {
        let pos = Position::start(Color::White);
        let mut moves = pos.legal_moves(Variant::Tanzanian);
        let mut order = Order::new(true, true);
        let (hash, killer, good) = (moves[3], moves[5], moves[1]);
        order.cutoff(&pos, &killer, &[], 2, 1, NO_MOVE_KEY);
        order.cutoff(&pos, &good, &[], 7, 6, NO_MOVE_KEY);
        let mut scores = vec![0; moves.len()];
        order.score_moves(
            &pos,
            &moves,
            MoveKey::of(&hash),
            NO_MOVE_KEY,
            2,
            &mut scores,
        );
        for i in 0..moves.len() {
            pick(&mut moves, &mut scores, i);
        }
        assert_eq!(moves[0], hash);
        assert_eq!(moves[1], killer);
        assert_eq!(moves[2], good);
    }

    #[test]
    fn counter_moves_follow_the_previous_move() {
        let pos = Position::start(Color::Black);
        let moves = pos.legal_moves(Variant::Tanzanian);
        let previous = MoveKey {
            from: 21,
            to: 17,
            captured: 0,
        };
        let mut order = Order::new(true, true);
        order.cutoff(&pos, &moves[2], &[], 9, 3, previous);
        assert!(order.counter(Color::Black, previous).is(&moves[2]));
        assert!(order.counter(Color::White, previous).is_none());
        let off = Order::new(true, false);
        assert!(off.counter(Color::Black, previous).is_none());
    }
}
