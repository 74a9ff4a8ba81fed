//! The rule sets drafti knows: Tanzanian draughts (the default) and its relatives.
//!
//! | rule | Tanzanian | Czech | Russian |
//! |---|---|---|---|
//! | men capture backward | no | no | yes |
//! | man crowned during a capture | stops | stops | continues as king |
//! | priority | none | a king must capture if it can | none |
//! | draw laws of the Tanzanian article | yes | no | no |

use std::fmt;
use std::str::FromStr;

/// A rule set. Tanzanian is the default everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Tanzanian draughts (TZ drafts, *drafti*).
    #[default]
    Tanzanian,
    /// Czech draughts (PDN GameType 29).
    Czech,
    /// Russian draughts, shashki (PDN GameType 25).
    Russian,
}

/// A text that names no variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected tz, czech or russian)",
            self.0
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Tanzanian, Variant::Czech, Variant::Russian];

    /// Men capture backward as well as forward.
    #[inline]
    pub const fn men_capture_backward(self) -> bool {
        matches!(self, Variant::Russian)
    }

    /// A man crowned in the middle of a capture goes on capturing as a king.
    #[inline]
    pub const fn crowned_man_continues(self) -> bool {
        matches!(self, Variant::Russian)
    }

    /// If a king can capture, a king must capture.
    #[inline]
    pub const fn king_capture_priority(self) -> bool {
        matches!(self, Variant::Czech)
    }

    /// The short name used on the command line: `tz`, `czech`, `russian`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tanzanian => "tz",
            Variant::Czech => "czech",
            Variant::Russian => "russian",
        }
    }

    /// The PDN `GameType` number, where the game has one (Tanzanian has none).
    pub const fn game_type(self) -> Option<u32> {
        match self {
            Variant::Tanzanian => None,
            Variant::Czech => Some(29),
            Variant::Russian => Some(25),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Accepts `tz`, `tanzanian`, `drafti`, `czech`, `russian` (any case) and the GameType numbers
/// `25` and `29`.
impl FromStr for Variant {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tz" | "tanzanian" | "drafti" | "tzdrafts" | "tz-drafts" => Ok(Variant::Tanzanian),
            "czech" | "cz" | "29" => Ok(Variant::Czech),
            "russian" | "ru" | "shashki" | "25" => Ok(Variant::Russian),
            _ => Err(ParseVariantError(s.to_string())),
        }
    }
}
