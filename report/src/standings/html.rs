//! `drafti standings --html OUT`: one self-contained page (the report's style, no script)
//! with each Event's matches, group tables, knock-out tree, round-robin table and Swiss
//! ranking, written an Event at a time.

use super::formats::{
    bracket_line, group_cells, group_heading, group_notes, round_robin_heading, score_cells,
    still_in_line, swiss_heading, tzdraft_cells, tzdraft_heading,
};
use super::{count, event_title_text, match_line_text, recognised_line};
use crate::html::CSS;
use crate::svg::escape;
use drafti_archive::standings::{Bracket, EventView};
use std::io::Write;

/// The page's own rules: the knock-out tree as columns of rounds.
const TREE_CSS: &str = ".tree{display:flex;gap:1.5em;overflow-x:auto;align-items:stretch}.tree section{display:flex;flex-direction:column;min-width:14em}.tree .ms{flex:1;display:flex;flex-direction:column;justify-content:space-around;gap:.8em}.tree h3{margin:0 0 .5em;font-size:1em}.tree .m{border:1px solid #ccc;border-radius:6px;padding:.4em .6em}.tree .m b{color:#2b9348}.champion{font-size:1.2em}";

/// The start of the page, titled `title`.
pub fn page_head<W: Write>(out: &mut W, title: &str, laws: &str) -> std::io::Result<()> {
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>drafti standings – {t}</title><style>{CSS}{TREE_CSS}</style></head><body><header class=\"top\"><div><h1>drafti standings</h1><p>{t}</p><p>Laws: {l}.</p></div></header><main>",
        t = escape(title),
        l = escape(laws)
    )
}

/// A table of `cells` (the first row is the header); the columns in `numbers` are numbers.
fn html_table<W: Write>(
    out: &mut W,
    cells: &[Vec<String>],
    numbers: std::ops::Range<usize>,
) -> std::io::Result<()> {
    write!(out, "<div class=\"scroll\"><table>")?;
    for (i, row) in cells.iter().enumerate() {
        write!(out, "<tr>")?;
        for (c, cell) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            let class = if numbers.contains(&c) {
                " class=\"r\""
            } else {
                ""
            };
            write!(out, "<{tag}{class}>{}</{tag}>", escape(cell))?;
        }
        write!(out, "</tr>")?;
    }
    write!(out, "</table></div>")
}

fn tree<W: Write>(out: &mut W, b: &Bracket) -> std::io::Result<()> {
    write!(out, "<h3>Knock-out</h3><div class=\"tree\">")?;
    for round in &b.rounds {
        write!(
            out,
            "<section><h3>{}</h3><div class=\"ms\">",
            escape(&round.name)
        )?;
        for m in &round.matches {
            write!(out, "<div class=\"m\">")?;
            for side in 0..2 {
                let name = escape(&m.players[side]);
                let won = m.winner.as_deref() == Some(m.players[side].as_str());
                if won {
                    write!(out, "<b>{name}</b> {}", m.score[side])?;
                } else {
                    write!(out, "{name} {}", m.score[side])?;
                }
                if side == 0 {
                    write!(out, "<br/>")?;
                }
            }
            write!(
                out,
                "<div class=\"note\">{}</div></div>",
                escape(&bracket_line(m))
            )?;
        }
        write!(out, "</div></section>")?;
    }
    write!(
        out,
        "</div><p class=\"champion\">Champion: <b>{}</b></p>",
        escape(b.champion.as_deref().unwrap_or("none yet"))
    )
}

/// One Event's section.
pub fn event_html<W: Write>(out: &mut W, e: &EventView, n: usize) -> std::io::Result<()> {
    write!(
        out,
        "<h2 id=\"event{n}\">{}</h2>",
        escape(&event_title_text(e))
    )?;
    if let Some(line) = recognised_line(e) {
        write!(out, "<p class=\"note\">{}</p>", escape(&line))?;
    }
    if let (Some(groups), Some(rules)) = (&e.groups, &e.table_rules) {
        for g in groups {
            write!(out, "<h3>{}</h3>", escape(&group_heading(g, rules)))?;
            html_table(out, &group_cells(g), 2..10)?;
            for note in group_notes(g) {
                write!(out, "<p class=\"note\">{}</p>", escape(&note))?;
            }
        }
    }
    if let Some(t) = &e.tzdraft {
        write!(out, "<h3>{}</h3>", escape(&tzdraft_heading(t)))?;
        if let Some(rows) = &t.table {
            let cells = tzdraft_cells(rows);
            html_table(out, &cells, 2..cells[0].len() - 1)?;
        }
        if let Some(names) = &t.still_in {
            write!(out, "<p>{}</p>", escape(&still_in_line(names)))?;
        }
    }
    if let Some(b) = &e.bracket {
        tree(out, b)?;
    }
    for (heading, rows) in [
        (swiss_heading(), &e.swiss),
        (round_robin_heading(), &e.round_robin),
    ] {
        if let Some(rows) = rows {
            write!(out, "<h3>{}</h3>", escape(&heading))?;
            let cells = score_cells(rows);
            // The numbers: from games to the last tie-break.
            html_table(out, &cells, 2..cells[0].len() - 1)?;
        }
    }
    if e.match_count() > 0 {
        write!(
            out,
            "<details><summary>{}</summary><ul>",
            count(e.match_count(), "match")
        )?;
        for m in 0..e.match_count() {
            write!(
                out,
                "<li>Match {}: {}</li>",
                m + 1,
                escape(&match_line_text(&e.match_header(m)))
            )?;
        }
        write!(out, "</ul></details>")?;
    }
    if e.warning_count() > 0 {
        write!(out, "<h3>Warnings</h3><ul class=\"errs\">")?;
        for w in e.warnings() {
            write!(out, "<li>{}: {}</li>", w.kind.name(), escape(&w.message))?;
        }
        write!(out, "</ul>")?;
    }
    Ok(())
}

/// The end of the page.
pub fn page_tail<W: Write>(out: &mut W) -> std::io::Result<()> {
    writeln!(
        out,
        "<p class=\"note\">Made by drafti.</p></main></body></html>"
    )
}
