//! Reports on archives of draughts games: the text summary and the HTML report of `drafti
//! report` (with the in-page game viewer), SVG diagrams of positions, and the outputs of
//! `drafti puzzles`. The crate renders; it never prints, exits or reads the environment, and
//! writes only to the writers it is handed (files, atomic or not, are the caller's).
//!
//! ```text
//! the caller's batch (drafti_archive::batch::run_games: parse + replay, in input order)
//!   worker, per game: describe ─▶ GameOut { figures, flags, first positions,
//!                                           the game's HTML section, the game if it has a blunder }
//!   sink: Collector::add ─▶ tallies, players, openings, biggest blunders (and their games),
//!         index of games │ the section it returns ─▶ a scratch writer of the caller's
//! end: Collector::blunders_to_recheck ─▶ (the caller: drafti_analysis::recheck_blunders)
//!      ─▶ Collector::rechecked: the verdicts into their games' analyses, counts and sections
//!      ─▶ text::summary::write_summary │ html::pages::write_single (head and summary,
//!         sections, tail) │ html::pages::write_pages (pages of games, then index.html)
//! ```
//!
//! Modules, by concept, each using only the ones before it: [`svg`] board diagrams and the
//! escaping of XML text; [`collect`] what a report gathers (the collector, the biggest
//! blunders, where each game's section is); [`html`] the HTML report (its summary,
//! [`html::game`] each game's article, [`html::viewer`] the data of its board, the analysis
//! board's scripts and the engine's WebAssembly module, [`html::pages`] one file or a folder
//! of pages); [`describe`] one game described on a worker; [`text`] the text outputs (the
//! report's summary, `analyze`, `openings`, the problems of a record); [`standings`] the
//! outputs of `drafti standings`; [`puzzles`] the outputs of `drafti puzzles`.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod collect;
pub mod describe;
pub mod html;
pub mod puzzles;
pub mod standings;
pub mod svg;
pub mod text;

use std::borrow::Cow;
use std::fmt::Write as _;

/// A count with thousands separators, as every table of drafti writes counts.
///
/// ```
/// assert_eq!(drafti_report::thousands(999), "999");
/// assert_eq!(drafti_report::thousands(1_234_567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` safe to show on a terminal: its control characters (ESC, BEL, CR, tab, …, and the
/// bidirectional overrides that reorder what a line shows) written visibly, as `\x1b` or
/// `\u{202e}`; everything else as it is. Every text output of drafti shows what an archive
/// says (names, tags, source lines) through this, so an archive cannot clear the screen or
/// set the terminal's title.
///
/// ```
/// assert_eq!(drafti_report::visible("Ann"), "Ann");
/// assert_eq!(drafti_report::visible("A\u{1b}[2J\u{7}"), "A\\x1b[2J\\x07");
/// assert_eq!(drafti_report::visible("a\u{202e}b"), "a\\u{202e}b");
/// ```
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !hidden(c) {
            out.push(c);
        } else if (c as u32) < 0x100 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// A character a terminal acts on instead of showing: the C0 and C1 controls, DEL, and the
/// bidirectional embeddings, overrides and isolates.
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A figure with one decimal and its unit (`54.2%`), or `none` where there is none (no games
/// to count): the percentages and means of the summaries and tables.
///
/// ```
/// assert_eq!(drafti_report::one_decimal(Some(54.24), "%", "-"), "54.2%");
/// assert_eq!(drafti_report::one_decimal(Some(61.0), "", "-"), "61.0");
/// assert_eq!(drafti_report::one_decimal(None, "%", "–"), "–");
/// ```
pub fn one_decimal(v: Option<f64>, unit: &str, none: &str) -> String {
    v.map_or_else(|| none.to_string(), |x| format!("{x:.1}{unit}"))
}

/// A count and its noun, singular for one: `1 game`, `2,004 games`.
///
/// ```
/// assert_eq!(drafti_report::counted(1, "blunder", "blunders"), "1 blunder");
/// assert_eq!(drafti_report::counted(4858, "blunder", "blunders"), "4,858 blunders");
/// ```
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}
