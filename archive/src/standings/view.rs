//! One Event's standings, computed from the compact records and read out a piece at a time.
//! Kept: the Event's game numbers grouped by match (4 bytes a game), where each match
//! starts and ends (8 bytes a match), the players' totals and knockout, and the warnings
//! as compact notes (24 bytes each). A match is played again from its records whenever its
//! summary or its games are asked for; the warnings are put in words one by one. Which
//! format the Event is, and what that format computes, is decided here, in
//! [`EventView::compute`].

use super::archive::{Archive, NONE};
use super::event_matches::{EventMatches, Grouping};
use super::knockout::knockout;
use super::matches::{MatchPlay, MatchSummary, Note};
use super::recognise::Pairings;
use super::round_robin::round_robin;
use super::stages::{event_groups, group_tables, knockout_tree, qualifiers, EventGroups};
use super::swiss::swiss;
use super::tzdraft::{tzdraft_bracket, tzdraft_table};
use super::words::{kind, warning};
use super::{
    Bracket, EventStandings, Format, GroupTable, Knockout, MatchGame, MatchLaw, MatchReport,
    PlayerTotals, ScoreRow, StandingsOptions, TableRules, Tiebreak, Tzdraft, TzdraftKind, Warning,
    GROUP_TIEBREAKS, TZDRAFT_TIEBREAKS,
};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::collections::{BTreeMap, HashMap};

/// The standings of one Event, as [`Archive::events`] gives them. Serialised (with serde) it
/// is exactly its [`EventStandings`], written as it goes.
pub struct EventView<'a> {
    pub(super) archive: &'a Archive,
    options: &'a StandingsOptions,
    /// The `Event` tag; empty when the games have none.
    pub event: String,
    /// How the Event is run.
    pub format: Format,
    /// Why the format was chosen, when recognised as other than matches or a knockout.
    pub recognised: Option<String>,
    pub(super) matches: EventMatches<'a>,
    /// The groups (group formats only), for the warnings' words.
    event_groups: Option<EventGroups>,
    /// Every player of the Event, by name.
    pub players: Vec<PlayerTotals>,
    /// The knockout (only for [`Format::Knockout`]).
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
    pub swiss: Option<Vec<ScoreRow>>,
    /// The round-robin table (`round-robin` only).
    pub round_robin: Option<Vec<ScoreRow>>,
    /// TzDraft's tournament (`tzdraft` only).
    pub tzdraft: Option<Tzdraft>,
}

impl Archive {
    /// The standings of the archive's Events, in order of first appearance, each computed
    /// when it is asked for: a caller that writes each Event and lets it go holds one
    /// Event's summaries at a time.
    pub fn events<'a>(
        &'a self,
        options: &'a StandingsOptions,
    ) -> impl Iterator<Item = EventView<'a>> + 'a {
        self.event_games()
            .into_iter()
            .map(move |(event, games)| EventView::compute(self, options, event, games))
    }

    /// The format of each Event, in the order of [`events`](Archive::events): what a
    /// writer needs before the first Event (one CSV header for all). No match is played.
    pub fn formats(&self, options: &StandingsOptions) -> Vec<Format> {
        self.event_games()
            .into_iter()
            .map(|(event, mut games)| {
                games.retain(|&i| self.records[i as usize].two_players());
                event_format(self, options, event, &games).0
            })
            .collect()
    }

    /// Each Event (name id) with its games (record numbers, in input order), in order of
    /// first appearance.
    fn event_games(&self) -> Vec<(u32, Vec<u32>)> {
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
            .map(|((event, _), games)| (event, games))
            .collect()
    }
}

/// The format of the Event `event` (its games `games`, each with two players) under
/// `options`; why, when it was recognised as other than matches or a knockout; and the note
/// for a knockout asked of pairings that cannot be one.
fn event_format(
    archive: &Archive,
    options: &StandingsOptions,
    event: u32,
    games: &[u32],
) -> (Format, Option<String>, Option<Note>) {
    let pairings = Pairings::of(archive, games);
    match options.format {
        Some(Format::Matches | Format::Knockout) => {
            let note = (pairings.players > 3 && !pairings.fit_a_knockout()).then_some(
                Note::NotAKnockout {
                    players: pairings.players,
                    pairs: pairings.pairs,
                },
            );
            let knockout = pairings.players > 3;
            let format = if knockout {
                Format::Knockout
            } else {
                Format::Matches
            };
            (format, None, note)
        }
        Some(format) => (format, None, None),
        None if archive.has_groups(event) => {
            let format = if games_outside_groups(archive, event, games) {
                Format::GroupsKnockout
            } else {
                Format::Groups
            };
            (format, Some("the players are in groups".to_string()), None)
        }
        None => {
            let (format, why) = pairings.format();
            (format, why, None)
        }
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
                _ if g.two_players() => true,
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
        let (format, recognised, note) = event_format(archive, options, event, &games);
        notes.extend(note);
        let grouped = format.grouped();
        let groups = grouped.then(|| event_groups(archive, event, &games, &mut notes));
        if grouped && archive.given_groups.is_none() {
            for &(index, player, group, first) in archive.group_conflicts_of(event) {
                notes.push(Note::GroupConflict {
                    game: index,
                    player,
                    group,
                    first,
                });
            }
        }
        // TzDraft: a single elimination of N players has fewer than N pairs.
        let tzdraft = (format == Format::Tzdraft).then(|| {
            if Pairings::of(archive, &games).fit_a_knockout() {
                TzdraftKind::SingleElimination
            } else {
                TzdraftKind::RoundRobin
            }
        });
        let knockout_law = match (tzdraft, options.tiebreak) {
            (Some(_), _) => MatchLaw::Tzdraft,
            (None, Tiebreak::Limboti) => MatchLaw::Limboti,
            (None, Tiebreak::Tege) => MatchLaw::Tege,
        };
        // Games scored one by one have no matches.
        let scored = matches!(format, Format::Swiss | Format::RoundRobin);
        let scored_games = scored.then(|| std::mem::take(&mut games));
        let grouping = Grouping {
            stages: grouped,
            rounds: tzdraft.is_some(),
        };
        let mut matches = EventMatches::new(
            archive,
            options,
            grouping,
            games,
            |[a, b], knockout_stage| {
                let group = |p: u32| groups.as_ref().and_then(|g| g.group_of(p));
                match (group(a), group(b)) {
                    (Some(x), Some(y)) if x == y && !knockout_stage => MatchLaw::TwoGames,
                    _ => knockout_law,
                }
            },
        );
        if let (Some(kind), true) = (tzdraft, options.deadline_passed) {
            matches.settle_at_deadline(kind == TzdraftKind::RoundRobin);
        }
        let single_elimination = tzdraft == Some(TzdraftKind::SingleElimination);
        let mut totals: BTreeMap<&str, PlayerTotals> = BTreeMap::new();
        for n in 0..matches.len() {
            add_totals(archive, &mut totals, &matches.summary(n, Some(&mut notes)));
        }
        let players: Vec<PlayerTotals> = totals.into_values().collect();
        // What each format computes.
        let knockout = (format == Format::Knockout || single_elimination).then(|| {
            knockout(
                archive,
                (0..matches.len()).map(|n| matches.summary(n, None)),
                &players,
                &mut notes,
            )
        });
        let tables = groups
            .as_ref()
            .map(|g| group_tables(&matches, g, format, options));
        let bracket = match format {
            Format::GroupsKnockout => Some(knockout_tree(&matches)),
            _ if single_elimination => Some(tzdraft_bracket(&matches)),
            _ => None,
        };
        let tzdraft = tzdraft.map(|kind| Tzdraft {
            kind,
            points: options.points,
            tiebreaks: TZDRAFT_TIEBREAKS.to_vec(),
            table: (kind == TzdraftKind::RoundRobin).then(|| tzdraft_table(&matches, options)),
            still_in: knockout.as_ref().map(|k| {
                k.ranking
                    .iter()
                    .filter(|r| r.eliminated_by.is_none())
                    .map(|r| r.name.clone())
                    .collect()
            }),
        });
        let swiss = (format == Format::Swiss)
            .then(|| swiss(archive, scored_games.as_deref().unwrap_or_default()));
        let round_robin = (format == Format::RoundRobin)
            .then(|| round_robin(archive, scored_games.as_deref().unwrap_or_default()));
        let table_rules = grouped.then(|| TableRules {
            points: options.points,
            tiebreaks: GROUP_TIEBREAKS.to_vec(),
            qualifiers: qualifiers(format, options),
        });
        // In place: no second copy of an Event's warnings, however many. Notes about no
        // game first.
        notes
            .sort_unstable_by_key(|n| n.order().map(|(game, then)| (archive.sort_key(game), then)));
        EventView {
            archive,
            options,
            event: archive.name(event).to_string(),
            format,
            recognised,
            matches,
            event_groups: groups,
            players,
            knockout,
            notes,
            table_rules,
            groups: tables,
            bracket,
            swiss,
            round_robin,
            tzdraft,
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
            settled_at_deadline: m.at_deadline,
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
        self.notes
            .iter()
            .map(|n| warning(&self.matches, self.event_groups.as_ref(), n))
    }

    /// The whole report of the Event, every game and warning in memory.
    pub fn to_standings(&self) -> EventStandings {
        EventStandings {
            event: self.event.clone(),
            format: self.format,
            recognised: self.recognised.clone(),
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
            round_robin: self.round_robin.clone(),
            tzdraft: self.tzdraft.clone(),
        }
    }
}

/// Whether some games of the Event `event` are outside its tag groups: a knock-out `Stage`
/// tag, or players of different groups (or in none).
fn games_outside_groups(archive: &Archive, event: u32, games: &[u32]) -> bool {
    let mut group_of: HashMap<u32, u32> = HashMap::new();
    for (group, members) in archive.tag_groups_of(event) {
        for player in members {
            group_of.insert(player, group);
        }
    }
    let given = archive.given_groups.as_ref();
    let group = |id: u32| match given {
        Some(g) => g.index_of(archive.name(id)).map(|g| g as u32),
        None => group_of.get(&id).copied(),
    };
    games.iter().any(|&i| {
        let r = &archive.records[i as usize];
        r.knockout_stage() || group(r.white).is_none() || group(r.white) != group(r.black)
    })
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
        if h.settled_at_deadline {
            s.serialize_field("settled_at_deadline", &true)?;
        }
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
        if let Some(why) = &self.recognised {
            s.serialize_field("recognised", why)?;
        }
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
        if let Some(rows) = &self.round_robin {
            s.serialize_field("round_robin", rows)?;
        }
        if let Some(tzdraft) = &self.tzdraft {
            s.serialize_field("tzdraft", tzdraft)?;
        }
        s.end()
    }
}
