//! One TzDraft game into a PDN record replayed through the rules: its tags, its moves in
//! `moveNumber` order each checked against the legal moves, its evaluations and move times as
//! comments, its end reason checked against the final position.

use super::record::{color_name, square, TzGame, TzMove, TzPlayer};
use crate::replay::{
    article_breach, illegal_reason, move_token, replay, replay_partial, Problem, ProblemKind,
    ReplayOptions, ReplayedGame, Severity,
};
use drafti_pdn::{
    Comment, GameRecord, GameResult, Line, MoveNode, MoveNumber, ResultToken, Span, Tag,
};
use drafti_rules::{Color, DrawReason, Game, Move, Outcome, Position, Square, Variant};
use serde_json::Value;

/// Text of a number or string field.
fn text_of(v: &Option<Value>) -> Option<String> {
    match v {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// PDN's `YYYY.MM.DD` of an ISO timestamp (`2026-03-02T19:00:00.000Z`).
fn pdn_date(timestamp: &str) -> Option<String> {
    let date = timestamp.get(..10)?;
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    (digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10))
        .then(|| date.replace('-', "."))
}

/// PDN's Termination for TzDraft's end reason.
fn termination(reason: &str) -> String {
    match reason {
        "NO_MOVES" | "STALEMATE" | "CHECKMATE" => "no legal move",
        "RESIGN" => "resignation",
        "TIME" => "time forfeit",
        "DISCONNECT" => "abandoned",
        "DRAW" => "draw agreed",
        "DRAW_REPETITION" => "draw by repetition",
        "DRAW_30_MOVE" => "draw by the 30-move rule",
        "DRAW_THREE_KINGS" => "draw by the three-kings rule",
        "DRAW_ENDGAME" => "draw by the endgame rule",
        "DRAW_INSUFFICIENT_MATERIAL" => "draw by insufficient material",
        other => other,
    }
    .to_string()
}

fn player_name(player: Option<&TzPlayer>, id: Option<&str>) -> Option<String> {
    let p = player?;
    p.display_name
        .clone()
        .or_else(|| p.username.clone())
        .or_else(|| id.map(str::to_string))
}

/// A tag; control characters in the value (a line break in a name) become spaces, so the
/// tag stays on its line.
fn tag(name: &str, value: impl Into<String>) -> Tag {
    let mut value = value.into();
    if value.chars().any(char::is_control) {
        value = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
    }
    Tag {
        name: name.to_string(),
        value,
        span: Span::default(),
    }
}

/// The record's result from TzDraft's winner.
fn result_of(game: &TzGame) -> GameResult {
    match game.winner.as_deref() {
        Some("WHITE") => GameResult::WhiteWin,
        Some("BLACK") => GameResult::BlackWin,
        Some("DRAW") => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// The tags of a game read under `rules`: PDN's where a field has a home (the rules in the
/// `Variant` tag), `TzDraft…` for every other field.
pub fn tags(game: &TzGame, rules: Variant) -> Vec<Tag> {
    let players = game.players.as_ref();
    let white = players
        .and_then(|p| p.white.as_ref())
        .or(game.white_player.as_ref());
    let black = players
        .and_then(|p| p.black.as_ref())
        .or(game.black_player.as_ref());
    let white_name = player_name(white, game.white_player_id.as_deref());
    let ai = text_of(&game.ai_level).map(|l| format!("TzDraft AI level {l}"));
    let black_name = player_name(black, game.black_player_id.as_deref()).or_else(|| {
        (game.black_player_id.is_none() && game.game_type.as_deref() == Some("AI"))
            .then(|| ai.clone())
            .flatten()
    });
    let kind = match game.game_type.as_deref() {
        Some("AI") => "AI".to_string(),
        Some(kind) => kind.to_lowercase(),
        None => "?".to_string(),
    };
    let date = [&game.started_at, &game.created_at]
        .into_iter()
        .flatten()
        .find_map(|t| pdn_date(t));
    let (rules_tag, rules_name) = rules.pdn_tag();
    let mut tags = vec![
        tag("Event", format!("TzDraft {kind} game")),
        tag("Site", "TzDraft"),
        tag("Date", date.unwrap_or_else(|| "????.??.??".to_string())),
        tag("White", white_name.unwrap_or_else(|| "?".to_string())),
        tag("Black", black_name.unwrap_or_else(|| "?".to_string())),
        tag("Result", result_of(game).as_str()),
    ];
    if let Some(elo) = text_of(&game.white_elo) {
        tags.push(tag("WhiteElo", elo));
    }
    if let Some(elo) = text_of(&game.black_elo) {
        tags.push(tag("BlackElo", elo));
    }
    tags.push(tag(rules_tag, rules_name));
    if let Some(reason) = &game.end_reason {
        tags.push(tag("Termination", termination(reason)));
    }
    if let Some(ms) = game.initial_time_ms.as_ref().and_then(Value::as_i64) {
        tags.push(tag("TimeControl", (ms / 1000).to_string()));
    }
    let mut keep = |name: &str, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            tags.push(tag(name, v));
        }
    };
    let clock = game.clock.as_ref();
    keep("TzDraftId", game.id.clone());
    keep("TzDraftType", game.game_type.clone());
    keep("TzDraftRuleVersion", game.rule_version.clone());
    keep("TzDraftStatus", game.status.clone());
    keep("TzDraftWinner", game.winner.clone());
    keep("TzDraftEndReason", game.end_reason.clone());
    keep("TzDraftInitialTimeMs", text_of(&game.initial_time_ms));
    keep("TzDraftWhitePlayerId", game.white_player_id.clone());
    keep("TzDraftBlackPlayerId", game.black_player_id.clone());
    keep(
        "TzDraftWhiteUsername",
        white.and_then(|p| p.username.clone()),
    );
    keep(
        "TzDraftBlackUsername",
        black.and_then(|p| p.username.clone()),
    );
    keep("TzDraftWhiteCountry", white.and_then(|p| p.country.clone()));
    keep("TzDraftBlackCountry", black.and_then(|p| p.country.clone()));
    keep("TzDraftAiLevel", text_of(&game.ai_level));
    keep("TzDraftInviteCode", game.invite_code.clone());
    keep("TzDraftCreatorColor", game.creator_color.clone());
    keep(
        "TzDraftTournamentMatchGameId",
        game.tournament_match_game_id.clone(),
    );
    keep("TzDraftLeagueGameId", game.league_game_id.clone());
    keep("TzDraftCurrentTurn", game.current_turn.clone());
    keep("TzDraftCreatedAt", game.created_at.clone());
    keep("TzDraftStartedAt", game.started_at.clone());
    keep("TzDraftEndedAt", game.ended_at.clone());
    keep(
        "TzDraftWhiteTimeMs",
        clock.and_then(|c| text_of(&c.white_time_ms)),
    );
    keep(
        "TzDraftBlackTimeMs",
        clock.and_then(|c| text_of(&c.black_time_ms)),
    );
    keep(
        "TzDraftLastMoveAt",
        clock.and_then(|c| c.last_move_at.clone()),
    );
    tags
}

/// Why a TzDraft move is not a legal move of `pos` under `rules` (`legal`, its legal moves):
/// the rule it breaks, in a few words; else the legal move it is.
pub(super) fn mismatch(
    pos: &Position,
    rules: Variant,
    legal: &[Move],
    m: &TzMove,
) -> Result<Move, String> {
    let turn = pos.turn();
    if let Some(player) = m.player.as_deref() {
        if player != color_name(turn) {
            return Err(format!(
                "the move is marked {player}, but {turn} is to move"
            ));
        }
    }
    let off = |n: i64| format!("square {n} is not on the board (TzDraft's squares are 1-32)");
    let field = |v: Option<i64>, name: &str| {
        v.ok_or_else(|| format!("the move has no {name} (nor its column {})", snake(name)))
    };
    let (from, to) = (
        field(m.from_square, "fromSquare")?,
        field(m.to_square, "toSquare")?,
    );
    let from = square(from).ok_or_else(|| off(from))?;
    let to = square(to).ok_or_else(|| off(to))?;
    let mut captured = Vec::with_capacity(m.captured_squares.len());
    for &n in &m.captured_squares {
        captured.push(square(n).ok_or_else(|| off(n))?);
    }
    let names = |squares: &mut dyn Iterator<Item = Square>| {
        let names: Vec<String> = squares.map(|s| s.to_string()).collect();
        names.join(", ")
    };
    let mut sorted = captured.clone();
    sorted.sort();
    let same = |mv: &Move| {
        let mut taken: Vec<Square> = mv.captures().collect();
        taken.sort();
        mv.from() == from && mv.to() == to && taken == sorted
    };
    let found = legal.iter().find(|mv| same(mv));
    let Some(&mv) = found else {
        // Under the article, a move only TzDraft's server allows: name the article's rule.
        if !rules.tzdraft_captures() {
            if let Some(mv) = pos.legal_moves(Variant::TzDraft).iter().find(|mv| same(mv)) {
                if let Some(breach) = article_breach(pos, mv) {
                    return Err(format!(
                        "legal on TzDraft's server, not under the article: {breach}"
                    ));
                }
            }
        }
        let ends: Vec<&Move> = legal
            .iter()
            .filter(|mv| mv.from() == from && mv.to() == to)
            .collect();
        if ends.is_empty() {
            let reason = illegal_reason(pos, rules, legal, &[from, to], false);
            return Err(if reason.is_empty() {
                format!("no legal move goes from {from} to {to}")
            } else {
                reason
            });
        }
        let ways: Vec<String> = ends
            .iter()
            .map(|mv| match mv.capture_count() {
                0 => "nothing".to_string(),
                _ => names(&mut mv.captures()),
            })
            .collect();
        let listed = match captured.len() {
            0 => "none".to_string(),
            _ => names(&mut captured.iter().copied()),
        };
        return Err(format!(
            "the move from {from} to {to} captures {}, not the squares listed ({listed})",
            ways.join(" or ")
        ));
    };
    if !mv.captures().eq(captured.iter().copied())
        && !route_exists(pos, from, to, &captured, rules.tzdraft_captures())
    {
        return Err(format!(
            "the piece on {from} cannot take {} in this order (it takes them as {})",
            names(&mut captured.iter().copied()),
            names(&mut mv.captures())
        ));
    }
    if let Some(promotion) = m.is_promotion {
        if promotion != mv.promotes() {
            return Err(if promotion {
                format!("isPromotion is true, but the move does not crown a man ({to})")
            } else {
                format!("isPromotion is false, but the man is crowned on {to}")
            });
        }
    }
    Ok(mv)
}

/// The database column of a camelCase field name: `fromSquare` → `from_square`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the piece on `from` can take the pieces on `order`, in this order, and end on
/// `to`: each on a diagonal from where the piece stands with nothing between (a man: the next
/// square, forward), landing on an empty square beyond it (a king: any before the next piece).
/// Captured pieces stay on the board until the move ends, or leave it at once (`removed`,
/// TzDraft's server reading).
fn route_exists(pos: &Position, from: Square, to: Square, order: &[Square], removed: bool) -> bool {
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let forward = if piece.color == Color::White { 1 } else { -1 };
    let step = |sq: Square, df: i8, dr: i8, k: i8| {
        let (f, r) = (sq.file() as i8 + df * k, sq.rank() as i8 + dr * k);
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Square::from_coords(f as u8, r as u8)
        } else {
            None
        }
    };
    // `taken`: how many of `order` are taken when the piece stands on `at`.
    let empty = |sq: Square, taken: usize| {
        sq == from || pos.piece_at(sq).is_none() || (removed && order[..taken].contains(&sq))
    };
    let mut stack = vec![(from, 0usize)];
    while let Some((at, taken)) = stack.pop() {
        let Some(&next) = order.get(taken) else {
            if at == to {
                return true;
            }
            continue;
        };
        let df = next.file() as i8 - at.file() as i8;
        let dr = next.rank() as i8 - at.rank() as i8;
        if df == 0 || df.abs() != dr.abs() || (!piece.king && (df.abs() != 1 || dr != forward)) {
            continue;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        if !(1..df.abs()).all(|k| step(at, sf, sr, k).is_some_and(|sq| empty(sq, taken))) {
            continue;
        }
        let mut k = 1;
        while let Some(landing) = step(next, sf, sr, k).filter(|&sq| empty(sq, taken + 1)) {
            stack.push((landing, taken + 1));
            if !piece.king {
                break;
            }
            k += 1;
        }
    }
    false
}

/// The move as TzDraft wrote it: its notation, else `from-to` / `fromxcapturedxto`.
fn written(m: &TzMove) -> String {
    if let Some(n) = m.notation.as_deref().filter(|n| !n.is_empty()) {
        return n.chars().take(100).collect();
    }
    let square = |v: Option<i64>| v.map_or_else(|| "?".to_string(), |n| n.to_string());
    let mut path = vec![square(m.from_square)];
    path.extend(m.captured_squares.iter().take(12).map(i64::to_string));
    path.push(square(m.to_square));
    path.join(if m.captured_squares.is_empty() {
        "-"
    } else {
        "x"
    })
}

/// The moves in `moveNumber` order (rows out of order are put in order), up to the first gap
/// or duplicate, with that problem's words. Moves without a number keep their order.
fn in_order(mut moves: Vec<TzMove>) -> (Vec<TzMove>, Option<String>) {
    if moves.iter().any(|m| m.move_number.is_none()) {
        return (moves, None);
    }
    moves.sort_by_key(|m| m.move_number);
    for (i, (m, expected)) in moves.iter().zip(1i64..).enumerate() {
        let n = m.move_number.unwrap_or(expected);
        if n != expected {
            let problem = if n < expected {
                format!("moveNumber {n} is given twice")
            } else if n == expected + 1 {
                format!(
                    "moveNumber {expected} is missing (the moves go from {} to {n})",
                    expected - 1
                )
            } else {
                format!(
                    "moveNumbers {expected} to {} are missing (the moves go from {} to {n})",
                    n - 1,
                    expected - 1
                )
            };
            moves.truncate(i);
            return (moves, Some(problem));
        }
    }
    (moves, None)
}

/// Milliseconds since 1970 of a TzDraft timestamp: ISO 8601 with an offset (the API's JSON)
/// or without one (a database export; TzDraft's columns hold UTC).
fn millis(text: &str) -> Option<i64> {
    if let Ok(t) = text.parse::<jiff::Timestamp>() {
        return Some(t.as_millisecond());
    }
    let civil: jiff::civil::DateTime = text.trim().replace(' ', "T").parse().ok()?;
    jiff::tz::TimeZone::UTC
        .to_timestamp(civil)
        .ok()
        .map(|t| t.as_millisecond())
}

/// `H:MM:SS`, with the milliseconds when there are any (`0:00:02.345`).
fn clock_text(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let (s, frac) = (ms / 1000, ms % 1000);
    let base = format!("{sign}{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if frac == 0 {
        base
    } else {
        format!("{base}.{frac:03}")
    }
}

/// The `[%clk]`/`[%emt]` comment of each move, from the times the moves were stored: the time
/// it took (from the previous move, or the start of the game), and the mover's clock after it
/// as TzDraft's server keeps it (the initial time less the mover's own times; none in games
/// against its AI, whose clock the server does not run).
fn clock_comments(game: &TzGame, moves: &[TzMove]) -> Vec<Option<String>> {
    let start = [&game.started_at, &game.created_at]
        .into_iter()
        .flatten()
        .find_map(|t| millis(t));
    let initial = game
        .initial_time_ms
        .as_ref()
        .and_then(Value::as_i64)
        .filter(|_| game.game_type.as_deref() != Some("AI"));
    let mut left = [initial, initial];
    let mut previous = start;
    moves
        .iter()
        .enumerate()
        .map(|(ply, m)| {
            let at = m.created_at.as_deref().and_then(millis)?;
            let spent = previous.map(|p| at - p);
            previous = Some(at);
            let side = &mut left[ply % 2];
            let mut parts = Vec::new();
            if let (Some(l), Some(s)) = (side.as_mut(), spent) {
                *l = (*l - s).max(0);
                parts.push(format!("[%clk {}]", clock_text(*l)));
            }
            if let Some(s) = spent {
                parts.push(format!("[%emt {}]", clock_text(s)));
            }
            (!parts.is_empty()).then(|| parts.join(" "))
        })
        .collect()
}

/// A TzDraft game as a PDN record replayed under `rules` (TzDraft's server reading, or the
/// article's with `--strict`): its moves in `moveNumber` order up to the first one that is
/// not legal or not in sequence (that one an error, the record's result then `*`), its tags
/// ([`tags`]), each engine evaluation as a `[%eval …]` comment and each move's time as
/// `[%clk …]`/`[%emt …]`; an end reason the final position contradicts is a warning.
/// Problems name line `line` of the input.
pub fn convert(game: TzGame, line: u32, options: &ReplayOptions, rules: Variant) -> ReplayedGame {
    let id = game.id.clone().unwrap_or_else(|| "(no id)".to_string());
    let mut game = game;
    let (moves, order_problem) = in_order(game.moves.take().unwrap_or_default());
    let clocks = clock_comments(&game, &moves);
    let mut record = GameRecord {
        tags: tags(&game, rules),
        span: Span {
            line,
            column: 1,
            ..Span::default()
        },
        ..GameRecord::default()
    };
    let mut nodes = Vec::with_capacity(moves.len());
    let mut pos = Position::start(Color::White);
    let mut bad = None;
    for (ply, m) in moves.iter().enumerate() {
        let legal = pos.legal_moves(rules);
        let mv = match mismatch(&pos, rules, &legal, m) {
            Ok(mv) => mv,
            Err(reason) => {
                let problem = illegal(&id, &pos, &legal, m, ply, line, &reason);
                bad = Some(problem);
                break;
            }
        };
        let mut node = MoveNode::new(move_token(&mv, &legal, false, false));
        if pos.turn() == Color::White {
            node.number = Some(MoveNumber {
                number: (ply / 2 + 1) as u32,
                ellipsis: false,
                span: Span::default(),
            });
        }
        if let Some(eval) = m.engine_eval {
            let eval = eval.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            node.comments.push(comment(drafti_pdn::eval_command(eval)));
        }
        if let Some(Some(clock)) = clocks.get(ply) {
            node.comments.push(comment(clock.clone()));
        }
        nodes.push(node);
        pos = pos.play(&mv);
    }
    if bad.is_none() {
        if let Some(problem) = order_problem {
            let message = format!(
                "TzDraft game {id}: {problem}; the game is cut after move {}",
                nodes.len()
            );
            let mut p = Problem::new(
                Severity::Error,
                ProblemKind::MoveOrder,
                Span {
                    line,
                    column: 1,
                    ..Span::default()
                },
                message,
            );
            p.ply = Some(nodes.len() + 1);
            p.fen = Some(pos.to_fen());
            bad = Some(p);
        }
    }
    let result = match bad {
        // A game cut short has no result: TzDraft's winner stays in its own tag.
        Some(_) => GameResult::Unknown,
        None => result_of(&game),
    };
    if let Some(t) = record.tags.iter_mut().find(|t| t.name == "Result") {
        t.value = result.as_str().to_string();
    }
    record.result = Some(ResultToken::new(result));
    let options = ReplayOptions {
        variant_override: Some(rules),
        ..options.clone()
    };
    if let Some(problem) = &bad {
        // The message quotes the record (its id, its notation): no brace may end the comment.
        let text = format!("the record is cut here: {}", problem.message)
            .replace('{', "(")
            .replace('}', ")");
        match nodes.last_mut() {
            Some(node) => node.comments.push(comment(text)),
            None => record.leading_comments.push(comment(text)),
        }
    }
    record.moves = Line {
        nodes,
        leading_comments: Vec::new(),
    };
    let mut replayed = match bad {
        Some(_) => replay_partial(record, &options),
        None => replay(record, &options),
    };
    if bad.is_none() && replayed.is_complete() && replayed.is_valid() {
        if let Some(p) = end_reason_problem(&game, &replayed, line) {
            replayed.problems.push(p);
        }
    }
    for p in &mut replayed.problems {
        if p.span.line == 0 {
            p.span.line = line;
            p.span.column = 1;
        }
        p.message = format!("TzDraft game {id}: {}", p.message);
    }
    if let Some(problem) = bad {
        replayed.problems.push(problem);
    }
    replayed
}

fn comment(text: String) -> Comment {
    Comment {
        text,
        span: Span::default(),
    }
}

/// A warning when TzDraft's end reason names an ending of the rules that the final position
/// (played out under TzDraft's server rules) does not have.
fn end_reason_problem(game: &TzGame, replayed: &ReplayedGame, line: u32) -> Option<Problem> {
    let reason = game.end_reason.as_deref()?;
    let mut server = Game::new(replayed.start, Variant::TzDraft);
    for mv in &replayed.moves {
        server.play(mv);
    }
    let outcome = server.outcome();
    let last = replayed.final_position();
    let said = match reason {
        "NO_MOVES" | "STALEMATE" | "CHECKMATE" => match outcome {
            Some(Outcome::Win(_)) => return None,
            _ => format!(
                "{} is to move and has a legal move in the final position",
                last.turn()
            ),
        },
        "DRAW_30_MOVE" | "DRAW_THREE_KINGS" | "DRAW_ENDGAME" | "DRAW_INSUFFICIENT_MATERIAL" => {
            let rule = match reason {
                "DRAW_30_MOVE" => DrawReason::TzDraftThirtyMoves,
                "DRAW_THREE_KINGS" => DrawReason::TzDraftThreeKings,
                "DRAW_ENDGAME" => DrawReason::TzDraftEndgame,
                _ => DrawReason::TzDraftKingAgainstKing,
            };
            if outcome == Some(Outcome::Draw(rule)) {
                return None;
            }
            format!("{rule} does not end the game in the final position")
        }
        _ => return None,
    };
    let mut p = Problem::new(
        Severity::Warning,
        ProblemKind::EndReason,
        Span {
            line,
            column: 1,
            ..Span::default()
        },
        format!("end reason {reason}, but {said}"),
    );
    p.ply = Some(replayed.moves.len());
    p.fen = Some(last.to_fen());
    Some(p)
}

fn illegal(
    id: &str,
    pos: &Position,
    legal: &[Move],
    m: &TzMove,
    ply: usize,
    line: u32,
    reason: &str,
) -> Problem {
    let number = m.move_number.unwrap_or(ply as i64 + 1);
    let text = written(m);
    let message = format!(
        "TzDraft game {id}: illegal move {number} ({text}) at ply {} ({} to move): {reason}",
        ply + 1,
        pos.turn()
    );
    Problem {
        severity: Severity::Error,
        kind: ProblemKind::IllegalMove,
        span: Span {
            line,
            column: 1,
            ..Span::default()
        },
        ply: Some(ply + 1),
        move_text: Some(text),
        message,
        fen: Some(pos.to_fen()),
        legal: legal.iter().map(|mv| mv.notation(legal, false)).collect(),
        in_variation: false,
    }
}
