//! The matches of an Event: its games grouped by the pair of players (and, in the group
//! formats, by whether a `Stage` tag makes them knock-out games), each match in match order.

use super::archive::Archive;
use super::matches::{play_match, MatchSummary, Note};
use super::{MatchLaw, StandingsOptions};

/// The matches of an Event: its games grouped by match, each match in match order, and
/// the matches in order of their first game.
pub(super) struct EventMatches<'a> {
    pub(super) archive: &'a Archive,
    options: &'a StandingsOptions,
    games: Vec<u32>,
    /// Each match's games as `games[start..end]`.
    ranges: Vec<(u32, u32)>,
    /// Each match's law.
    pub(super) laws: Vec<MatchLaw>,
}

impl<'a> EventMatches<'a> {
    /// Groups `games` (record numbers; each with two different players) into matches, a
    /// knock-out `Stage` apart from the group games of the same players when `stages`; `law`
    /// says how each match (by its players and whether it is a knock-out stage) is decided.
    pub(super) fn new(
        archive: &'a Archive,
        options: &'a StandingsOptions,
        stages: bool,
        mut games: Vec<u32>,
        law: impl Fn([u32; 2], bool) -> MatchLaw,
    ) -> Self {
        // In the group formats a knock-out game (by its Stage tag) is of another match than
        // a group game of the same two players.
        let pair = |i: u32| {
            let r = &archive.records[i as usize];
            (
                r.white.min(r.black),
                r.white.max(r.black),
                stages && r.knockout_stage(),
            )
        };
        // By pair, then match order: each match is a run (sort keys are unique).
        games.sort_unstable_by_key(|&i| (pair(i), archive.sort_key(i)));
        let mut ranges = Vec::new();
        let mut start = 0;
        for end in 1..=games.len() {
            if end == games.len() || pair(games[end]) != pair(games[start]) {
                ranges.push((start as u32, end as u32));
                start = end;
            }
        }
        ranges.sort_unstable_by_key(|&(start, _)| archive.sort_key(games[start as usize]));
        let laws = ranges
            .iter()
            .map(|&(start, _)| {
                let r = &archive.records[games[start as usize] as usize];
                law([r.white, r.black], r.knockout_stage())
            })
            .collect();
        EventMatches {
            archive,
            options,
            games,
            ranges,
            laws,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The games of match `n`, in match order.
    pub(super) fn games(&self, n: usize) -> &[u32] {
        let (start, end) = self.ranges[n];
        &self.games[start as usize..end as usize]
    }

    /// Match `n` played out; its warnings go to `notes` when given.
    pub(super) fn summary(&self, n: usize, notes: Option<&mut Vec<Note>>) -> MatchSummary<'_> {
        play_match(
            self.archive,
            self.options,
            n as u32,
            self.games(n),
            self.laws[n],
            notes,
        )
    }

    /// The name ids of the players of match `n`: White, then Black of its first game.
    pub(super) fn players(&self, n: usize) -> [u32; 2] {
        let r = &self.archive.records[self.games(n)[0] as usize];
        [r.white, r.black]
    }
}
