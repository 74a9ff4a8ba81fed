//! Where the HTML report goes: one file (`--html OUT`), or a folder of pages (`--html-dir
//! DIR`: `index.html` with the summary and the index of games, and `games-0001.html`, … with
//! [`PAGE_GAMES`] games each). Game sections arrive one by one while the summary is still
//! being gathered: a single file's sections wait in a scratch file, a folder's go straight
//! into their page; the summary is written last. Every file appears only once complete
//! ([`OutputFile`]: nothing is left behind on an error or an interrupt).

use super::html::{self, RunInfo};
use super::Collector;
use crate::common::{CliError, OutputFile, ScratchFile};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

type Out = BufWriter<OutputFile>;

/// Games per page of `--html-dir` (about 1.3 MB of HTML each for engine games).
pub const PAGE_GAMES: usize = 500;

/// The file name of page `n` (0-based) of `--html-dir`.
pub fn page_name(n: usize) -> String {
    format!("games-{:04}.html", n + 1)
}

/// The page of `--html-dir` that holds the game section number `ordinal` (0-based).
pub fn page_of(ordinal: usize) -> String {
    page_name(ordinal / PAGE_GAMES)
}

/// What was written.
pub struct Written {
    /// The file (or the folder's index page).
    pub path: PathBuf,
    /// Bytes in all.
    pub bytes: u64,
    /// Files written.
    pub files: usize,
}

enum Target {
    /// One file, its sections meanwhile in the scratch file `part`.
    File {
        out: PathBuf,
        part: BufWriter<ScratchFile>,
    },
    /// A folder of pages; the page being written.
    Dir {
        dir: PathBuf,
        page: Option<Out>,
        pages: usize,
        bytes: u64,
    },
}

/// The HTML report being written.
pub struct HtmlOutput {
    target: Target,
    sections: usize,
}

fn create(path: &Path) -> Result<Out, CliError> {
    Ok(BufWriter::with_capacity(1 << 16, OutputFile::create(path)?))
}

/// Flushes and commits a file; returns its size.
fn commit(w: Out) -> std::io::Result<u64> {
    w.into_inner().map_err(|e| e.into_error())?.commit()
}

impl HtmlOutput {
    /// One self-contained file `out`.
    pub fn file(out: &Path) -> Result<HtmlOutput, CliError> {
        // Removed when dropped or on Ctrl-C.
        let part = BufWriter::with_capacity(1 << 16, ScratchFile::create(out)?);
        Ok(HtmlOutput {
            target: Target::File {
                out: out.to_path_buf(),
                part,
            },
            sections: 0,
        })
    }

    /// Pages in the folder `dir` (made if need be).
    pub fn dir(dir: &Path) -> Result<HtmlOutput, CliError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("cannot write {}: {e}", dir.display())))?;
        Ok(HtmlOutput {
            target: Target::Dir {
                dir: dir.to_path_buf(),
                page: None,
                pages: 0,
                bytes: 0,
            },
            sections: 0,
        })
    }

    /// Whether game sections go to pages (their links then name the page).
    pub fn paged(&self) -> bool {
        matches!(self.target, Target::Dir { .. })
    }

    /// Adds the next game section (in order).
    pub fn section(&mut self, section: &str) -> std::io::Result<()> {
        let ordinal = self.sections;
        self.sections += 1;
        match &mut self.target {
            Target::File { part, .. } => part.write_all(section.as_bytes()),
            Target::Dir {
                dir,
                page,
                pages,
                bytes,
            } => {
                if ordinal.is_multiple_of(PAGE_GAMES) {
                    let n = ordinal / PAGE_GAMES;
                    if let Some(done) = page.take() {
                        *bytes += end_page(done, Some(&page_name(n)))?;
                    }
                    let path = dir.join(page_name(n));
                    let mut w = create(&path).map_err(|e| std::io::Error::other(e.0))?;
                    w.write_all(html::page_head(n, ordinal).as_bytes())?;
                    *page = Some(w);
                    *pages += 1;
                }
                match page {
                    Some(w) => w.write_all(section.as_bytes()),
                    None => Ok(()),
                }
            }
        }
    }

    /// Writes the summary (the file's head, or the folder's index page) and closes
    /// everything.
    pub fn finish(
        self,
        collector: &mut Collector<'_>,
        info: &RunInfo,
    ) -> Result<Written, CliError> {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |e: std::io::Error| CliError(format!("cannot write {path}: {e}"))
        };
        match self.target {
            Target::File { out, part } => {
                let part = part.into_inner().map_err(|e| io(&out)(e.into_error()))?;
                let mut w = create(&out)?;
                let written = (|| {
                    w.write_all(html::head_and_summary(collector, info).as_bytes())?;
                    std::io::copy(&mut File::open(part.path())?, &mut w)?;
                    w.write_all(html::tail().as_bytes())?;
                    commit(w)
                })()
                .map_err(io(&out))?;
                Ok(Written {
                    path: out,
                    bytes: written,
                    files: 1,
                })
            }
            Target::Dir {
                dir,
                page,
                pages,
                mut bytes,
            } => {
                if let Some(done) = page {
                    bytes += end_page(done, None).map_err(io(&dir))?;
                }
                let path = dir.join("index.html");
                let mut w = create(&path)?;
                bytes += (|| {
                    w.write_all(html::head_and_summary(collector, info).as_bytes())?;
                    w.write_all(html::tail().as_bytes())?;
                    commit(w)
                })()
                .map_err(io(&path))?;
                Ok(Written {
                    path,
                    bytes,
                    files: pages + 1,
                })
            }
        }
    }
}

/// Closes a page, with a link to the `next` one; returns its size.
fn end_page(mut w: Out, next: Option<&str>) -> std::io::Result<u64> {
    w.write_all(b"<p class=\"note\"><a href=\"index.html\">Summary and index of all games</a>")?;
    if let Some(next) = next {
        write!(w, " · <a href=\"{next}\">next page →</a>")?;
    }
    w.write_all(b"</p>")?;
    w.write_all(html::tail().as_bytes())?;
    commit(w)
}
