//! The files of the HTML report: one file (`--html OUT`), or a folder of pages (`--html-dir
//! DIR`). What each holds is `drafti_report::html::pages`'s; here every file appears only once
//! complete ([`OutputFile`]: nothing is left behind on an error or an interrupt), and a
//! single file's game sections wait in a scratch file until the summary is written.

use crate::error::CliError;
use crate::files::{OutputFile, ScratchFile};
use drafti_report::collect::{Collector, RunInfo};
use drafti_report::html::pages::{self, PageError, PageSink, Pages};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

type Out = BufWriter<OutputFile>;

/// What was written.
pub struct Written {
    /// The file (or the folder's index page).
    pub path: PathBuf,
    /// Bytes in all.
    pub bytes: u64,
    /// Files written.
    pub files: usize,
}

/// The pages of `--html-dir`: files in a folder, counted as they are committed.
struct Folder {
    dir: PathBuf,
    bytes: u64,
    files: usize,
}

impl PageSink for Folder {
    type Page = Out;

    fn create(&mut self, name: &str) -> std::io::Result<Out> {
        // OutputFile's message names the file.
        create(&self.dir.join(name)).map_err(|e| std::io::Error::other(e.to_string()))
    }

    fn commit(&mut self, _name: &str, page: Out) -> std::io::Result<()> {
        self.bytes += commit(page)?;
        self.files += 1;
        Ok(())
    }
}

enum Target {
    /// One file, its sections meanwhile in the scratch file `part`.
    File {
        out: PathBuf,
        part: BufWriter<ScratchFile>,
    },
    /// A folder of pages.
    Dir { dir: PathBuf, pages: Pages<Folder> },
}

/// The HTML report being written.
pub struct HtmlOutput {
    target: Target,
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
        })
    }

    /// Pages in the folder `dir` (made if need be).
    pub fn dir(dir: &Path) -> Result<HtmlOutput, CliError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", dir.display())))?;
        Ok(HtmlOutput {
            target: Target::Dir {
                dir: dir.to_path_buf(),
                pages: Pages::new(Folder {
                    dir: dir.to_path_buf(),
                    bytes: 0,
                    files: 0,
                }),
            },
        })
    }

    /// Whether game sections go to pages (their links then name the page).
    pub fn paged(&self) -> bool {
        matches!(self.target, Target::Dir { .. })
    }

    /// Adds the next game section (in order).
    pub fn section(&mut self, section: &str) -> Result<(), CliError> {
        let failed =
            |e: &dyn std::fmt::Display| CliError::new(format!("cannot write the HTML report: {e}"));
        match &mut self.target {
            Target::File { part, .. } => part.write_all(section.as_bytes()).map_err(|e| failed(&e)),
            Target::Dir { pages, .. } => pages.section(section).map_err(|e| match e {
                PageError::Create { source, .. } | PageError::Write { source, .. } => {
                    failed(&source)
                }
            }),
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
            move |e: std::io::Error| CliError::new(format!("cannot write {path}: {e}"))
        };
        match self.target {
            Target::File { out, part } => {
                let part = part.into_inner().map_err(|e| io(&out)(e.into_error()))?;
                let mut w = create(&out)?;
                let bytes = (|| {
                    let mut sections = File::open(part.path())?;
                    pages::write_single(&mut w, collector, info, &mut sections)?;
                    commit(w)
                })()
                .map_err(io(&out))?;
                Ok(Written {
                    path: out,
                    bytes,
                    files: 1,
                })
            }
            Target::Dir { dir, pages } => {
                let folder = pages.finish(collector, info).map_err(|e| match e {
                    // OutputFile's message names the file.
                    PageError::Create { source, .. } => CliError::new(source.to_string()),
                    PageError::Write { page, source } => io(&dir.join(page))(source),
                })?;
                Ok(Written {
                    path: dir.join("index.html"),
                    bytes: folder.bytes,
                    files: folder.files,
                })
            }
        }
    }
}
