//! A Swiss event's results: every game is a pairing of a round; a win is 1 point, a draw ½;
//! ranked by points, then Buchholz (the sum of the points of the opponent of every game),
//! then Buchholz cut-1 (without the lowest of those), then a shared rank listed by name.
//! No pairings are made. Two passes over the Event's records: no list of games is kept.

use super::archive::Archive;
use super::{GameOutcome, HalfPoints, SwissRow, TieBreak};
use std::cmp::Reverse;
use std::collections::HashMap;

#[derive(Default)]
struct Entry {
    row: Option<SwissRow>,
    /// The lowest opponent score met, in half points.
    lowest: Option<u32>,
}

/// The Swiss ranking of the games `games` (record numbers, each with two players).
pub(crate) fn swiss(archive: &Archive, games: &[u32]) -> Vec<SwissRow> {
    let mut entries: HashMap<u32, Entry> = HashMap::new();
    let scored = |i: u32| {
        let g = &archive.records[i as usize];
        let halves = match g.result {
            GameOutcome::WhiteWin => [2, 0],
            GameOutcome::BlackWin => [0, 2],
            GameOutcome::Draw => [1, 1],
            GameOutcome::NoWinner => [0, 0],
            GameOutcome::Unfinished => return None,
        };
        Some(([g.white, g.black], halves, g.result))
    };
    for &i in games {
        let Some((players, halves, result)) = scored(i) else {
            continue;
        };
        for side in 0..2 {
            let e = entries.entry(players[side]).or_default();
            let r = e.row.get_or_insert_with(|| SwissRow {
                rank: 0,
                name: archive.name(players[side]).to_string(),
                games: 0,
                won: 0,
                drawn: 0,
                lost: 0,
                points: HalfPoints(0),
                buchholz: HalfPoints(0),
                buchholz_cut1: HalfPoints(0),
                tiebreak: None,
            });
            r.games += 1;
            r.points.0 += halves[side];
            match (result, halves[side]) {
                (GameOutcome::Draw, _) => r.drawn += 1,
                (_, 2) => r.won += 1,
                _ => r.lost += 1,
            }
        }
    }
    let points: HashMap<u32, u32> = entries
        .iter()
        .map(|(id, e)| (*id, e.row.as_ref().map_or(0, |r| r.points.0)))
        .collect();
    for &i in games {
        let Some((players, _, _)) = scored(i) else {
            continue;
        };
        for side in 0..2 {
            let theirs = points[&players[1 - side]];
            if let Some(e) = entries.get_mut(&players[side]) {
                if let Some(r) = e.row.as_mut() {
                    r.buchholz.0 += theirs;
                }
                e.lowest = Some(e.lowest.map_or(theirs, |l| l.min(theirs)));
            }
        }
    }
    let mut rows: Vec<SwissRow> = entries
        .into_values()
        .filter_map(|e| {
            let mut r = e.row?;
            r.buchholz_cut1 = HalfPoints(r.buchholz.0 - e.lowest.unwrap_or(0));
            Some(r)
        })
        .collect();
    let key = |r: &SwissRow| {
        (
            Reverse(r.points),
            Reverse(r.buchholz),
            Reverse(r.buchholz_cut1),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then(a.name.cmp(&b.name)));
    for i in 0..rows.len() {
        rows[i].rank = i + 1;
        if i > 0 {
            let (above, this) = (&rows[i - 1], &rows[i]);
            let why = if above.points != this.points {
                TieBreak::Points
            } else if above.buchholz != this.buchholz {
                TieBreak::Buchholz
            } else if above.buchholz_cut1 != this.buchholz_cut1 {
                TieBreak::BuchholzCut1
            } else {
                TieBreak::Shared
            };
            if why == TieBreak::Shared {
                rows[i].rank = rows[i - 1].rank;
            }
            rows[i].tiebreak = Some(why);
        }
    }
    rows
}
