//! The solver's side of a puzzle: is there one winning move here, and where does the line
//! it starts end?
//!
//! A solver move is **unique** when a multipv search finds a best move that wins (a proven
//! win, or at least [`WINNING`]) and the best move that is not the same capture (see
//! [`equivalent`]) is clearly worse: not a proven win, at most [`SECOND_MAX`] and at least
//! [`GAP`] below the best. The line alternates such solver moves with the opponent's best
//! defence (a search; a forced reply needs none) and ends where the gain is **realised**: no
//! capture is pending and the solver is a man (or more) up on the reference, or the opponent
//! has no move left.
//!
//! **Endgame tables**, when the engine has them: a position they hold is judged by them, not
//! searched. The solver's move is unique when exactly one move (up to landing squares) is a
//! table win; the opponent's reply is the table's best defence (the slowest loss); and a
//! gain is realised in a held position only where the table says the solver wins (a man up
//! in a drawn ending is no gain). The searches probe the tables too.

use super::themes::runaways;
use super::Failure;
use drafti_engine::egtb::{Tables, Value};
use drafti_engine::{DepthInfo, Engine, Limits, RootLine, Score, KING, MAN};
use drafti_rules::{Color, Move, Position, Variant};

/// A solver move must score at least this (hundredths of a man), unless it is a proven win.
pub const WINNING: i32 = 80;
/// The best other move may score at most this…
pub const SECOND_MAX: i32 = 60;
/// …and must be at least this much below the best move.
pub const GAP: i32 = 100;
/// The gain that is realised: the solver a man (or the value of one) up on the reference.
pub const REALISED: i32 = MAN;

/// The material of `color` in hundredths of a man (a king is [`KING`]).
pub fn material(pos: &Position, color: Color) -> i32 {
    pos.men(color).count() as i32 * MAN + pos.kings(color).count() as i32 * KING
}

/// `color`'s material minus the other side's.
pub fn balance(pos: &Position, color: Color) -> i32 {
    material(pos, color) - material(pos, color.other())
}

/// Two captures that start on the same square and take the same pieces: they differ only in
/// where a flying king lands at the end, so a puzzle does not tell them apart.
pub fn equivalent(a: &Move, b: &Move) -> bool {
    a.same_move(b) || (a.is_capture() && a.from() == b.from() && a.captured() == b.captured())
}

/// Whether a score wins for the side it belongs to.
pub fn winning(score: Score) -> bool {
    score.win_distance().is_some() || score.as_centi_men().is_some_and(|c| c >= WINNING)
}

/// Whether `second` is clearly worse than a winning `best`.
pub fn clearly_worse(best: Score, second: Score) -> bool {
    if second.loss_distance().is_some() {
        return true;
    }
    let Some(second) = second.as_centi_men() else {
        return false; // a second proven win
    };
    second <= SECOND_MAX && best.as_centi_men().is_none_or(|b| second <= b - GAP)
}

/// What a search found at a solver move.
#[derive(Clone, Debug)]
pub struct SolverMove {
    /// The winning move.
    pub mv: Move,
    /// Its score.
    pub score: Score,
    /// The best other move's score (`None` when every legal move is equivalent to `mv`).
    pub second: Option<Score>,
    /// The first iteration from which the search kept `mv` (or an equivalent) as its
    /// winning best move to the end: the depth the move needs.
    pub depth_needed: u32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Judged by the endgame tables: the score is exact, the move the only table win.
    pub exact: bool,
}

/// The verdict on a solver's position.
#[derive(Clone, Debug)]
pub enum Judged {
    /// One move wins and every other is clearly worse.
    Unique(SolverMove),
    /// The best move does not win.
    NotWinning(Score),
    /// Another move also wins (or is not clearly worse): the best move and that score.
    Ambiguous(SolverMove),
}

/// The search limits of one puzzle search: `nodes` nodes, depth capped so a search of a
/// bare king ending cannot run away.
pub fn limits(nodes: u64, multipv: usize) -> Limits {
    Limits {
        depth: Some(MAX_PUZZLE_DEPTH),
        nodes: Some(nodes),
        multipv,
        ..Limits::default()
    }
}

/// The deepest iteration a puzzle search goes to.
pub const MAX_PUZZLE_DEPTH: u32 = 40;

/// Judges the solver's position `pos` (two or more legal moves) with searches of `nodes`
/// nodes; `history` holds the keys of the line's earlier positions.
pub fn judge_solver(engine: &mut Engine, pos: &Position, history: &[u64], nodes: u64) -> Judged {
    if let Some(moves) = table_moves(engine.tables(), pos) {
        return judge_by_table(engine, pos, history, nodes, &moves);
    }
    judge_by_search(engine, pos, history, nodes)
}

/// The tables' value of `pos` for the side to move, when they hold it. A king ending is
/// taken as just arisen (its law-2 count at the start): a line stops at its first one, which
/// the line's last capture or crowning made.
pub fn table_value(tables: Option<&Tables>, pos: &Position) -> Option<Value> {
    let tables = tables?;
    if pos.occupied().count() > tables.max_pieces() {
        return None;
    }
    tables.probe(pos, None)
}

/// Every legal move of `pos` with its table value, best first, when the tables hold every
/// position after them; not in a king ending (the draw laws there need the game's count).
pub fn table_moves(tables: Option<&Tables>, pos: &Position) -> Option<Vec<(Move, Value)>> {
    let tables = tables?;
    if king_ending(pos) || pos.occupied().count() > tables.max_pieces() {
        return None;
    }
    // A missing table after a move leaves the position to the search.
    tables
        .rank_moves(pos, None)
        .ok()
        .filter(|moves| !moves.is_empty())
}

/// The judgement of a position the tables hold (`moves`: [`table_moves`]): unique when
/// exactly one move (up to landing squares) wins. The depth the move needs is the engine's
/// without the tables (how deep it must look to find the win by itself).
fn judge_by_table(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    nodes: u64,
    moves: &[(Move, Value)],
) -> Judged {
    let (best, value) = moves[0];
    let second = moves
        .iter()
        .find(|(mv, _)| !equivalent(mv, &best))
        .map(|(_, v)| *v);
    let tables = engine.shared_tables();
    // Set aside and put back: they were this engine's, so putting them back cannot fail.
    let _ = engine.set_tables(None);
    let alone = search_solver(engine, pos, history, nodes);
    let _ = engine.set_tables(tables);
    let (depth_needed, depth, searched_nodes) = match &alone {
        Some(m) if equivalent(&m.mv, &best) && winning(m.score) => {
            (m.depth_needed, m.depth, m.nodes)
        }
        Some(m) => (m.depth, m.depth, m.nodes),
        None => (0, 0, 0),
    };
    let found = SolverMove {
        mv: best,
        score: value.score(),
        second: second.map(Value::score),
        depth_needed,
        depth,
        nodes: searched_nodes,
        exact: true,
    };
    match (value, second) {
        (Value::Win(_), Some(Value::Win(_))) => Judged::Ambiguous(found),
        (Value::Win(_), _) => Judged::Unique(found),
        _ => Judged::NotWinning(found.score),
    }
}

fn judge_by_search(engine: &mut Engine, pos: &Position, history: &[u64], nodes: u64) -> Judged {
    let Some(found) = search_solver(engine, pos, history, nodes) else {
        return Judged::NotWinning(Score::loss_in(0));
    };
    if !winning(found.score) {
        Judged::NotWinning(found.score)
    } else if found.second.is_none_or(|s| clearly_worse(found.score, s)) {
        Judged::Unique(found)
    } else {
        Judged::Ambiguous(found)
    }
}

/// The search's best move at a solver's position, the best other move's score and the depth
/// from which the move is found (`None` without a legal move).
fn search_solver(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    nodes: u64,
) -> Option<SolverMove> {
    let legal = pos.legal_moves(engine.variant());
    let mut iterations: Vec<(u32, Move, Score)> = Vec::new();
    let mut record = |info: &DepthInfo| {
        if let Some(l) = info.lines.first() {
            iterations.push((info.depth, l.mv, l.score));
        }
    };
    let first = engine.search(pos, &limits(nodes, 2), history, &mut record);
    let mut result = first;
    // When the runner-up is only another landing square of the same capture, look further
    // down the list for the first move that really differs.
    if let [best, second, ..] = result.lines.as_slice() {
        if equivalent(&best.mv, &second.mv) {
            let same = legal.iter().filter(|m| equivalent(m, &best.mv)).count();
            iterations.clear();
            let mut record = |info: &DepthInfo| {
                if let Some(l) = info.lines.first() {
                    iterations.push((info.depth, l.mv, l.score));
                }
            };
            result = engine.search(pos, &limits(nodes, same + 1), history, &mut record);
        }
    }
    let best = result.lines.first().cloned()?;
    let second = result
        .lines
        .iter()
        .skip(1)
        .find(|l: &&RootLine| !equivalent(&l.mv, &best.mv))
        .map(|l| l.score);
    let depth_needed = iterations
        .iter()
        .rev()
        .take_while(|(_, mv, score)| equivalent(mv, &best.mv) && winning(*score))
        .last()
        .map_or(result.depth, |(d, _, _)| *d);
    Some(SolverMove {
        mv: best.mv,
        score: best.score,
        second,
        depth_needed,
        depth: result.depth,
        nodes: result.nodes,
        exact: false,
    })
}

/// Whether the side to move must capture.
pub fn capture_pending(pos: &Position, variant: Variant) -> bool {
    pos.has_capture(variant)
}

/// Only kings, one to three of a side against one or two: the draw laws (Tanzanian) or a
/// long manoeuvre decide these endings, not a shot, so no puzzle starts or ends in one.
pub fn king_ending(pos: &Position) -> bool {
    pos.king_ending().is_some()
}

/// A solution: the unique line from the puzzle's position, and how its gain is realised.
#[derive(Clone, Debug)]
pub struct Line {
    /// Solver's move, opponent's reply, … : every solver move the one winning move.
    pub moves: Vec<Move>,
    /// When the solution stops at a solver move that has a second winning move before the
    /// gain is realised: the engine's line from there to where it is (its first move is the
    /// opponent's). Empty when the solution itself realises the gain.
    pub continuation: Vec<Move>,
    /// The judgement of the first move.
    pub first: SolverMove,
    /// Nodes searched for the line.
    pub nodes: u64,
    /// How the solution and continuation end.
    pub end: End,
}

/// How a solution ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Material won: the solver is at least [`REALISED`] up on the reference, nothing to
    /// capture.
    Material,
    /// A man through: nothing to capture, the solver has a runaway man it did not have at
    /// the start (worth a crown, `KING − MAN`, counted with the material) and is at least
    /// [`REALISED`] up on the reference that way. Not in variants where men capture
    /// backward (a man behind could still catch it).
    Runaway,
    /// The opponent has no legal move.
    NoMoveLeft,
    /// The first move is a proven win; the gain is the game (the line is unique as far as
    /// it goes).
    ProvenWin,
}

/// How the line from `start` has ended at `pos`, if it has: the opponent without a move,
/// or the gain realised (see [`End`]). `reference` is the solver's balance the gain is
/// measured from; in a position the `tables` hold, the solver must also be winning there.
pub fn realised(
    start: &Position,
    pos: &Position,
    reference: i32,
    variant: Variant,
    tables: Option<&Tables>,
) -> Option<End> {
    let solver = start.turn();
    if !pos.has_legal_move(variant) {
        return (pos.turn() != solver).then_some(End::NoMoveLeft);
    }
    if capture_pending(pos, variant) {
        return None;
    }
    // Where the tables know, only a won position realises anything.
    let solver_wins = |v| match v {
        Value::Win(_) => pos.turn() == solver,
        Value::Loss(_) => pos.turn() != solver,
        Value::Draw => false,
    };
    if table_value(tables, pos).is_some_and(|v| !solver_wins(v)) {
        return None;
    }
    let gain = balance(pos, solver) - reference;
    if gain >= REALISED {
        return Some(End::Material);
    }
    let new_runaway =
        !variant.men_capture_backward() && runaways(pos, solver) & !runaways(start, solver) != 0;
    (new_runaway && gain + KING - MAN >= REALISED).then_some(End::Runaway)
}

/// The position after `moves` from `start`, and the hash keys of every position on the way
/// (`start` first).
pub fn played(start: &Position, moves: &[Move]) -> (Position, Vec<u64>) {
    let mut pos = *start;
    let mut keys = Vec::with_capacity(moves.len() + 1);
    keys.push(pos.hash_key());
    for mv in moves {
        pos = pos.play(mv);
        keys.push(pos.hash_key());
    }
    (pos, keys)
}

/// The unique line from `start` (the solver to move), searching `nodes` nodes per position;
/// `reference` is the solver's material balance the gain is measured from. `max_plies`
/// bounds the solution and, apart, its continuation.
pub fn solve(
    engine: &mut Engine,
    start: &Position,
    reference: i32,
    nodes: u64,
    max_plies: usize,
) -> Result<Line, Failure> {
    let variant = engine.variant();
    let solver = start.turn();
    let mut keys = vec![start.hash_key()];
    let mut pos = *start;
    let mut moves: Vec<Move> = Vec::new();
    let mut total = 0u64;
    let mut first: Option<SolverMove> = None;
    loop {
        if let Some(f) = &first {
            if let Some(end) = realised(start, &pos, reference, variant, engine.tables()) {
                return Ok(Line {
                    moves,
                    continuation: Vec::new(),
                    first: f.clone(),
                    nodes: total,
                    end,
                });
            }
            if moves.len() >= max_plies || king_ending(&pos) {
                return proven_or(f, moves, total, Failure::Unrealised);
            }
        }
        let legal = pos.legal_moves(variant);
        if legal.is_empty() {
            return Err(Failure::NotWinning); // the solver without a move
        }
        let history = &keys[..keys.len() - 1];
        let mv = if pos.turn() != solver || (legal.len() == 1 && first.is_some()) {
            match reply(engine, &pos, &legal, history, nodes, &mut total) {
                Some(mv) => mv,
                None => return Err(Failure::Unrealised), // a draw law at the root
            }
        } else {
            let judged = judge_solver(engine, &pos, history, nodes);
            let searched = match (judged, &first) {
                (Judged::Unique(m), None) if m.second.is_none() => return Err(Failure::Forced),
                (Judged::Unique(m), _) => m,
                (Judged::NotWinning(_), _) => return Err(Failure::NotWinning),
                (Judged::Ambiguous(_), None) => return Err(Failure::Ambiguous),
                (Judged::Ambiguous(m), Some(f)) => {
                    // The solution stops at its last unique solver move; the engine's line
                    // from there has to realise the gain.
                    total += m.nodes;
                    let f = f.clone();
                    moves.pop();
                    return finish(engine, start, moves, f, reference, nodes, max_plies, total);
                }
            };
            total += searched.nodes;
            if first.is_none() {
                first = Some(searched.clone());
            }
            searched.mv
        };
        moves.push(mv);
        pos = pos.play(&mv);
        keys.push(pos.hash_key());
    }
}

/// The move played where the line needs no unique move: the only legal one, the tables'
/// best (for the opponent: the best defence), or the search's best.
fn reply(
    engine: &mut Engine,
    pos: &Position,
    legal: &[Move],
    history: &[u64],
    nodes: u64,
    total: &mut u64,
) -> Option<Move> {
    if legal.len() == 1 {
        return Some(legal[0]);
    }
    if let Some(moves) = table_moves(engine.tables(), pos) {
        return Some(moves[0].0);
    }
    let result = engine.search(pos, &limits(nodes, 1), history, |_| {});
    *total += result.nodes;
    result.best
}

/// The line of a solution that stops before its gain is realised: the continuation, or a
/// proven win, or `Unrealised`.
#[allow(clippy::too_many_arguments)]
pub fn finish(
    engine: &mut Engine,
    start: &Position,
    moves: Vec<Move>,
    first: SolverMove,
    reference: i32,
    nodes: u64,
    max_plies: usize,
    mut total: u64,
) -> Result<Line, Failure> {
    match continuation(
        engine, start, &moves, reference, nodes, max_plies, &mut total,
    ) {
        Some((continuation, end)) => Ok(Line {
            moves,
            continuation,
            first,
            nodes: total,
            end,
        }),
        None => proven_or(&first, moves, total, Failure::Unrealised),
    }
}

/// The engine's line after `solution` until the gain is realised, every solver move on it
/// a winning one; `None` when it is not realised within `max_plies`.
pub fn continuation(
    engine: &mut Engine,
    start: &Position,
    solution: &[Move],
    reference: i32,
    nodes: u64,
    max_plies: usize,
    total: &mut u64,
) -> Option<(Vec<Move>, End)> {
    let variant = engine.variant();
    let (mut pos, mut keys) = played(start, solution);
    let mut line = Vec::new();
    loop {
        if let Some(end) = realised(start, &pos, reference, variant, engine.tables()) {
            return Some((line, end));
        }
        if line.len() >= max_plies || king_ending(&pos) {
            return None;
        }
        let legal = pos.legal_moves(variant);
        let history = &keys[..keys.len() - 1];
        let solver_to_move = pos.turn() == start.turn();
        let mv = if legal.len() == 1 {
            legal[0]
        } else if let Some(moves) = table_moves(engine.tables(), &pos) {
            let (best, value) = moves[0];
            if solver_to_move && !matches!(value, Value::Win(_)) {
                return None;
            }
            best
        } else {
            let result = engine.search(&pos, &limits(nodes, 1), history, |_| {});
            *total += result.nodes;
            if solver_to_move && !winning(result.score) {
                return None;
            }
            result.best?
        };
        line.push(mv);
        pos = pos.play(&mv);
        keys.push(pos.hash_key());
    }
}

/// The line so far as a proven win when the first move is one, else `failure`. A proven win
/// ends on a solver move.
fn proven_or(
    first: &SolverMove,
    mut moves: Vec<Move>,
    nodes: u64,
    failure: Failure,
) -> Result<Line, Failure> {
    if first.score.win_distance().is_none() {
        return Err(failure);
    }
    if moves.len().is_multiple_of(2) {
        moves.pop();
    }
    Ok(Line {
        moves,
        continuation: Vec::new(),
        first: first.clone(),
        nodes,
        end: End::ProvenWin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_squares_of_one_capture_are_equivalent() {
        // The king on a1 takes c3 and may land anywhere from d4 to h8.
        let pos = Position::from_fen("W:WKa1:Bc3,a7").unwrap();
        let legal = pos.legal_moves(Variant::Tanzanian);
        assert_eq!(legal.len(), 5);
        assert!(equivalent(&legal[0], &legal[1]));
        let quiet = Position::from_fen("W:Wc3,e3:Bh8").unwrap();
        let moves = quiet.legal_moves(Variant::Tanzanian);
        assert!(!equivalent(&moves[0], &moves[1]));
    }

    #[test]
    fn what_counts_as_clearly_worse() {
        let cm = Score::centi_men;
        assert!(clearly_worse(cm(200), cm(40)));
        assert!(!clearly_worse(cm(200), cm(90)), "a second winning move");
        assert!(
            !clearly_worse(cm(120), cm(40)),
            "less than a man between them"
        );
        assert!(clearly_worse(Score::win_in(9), cm(60)));
        assert!(!clearly_worse(Score::win_in(9), Score::win_in(15)));
        assert!(clearly_worse(cm(100), Score::loss_in(4)));
    }

    #[test]
    fn a_gain_is_realised_when_nothing_is_left_to_capture() {
        let v = Variant::Tanzanian;
        let start = Position::from_fen("W:Wc3,e1:Bd4,h8").unwrap();
        let reference = balance(&start, Color::White);
        // After c3xe5 Black has nothing to capture and is a man down.
        let after = start.play(&start.parse_move(v, "c3xe5").unwrap()[0]);
        assert_eq!(
            realised(&start, &after, reference, v, None),
            Some(End::Material)
        );
        // With a capture pending nothing is realised yet.
        assert_eq!(realised(&start, &start, reference - 100, v, None), None);
        // A man through: h6 cannot be stopped once Black's f8 man is gone.
        let start = Position::from_fen("W:Wg5,a1:Bf8,b8").unwrap();
        let pos = Position::from_fen("B:Wh6,a1:Bb8").unwrap();
        assert_eq!(
            realised(&start, &pos, balance(&start, Color::White), v, None),
            Some(End::Material)
        );
        let pos = Position::from_fen("B:Wh6,a1:Bb8,a7").unwrap();
        let start = Position::from_fen("W:Wg5,a1:Bf8,b8,a7").unwrap();
        assert_eq!(
            realised(&start, &pos, balance(&pos, Color::White), v, None),
            Some(End::Runaway)
        );
        assert_eq!(
            realised(
                &start,
                &pos,
                balance(&pos, Color::White),
                Variant::Russian,
                None
            ),
            None
        );
    }
}
