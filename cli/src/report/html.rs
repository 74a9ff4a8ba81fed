//! The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched),
//! written as well-formed XHTML-compatible markup so any XML parser reads it.
//!
//! Layout: a header, the summary (archive health, players, biggest blunders, openings, the
//! index of games), then one `<article>` per game: its moves with the flagged ones marked,
//! the evaluation graph, and a board diagram before every blunder and mistake with arrows
//! for the move played (red: blunder, orange: mistake) and the best move (green).
//! Inaccuracies are marked in the moves but get no diagram.

use super::{
    is_numeric, move_number, short_name, white_win_curve, Collector, FlagBrief, IndexRow, Status,
    HTML_GAME_LIMIT,
};
use crate::svg::{self, escape, Arrow, GraphMark};
use drafti_analyzer::analysis::{line_text, GameAnalysis, MoveAnalysis};
use drafti_analyzer::judge::{win_percent, Judgement, BLUNDER_DROP, INACCURACY_DROP, MISTAKE_DROP};
use drafti_analyzer::openings::{RowKind, CLASSIFY_PLIES};
use drafti_analyzer::replay::ReplayedGame;
use drafti_pdn::Line;
use drafti_rules::Color;
use std::fmt::Write as _;

/// Colours of the judgements (arrows, dots, marks).
const BLUNDER_COLOR: &str = "#d62828";
const MISTAKE_COLOR: &str = "#f08c00";
const INACCURACY_COLOR: &str = "#e9c46a";
const BEST_COLOR: &str = "#2b9348";

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
    /// The opening's name.
    pub opening: Option<&'a str>,
    /// White player.
    pub white: &'a str,
    /// Black player.
    pub black: &'a str,
}

fn judgement_color(j: Judgement) -> &'static str {
    match j {
        Judgement::Blunder => BLUNDER_COLOR,
        Judgement::Mistake => MISTAKE_COLOR,
        Judgement::Inaccuracy => INACCURACY_COLOR,
    }
}

fn judgement_class(j: Judgement) -> &'static str {
    match j {
        Judgement::Blunder => "jb",
        Judgement::Mistake => "jm",
        Judgement::Inaccuracy => "ji",
    }
}

/// Whether a judgement gets a board diagram.
fn has_diagram(j: Option<Judgement>) -> bool {
    matches!(j, Some(Judgement::Blunder | Judgement::Mistake))
}

fn diagram_anchor(anchor: &str, ply: usize) -> String {
    format!("{anchor}-p{ply}")
}

fn capitalised(j: Judgement) -> &'static str {
    match j {
        Judgement::Blunder => "Blunder",
        Judgement::Mistake => "Mistake",
        Judgement::Inaccuracy => "Inaccuracy",
    }
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
        anchor: diagram_anchor(anchor, m.ply),
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
        for nag in &node.nags {
            match nag.symbol() {
                Some(s) => out.push_str(s),
                None => {
                    let _ = write!(out, " ${}", nag.value);
                }
            }
        }
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

/// The moves of the mainline with flagged moves marked (and linked to their diagrams),
/// the record's own NAGs, comments and variations, and the move that stopped the replay.
fn moves_markup(out: &mut String, v: &GameView<'_>) {
    let game = v.game;
    let nodes = &game.record.moves.nodes;
    out.push_str(r#"<p class="moves">"#);
    for c in &game.record.moves.leading_comments {
        let _ = write!(out, r#"<span class="c">{}</span> "#, escape(c.text.trim()));
    }
    let first = game.first_mover;
    for (i, node) in nodes.iter().enumerate() {
        let ply = i + 1;
        let replayed = i < game.moves.len();
        let white_moves = match first {
            Color::White => i.is_multiple_of(2),
            Color::Black => !i.is_multiple_of(2),
        };
        if white_moves || i == 0 {
            let _ = write!(out, "<b>{}</b> ", move_number(first, ply));
        }
        let flag = v
            .analysis
            .and_then(|a| a.moves.get(i))
            .and_then(|m| m.judgement().map(|j| (m, j)));
        let text = escape(&node.mv.text);
        match flag {
            Some((m, j)) => {
                let title = format!(
                    "{}: win% {:.0} to {:.0}",
                    j.as_str(),
                    win_percent(m.verdict.wc_before),
                    win_percent(m.verdict.wc_after)
                );
                if has_diagram(Some(j)) {
                    let _ = write!(
                        out,
                        r##"<a class="{}" href="#{}" title="{title}">{text}{}</a>"##,
                        judgement_class(j),
                        diagram_anchor(v.anchor, ply),
                        j.symbol()
                    );
                } else {
                    let _ = write!(
                        out,
                        r#"<span class="{}" title="{title}">{text}{}</span>"#,
                        judgement_class(j),
                        j.symbol()
                    );
                }
            }
            None if !replayed => {
                let _ = write!(
                    out,
                    r#"<span class="bad" title="not replayed: see the error above">{text}</span>"#
                );
            }
            None => {
                out.push_str(&text);
                for nag in &node.nags {
                    match nag.symbol() {
                        Some(s) => out.push_str(s),
                        None => {
                            let _ = write!(out, " ${}", nag.value);
                        }
                    }
                }
            }
        }
        for c in &node.comments {
            let _ = write!(out, r#" <span class="c">{}</span>"#, escape(c.text.trim()));
        }
        for var in &node.variations {
            out.push_str(r#" <span class="v">("#);
            line_markup(out, var, first, ply);
            out.push_str(" )</span>");
        }
        out.push(' ');
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

fn side_line(s: &drafti_analyzer::judge::SideSummary) -> String {
    let accuracy = s
        .accuracy
        .map_or_else(|| "–".to_string(), |a| format!("{a:.0}%"));
    format!(
        r#"<span class="nb">{} ??</span> <span class="nm">{} ?</span> <span class="ni">{} ?!</span> accuracy <b>{accuracy}</b>"#,
        s.blunders, s.mistakes, s.inaccuracies
    )
}

/// The `<figure>` of one flagged move: the board before it, arrows, and what it cost.
fn figure(out: &mut String, v: &GameView<'_>, m: &MoveAnalysis, j: Judgement) {
    let game = v.game;
    let before = &game.positions[m.ply - 1];
    let legal = before.legal_moves(game.variant);
    let numeric = is_numeric(game);
    let played_text = &game.record.moves.nodes[m.ply - 1].mv.text;
    let mut arrows = Vec::with_capacity(2);
    if let Some(best) = m.best.filter(|b| !b.same_move(&m.played)) {
        arrows.push(Arrow {
            path: best.path().collect(),
            color: BEST_COLOR,
        });
    }
    arrows.push(Arrow {
        path: m.played.path().collect(),
        color: judgement_color(j),
    });
    let number = move_number(game.first_mover, m.ply);
    let side = m.mover.name();
    let label = format!(
        "Position before {number} {played_text}, {side} to move; played move in {}, best move in green",
        if j == Judgement::Blunder { "red" } else { "orange" }
    );
    let id = diagram_anchor(v.anchor, m.ply);
    let _ = write!(out, r#"<figure id="{id}">"#);
    out.push_str(&svg::diagram(before, &arrows, &label));
    let best = m
        .best
        .map(|b| b.notation(&legal, numeric))
        .unwrap_or_default();
    let reason = m
        .reason_text()
        .map(|r| format!(" ({})", escape(&r)))
        .unwrap_or_default();
    let _ = write!(
        out,
        r#"<figcaption><span class="{cls}">{number} {}{}</span> {} by {side}{reason}: {side}'s winning chances {:.0}% → {:.0}%.<br/>Best: <b class="best">{}</b> ({}), played {}.<br/><span class="pv">Line: {}</span></figcaption></figure>"#,
        escape(played_text),
        j.symbol(),
        capitalised(j),
        win_percent(m.verdict.wc_before),
        win_percent(m.verdict.wc_after),
        escape(&best),
        m.best_score,
        m.played_score,
        escape(&line_text(before, game.variant, &m.pv, numeric)),
        cls = judgement_class(j),
    );
}

/// The `<article>` of one game, and how many diagrams it holds.
pub fn game_section(v: &GameView<'_>) -> (String, usize) {
    let game = v.game;
    let mut out = String::with_capacity(4096);
    let result = game.played_result().map_or("*", |r| r.as_str());
    let _ = write!(
        out,
        r##"<article class="game" id="{}"><h3><a href="#{}">#{}</a> {} – {} <span class="res">{result}</span></h3>"##,
        v.anchor,
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
    let mut diagrams = 0;
    if let Some(a) = v.analysis {
        let _ = write!(
            out,
            r#"<p class="sides"><span class="who">White {}</span> {}<br/><span class="who">Black {}</span> {}</p>"#,
            escape(v.white),
            side_line(&a.white),
            escape(v.black),
            side_line(&a.black)
        );
        let curve = white_win_curve(a);
        if curve.len() > 1 {
            let marks: Vec<GraphMark> = a
                .flagged()
                .filter_map(|m| {
                    let j = m.judgement()?;
                    Some(GraphMark {
                        ply: m.ply,
                        color: judgement_color(j),
                        title: format!(
                            "{} {}{} {}",
                            move_number(game.first_mover, m.ply),
                            game.record.moves.nodes[m.ply - 1].mv.text,
                            j.symbol(),
                            j.as_str()
                        ),
                        link: has_diagram(Some(j)).then(|| diagram_anchor(v.anchor, m.ply)),
                    })
                })
                .collect();
            out.push_str(&svg::eval_graph(
                &curve,
                &marks,
                "White's winning chances after each move",
            ));
        }
    }
    moves_markup(&mut out, v);
    if let Some(a) = v.analysis {
        let flagged: Vec<(&MoveAnalysis, Judgement)> = a
            .flagged()
            .filter_map(|m| {
                m.judgement()
                    .filter(|j| has_diagram(Some(*j)))
                    .map(|j| (m, j))
            })
            .collect();
        if !flagged.is_empty() {
            out.push_str(r#"<div class="diagrams">"#);
            for (m, j) in flagged {
                figure(&mut out, v, m, j);
                diagrams += 1;
            }
            out.push_str("</div>");
        }
    }
    out.push_str(r##"<p class="top"><a href="#games">↑ all games</a></p></article>"##);
    out.push('\n');
    (out, diagrams)
}

/// The `<article>` of a game that could not be parsed.
pub fn unreadable_section(anchor: &str, file: &str, index: usize, error: &str) -> String {
    format!(
        r##"<article class="game" id="{anchor}"><h3><a href="#{anchor}">#{}</a> unreadable record</h3><p class="meta">{} game {}</p><div class="err"><b>Syntax error</b> (not analysed): {}</div><p class="top"><a href="#games">↑ all games</a></p></article>
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
main{max-width:1000px;margin:0 auto;padding:12px 14px 40px}
header.top{background:#3d2a1a;color:#f6ead8;padding:18px 14px 14px}
header.top div{max-width:1000px;margin:0 auto}
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
th{background:#f1ebe1;font-weight:600}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
td.w{white-space:normal;min-width:12em}
.note{color:var(--muted);font-size:.88em}
ul.errs li{margin-bottom:4px}
details summary{cursor:pointer;font-weight:600;margin:6px 0}
article.game{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin:18px 0}
article.game h3{margin:0 0 2px;font-size:1.12em}
article.game h3 a{text-decoration:none;color:var(--muted);font-weight:400}
.res{background:#3d2a1a;color:#fff;border-radius:4px;padding:0 6px;font-size:.85em;margin-left:4px}
.meta{color:var(--muted);margin:2px 0 8px;font-size:.88em}
.sides{margin:6px 0;font-size:.92em}
.who{display:inline-block;min-width:10em;font-weight:600}
.nb,.nm,.ni{display:inline-block;min-width:3.2em;font-weight:600}
.nb{color:#d62828}.nm{color:#c77700}.ni{color:#a88a2a}
svg.graph{width:100%;max-width:640px;height:auto;display:block;margin:6px 0 4px}
.moves{line-height:1.9;word-spacing:1px}
.moves b{color:var(--muted);font-weight:600}
a.jb,span.jb,a.jm,span.jm,span.ji{border-radius:4px;padding:1px 4px;text-decoration:none;font-weight:600;white-space:nowrap}
a.jb,span.jb{background:#d62828;color:#fff}
a.jm,span.jm{background:#f08c00;color:#fff}
span.ji{background:#f6e3a1;color:#5c4a00}
.c{color:#2f6b4f;font-style:italic}
.v{color:var(--muted)}
.bad{color:#d62828;text-decoration:line-through}
.err{background:#fdecea;border:1px solid #f5c2bd;border-radius:6px;padding:6px 10px;margin:6px 0}
.err ul{margin:4px 0 0;padding-left:20px}
.diagrams{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:14px;margin-top:8px}
figure{margin:0;background:#fbf8f3;border:1px solid var(--line);border-radius:8px;padding:8px}
svg.board{width:100%;height:auto;display:block}
figcaption{font-size:.86em;margin-top:6px}
.best{color:#2b9348}
.pv{color:var(--muted);font-size:.95em}
.top{margin:8px 0 0;font-size:.85em}
svg.defs{position:absolute;width:0;height:0;overflow:hidden}
.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:18px;height:6px;border-radius:3px;vertical-align:middle;margin-right:4px}
@media (max-width:560px){body{font-size:14px}main{padding:8px 8px 30px}article.game{padding:10px 10px}.who{min-width:0;display:block}th,td{padding:4px 6px}.hide-s{display:none}}
"#;

/// What the header says about the run.
pub struct RunInfo {
    /// Where the games came from (`the bundled corpus`, or the file names).
    pub source: String,
    /// The search of every position (`1,000 nodes per position`).
    pub search: String,
}

/// `1 game`, `2,004 games`.
fn games_text(n: u64) -> String {
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
        "<title>drafti report – {}</title><style>{CSS}</style></head><body>",
        games_text(c.games)
    );
    out.push_str(&svg::report_defs());
    let _ = write!(
        out,
        r##"<header class="top"><div><h1>drafti report</h1><p>{} from {}. Every position searched by the drafti engine ({}).</p><nav><a href="#health">Archive health</a><a href="#players">Players</a><a href="#blunders">Biggest blunders</a><a href="#openings">Openings</a><a href="#games">Games</a><a href="#reading">How to read</a></nav></div></header><main>"##,
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
            let link = if c.index.iter().any(|r| r.anchor == e.anchor) {
                format!(r##"<a href="#{}">{}</a>"##, e.anchor, escape(&e.game))
            } else {
                escape(&e.game)
            };
            let _ = write!(out, "<li>{link}: {}</li>", escape(&e.error));
        }
        out.push_str("</ul>");
    }

    // Players.
    out.push_str(r#"<h2 id="players">Blunders per player</h2><div class="scroll"><table><tr><th>player</th><th class="r">games</th><th class="r hide-s">score</th><th class="r hide-s">moves</th><th class="r">??</th><th class="r">?</th><th class="r hide-s">?!</th><th class="r">?? per 100</th><th class="r">accuracy</th></tr>"#);
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
    let has_section = |anchor: &str, index: &[IndexRow]| {
        let game = anchor.rsplit_once("-p").map_or(anchor, |(g, _)| g);
        index.iter().any(|r| r.anchor == game)
    };
    let biggest = c.biggest_blunders().to_vec();
    if biggest.is_empty() {
        out.push_str("<p>None found.</p>");
    } else {
        out.push_str(r#"<div class="scroll"><table><tr><th>move</th><th>player</th><th class="r">win%</th><th>best</th><th>game</th></tr>"#);
        for b in &biggest {
            let mv = if has_section(&b.anchor, &c.index) {
                format!(
                    r##"<a class="jb" href="#{}">{}</a>"##,
                    b.anchor,
                    escape(&b.text)
                )
            } else {
                escape(&b.text)
            };
            let _ = write!(
                out,
                r#"<tr><td>{mv}</td><td>{} ({})</td><td class="r">{:.0} → {:.0}</td><td class="best">{}</td><td>{}</td></tr>"#,
                escape(&b.player),
                b.mover.name(),
                b.before,
                b.after,
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
        r#"<h2 id="openings">Openings</h2><p class="note">The deepest position of the opening book reached in the first {CLASSIFY_PLIES} plies; games that Black started are mirrored, so lines read as if White had started. Score: the first mover's points in percent.</p><div class="scroll"><table><tr><th>opening</th><th class="r">games</th><th class="r hide-s">1-0</th><th class="r hide-s">draw</th><th class="r hide-s">0-1</th><th class="r">score</th></tr>"#
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
    if c.games > HTML_GAME_LIMIT {
        let _ = write!(
            out,
            r#"<p class="note">The first {} of {} games have a section below; the tables above count all of them.</p>"#,
            crate::common::thousands(HTML_GAME_LIMIT),
            crate::common::thousands(c.games)
        );
    }
    let open = if c.index.len() <= 60 {
        " open=\"open\""
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"<details{open}><summary>Index of {} (?? blunders, ? mistakes)</summary><div class="scroll"><table><tr><th>game</th><th>White</th><th>Black</th><th>result</th><th class="r">??</th><th class="r">?</th><th class="r hide-s">plies</th><th class="hide-s">opening</th></tr>"#,
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
            r##"<tr><td><a href="#{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td class="r">{b}</td><td class="r">{m}</td><td class="r hide-s">{}</td><td class="hide-s">{}</td></tr>"##,
            r.anchor,
            escape(&r.label),
            escape(&r.white),
            escape(&r.black),
            r.result,
            r.plies,
            escape(&r.opening)
        );
    }
    out.push_str("</table></div></details>");
    out.push_str(r#"<p class="legend note"><span><i style="background:#d62828"></i>blunder ?? / played move</span><span><i style="background:#f08c00"></i>mistake ?</span><span><i style="background:#e9c46a"></i>inaccuracy ?!</span><span><i style="background:#2b9348"></i>best move</span></p>"#);
    out
}

/// The end of the document: how to read the report.
pub fn tail() -> String {
    format!(
        r#"<h2 id="reading">How to read this report</h2><p>The engine estimates each side's <b>winning chances</b> in every position (50% is even; 100% a sure win). A move is a <b>blunder (??)</b> when it costs the player at least {:.0} points of them, or throws away a proven win, or walks into a proven loss; a <b>mistake (?)</b> costs at least {:.1}; an <b>inaccuracy (?!)</b> at least {:.2}. <b>Accuracy</b> is 100% when every move keeps the chances the best move would keep (lichess's formula).</p><p>The graph of each game shows White's winning chances after every move: the more light area, the better for White. Dots mark flagged moves; click one to jump to its diagram. Each diagram shows the position before the flagged move, with the move played as a red (blunder) or orange (mistake) arrow and the engine's best move as a green arrow.</p><p class="note">Made by drafti. Searches are limited by nodes or depth, never by time, so the same archive gives the same report.</p></main></body></html>
"#,
        50.0 * BLUNDER_DROP,
        50.0 * MISTAKE_DROP,
        50.0 * INACCURACY_DROP
    )
}
