//! The group stage and the knock-out tree of an Event, from its matches: which groups, the
//! football table of each, and the tree of the matches outside the groups.

use super::archive::Archive;
use super::bracket::bracket;
use super::table::{group_table, Played};
use super::view::EventMatches;
use super::{Bracket, BracketMatch, Format, GroupTable, Groups, MatchLaw, StandingsOptions};

/// Qualifiers a group sends to the knock-out (none without one).
pub(super) fn qualifiers(options: &StandingsOptions) -> u32 {
    match options.format {
        Format::GroupsKnockout => options.qualifiers,
        _ => 0,
    }
}

/// The groups of an Event: given, or from its tags, else one group `all` of every player of
/// `games` (by name).
pub(super) fn event_groups(archive: &Archive, event: u32, games: &[u32]) -> Groups {
    archive.groups_of(event).unwrap_or_else(|| {
        // Each name once (not a name a game): the set grows with the players.
        let names: std::collections::BTreeSet<&str> = games
            .iter()
            .flat_map(|&i| {
                let r = &archive.records[i as usize];
                [archive.name(r.white), archive.name(r.black)]
            })
            .collect();
        let mut groups = Groups::new();
        for name in names {
            groups.add("all", name);
        }
        groups
    })
}

/// The football table of every group, from its finished group matches.
pub(super) fn group_tables(
    matches: &EventMatches,
    groups: &Groups,
    options: &StandingsOptions,
) -> Vec<GroupTable> {
    let mut played: Vec<Vec<Played>> = vec![Vec::new(); groups.len()];
    let members: Vec<(&str, &[String])> = groups.iter().collect();
    for n in 0..matches.len() {
        if matches.laws[n] != MatchLaw::TwoGames {
            continue;
        }
        let m = matches.summary(n, None);
        if !m.finished() {
            continue;
        }
        let names = m.players.map(|p| matches.archive.name(p));
        let Some(g) = groups.index_of(names[0]) else {
            continue;
        };
        let at = |name: &str| members[g].1.iter().position(|p| p == name);
        if let (Some(a), Some(b)) = (at(names[0]), at(names[1])) {
            played[g].push(Played {
                players: [a, b],
                goals: m.goals,
                winner: m.winner,
            });
        }
    }
    members
        .iter()
        .zip(&played)
        .map(|((name, members), played)| {
            group_table(
                name,
                members,
                played,
                &options.points,
                qualifiers(options) as usize,
            )
        })
        .collect()
}

/// The knock-out tree: every match that is not a group match.
pub(super) fn knockout_tree(matches: &EventMatches) -> Bracket {
    let name = |id: u32| matches.archive.name(id).to_string();
    bracket(
        (0..matches.len())
            .filter(|&n| matches.laws[n] != MatchLaw::TwoGames)
            .map(|n| {
                let m = matches.summary(n, None);
                BracketMatch {
                    number: n + 1,
                    players: m.players.map(name),
                    score: m.score,
                    goals: m.goals,
                    winner: m.winner.map(|w| name(m.players[w])),
                    decided_after: m.decided_after,
                }
            })
            .collect(),
    )
}
