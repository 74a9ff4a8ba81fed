//! `find`: the games that pass the tag filters and, when asked, reach a position, a material
//! signature or a pattern at some ply (all of them in one position); and twins: games that
//! are the same game, or the start of a longer one.
//!
//! A game is skipped on its record alone when it cannot match; the others are replayed from
//! their packed moves (in parallel, in ranges, the matches given back in archive order).

use crate::filter::GameFilter;
use crate::format::IndexError;
use crate::game::move_bits;
use crate::index::Index;
use crate::query::{MaterialQuery, Pattern, PositionQuery};
use crate::record::{GameInfo, Material};
use drafti_rules::Position;
use rayon::prelude::*;

/// What to look for inside the games (besides the filters).
#[derive(Clone, Debug, Default)]
pub struct InGame {
    /// A material signature.
    pub material: Option<MaterialQuery>,
    /// Pieces on squares.
    pub pattern: Option<Pattern>,
    /// An exact position (pieces and side to move).
    pub position: Option<PositionQuery>,
}

impl InGame {
    /// Whether anything is asked inside the games.
    pub fn is_empty(&self) -> bool {
        self.material.is_none() && self.pattern.is_none() && self.position.is_none()
    }

    fn possible(&self, r: &GameInfo) -> bool {
        self.material.as_ref().is_none_or(|q| q.possible(r))
            && self.pattern.as_ref().is_none_or(|q| q.possible(r))
            && self.position.as_ref().is_none_or(|q| q.possible(r))
    }
}

/// A game found, and the first ply where what was asked holds (`None` for tags only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The game's id (its number in the archive, from 0).
    pub id: u64,
    /// The ply (0: the start position).
    pub ply: Option<usize>,
    /// The position at that ply (kept so that a listing need not replay the game again).
    pub position: Option<Position>,
}

/// How many games a find looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FindSummary {
    /// Games in the index.
    pub games: u64,
    /// Games that passed the filters.
    pub filtered: u64,
    /// Games skipped on their record (they could not match).
    pub skipped: u64,
    /// Games replayed.
    pub replayed: u64,
    /// Games found.
    pub found: u64,
}

/// Games per unit of parallel work.
const RANGE: u64 = 4096;

/// Finds the games; `sink` gets the matches in archive order and returns `false` to stop.
pub fn find(
    index: &Index,
    filter: &GameFilter,
    inside: &InGame,
    mut sink: impl FnMut(Match) -> bool,
) -> Result<FindSummary, IndexError> {
    let games = index.local_games();
    let mut summary = FindSummary {
        games,
        ..FindSummary::default()
    };
    let ranges: Vec<u64> = (0..games.div_ceil(RANGE)).collect();
    // A few ranges at a time, so that a stopped sink stops the work and memory stays small.
    for batch in ranges.chunks(rayon::current_num_threads().max(1) * 4) {
        let results: Vec<Result<(Vec<Match>, FindSummary), IndexError>> = batch
            .par_iter()
            .map(|&k| {
                scan_range(
                    index,
                    filter,
                    inside,
                    k * RANGE..((k + 1) * RANGE).min(games),
                )
            })
            .collect();
        for res in results {
            let (matches, s) = res?;
            summary.filtered += s.filtered;
            summary.skipped += s.skipped;
            summary.replayed += s.replayed;
            for m in matches {
                summary.found += 1;
                if !sink(m) {
                    return Ok(summary);
                }
            }
        }
    }
    Ok(summary)
}

fn scan_range(
    index: &Index,
    filter: &GameFilter,
    inside: &InGame,
    range: std::ops::Range<u64>,
) -> Result<(Vec<Match>, FindSummary), IndexError> {
    let mut out = Vec::new();
    let mut s = FindSummary::default();
    index.for_each_game(range, |local, r, moves| {
        if !filter.matches(r) {
            return Ok(true);
        }
        s.filtered += 1;
        let id = index.game_id(local);
        if inside.is_empty() {
            out.push(Match {
                id,
                ply: None,
                position: None,
            });
            return Ok(true);
        }
        if !inside.possible(r) {
            s.skipped += 1;
            return Ok(true);
        }
        s.replayed += 1;
        let mut hit = None;
        let target = inside
            .position
            .map(|p| (p.position, Material::of(&p.position)));
        index.replay_moves(local, r, moves, |ply, pos, _| {
            if let Some((want, m)) = &target {
                // Pieces only go down: once a side has fewer than the target, stop.
                let now = Material::of(pos);
                if now.white_men + now.white_kings < m.white_men + m.white_kings
                    || now.black_men + now.black_kings < m.black_men + m.black_kings
                {
                    return false;
                }
                if pos != want {
                    return true;
                }
            }
            if inside.pattern.as_ref().is_some_and(|p| !p.matches(pos))
                || inside.material.as_ref().is_some_and(|q| !q.holds(pos, ply))
            {
                return true;
            }
            hit = Some((ply, *pos));
            false
        })?;
        if let Some((ply, position)) = hit {
            out.push(Match {
                id,
                ply: Some(ply),
                position: Some(position),
            });
        }
        Ok(true)
    })?;
    Ok((out, s))
}

/// How a twin repeats another game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TwinKind {
    /// The same moves from the same start.
    Identical,
    /// The start of the other (the game was cut short inside it).
    Contained,
}

/// A game that repeats another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Twin {
    /// The repeating game.
    pub id: u64,
    /// The game it repeats: the first of identical games; for a contained game, a game it is
    /// the start of (one that no other game contains, when there is a chain).
    pub of: u64,
    /// How.
    pub kind: TwinKind,
}

/// The twins among the games that pass `filter` and have at least `min_plies` plies, in
/// archive order. Games with the same moves from the same start are identical (the first is
/// kept); a game whose moves are the start of a longer one's is contained in it.
pub fn twins(index: &Index, filter: &GameFilter, min_plies: u16) -> Result<Vec<Twin>, IndexError> {
    struct Item<'a> {
        variant: u8,
        start: &'a [u8],
        packed: &'a [u8],
        bits: u64,
        plies: u16,
        id: u64,
    }
    let mut items: Vec<Item<'_>> = Vec::new();
    let games = index.local_games();
    let mut failure = None;
    index.for_each_game(0..games, |local, r, moves| {
        if r.unreadable || r.plies < min_plies.max(1) || !filter.matches(r) {
            return Ok(true);
        }
        let Some((start, packed, bits)) = move_bits(moves) else {
            failure = Some(local);
            return Ok(false);
        };
        items.push(Item {
            variant: crate::key::variant_code(r.variant),
            start,
            packed,
            bits,
            plies: r.plies,
            id: index.game_id(local),
        });
        Ok(true)
    })?;
    if let Some(local) = failure {
        return Err(IndexError::damaged(
            index.path(),
            format!("the moves of game {local}"),
        ));
    }
    // The start's first byte also holds the pad count: compare only its kind.
    fn start_of<'a>(i: &Item<'a>) -> (u8, u8, &'a [u8]) {
        (i.variant, i.start[0] & 3, &i.start[1..])
    }
    items.sort_by(|a, b| {
        start_of(a)
            .cmp(&start_of(b))
            .then_with(|| a.packed.cmp(b.packed))
            .then(a.bits.cmp(&b.bits))
            .then(a.plies.cmp(&b.plies))
            .then(a.id.cmp(&b.id))
    });
    let same = |a: &Item<'_>, b: &Item<'_>| {
        start_of(a) == start_of(b) && a.bits == b.bits && a.plies == b.plies && a.packed == b.packed
    };
    // Whether `a`'s moves are the start of `b`'s.
    let starts = |a: &Item<'_>, b: &Item<'_>| {
        if start_of(a) != start_of(b) || a.bits > b.bits || a.plies > b.plies {
            return false;
        }
        let full = (a.bits / 8) as usize;
        let rest = (a.bits % 8) as u32;
        a.packed[..full] == b.packed[..full]
            && (rest == 0 || (a.packed[full] ^ b.packed[full]) >> (8 - rest) == 0)
    };
    let mut out = Vec::new();
    // Identical runs: the first (lowest id) is kept.
    let mut keepers: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let mut j = i + 1;
        while j < items.len() && same(&items[i], &items[j]) {
            out.push(Twin {
                id: items[j].id,
                of: items[i].id,
                kind: TwinKind::Identical,
            });
            j += 1;
        }
        keepers.push(i);
        i = j;
    }
    // A keeper whose moves start the next keeper's is contained in it, and in whatever that
    // one is contained in.
    let mut rep: Vec<usize> = keepers.clone();
    for k in (0..keepers.len().saturating_sub(1)).rev() {
        if starts(&items[keepers[k]], &items[keepers[k + 1]]) {
            rep[k] = rep[k + 1];
        }
    }
    for (k, &i) in keepers.iter().enumerate() {
        if rep[k] != i {
            out.push(Twin {
                id: items[i].id,
                of: items[rep[k]].id,
                kind: TwinKind::Contained,
            });
        }
    }
    out.sort_by_key(|t| t.id);
    Ok(out)
}
