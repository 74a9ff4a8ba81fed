//! The outputs of `drafti puzzles`: each puzzle as text, as a line of JSON, as a PDN record
//! (its FEN and the solution as the moves), and the HTML page of all of them with a diagram
//! per puzzle; for other platforms, TzDraft's puzzle JSON ([`tzdraft`]) and lichess's
//! puzzle CSV ([`lichess`]). The words are shared: the task (`White to play and win 2 men`),
//! the gain, the solution numbered from move 1, where the puzzle comes from.
//!
//! ```
//! use drafti_analysis::puzzles::{mine_game, Collection, PuzzleOptions, Source};
//! use drafti_archive::replay::{replay, ReplayOptions};
//! use drafti_report::puzzles;
//!
//! // Black's f6-e5 walks into a shot: c3-d4 e5xc3 d2xb4xd6xf8.
//! let pdn = r#"[White "Asha"] [Black "Baraka"] [SetUp "1"] [FEN "B:Wc3,d2,e1,e3:Bc5,f6,e7,g7,h6"]
//!     1... f6-e5 2. c3-d4 e5xc3 3. d2xf8 1-0"#;
//! let record = drafti_pdn::parse_games(pdn.as_bytes()).remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! let mut collection = Collection::new();
//! for found in mine_game(&game, &PuzzleOptions::default()).found {
//!     collection.add(found.puzzle, Source::of("club.pdn", 0, &game, found.ply));
//! }
//! let entry = &collection.entries()[0];
//! let text = puzzles::text_entry(1, entry);
//! assert!(text.starts_with("1. White to play and win material worth 4 men"), "{text}");
//! assert!(text.contains("solution: 1. c3-d4 e5xc3 2. d2xf8"), "{text}");
//! assert!(text.contains("from club.pdn game 1 (Asha - Baraka), move 2. after 1... f6-e5"));
//!
//! let record = puzzles::pdn_record(1, entry);
//! assert_eq!(record.tag("FEN"), Some("W:W22,23,26,31:B7,8,12,14,15"));
//! assert_eq!(record.moves.nodes.len(), 3);
//!
//! let mut page = Vec::new();
//! let stats = Default::default();
//! puzzles::write_html(&mut page, collection.entries(), "club.pdn", &stats, 20_000).unwrap();
//! let page = String::from_utf8(page).unwrap();
//! assert!(page.contains("<h2><span class=\"n\">1.</span>White to play and win material"));
//! ```

mod export;
pub mod lichess;
mod platform;
pub mod tzdraft;

pub use export::{left_out_notes, write_format, Format, LeftOut};
pub use platform::{fingerprint, is_endgame, solver_line};

use crate::svg::{self, escape, Arrow};
use crate::{thousands, visible};
use drafti_analysis::puzzles::solve::played;
use drafti_analysis::puzzles::{
    Checked, Collection, Entry, GainKind, Puzzle, ReadingCheck, Source, Stats, Themes,
    VERIFY_FACTOR,
};
use drafti_analysis::selfplay::mainline;
use drafti_analysis::Score;
use drafti_pdn::{Comment, GameRecord, GameResult, Line, MoveNode, ResultToken, Tag};
use drafti_rules::{Color, Move, Position, Variant};
use serde::Serialize;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------
// Words.

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn men(n: i32) -> String {
    match n {
        1 => "a man".to_string(),
        n => format!("{n} men"),
    }
}

/// `win 2 men`, `win material worth 2 men`, `get a man through`, `win`: what the solver is
/// to do, for "White to play and …".
fn gain_task(p: &Puzzle) -> String {
    let value = p.gain_men();
    // The gain counts the whole line, the continuation's crowns and kings too.
    let mut whole = p.solution.clone();
    whole.extend_from_slice(&p.continuation);
    let line = Themes::of(&p.position, &whole);
    match p.kind {
        GainKind::Win => "win".to_string(),
        GainKind::Runaway => match value {
            v if v > 0 => format!("win {} and get a man through", men(v)),
            v if v < 0 => format!("get a man through for {}", men(-v)),
            _ => "get a man through".to_string(),
        },
        GainKind::Material if line.crowning || line.king_capture => {
            format!("win material worth {}", men(value))
        }
        GainKind::Material => format!("win {}", men(value)),
    }
}

/// The one-line task: `White to play and win 2 men`.
pub fn task(p: &Puzzle) -> String {
    format!("{} to play and {}", side(p.position.turn()), gain_task(p))
}

/// The gain as a short phrase for tags and JSON: `2 men`, `material worth 2 men`,
/// `a man through`, `win`, `win in 17`.
pub fn gain_text(p: &Puzzle) -> String {
    match (p.kind, p.proven_win) {
        (GainKind::Win, Some(n)) if p.exact => format!("table win in {n} plies"),
        (GainKind::Win, Some(n)) => format!("forced win in {n} plies"),
        (GainKind::Win, None) => "the game: no move left".to_string(),
        _ => gain_task(p)
            .trim_start_matches("win ")
            .trim_start_matches("get ")
            .to_string(),
    }
}

/// Moves in notation with move numbers counted from 1 (`1. c3-d4 e5xc3 2. b2xd4xf6`), as
/// the PDN record writes them. `offset` moves of the line come before the ones shown.
fn numbered(
    start: &Position,
    variant: Variant,
    moves: &[Move],
    offset: usize,
    numeric: bool,
) -> String {
    let nodes = mainline(start, variant, moves, numeric);
    let mut out = String::new();
    for (i, node) in nodes.iter().enumerate().skip(offset) {
        if !out.is_empty() {
            out.push(' ');
        }
        match node.number {
            Some(n) => {
                let _ = write!(out, "{}{} ", n.number, if n.ellipsis { "..." } else { "." });
            }
            None if i == offset => {
                // A Black move first in the part shown: its number as `N...`.
                let number = nodes[..i]
                    .iter()
                    .rev()
                    .find_map(|n| n.number)
                    .map_or(1, |n| n.number);
                let _ = write!(out, "{number}... ");
            }
            None => {}
        }
        out.push_str(node.mv.text.as_str());
    }
    out
}

fn solution_text(p: &Puzzle, numeric: bool) -> String {
    numbered(&p.position, p.variant, &p.solution, 0, numeric)
}

/// The engine's continuation after the solution, numbered on from it.
fn continuation_text(p: &Puzzle, numeric: bool) -> Option<String> {
    if p.continuation.is_empty() {
        return None;
    }
    let mut whole = p.solution.clone();
    whole.extend_from_slice(&p.continuation);
    Some(numbered(
        &p.position,
        p.variant,
        &whole,
        p.solution.len(),
        numeric,
    ))
}

fn players(s: &Source) -> String {
    format!(
        "{} - {}",
        s.white.as_deref().unwrap_or("?"),
        s.black.as_deref().unwrap_or("?")
    )
}

/// `corpus/selfplay.pdn game 12 (A - B), move 18. after 17... e5-f4`; the archive's text
/// with its control characters [`visible`].
fn source_text(s: &Source) -> String {
    let mut out = format!(
        "{} game {} ({})",
        visible(&s.file),
        s.game,
        visible(&players(s))
    );
    match &s.after {
        Some(after) => {
            let _ = write!(out, ", move {} after {after}", s.move_number);
        }
        None => out.push_str(", its start position"),
    }
    out
}

/// The reading of the rules a check was made under, for people.
fn reading_name(reading: Variant) -> &'static str {
    match reading {
        Variant::TzDraft => "TzDraft's server reading",
        _ => "the article's rules",
    }
}

/// Why a solution does not hold under the other reading: `at ply 3 of the solution: a move
/// is not legal`.
fn refuted_text(p: &Puzzle, check: &ReadingCheck) -> Option<String> {
    let r = check.refuted.as_ref()?;
    Some(if r.at < p.solution.len() {
        format!("at ply {} of the solution: {}", r.at + 1, r.failure)
    } else {
        format!("at its end: {}", r.failure)
    })
}

/// What the text says of a puzzle under TzDraft: whether its solution holds under the other
/// reading of the rules, and whether TzDraft's puzzle players can enter it (only when not).
fn readings_notes(p: &Puzzle) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(check) = &p.other_reading {
        if let Some(why) = refuted_text(p, check) {
            notes.push(format!(
                "does not hold under {} ({why})",
                reading_name(check.reading)
            ));
        }
    }
    if matches!(p.variant, Variant::Tanzanian | Variant::TzDraft) {
        if let Some(i) = tzdraft::unenterable_move(p) {
            notes.push(format!(
                "TzDraft's puzzle players cannot enter its move {} (it takes {} pieces; they take one jump at a time)",
                i / 2 + 1,
                p.solution[i].capture_count()
            ));
        }
    }
    notes
}

fn themes_text(p: &Puzzle) -> String {
    let names = p.themes.names();
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(", ")
    }
}

fn numeric_of(e: &Entry) -> bool {
    e.sources.first().is_some_and(|s| s.numeric)
}

// ---------------------------------------------------------------------------------------
// Text and JSON.

/// Puzzle `number` (1-based) as text: the task, the FEN, the solution, where it comes from.
pub fn text_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    let mut out = format!(
        "{number}. {}  (difficulty {}/5, depth {}; {}{})\n",
        task(p),
        p.difficulty,
        p.depth,
        themes_text(p),
        if p.exact { "; endgame tables" } else { "" }
    );
    let _ = writeln!(out, "   {}", p.position.to_fen());
    let _ = writeln!(out, "   solution: {}", solution_text(p, numeric));
    if let Some(c) = continuation_text(p, numeric) {
        let _ = writeln!(out, "   then, for instance: {c}");
    }
    let _ = writeln!(out, "   from {}", source_text(&e.sources[0]));
    for note in readings_notes(p) {
        let _ = writeln!(out, "   {note}");
    }
    if e.occurrences > 1 {
        let _ = writeln!(out, "   and {} more games", e.occurrences - 1);
    }
    out.push('\n');
    out
}

#[derive(Serialize)]
struct GainJson {
    kind: &'static str,
    men: i32,
    proven_win_in: Option<u32>,
    text: String,
}

#[derive(Serialize)]
struct SourceJson<'a> {
    file: &'a str,
    game: usize,
    ply: usize,
    move_number: &'a str,
    after: Option<&'a str>,
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    date: Option<&'a str>,
    round: Option<&'a str>,
}

#[derive(Serialize)]
struct PuzzleJson<'a> {
    number: usize,
    fen: String,
    variant: &'static str,
    side: &'static str,
    task: String,
    solution: Vec<String>,
    solution_text: String,
    continuation: Vec<String>,
    gain: GainJson,
    themes: Vec<String>,
    shot: usize,
    captured: usize,
    lost: usize,
    depth: u32,
    difficulty: u8,
    score: Score,
    second: Option<Score>,
    exact: bool,
    other_reading: Option<ReadingJson>,
    tzdraft_enterable: Option<bool>,
    occurrences: u64,
    sources: Vec<SourceJson<'a>>,
}

/// The solution verified again under the other reading of the Tanzanian rules.
#[derive(Serialize)]
struct ReadingJson {
    rules: &'static str,
    holds: bool,
    refuted_at_ply: Option<usize>,
    reason: Option<String>,
}

/// Each move of `moves` from `start` in notation.
fn move_texts(start: &Position, variant: Variant, moves: &[Move], numeric: bool) -> Vec<String> {
    mainline(start, variant, moves, numeric)
        .into_iter()
        .map(|n| n.mv.text.as_str().to_string())
        .collect()
}

/// Puzzle `number` (1-based) as one line of JSON (the JSON Lines of `drafti puzzles --json`).
pub fn json_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    let mut whole = p.solution.clone();
    whole.extend_from_slice(&p.continuation);
    let all = move_texts(&p.position, p.variant, &whole, numeric);
    let value = PuzzleJson {
        number,
        fen: p.position.to_fen(),
        variant: p.variant.name(),
        side: match p.position.turn() {
            Color::White => "white",
            Color::Black => "black",
        },
        task: task(p),
        solution: all[..p.solution.len()].to_vec(),
        solution_text: solution_text(p, numeric),
        continuation: all[p.solution.len()..].to_vec(),
        gain: GainJson {
            kind: match p.kind {
                GainKind::Material => "material",
                GainKind::Runaway => "runaway",
                GainKind::Win => "win",
            },
            men: p.gain_men(),
            proven_win_in: p.proven_win,
            text: gain_text(p),
        },
        themes: p.themes.names(),
        shot: p.themes.shot,
        captured: p.themes.captured,
        lost: p.themes.lost,
        depth: p.depth,
        difficulty: p.difficulty,
        score: p.score,
        second: p.second,
        exact: p.exact,
        other_reading: p.other_reading.as_ref().map(|c| ReadingJson {
            rules: c.reading.name(),
            holds: c.sound(),
            refuted_at_ply: c.refuted.as_ref().map(|r| r.at + 1),
            reason: c.refuted.as_ref().map(|r| r.failure.to_string()),
        }),
        tzdraft_enterable: matches!(p.variant, Variant::Tanzanian | Variant::TzDraft)
            .then(|| tzdraft::unenterable_move(p).is_none()),
        occurrences: e.occurrences,
        sources: e
            .sources
            .iter()
            .map(|s| SourceJson {
                file: &s.file,
                game: s.game,
                ply: s.ply,
                move_number: &s.move_number,
                after: s.after.as_deref(),
                white: s.white.as_deref(),
                black: s.black.as_deref(),
                event: s.event.as_deref(),
                date: s.date.as_deref(),
                round: s.round.as_deref(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string(&value).expect("serializable");
    text.push('\n');
    text
}

// ---------------------------------------------------------------------------------------
// PDN.

fn pdn_tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.to_string(),
        value: value.into(),
        span: Default::default(),
    }
}

fn comment(text: String) -> Comment {
    Comment {
        text,
        span: Default::default(),
    }
}

/// One puzzle as a PDN record: the source game's tags, `SetUp`, `FEN`, the variant, the
/// puzzle's own tags, the task as a comment before the moves and the solution as the moves.
pub fn pdn_record(number: usize, e: &Entry) -> GameRecord {
    let p = &e.puzzle;
    let s = &e.sources[0];
    let numeric = numeric_of(e);
    let mut tags = Vec::new();
    for (name, value) in [
        ("Event", &s.event),
        ("Date", &s.date),
        ("Round", &s.round),
        ("White", &s.white),
        ("Black", &s.black),
    ] {
        if let Some(v) = value {
            tags.push(pdn_tag(name, v.clone()));
        }
    }
    tags.push(pdn_tag("Result", "*"));
    tags.push(pdn_tag("SetUp", "1"));
    // Square numbers, as PDN 3.0 writes a FEN (and every PDN reader reads it).
    tags.push(pdn_tag("FEN", p.position.to_fen()));
    let (name, value) = p.variant.pdn_tag();
    tags.push(pdn_tag(name, value));
    tags.push(pdn_tag("Annotator", "drafti puzzles"));
    tags.push(pdn_tag("Puzzle", number.to_string()));
    tags.push(pdn_tag(
        "Source",
        format!("{} game {} ply {}", s.file, s.game, s.ply),
    ));
    tags.push(pdn_tag("Gain", gain_text(p)));
    tags.push(pdn_tag("Themes", p.themes.names().join(" ")));
    tags.push(pdn_tag("Difficulty", p.difficulty.to_string()));
    let mut nodes: Vec<MoveNode> = mainline(&p.position, p.variant, &p.solution, numeric);
    if let (Some(last), Some(c)) = (nodes.last_mut(), continuation_text(p, numeric)) {
        last.comments
            .push(comment(format!("then, for instance, {c}")));
    }
    GameRecord {
        tags,
        moves: Line {
            nodes,
            leading_comments: Vec::new(),
        },
        result: Some(ResultToken::new(GameResult::Unknown)),
        leading_comments: vec![comment(format!("{}.", task(p)))],
        ..GameRecord::default()
    }
}

// ---------------------------------------------------------------------------------------
// HTML.

/// The page's style: `assets/puzzles.css`, one rule a line; the page has it on one line.
const CSS: &str = include_str!("../../assets/puzzles.css");

const KEY_MOVE: &str = "#2b9348";
const LAST_MOVE: &str = "#1d6fa5";

fn stars(difficulty: u8) -> String {
    let d = usize::from(difficulty.min(5));
    format!("{}{}", "★".repeat(d), "☆".repeat(5 - d))
}

/// What the page's script needs to let the reader solve a puzzle (`data-z`): the variant, the
/// position, `n` (numeric) or `a`, and the solution's moves by their whole paths in numbers.
fn solve_data(p: &Puzzle, numeric: bool) -> String {
    let moves: Vec<String> = p.solution.iter().map(|m| m.full_notation(true)).collect();
    format!(
        "{}|{}|{}|{}",
        p.variant.name(),
        p.position.to_fen(),
        if numeric { 'n' } else { 'a' },
        moves.join(" ")
    )
}

fn html_entry(number: usize, e: &Entry) -> String {
    let p = &e.puzzle;
    let numeric = numeric_of(e);
    // Shown from the solver's side.
    let flipped = p.position.turn() == Color::Black;
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<article class="puzzle" id="p{number}" data-id="{:032x}" data-z="{}"><h2><span class="n">{number}.</span>{}</h2>"#,
        fingerprint(p),
        escape(&solve_data(p, numeric)),
        escape(&task(p))
    );
    out.push_str(&svg::diagram_from(
        &p.position,
        &[],
        &format!("puzzle {number}: {}", task(p)),
        flipped,
    ));
    let _ = write!(
        out,
        r#"<p class="meta"><span class="stars" title="difficulty {d} of 5">{}</span> difficulty {d}/5 · from {}</p>"#,
        stars(p.difficulty),
        escape(&source_text(&e.sources[0])),
        d = p.difficulty
    );
    let _ = write!(
        out,
        r#"<details><summary>Solution</summary><p class="line">{}</p>"#,
        escape(&solution_text(p, numeric))
    );
    if let Some(c) = continuation_text(p, numeric) {
        let _ = write!(
            out,
            r#"<p class="meta">The solution ends where a second move also wins; then, for instance: {}</p>"#,
            escape(&c)
        );
    }
    let _ = write!(
        out,
        r#"<p class="meta">Gain: {} · themes: {} · the engine needs depth {} · {} {}</p>"#,
        escape(&gain_text(p)),
        escape(&themes_text(p)),
        p.depth,
        thousands(e.occurrences),
        if e.occurrences == 1 { "game" } else { "games" }
    );
    // The position at the end of the solution, its solver moves drawn.
    let (end, _) = played(&p.position, &p.solution);
    let arrows: Vec<Arrow> = p
        .solution
        .iter()
        .step_by(2)
        .enumerate()
        .map(|(i, mv)| Arrow {
            path: mv.path().collect(),
            color: if i == 0 { KEY_MOVE } else { LAST_MOVE },
        })
        .collect();
    out.push_str(&svg::diagram_from(
        &end,
        &arrows,
        &format!("puzzle {number} after the solution"),
        flipped,
    ));
    out.push_str("</details></article>");
    out
}

/// Writes the puzzles page to `out`: one self-contained HTML document, a board per puzzle
/// with the solution hidden until asked for. `source` names the games mined, `stats` counts
/// the positions screened, `nodes` is the mining budget (the page quotes the verification's).
pub fn write_html(
    out: &mut impl std::io::Write,
    entries: &[Entry],
    source: &str,
    stats: &Stats,
    nodes: u64,
) -> std::io::Result<()> {
    out.write_all(html_page(entries, source, stats, nodes).as_bytes())
}

fn html_page(entries: &[Entry], source: &str, stats: &Stats, nodes: u64) -> String {
    let mut out = String::with_capacity(entries.len() * 4096 + 8192);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>");
    out.push_str(r#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#);
    let _ = write!(
        out,
        "<title>drafti puzzles – {} from {}</title><style>",
        thousands(entries.len() as u64),
        escape(source)
    );
    // The report's style first: the boards the page's script draws are the viewer's.
    out.extend(crate::html::CSS.lines());
    out.extend(CSS.lines());
    out.push_str("</style></head><body>");
    out.push_str(&svg::diagram_defs());
    let _ = write!(
        out,
        r#"<header><h1>Puzzles</h1><p>{} puzzles mined by drafti from {} ({} positions screened). Each solution is the only winning line at every move of the side to play, checked again at {} nodes per move. Open “Solution” to see it.</p></header><main>"#,
        thousands(entries.len() as u64),
        escape(source),
        thousands(stats.positions),
        thousands(nodes * VERIFY_FACTOR)
    );
    out.push_str(r#"<div class="stats">"#);
    for d in 1..=5u8 {
        let n = entries.iter().filter(|e| e.puzzle.difficulty == d).count();
        let _ = write!(
            out,
            r#"<div class="stat"><b>{}</b><span class="stars">{}</span></div>"#,
            thousands(n as u64),
            stars(d)
        );
    }
    out.push_str("</div><div class=\"grid\">");
    for (i, e) in entries.iter().enumerate() {
        out.push_str(&html_entry(i + 1, e));
    }
    out.push_str("</div></main>");
    out.push_str(&crate::html::board::puzzle_scripts(
        &crate::html::viewer_globals(),
        crate::html::VIEWER_JS,
    ));
    out.push_str("</body></html>\n");
    out
}

// ---------------------------------------------------------------------------------------
// `--verify`.

#[derive(Serialize)]
struct CheckJson<'a> {
    file: &'a str,
    game: usize,
    fen: Option<&'a str>,
    status: &'static str,
    reason: Option<&'a str>,
    gain: Option<String>,
    difficulty: Option<u8>,
    depth: Option<u32>,
}

/// A checked record as one line of `drafti puzzles --verify`: text, or JSON with `json`.
pub fn check_line(c: &Checked, json: bool) -> String {
    if json {
        let value = CheckJson {
            file: &c.file,
            game: c.game,
            fen: c.fen.as_deref(),
            status: if c.outcome.is_ok() {
                "verified"
            } else {
                "failed"
            },
            reason: c.outcome.as_ref().err().map(String::as_str),
            gain: c.outcome.as_ref().ok().map(gain_text),
            difficulty: c.outcome.as_ref().ok().map(|p| p.difficulty),
            depth: c.outcome.as_ref().ok().map(|p| p.depth),
        };
        let mut s = serde_json::to_string(&value).expect("serializable");
        s.push('\n');
        return s;
    }
    match &c.outcome {
        Ok(p) => format!(
            "{} game {}: verified: {} (difficulty {}/5, depth {})\n",
            visible(&c.file),
            c.game,
            task(p),
            p.difficulty,
            p.depth
        ),
        Err(reason) => format!(
            "{} game {}: {}\n",
            visible(&c.file),
            c.game,
            visible(reason)
        ),
    }
}

// ---------------------------------------------------------------------------------------
// The summary.

/// The first line of the summary on stderr: games, positions, candidates, puzzles kept.
pub fn summary_line(stats: &Stats, collection: &Collection, games: u64, invalid: u64) -> String {
    let share = if stats.mined > 0 {
        format!(
            " ({:.0}% of {})",
            100.0 * (stats.mined - stats.refuted) as f64 / stats.mined as f64,
            thousands(stats.mined)
        )
    } else {
        String::new()
    };
    format!(
        "{} ({} invalid), {} screened: {}, {} kept after verification{share}; {} distinct ({} merged)",
        count(games, "game", "games"),
        thousands(invalid),
        count(stats.positions, "position", "positions"),
        count(stats.candidates, "candidate", "candidates"),
        count(stats.puzzles, "puzzle", "puzzles"),
        thousands(collection.len() as u64),
        count(collection.duplicates(), "duplicate", "duplicates"),
    )
}

/// The summary's line on TzDraft, when some of `entries` are Tanzanian (or TzDraft's): how
/// many do not hold under the other reading of the rules, and how many TzDraft's puzzle
/// players cannot enter.
pub fn tzdraft_summary(entries: &[Entry]) -> Option<String> {
    let ours: Vec<&Puzzle> = entries
        .iter()
        .map(|e| &e.puzzle)
        .filter(|p| matches!(p.variant, Variant::Tanzanian | Variant::TzDraft))
        .collect();
    if ours.is_empty() {
        return None;
    }
    let article: Vec<&&Puzzle> = ours
        .iter()
        .filter(|p| p.variant == Variant::Tanzanian)
        .collect();
    let unsound = article
        .iter()
        .filter(|p| !tzdraft::sound_under_tzdraft(p))
        .count();
    let mut parts = Vec::new();
    if !article.is_empty() {
        parts.push(format!(
            "{} of {} {} under its server's reading (left out of --format tzdraft)",
            thousands(unsound as u64),
            thousands(article.len() as u64),
            if unsound == 1 {
                "does not hold"
            } else {
                "do not hold"
            }
        ));
    }
    let theirs: Vec<&&Puzzle> = ours
        .iter()
        .filter(|p| p.variant == Variant::TzDraft)
        .collect();
    if !theirs.is_empty() {
        let unsound = theirs
            .iter()
            .filter(|p| p.other_reading.as_ref().is_some_and(|c| !c.sound()))
            .count();
        parts.push(format!(
            "{} of {} mined under it {} under the article's rules",
            thousands(unsound as u64),
            thousands(theirs.len() as u64),
            if unsound == 1 {
                "does not hold"
            } else {
                "do not hold"
            }
        ));
    }
    let unenterable = ours
        .iter()
        .filter(|p| tzdraft::unenterable_move(p).is_some())
        .count();
    parts.push(format!(
        "{} of {} cannot be entered in its puzzle players (a move that takes 2 or more pieces; --tzdraft-enterable leaves them out)",
        thousands(unenterable as u64),
        thousands(ours.len() as u64)
    ));
    Some(format!("TzDraft: {}", parts.join("; ")))
}

/// `1 game`, `2,004 games`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// The puzzles `entries`, numbered from 1, as text or (with `json`) JSON Lines.
pub fn write_entries(
    out: &mut impl std::io::Write,
    entries: &[Entry],
    json: bool,
) -> std::io::Result<()> {
    for (i, e) in entries.iter().enumerate() {
        let text = if json {
            json_entry(i + 1, e)
        } else {
            text_entry(i + 1, e)
        };
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// The puzzles `entries`, numbered from 1, as PDN records (FEN and solution).
pub fn pdn_text(entries: &[Entry]) -> String {
    let mut pdn = String::new();
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            pdn.push('\n');
        }
        drafti_pdn::write_game_to(&pdn_record(i + 1, e), &mut pdn);
    }
    pdn
}
