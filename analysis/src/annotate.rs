//! A game's analysis written into its record: on every mainline move the evaluation after it
//! (lichess's `[%eval …]`), on each flagged move a NAG and a comment with the best move.

use crate::game::{GameAnalysis, MoveAnalysis};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::Score;
use drafti_pdn::{Comment, GameRecord, Nag};
use drafti_rules::{Color, Position, Variant};

/// The machine-readable evaluation of a position written into PDN comments, lichess's
/// `[%eval …]`: from White's side, in men with two decimals (`[%eval 0.35]`,
/// `[%eval -1.20]`), or `#N` / `#-N` for a proven win of White / Black in N plies.
pub fn eval_command(white_score: Score) -> String {
    match (white_score.win_distance(), white_score.loss_distance()) {
        (Some(n), _) => format!("[%eval #{n}]"),
        (_, Some(n)) => format!("[%eval #-{n}]"),
        _ => drafti_pdn::eval_command(white_score.raw()),
    }
}

/// The comment written on a flagged move by [`annotate`]: `-2.10 (best +0.35: d6-c5)`,
/// `draw thrown away: loss in 12; loss in 12 (best 0.00: Kb8-e5; endgame tables)`. Scores
/// are from the mover's side.
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
        .reason_text()
        .map(|r| format!("{r}; "))
        .unwrap_or_default();
    let exact = if m.exact { "; endgame tables" } else { "" };
    let unsettled = if m.unsettled {
        "; a blunder's drop, not settled"
    } else {
        ""
    };
    format!(
        "{reason}{} (best {}: {best}{exact}{unsettled})",
        m.played_score, m.best_score
    )
}

/// Writes the analysis into `record`: on every mainline move a comment with the evaluation
/// after it ([`eval_command`]); on each flagged move also a NAG (`$6` ?!, `$2` ?, `$4` ??,
/// put first and replacing earlier move-strength NAGs; the writer prints the first NAG as
/// the move's suffix `?!`, `?`, `??`) and, in the same comment, [`flag_comment`]. `numeric`
/// chooses square numbers for the best moves.
pub fn annotate(
    record: &mut GameRecord,
    game: &ReplayedGame,
    analysis: &GameAnalysis,
    numeric: bool,
) {
    for m in &analysis.moves {
        let Some(node) = record.moves.nodes.get_mut(m.ply - 1) else {
            continue;
        };
        // The position after the move: a proven result one ply nearer than from before it.
        let after = match (
            m.played_score.win_distance(),
            m.played_score.loss_distance(),
        ) {
            (Some(d), _) => Score::win_in(d.saturating_sub(1)),
            (_, Some(d)) => Score::loss_in(d.saturating_sub(1)),
            _ => m.played_score,
        };
        let white_after = match m.mover {
            Color::White => after,
            Color::Black => -after,
        };
        let mut text = eval_command(white_after);
        if let Some(judgement) = m.judgement() {
            node.nags.retain(|n| !(1..=6).contains(&n.value));
            node.nags.insert(
                0,
                Nag {
                    value: judgement.nag(),
                    span: Default::default(),
                },
            );
            text.push(' ');
            text.push_str(&flag_comment(
                m,
                &game.positions[m.ply - 1],
                game.variant,
                numeric,
            ));
        }
        node.comments.push(Comment {
            text,
            span: Default::default(),
        });
    }
}
