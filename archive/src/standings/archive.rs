//! The archive as the standings keep it: one compact record per game, its names, Event,
//! file, Round and Date interned as `u32` ids, so memory grows by a few tens of bytes a
//! game whatever its tags hold.

use super::order::{event_name, is_knockout_stage, is_unknown, normalise_name, round_key};
use super::{GameOutcome, GameRef, GameSummary, Groups};
use drafti_rules::Color;
use std::cell::OnceCell;
use std::collections::HashMap;

/// The id of an absent value (no Round, no player name).
pub(crate) const NONE: u32 = u32::MAX;

/// Strings kept once each, named by their number in order of first appearance.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    ids: HashMap<Box<str>, u32>,
    strings: Vec<Box<str>>,
}

impl Interner {
    fn id(&mut self, value: &str) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        // Ids stay below NONE: four billion distinct strings do not fit in memory anyway.
        let id = u32::try_from(self.strings.len())
            .unwrap_or(NONE - 1)
            .min(NONE - 1);
        self.strings.push(value.into());
        self.ids.insert(value.into(), id);
        id
    }

    /// The string of `id` (empty for [`NONE`]).
    pub(crate) fn get(&self, id: u32) -> &str {
        self.strings.get(id as usize).map_or("", |s| s)
    }

    fn len(&self) -> usize {
        self.strings.len()
    }
}

/// One game, compactly (32 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    pub(crate) file: u32,
    pub(crate) game: u32,
    /// The normalised Event name (the empty name for none).
    pub(crate) event: u32,
    /// The trimmed Round, [`NONE`] when unknown.
    pub(crate) round: u32,
    /// The trimmed Date, [`NONE`] when unknown.
    pub(crate) date: u32,
    /// The normalised White name, [`NONE`] when missing.
    pub(crate) white: u32,
    /// The normalised Black name, [`NONE`] when missing.
    pub(crate) black: u32,
    pub(crate) result: GameOutcome,
    pub(crate) first_mover: Option<Color>,
    pub(crate) king_appeared: Option<bool>,
    /// [`RESULT_WARNING`] and [`KNOCKOUT_STAGE`].
    pub(crate) flags: u8,
}

/// The record's result contradicts itself (the reason is kept aside).
pub(crate) const RESULT_WARNING: u8 = 1;
/// The game's `Stage` tag names a knock-out round.
pub(crate) const KNOCKOUT_STAGE: u8 = 2;

impl Record {
    /// Whether the record's result contradicts itself.
    pub(crate) fn result_warning(&self) -> bool {
        self.flags & RESULT_WARNING != 0
    }

    /// Whether the game is of a knock-out stage by its `Stage` tag.
    pub(crate) fn knockout_stage(&self) -> bool {
        self.flags & KNOCKOUT_STAGE != 0
    }

    /// Whether the game has two players: both names, different.
    pub(crate) fn two_players(&self) -> bool {
        self.white != NONE && self.black != NONE && self.white != self.black
    }

    /// The name id of the player of `color` ([`NONE`] when missing).
    pub(crate) fn player(&self, color: Color) -> u32 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// How many records a block of [`Records`] holds (128 KiB).
const BLOCK: usize = 4096;

/// The records in blocks of a fixed size: growing never copies them and leaves at most one
/// block partly empty (a vector doubling its capacity holds up to twice its records, and
/// both copies while it moves).
#[derive(Debug, Default)]
pub(crate) struct Records {
    blocks: Vec<Vec<Record>>,
    len: usize,
}

impl Records {
    fn push(&mut self, record: Record) {
        if self.len.is_multiple_of(BLOCK) {
            self.blocks.push(Vec::with_capacity(BLOCK));
        }
        if let Some(block) = self.blocks.last_mut() {
            block.push(record);
        }
        self.len += 1;
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Record> {
        self.blocks.iter().flatten()
    }
}

impl std::ops::Index<usize> for Records {
    type Output = Record;

    fn index(&self, index: usize) -> &Record {
        &self.blocks[index / BLOCK][index % BLOCK]
    }
}

/// Where each Round and Date goes in match order, by id (`NONE` after every value).
#[derive(Debug)]
struct Ranks {
    rounds: Vec<u32>,
    dates: Vec<u32>,
    /// By Round id: the rank of its first part (the tournament round of `2.3`).
    heads: Vec<u32>,
}

/// Ranks of `count` values ordered by `key`: equal keys share a rank.
fn rank_by<K: Ord>(count: usize, key: impl Fn(u32) -> K) -> Vec<u32> {
    let keys: Vec<K> = (0..count as u32).map(key).collect();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    let mut rank = vec![0; count];
    for n in 1..order.len() {
        let (previous, this) = (order[n - 1], order[n]);
        rank[this] = if keys[previous] == keys[this] {
            rank[previous]
        } else {
            n as u32
        };
    }
    rank
}

/// The games of an archive as the standings need them, in input order (file order, then
/// game order). Fill it with [`push`](Archive::push), then ask for its
/// [`events`](Archive::events).
#[derive(Debug, Default)]
pub struct Archive {
    pub(crate) records: Records,
    /// Player, Event and file names.
    pub(crate) names: Interner,
    rounds: Interner,
    dates: Interner,
    /// The reasons of the records whose result contradicts itself, by record number.
    result_warnings: Vec<(u32, Box<str>)>,
    ranks: OnceCell<Ranks>,
    /// The groups given for every Event (`--groups FILE`); the tags are then not read.
    pub(crate) given_groups: Option<Groups>,
    /// From the `Group`/`Section` tags, by Event: (player, group) name ids, each player's
    /// first group in the Event, in order of appearance (one entry a player, not a game).
    tag_groups: HashMap<u32, Vec<(u32, u32)>>,
    tag_group_of: HashMap<(u32, u32), u32>,
    /// Tags that put a player in a second group, by Event: (record, player, group, first
    /// group).
    group_conflicts: HashMap<u32, Vec<(u32, u32, u32, u32)>>,
}

impl Archive {
    /// An empty archive.
    pub fn new() -> Archive {
        Archive::default()
    }

    /// Adds the next game.
    pub fn push(&mut self, game: &GameSummary) {
        let index = self.records.len() as u32;
        if let Some(why) = &game.result_warning {
            self.result_warnings.push((index, why.as_str().into()));
        }
        let known = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !is_unknown(v))
                .map(str::to_string)
        };
        let (round, date) = (known(&game.round), known(&game.date));
        let (white, black) = (game.white_name(), game.black_name());
        let record = Record {
            file: self.names.id(&game.file),
            game: u32::try_from(game.game).unwrap_or(u32::MAX),
            event: self.names.id(&event_name(game.event.as_deref())),
            round: round.map_or(NONE, |r| self.rounds.id(&r)),
            date: date.map_or(NONE, |d| self.dates.id(&d)),
            white: white.map_or(NONE, |n| self.names.id(&n)),
            black: black.map_or(NONE, |n| self.names.id(&n)),
            result: game.result,
            first_mover: game.first_mover,
            king_appeared: game.king_appeared,
            flags: if game.result_warning.is_some() {
                RESULT_WARNING
            } else {
                0
            } | if game.stage.as_deref().is_some_and(is_knockout_stage) {
                KNOCKOUT_STAGE
            } else {
                0
            },
        };
        if let (Some(group), true) = (
            game.group.as_deref().and_then(normalise_name),
            record.white != NONE && record.black != NONE,
        ) {
            let group = self.names.id(&group);
            for player in [record.white, record.black] {
                match self.tag_group_of.get(&(record.event, player)) {
                    None => {
                        self.tag_group_of.insert((record.event, player), group);
                        self.tag_groups
                            .entry(record.event)
                            .or_default()
                            .push((player, group));
                    }
                    Some(&first) if first != group => {
                        self.group_conflicts
                            .entry(record.event)
                            .or_default()
                            .push((index, player, group, first));
                    }
                    Some(_) => {}
                }
            }
        }
        self.records.push(record);
        self.ranks.take();
    }

    /// Puts the players in these groups, in every Event (the `Group` tags are then ignored).
    pub fn set_groups(&mut self, groups: Groups) {
        self.given_groups = Some(groups);
    }

    /// The tags of the Event `event` that put a player in a second group: (record, player,
    /// group, first group).
    pub(crate) fn group_conflicts_of(&self, event: u32) -> &[(u32, u32, u32, u32)] {
        self.group_conflicts.get(&event).map_or(&[], Vec::as_slice)
    }

    /// Whether the players of the Event `event` (a name id) are in groups: given ones, or
    /// its games' `Group`/`Section` tags.
    pub(crate) fn has_groups(&self, event: u32) -> bool {
        self.given_groups.is_some() || self.tag_groups.contains_key(&event)
    }

    /// The groups of the Event `event` by its tags: each group (by name, in the order of
    /// [`round_key`]) with its players (name ids, in order of appearance).
    pub(crate) fn tag_groups_of(&self, event: u32) -> Vec<(u32, Vec<u32>)> {
        let mut by_group: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut order: Vec<u32> = Vec::new();
        for &(player, group) in self.tag_groups.get(&event).into_iter().flatten() {
            by_group
                .entry(group)
                .or_insert_with(|| {
                    order.push(group);
                    Vec::new()
                })
                .push(player);
        }
        order.sort_by_cached_key(|&g| (round_key(self.name(g)), self.name(g).to_string()));
        order
            .into_iter()
            .map(|g| (g, by_group.remove(&g).unwrap_or_default()))
            .collect()
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.records.len() == 0
    }

    /// The string of a name id.
    pub(crate) fn name(&self, id: u32) -> &str {
        self.names.get(id)
    }

    /// Why record `index`'s result is unusable.
    pub(crate) fn result_warning(&self, index: u32) -> &str {
        self.result_warnings
            .binary_search_by_key(&index, |(i, _)| *i)
            .map_or("", |at| &self.result_warnings[at].1)
    }

    /// Where record `index` goes in match order: Round, then Date, then input order, a
    /// missing value after every present one.
    pub(crate) fn sort_key(&self, index: u32) -> (u32, u32, u32) {
        let ranks = self.ranks();
        let r = &self.records[index as usize];
        let rank = |table: &[u32], id: u32| table.get(id as usize).copied().unwrap_or(NONE);
        (
            rank(&ranks.rounds, r.round),
            rank(&ranks.dates, r.date),
            index,
        )
    }

    fn ranks(&self) -> &Ranks {
        self.ranks.get_or_init(|| Ranks {
            rounds: rank_by(self.rounds.len(), |id| round_key(self.rounds.get(id))),
            dates: rank_by(self.dates.len(), |id| self.dates.get(id)),
            heads: rank_by(self.rounds.len(), |id| {
                let round = self.rounds.get(id);
                round_key(round.split('.').next().unwrap_or(round))
            }),
        })
    }

    /// The tournament round of record `index`: the rank of its Round's first part (`2` of
    /// `2.3`), [`NONE`] without a Round.
    pub(crate) fn round_head(&self, index: u32) -> u32 {
        let r = &self.records[index as usize];
        self.ranks()
            .heads
            .get(r.round as usize)
            .copied()
            .unwrap_or(NONE)
    }

    /// Where record `index` is, for reports.
    pub(crate) fn at(&self, index: u32) -> GameRef {
        let r = &self.records[index as usize];
        let known = |pool: &Interner, id: u32| (id != NONE).then(|| pool.get(id).to_string());
        GameRef {
            file: self.names.get(r.file).to_string(),
            game: r.game as usize,
            round: known(&self.rounds, r.round),
            date: known(&self.dates, r.date),
        }
    }
}

impl<'a> FromIterator<&'a GameSummary> for Archive {
    fn from_iter<I: IntoIterator<Item = &'a GameSummary>>(games: I) -> Archive {
        let mut archive = Archive::new();
        for g in games {
            archive.push(g);
        }
        archive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: Option<&str>, date: Option<&str>) -> GameSummary {
        GameSummary {
            file: "f".into(),
            game: 1,
            event: None,
            round: round.map(Into::into),
            date: date.map(Into::into),
            white: None,
            black: None,
            result: GameOutcome::Unfinished,
            result_warning: None,
            first_mover: None,
            king_appeared: None,
            group: None,
            stage: None,
        }
    }

    /// The sort keys of games with these Rounds and Dates, in input order.
    fn keys(games: &[(Option<&str>, Option<&str>)]) -> Vec<(u32, u32, u32)> {
        let games: Vec<GameSummary> = games.iter().map(|&(r, d)| game(r, d)).collect();
        let archive: Archive = games.iter().collect();
        (0..games.len() as u32)
            .map(|i| archive.sort_key(i))
            .collect()
    }

    #[test]
    fn rounds_compare_part_by_part_and_missing_sorts_last() {
        let k = keys(&[
            (Some("2.10"), None),
            (Some("2.9"), None),
            (Some("10"), None),
            (Some("2"), None),
            (Some("final"), None),
            (Some("1"), None),
            (None, None),
            (Some("3"), None),
            (Some("?"), None),
            (Some(" 1 "), None),
        ]);
        assert!(k[1] < k[0]); // 2.9 before 2.10
        assert!(k[3] < k[2]); // 2 before 10
        assert!(k[5] < k[4]); // numbers before text
        assert!(k[7] < k[6]); // missing last
        assert!(k[6] < k[8]); // `?` is missing: input order decides
        assert!(k[5] < k[9] && (k[5].0, k[5].1) == (k[9].0, k[9].1)); // the same Round
    }

    #[test]
    fn dates_break_round_ties() {
        let k = keys(&[
            (Some("1"), Some("2024.05.02")),
            (Some("1"), Some("2024.05.01")),
            (Some("1"), Some("????.??.??")),
        ]);
        assert!(k[0] > k[1]);
        assert!(k[2] > k[1]);
    }

    #[test]
    fn records_and_warnings_are_compact() {
        assert!(std::mem::size_of::<Record>() <= 32);
        assert!(std::mem::size_of::<super::super::matches::Note>() <= 24);
    }
}
