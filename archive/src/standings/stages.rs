//! The group stage and the knock-out tree of an Event, from its matches: which groups (each
//! player found by one hash probe), the football table of each, and the tree of the matches
//! outside the groups.

use super::archive::Archive;
use super::bracket::bracket;
use super::event_matches::EventMatches;
use super::groups::player_key;
use super::matches::Note;
use super::table::{group_table, Played};
use super::{Bracket, BracketMatch, Format, GroupTable, MatchLaw, StandingsOptions};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Qualifiers a group of an Event of `format` sends to the knock-out (none without one).
pub(super) fn qualifiers(format: Format, options: &StandingsOptions) -> u32 {
    match format {
        Format::GroupsKnockout => options.qualifiers,
        _ => 0,
    }
}

/// The groups of one Event as its tables use them.
pub(super) struct EventGroups {
    /// Each group's name and its players' names, in order: the games' spelling when a game
    /// of the Event has the player, else the groups file's.
    pub(super) groups: Vec<(String, Vec<String>)>,
    /// Each player's group and place in it, by name id.
    places: HashMap<u32, (u32, u32)>,
}

impl EventGroups {
    /// The group and place of the player `id`.
    pub(super) fn place_of(&self, id: u32) -> Option<(u32, u32)> {
        self.places.get(&id).copied()
    }

    /// The group of the player `id`.
    pub(super) fn group_of(&self, id: u32) -> Option<u32> {
        self.place_of(id).map(|(group, _)| group)
    }

    /// Adds the player `id` (shown as `name`) at the end of group `group`.
    fn push(&mut self, group: usize, id: Option<u32>, name: &str) {
        let members = &mut self.groups[group].1;
        if let Some(id) = id {
            self.places.insert(id, (group as u32, members.len() as u32));
        }
        members.push(name.to_string());
    }
}

/// The groups of the Event `event` (a name id), whose games are `games`: the given ones
/// (`--groups`), else its tags', else one group `all` of every player (by name). The given
/// groups are matched to the Event's players ignoring case; a name of the file that no game
/// of the Event has, and a player of the Event in no group, each get a note.
pub(super) fn event_groups(
    archive: &Archive,
    event: u32,
    games: &[u32],
    notes: &mut Vec<Note>,
) -> EventGroups {
    let mut out = EventGroups {
        groups: Vec::new(),
        places: HashMap::new(),
    };
    // Each player of the Event once, with the first game they play (input order).
    let mut players: Vec<(u32, u32)> = Vec::new();
    let mut seen: HashSet<u32> = HashSet::new();
    for &i in games {
        let r = &archive.records[i as usize];
        for id in [r.white, r.black] {
            if seen.insert(id) {
                players.push((id, i));
            }
        }
    }
    if let Some(given) = &archive.given_groups {
        // The file's groups in its order; each member found among the Event's players.
        let mut by_key: HashMap<String, u32> = HashMap::with_capacity(players.len());
        for &(id, _) in &players {
            by_key.entry(player_key(archive.name(id))).or_insert(id);
        }
        for (g, (name, members)) in given.iter().enumerate() {
            out.groups
                .push((name.to_string(), Vec::with_capacity(members.len())));
            for (place, member) in members.iter().enumerate() {
                match by_key.get(&player_key(member)) {
                    Some(&id) => out.push(g, Some(id), archive.name(id)),
                    None => {
                        notes.push(Note::UnknownGroupPlayer {
                            group: g as u32,
                            place: place as u32,
                        });
                        out.push(g, None, member);
                    }
                }
            }
        }
        // Players whose names differ from a member's only in case are that member too.
        for &(id, game) in &players {
            if out.place_of(id).is_some() {
                continue;
            }
            match given.place_of(archive.name(id)) {
                Some((g, p)) => {
                    out.places.insert(id, (g as u32, p as u32));
                }
                None => notes.push(Note::UngroupedPlayer { player: id, game }),
            }
        }
        return out;
    }
    let tagged = archive.tag_groups_of(event);
    if !tagged.is_empty() {
        for (g, (group, members)) in tagged.into_iter().enumerate() {
            out.groups.push((
                archive.name(group).to_string(),
                Vec::with_capacity(members.len()),
            ));
            for id in members {
                out.push(g, Some(id), archive.name(id));
            }
        }
        return out;
    }
    // No groups: one of every player, by name.
    let by_name: BTreeMap<&str, u32> = players
        .iter()
        .map(|&(id, _)| (archive.name(id), id))
        .collect();
    out.groups
        .push(("all".to_string(), Vec::with_capacity(by_name.len())));
    for (name, id) in by_name {
        out.push(0, Some(id), name);
    }
    out
}

/// The football table of every group, from its finished group matches.
pub(super) fn group_tables(
    matches: &EventMatches,
    groups: &EventGroups,
    format: Format,
    options: &StandingsOptions,
) -> Vec<GroupTable> {
    let mut played: Vec<Vec<Played>> = vec![Vec::new(); groups.groups.len()];
    for n in 0..matches.len() {
        if matches.laws[n] != MatchLaw::TwoGames {
            continue;
        }
        let m = matches.summary(n, None);
        if !m.finished() {
            continue;
        }
        let (Some((g, a)), Some((h, b))) =
            (groups.place_of(m.players[0]), groups.place_of(m.players[1]))
        else {
            continue;
        };
        if g == h {
            played[g as usize].push(Played {
                players: [a as usize, b as usize],
                goals: m.goals,
                winner: m.winner,
            });
        }
    }
    groups
        .groups
        .iter()
        .zip(&played)
        .map(|((name, members), played)| {
            group_table(
                name,
                members,
                played,
                &options.points,
                qualifiers(format, options) as usize,
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
