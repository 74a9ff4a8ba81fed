//! The files of the HTML report: one file (`--html OUT`), or a folder of pages (`--html-dir
//! DIR`). What each holds is `drafti_report::html::pages`'s; here every file appears only once
//! complete ([`OutputFile`]: nothing is left behind on an error or an interrupt), and the
//! game sections wait in a scratch file until the summary is written (and the sections the
//! re-check made again take their place).

use crate::error::CliError;
use crate::files::{OutputFile, ScratchFile};
use drafti_report::collect::{Collector, RunInfo};
use drafti_report::html::pages::{self, PageError, PageSink};
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
    /// One file.
    File(PathBuf),
    /// A folder of pages.
    Dir(PathBuf),
}

/// The HTML report being written: its sections meanwhile in the scratch file `part`.
pub struct HtmlOutput {
    target: Target,
    part: BufWriter<ScratchFile>,
}

/// A scratch file for the sections of the output `beside` (removed when dropped or on
/// Ctrl-C).
fn scratch(beside: &Path) -> Result<BufWriter<ScratchFile>, CliError> {
    Ok(BufWriter::with_capacity(
        1 << 16,
        ScratchFile::create(beside)?,
    ))
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
        Ok(HtmlOutput {
            target: Target::File(out.to_path_buf()),
            part: scratch(out)?,
        })
    }

    /// Pages in the folder `dir` (made if need be).
    pub fn dir(dir: &Path) -> Result<HtmlOutput, CliError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", dir.display())))?;
        Ok(HtmlOutput {
            target: Target::Dir(dir.to_path_buf()),
            part: scratch(&dir.join("index.html"))?,
        })
    }

    /// Whether game sections go to pages (their links then name the page).
    pub fn paged(&self) -> bool {
        matches!(self.target, Target::Dir(_))
    }

    /// Adds the next game section (in order).
    pub fn section(&mut self, section: &str) -> Result<(), CliError> {
        self.part
            .write_all(section.as_bytes())
            .map_err(|e| CliError::new(format!("cannot write the HTML report: {e}")))
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
        let part = self.part.into_inner().map_err(|e| {
            let path = match &self.target {
                Target::File(out) => out.clone(),
                Target::Dir(dir) => dir.clone(),
            };
            io(&path)(e.into_error())
        })?;
        match self.target {
            Target::File(out) => {
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
            Target::Dir(dir) => {
                let mut folder = Folder {
                    dir: dir.clone(),
                    bytes: 0,
                    files: 0,
                };
                let mut sections = File::open(part.path()).map_err(io(&dir))?;
                pages::write_pages(&mut folder, collector, info, &mut sections).map_err(
                    |e| match e {
                        // OutputFile's message names the file.
                        PageError::Create { source, .. } => CliError::new(source.to_string()),
                        PageError::Write { page, source } => io(&dir.join(page))(source),
                    },
                )?;
                Ok(Written {
                    path: dir.join("index.html"),
                    bytes: folder.bytes,
                    files: folder.files,
                })
            }
        }
    }
}
