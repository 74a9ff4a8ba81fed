//! The evaluation's weights: the layout of its parameters and the data file that holds their
//! values (`engine/data/eval-weights.txt`, embedded in the binary), fitted by Texel tuning
//! (`lab/examples/texel.rs`; docs/engine.md says how to regenerate it).
//!
//! Every parameter has two values, one for a full board (opening, `mg`) and one for an empty
//! one (endgame, `eg`); the evaluation interpolates between them by the pieces on the board.
//! Values are in tenths of a hundredth of a man ([`UNIT`] per centi-man).
//!
//! The file is text: `#` comments, then one line per parameter that is not zero,
//! `name index mg eg` (e.g. `man 0 1000 1000`, `pattern 5 3121 -14 22`). A parameter not
//! listed is zero.

use drafti_rules::Variant;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock};

/// Weight units per hundredth of a man.
pub const UNIT: i32 = 10;

/// Men configurations of a region: empty, own man or opponent's man on each square.
pub const REGION_STATES: usize = 6561; // 3^8
/// Regions: 4×4 squares at files a–d, c–f, e–h and, seen from the side's own end, rows
/// 1–4, 3–6, 5–8 (the first nine), then 2–5 and 4–7 (the other six).
pub const REGIONS: usize = 15;
/// The first regions, which cover the board between them.
pub const BASE_REGIONS: usize = 9;

/// Each region's squares are bits `shift + {0, 1, 4, 5, 8, 9, 12, 13}` of a side's square
/// set (four squares a row; row 0 is the far end): two squares of four consecutive rows.
pub const REGION_SHIFTS: [u32; REGIONS] = {
    let mut shifts = [0; REGIONS];
    let mut r = 0;
    while r < REGIONS {
        let (file_window, row) = if r < 9 {
            (r % 3, 2 * (r / 3))
        } else {
            ((r - 9) % 3, 2 * ((r - 9) / 3) + 1)
        };
        shifts[r] = (4 * row + file_window) as u32;
        r += 1;
    }
    shifts
};

/// One group of parameters: a name, where it starts, how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its name in the data file.
    pub name: &'static str,
    /// The first parameter.
    pub offset: usize,
    /// How many parameters.
    pub len: usize,
    /// What it measures (for the docs and the trainer's report).
    pub about: &'static str,
}

macro_rules! layout {
    ($( $konst:ident $name:literal $len:expr, $about:literal; )*) => {
        layout!(@offsets 0usize; $( $konst $len; )*);
        /// Every group of parameters, in order.
        pub const GROUPS: &[Group] = &[ $( Group { name: $name, offset: $konst, len: $len, about: $about } ),* ];
    };
    (@offsets $at:expr; $konst:ident $len:expr; $( $rest:ident $rlen:expr; )*) => {
        #[doc = concat!("First parameter of the group `", stringify!($konst), "`.")]
        pub const $konst: usize = $at;
        layout!(@offsets $at + $len; $( $rest $rlen; )*);
    };
    (@offsets $at:expr;) => {
        /// The number of parameters.
        pub const PARAMS: usize = $at;
    };
}

layout! {
    MAN "man" 1, "a man";
    MAN_SQUARE "man-square" 32, "a man on this square (numbered from its own side: 1 is the crowning row's left square)";
    KING "king" 1, "the first king of a side";
    KING_EXTRA "king-extra" 1, "every further king";
    KING_SQUARE "king-square" 32, "a king on this square (from its own side)";
    KING_MOBILITY "king-mobility" 1, "a square a king can move to that no enemy man attacks";
    KING_MOBILITY_ATTACKED "king-mobility-attacked" 1, "a square a king can move to where an enemy man could capture it";
    MAIN_DIAGONAL "main-diagonal" 1, "a king on the long diagonal a1-h8";
    MAIN_DIAGONAL_SOLE "main-diagonal-sole" 1, "a side holds the long diagonal and the other has no king on it";
    RUNAWAY "runaway" 7, "a man no enemy piece can stop, by steps to the crown (1-7); no enemy king on the board";
    RACE_AHEAD "race-ahead" 1, "a side crowns a runaway man before the other can (the side to move gains a step)";
    TO_MOVE "to-move" 1, "the side to move";
    BALANCE "balance" 1, "men on one half of the board (files a-d or e-h) beyond those on the other";
    PATTERN "pattern" REGIONS * REGION_STATES, "men in a 4x4 region: region * 6561 + sum of 3^i * (1 own man, 2 enemy man) over its squares";
}

/// The group holding parameter `param`.
pub fn group_of(param: usize) -> Option<&'static Group> {
    GROUPS
        .iter()
        .find(|g| param >= g.offset && param < g.offset + g.len)
}

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A line that is not `name index mg eg`.
    #[error("weights line {line}: expected 'name index mg eg', found '{text}'")]
    Syntax {
        /// Line number (1-based).
        line: usize,
        /// The line.
        text: String,
    },
    /// An unknown group or an index beyond it.
    #[error("weights line {line}: no parameter '{name} {index}'")]
    Unknown {
        /// Line number (1-based).
        line: usize,
        /// The group name.
        name: String,
        /// The index.
        index: usize,
    },
}

/// Values of every parameter for a full board (`mg`) and an empty one (`eg`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Opening values, [`PARAMS`] of them.
    pub mg: Vec<i32>,
    /// Endgame values.
    pub eg: Vec<i32>,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::zero()
    }
}

impl Weights {
    /// Every weight zero.
    pub fn zero() -> Weights {
        Weights {
            mg: vec![0; PARAMS],
            eg: vec![0; PARAMS],
        }
    }

    /// Reads the text format (see the module docs).
    pub fn from_text(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let syntax = || WeightsError::Syntax {
                line: n + 1,
                text: raw.to_string(),
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, index, mg, eg] = fields[..] else {
                return Err(syntax());
            };
            let index: usize = index.parse().map_err(|_| syntax())?;
            let mg: i32 = mg.parse().map_err(|_| syntax())?;
            let eg: i32 = eg.parse().map_err(|_| syntax())?;
            let group = GROUPS
                .iter()
                .find(|g| g.name == name)
                .filter(|g| index < g.len)
                .ok_or_else(|| WeightsError::Unknown {
                    line: n + 1,
                    name: name.to_string(),
                    index,
                })?;
            w.mg[group.offset + index] = mg;
            w.eg[group.offset + index] = eg;
        }
        Ok(w)
    }

    /// Writes the text format, `header` first (each of its lines as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        for g in GROUPS {
            for i in 0..g.len {
                let p = g.offset + i;
                if self.mg[p] != 0 || self.eg[p] != 0 {
                    let _ = writeln!(out, "{} {} {} {}", g.name, i, self.mg[p], self.eg[p]);
                }
            }
        }
        out
    }
}

/// The text of each variant's shipped data file (fitted on that variant's games).
pub const SHIPPED_TEXTS: [(Variant, &str); 3] = [
    (Variant::Tanzanian, include_str!("../data/eval-weights.txt")),
    (
        Variant::Czech,
        include_str!("../data/eval-weights-czech.txt"),
    ),
    (
        Variant::Russian,
        include_str!("../data/eval-weights-russian.txt"),
    ),
];

/// The text of the Tanzanian data file.
pub const SHIPPED_TEXT: &str = SHIPPED_TEXTS[0].1;

/// The weights the engine ships with for `variant` (shared, each file read on first use).
pub fn shipped(variant: Variant) -> Arc<Weights> {
    static SHIPPED: [LazyLock<Arc<Weights>>; 3] = [
        LazyLock::new(|| read_shipped(0)),
        LazyLock::new(|| read_shipped(1)),
        LazyLock::new(|| read_shipped(2)),
    ];
    Arc::clone(&SHIPPED[shipped_index(variant)])
}

/// Where `variant`'s file is in [`SHIPPED_TEXTS`]. TzDraft's server plays Tanzanian draughts
/// with another reading of king captures: it is evaluated with the Tanzanian weights.
pub(crate) fn shipped_index(variant: Variant) -> usize {
    match variant {
        Variant::Tanzanian | Variant::TzDraft => 0,
        Variant::Czech => 1,
        Variant::Russian => 2,
    }
}

fn read_shipped(i: usize) -> Arc<Weights> {
    // The files are part of the build and their parsing is tested; an error here is a bug.
    Arc::new(Weights::from_text(SHIPPED_TEXTS[i].1).expect("the shipped weights files are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous() {
        let mut at = 0;
        for g in GROUPS {
            assert_eq!(g.offset, at, "{}", g.name);
            at += g.len;
        }
        assert_eq!(at, PARAMS);
        assert_eq!(group_of(PATTERN + 5).map(|g| g.name), Some("pattern"));
        assert_eq!(REGION_STATES, 3usize.pow(8));
    }

    #[test]
    fn shipped_files_read_and_round_trip() {
        for (variant, text) in SHIPPED_TEXTS {
            let w = Weights::from_text(text).unwrap();
            assert_eq!(*shipped(variant), w);
            assert!(w.mg[MAN] > 0 && w.eg[KING] > w.eg[MAN]);
            // The nominal values the engine exports are the shipped ones.
            for phase in [&w.mg, &w.eg] {
                assert_eq!(phase[MAN], crate::MAN * UNIT, "{variant}");
                assert_eq!(phase[KING], crate::KING * UNIT, "{variant}");
            }
            let again = Weights::from_text(&w.to_text("header\nline two")).unwrap();
            assert_eq!(again, w);
        }
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(matches!(
            Weights::from_text("man 0 100"),
            Err(WeightsError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            Weights::from_text("# c\nman 1 100 100"),
            Err(WeightsError::Unknown { line: 2, .. })
        ));
        assert!(matches!(
            Weights::from_text("bishop 0 1 1"),
            Err(WeightsError::Unknown { .. })
        ));
    }
}
