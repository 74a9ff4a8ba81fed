//! The HTML report: one self-contained file (inline CSS, SVG and script, nothing fetched),
//! written as well-formed XHTML-compatible markup so any XML parser reads it.
//!
//! Layout: a header, the summary (archive health, players, biggest blunders, openings, the
//! index of games), then one `<article>` per game: its players and figures and its moves with
//! the flagged ones marked (blunders, mistakes, inaccuracies), the record's comments and
//! variations. That much is the page without script. The inline viewer (`viewer.js`) adds to
//! every game a board at any ply, the evaluation graph, the engine's best move and line,
//! drawn from the compact data each article carries (`viewer.rs`).

use super::output::{page_name, PAGE_GAMES};
use super::{is_numeric, move_number, short_name, viewer, Collector, FlagBrief, IndexRow, Status};
use crate::svg::escape;
use drafti_analysis::judge::{
    win_percent, Judgement, SideSummary, BLUNDER_DROP, INACCURACY_DROP, K, MISTAKE_DROP,
    PROVEN_INACCURACY_WC, PROVEN_MISTAKE_WC,
};
use drafti_analysis::{GameAnalysis, MoveAnalysis};
use drafti_archive::openings::{RowKind, CLASSIFY_PLIES};
use drafti_archive::replay::ReplayedGame;
use drafti_pdn::Line;
use drafti_rules::Color;
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

/// The anchor of the board after ply `ply` of a game (the viewer's fragment, and the id of a
/// blunder in the moves).
pub fn move_anchor(anchor: &str, ply: usize) -> String {
    format!("{anchor}-p{ply}")
}

/// The summary's record of a flagged move.
pub fn brief(
    game: &ReplayedGame,
    m: &MoveAnalysis,
    anchor: &str,
    label: &str,
    white: &str,
    black: &str,
) -> FlagBrief {
    let before = &game.positions[m.ply - 1];
    let legal = before.legal_moves(game.variant);
    let numeric = is_numeric(game);
    let symbol = m.judgement().map_or("", |j| j.symbol());
    FlagBrief {
        anchor: move_anchor(anchor, m.ply),
        game: label.to_string(),
        player: match m.mover {
            Color::White => white.to_string(),
            Color::Black => black.to_string(),
        },
        mover: m.mover,
        text: format!(
            "{} {}{}",
            move_number(game.first_mover, m.ply),
            game.record.moves.nodes[m.ply - 1].mv.text,
            symbol
        ),
        before: win_percent(m.verdict.wc_before),
        after: win_percent(m.verdict.wc_after),
        best: m
            .best
            .map(|b| b.notation(&legal, numeric))
            .unwrap_or_default(),
        ordinal: 0,
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

/// A percentage without decimals, rounded half up (as the page's script rounds).
pub fn percent0(x: f64) -> String {
    format!("{}", x.round() as i64)
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
        pct(s.accuracy)
    );
}

/// The `<article>` of one game, with the viewer's data (`data-v`, see `viewer.rs`) when the
/// game could be replayed.
/// The page's one way back to the index of games, fixed in a corner (a link in every game's
/// heading cost the bundled corpus's report 76 KB).
const UP: &str = r##"<a class="up" href="#games" title="the index of games">↑ games</a>"##;

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
pub fn unreadable_section(anchor: &str, file: &str, index: usize, error: &str) -> String {
    format!(
        r##"<article class="game" id="{anchor}"><h3><a href="#{anchor}">#{}</a> unreadable record</h3><p class="meta">{} game {}</p><div class="err"><b>Syntax error</b> (not analysed): {}</div></article>
"##,
        index + 1,
        escape(short_name(file)),
        index + 1,
        escape(error)
    )
}

const CSS: &str = r#"
:root{--ink:#2a2520;--muted:#6b6158;--paper:#faf7f2;--card:#fff;--line:#e4dccf;--accent:#8a4b1f}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1040px;margin:0 auto;padding:12px 14px 40px}
header.top{background:#3d2a1a;color:#f6ead8;padding:18px 14px 14px}
header.top div{max-width:1040px;margin:0 auto}
header.top h1{margin:0 0 4px;font-size:1.6em;letter-spacing:.02em}
header.top p{margin:0;color:#e0cfb7}
nav{margin-top:10px;display:flex;flex-wrap:wrap;gap:6px}
nav a{color:#f6ead8;background:#5b3a1e;padding:3px 10px;border-radius:12px;text-decoration:none;font-size:.9em}
h2{font-size:1.25em;margin:28px 0 10px;border-bottom:2px solid var(--line);padding-bottom:4px}
a{color:var(--accent)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(104px,1fr));gap:8px;margin-top:14px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .n{font-size:1.6em;font-weight:700;display:block}
.card .l{color:var(--muted);font-size:.85em}
.card.b .n{color:#d62828}.card.m .n{color:#c77700}.card.i .n{color:#a88a2a}.card.warn .n{color:#d62828}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;background:var(--card);font-size:.92em}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{background:#f1ebe1;font-weight:600;white-space:normal;vertical-align:bottom}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
td.w{white-space:normal;min-width:12em}
.note{color:var(--muted);font-size:.88em}
ul.errs li{margin-bottom:4px}
details summary{cursor:pointer;font-weight:600;margin:6px 0}
article.game{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin:18px 0;content-visibility:auto;contain-intrinsic-size:auto 420px}
article.game h3{margin:0 0 2px;font-size:1.12em}
article.game h3 a{text-decoration:none;color:var(--muted);font-weight:400}
article.game h3 b{background:#3d2a1a;color:#fff;border-radius:4px;padding:0 6px;font-size:.85em;margin-left:4px;font-weight:400}
.meta{color:var(--muted);margin:2px 0 8px;font-size:.88em}
.sides{margin:6px 0;font-size:.92em}
.sides i{font-style:normal;font-weight:600;display:inline-block;min-width:2.6em}
.sides i:nth-of-type(3n+1){color:#d62828}.sides i:nth-of-type(3n+2){color:#c77700}.sides i:nth-of-type(3n){color:#a88a2a}
.ix td:nth-child(n+5):nth-child(-n+7),.ix th:nth-child(n+5):nth-child(-n+7){text-align:right;font-variant-numeric:tabular-nums}
.moves{white-space:pre-line;columns:12.5em;column-gap:1.4em;line-height:1.8;margin:6px 0}
.moves .c,.moves .v{display:inline-block;white-space:normal;line-height:1.45;margin:2px 0}
.moves>b,.moves .num{color:var(--muted);font-weight:600}
.moves i{font-style:normal;border-radius:4px;padding:1px 4px;font-weight:600;white-space:nowrap}
i.jb,.tag.jb{background:#d62828;color:#fff}
i.jm,.tag.jm{background:#f08c00;color:#fff}
i.ji,.tag.ji{background:#f6e3a1;color:#5c4a00}
.c{color:#2f6b4f;font-style:italic}
.v{color:var(--muted)}
.bad{color:#d62828;text-decoration:line-through}
.err{background:#fdecea;border:1px solid #f5c2bd;border-radius:6px;padding:6px 10px;margin:6px 0}
.err ul{margin:4px 0 0;padding-left:20px}
.best{color:#2b9348;font-weight:600}
.pv{color:var(--muted)}
.up{position:fixed;right:8px;bottom:8px;z-index:5;text-decoration:none;color:var(--muted);background:var(--card);border:1px solid var(--line);border-radius:14px;padding:2px 8px;font-size:.8em;opacity:.85}
.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:18px;height:6px;border-radius:3px;vertical-align:middle;margin-right:4px}
.vw{display:grid;grid-template-columns:minmax(0,1fr);gap:12px;margin:10px 0 4px;scroll-margin-top:6px}
.vb{width:100%;height:auto;display:block;border-radius:4px;touch-action:pan-y;user-select:none}
.vb .lt{fill:#f0d9b5}.vb .dk{fill:#b07942}.vb .hl{fill:#f4e04d;fill-opacity:.45}
.vb .hl.jb{fill:#d62828}.vb .hl.jm{fill:#f08c00}.vb .hl.ji{fill:#e9c46a}
.vb .no{font:.2px sans-serif;fill:#f6e7cf}.vb .co{font:600 .2px sans-serif;fill:#8a5a2b}
.pc .p1{stroke-width:.05}.pc .p2{fill:none;stroke-width:.035;stroke-opacity:.45}
.wm .p1,.wk .p1{fill:#fbf7ee;stroke:#3b2a1a}.wm .p2,.wk .p2,.wk .p3{stroke:#3b2a1a;fill-opacity:1}
.bm .p1,.bk .p1{fill:#262626;stroke:#d9d0c0}.bm .p2,.bk .p2{stroke:#d9d0c0}
.wk .p3{fill:#3b2a1a}.bk .p3{fill:#d9d0c0}
.vc{display:flex;gap:6px;align-items:center;margin-top:8px}
.vc button{flex:1;font-size:1.5em;line-height:1;padding:8px 0;border:1px solid var(--line);background:#f1ebe1;color:var(--ink);border-radius:6px;cursor:pointer;touch-action:manipulation}
.vc button:active{background:#e4dccf}
.vn{flex:1.3;text-align:center;color:var(--muted);font-size:.85em;font-variant-numeric:tabular-nums}
.vi{min-height:5.6em;font-size:.93em}
.vi>div{margin:2px 0}
.vh{font-size:1.08em}
.vh .vmv{font-weight:700;margin-right:6px}
.tag{border-radius:4px;padding:1px 6px;font-size:.85em;font-weight:600}
.vnote{color:#2f6b4f;font-style:italic}
.veng b{font-weight:600}
.vnext a.tag{text-decoration:none}
.vg{width:100%;height:auto;display:block;margin:8px 0;cursor:pointer;border-radius:4px}
.vg .gbg{fill:#3d3833}.vg .garea{fill:#efe6d6;stroke:#b07942;stroke-width:1.5}
.vg .gmid{stroke:#8a7f73;stroke-dasharray:4 3}.vg .gcur{stroke:#3a6ea5;stroke-width:2.5}
.vg .gdot{stroke:#fff;stroke-width:1}
.on .moves{position:relative;margin:0}
.mv{cursor:pointer;border-radius:4px;padding:1px 3px;white-space:nowrap}
.mv:hover{outline:1px solid #b07942}
.mv.cur{outline:2px solid #3a6ea5;background:#dbe7f3}
.js .nojs{display:none}
@media (min-width:760px){.vw{grid-template-columns:minmax(0,400px) minmax(0,1fr)}}
@media (max-width:560px){.moves{columns:10.5em;column-gap:1em}body{font-size:14px}main{padding:8px 8px 30px}article.game{padding:10px 10px}th,td{padding:4px}td:first-child{white-space:normal}.hide-s,.ix td:nth-child(n+7),.ix th:nth-child(n+7){display:none}}
"#;

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

/// The start of page `n` of a paged report, whose first game is section `first` (0-based):
/// up to its game sections. Its top (`#games`, where the ↑ games link leads) links to the
/// summary and index and to the page before.
pub fn page_head(n: usize, first: usize) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>");
    out.push_str(r#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#);
    let _ = write!(
        out,
        "<title>drafti report – games from {}</title><style>{CSS}</style></head><body>{UP}",
        first + 1
    );
    let previous = match n.checked_sub(1) {
        Some(p) => format!(r#"<a href="{}">← page {}</a>"#, page_name(p), p + 1),
        None => String::new(),
    };
    let _ = write!(
        out,
        r##"<header class="top"><div><h1>drafti report</h1><p>Page {} of the games (games from number {} of the run on).</p><nav id="games"><a href="index.html">Summary and index of all games</a>{previous}<a href="#reading">How to read</a></nav></div></header><main>"##,
        n + 1,
        first + 1
    );
    out
}

/// What the header says about the run.
pub struct RunInfo {
    /// Where the games came from (`the bundled corpus`, or the file names).
    pub source: String,
    /// The search of every position (`1,000 nodes per position`).
    pub search: String,
}

/// `1 game`, `2,004 games`.
pub fn games_text(n: u64) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{} games", crate::common::thousands(n))
    }
}

/// `54.7%`, or `–` without a value.
fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |x| format!("{x:.1}%"))
}

/// The document up to and including the summary (everything before the game sections).
pub fn head_and_summary(c: &mut Collector<'_>, info: &RunInfo) -> String {
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
        r##"<header class="top"><div><h1>drafti report</h1><p>{} from {}. Every position searched by the drafti engine ({}).</p><p class="nojs note">Turn on JavaScript to step through every game on a board with the engine's evaluation.</p><nav><a href="#health">Archive health</a><a href="#players">Players</a><a href="#blunders">Biggest blunders</a><a href="#openings">Openings</a><a href="#games">Games</a><a href="#reading">How to read</a></nav></div></header><main>"##,
        games_text(c.games),
        escape(&info.source),
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
            crate::common::thousands(n)
        );
    }
    out.push_str("</div>");

    // Archive health.
    out.push_str(r#"<h2 id="health">Archive health</h2><div class="scroll"><table><tr><th>file</th><th class="r">games</th></tr>"#);
    for (name, n) in c.names.iter().zip(&c.games_per_input) {
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td class="r">{}</td></tr>"#,
            escape(name),
            crate::common::thousands(*n)
        );
    }
    out.push_str("</table></div>");
    let _ = write!(
        out,
        r#"<p>{} valid, {} invalid, {} unreadable; {} warnings; {} plies, {} positions searched.</p>"#,
        crate::common::thousands(c.valid),
        crate::common::thousands(c.invalid),
        crate::common::thousands(c.unreadable),
        crate::common::thousands(c.warnings),
        crate::common::thousands(c.plies),
        crate::common::thousands(c.positions),
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

    // Players.
    out.push_str(r#"<h2 id="players">Blunders per player</h2><div class="scroll"><table><tr><th>player</th><th class="r">games</th><th class="r hide-s">score</th><th class="r hide-s">moves</th><th class="r">??</th><th class="r">?</th><th class="r hide-s">?!</th><th class="r">?? /100</th><th class="r">accuracy</th></tr>"#);
    for (name, p) in c.players_sorted().into_iter().take(50) {
        let _ = write!(
            out,
            r#"<tr><td>{}</td><td class="r">{}</td><td class="r hide-s">{}</td><td class="r hide-s">{}</td><td class="r">{}</td><td class="r">{}</td><td class="r hide-s">{}</td><td class="r">{}</td><td class="r">{}</td></tr>"#,
            escape(name),
            crate::common::thousands(p.games),
            pct(p.score_pct()),
            crate::common::thousands(p.moves),
            crate::common::thousands(p.blunders),
            crate::common::thousands(p.mistakes),
            crate::common::thousands(p.inaccuracies),
            p.blunder_rate()
                .map_or_else(|| "–".to_string(), |r| format!("{r:.2}")),
            pct(p.accuracy()),
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

    // Biggest blunders.
    out.push_str(r#"<h2 id="blunders">Biggest blunders</h2>"#);
    let biggest = c.biggest_blunders().to_vec();
    if biggest.is_empty() {
        out.push_str("<p>None found.</p>");
    } else {
        out.push_str(r#"<div class="scroll"><table><tr><th>move</th><th>player</th><th class="r">win%</th><th>best</th><th>game</th></tr>"#);
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
                percent0(b.before),
                percent0(b.after),
                escape(&b.best),
                escape(&b.game)
            );
        }
        out.push_str("</table></div>");
    }

    // Openings.
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
            pct(r.score_pct)
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

    // Index of games.
    let _ = write!(out, r#"<h2 id="games">Games</h2>"#);
    if c.games > c.index.len() as u64 {
        let _ = write!(
            out,
            r#"<p class="note">The first {} of {} games have a section below; the tables above count all of them (<code>drafti report --html-dir DIR</code> writes every game, in pages of {}).</p>"#,
            crate::common::thousands(c.index.len() as u64),
            crate::common::thousands(c.games),
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
        let _ = write!(
            out,
            r##"<tr><td><a href="{}#{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{b}</td><td>{m}</td><td>{}</td></tr>"##,
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
    out.push_str(r#"<p class="legend note"><span><i style="background:#d62828"></i>blunder ??</span><span><i style="background:#f08c00"></i>mistake ?</span><span><i style="background:#e9c46a"></i>inaccuracy ?!</span><span><i style="background:#2b9348"></i>engine's best move</span></p>"#);
    out
}

/// The end of the document: how to read the report, and the viewer's script.
pub fn tail() -> String {
    let script = include_str!("viewer.js");
    debug_assert!(!script.contains("]]>") && !script.contains("</"));
    format!(
        r#"<h2 id="reading">How to read this report</h2><p>The engine estimates each side's <b>winning chances</b> in every position (50% is even; 100% a sure win). A move is a <b>blunder (??)</b> when it costs the player at least {:.0} points of them, or throws away a proven win, or walks into a proven loss — unless the game was decided anyway: when the side the proven result favours had more than {:.0}% of the chances without it, the move is only a mistake, more than {:.1}% only an inaccuracy (as lichess grades a mate let in when already lost). In a position the endgame tables hold the verdict is exact (“draw thrown away: loss in 12”, “win in 31 missed”). A <b>mistake (?)</b> costs at least {:.1} points; an <b>inaccuracy (?!)</b> at least {:.2}. <b>Accuracy</b> is 100% when every move keeps the chances the best move would keep (lichess's formula).</p><p>Each game has a board: step through it with the buttons, the arrow keys (Home and End for the start and the end), a swipe on the board, or a click on any move or on the graph of White's winning chances (more light area: better for White; dots mark the flagged moves). The board shows the position after the current move, the move's squares tinted (red, orange or yellow when it is flagged), and the engine's best move in the position as a green arrow; before a flagged move the move played is drawn too, in its colour. The address of the page follows the board (<code>#g1-3-p17</code>: game 3 of the first file after 17 plies), so a position can be bookmarked or sent.</p><p class="note">Made by drafti. Searches are limited by nodes or depth, never by time, so the same archive gives the same report.</p></main><script>//<![CDATA[
var DRAFTI={{geo:{},start:{},k:{K}}};
{script}//]]></script></body></html>
"#,
        50.0 * BLUNDER_DROP,
        50.0 * (1.0 + PROVEN_MISTAKE_WC),
        50.0 * (1.0 + PROVEN_INACCURACY_WC),
        50.0 * MISTAKE_DROP,
        50.0 * INACCURACY_DROP,
        viewer::geometry_js(),
        viewer::start_board_js(),
    )
}
