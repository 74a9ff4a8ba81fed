//! The matches of an Event: its games grouped by the pair of players (and, in the group
//! formats, by whether a `Stage` tag makes them knock-out games; under `tzdraft`, by the
//! tournament round, the Round tag's first part), each match in match order.

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
    /// How a TzDraft match its games left undecided is settled: `None` while the round's
    /// deadline has not passed, else whether the Event is a round robin.
    deadline: Option<bool>,
}

/// How the games of one Event are grouped into matches.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Grouping {
    /// A knock-out `Stage` game is of another match than a group game of the same players.
    pub(super) stages: bool,
    /// Games of different tournament rounds (the Round tag's first part) are different
    /// matches.
    pub(super) rounds: bool,
}

impl<'a> EventMatches<'a> {
    /// Groups `games` (record numbers; each with two different players) into matches as
    /// `grouping` says; `law` says how each match (by its players and whether it is a
    /// knock-out stage) is decided.
    pub(super) fn new(
        archive: &'a Archive,
        options: &'a StandingsOptions,
        grouping: Grouping,
        mut games: Vec<u32>,
        law: impl Fn([u32; 2], bool) -> MatchLaw,
    ) -> Self {
        // In the group formats a knock-out game (by its Stage tag) is of another match than
        // a group game of the same two players; under `tzdraft`, a game of another round.
        let pair = |i: u32| {
            let r = &archive.records[i as usize];
            (
                r.white.min(r.black),
                r.white.max(r.black),
                grouping.stages && r.knockout_stage(),
                if grouping.rounds {
                    archive.round_head(i)
                } else {
                    0
                },
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
            deadline: None,
        }
    }

    /// The round's deadline has passed (`tzdraft`): undecided matches are settled as TzDraft
    /// settles them, as a round robin's when `round_robin`.
    pub(super) fn settle_at_deadline(&mut self, round_robin: bool) {
        self.deadline = Some(round_robin);
    }

    /// The tournament round of match `n` by its first game (`None` without a Round tag).
    pub(super) fn round_of(&self, n: usize) -> Option<u32> {
        let head = self.archive.round_head(self.games(n)[0]);
        (head != super::archive::NONE).then_some(head)
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
    pub(super) fn summary(&self, n: usize, mut notes: Option<&mut Vec<Note>>) -> MatchSummary<'_> {
        let mut m = play_match(
            self.archive,
            self.options,
            n as u32,
            self.games(n),
            self.laws[n],
            notes.as_deref_mut(),
        );
        if m.law == MatchLaw::Tzdraft && !m.finished() {
            let settled = self
                .deadline
                .is_some_and(|round_robin| m.settle_at_deadline(round_robin));
            let in_match = n as u32;
            if let (Some(notes), Some(&last)) = (notes, m.games.last()) {
                notes.push(if settled {
                    Note::SettledAtDeadline { in_match, last }
                } else {
                    Note::UnfinishedMatch { in_match, last }
                });
            }
        }
        m
    }

    /// The name ids of the players of match `n`: White, then Black of its first game.
    pub(super) fn players(&self, n: usize) -> [u32; 2] {
        let r = &self.archive.records[self.games(n)[0] as usize];
        [r.white, r.black]
    }
}
