//! The knockout of an Event with more than three players: who eliminated whom, points
//! (opponents eliminated), the champion and the final ranking.

use super::order::SortKey;
use super::{
    GameRef, Knockout, MatchReport, MatchStatus, PlayerTotals, RankedPlayer, Warning, WarningKind,
};
use std::collections::BTreeMap;

#[derive(Default)]
struct Entry {
    eliminated: Vec<String>,
    /// Who eliminated the player, and the game that decided it.
    eliminated_by: Option<(String, GameRef)>,
    goals: u32,
}

/// The knockout of `matches` (in match order, with the key of each match's first game).
pub(crate) fn knockout(
    matches: &[(SortKey, MatchReport)],
    players: &[PlayerTotals],
) -> (Knockout, Vec<(SortKey, Warning)>) {
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
    let mut warnings = Vec::new();
    for (key, m) in matches {
        for name in &m.players {
            if let Some((by, decided_at)) = entries
                .get(name.as_str())
                .and_then(|e| e.eliminated_by.as_ref())
            {
                let first = m.games.first().map(|g| g.at.clone());
                warnings.push((
                    key.clone(),
                    Warning {
                        kind: WarningKind::PlayedAfterElimination,
                        message: format!(
                            "{name} plays {} – {} although {by} eliminated them ({decided_at})",
                            m.players[0], m.players[1]
                        ),
                        games: std::iter::once(decided_at.clone()).chain(first).collect(),
                    },
                ));
            }
        }
        if let (Some(winner), Some(loser)) = (&m.winner, &m.loser) {
            let decided_at = m
                .decided_after
                .and_then(|n| m.games.get(n - 1))
                .map(|g| g.at.clone());
            if let Some(e) = entries.get_mut(winner.as_str()) {
                e.eliminated.push(loser.clone());
            }
            if let (Some(e), Some(at)) = (entries.get_mut(loser.as_str()), decided_at) {
                e.eliminated_by.get_or_insert((winner.clone(), at));
            }
        }
    }

    let all_decided = matches
        .iter()
        .all(|(_, m)| m.status == MatchStatus::Decided);
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
            eliminated_by: e.eliminated_by.map(|(by, _)| by),
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
    (Knockout { champion, ranking }, warnings)
}
