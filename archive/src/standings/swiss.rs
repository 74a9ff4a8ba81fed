//! A Swiss event's results: every game is a pairing of a round; a win is 1 point, a draw ½;
//! ranked by points, then Buchholz (the sum of the points of the opponent of every game),
//! then Buchholz cut-1 (without the lowest of those), then a shared rank listed by name.
//! No pairings are made. Two passes over the Event's records: no list of games is kept.

use super::archive::Archive;
use super::scored::{rank, rows, scored, tallies};
use super::{HalfPoints, ScoreRow, SWISS_TIEBREAKS};
use std::collections::HashMap;

/// The Swiss ranking of the games `games` (record numbers, each with two players).
pub(crate) fn swiss(archive: &Archive, games: &[u32]) -> Vec<ScoreRow> {
    let tallies = tallies(archive, games);
    // Each player's Buchholz and lowest opponent score, in half points.
    let mut buchholz: HashMap<u32, (u32, Option<u32>)> = HashMap::new();
    for s in games.iter().filter_map(|&i| scored(archive, i)) {
        for side in 0..2 {
            let theirs = tallies[&s.players[1 - side]].halves;
            let b = buchholz.entry(s.players[side]).or_default();
            b.0 += theirs;
            b.1 = Some(b.1.map_or(theirs, |l| l.min(theirs)));
        }
    }
    let mut rows: Vec<ScoreRow> = rows(archive, &tallies)
        .into_iter()
        .map(|(id, mut row)| {
            let (sum, lowest) = buchholz.get(&id).copied().unwrap_or_default();
            row.buchholz = Some(HalfPoints(sum));
            row.buchholz_cut1 = Some(HalfPoints(sum - lowest.unwrap_or(0)));
            row
        })
        .collect();
    let half = |h: Option<HalfPoints>| h.map_or(0, |h| h.0);
    rank(&mut rows, SWISS_TIEBREAKS, |r| {
        [r.points.0, half(r.buchholz), half(r.buchholz_cut1)]
    });
    rows
}
