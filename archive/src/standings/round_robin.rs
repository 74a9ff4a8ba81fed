//! A round robin's table: every game scored (a win 1 point, a draw ½), ranked by points,
//! then Sonneborn-Berger (the points of every opponent beaten, and half those of every
//! opponent drawn with), then games won, then a shared rank listed by name. Two passes over
//! the Event's records.

use super::archive::Archive;
use super::scored::{rank, scored, tallies, Ranked};
use super::{HalfPoints, QuarterPoints, RoundRobinRow, TieBreak, ROUND_ROBIN_TIEBREAKS};
use std::collections::HashMap;

impl Ranked for RoundRobinRow {
    fn name(&self) -> &str {
        &self.name
    }

    fn keys(&self) -> [u32; 3] {
        [self.points.0, self.sonneborn_berger.0, self.won]
    }

    fn place(&mut self, rank: usize, tiebreak: Option<TieBreak>) {
        self.rank = rank;
        self.tiebreak = tiebreak;
    }
}

/// The round-robin table of the games `games` (record numbers, each with two players).
pub(crate) fn round_robin(archive: &Archive, games: &[u32]) -> Vec<RoundRobinRow> {
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
    let mut rows: Vec<RoundRobinRow> = tallies
        .iter()
        .map(|(id, t)| RoundRobinRow {
            rank: 0,
            name: archive.name(*id).to_string(),
            games: t.games,
            won: t.won,
            drawn: t.drawn,
            lost: t.lost,
            points: HalfPoints(t.halves),
            sonneborn_berger: QuarterPoints(berger.get(id).copied().unwrap_or(0)),
            tiebreak: None,
        })
        .collect();
    rank(&mut rows, ROUND_ROBIN_TIEBREAKS);
    rows
}
