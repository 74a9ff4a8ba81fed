//! Move tokens to legal moves: one move generation per ply (on the stack), then the
//! token's squares are matched against each legal move.

use super::{Problem, ProblemKind, ReplayOptions, Severity};
use drafti_pdn::{GameRecord, MoveNode, Separator};
use drafti_rules::{Color, DrawLaws, Game, Move, MoveList, Outcome, Position, Square, Variant};

/// Whether the written squares can mean `mv`: same start and end, and every intermediate
/// square lies, in order, on the squares the piece passes over or lands on.
#[inline]
pub(crate) fn matches(mv: &Move, squares: &[Square]) -> bool {
    let n = squares.len();
    if n < 2 || squares[0] != mv.from() || squares[n - 1] != mv.to() {
        return false;
    }
    if n == 2 {
        return true;
    }
    let traversed = mv.traversed();
    let mut it = traversed.iter();
    squares[1..n - 1].iter().all(|sq| it.any(|t| t == sq))
}

/// The one legal move the squares mean, or the candidates (empty: illegal; several:
/// ambiguous). A text that gives every landing square of a move exactly picks that move.
pub(crate) fn resolve(
    pos: &Position,
    variant: Variant,
    squares: &[Square],
) -> Result<Move, Vec<Move>> {
    let mut list = MoveList::new();
    pos.generate_moves(variant, &mut list);
    resolve_in(&list, squares)
}

/// [`resolve`] among the legal moves `list`.
#[inline]
pub(crate) fn resolve_in(list: &MoveList, squares: &[Square]) -> Result<Move, Vec<Move>> {
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Err(Vec::new());
    };
    let mut found = None;
    let mut count = 0;
    if squares.len() == 2 {
        // The common case: start and end only, compared without building anything.
        for mv in list.iter() {
            if mv.from() == from && mv.to() == to {
                count += 1;
                found.get_or_insert(*mv);
            }
        }
    } else {
        for mv in list.iter() {
            if mv.from() == from && mv.to() == to && matches(mv, squares) {
                count += 1;
                found.get_or_insert(*mv);
            }
        }
    }
    match (count, found) {
        (1, Some(mv)) => return Ok(mv),
        (0, _) => return Err(Vec::new()),
        _ => {}
    }
    let candidates: Vec<Move> = list
        .iter()
        .filter(|m| matches(m, squares))
        .copied()
        .collect();
    // `c1xg5` is the full path of a one-piece capture and also the short form of a longer
    // capture with the same ends: the exact path wins (as `Move::notation` writes it).
    {
        let exact: Vec<Move> = candidates
            .iter()
            .filter(|m| m.path().eq(squares.iter().copied()))
            .copied()
            .collect();
        match exact.len() {
            1 => return Ok(exact[0]),
            0 => {}
            _ => return Err(exact),
        }
    }
    Err(candidates)
}

/// Why no legal move of `pos` (`legal`, its legal moves) goes along `squares` (a move as
/// written: start, intermediate and end squares), in a few words naming the rule it breaks;
/// empty when there is nothing simple to say. Squares are named as numbers when `numeric`.
///
/// ```
/// use drafti_archive::replay::illegal_reason;
/// use drafti_rules::{Color, Position, Square, Variant};
/// let start = Position::start(Color::White);
/// let legal = start.legal_moves(Variant::Tanzanian);
/// let squares = [Square::parse("c3").unwrap(), Square::parse("d2").unwrap()];
/// assert_eq!(
///     illegal_reason(&start, Variant::Tanzanian, &legal, &squares, false),
///     "d2 is occupied"
/// );
/// ```
pub fn illegal_reason(
    pos: &Position,
    variant: Variant,
    legal: &[Move],
    squares: &[Square],
    numeric: bool,
) -> String {
    let turn = pos.turn();
    let from = squares[0];
    let to = squares[squares.len() - 1];
    let name = |sq: Square| {
        if numeric {
            sq.number().to_string()
        } else {
            sq.to_string()
        }
    };
    let from_name = name(from);
    // Pieces move along diagonals only: say so before anything about the position.
    if let Some(w) = squares.windows(2).find(|w| {
        (w[1].file() as i8 - w[0].file() as i8).abs()
            != (w[1].rank() as i8 - w[0].rank() as i8).abs()
    }) {
        return format!("{}-{} is not a diagonal move", name(w[0]), name(w[1]));
    }
    let piece = match pos.piece_at(from) {
        None => return format!("there is no piece on {from_name}"),
        Some(p) if p.color != turn => return format!("{from_name} holds a {} piece", p.color),
        Some(p) => p,
    };
    if legal.is_empty() {
        return format!("{turn} has no legal move");
    }
    // A capture written to a square where it cannot stop: it must go on.
    let longer: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.is_capture()
                && m.path().count() > squares.len()
                && m.path().take(squares.len()).eq(squares.iter().copied())
        })
        .collect();
    if !longer.is_empty() {
        let n = squares.len() - 1;
        let captures = if n == 1 {
            "one capture".to_string()
        } else {
            format!("{n} captures")
        };
        let ways: Vec<String> = longer.iter().map(|m| m.full_notation(numeric)).collect();
        let written: Vec<String> = squares.iter().map(|&sq| name(sq)).collect();
        return format!(
            "{} stops after {captures}; the capture must continue: {}",
            written.join("x"),
            ways.join(", ")
        );
    }
    if legal.iter().any(|m| m.from() == from && m.to() == to) {
        return "no capture between these squares passes over the intermediate squares written"
            .to_string();
    }
    if to != from && pos.piece_at(to).is_some() {
        let to_name = if numeric {
            to.number().to_string()
        } else {
            to.to_string()
        };
        return format!("{to_name} is occupied");
    }
    let rank_step = to.rank() as i8 - from.rank() as i8;
    let backward = match turn {
        Color::White => rank_step < 0,
        Color::Black => rank_step > 0,
    };
    let jump = rank_step.unsigned_abs() >= 2;
    if !piece.king && backward && !(jump && variant.men_capture_backward()) {
        let what = if jump { "captures" } else { "moves" };
        return if jump {
            format!(
                "men capture forward only in {} (a man never captures backward)",
                variant_title(variant)
            )
        } else {
            format!("a man {what} only forward in {}", variant_title(variant))
        };
    }
    let adjacent = squares
        .windows(2)
        .all(|w| (w[1].rank() as i8 - w[0].rank() as i8).abs() == 1);
    if legal[0].is_capture() && adjacent {
        return "a capture is compulsory".to_string();
    }
    if legal[0].is_capture()
        && variant.king_capture_priority()
        && !piece.king
        && legal.iter().all(|m| pos.kings(turn).contains(m.from()))
    {
        return "the king-priority rule of Czech draughts: when a king can capture, a king \
                must capture (a man may not)"
            .to_string();
    }
    String::new()
}

/// Which of the Tanzanian draw laws (RULES.md, "End of the game") a draw is by.
fn draw_law_name(reason: drafti_rules::DrawReason) -> &'static str {
    match reason {
        drafti_rules::DrawReason::FewKings => "draw law 1",
        drafti_rules::DrawReason::ThreeKingsOffMainDiagonal => {
            "draw law 2 (no king of the three on the main diagonal)"
        }
        drafti_rules::DrawReason::KingCountReached(_) => "draw law 2 (the count)",
        drafti_rules::DrawReason::TzDraftThirtyMoves
        | drafti_rules::DrawReason::TzDraftThreeKings
        | drafti_rules::DrawReason::TzDraftEndgame
        | drafti_rules::DrawReason::TzDraftKingAgainstKing => "TzDraft's server",
    }
}

fn variant_title(variant: Variant) -> &'static str {
    variant.title()
}

/// The move-number conventions accepted: numbering by White's moves (`1... x 2. y` when
/// Black starts) or by pairs from the first mover (`1. x y`).
fn expected_numbers(first: Color, ply: usize) -> (i64, i64) {
    let by_white = match first {
        Color::White => ply / 2 + 1,
        Color::Black => ply.div_ceil(2) + 1,
    };
    (by_white as i64, (ply / 2 + 1) as i64)
}

/// What the replay tracks along a line.
#[derive(Clone)]
pub(super) struct State {
    pos: Position,
    /// The rules-core game, once draw-law material is on the board (Tanzanian), or from the
    /// start (TzDraft's server counts every move).
    laws: Option<Game>,
    /// Under TzDraft's reading: the article's game, once its draw-law material is on the
    /// board, and whether play going on after its end was reported.
    article: Option<Game>,
    article_end_reported: bool,
}

impl State {
    pub(super) fn new(pos: Position) -> State {
        State {
            pos,
            laws: None,
            article: None,
            article_end_reported: false,
        }
    }
}

/// The result of one ply.
enum Step {
    Move(Move),
    Ended(Outcome),
    Bad(Vec<Move>),
}

/// Replays lines of one record, collecting problems.
pub(super) struct Replayer<'o> {
    variant: Variant,
    options: &'o ReplayOptions,
    laws: DrawLaws,
    first_mover: Color,
    /// Offsets of the written move numbers from the expected ones (non-zero only after a
    /// FEN start, calibrated on the first numbered move).
    offsets: Option<(i64, i64)>,
    pub(super) problems: Vec<Problem>,
}

impl<'o> Replayer<'o> {
    pub(super) fn new(
        variant: Variant,
        options: &'o ReplayOptions,
        first_mover: Color,
        fen_given: bool,
        _record: &GameRecord,
    ) -> Self {
        let mut laws = DrawLaws::for_variant(variant);
        laws.king_count = options.king_count;
        Replayer {
            variant,
            options,
            laws,
            first_mover,
            offsets: if fen_given { None } else { Some((0, 0)) },
            problems: Vec::new(),
        }
    }

    /// Replays the mainline from `start`, filling `moves` and `positions`; returns the
    /// outcome of the last position reached.
    pub(super) fn mainline(
        &mut self,
        start: Position,
        record: &GameRecord,
        moves: &mut Vec<Move>,
        positions: &mut Vec<Position>,
    ) -> Option<Outcome> {
        let mut state = State::new(start);
        positions.push(start);
        let nodes = &record.moves.nodes;
        let plies = self
            .options
            .max_plies
            .unwrap_or(usize::MAX)
            .min(nodes.len());
        let nodes = &nodes[..plies];
        self.line(&mut state, nodes, 0, false, Some((moves, positions)));
        self.enter_laws(&mut state);
        match &state.laws {
            Some(game) => game.outcome(),
            None if !state.pos.has_legal_move(self.variant) => {
                Some(Outcome::Win(state.pos.turn().other()))
            }
            None => None,
        }
    }

    /// Starts following the draw laws (a rules-core [`Game`]) once their material is on the
    /// board: until then a position's outcome is only "no legal move", which the move
    /// generation of each ply tells for free.
    #[inline]
    fn enter_laws(&self, state: &mut State) {
        if state.laws.is_none()
            && (self.variant.tzdraft_captures()
                || (self.laws.enabled && state.pos.king_ending().is_some()))
        {
            state.laws = Some(Game::with_laws(state.pos, self.variant, self.laws));
        }
        if self.variant.tzdraft_captures()
            && state.article.is_none()
            && state.pos.king_ending().is_some()
        {
            let mut laws = DrawLaws::for_variant(Variant::Tanzanian);
            laws.king_count = self.options.king_count;
            state.article = Some(Game::with_laws(state.pos, Variant::Tanzanian, laws));
        }
    }

    /// Under TzDraft's reading, the warnings of a move the article would not have allowed: a
    /// move only the server allows, or the first move after the article's draw laws ended the
    /// game. `pos` is the position before `mv`.
    #[cold]
    fn check_article(
        &mut self,
        state: &mut State,
        node: &MoveNode,
        ply: usize,
        pos: &Position,
        mv: &Move,
        in_variation: bool,
    ) {
        let ended = state.article.as_ref().and_then(Game::outcome);
        if let (Some(Outcome::Draw(reason)), false) = (ended, state.article_end_reported) {
            state.article_end_reported = true;
            let message = format!(
                "move {} at ply {}: the article's {} had ended the game ({reason}); TzDraft's \
                 server plays on",
                node.mv.text,
                ply + 1,
                draw_law_name(reason)
            );
            let p = self.problem(
                Severity::Warning,
                ProblemKind::TzDraftOnly,
                node,
                ply,
                pos,
                message,
                in_variation,
            );
            self.problems.push(p);
        }
        if let Some(reason) = super::article_breach(pos, mv) {
            let message = format!(
                "move {} at ply {} ({} to move) is legal on TzDraft's server, not under the \
                 article: {reason}",
                node.mv.text,
                ply + 1,
                pos.turn()
            );
            let p = self.problem(
                Severity::Warning,
                ProblemKind::TzDraftOnly,
                node,
                ply,
                pos,
                message,
                in_variation,
            );
            self.problems.push(p);
        }
        if let Some(game) = state.article.as_mut().filter(|g| g.outcome().is_none()) {
            game.play(mv);
        }
    }

    /// One ply: the game's end, or the move the squares mean, or the candidates.
    #[inline(never)]
    fn step(&self, state: &State, squares: &[Square]) -> Step {
        let mut list = MoveList::new();
        state.pos.generate_moves(self.variant, &mut list);
        let ended = match &state.laws {
            Some(game) => game.outcome(),
            None if list.is_empty() => Some(Outcome::Win(state.pos.turn().other())),
            None => None,
        };
        if let Some(outcome) = ended {
            return Step::Ended(outcome);
        }
        match resolve_in(&list, squares) {
            Ok(mv) => Step::Move(mv),
            Err(candidates) => Step::Bad(candidates),
        }
    }

    #[allow(clippy::too_many_arguments)] // one call per kind of problem; a struct would only rename them
    fn problem(
        &self,
        severity: Severity,
        kind: ProblemKind,
        node: &MoveNode,
        ply: usize,
        pos: &Position,
        message: String,
        in_variation: bool,
    ) -> Problem {
        Problem {
            severity,
            kind,
            span: node.mv.span,
            ply: Some(ply + 1),
            move_text: Some(node.mv.text.to_string()),
            message,
            fen: Some(pos.to_fen()),
            legal: Vec::new(),
            in_variation,
        }
    }

    fn check_number(
        &mut self,
        node: &MoveNode,
        ply: usize,
        pos: &Position,
        in_variation: bool,
    ) -> bool {
        let Some(number) = node.number else {
            return true;
        };
        let written = i64::from(number.number);
        let (a, b) = expected_numbers(self.first_mover, ply);
        let (oa, ob) = *self.offsets.get_or_insert((written - a, written - b));
        if written == a + oa || written == b + ob {
            return true;
        }
        let message = format!(
            "move number {} contradicts the ply: ply {} is {}'s move {}",
            number.number,
            ply + 1,
            pos.turn(),
            a + oa
        );
        let mut p = self.problem(
            Severity::Warning,
            ProblemKind::MoveNumber,
            node,
            ply,
            pos,
            message,
            in_variation,
        );
        p.span = number.span;
        self.problems.push(p);
        false
    }

    /// Replays `nodes` from `state` (the position before ply `ply0`, 0-based); stops at the
    /// first error. Variations of each node are replayed from the position before it.
    fn line(
        &mut self,
        state: &mut State,
        nodes: &[MoveNode],
        ply0: usize,
        in_variation: bool,
        mut out: Option<(&mut Vec<Move>, &mut Vec<Position>)>,
    ) {
        let mut numbers_ok = true;
        for (j, node) in nodes.iter().enumerate() {
            let ply = ply0 + j;
            self.enter_laws(state);
            if self.options.variations {
                for variation in &node.variations {
                    let mut branch = state.clone();
                    self.line(&mut branch, &variation.nodes, ply, true, None);
                }
            }
            let pos = state.pos;
            if numbers_ok {
                numbers_ok = self.check_number(node, ply, &pos, in_variation);
            }
            match self.step(state, &node.mv.squares) {
                Step::Move(mv) => {
                    if node.mv.separator != Separator::None
                        && (node.mv.separator == Separator::Dash) == mv.is_capture()
                    {
                        self.check_separator(node, &mv, ply, &pos, in_variation);
                    }
                    if self.variant.tzdraft_captures() {
                        self.check_article(state, node, ply, &pos, &mv, in_variation);
                    }
                    state.pos = pos.play(&mv);
                    if let Some(game) = &mut state.laws {
                        game.play(&mv);
                    }
                    if let Some((moves, positions)) = out.as_mut() {
                        moves.push(mv);
                        positions.push(state.pos);
                    }
                }
                Step::Ended(outcome) => {
                    let ended = match outcome {
                        Outcome::Draw(reason) => {
                            format!("the game was drawn by {} ({reason})", draw_law_name(reason))
                        }
                        Outcome::Win(_) => outcome.to_string(),
                    };
                    let message = format!(
                        "move {} at ply {} after the game ended: {ended}",
                        node.mv.text,
                        ply + 1
                    );
                    let p = self.problem(
                        Severity::Error,
                        ProblemKind::MoveAfterEnd,
                        node,
                        ply,
                        &pos,
                        message,
                        in_variation,
                    );
                    self.problems.push(p);
                    return;
                }
                Step::Bad(candidates) => {
                    let p = self.bad_move(node, ply, &pos, candidates, in_variation);
                    self.problems.push(p);
                    return;
                }
            }
        }
    }

    fn check_separator(
        &mut self,
        node: &MoveNode,
        mv: &Move,
        ply: usize,
        pos: &Position,
        in_variation: bool,
    ) {
        let (kind, message) = match (node.mv.separator, mv.is_capture()) {
            (Separator::Dash, true) => (
                ProblemKind::CaptureWrittenAsQuiet,
                format!(
                    "capture {} at ply {} is written with '-' (read as {})",
                    node.mv.text,
                    ply + 1,
                    mv.full_notation(node.mv.is_numeric())
                ),
            ),
            (Separator::Capture(c), false) => (
                ProblemKind::QuietWrittenAsCapture,
                format!(
                    "quiet move {} at ply {} is written with '{c}' (read as {})",
                    node.mv.text,
                    ply + 1,
                    mv.full_notation(node.mv.is_numeric())
                ),
            ),
            _ => return,
        };
        let p = self.problem(
            Severity::Warning,
            kind,
            node,
            ply,
            pos,
            message,
            in_variation,
        );
        self.problems.push(p);
    }

    #[cold]
    fn bad_move(
        &self,
        node: &MoveNode,
        ply: usize,
        pos: &Position,
        candidates: Vec<Move>,
        in_variation: bool,
    ) -> Problem {
        let numeric = node.mv.is_numeric();
        let legal = pos.legal_moves(self.variant);
        let turn = pos.turn();
        let where_ = if in_variation { " in a variation" } else { "" };
        if candidates.is_empty() {
            let reason = illegal_reason(pos, self.variant, &legal, &node.mv.squares, numeric);
            let mut message = format!(
                "illegal move {} at ply {}{where_} ({turn} to move)",
                node.mv.text,
                ply + 1
            );
            if !reason.is_empty() {
                message.push_str(": ");
                message.push_str(&reason);
            }
            let mut p = self.problem(
                Severity::Error,
                ProblemKind::IllegalMove,
                node,
                ply,
                pos,
                message,
                in_variation,
            );
            p.legal = legal.iter().map(|m| m.notation(&legal, numeric)).collect();
            p
        } else {
            let message = format!(
                "ambiguous move {} at ply {}{where_} ({turn} to move): {} legal moves match; \
                 write every landing square",
                node.mv.text,
                ply + 1,
                candidates.len()
            );
            let mut p = self.problem(
                Severity::Error,
                ProblemKind::AmbiguousMove,
                node,
                ply,
                pos,
                message,
                in_variation,
            );
            p.legal = candidates
                .iter()
                .map(|m| m.full_notation(numeric))
                .collect();
            p
        }
    }
}
