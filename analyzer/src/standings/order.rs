//! Names and order: how tag values are normalised and how games are put in match order
//! (Round, then Date, then input order; a missing value last).

use super::GameSummary;
use std::cmp::Ordering;

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

/// One `.`-separated part of a Round: numbers sort numerically, before text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RoundPart {
    Number(u64),
    Text(String),
}

/// A value that sorts after every present one when missing.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MissingLast<T>(Option<T>);

impl<T: Ord> PartialOrd for MissingLast<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Ord> Ord for MissingLast<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => a.cmp(b),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
}

/// Where a game goes in match order: Round, Date, then its position in the input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SortKey {
    round: MissingLast<Vec<RoundPart>>,
    date: MissingLast<String>,
    input: usize,
}

impl SortKey {
    /// The key of `game`, which is number `input` (from 0) in input order.
    pub(crate) fn of(game: &GameSummary, input: usize) -> SortKey {
        let round = game.round.as_deref().filter(|r| !is_unknown(r)).map(|r| {
            r.trim()
                .split('.')
                .map(|part| {
                    let part = part.trim();
                    match part.parse::<u64>() {
                        Ok(n) if part.bytes().all(|b| b.is_ascii_digit()) => RoundPart::Number(n),
                        _ => RoundPart::Text(part.to_lowercase()),
                    }
                })
                .collect()
        });
        let date = game
            .date
            .as_deref()
            .filter(|d| !is_unknown(d))
            .map(|d| d.trim().to_string());
        SortKey {
            round: MissingLast(round),
            date: MissingLast(date),
            input,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::GameOutcome;

    fn game(round: Option<&str>, date: Option<&str>) -> GameSummary {
        GameSummary {
            file: "f".into(),
            game: 1,
            event: None,
            round: round.map(Into::into),
            date: date.map(Into::into),
            white: None,
            black: None,
            result: GameOutcome::Unfinished,
            result_warning: None,
            first_mover: None,
            king_appeared: None,
        }
    }

    #[test]
    fn rounds_compare_part_by_part_and_missing_sorts_last() {
        let k = |r: Option<&str>, i| SortKey::of(&game(r, None), i);
        assert!(k(Some("2.9"), 5) < k(Some("2.10"), 0));
        assert!(k(Some("2"), 5) < k(Some("10"), 0));
        assert!(k(Some("1"), 5) < k(Some("final"), 0));
        assert!(k(Some("3"), 5) < k(None, 0));
        assert!(k(Some("?"), 0) < k(None, 1)); // `?` is missing: input order decides
        assert!(k(Some("1"), 0) < k(Some("1"), 1));
    }

    #[test]
    fn dates_break_round_ties() {
        let k = |d: Option<&str>, i| SortKey::of(&game(Some("1"), d), i);
        assert!(k(Some("2024.05.02"), 0) > k(Some("2024.05.01"), 1));
        assert!(k(Some("????.??.??"), 0) > k(Some("2024.05.01"), 1));
    }

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalise_name("  Amina   Juma "), Some("Amina Juma".into()));
        assert_eq!(normalise_name("?"), None);
        assert_eq!(normalise_name("  "), None);
        assert_eq!(event_name(None), "");
    }
}
