//! The opening explorer: from a position (a FEN, or moves from the start), every move the
//! games played, with how often, how it scored, the players' average rating and the games.
//!
//! A position that two or more games reach is read from the index directly. One that a single
//! game reaches is not in a whole index (it would take most of its size): it is found from
//! the games themselves, among the games of the last indexed position of the line when the
//! query gives moves, else by replaying every game's first plies (the skip tests of the
//! records make that cheap).

use crate::books::Books;
use crate::filter::GameFilter;
use crate::format::IndexError;
use crate::game::WINDOW;
use crate::index::Index;
use crate::key::{move_of_code, normalised, MoveCode, PositionKey, NO_MOVE};
use crate::record::{GameInfo, Material, Outcome};
use drafti_archive::openings::Tally;
use drafti_pdn::GameResult;
use drafti_rules::{Move, Position, Variant};

/// The counts of a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Games, results as written, first movers and their wins, plies.
    pub tally: Tally,
    /// The sum of the games' ratings (the average of each game's given ratings).
    pub rating_sum: u64,
    /// Games with a rating.
    pub rated: u64,
    /// The latest date (`yyyymmdd`), 0 when none is known.
    pub last_date: u32,
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, r: &GameInfo) {
        let result = match r.outcome {
            Outcome::WhiteWin => Some(GameResult::WhiteWin),
            Outcome::BlackWin => Some(GameResult::BlackWin),
            Outcome::Draw => Some(GameResult::Draw),
            Outcome::Unknown => Some(GameResult::Unknown),
            Outcome::BothLose => Some(GameResult::BothLose),
            Outcome::None => None,
        };
        self.tally.add(r.first_mover, result, r.plies as usize);
        if let Some(rating) = r.rating() {
            self.rating_sum += rating as u64;
            self.rated += 1;
        }
        self.last_date = self.last_date.max(r.date);
    }

    /// Adds the counts of other games.
    pub fn merge(&mut self, other: &Stats) {
        self.tally.merge(&other.tally);
        self.rating_sum += other.rating_sum;
        self.rated += other.rated;
        self.last_date = self.last_date.max(other.last_date);
    }

    /// The average rating, if any game has one.
    pub fn avg_rating(&self) -> Option<u32> {
        (self.rated > 0).then(|| (self.rating_sum as f64 / self.rated as f64).round() as u32)
    }
}

/// One move played from the position.
#[derive(Clone, Debug)]
pub struct MoveRow {
    /// The move (`None`: games that ended there, or whose window of indexed plies did).
    pub mv: Option<Move>,
    /// The counts of its games.
    pub stats: Stats,
    /// Its games (ids), up to the query's limit, in archive order.
    pub games: Vec<u64>,
}

/// How the position was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// In the index.
    Index,
    /// Among the games of the line's last indexed position.
    Line,
    /// By replaying the games' first plies.
    Scan,
}

/// What the explorer says about a position.
#[derive(Clone, Debug)]
pub struct Explored {
    /// The position, as if White had started.
    pub position: Position,
    /// Its rules.
    pub variant: Variant,
    /// The counts of every game that reached it.
    pub stats: Stats,
    /// Each move played from it, most played first, then by notation.
    pub moves: Vec<MoveRow>,
    /// How it was found.
    pub found: Found,
    /// The named opening, if the books name the position: (book, code, name).
    pub names: Vec<(&'static str, String, String)>,
}

/// An explorer query.
pub struct ExploreQuery<'a> {
    /// The position (as if White had started), and for a line, the positions before it.
    pub line: Vec<Position>,
    /// The rules.
    pub variant: Variant,
    /// Which games count.
    pub filter: &'a GameFilter,
    /// Games listed per move.
    pub max_games: usize,
}

/// Runs an explorer query.
pub fn explore(
    index: &Index,
    books: &Books,
    query: &ExploreQuery<'_>,
) -> Result<Explored, IndexError> {
    let target = *query.line.last().expect("a line has a position");
    let key = PositionKey::new(&target, query.variant);
    // Each move, its games, and its counts when the index keeps them and every game counts.
    let mut rows: Vec<(MoveCode, Vec<u32>, Option<Stats>)> = Vec::new();
    let unfiltered = query.filter.is_empty();
    let listed = unfiltered.then_some(query.max_games);
    let found = match index.lookup_totals(key, listed)? {
        Some((group, totals)) => {
            let mut totals = totals.filter(|_| unfiltered).map(Vec::into_iter);
            rows = group
                .moves
                .into_iter()
                .map(|(c, ids)| {
                    let stats = totals.as_mut().and_then(Iterator::next);
                    (c, ids, stats)
                })
                .collect();
            Found::Index
        }
        None if index.meta().single_game_positions => Found::Index,
        None => {
            let candidates = line_candidates(index, query)?;
            let found = if candidates.is_some() {
                Found::Line
            } else {
                Found::Scan
            };
            let games = match candidates {
                Some(c) => c,
                None => scan_candidates(index, &target, query.variant)?,
            };
            for id in games {
                if let Some(code) = code_at(index, id, &target, query.variant)? {
                    // Game ids fit 32 bits: a build refuses more games.
                    let id = u32::try_from(id).map_err(|_| {
                        IndexError::damaged(index.path(), format!("game {id} of an index"))
                    })?;
                    match rows.iter_mut().find(|(c, _, _)| *c == code) {
                        Some((_, list, _)) => list.push(id),
                        None => rows.push((code, vec![id], None)),
                    }
                }
            }
            found
        }
    };
    let mut total = Stats::default();
    let mut moves = Vec::new();
    for (code, ids, counted) in rows {
        let mut stats = Stats::default();
        let mut games = Vec::new();
        let ids = match counted {
            Some(counted) => {
                stats = counted;
                total.merge(&counted);
                games = ids
                    .iter()
                    .take(query.max_games)
                    .map(|&id| id as u64)
                    .collect();
                Vec::new()
            }
            None => ids,
        };
        for id in ids.into_iter().map(u64::from) {
            let Some(local) = index.local_of(id) else {
                continue;
            };
            let r = index.record(local)?;
            if !query.filter.matches(&r) {
                continue;
            }
            stats.add(&r);
            total.add(&r);
            if games.len() < query.max_games {
                games.push(id);
            }
        }
        if stats.tally.games == 0 {
            continue;
        }
        let mv = if code == NO_MOVE {
            None
        } else {
            Some(move_of_code(&target, query.variant, code).ok_or_else(|| {
                IndexError::damaged(
                    index.path(),
                    format!("move {code} of a position that has fewer moves"),
                )
            })?)
        };
        moves.push(MoveRow { mv, stats, games });
    }
    let legal = target.legal_moves(query.variant);
    moves.sort_by(|a, b| {
        b.stats.tally.games.cmp(&a.stats.tally.games).then_with(|| {
            let n = |m: &MoveRow| {
                m.mv.map_or(String::from("~"), |mv| mv.notation(&legal, false))
            };
            n(a).cmp(&n(b))
        })
    });
    Ok(Explored {
        position: target,
        variant: query.variant,
        stats: total,
        moves,
        found,
        names: names_of(books, &target, query.variant),
    })
}

/// The names the books give a position (as if White had started).
pub fn names_of(
    books: &Books,
    position: &Position,
    variant: Variant,
) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    if variant == Variant::Russian {
        for (book_name, book) in [
            ("opening", &books.openings),
            ("fmjd", &books.fmjd),
            ("idf", &books.idf),
        ] {
            if let Some(e) = book.lookup(position) {
                out.push((book_name, e.code.clone(), e.name.clone()));
            }
        }
    }
    out
}

/// For a line whose last position is not indexed: the games of its last indexed position that
/// played the line's next move (`None` when no position of the line is indexed).
fn line_candidates(
    index: &Index,
    query: &ExploreQuery<'_>,
) -> Result<Option<Vec<u64>>, IndexError> {
    let line = &query.line;
    for at in (0..line.len().saturating_sub(1)).rev() {
        if at > WINDOW {
            continue;
        }
        let Some(group) = index.lookup(PositionKey::new(&line[at], query.variant))? else {
            continue;
        };
        let next = line[at + 1];
        let mut out = Vec::new();
        for (code, ids) in group.moves {
            if code == NO_MOVE {
                continue;
            }
            if move_of_code(&line[at], query.variant, code)
                .is_some_and(|m| line[at].play(&m) == next)
            {
                out.extend(ids.into_iter().map(u64::from));
            }
        }
        return Ok(Some(out));
    }
    Ok(None)
}

/// Every game that could reach `target` in its first plies (its record does not rule it out).
fn scan_candidates(
    index: &Index,
    target: &Position,
    variant: Variant,
) -> Result<Vec<u64>, IndexError> {
    let m = Material::of(target);
    let pieces = (m.white_men + m.white_kings, m.black_men + m.black_kings);
    let mut out = Vec::new();
    for local in 0..index.local_games() {
        let r = index.record(local)?;
        if r.unreadable || r.variant != variant {
            continue;
        }
        // Pieces only go down; the normalised target may have its colours swapped.
        let last = (
            r.last.white_men + r.last.white_kings,
            r.last.black_men + r.last.black_kings,
        );
        let last = if r.first_mover == drafti_rules::Color::Black {
            (last.1, last.0)
        } else {
            last
        };
        if pieces.0 < last.0 || pieces.1 < last.1 {
            continue;
        }
        out.push(index.game_id(local));
    }
    Ok(out)
}

/// The code of the move game `id` played from `target` (first time, in its first plies,
/// normalised), `NO_MOVE` if it ended there, `None` if it never reached it.
fn code_at(
    index: &Index,
    id: u64,
    target: &Position,
    variant: Variant,
) -> Result<Option<MoveCode>, IndexError> {
    let Some(local) = index.local_of(id) else {
        return Ok(None);
    };
    let r = index.record(local)?;
    let first = r.first_mover;
    let mut out = None;
    index.replay(local, |ply, pos, mv| {
        if ply > WINDOW {
            return false;
        }
        let here = normalised(pos, first);
        if here != *target {
            return true;
        }
        out = Some(match mv {
            Some(mv) if ply < WINDOW => {
                let next = normalised(&pos.play(mv), first);
                here.legal_moves(variant)
                    .iter()
                    .position(|m| here.play(m) == next)
                    .map_or(NO_MOVE, |c| c as MoveCode)
            }
            _ => NO_MOVE,
        });
        false
    })?;
    Ok(out)
}

/// A line of moves that does not play from the start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(pub String);

/// The positions of a line of moves from the start, White first (`c3-d4 d6-c5 b2-c3`; move
/// numbers are allowed).
///
/// ```
/// use drafti_db::line_from_moves;
/// use drafti_rules::Variant;
/// assert_eq!(line_from_moves("1. c3-d4 d6-c5 2. b2-c3", Variant::Russian).unwrap().len(), 4);
/// let e = line_from_moves("c3-d4 c3-d4", Variant::Russian).unwrap_err();
/// assert!(e.0.starts_with("c3-d4 is not legal after 1 plies"));
/// ```
pub fn line_from_moves(moves: &str, variant: Variant) -> Result<Vec<Position>, LineError> {
    let start = Position::start(drafti_rules::Color::White);
    let moves = start
        .parse_line(variant, moves)
        .map_err(|e| LineError(e.to_string()))?;
    Ok(std::iter::once(start)
        .chain(moves.iter().scan(start, |pos, mv| {
            *pos = pos.play(mv);
            Some(*pos)
        }))
        .collect())
}

/// The rules of a query on `index`: `given`, else the one variant of all its games (an
/// error naming them when it holds several).
pub fn query_variant(index: &Index, given: Option<Variant>) -> Result<Variant, LineError> {
    if let Some(v) = given {
        return Ok(v);
    }
    let present: Vec<Variant> = Variant::ALL
        .into_iter()
        .zip(index.meta().variants)
        .filter(|(_, n)| *n > 0)
        .map(|(v, _)| v)
        .collect();
    match present[..] {
        [] => Ok(Variant::Tanzanian),
        [v] => Ok(v),
        _ => Err(LineError(format!(
            "{} holds games of several variants ({}): say which with --variant",
            index.path().display(),
            present
                .iter()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
