//! Which format an Event is when `--format` does not say (the module docs of
//! [`standings`](super) give the rules): read from who played whom, in one pass over the
//! Event's games.

use super::archive::Archive;
use super::Format;
use std::collections::{HashMap, HashSet};

/// Who played whom in an Event: its players, and how often each pair met.
pub(super) struct Pairings {
    /// Players.
    pub(super) players: u32,
    /// Pairs of players who met.
    pub(super) pairs: u32,
    /// The fewest and the most games a pair that met played.
    least: u32,
    most: u32,
}

impl Pairings {
    /// The pairings of `games` (record numbers, each with two different players).
    pub(super) fn of(archive: &Archive, games: &[u32]) -> Pairings {
        let mut met: HashMap<(u32, u32), u32> = HashMap::new();
        let mut players: HashSet<u32> = HashSet::new();
        for &i in games {
            let r = &archive.records[i as usize];
            *met.entry((r.white.min(r.black), r.white.max(r.black)))
                .or_default() += 1;
            players.insert(r.white);
            players.insert(r.black);
        }
        Pairings {
            players: players.len() as u32,
            pairs: met.len() as u32,
            least: met.values().copied().min().unwrap_or(0),
            most: met.values().copied().max().unwrap_or(0),
        }
    }

    /// Whether a knockout can have played these pairs: one match a pair, a knockout of N
    /// players has at most N−1 matches (each puts one player out).
    pub(super) fn fit_a_knockout(&self) -> bool {
        self.pairs < self.players.max(1)
    }

    /// How many pairs a round robin of these players has.
    fn all_pairs(&self) -> u64 {
        let n = u64::from(self.players);
        n * n.saturating_sub(1) / 2
    }

    /// The format these pairings fit when the players are in no groups, and why when it is
    /// not the article's matches or knockout.
    pub(super) fn format(&self) -> (Format, Option<String>) {
        let n = self.players;
        if n <= 3 {
            return (Format::Matches, None);
        }
        if self.fit_a_knockout() {
            return (Format::Knockout, None);
        }
        let everyone = u64::from(self.pairs) == self.all_pairs();
        if everyone && self.least == self.most {
            let times = match self.most {
                1 => "once".to_string(),
                2 => "twice".to_string(),
                k => format!("{k} times"),
            };
            return (
                Format::RoundRobin,
                Some(format!("every pair of the {n} players met {times}")),
            );
        }
        let why = if everyone {
            format!("every pair of the {n} players met, some more often than others")
        } else {
            format!(
                "{} pairs of the {n} players met: more than a knockout's {} matches, fewer \
                 than a round robin's {}",
                self.pairs,
                n - 1,
                self.all_pairs()
            )
        };
        (Format::Swiss, Some(why))
    }
}
