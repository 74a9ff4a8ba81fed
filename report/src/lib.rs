//! Reports on archives of draughts games: the text summary and the HTML report of `drafti
//! report` (with the in-page game viewer), SVG diagrams of positions, and the outputs of
//! `drafti puzzles`. The crate renders; it never prints, exits or reads the environment, and
//! writes only to the writers it is handed (files, atomic or not, are the caller's).
//!
//! ```text
//! the caller's batch (drafti_archive::batch::run_games: parse + replay, in input order)
//!   worker, per game: work / describe ─▶ GameOut { figures, flags, first positions,
//!                                                  the game's HTML section }
//!   sink: Collector::add ─▶ tallies, players, openings, biggest blunders, index of games
//!         └─ the section it returns ─▶ a scratch writer (one file) │ pages::Pages (a folder)
//! end: text::write_summary │ pages::write_file (head and summary, sections, tail)
//!                          │ Pages::finish (the last page, then index.html)
//! ```
//!
//! Modules: [`diagnostic`] the problems of a record as text; [`text`] the text summary; [`html`] the HTML report's parts; [`pages`] which
//! page holds what, and the writing of a report's pages; [`viewer`] the data of the in-page
//! viewer (its script and the style are the files of `assets/`); [`svg`] board diagrams and
//! the escaping of XML text; [`puzzles`] the puzzles as text, JSON Lines, PDN and a page.

mod collect;
pub mod diagnostic;
pub mod html;
pub mod pages;
pub mod puzzles;
pub mod svg;
pub mod text;
pub mod viewer;

pub use collect::*;
pub use html::RunInfo;
pub use pages::{PageError, PageSink, Pages};
pub use svg::escape;

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
