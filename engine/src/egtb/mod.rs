//! Endgame tables: every position with few pieces solved exactly, by retrograde analysis over
//! the rules core.
//!
//! - [`index`](Signature): tables by material *signature* (men and kings of the side to move
//!   and of the other side); a position's index in its table is a perfect combinatorial rank
//!   of its pieces (only colliding men of the two sides waste indices).
//! - `format`: one file per signature, a 64-byte header (variant, laws, signature, counts,
//!   CRC-32) and one byte per position: draw, or the distance in plies whose parity says win
//!   or loss. Read into memory for probing (up to [`LOAD_LIMIT`]; bigger files are
//!   memory-mapped).
//! - [`build`]: retrograde analysis, smallest signatures first (captures and crowning lead
//!   into finished tables), each signature and its colour-swapped partner solved together in
//!   passes of increasing distance, in parallel (rayon). Resumable: a finished file is kept.
//! - [`Tables`]: probing (value, best move, the line to the end), and [`verify`].
//! - [`build_on_first_use`]: the missing tables of a folder built once, by one process at a
//!   time (a lock file), for the programs that build them for their user.
//!
//! **The draw laws** (Tanzanian) are part of the game the tables solve, exactly as
//! `drafti_rules::Game` adjudicates them (through the engine's `LawState`): positions with only
//! kings, one or two each, are draws (or lost for a side with no move); three kings against one
//! have a table with 12 layers, one per lone-king count 0–11 (a lone-king move goes one layer
//! up, the 12th draws), and a position *arriving* at that material by a capture or crowning
//! starts at count 0 if one of the three kings is on the main diagonal and is a draw otherwise.
//! Law 3: a lone king to move against two kings and a man, one of the kings on the main
//! diagonal, may crown the man and start the count (the engine's `laws::law3_claim`); the
//! tables give it that claim as one more option, worth the three kings against one after it
//! with the same side to move and the count at 0 ([`Tables::claim_value`]). Tanzanian tables
//! are format version 2 for it; version 1 (without law 3) is refused.
//! Czech and Russian have no such laws: their tables are the plain game.
//!
//! Values are from the side to move: a win in `d` plies (`d` odd: the winner's move at ply `d`
//! leaves the other side without a move), a loss in `d` (`d` even; 0: no move now), or a draw
//! (neither side can force the end of the game). Repetition is no rule of the game: a position
//! that neither side can force to an end is a draw.

mod build;
mod first_use;
mod format;
mod index;
mod probe;
mod verify;

pub use build::{build, build_signatures, build_until, plan, BuildEvent, BuildPlan};
pub use first_use::{build_on_first_use, FirstUseEvent};
pub use format::{file_name, Header, EXTENSION, LOAD_LIMIT};
pub use index::{Signature, MAX_PIECES};
pub use probe::{ProbeReport, TableInfo, Tables};
pub use verify::{verify, VerifyReport};

use drafti_rules::Variant;
use std::ffi::OsStr;
use std::path::PathBuf;

/// The default folder of the tables, where `drafti analyze` and `drafti report` build them on
/// first use and every command and the Python package look for them when given none:
/// `$XDG_CACHE_HOME/drafti/egtb`, else `$HOME/.cache/drafti/egtb`; `None` without a home
/// folder. The front ends read the two variables and pass their values (`xdg_cache_home`,
/// `home`): the library reads no environment.
///
/// ```
/// use drafti_engine::egtb::default_dir;
/// use std::ffi::OsStr;
/// use std::path::Path;
/// let home = Some(OsStr::new("/home/you"));
/// assert_eq!(default_dir(None, home).unwrap(), Path::new("/home/you/.cache/drafti/egtb"));
/// assert_eq!(default_dir(Some(OsStr::new("")), home).unwrap(), Path::new("/home/you/.cache/drafti/egtb"));
/// assert_eq!(default_dir(Some(OsStr::new("/c")), home).unwrap(), Path::new("/c/drafti/egtb"));
/// assert_eq!(default_dir(None, None), None);
/// ```
pub fn default_dir(xdg_cache_home: Option<&OsStr>, home: Option<&OsStr>) -> Option<PathBuf> {
    let cache = xdg_cache_home
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("drafti").join("egtb"))
}

/// The exact value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies (odd).
    Win(u32),
    /// Drawn with best play.
    Draw,
    /// The side to move loses; the game ends after this many plies (even; 0: no move now).
    Loss(u32),
}

impl Value {
    /// The value one ply earlier, for the side that moved into this position.
    #[inline]
    pub const fn back(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A number that orders values from the side to move's view: quicker wins highest,
    /// slower losses above quicker ones.
    #[inline]
    pub const fn rank(self) -> i32 {
        match self {
            Value::Win(d) => 10_000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => d as i32 - 10_000,
        }
    }

    /// The plies to the end of the game, for a win or a loss.
    pub const fn distance(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The engine's score of this value.
    pub const fn score(self) -> crate::Score {
        match self {
            Value::Win(d) => crate::Score::win_in(d),
            Value::Loss(d) => crate::Score::loss_in(d),
            Value::Draw => crate::Score::DRAW,
        }
    }
}

/// `win in 7`, `loss in 4`, `draw`.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// What can go wrong with endgame tables. Each error names the file or signature.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A table file is damaged: bad header, wrong length, checksum mismatch.
    #[error("{}: corrupt endgame table: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        reason: String,
    },
    /// A table file is for other rules than the folder it is in, or than asked for.
    #[error("{}: {reason}", path.display())]
    WrongRules {
        /// The file.
        path: PathBuf,
        /// Whose rules it has, and whose were wanted.
        reason: String,
    },
    /// A file named as a table that is not a regular file (a folder, a FIFO, a device).
    #[error("{}: not an endgame table: it is {kind} (tables are regular files)", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead (`a folder`, `a FIFO`…).
        kind: &'static str,
    },
    /// No table file in the folder.
    #[error("{}: no endgame tables here", path.display())]
    NoTables {
        /// The folder.
        path: PathBuf,
    },
    /// A table needed to build another is missing (built out of order).
    #[error("the table {0} is needed but missing")]
    MissingTable(Signature),
    /// A distance does not fit the one-byte format.
    #[error("signature {0}: a distance beyond {max} plies does not fit the format", max = format::MAX_DISTANCE)]
    DistanceTooLong(Signature),
    /// The build was stopped ([`build_until`]'s flag) before it finished.
    #[error("the build was stopped before it finished")]
    Stopped,
    /// More pieces than the index supports.
    #[error("at most {MAX_PIECES} pieces are supported, not {0}")]
    TooManyPieces(u32),
    /// Rules that have no tables ([`VARIANTS`] lists those that have).
    #[error("endgame tables exist for tz, czech and russian; {0} games are searched without them")]
    NoTablesForRules(Variant),
}

/// The rules endgame tables are built for. TzDraft's reading of the Tanzanian rules has none:
/// its captures and its king-against-king draw differ from the article's, so the Tanzanian
/// tables would give wrong values, and its games are searched without tables.
pub const VARIANTS: [Variant; 3] = [Variant::Tanzanian, Variant::Czech, Variant::Russian];

/// [`EgtbError::NoTablesForRules`] unless `variant` is one of [`VARIANTS`].
pub(crate) fn check_rules(variant: Variant) -> Result<(), EgtbError> {
    if VARIANTS.contains(&variant) {
        Ok(())
    } else {
        Err(EgtbError::NoTablesForRules(variant))
    }
}

#[cfg(test)]
mod tests;
