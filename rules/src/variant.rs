//! The rule sets drafti knows: Tanzanian draughts (the default), its relatives, and
//! Tanzanian as TzDraft's server plays it.
//!
//! | rule | Tanzanian | TzDraft | Czech | Russian |
//! |---|---|---|---|---|
//! | men capture backward | no | no | no | yes |
//! | man crowned during a capture | stops | stops | stops | continues as king |
//! | priority | none | none | a king must capture if it can | none |
//! | captured pieces leave the board | when the move ends | at once | when the move ends | when the move ends |
//! | a king that can go on capturing from some landing square | must land on one | may stop on any square before the first, must not fly past it | must land on one | must land on one |
//! | draw laws | the article's | TzDraft's server's | none | none |

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
    /// Tanzanian draughts as TzDraft's server plays it (kayzo1903/TzDraft, its
    /// `capture-finding.service.ts` and draw counters): captured pieces leave the board at
    /// once, a capturing king may stop on any square before the first one from which it could
    /// go on capturing and may not fly past that one, and the server's own draw rules
    /// ([`Game`](crate::Game)). Everything else as Tanzanian. PDN: `[Variant "TzDraft"]`.
    TzDraft,
}

/// A text that names no variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected tz, tzdraft, czech or russian)",
            self.0
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 4] = [
        Variant::Tanzanian,
        Variant::Czech,
        Variant::Russian,
        Variant::TzDraft,
    ];

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

    /// TzDraft's server's reading of captures: a captured piece leaves the board at once (a
    /// king may pass over its square again), and a capturing king may stop on any square
    /// before the first one from which it can go on capturing, but not fly past that one.
    #[inline]
    pub const fn tzdraft_captures(self) -> bool {
        matches!(self, Variant::TzDraft)
    }

    /// Either player may make the first move (the article's "anyone can start"); otherwise
    /// White starts.
    #[inline]
    pub const fn either_may_start(self) -> bool {
        matches!(self, Variant::Tanzanian | Variant::TzDraft)
    }

    /// The short name used on the command line: `tz`, `czech`, `russian`, `tzdraft`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tanzanian => "tz",
            Variant::Czech => "czech",
            Variant::Russian => "russian",
            Variant::TzDraft => "tzdraft",
        }
    }

    /// The rules' name for people: `Tanzanian draughts`, `Tanzanian as TzDraft's server
    /// plays it`, ….
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Tanzanian => "Tanzanian draughts",
            Variant::Czech => "Czech draughts",
            Variant::Russian => "Russian draughts",
            Variant::TzDraft => "Tanzanian as TzDraft's server plays it",
        }
    }

    /// The PDN `GameType` number, where the game has one (Tanzanian and TzDraft have none).
    pub const fn game_type(self) -> Option<u32> {
        match self {
            Variant::Tanzanian | Variant::TzDraft => None,
            Variant::Czech => Some(29),
            Variant::Russian => Some(25),
        }
    }

    /// The PDN tag that names the rules, as drafti writes it and reads it back:
    /// `GameType` 29 or 25, else `Variant` `Tanzanian` or `TzDraft`.
    ///
    /// ```
    /// use drafti_rules::Variant;
    /// assert_eq!(Variant::Russian.pdn_tag(), ("GameType", "25"));
    /// assert_eq!(Variant::TzDraft.pdn_tag(), ("Variant", "TzDraft"));
    /// assert_eq!("TzDraft".parse::<Variant>(), Ok(Variant::TzDraft));
    /// ```
    pub const fn pdn_tag(self) -> (&'static str, &'static str) {
        match self {
            Variant::Tanzanian => ("Variant", "Tanzanian"),
            Variant::TzDraft => ("Variant", "TzDraft"),
            Variant::Czech => ("GameType", "29"),
            Variant::Russian => ("GameType", "25"),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Accepts `tz`, `tanzanian`, `drafti`, `tzdraft`, `czech`, `russian` (any case) and the
/// GameType numbers `25` and `29`.
impl FromStr for Variant {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tz" | "tanzanian" | "drafti" | "tzdrafts" | "tz-drafts" => Ok(Variant::Tanzanian),
            "czech" | "cz" | "29" => Ok(Variant::Czech),
            "russian" | "ru" | "shashki" | "25" => Ok(Variant::Russian),
            "tzdraft" | "tzdraft-server" => Ok(Variant::TzDraft),
            _ => Err(ParseVariantError(s.to_string())),
        }
    }
}
