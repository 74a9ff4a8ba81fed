//! One Event's standings, computed from the compact records and read out a piece at a time.
//! Kept: the Event's game numbers grouped by match (4 bytes a game), where each match
//! starts and ends (8 bytes a match), the players' totals and knockout, and the warnings
//! as compact notes (24 bytes each). A match is played again from its records whenever its
//! summary or its games are asked for; the warnings are put in words one by one.

use super::archive::{Archive, NONE};
use super::knockout::knockout;
use super::matches::{play_match, MatchPlay, MatchSummary, Note};
use super::stages::{event_groups, group_tables, knockout_tree, qualifiers};
use super::swiss::swiss;
use super::words::kind;
use super::{
    Bracket, EventFormat, EventStandings, Format, GroupTable, Knockout, MatchGame, MatchLaw,
    MatchReport, PlayerTotals, StandingsOptions, SwissRow, TableRules, Tiebreak, Warning,
    GROUP_TIEBREAKS,
};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::collections::{BTreeMap, HashMap};

/// The matches of an Event: its games grouped by match, each match in match order, and
/// the matches in order of their first game.
pub(super) struct EventMatches<'a> {
    pub(super) archive: &'a Archive,
    options: &'a StandingsOptions,
    games: Vec<u32>,
    /// Each match's games as `games[start..end]`.
    ranges: Vec<(u32, u32)>,
    /// Each match's law.
    pub(super) laws: Vec<MatchLaw>,
}

impl<'a> EventMatches<'a> {
    /// Groups `games` (record numbers; each with two different players) into matches.
    fn new(
        archive: &'a Archive,
        options: &'a StandingsOptions,
        mut games: Vec<u32>,
        law: impl Fn([u32; 2], bool) -> MatchLaw,
    ) -> Self {
        // In the group formats a knock-out game (by its Stage tag) is of another match than
        // a group game of the same two players.
        let stages = matches!(options.format, Format::Groups | Format::GroupsKnockout);
        let pair = |i: u32| {
            let r = &archive.records[i as usize];
            (
                r.white.min(r.black),
                r.white.max(r.black),
                stages && r.knockout_stage(),
            )
        };
        // By pair, then match order: each match is a run (sort keys are unique).
        games.sort_unstable_by_key(|&i| (pair(i), archive.sort_key(i)));
        let mut ranges = Vec::new();
        let mut start = 0;
        for end in 1..=games.len() {
            if end == games.len() || pair(games[end]) != pair(games[start]) {
                ranges.push((start as u32, end as u32));
                start = end;
            }
        }
        ranges.sort_unstable_by_key(|&(start, _)| archive.sort_key(games[start as usize]));
        let laws = ranges
            .iter()
            .map(|&(start, _)| {
                let r = &archive.records[games[start as usize] as usize];
                law([r.white, r.black], r.knockout_stage())
            })
            .collect();
        EventMatches {
            archive,
            options,
            games,
            ranges,
            laws,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The games of match `n`, in match order.
    fn games(&self, n: usize) -> &[u32] {
        let (start, end) = self.ranges[n];
        &self.games[start as usize..end as usize]
    }

    /// Match `n` played out; its warnings go to `notes` when given.
    pub(super) fn summary(&self, n: usize, notes: Option<&mut Vec<Note>>) -> MatchSummary<'_> {
        play_match(
            self.archive,
            self.options,
            n as u32,
            self.games(n),
            self.laws[n],
            notes,
        )
    }

    /// The name ids of the players of match `n`: White, then Black of its first game.
    pub(super) fn players(&self, n: usize) -> [u32; 2] {
        let r = &self.archive.records[self.games(n)[0] as usize];
        [r.white, r.black]
    }
}

/// The standings of one Event, as [`Archive::events`] gives them. Serialised (with serde) it
/// is exactly its [`EventStandings`], written as it goes.
pub struct EventView<'a> {
    pub(super) archive: &'a Archive,
    options: &'a StandingsOptions,
    /// The `Event` tag; empty when the games have none.
    pub event: String,
    /// Knockout (more than three players) or just matches.
    pub format: EventFormat,
    pub(super) matches: EventMatches<'a>,
    /// Every player of the Event, by name.
    pub players: Vec<PlayerTotals>,
    /// The knockout (only for [`EventFormat::Knockout`]).
    pub knockout: Option<Knockout>,
    /// The warnings, compactly, in game order.
    notes: Vec<Note>,
    /// How the group tables are scored (group formats only).
    pub table_rules: Option<TableRules>,
    /// The group tables (group formats only).
    pub groups: Option<Vec<GroupTable>>,
    /// The knock-out tree after the groups (`groups+knockout` only).
    pub bracket: Option<Bracket>,
    /// The Swiss ranking (`swiss` only).
    pub swiss: Option<Vec<SwissRow>>,
}

impl Archive {
    /// The standings of the archive's Events, in order of first appearance, each computed
    /// when it is asked for: a caller that writes each Event and lets it go holds one
    /// Event's summaries at a time.
    pub fn events<'a>(
        &'a self,
        options: &'a StandingsOptions,
    ) -> impl Iterator<Item = EventView<'a>> + 'a {
        // Each Event's list of games, allocated at its exact size (a pass to count first).
        let mut slot: HashMap<u32, usize> = HashMap::new();
        let mut events: Vec<(u32, usize)> = Vec::new();
        for r in self.records.iter() {
            let at = *slot.entry(r.event).or_insert_with(|| {
                events.push((r.event, 0));
                events.len() - 1
            });
            events[at].1 += 1;
        }
        let mut lists: Vec<Vec<u32>> = events
            .iter()
            .map(|&(_, count)| Vec::with_capacity(count))
            .collect();
        for (i, r) in self.records.iter().enumerate() {
            lists[slot[&r.event]].push(i as u32);
        }
        events
            .into_iter()
            .zip(lists)
            .map(move |((event, _), games)| EventView::compute(self, options, event, games))
    }
}

impl<'a> EventView<'a> {
    /// The standings of the Event `event` (a name id), whose games are `games` (record
    /// numbers, in input order).
    fn compute(
        archive: &'a Archive,
        options: &'a StandingsOptions,
        event: u32,
        games: Vec<u32>,
    ) -> EventView<'a> {
        let mut notes: Vec<Note> = Vec::new();
        let mut games = games;
        games.retain(|&i| {
            let g = &archive.records[i as usize];
            if g.result_warning() {
                notes.push(Note::ResultMismatch { game: i });
            }
            match (g.white, g.black) {
                (w, b) if w != NONE && b != NONE && w != b => true,
                (w, b) if w != NONE && b != NONE => {
                    notes.push(Note::PlaysBothSides { game: i });
                    false
                }
                _ => {
                    notes.push(Note::NoPlayerName { game: i });
                    false
                }
            }
        });
        let grouped = matches!(options.format, Format::Groups | Format::GroupsKnockout);
        let groups = grouped.then(|| event_groups(archive, event, &games));
        if grouped && archive.given_groups.is_none() {
            for &(index, player, group, first) in &archive.group_conflicts {
                if archive.records[index as usize].event == event {
                    notes.push(Note::GroupConflict {
                        game: index,
                        player,
                        group,
                        first,
                    });
                }
            }
        }
        let knockout_law = match options.tiebreak {
            Tiebreak::Limboti => MatchLaw::Limboti,
            Tiebreak::Tege => MatchLaw::Tege,
        };
        let swiss_games = (options.format == Format::Swiss).then(|| std::mem::take(&mut games));
        let matches = EventMatches::new(archive, options, games, |[a, b], knockout_stage| {
            let group = |p: u32| groups.as_ref().and_then(|g| g.index_of(archive.name(p)));
            match (group(a), group(b)) {
                (Some(x), Some(y)) if x == y && !knockout_stage => MatchLaw::TwoGames,
                _ => knockout_law,
            }
        });
        let mut totals: BTreeMap<&str, PlayerTotals> = BTreeMap::new();
        for n in 0..matches.len() {
            add_totals(archive, &mut totals, &matches.summary(n, Some(&mut notes)));
        }
        let players: Vec<PlayerTotals> = totals.into_values().collect();
        let format = match options.format {
            Format::Groups => EventFormat::Groups,
            Format::GroupsKnockout => EventFormat::GroupsKnockout,
            Format::Swiss => EventFormat::Swiss,
            Format::Matches if players.len() > 3 => EventFormat::Knockout,
            Format::Matches => EventFormat::Matches,
        };
        let knockout = match format {
            EventFormat::Knockout => Some(knockout(
                archive,
                (0..matches.len()).map(|n| matches.summary(n, None)),
                &players,
                &mut notes,
            )),
            _ => None,
        };
        let tables = groups.as_ref().map(|g| group_tables(&matches, g, options));
        let bracket = (format == EventFormat::GroupsKnockout).then(|| knockout_tree(&matches));
        let swiss = swiss_games.map(|games| swiss(archive, &games));
        let table_rules = grouped.then(|| TableRules {
            points: options.points,
            tiebreaks: GROUP_TIEBREAKS.to_vec(),
            qualifiers: qualifiers(options),
        });
        // In place: no second copy of an Event's warnings, however many.
        notes.sort_unstable_by_key(|n| {
            let (game, then) = n.order();
            (archive.sort_key(game), then)
        });
        EventView {
            archive,
            options,
            event: archive.name(event).to_string(),
            format,
            matches,
            players,
            knockout,
            notes,
            table_rules,
            groups: tables,
            bracket,
            swiss,
        }
    }

    /// How many matches.
    pub fn match_count(&self) -> usize {
        self.matches.len()
    }

    /// Match `n` (in order of first game) without its games.
    pub fn match_header(&self, n: usize) -> MatchReport {
        let m = self.matches.summary(n, None);
        let name = |id: u32| self.archive.name(id).to_string();
        MatchReport {
            players: m.players.map(name),
            score: m.score,
            draws: m.draws,
            unfinished: m.unfinished,
            goals: m.goals,
            status: m.status(),
            winner: m.winner.map(|w| name(m.players[w])),
            loser: m.winner.map(|w| name(m.players[1 - w])),
            decided_after: m.decided_after,
            limboti: m.limboti,
            undecided_reason: m.undecided_reason(),
            law: m.law,
            games: Vec::new(),
        }
    }

    /// The games of match `n`, in match order, each built when it is asked for.
    pub fn match_games(&self, n: usize) -> impl Iterator<Item = MatchGame> + '_ {
        let games = self.matches.games(n);
        let players = self.matches.players(n);
        let law = self.matches.laws[n];
        let mut play = MatchPlay::new(self.archive, self.options, n as u32, games, law);
        games.iter().map(move |&index| {
            let step = play.step(index, None);
            let g = &self.archive.records[index as usize];
            let name = |side: usize| self.archive.name(players[side]).to_string();
            MatchGame {
                at: self.archive.at(index),
                number: step.number,
                white: self.archive.name(g.white).to_string(),
                black: self.archive.name(g.black).to_string(),
                result: g.result.as_str().to_string(),
                winner: step.winner.map(name),
                first_mover: g.first_mover.map(Into::into),
                started_by: step.starter.map(name),
                king_appeared: g.king_appeared,
                supa: step.supa,
                goals: step.goals,
                counted: step.counted,
                stage: if law.is_limboti() {
                    None
                } else {
                    law.stage(step.number)
                },
            }
        })
    }

    /// How many warnings.
    pub fn warning_count(&self) -> usize {
        self.notes.len()
    }

    /// How many warnings are violations (see [`WarningKind::is_violation`](super::WarningKind::is_violation)).
    pub fn violation_count(&self) -> usize {
        self.notes.iter().filter(|n| kind(n).is_violation()).count()
    }

    /// The warnings, in game order, each written when it is asked for.
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.notes.iter().map(|n| self.warning(n))
    }

    /// The whole report of the Event, every game and warning in memory.
    pub fn to_standings(&self) -> EventStandings {
        EventStandings {
            event: self.event.clone(),
            format: self.format,
            matches: (0..self.matches.len())
                .map(|n| MatchReport {
                    games: self.match_games(n).collect(),
                    ..self.match_header(n)
                })
                .collect(),
            players: self.players.clone(),
            knockout: self.knockout.clone(),
            warnings: self.warnings().collect(),
            table_rules: self.table_rules.clone(),
            groups: self.groups.clone(),
            bracket: self.bracket.clone(),
            swiss: self.swiss.clone(),
        }
    }
}

/// Adds match `m` to its players' totals (kept by name).
fn add_totals<'a>(
    archive: &'a Archive,
    totals: &mut BTreeMap<&'a str, PlayerTotals>,
    m: &MatchSummary,
) {
    for side in 0..2 {
        let name = archive.name(m.players[side]);
        let t = totals.entry(name).or_insert_with(|| PlayerTotals {
            name: name.to_string(),
            ..PlayerTotals::default()
        });
        t.matches += 1;
        match m.winner {
            Some(w) if w == side => t.matches_won += 1,
            Some(_) => t.matches_lost += 1,
            None if m.drawn => t.matches_drawn += 1,
            None => t.matches_undecided += 1,
        }
        t.games_won += m.score[side];
        t.games_lost += m.score[1 - side];
        t.games_drawn += m.draws;
        t.goals += m.goals[side];
        t.supa_wins += m.supa_wins[side];
    }
}

/// A sequence serialised from a fresh iterator, one element at a time.
struct Lazy<F>(F);

impl<F, I> Serialize for Lazy<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A match of a view, serialised as its [`MatchReport`], games written as they are built.
struct MatchOut<'v, 'a> {
    view: &'v EventView<'a>,
    n: usize,
}

impl Serialize for MatchOut<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let h = self.view.match_header(self.n);
        let mut s = serializer.serialize_struct("MatchReport", 12)?;
        s.serialize_field("players", &h.players)?;
        s.serialize_field("score", &h.score)?;
        s.serialize_field("draws", &h.draws)?;
        s.serialize_field("unfinished", &h.unfinished)?;
        s.serialize_field("goals", &h.goals)?;
        s.serialize_field("status", &h.status)?;
        s.serialize_field("winner", &h.winner)?;
        s.serialize_field("loser", &h.loser)?;
        s.serialize_field("decided_after", &h.decided_after)?;
        s.serialize_field("limboti", &h.limboti)?;
        s.serialize_field("undecided_reason", &h.undecided_reason)?;
        if !h.law.is_limboti() {
            s.serialize_field("law", &h.law)?;
        }
        s.serialize_field("games", &Lazy(|| self.view.match_games(self.n)))?;
        s.end()
    }
}

impl Serialize for EventView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("EventStandings", 6)?;
        s.serialize_field("event", &self.event)?;
        s.serialize_field("format", &self.format)?;
        s.serialize_field(
            "matches",
            &Lazy(|| (0..self.matches.len()).map(|n| MatchOut { view: self, n })),
        )?;
        s.serialize_field("players", &self.players)?;
        s.serialize_field("knockout", &self.knockout)?;
        s.serialize_field("warnings", &Lazy(|| self.warnings()))?;
        if let Some(rules) = &self.table_rules {
            s.serialize_field("table_rules", rules)?;
        }
        if let Some(groups) = &self.groups {
            s.serialize_field("groups", groups)?;
        }
        if let Some(bracket) = &self.bracket {
            s.serialize_field("bracket", bracket)?;
        }
        if let Some(swiss) = &self.swiss {
            s.serialize_field("swiss", swiss)?;
        }
        s.end()
    }
}
