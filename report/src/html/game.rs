//! One game's `<article>`: its players and figures, its moves with the flagged ones marked,
//! the record's comments and variations, and the viewer's data ([`super::viewer`]).

use super::viewer;
use crate::collect::{move_anchor, short_name};
use crate::one_decimal;
use crate::svg::escape;
use drafti_analysis::json::is_numeric;
use drafti_analysis::judge::{Judgement, SideSummary};
use drafti_analysis::GameAnalysis;
use drafti_archive::replay::ReplayedGame;
use drafti_pdn::Line;
use drafti_rules::{move_number, Color};
use std::fmt::Write as _;

/// One game to render.
pub struct GameView<'a> {
    /// The section's anchor.
    pub anchor: &'a str,
    /// The input's name.
    pub file: &'a str,
    /// 0-based number in the input.
    pub index: usize,
    /// The replayed game.
    pub game: &'a ReplayedGame,
    /// Its analysis (valid games).
    pub analysis: Option<&'a GameAnalysis>,
    /// The opening, as the game played it.
    pub opening: Option<&'a str>,
    /// White player.
    pub white: &'a str,
    /// Black player.
    pub black: &'a str,
}

fn judgement_class(j: Judgement) -> &'static str {
    match j {
        Judgement::Blunder => "jb",
        Judgement::Mistake => "jm",
        Judgement::Inaccuracy => "ji",
    }
}

/// Comments, NAGs and variations of a line as readable markup (variations greyed).
fn line_markup(out: &mut String, line: &Line, first: Color, ply0: usize) {
    for c in &line.leading_comments {
        let _ = write!(out, r#" <span class="c">{}</span>"#, escape(c.text.trim()));
    }
    for (i, node) in line.nodes.iter().enumerate() {
        let ply = ply0 + i;
        if let Some(n) = &node.number {
            let dots = if n.ellipsis { "..." } else { "." };
            let _ = write!(out, " {}{dots}", n.number);
        } else if i == 0 {
            let _ = write!(out, " {}", move_number(first, ply));
        }
        let _ = write!(out, " {}", escape(&node.mv.text));
        nags_markup(out, node);
        for c in &node.comments {
            let _ = write!(out, r#" <span class="c">{}</span>"#, escape(c.text.trim()));
        }
        for v in &node.variations {
            out.push_str(" (");
            line_markup(out, v, first, ply);
            out.push_str(" )");
        }
    }
}

/// The record's NAGs of a move: `!`, `?!`… after the move, others as ` $n`.
fn nags_markup(out: &mut String, node: &drafti_pdn::MoveNode) {
    for nag in &node.nags {
        match nag.symbol() {
            Some(s) => out.push_str(s),
            None => {
                let _ = write!(out, " ${}", nag.value);
            }
        }
    }
}

/// The moves of the mainline with flagged moves marked, the record's own NAGs, comments and
/// variations, and the moves after the one that stopped the replay (struck through).
///
/// One move pair per line (`white-space: pre-line`, the lines in columns): a line breaks
/// between pairs, never inside a move (`32-⏎28`), at the cost of one newline per pair. A
/// comment or a variation gets lines of its own and the next move starts a line with its
/// number. The viewer's script reads this structure (viewer.js, `enhanceMoves`).
fn moves_markup(out: &mut String, v: &GameView<'_>) {
    let game = v.game;
    let nodes = &game.record.moves.nodes;
    out.push_str(r#"<p class="moves">"#);
    for c in &game.record.moves.leading_comments {
        let _ = writeln!(out, r#"<span class="c">{}</span>"#, escape(c.text.trim()));
    }
    let first = game.first_mover;
    let mut line_open = false;
    for (i, node) in nodes.iter().enumerate() {
        let ply = i + 1;
        let white_moves = match first {
            Color::White => i.is_multiple_of(2),
            Color::Black => !i.is_multiple_of(2),
        };
        if white_moves || !line_open {
            if line_open {
                out.push('\n');
            }
            let _ = write!(out, "{} ", move_number(first, ply));
            line_open = true;
        } else {
            out.push(' ');
        }
        let flag = v
            .analysis
            .and_then(|a| a.moves.get(i))
            .and_then(|m| m.judgement().map(|j| (m, j)));
        let text = escape(&node.mv.text);
        match flag {
            Some((m, j)) => {
                let id = if j == Judgement::Blunder {
                    format!(r#" id="{}""#, move_anchor(v.anchor, ply))
                } else {
                    String::new()
                };
                // Why a proven result made it a blunder (the viewer shows it too).
                let title = m
                    .reason_text()
                    .map(|r| format!(r#" title="{}""#, escape(&r)))
                    .unwrap_or_default();
                let _ = write!(
                    out,
                    r#"<i class="{}"{id}{title}>{text}{}</i>"#,
                    judgement_class(j),
                    j.symbol()
                );
            }
            None if i >= game.moves.len() => {
                let _ = write!(
                    out,
                    r#"<span class="bad" title="not replayed: see the error above">{text}</span>"#
                );
            }
            None => {
                out.push_str(&text);
                nags_markup(out, node);
            }
        }
        if !node.comments.is_empty() || !node.variations.is_empty() {
            line_open = false;
            for c in &node.comments {
                let _ = write!(out, "\n<span class=\"c\">{}</span>", escape(c.text.trim()));
            }
            for var in &node.variations {
                out.push_str("\n<span class=\"v\">(");
                line_markup(out, var, first, ply);
                out.push_str(" )</span>");
            }
            out.push('\n');
        }
    }
    if line_open {
        out.push('\n');
    }
    let result = game
        .record
        .result
        .as_ref()
        .map(|r| r.result.as_str())
        .or_else(|| game.record.tag_result().map(|r| r.as_str()))
        .unwrap_or("*");
    let _ = write!(out, "<b>{result}</b></p>");
}

/// A side's line of the game card: `White: 0 ?? 1 ? 2 ?! · accuracy 97.2%` (the names are in
/// the heading). The three counts are `<i>`s that the style colours by their order (red,
/// orange, yellow): a class on each would cost 140 KB in the bundled corpus's report.
fn side_line(out: &mut String, color: Color, s: &SideSummary) {
    let _ = write!(
        out,
        r#"{}: <i>{} ??</i> <i>{} ?</i> <i>{} ?!</i> · accuracy {}"#,
        color.name(),
        s.blunders,
        s.mistakes,
        s.inaccuracies,
        one_decimal(s.accuracy, "%", "–")
    );
}

/// The `<article>` of one game, with the viewer's data (`data-v`, see [`super::viewer`]) when
/// the game could be replayed.
pub fn game_section(v: &GameView<'_>) -> String {
    let game = v.game;
    let mut out = String::with_capacity(4096);
    let result = game.played_result().map_or("*", |r| r.as_str());
    let data = viewer::game_data(game, v.analysis, is_numeric(game));
    let _ = write!(
        out,
        r##"<article class="game" id="{}" data-v="{}"><h3><a href="#{}">#{}</a> {} – {} <b>{result}</b></h3>"##,
        v.anchor,
        escape(&data),
        v.anchor,
        v.index + 1,
        escape(v.white),
        escape(v.black),
    );
    let mut meta = vec![format!(
        "{} game {}",
        escape(short_name(v.file)),
        v.index + 1
    )];
    for tag in ["Event", "Date"] {
        if let Some(value) = game
            .record
            .tag(tag)
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.contains('?'))
        {
            meta.push(escape(value));
        }
    }
    meta.push(format!("{} plies", game.record.moves.nodes.len()));
    if game.first_mover == Color::Black {
        meta.push("Black moved first".to_string());
    }
    if game.record.tag("FEN").is_some() {
        meta.push(format!("from {}", escape(&game.start.to_fen())));
    }
    if let Some(name) = v.opening {
        meta.push(format!("opening {}", escape(name)));
    }
    let _ = write!(out, r#"<p class="meta">{}</p>"#, meta.join(" · "));
    if !game.is_valid() {
        out.push_str(r#"<div class="err"><b>Invalid record</b> (not analysed):<ul>"#);
        for p in game.errors().take(3) {
            let _ = write!(
                out,
                "<li>line {}, column {}: {}</li>",
                p.span.line,
                p.span.column,
                escape(&p.message)
            );
        }
        out.push_str("</ul></div>");
    }
    if let Some(a) = v.analysis {
        out.push_str(r#"<p class="sides">"#);
        side_line(&mut out, Color::White, &a.white);
        out.push_str("<br/>");
        side_line(&mut out, Color::Black, &a.black);
        out.push_str("</p>");
    }
    moves_markup(&mut out, v);
    out.push_str("</article>\n");
    out
}

/// The `<article>` of a game that could not be parsed.
pub(crate) fn unreadable_section(anchor: &str, file: &str, index: usize, error: &str) -> String {
    format!(
        r##"<article class="game" id="{anchor}"><h3><a href="#{anchor}">#{}</a> unreadable record</h3><p class="meta">{} game {}</p><div class="err"><b>Syntax error</b> (not analysed): {}</div></article>
"##,
        index + 1,
        escape(short_name(file)),
        index + 1,
        escape(error)
    )
}
