//! A round robin's table: every game scored (a win 1 point, a draw ½), ranked by points,
//! then Sonneborn-Berger (the points of every opponent beaten, and half those of every
//! opponent drawn with), then games won, then a shared rank listed by name. Two passes over
//! the Event's records.

use super::archive::Archive;
use super::scored::{rank, rows, scored, tallies};
use super::{QuarterPoints, ScoreRow, ROUND_ROBIN_TIEBREAKS};
use std::collections::HashMap;

/// The round-robin table of the games `games` (record numbers, each with two players).
pub(crate) fn round_robin(archive: &Archive, games: &[u32]) -> Vec<ScoreRow> {
    let tallies = tallies(archive, games);
    // Sonneborn-Berger in quarter points: a win adds the opponent's points (halves × 2), a
    // draw half of them (halves × 1).
    let mut berger: HashMap<u32, u32> = HashMap::new();
    for s in games.iter().filter_map(|&i| scored(archive, i)) {
        for side in 0..2 {
            let theirs = tallies[&s.players[1 - side]].halves;
            *berger.entry(s.players[side]).or_default() += s.halves[side] * theirs;
        }
    }
    let mut rows: Vec<ScoreRow> = rows(archive, &tallies)
        .into_iter()
        .map(|(id, mut row)| {
            row.sonneborn_berger = Some(QuarterPoints(berger.get(&id).copied().unwrap_or(0)));
            row
        })
        .collect();
    rank(&mut rows, ROUND_ROBIN_TIEBREAKS, |r| {
        [r.points.0, r.sonneborn_berger.map_or(0, |q| q.0), r.won]
    });
    rows
}
