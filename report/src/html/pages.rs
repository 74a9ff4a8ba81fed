//! Where the HTML report's parts go: one self-contained document ([`write_single`]), or a
//! folder of pages ([`write_pages`]: `index.html` with the summary and the index of games,
//! and `games-0001.html`, … with [`PAGE_GAMES`] games each, linked to each other).
//!
//! Game sections arrive one by one while the summary is still being gathered, and a
//! document starts with its summary: the sections wait in a scratch writer of the caller's,
//! handed back as a reader at the end, when the sections the re-check made again
//! ([`Collector::replaced`]) take the place of the ones written. A [`PageSink`] makes the
//! pages (files that appear once complete, buffers in memory): this module decides only
//! what each holds.

use crate::collect::{page_name, Collector, RunInfo, PAGE_GAMES};
use crate::html::{self, CSS, UP};
use std::fmt::Write as _;
use std::io::{self, Read, Write};

/// Copies sections `range` to `out` from `sections`, which reads them back in order from
/// the first not copied yet; a section made again after the re-check replaces the one read.
fn copy_sections(
    out: &mut impl Write,
    c: &Collector<'_>,
    range: std::ops::Range<usize>,
    sections: &mut impl Read,
    buffer: &mut Vec<u8>,
) -> io::Result<()> {
    for number in range {
        buffer.resize(c.sections[number], 0);
        sections.read_exact(buffer)?;
        match c.replaced.get(&number) {
            Some(again) => out.write_all(again.as_bytes())?,
            None => out.write_all(buffer)?,
        }
    }
    Ok(())
}

/// The report as one document written to `out`: the head and the summary of `c`, then the
/// game sections as `sections` reads them back (in order, as [`Collector::add`] returned
/// them; [`Collector::replaced`] in their place), then the tail with the viewer's script.
///
/// ```
/// use drafti_analysis::{analyse_game, AnalysisOptions};
/// use drafti_archive::batch::{run_games, BatchOptions, Input};
/// use drafti_archive::openings::Book;
/// use drafti_report::collect::{Collector, RunInfo};
/// use drafti_report::describe::{describe, WorkSettings};
/// use drafti_report::html::pages;
///
/// let pdn = b"1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n";
/// let book = Book::builtin();
/// let options = AnalysisOptions::from_limits(Some(2), None);
/// let settings = WorkSettings {
///     book: &book,
///     html: true,
/// };
/// let mut collector = Collector::new(vec!["one.pdn".to_string()], &book);
/// let mut sections = Vec::new();
/// let added = |g| -> Result<(), std::convert::Infallible> {
///     if let Some(section) = collector.add(g) {
///         sections.extend_from_slice(section.as_bytes());
///     }
///     Ok(())
/// };
/// let inputs = vec![Input::new("one.pdn", Box::new(&pdn[..]))];
/// let batch = BatchOptions { jobs: 1, ..BatchOptions::default() };
/// run_games(inputs, &batch, |_| {}, |job| describe(job, &settings, |g| analyse_game(g, &options)), added).unwrap();
///
/// let info = RunInfo::new("one.pdn".into(), "depth 2".into());
/// let mut page = Vec::new();
/// pages::write_single(&mut page, &mut collector, &info, &mut &sections[..]).unwrap();
/// let page = String::from_utf8(page).unwrap();
/// assert!(page.starts_with("<!DOCTYPE html>\n"));
/// assert!(page.contains(r#"<article class="game" id="g1-1""#));
/// assert!(page.ends_with("</html>\n"));
/// ```
pub fn write_single(
    out: &mut impl Write,
    c: &mut Collector<'_>,
    info: &RunInfo,
    sections: &mut impl Read,
) -> io::Result<()> {
    out.write_all(html::head_and_summary(c, info).as_bytes())?;
    copy_sections(out, c, 0..c.sections.len(), sections, &mut Vec::new())?;
    out.write_all(html::tail().as_bytes())
}

/// What makes the pages of a paged report: a folder of files, or buffers in memory.
pub trait PageSink {
    /// A page being written.
    type Page: Write;

    /// Starts the page called `name` (`games-0001.html`, `index.html`).
    fn create(&mut self, name: &str) -> io::Result<Self::Page>;

    /// The page called `name` is complete: put it in place.
    fn commit(&mut self, name: &str, page: Self::Page) -> io::Result<()>;
}

/// Why a page of a paged report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The sink could not start the page.
    #[error("cannot start {page}: {source}")]
    Create {
        /// The page's name.
        page: String,
        /// The sink's error.
        source: io::Error,
    },
    /// Writing the page or committing it failed.
    #[error("cannot write {page}: {source}")]
    Write {
        /// The page's name.
        page: String,
        /// The writer's or the sink's error.
        source: io::Error,
    },
}

impl PageError {
    /// The page that could not be written.
    pub fn page(&self) -> &str {
        match self {
            PageError::Create { page, .. } | PageError::Write { page, .. } => page,
        }
    }
}

/// The report as a folder of pages made by `sink`: the game sections as `sections` reads
/// them back (in order, as [`Collector::add`] returned them; [`Collector::replaced`] in their
/// place) in pages of [`PAGE_GAMES`], each linked to the next, then `index.html`: the
/// summary of `c` and the index of games. The collector of the run must have `paged` set,
/// so that its index and links name the pages.
///
/// ```
/// use drafti_archive::openings::Book;
/// use drafti_report::collect::{Collector, RunInfo};
/// use drafti_report::html::pages::{write_pages, PageSink};
/// use std::collections::BTreeMap;
///
/// /// Pages kept in memory, by name.
/// #[derive(Default)]
/// struct Memory(BTreeMap<String, String>);
///
/// impl PageSink for Memory {
///     type Page = Vec<u8>;
///     fn create(&mut self, _name: &str) -> std::io::Result<Vec<u8>> {
///         Ok(Vec::new())
///     }
///     fn commit(&mut self, name: &str, page: Vec<u8>) -> std::io::Result<()> {
///         self.0.insert(name.to_string(), String::from_utf8(page).unwrap());
///         Ok(())
///     }
/// }
///
/// let book = Book::builtin();
/// let mut collector = Collector::new(Vec::new(), &book);
/// collector.paged = true;
/// let mut sections = String::new();
/// for n in 1..=501 {
///     let section = format!("<article id=\"g1-{n}\"></article>\n");
///     collector.sections.push(section.len());
///     sections.push_str(&section);
/// }
/// let info = RunInfo::new("nothing".into(), "none".into());
/// let mut memory = Memory::default();
/// write_pages(&mut memory, &mut collector, &info, &mut sections.as_bytes()).unwrap();
/// let Memory(written) = memory;
/// let names: Vec<&str> = written.keys().map(String::as_str).collect();
/// assert_eq!(names, ["games-0001.html", "games-0002.html", "index.html"]);
/// assert!(written["games-0001.html"].contains(r#"<a href="games-0002.html">next page →</a>"#));
/// assert!(written["games-0002.html"].contains(r#"<a href="games-0001.html">← page 1</a>"#));
/// assert!(written["games-0002.html"].contains(r#"<article id="g1-501">"#));
/// ```
pub fn write_pages<S: PageSink>(
    sink: &mut S,
    c: &mut Collector<'_>,
    info: &RunInfo,
    sections: &mut impl Read,
) -> Result<(), PageError> {
    let count = c.sections.len();
    let mut buffer = Vec::new();
    for n in 0..count.div_ceil(PAGE_GAMES) {
        let name = page_name(n);
        let mut page = sink.create(&name).map_err(|source| PageError::Create {
            page: name.clone(),
            source,
        })?;
        let first = n * PAGE_GAMES;
        let last = count.min(first + PAGE_GAMES);
        let next = (last < count).then(|| page_name(n + 1));
        page.write_all(page_head(n, first).as_bytes())
            .and_then(|()| copy_sections(&mut page, c, first..last, sections, &mut buffer))
            .and_then(|()| page.write_all(page_foot(next.as_deref()).as_bytes()))
            .and_then(|()| sink.commit(&name, page))
            .map_err(|source| PageError::Write { page: name, source })?;
    }
    let name = "index.html";
    let mut page = sink.create(name).map_err(|source| PageError::Create {
        page: name.to_string(),
        source,
    })?;
    page.write_all(html::head_and_summary(c, info).as_bytes())
        .and_then(|()| page.write_all(html::tail().as_bytes()))
        .and_then(|()| sink.commit(name, page))
        .map_err(|source| PageError::Write {
            page: name.to_string(),
            source,
        })
}

/// The end of a page of games: links to the summary and to the `next` page, then the tail.
fn page_foot(next: Option<&str>) -> String {
    let mut foot =
        String::from("<p class=\"note\"><a href=\"index.html\">Summary and index of all games</a>");
    if let Some(next) = next {
        let _ = write!(foot, " · <a href=\"{next}\">next page →</a>");
    }
    foot.push_str("</p>");
    foot.push_str(&html::tail());
    foot
}

/// The start of page `n` of a paged report, whose first game is section `first` (0-based):
/// up to its game sections. Its top (`#games`, where the ↑ games link leads) links to the
/// summary and index and to the page before.
fn page_head(n: usize, first: usize) -> String {
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
