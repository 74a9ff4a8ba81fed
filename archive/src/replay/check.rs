//! The checks around the moves: which variant and start position a record asks for, and
//! whether its stated result agrees with itself and with the final position.

use super::{Problem, ProblemKind, ReplayOptions, ReplayedGame, Severity};
use drafti_pdn::{GameRecord, GameResult, Span};
use drafti_rules::{Color, Outcome, Position, Variant};

/// The span of the first tag called `name`, else the record's start.
fn tag_span(record: &GameRecord, name: &str) -> Span {
    record
        .tags
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .map_or(record.span, |t| t.span)
}

/// The variant the record's tags name, or the problem with them.
fn variant_of(record: &GameRecord) -> Result<Variant, Box<Problem>> {
    if let Some(value) = record.tag("GameType") {
        let lead = value.split(',').next().unwrap_or("").trim();
        if lead.eq_ignore_ascii_case("tz") {
            return Ok(Variant::Tanzanian);
        }
        if lead.eq_ignore_ascii_case("tzdraft") {
            return Ok(Variant::TzDraft);
        }
        return match lead {
            "25" => Ok(Variant::Russian),
            "29" => Ok(Variant::Czech),
            "" => Err(Box::new(Problem::new(
                Severity::Error,
                ProblemKind::UnknownVariant,
                tag_span(record, "GameType"),
                "GameType tag is empty (expected 25 Russian, 29 Czech, TZ or TzDraft)".to_string(),
            ))),
            _ => Err(Box::new(Problem::new(
                Severity::Error,
                ProblemKind::UnknownVariant,
                tag_span(record, "GameType"),
                format!(
                    "unknown GameType {lead} (drafti knows 25 Russian, 29 Czech, TZ \
                     Tanzanian and TzDraft; use --variant to override)"
                ),
            ))),
        };
    }
    if let Some(value) = record.tag("Variant") {
        return value.parse::<Variant>().map_err(|_| {
            Box::new(Problem::new(
                Severity::Error,
                ProblemKind::UnknownVariant,
                tag_span(record, "Variant"),
                format!(
                    "unknown Variant \"{}\" (drafti knows Tanzanian, TzDraft, Czech and \
                     Russian; use --variant to override)",
                    value.trim()
                ),
            ))
        });
    }
    Ok(Variant::Tanzanian)
}

/// Variant, start position, first mover and whether a FEN gave the start.
pub(super) type Setup = (Variant, Position, Color, bool);

/// Reads the variant and start position from the tags (and options).
pub(super) fn setup(
    record: &GameRecord,
    options: &ReplayOptions,
) -> Result<Setup, (Variant, Box<Problem>)> {
    let variant = match options.variant_override {
        Some(v) => v,
        None => variant_of(record).map_err(|p| (Variant::Tanzanian, p))?,
    };
    if let Some(fen) = record.tag("FEN") {
        return match Position::from_fen(fen) {
            Ok(pos) => Ok((variant, pos, pos.turn(), true)),
            Err(e) => Err((
                variant,
                Box::new(Problem::new(
                    Severity::Error,
                    ProblemKind::BadFen,
                    tag_span(record, "FEN"),
                    format!("FEN tag is not a position: {e}"),
                )),
            )),
        };
    }
    let mut first = Color::White;
    if variant.either_may_start() {
        if let Some(node) = record.moves.nodes.first() {
            if let Some(piece) = node
                .mv
                .squares
                .first()
                .and_then(|&sq| Position::start(Color::White).piece_at(sq))
            {
                first = piece.color;
            }
        }
    }
    Ok((variant, Position::start(first), first, false))
}

/// Checks the stated result: Result tag against movetext, and against a finished final
/// position.
pub(super) fn result(game: &mut ReplayedGame) {
    let record = &game.record;
    let tag = record.tag("Result");
    let tag_result = tag.and_then(GameResult::parse_str);
    if let Some(value) = tag {
        if tag_result.is_none() && !value.trim().is_empty() && value.trim() != "?" {
            game.problems.push(Problem::new(
                Severity::Warning,
                ProblemKind::BadResultTag,
                tag_span(record, "Result"),
                format!("Result tag \"{value}\" is not a result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0 or *)"),
            ));
        }
    }
    if let (Some(t), Some(token)) = (tag_result, &record.result) {
        if t != token.result {
            game.problems.push(Problem::new(
                Severity::Error,
                ProblemKind::ResultMismatch,
                token.span,
                format!(
                    "the movetext result {} disagrees with the Result tag \"{}\"",
                    token.text,
                    tag.unwrap_or_default()
                ),
            ));
        }
    }
    if !game.is_complete() || !game.is_valid() {
        return;
    }
    let Some(stated) = game.played_result() else {
        return;
    };
    let span = record
        .result
        .as_ref()
        .map_or_else(|| tag_span(record, "Result"), |r| r.span);
    let fen = || Some(game.final_position().to_fen());
    let plies = game.moves.len();
    match game.outcome {
        Some(Outcome::Win(winner)) => {
            let agrees = matches!(
                (stated, winner),
                (GameResult::WhiteWin, Color::White)
                    | (GameResult::BlackWin, Color::Black)
                    | (GameResult::Unknown | GameResult::BothLose, _)
            );
            if !agrees {
                let mut p = Problem::new(
                    Severity::Error,
                    ProblemKind::ResultContradictsPosition,
                    span,
                    format!(
                        "result {stated} contradicts the final position: {} is to move and has \
                         no legal move, so {winner} won",
                        winner.other()
                    ),
                );
                p.fen = fen();
                p.ply = Some(plies);
                game.problems.push(p);
            }
        }
        Some(Outcome::Draw(reason)) => {
            if matches!(stated, GameResult::WhiteWin | GameResult::BlackWin) {
                let mut p = Problem::new(
                    Severity::Warning,
                    ProblemKind::DrawNotRecorded,
                    span,
                    format!("result {stated}, but the final position is drawn by law ({reason})"),
                );
                p.fen = fen();
                p.ply = Some(plies);
                game.problems.push(p);
            }
        }
        None => {}
    }
}

/// Checks the PlyCount tag against the mainline's moves: a record cut at a line boundary
/// inside its movetext (a truncated archive) still parses, and this is what tells.
pub(super) fn ply_count(game: &mut ReplayedGame) {
    let record = &game.record;
    let Some(value) = record.tag("PlyCount") else {
        return;
    };
    let Ok(stated) = value.trim().parse::<usize>() else {
        return;
    };
    // Moves written as `-` (not recorded) are not in the record: nothing to compare.
    if record
        .warnings
        .iter()
        .any(|w| w.kind == drafti_pdn::WarningKind::MovesNotRecorded)
    {
        return;
    }
    let written = record.moves.nodes.len();
    // A forfeit (`1. 0-2`) has no moves; exporters give it PlyCount 1 or 0. Without a
    // result token either, a larger count is a record cut right after its tags.
    if stated == written || (written == 0 && (record.result.is_some() || stated <= 1)) {
        return;
    }
    let hint = if written < stated {
        if record.result.is_none() {
            ": the record looks cut short (and has no result token)"
        } else {
            ": moves are missing"
        }
    } else {
        ""
    };
    game.problems.push(Problem::new(
        Severity::Error,
        ProblemKind::PlyCountMismatch,
        tag_span(record, "PlyCount"),
        format!("the PlyCount tag says {stated} plies, the movetext has {written}{hint}"),
    ));
}
