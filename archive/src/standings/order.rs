//! Names and order: how tag values are normalised and how a Round is compared (the match
//! order itself, Round, then Date, then input order, is [`Archive::sort_key`]).
//!
//! [`Archive::sort_key`]: super::Archive

/// Whether a tag value says nothing: empty, or only `?`, `.` and `-` (`?`, `????.??.??`).
pub(crate) fn is_unknown(value: &str) -> bool {
    value.trim().chars().all(|c| matches!(c, '?' | '.' | '-'))
}

/// A player name with surrounding spaces removed and inner runs of white space made one
/// space; `None` if nothing is left or the name is unknown (`?`).
pub(crate) fn normalise_name(name: &str) -> Option<String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    (!is_unknown(&name)).then_some(name)
}

/// The Event of a game: its tag, normalised like a name; empty when unknown.
pub(crate) fn event_name(event: Option<&str>) -> String {
    event.and_then(normalise_name).unwrap_or_default()
}

/// Whether a `Stage` tag names a knock-out round: any known value that does not name a
/// group stage (`Group…`, `Pool…`, `Kundi…` (Swahili), `Round robin`, `League`).
pub(crate) fn is_knockout_stage(stage: &str) -> bool {
    let stage = stage.trim().to_lowercase();
    !is_unknown(&stage)
        && ![
            "group",
            "pool",
            "kundi",
            "round robin",
            "round-robin",
            "league",
            "ligi",
        ]
        .iter()
        .any(|g| stage.starts_with(g))
}

/// One `.`-separated part of a Round: numbers sort numerically, before text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RoundPart {
    Number(u64),
    Text(String),
}

/// How a (known) Round compares: part by part on `.` (`2.10` after `2.9`).
pub(crate) fn round_key(round: &str) -> Vec<RoundPart> {
    round
        .trim()
        .split('.')
        .map(|part| {
            let part = part.trim();
            match part.parse::<u64>() {
                Ok(n) if part.bytes().all(|b| b.is_ascii_digit()) => RoundPart::Number(n),
                _ => RoundPart::Text(part.to_lowercase()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalise_name("  Amina   Juma "), Some("Amina Juma".into()));
        assert_eq!(normalise_name("?"), None);
        assert_eq!(normalise_name("  "), None);
        assert_eq!(event_name(None), "");
    }

    #[test]
    fn stages_name_knock_out_rounds_unless_they_name_groups() {
        for stage in ["Final", "Semi-final", "Nusu fainali", "Knockout", "QF"] {
            assert!(is_knockout_stage(stage), "{stage}");
        }
        for stage in ["Group A", "group stage", "Kundi B", "Round robin", "?", ""] {
            assert!(!is_knockout_stage(stage), "{stage}");
        }
    }

    #[test]
    fn round_parts_compare_numbers_first() {
        assert!(round_key("2.9") < round_key("2.10"));
        assert!(round_key("1") < round_key("final"));
        assert_eq!(round_key("Final"), round_key("final"));
    }
}
