//! Games scored one by one, a win 1 point and a draw ½ (a `0-0` lost by both, an unfinished
//! game not counted): the tally both the Swiss ranking ([`super::swiss`]) and the round-robin
//! table ([`super::round_robin`]) start from, and the ranking both end with.

use super::archive::Archive;
use super::{GameOutcome, HalfPoints, ScoreRow, TieBreak};
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

/// Every player's row (by name id) from their tally, its tie-breaks to fill.
pub(super) fn rows(archive: &Archive, tallies: &HashMap<u32, Tally>) -> Vec<(u32, ScoreRow)> {
    tallies
        .iter()
        .map(|(&id, t)| {
            let row = ScoreRow {
                rank: 0,
                name: archive.name(id).to_string(),
                games: t.games,
                won: t.won,
                drawn: t.drawn,
                lost: t.lost,
                points: HalfPoints(t.halves),
                buchholz: None,
                buchholz_cut1: None,
                sonneborn_berger: None,
                tiebreak: None,
            };
            (id, row)
        })
        .collect()
}

/// Sorts `rows` best first by `keys` (points, then the two tie-breaks; larger is better;
/// equal rows by name) and ranks them: each row's tie-break is the first of `rules` (one a
/// key) on which it differs from the row above, else a shared rank.
pub(super) fn rank(
    rows: &mut [ScoreRow],
    rules: [TieBreak; 3],
    keys: impl Fn(&ScoreRow) -> [u32; 3],
) {
    rows.sort_by(|a, b| keys(b).cmp(&keys(a)).then_with(|| a.name.cmp(&b.name)));
    // The keys and the rank of the row above.
    let mut above: Option<([u32; 3], usize)> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        let keys = keys(row);
        let (rank, why) = match above {
            None => (1, None),
            Some((previous, rank)) => match (0..3).find(|&k| previous[k] != keys[k]) {
                Some(k) => (i + 1, Some(rules[k])),
                None => (rank, Some(TieBreak::Shared)),
            },
        };
        row.rank = rank;
        row.tiebreak = why;
        above = Some((keys, rank));
    }
}
