//! Which games a query looks at: by variant, date range, event, player (and colour), rating
//! band, result, named opening and drawing-table ballot, decided from each game's record.

use crate::books::Books;
use crate::format::IndexError;
use crate::index::Index;
use crate::record::{GameInfo, Outcome, NONE_U16};
use drafti_rules::{Color, Variant};

/// The filters a query was given; `None` takes every game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Only games of this variant.
    pub variant: Option<Variant>,
    /// Only games dated on or after (`yyyymmdd`; a date with an unknown month or day counts
    /// as its first day).
    pub date_from: Option<u32>,
    /// Only games dated on or before.
    pub date_to: Option<u32>,
    /// Only games whose Event contains this (any case).
    pub event: Option<String>,
    /// Only games with a player whose name contains this (any case).
    pub player: Option<String>,
    /// With `player`: only when the player has this colour.
    pub color: Option<Color>,
    /// Only games whose average rating (of the ratings given) is at least this.
    pub min_rating: Option<u16>,
    /// At most this.
    pub max_rating: Option<u16>,
    /// Only games with this result.
    pub result: Option<Outcome>,
    /// Only games named with this opening code (the Russian book).
    pub opening: Option<String>,
    /// Only games of this ballot: `fmjd:CODE` or `idf:CODE`.
    pub ballot: Option<String>,
}

/// A ballot or opening filter that names nothing in the books.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FilterError {
    /// `--opening CODE` with an unknown code.
    #[error("no opening has the code '{0}' (the codes are in db/data/russian-openings.tsv)")]
    Opening(String),
    /// `--ballot` not `fmjd:CODE` or `idf:CODE`, or an unknown code.
    #[error("no ballot '{0}': expected fmjd:CODE or idf:CODE with a code of the table, e.g. fmjd:5-III or idf:2-VII")]
    Ballot(String),
}

/// The filters resolved against one index: names found once, each game then tested cheaply.
pub struct GameFilter {
    filters: Filters,
    event_ids: Option<Vec<bool>>,
    player_ids: Option<Vec<bool>>,
    opening: Option<u16>,
    ballot: Option<(bool, u16)>,
}

fn matching_names(index: &Index, needle: &str) -> Result<Vec<bool>, IndexError> {
    let needle = needle.to_lowercase();
    (0..index.strings())
        .map(|id| Ok(index.string(id)?.to_lowercase().contains(&needle)))
        .collect()
}

impl GameFilter {
    /// Resolves `filters` against `index` and `books`.
    pub fn new(
        index: &Index,
        books: &Books,
        filters: &Filters,
    ) -> Result<Result<GameFilter, FilterError>, IndexError> {
        let event_ids = filters
            .event
            .as_deref()
            .map(|e| matching_names(index, e))
            .transpose()?;
        let player_ids = filters
            .player
            .as_deref()
            .map(|p| matching_names(index, p))
            .transpose()?;
        let opening = match &filters.opening {
            None => None,
            Some(code) => match books
                .openings
                .entries()
                .iter()
                .position(|e| e.code.eq_ignore_ascii_case(code))
            {
                Some(i) => Some(i as u16),
                None => return Ok(Err(FilterError::Opening(code.clone()))),
            },
        };
        let ballot = match &filters.ballot {
            None => None,
            Some(text) => match resolve_ballot(books, text) {
                Some(b) => Some(b),
                None => return Ok(Err(FilterError::Ballot(text.clone()))),
            },
        };
        Ok(Ok(GameFilter {
            filters: filters.clone(),
            event_ids,
            player_ids,
            opening,
            ballot,
        }))
    }

    /// Whether every filter takes every game.
    pub fn is_empty(&self) -> bool {
        self.filters == Filters::default()
    }

    /// Whether the game passes.
    pub fn matches(&self, r: &GameInfo) -> bool {
        if r.unreadable {
            return false;
        }
        let f = &self.filters;
        if f.variant.is_some_and(|v| v != r.variant) || f.result.is_some_and(|o| o != r.outcome) {
            return false;
        }
        if f.date_from
            .is_some_and(|d| r.date == 0 || end_of(r.date) < d)
            || f.date_to.is_some_and(|d| r.date == 0 || r.date > end_of(d))
        {
            return false;
        }
        let has = |ids: &Option<Vec<bool>>, id: u32| {
            ids.as_ref()
                .is_none_or(|set| set.get(id as usize).copied().unwrap_or(false))
        };
        if !has(&self.event_ids, r.event) {
            return false;
        }
        if self.player_ids.is_some() {
            let ok = match f.color {
                Some(Color::White) => has(&self.player_ids, r.white),
                Some(Color::Black) => has(&self.player_ids, r.black),
                None => has(&self.player_ids, r.white) || has(&self.player_ids, r.black),
            };
            if !ok {
                return false;
            }
        }
        if f.min_rating.is_some() || f.max_rating.is_some() {
            let Some(rating) = r.rating() else {
                return false;
            };
            if f.min_rating.is_some_and(|m| rating < m) || f.max_rating.is_some_and(|m| rating > m)
            {
                return false;
            }
        }
        if self.opening.is_some_and(|o| o != r.opening) {
            return false;
        }
        match self.ballot {
            Some((true, b)) => r.fmjd == b,
            Some((false, b)) => r.idf == b,
            None => true,
        }
    }
}

/// The last day a (possibly partial) date can mean: `19500000` → `19501231`.
fn end_of(date: u32) -> u32 {
    let (y, m, d) = (date / 10000, date / 100 % 100, date % 100);
    match (m, d) {
        (0, _) => y * 10000 + 1231,
        (m, 0) => y * 10000 + m * 100 + 31,
        _ => date,
    }
}

/// `fmjd:CODE` or `idf:CODE` as (FMJD?, number in the record).
fn resolve_ballot(books: &Books, text: &str) -> Option<(bool, u16)> {
    let (table, code) = text.split_once(':')?;
    let code = code.trim();
    match table.trim().to_ascii_lowercase().as_str() {
        "fmjd" => {
            let moves = books.fmjd.entries();
            moves
                .iter()
                .position(|e| e.code.eq_ignore_ascii_case(code))
                .or_else(|| {
                    books
                        .fmjd_positions
                        .iter()
                        .position(|b| b.code.eq_ignore_ascii_case(code))
                        .map(|i| i + moves.len())
                })
                .map(|i| (true, i as u16))
        }
        "idf" => books
            .idf
            .entries()
            .iter()
            .position(|e| e.code.eq_ignore_ascii_case(code))
            .map(|i| (false, i as u16)),
        _ => None,
    }
    .filter(|(_, n)| *n != NONE_U16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_dates_cover_their_period() {
        assert_eq!(end_of(19500000), 19501231);
        assert_eq!(end_of(19501100), 19501131);
        assert_eq!(end_of(19501124), 19501124);
    }
}
