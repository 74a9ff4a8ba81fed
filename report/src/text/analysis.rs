//! The text of `drafti analyze`: each game's flagged moves with their numbers, and the
//! problems of a game that was not analysed. Names and messages from the archive are shown
//! with their control characters made [`visible`].

use crate::collect::win_text;
use crate::{counted, visible};
use drafti_analysis::batch::ArchiveGame;
use drafti_analysis::judge::{win_percent, SideSummary};
use drafti_analysis::{doubted_king_ending, json, GameAnalysis};
use drafti_archive::replay::ReplayedGame;
use std::fmt::Write as _;

fn tag<'a>(game: &'a ReplayedGame, name: &str) -> Option<&'a str> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?")
}

fn side_text(s: &SideSummary) -> String {
    let accuracy = s.accuracy.map_or("-".to_string(), |a| format!("{a:.1}%"));
    format!(
        "{}, {}, {}; accuracy {accuracy}",
        counted(s.inaccuracies as u64, "inaccuracy", "inaccuracies"),
        counted(s.mistakes as u64, "mistake", "mistakes"),
        counted(s.blunders as u64, "blunder", "blunders"),
    )
}

/// The text report of one analysed game.
pub fn game_text(g: &ArchiveGame, game: &ReplayedGame, a: &GameAnalysis) -> String {
    let mut out = String::new();
    let white = visible(tag(game, "White").unwrap_or("?"));
    let black = visible(tag(game, "Black").unwrap_or("?"));
    let result = game.played_result().map_or("*", |r| r.as_str());
    let _ = writeln!(
        out,
        "{} game {}: {white} - {black}, {result}, {}",
        visible(&g.file),
        g.raw.index + 1,
        counted(game.moves.len() as u64, "ply", "plies")
    );
    let _ = writeln!(out, "  White: {}", side_text(&a.white));
    let _ = writeln!(out, "  Black: {}", side_text(&a.black));
    for m in a.flagged() {
        let f = json::Move::of(game, m);
        let symbol = m.judgement().map_or("", |j| j.symbol());
        let reason = m
            .reason_text()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        let before = m.ply.checked_sub(1).and_then(|k| game.positions.get(k));
        let doubted = m.unsettled && before.is_some_and(|p| doubted_king_ending(p, game.variant));
        let checked = match m.confirmed_depth {
            _ if m.exact => "exact: endgame tables".to_string(),
            _ if doubted => format!(
                "depth {}, a blunder's drop in an ending of kings on both sides beyond the \
                 tables, which the evaluation cannot judge: not settled",
                m.depth
            ),
            Some(c) if m.unsettled => format!(
                "depth {}, a blunder's drop only since depth {c}: not settled",
                m.depth
            ),
            Some(c) if c < m.depth => format!("depth {}, since depth {c}", m.depth),
            _ => format!("depth {}", m.depth),
        };
        let _ = writeln!(
            out,
            "  ply {:>3}  {} {}{symbol}  {}{reason}: {} -> {} ({} -> {}); best {} ({}); {checked}",
            m.ply,
            f.move_number,
            f.text,
            f.judgement.map_or("", |j| j.as_str()),
            m.best_score,
            m.played_score,
            win_text(win_percent(m.verdict.wc_before)),
            win_text(win_percent(m.verdict.wc_after)),
            f.best.as_deref().unwrap_or("-"),
            f.pv.join(" "),
        );
    }
    out.push('\n');
    out
}

/// The text report of a game that was not analysed (unreadable or invalid).
pub fn skipped_text(g: &ArchiveGame) -> String {
    let mut out = format!(
        "{} game {}: invalid, not analysed (run drafti validate for details)\n",
        visible(&g.file),
        g.raw.index + 1
    );
    for e in json::Problem::of_game(&g.game) {
        let _ = writeln!(out, "  {}:{}: {}", e.line, e.column, visible(&e.message));
    }
    out.push('\n');
    out
}
