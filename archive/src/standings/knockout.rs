//! The knockout of an Event with more than three players: who eliminated whom, points
//! (opponents eliminated), the champion and the final ranking.

use super::archive::Archive;
use super::matches::{MatchSummary, Note};
use super::{Knockout, PlayerTotals, RankedPlayer};
use std::collections::BTreeMap;

#[derive(Default)]
struct Entry {
    eliminated: Vec<String>,
    /// Who eliminated the player (a name id), and the game that decided it.
    eliminated_by: Option<(u32, u32)>,
    goals: u32,
}

/// The knockout of `matches` (in match order); its warnings go to `notes`.
pub(crate) fn knockout<'a>(
    archive: &Archive,
    matches: impl Iterator<Item = MatchSummary<'a>>,
    players: &[PlayerTotals],
    notes: &mut Vec<Note>,
) -> Knockout {
    let mut entries: BTreeMap<&str, Entry> = players
        .iter()
        .map(|p| {
            (
                p.name.as_str(),
                Entry {
                    goals: p.goals,
                    ..Entry::default()
                },
            )
        })
        .collect();
    let mut all_decided = true;
    for (n, m) in matches.enumerate() {
        all_decided &= m.winner.is_some();
        let first = m.games.first().copied();
        for (side, &player) in m.players.iter().enumerate() {
            if let (Some((by, decided_at)), Some(first)) = (
                entries
                    .get(archive.name(player))
                    .and_then(|e| e.eliminated_by),
                first,
            ) {
                notes.push(Note::PlayedAfterElimination {
                    in_match: n as u32,
                    first,
                    side: side as u8,
                    player,
                    by,
                    decided_at,
                });
            }
        }
        if let Some(w) = m.winner {
            let (winner, loser) = (m.players[w], m.players[1 - w]);
            let decided_at = m.decided_after.and_then(|n| m.games.get(n - 1)).copied();
            if let Some(e) = entries.get_mut(archive.name(winner)) {
                e.eliminated.push(archive.name(loser).to_string());
            }
            if let (Some(e), Some(at)) = (entries.get_mut(archive.name(loser)), decided_at) {
                e.eliminated_by.get_or_insert((winner, at));
            }
        }
    }

    let still_in: Vec<&str> = entries
        .iter()
        .filter(|(_, e)| e.eliminated_by.is_none())
        .map(|(n, _)| *n)
        .collect();
    let champion = match (all_decided, still_in.as_slice()) {
        (true, [one]) => Some(one.to_string()),
        _ => None,
    };

    let mut ranking: Vec<RankedPlayer> = entries
        .into_iter()
        .map(|(name, e)| RankedPlayer {
            rank: 0,
            name: name.to_string(),
            points: e.eliminated.len() as u32,
            eliminated: e.eliminated,
            eliminated_by: e.eliminated_by.map(|(by, _)| archive.name(by).to_string()),
            goals: e.goals,
        })
        .collect();
    // Points, then still in, then goals; the name only orders equal players.
    let strength = |p: &RankedPlayer| {
        (
            std::cmp::Reverse(p.points),
            p.eliminated_by.is_some(),
            std::cmp::Reverse(p.goals),
        )
    };
    ranking.sort_by(|a, b| strength(a).cmp(&strength(b)).then(a.name.cmp(&b.name)));
    for i in 0..ranking.len() {
        ranking[i].rank = if i > 0 && strength(&ranking[i]) == strength(&ranking[i - 1]) {
            ranking[i - 1].rank
        } else {
            i + 1
        };
    }
    Knockout { champion, ranking }
}
