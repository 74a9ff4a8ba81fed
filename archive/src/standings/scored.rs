//! Games scored one by one, a win 1 point and a draw ½ (a `0-0` lost by both, an unfinished
//! game not counted): the tally both the Swiss ranking ([`super::swiss`]) and the round-robin
//! table ([`super::round_robin`]) start from, and the ranking both end with.

use super::archive::Archive;
use super::{GameOutcome, TieBreak};
use std::collections::HashMap;

/// A scored game: its players (name ids, White then Black) and their points in halves.
pub(super) struct Scored {
    pub(super) players: [u32; 2],
    pub(super) halves: [u32; 2],
}

/// Game `i` scored; `None` for a game without a result.
pub(super) fn scored(archive: &Archive, i: u32) -> Option<Scored> {
    let g = &archive.records[i as usize];
    let halves = match g.result {
        GameOutcome::WhiteWin => [2, 0],
        GameOutcome::BlackWin => [0, 2],
        GameOutcome::Draw => [1, 1],
        GameOutcome::NoWinner => [0, 0],
        GameOutcome::Unfinished => return None,
    };
    Some(Scored {
        players: [g.white, g.black],
        halves,
    })
}

/// A player's games with a result.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    pub(super) games: u32,
    pub(super) won: u32,
    pub(super) drawn: u32,
    pub(super) lost: u32,
    /// Points in halves.
    pub(super) halves: u32,
}

/// Every player's tally over `games` (record numbers), by name id.
pub(super) fn tallies(archive: &Archive, games: &[u32]) -> HashMap<u32, Tally> {
    let mut tallies: HashMap<u32, Tally> = HashMap::new();
    for s in games.iter().filter_map(|&i| scored(archive, i)) {
        let draw = s.halves == [1, 1];
        for side in 0..2 {
            let t = tallies.entry(s.players[side]).or_default();
            t.games += 1;
            t.halves += s.halves[side];
            match s.halves[side] {
                _ if draw => t.drawn += 1,
                2 => t.won += 1,
                _ => t.lost += 1,
            }
        }
    }
    tallies
}

/// A row of a ranking: its name and its keys, better first when larger.
pub(super) trait Ranked {
    /// The player.
    fn name(&self) -> &str;
    /// Points, then the two tie-breaks of the ranking (larger is better).
    fn keys(&self) -> [u32; 3];
    /// Sets the rank and why the row is below the one above.
    fn place(&mut self, rank: usize, tiebreak: Option<TieBreak>);
}

/// Sorts `rows` best first (equal rows by name) and ranks them: each row's tie-break is the
/// first of `rules` (one a key) on which it differs from the row above, else a shared rank.
pub(super) fn rank<R: Ranked>(rows: &mut [R], rules: [TieBreak; 3]) {
    rows.sort_by(|a, b| b.keys().cmp(&a.keys()).then_with(|| a.name().cmp(b.name())));
    // The keys and the rank of the row above.
    let mut above: Option<([u32; 3], usize)> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        let keys = row.keys();
        let (rank, why) = match above {
            None => (1, None),
            Some((previous, rank)) => match (0..3).find(|&k| previous[k] != keys[k]) {
                Some(k) => (i + 1, Some(rules[k])),
                None => (rank, Some(TieBreak::Shared)),
            },
        };
        row.place(rank, why);
        above = Some((keys, rank));
    }
}
