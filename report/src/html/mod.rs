//! The HTML report: self-contained pages (inline CSS and script, nothing fetched), written as
//! well-formed XHTML-compatible markup so any XML parser reads them. This module writes the
//! document's head, its summary and its tail; [`game`] each game's article, [`viewer`] the
//! data of its board; `board` the analysis board's scripts and the engine's WebAssembly module;
//! [`pages`] puts the parts together into one file or a folder of pages.
//!
//! Layout: a header, the summary (archive health, players, biggest blunders, openings, the
//! index of games), then one `<article>` per game: its players and figures and its moves with
//! the flagged ones marked (blunders, mistakes, inaccuracies), the record's comments and
//! variations. That much is the page without script. The inline viewer
//! (`assets/viewer.js`) adds to every game a board at any ply, the evaluation graph, the
//! engine's best move and line, drawn from the compact data each article carries; the
//! analysis board (`assets/board.js`) moves of the reader's own with the engine's answer, the
//! explorer and the index's filters. The style is `assets/report.css` and `assets/board.css`.

pub(crate) mod board;
pub mod game;
pub mod pages;
pub mod viewer;

use crate::collect::{win_text, Collector, IndexRow, RunInfo, Status, PAGE_GAMES};
use crate::svg::escape;
use crate::{one_decimal, thousands};
use drafti_analysis::judge::{
    BLUNDER_DROP, INACCURACY_DROP, K, MISTAKE_DROP, PROVEN_INACCURACY_WC, PROVEN_MISTAKE_WC,
};
use drafti_analysis::DOUBTED_ENDING_PIECES;
use drafti_archive::openings::{RowKind, CLASSIFY_PLIES};
use std::fmt::Write as _;

/// The page's one way back to the index of games, fixed in a corner (a link in every game's
/// heading cost the bundled corpus's report 76 KB).
pub(crate) const UP: &str =
    r##"<a class="up" href="#games" title="the index of games">↑ games</a>"##;

/// The style of the report's pages (the analysis board's with it).
pub(crate) const CSS: &str = concat!(
    include_str!("../../assets/report.css"),
    include_str!("../../assets/board.css")
);

/// The link to `anchor` (a game's, or a move's `g1-2-p17`) when its game has a section:
/// `#anchor`, or `games-0003.html#anchor` in a paged report.
fn game_href(index: &[IndexRow], anchor: &str) -> Option<String> {
    let game = match anchor.rsplit_once("-p") {
        Some((g, ply)) if ply.bytes().all(|b| b.is_ascii_digit()) => g,
        _ => anchor,
    };
    let row = index.iter().find(|r| r.anchor == game)?;
    Some(format!(
        "{}#{anchor}",
        row.page.as_deref().unwrap_or_default()
    ))
}

/// `1 game`, `2,004 games`.
pub fn games_text(n: u64) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{} games", thousands(n))
    }
}

/// The document up to and including the summary (everything before the game sections).
pub(crate) fn head_and_summary(c: &mut Collector<'_>, info: &RunInfo) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>");
    out.push_str(r#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#);
    let _ = write!(
        out,
        "<title>drafti report – {}</title><style>{CSS}</style></head><body>{UP}",
        games_text(c.games)
    );
    let _ = write!(
        out,
        r##"<header class="top"><div><h1>drafti report</h1><p>{} from {}. {}</p><p class="note">Every position searched by the drafti engine ({}).</p><p class="nojs note">Turn on JavaScript to step through every game on a board with the engine's evaluation.</p><nav><a href="#health">Archive health</a><a href="#players">Players</a><a href="#blunders">Biggest blunders</a><a href="#openings">Openings</a><a href="#games">Games</a><a href="#reading">How to read</a></nav></div></header><main>"##,
        games_text(c.games),
        escape(&info.source),
        escape(&info.trust),
        escape(&info.search)
    );
    let t = &c.totals;
    out.push_str(r#"<div class="cards">"#);
    for (class, n, label) in [
        ("", c.games, "games"),
        ("", c.valid, "valid"),
        (
            if c.invalid + c.unreadable > 0 {
                "warn"
            } else {
                ""
            },
            c.invalid + c.unreadable,
            "invalid",
        ),
        ("b", t.blunders, "blunders ??"),
        ("m", t.mistakes, "mistakes ?"),
        ("i", t.inaccuracies, "inaccuracies ?!"),
    ] {
        let _ = write!(
            out,
            r#"<div class="card {class}"><span class="n">{}</span><span class="l">{label}</span></div>"#,
            thousands(n)
        );
    }
    out.push_str("</div>");

    health(&mut out, c);
    players(&mut out, c);
    biggest_blunders(&mut out, c);
    openings(&mut out, c);
    games_index(&mut out, c);
    out.push_str(r#"<p class="legend note"><span><i style="background:#d62828"></i>blunder ??</span><span><i style="background:#f08c00"></i>mistake ?</span><span><i style="background:#e9c46a"></i>inaccuracy ?!</span><span><i style="background:#2b9348"></i>engine's best move</span></p>"#);
    out
}

/// The archive's health: games per file, the counts, the first errors.
fn health(out: &mut String, c: &mut Collector<'_>) {
    out.push_str(r#"<h2 id="health">Archive health</h2><div class="scroll"><table><tr><th>file</th><th class="r">games</th></tr>"#);
    for (name, n) in c.names.iter().zip(&c.games_per_input) {
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td class="r">{}</td></tr>"#,
            escape(name),
            thousands(*n)
        );
    }
    out.push_str("</table></div>");
    let _ = write!(
        out,
        r#"<p>{} valid, {} invalid, {} unreadable; {} warnings; {} plies, {} positions searched.</p>"#,
        thousands(c.valid),
        thousands(c.invalid),
        thousands(c.unreadable),
        thousands(c.warnings),
        thousands(c.plies),
        thousands(c.positions),
    );
    if !c.errors.is_empty() {
        out.push_str(r#"<p>First errors (run <code>drafti validate</code> for all of them):</p><ul class="errs">"#);
        for e in &c.errors {
            let link = match game_href(&c.index, &e.anchor) {
                Some(href) => format!(r#"<a href="{href}">{}</a>"#, escape(&e.game)),
                None => escape(&e.game),
            };
            let _ = write!(out, "<li>{link}: {}</li>", escape(&e.error));
        }
        out.push_str("</ul>");
    }
}

/// Blunders per player, the 50 with the most games.
fn players(out: &mut String, c: &mut Collector<'_>) {
    out.push_str(r#"<h2 id="players">Blunders per player</h2><div class="scroll"><table><tr><th>player</th><th class="r">games</th><th class="r hide-s">score</th><th class="r hide-s">moves</th><th class="r">??</th><th class="r">?</th><th class="r hide-s">?!</th><th class="r">?? /100</th><th class="r">accuracy</th></tr>"#);
    for (name, p) in c.players_sorted().into_iter().take(50) {
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td class="r">{}</td><td class="r hide-s">{}</td><td class="r hide-s">{}</td><td class="r">{}</td><td class="r">{}</td><td class="r hide-s">{}</td><td class="r">{}</td><td class="r">{}</td></tr>"#,
            escape(name),
            thousands(p.games),
            one_decimal(p.score_pct(), "%", "–"),
            thousands(p.moves),
            thousands(p.blunders),
            thousands(p.mistakes),
            thousands(p.inaccuracies),
            p.blunder_rate()
                .map_or_else(|| "–".to_string(), |r| format!("{r:.2}")),
            one_decimal(p.accuracy(), "%", "–"),
        );
    }
    if c.players.is_empty() {
        out.push_str(r#"<tr><td colspan="9">No valid game to analyse.</td></tr>"#);
    }
    out.push_str("</table></div>");
    if c.players.len() > 50 {
        let _ = write!(
            out,
            r#"<p class="note">{} more players not shown.</p>"#,
            c.players.len() - 50
        );
    }
}

/// The biggest blunders, each linked to its board.
fn biggest_blunders(out: &mut String, c: &mut Collector<'_>) {
    out.push_str(r#"<h2 id="blunders">Biggest blunders</h2>"#);
    let biggest = c.biggest_blunders().to_vec();
    if let Some(r) = c.rechecked.filter(|r| r.checked > 0) {
        let _ = write!(out, "<p>{}</p>", escape(&r.sentence()));
    }
    if biggest.is_empty() {
        out.push_str("<p>None found.</p>");
    } else {
        out.push_str(r#"<div class="scroll"><table><tr><th>move</th><th>player</th><th class="r">winning chances</th><th>best</th><th>game</th></tr>"#);
        for b in &biggest {
            let mv = match game_href(&c.index, &b.anchor) {
                Some(href) => format!(r#"<a class="jb" href="{href}">{}</a>"#, escape(&b.text)),
                None => escape(&b.text),
            };
            let _ = write!(
                out,
                r#"<tr><td>{mv}</td><td>{} ({})</td><td class="r">{} → {}</td><td class="best">{}</td><td>{}</td></tr>"#,
                escape(&b.player),
                b.mover.name(),
                win_text(b.before),
                win_text(b.after),
                escape(&b.best),
                escape(&b.game)
            );
        }
        out.push_str("</table></div>");
    }
}

/// The openings most played.
fn openings(out: &mut String, c: &mut Collector<'_>) {
    let mut rows: Vec<_> = c
        .openings
        .rows(1)
        .into_iter()
        .filter(|r| r.kind == RowKind::Opening)
        .collect();
    rows.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.code.cmp(&b.code)));
    let _ = write!(
        out,
        r#"<h2 id="openings">Openings</h2><p class="note">The deepest position of the opening book reached in the first {CLASSIFY_PLIES} plies; games that Black started are mirrored, so lines read as if White had started (each game's own card shows its line as played).</p><div class="scroll"><table><tr><th>opening</th><th class="r">games</th><th class="r hide-s">1-0</th><th class="r hide-s">draw</th><th class="r hide-s">0-1</th><th class="r">first mover's score</th></tr>"#
    );
    let shown = 15;
    for r in rows.iter().take(shown) {
        let t = &r.tally;
        let _ = write!(
            out,
            r#"<tr><td class="w">{}</td><td class="r">{}</td><td class="r hide-s">{}</td><td class="r hide-s">{}</td><td class="r hide-s">{}</td><td class="r">{}</td></tr>"#,
            escape(&r.name),
            t.games,
            t.white_wins,
            t.draws,
            t.black_wins,
            one_decimal(r.score_pct, "%", "–")
        );
    }
    out.push_str("</table></div>");
    if rows.len() > shown {
        let _ = write!(
            out,
            r#"<p class="note">{} more openings: <code>drafti openings</code> lists them all.</p>"#,
            rows.len() - shown
        );
    }
}

/// The index of the games, with links to their sections.
fn games_index(out: &mut String, c: &mut Collector<'_>) {
    let _ = write!(out, r#"<h2 id="games">Games</h2>"#);
    if c.games > c.index.len() as u64 {
        let _ = write!(
            out,
            r#"<p class="note">The first {} of {} games have a section below; the tables above count all of them (<code>drafti report --html-dir DIR</code> writes every game, in pages of {}).</p>"#,
            thousands(c.index.len() as u64),
            thousands(c.games),
            PAGE_GAMES
        );
    }
    if let (Some(first), Some(last)) = (c.index.first(), c.index.last()) {
        if first.page.is_some() {
            let pages = last.page.as_deref().unwrap_or_default();
            let _ = write!(
                out,
                r#"<p>The games are in pages of {PAGE_GAMES}: <a href="{}">{}</a> … <a href="{pages}">{pages}</a>.</p>"#,
                first.page.as_deref().unwrap_or_default(),
                first.page.as_deref().unwrap_or_default(),
            );
        }
    }
    let open = if c.index.len() <= 60 {
        " open=\"open\""
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"<details{open}><summary>Index of {} (?? blunders, ? mistakes)</summary><div class="scroll"><table class="ix"><tr><th>game</th><th>White</th><th>Black</th><th>result</th><th>??</th><th>?</th><th>plies</th></tr>"#,
        games_text(c.index.len() as u64)
    );
    for r in &c.index {
        let (b, m) = match (r.status, r.flags) {
            (_, Some((b, m))) => (b.to_string(), m.to_string()),
            (Status::Valid, None) => ("–".to_string(), "–".to_string()),
            _ => ("invalid".to_string(), String::new()),
        };
        // The opening's name, for the index's filter (board.js).
        let opening = r
            .opening
            .as_deref()
            .map(|o| format!(r#" data-o="{}""#, escape(o)))
            .unwrap_or_default();
        let _ = write!(
            out,
            r##"<tr{opening}><td><a href="{}#{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{b}</td><td>{m}</td><td>{}</td></tr>"##,
            r.page.as_deref().unwrap_or_default(),
            r.anchor,
            escape(&r.label),
            escape(&r.white),
            escape(&r.black),
            r.result,
            r.plies,
        );
    }
    out.push_str("</table></div></details>");
}

/// The viewer's script.
pub(crate) const VIEWER_JS: &str = include_str!("../../assets/viewer.js");

/// The end of the document: how to read the report, and the viewer's script with the
/// analysis board's ([`board`]) before it and the engine's module after it.
pub(crate) fn tail() -> String {
    let script = VIEWER_JS;
    debug_assert!(!script.contains("]]>") && !script.contains("</"));
    format!(
        r#"<h2 id="reading">How to read this report</h2><p>The engine estimates each side's <b>winning chances</b> in every position (50% is even; 100% a sure win). A move is a <b>blunder (??)</b> when it costs the player at least {:.0} points of them, or throws away a proven win, or walks into a proven loss — unless the game was decided anyway: when the side the proven result favours had more than {:.0}% of the chances without it, the move is only a mistake, more than {:.1}% only an inaccuracy (as lichess grades a mate let in when already lost). In a position the endgame tables hold the verdict is exact (“draw thrown away: loss in 12”, “win in 31 missed”). In Czech and Russian endings of {} pieces or fewer with kings on both sides that the tables do not hold, the engine's estimate cannot tell a draw from a win, so a blunder there without a proven result is shown as a mistake. A <b>mistake (?)</b> costs at least {:.1} points; an <b>inaccuracy (?!)</b> at least {:.2}. <b>Accuracy</b> is 100% when every move keeps the chances the best move would keep (lichess's formula).</p><p>Each game has a board: step through it with the buttons, the arrow keys (Home and End for the start and the end), a swipe on the board, or a click on any move or on the graph of White's winning chances (more light area: better for White; dots mark the flagged moves). The board shows the position after the current move, the move's squares tinted (red, orange or yellow when it is flagged), and the engine's best move in the position as a green arrow; before a flagged move the move played is drawn too, in its colour. The address of the page follows the board (<code>#g1-3-p17</code>: game 3 of the first file after 17 plies), so a position can be bookmarked or sent.</p><p class="note">Made by drafti. Searches are limited by nodes or depth, never by time, so the same archive gives the same report.</p></main><script>//<![CDATA[
{}//]]></script>{}<script>//<![CDATA[
{script}//]]></script>{}</body></html>
"#,
        50.0 * BLUNDER_DROP,
        50.0 * (1.0 + PROVEN_MISTAKE_WC),
        50.0 * (1.0 + PROVEN_INACCURACY_WC),
        DOUBTED_ENDING_PIECES,
        50.0 * MISTAKE_DROP,
        50.0 * INACCURACY_DROP,
        viewer_globals(),
        board::scripts_before_viewer(),
        board::module_data(),
    )
}

/// The viewer's globals (`DRAFTI`: the squares' geometry, the start board, the curve's
/// steepness), as a script's text.
pub(crate) fn viewer_globals() -> String {
    format!(
        "var DRAFTI={{geo:{},start:{},k:{K}}};\n",
        viewer::geometry_js(),
        viewer::start_board_js()
    )
}
