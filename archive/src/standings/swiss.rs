//! A Swiss event's results: every game is a pairing of a round; a win is 1 point, a draw ½;
//! ranked by points, then Buchholz (the sum of the points of the opponent of every game),
//! then Buchholz cut-1 (without the lowest of those), then a shared rank listed by name.
//! No pairings are made. Two passes over the Event's records: no list of games is kept.

use super::archive::Archive;
use super::scored::{rank, scored, tallies, Ranked};
use super::{HalfPoints, SwissRow, TieBreak, SWISS_TIEBREAKS};
use std::collections::HashMap;

impl Ranked for SwissRow {
    fn name(&self) -> &str {
        &self.name
    }

    fn keys(&self) -> [u32; 3] {
        [self.points.0, self.buchholz.0, self.buchholz_cut1.0]
    }

    fn place(&mut self, rank: usize, tiebreak: Option<TieBreak>) {
        self.rank = rank;
        self.tiebreak = tiebreak;
    }
}

/// The Swiss ranking of the games `games` (record numbers, each with two players).
pub(crate) fn swiss(archive: &Archive, games: &[u32]) -> Vec<SwissRow> {
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
    let mut rows: Vec<SwissRow> = tallies
        .iter()
        .map(|(id, t)| {
            let (sum, lowest) = buchholz.get(id).copied().unwrap_or_default();
            SwissRow {
                rank: 0,
                name: archive.name(*id).to_string(),
                games: t.games,
                won: t.won,
                drawn: t.drawn,
                lost: t.lost,
                points: HalfPoints(t.halves),
                buchholz: HalfPoints(sum),
                buchholz_cut1: HalfPoints(sum - lowest.unwrap_or(0)),
                tiebreak: None,
            }
        })
        .collect();
    rank(&mut rows, SWISS_TIEBREAKS);
    rows
}
