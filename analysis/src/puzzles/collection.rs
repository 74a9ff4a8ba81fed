//! Duplicates merged: the same position (and variant) found in several games is one puzzle
//! with several sources, in the order the games came.

use super::Puzzle;
use crate::json::is_numeric;
use drafti_archive::replay::ReplayedGame;
use drafti_rules::{move_number, Move, Position, Variant};
use std::collections::HashMap;

/// The most sources kept per puzzle (the rest are counted).
pub const MAX_SOURCES: usize = 16;

/// Where a puzzle was found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The input's name.
    pub file: String,
    /// 1-based number of the game in its input.
    pub game: usize,
    /// The game's ply of the solution's first move (1-based).
    pub ply: usize,
    /// The move number of that move, `18.` or `18...`.
    pub move_number: String,
    /// The opponent's move just before, with its number (`17... e5-f4`); `None` for a
    /// record that starts at the puzzle.
    pub after: Option<String>,
    /// Tags of the game, when present: White, Black, Event, Date, Round.
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
    /// See `white`.
    pub event: Option<String>,
    /// See `white`.
    pub date: Option<String>,
    /// See `white`.
    pub round: Option<String>,
    /// Whether the game is written with square numbers.
    pub numeric: bool,
    /// The position before the opponent's move that led to the puzzle, and that move;
    /// `None` for a record that starts at the puzzle.
    pub previous: Option<(Position, Move)>,
    /// The game's `Site` tag, when present.
    pub site: Option<String>,
    /// TzDraft's id of the game (its `TzDraftId` tag, as `drafti import tzdraft` writes it).
    pub tzdraft_id: Option<String>,
    /// The game's `Opening` tag (the opening's name), when present.
    pub opening: Option<String>,
}

impl Source {
    /// Game `index` (0-based) of the input `file`, the puzzle's position after `ply` moves
    /// of `game`. The move that led there and the move number are written in the record's
    /// notation.
    pub fn of(file: &str, index: usize, game: &ReplayedGame, ply: usize) -> Source {
        let numeric = is_numeric(game);
        let after = (ply > 0).then(|| {
            let before = &game.positions[ply - 1];
            let mv = &game.moves[ply - 1];
            format!(
                "{} {}",
                move_number(game.first_mover, ply),
                mv.notation(&before.legal_moves(game.variant), numeric)
            )
        });
        Source {
            file: file.to_string(),
            game: index + 1,
            ply: ply + 1,
            move_number: move_number(game.first_mover, ply + 1),
            after,
            white: tag(game, "White"),
            black: tag(game, "Black"),
            event: tag(game, "Event"),
            date: tag(game, "Date"),
            round: tag(game, "Round"),
            numeric,
            previous: (ply > 0).then(|| (game.positions[ply - 1], game.moves[ply - 1])),
            site: tag(game, "Site"),
            tzdraft_id: tag(game, "TzDraftId"),
            opening: tag(game, "Opening"),
        }
    }
}

/// A tag's value, unless it is missing, empty or a placeholder (`?`, `????.??.??`).
fn tag(game: &ReplayedGame, name: &str) -> Option<String> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && !v.chars().all(|c| c == '?' || c == '.'))
        .map(str::to_string)
}

/// One distinct puzzle and where it was found.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The puzzle (as first found).
    pub puzzle: Puzzle,
    /// Its sources, at most `MAX_SOURCES`, in input order.
    pub sources: Vec<Source>,
    /// How many games it was found in.
    pub occurrences: u64,
}

/// Distinct puzzles in the order they were first found.
#[derive(Debug, Default)]
pub struct Collection {
    entries: Vec<Entry>,
    index: HashMap<(Variant, u64), usize>,
    duplicates: u64,
}

impl Collection {
    /// An empty collection.
    pub fn new() -> Collection {
        Collection::default()
    }

    /// Adds a puzzle found at `source`; a position already in the collection only gains the
    /// source. Returns whether the puzzle was new.
    pub fn add(&mut self, puzzle: Puzzle, source: Source) -> bool {
        let key = (puzzle.variant, puzzle.position.hash_key());
        match self.index.get(&key) {
            Some(&i) => {
                let entry = &mut self.entries[i];
                entry.occurrences += 1;
                if entry.sources.len() < MAX_SOURCES {
                    entry.sources.push(source);
                }
                self.duplicates += 1;
                false
            }
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push(Entry {
                    puzzle,
                    sources: vec![source],
                    occurrences: 1,
                });
                true
            }
        }
    }

    /// The distinct puzzles, first found first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many distinct puzzles.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Finds merged into an earlier puzzle.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }
}
