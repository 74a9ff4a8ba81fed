//! drafti's laboratory, outside the shipped crates (nothing shipped depends on it): the
//! analysis quality benchmark ([`benchmark`], run by `drafti-lab quality`), its references
//! ([`quality`]) and its consensus of two references ([`consensus`]). The engine duel and the
//! Texel fit of the evaluation are its examples (`examples/duel.rs`, `examples/texel.rs`).
//! Findings are written up in `docs/lab/`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod benchmark;
pub mod consensus;
pub mod quality;

use std::io;
use std::path::PathBuf;

/// What went wrong in a lab run.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A reference's cache file holds the searches of another engine, limit or mode: hours
    /// of searches, so it is neither read nor overwritten.
    #[error(
        "{} is not this run's reference cache ({found}); this run's reference is {wanted}: \
         give another file, or remove this one to search again",
        path.display()
    )]
    OtherReference {
        /// The file.
        path: PathBuf,
        /// What its header says.
        found: String,
        /// What this run would search.
        wanted: String,
    },
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}
