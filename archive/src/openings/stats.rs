//! Statistics: tallies of results per opening (book entry) and per node of the move tree of
//! the first plies, the table of rows that JSON, CSV and text are written from, the exact
//! merge of sharded runs' tables, and the discovery of frequent lines the book does not name.
//!
//! # Results and colours
//! Results are counted **as written in the record** (`white_wins` is 1-0, `black_wins` 0-1),
//! and every tally also says who started (`white_first`, `black_first`) and how the side that
//! made the first move did (`first_mover_wins`, `second_mover_wins`). Openings and tree lines
//! are written as if White had started (a Black-first game is mirrored), so in a line the side
//! playing the "White" moves is the first mover; `score_pct` is therefore the **first mover's
//! score**: `100 × (first_mover_wins + draws / 2) / (white_wins + draws + black_wins)`, over
//! games with a decisive or drawn result (games with `*`, `0-0` or no result count in `games`
//! and `unknown` only). In an archive where White always starts it is White's score.

use super::classify::{normalised, Classification};
use super::{pack, Book, FxHashMap, CLASSIFY_PLIES};
use crate::csv::text_cell;
use drafti_pdn::GameResult;
use drafti_rules::{Color, Position, Variant};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// Counts of games and results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games with result 1-0 (or 2-0).
    pub white_wins: u64,
    /// Drawn games (1/2-1/2 or 1-1).
    pub draws: u64,
    /// Games with result 0-1 (or 0-2).
    pub black_wins: u64,
    /// Games with `*`, `0-0` or no result.
    pub unknown: u64,
    /// Games in which White moved first.
    pub white_first: u64,
    /// Games in which Black moved first.
    pub black_first: u64,
    /// Games won by the side that moved first.
    pub first_mover_wins: u64,
    /// Games won by the side that moved second.
    pub second_mover_wins: u64,
    /// The sum of the games' lengths in plies (for the exact average after merging).
    pub total_plies: u64,
}

impl Tally {
    /// Counts one game: who moved first, its result as written, its length in plies.
    #[inline]
    pub fn add(&mut self, first_mover: Color, result: Option<GameResult>, plies: usize) {
        self.games += 1;
        self.total_plies += plies as u64;
        match first_mover {
            Color::White => self.white_first += 1,
            Color::Black => self.black_first += 1,
        }
        let winner = match result {
            Some(GameResult::WhiteWin) => {
                self.white_wins += 1;
                Some(Color::White)
            }
            Some(GameResult::BlackWin) => {
                self.black_wins += 1;
                Some(Color::Black)
            }
            Some(GameResult::Draw) => {
                self.draws += 1;
                None
            }
            Some(GameResult::Unknown | GameResult::BothLose) | None => {
                self.unknown += 1;
                None
            }
        };
        match winner {
            Some(w) if w == first_mover => self.first_mover_wins += 1,
            Some(_) => self.second_mover_wins += 1,
            None => {}
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.white_wins += o.white_wins;
        self.draws += o.draws;
        self.black_wins += o.black_wins;
        self.unknown += o.unknown;
        self.white_first += o.white_first;
        self.black_first += o.black_first;
        self.first_mover_wins += o.first_mover_wins;
        self.second_mover_wins += o.second_mover_wins;
        self.total_plies += o.total_plies;
    }

    /// The sum of two tallies, or `None` if a count would pass `u64::MAX`.
    pub fn checked_sum(&self, o: &Tally) -> Option<Tally> {
        Some(Tally {
            games: self.games.checked_add(o.games)?,
            white_wins: self.white_wins.checked_add(o.white_wins)?,
            draws: self.draws.checked_add(o.draws)?,
            black_wins: self.black_wins.checked_add(o.black_wins)?,
            unknown: self.unknown.checked_add(o.unknown)?,
            white_first: self.white_first.checked_add(o.white_first)?,
            black_first: self.black_first.checked_add(o.black_first)?,
            first_mover_wins: self.first_mover_wins.checked_add(o.first_mover_wins)?,
            second_mover_wins: self.second_mover_wins.checked_add(o.second_mover_wins)?,
            total_plies: self.total_plies.checked_add(o.total_plies)?,
        })
    }

    /// The counts, in field order (for the checks of [`merge_rows`]).
    fn counts(&self) -> [u64; 10] {
        [
            self.games,
            self.white_wins,
            self.draws,
            self.black_wins,
            self.unknown,
            self.white_first,
            self.black_first,
            self.first_mover_wins,
            self.second_mover_wins,
            self.total_plies,
        ]
    }

    /// Why the counts of one row cannot be: results, first movers or winners that do not
    /// add up to the games.
    fn inconsistency(&self) -> Option<String> {
        let sum = |xs: &[u64]| xs.iter().map(|&x| u128::from(x)).sum::<u128>();
        let games = u128::from(self.games);
        if sum(&[self.white_wins, self.draws, self.black_wins, self.unknown]) != games {
            return Some(format!(
                "{} games, but {} + {} + {} + {} results",
                self.games, self.white_wins, self.draws, self.black_wins, self.unknown
            ));
        }
        if sum(&[self.white_first, self.black_first]) != games {
            return Some(format!(
                "{} games, but {} + {} first movers",
                self.games, self.white_first, self.black_first
            ));
        }
        if sum(&[self.first_mover_wins, self.second_mover_wins])
            != sum(&[self.white_wins, self.black_wins])
        {
            return Some(format!(
                "{} + {} wins by first and second mover, but {} + {} by White and Black",
                self.first_mover_wins, self.second_mover_wins, self.white_wins, self.black_wins
            ));
        }
        None
    }

    /// The first mover's score in percent over games with a result (see the module docs),
    /// rounded to 0.01; `None` when no game has one.
    pub fn score_pct(&self) -> Option<f64> {
        let decided = self.white_wins + self.draws + self.black_wins;
        (decided > 0).then(|| {
            let points = self.first_mover_wins as f64 + self.draws as f64 / 2.0;
            round2(100.0 * points / decided as f64)
        })
    }

    /// The average length in plies, rounded to 0.01; `None` with no games.
    pub fn avg_plies(&self) -> Option<f64> {
        (self.games > 0).then(|| round2(self.total_plies as f64 / self.games as f64))
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// What a [`StatsRow`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// Every game of the run (one row; it also describes the run).
    All,
    /// The games classified as one book entry (code `""`: games that reach no book position).
    Opening,
    /// The games that follow one line of the move tree from the standard start (depth 0: all
    /// games from the standard start).
    Tree,
}

impl fmt::Display for RowKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RowKind::All => "all",
            RowKind::Opening => "opening",
            RowKind::Tree => "tree",
        })
    }
}

/// One row of the statistics table: what `--json` (one object per line) and `--csv` print,
/// and what `merge` reads back. Field names are stable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsRow {
    /// `all`, `opening` or `tree`.
    pub kind: RowKind,
    /// Plies of the line: the book line's length (opening), the node's depth (tree), 0 (all).
    pub depth: usize,
    /// The book code: of the entry (opening; `""` for games in no book position) or of the
    /// node's position if the book names it (tree; else `""`).
    pub code: String,
    /// The book name, `(no book position)`, `(start)` or `(all games)`.
    pub name: String,
    /// The line as PDN movetext, written as if White had started.
    pub moves: String,
    /// The position the line reaches (numeric FEN), as if White had started; `""` for `all`
    /// and unclassified games.
    pub fen: String,
    /// The counts.
    #[serde(flatten)]
    pub tally: Tally,
    /// The first mover's score in percent (see the module docs).
    pub score_pct: Option<f64>,
    /// The average game length in plies.
    pub avg_plies: Option<f64>,
    /// On the `all` row: the depth of the tree (`--plies`); else `null`.
    pub tree_plies: Option<usize>,
    /// On the `all` row: the `--min-games` filter applied to the other rows; else `null`.
    pub min_games: Option<u64>,
    /// On the `all` row: the book's fingerprint ([`Book::fingerprint`]); else `null`.
    pub book: Option<String>,
    /// On the `all` row of a `--shard K/N` run: `K/N`, so `merge` can tell a missing or
    /// repeated part; absent otherwise (and in the CSV).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// On the `all` row: the archive the run read, so `merge` refuses parts of different
    /// archives (or of one archive that changed between the runs); absent in the CSV and
    /// in the parts of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<ArchiveIdentity>,
}

/// The archive a run read: what the parts of one sharded run share. Every part of a sharded
/// run reads every byte of the archive (the shards split the games, not the files), so all
/// of them see the same files, the same games and the same bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveIdentity {
    /// The inputs' names, in the order given.
    pub inputs: Vec<String>,
    /// The games of the archive, every shard's counted.
    pub games: u64,
    /// The bytes read (as decoded to UTF-8).
    pub bytes: u64,
    /// Their CRC-32 ([`crate::input::Fingerprint`]), as 8 hex digits.
    pub crc32: String,
}

impl fmt::Display for ArchiveIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} games, {} bytes, CRC-32 {})",
            self.inputs.join(", "),
            self.games,
            self.bytes,
            self.crc32
        )
    }
}

/// The CSV header line (the fields of [`StatsRow`], in order).
pub const CSV_HEADER: &str = "kind,depth,code,name,moves,fen,games,white_wins,draws,black_wins,unknown,white_first,black_first,first_mover_wins,second_mover_wins,total_plies,score_pct,avg_plies,tree_plies,min_games,book";

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_default()
}

impl StatsRow {
    /// The row as one CSV record (no line end), fields as in [`CSV_HEADER`]; a missing value
    /// is an empty field.
    pub fn to_csv(&self) -> String {
        let t = &self.tally;
        let mut out = String::new();
        out.push_str(&format!("{},{},", self.kind, self.depth));
        for text in [&self.code, &self.name, &self.moves, &self.fen] {
            out.push_str(&text_cell(text));
            out.push(',');
        }
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
            t.games,
            t.white_wins,
            t.draws,
            t.black_wins,
            t.unknown,
            t.white_first,
            t.black_first,
            t.first_mover_wins,
            t.second_mover_wins,
            t.total_plies,
            opt(&self.score_pct),
            opt(&self.avg_plies),
            opt(&self.tree_plies),
            opt(&self.min_games),
        ));
        out.push_str(&text_cell(self.book.as_deref().unwrap_or("")));
        out
    }

    /// The moves of the line without move numbers.
    pub fn move_list(&self) -> Vec<&str> {
        move_list(&self.moves)
    }

    /// The row in a message: `the all row`, `opening CODE`, `tree line MOVES`.
    fn label(&self) -> String {
        match self.kind {
            RowKind::All => "the all row".to_string(),
            RowKind::Opening if self.code.is_empty() => format!("opening {UNCLASSIFIED}"),
            RowKind::Opening => format!("opening {}", self.code),
            RowKind::Tree if self.depth == 0 => "tree line (start)".to_string(),
            RowKind::Tree => format!("tree line {}", self.move_list().join(" ")),
        }
    }

    /// Where the row's counts go in a merge (one row per key in a table).
    fn key(&self) -> (RowKind, String) {
        match self.kind {
            RowKind::All => (self.kind, String::new()),
            RowKind::Opening => (self.kind, self.code.clone()),
            RowKind::Tree => (self.kind, self.move_list().join(" ")),
        }
    }
}

/// The last line of a table in JSON (`{"kind":"end","games":N,"rows":R}`): the games of its
/// `all` row and the rows before it, so a part cut short, even at a line end, is told from
/// a whole one ([`parse_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEnd {
    /// Always `end`.
    pub kind: EndKind,
    /// The games of the `all` row.
    pub games: u64,
    /// The rows of the table, the `all` row included.
    pub rows: u64,
}

/// The `kind` of a [`TableEnd`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The table ends here.
    End,
}

impl TableEnd {
    /// The closing line of `rows` (a table of [`OpeningStats::rows`] or [`merge_rows`]).
    pub fn of(rows: &[StatsRow]) -> TableEnd {
        TableEnd {
            kind: EndKind::End,
            games: rows
                .iter()
                .find(|r| r.kind == RowKind::All)
                .map_or(0, |r| r.tally.games),
            rows: rows.len() as u64,
        }
    }
}

/// Why the text of a part is not a whole table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartError {
    /// A line that is neither a row nor the closing line (a line cut in the middle, or
    /// another file).
    #[error("line {line}: not a row of `drafti openings --json`: {message}")]
    NotARow {
        /// 1-based line.
        line: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// No closing line: the part was cut short (or is not an `openings --json` table).
    #[error("no closing line ({{\"kind\":\"end\",…}}): the part is cut short, or not a table of `drafti openings --json`")]
    NoEnd,
    /// Something after the closing line.
    #[error("line {line}: a row after the closing line")]
    AfterEnd {
        /// 1-based line.
        line: usize,
    },
    /// The closing line disagrees with the rows before it.
    #[error(
        "the closing line says {said} {what}, the part has {found}: rows are missing or repeated"
    )]
    EndMismatch {
        /// `games` or `rows`.
        what: &'static str,
        /// What the closing line says.
        said: u64,
        /// What the rows hold.
        found: u64,
    },
}

/// Reads one part for [`merge_rows`]: the JSON Lines of `drafti openings --json`, rows then
/// the closing line ([`TableEnd`]), which must be there and agree with the rows (blank lines
/// are skipped).
pub fn parse_part(text: &str) -> Result<Vec<StatsRow>, PartError> {
    let mut rows = Vec::new();
    let mut end = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if end.is_some() {
            return Err(PartError::AfterEnd { line: i + 1 });
        }
        match serde_json::from_str::<StatsRow>(line) {
            Ok(row) => rows.push(row),
            Err(e) => match serde_json::from_str::<TableEnd>(line) {
                Ok(closing) => end = Some(closing),
                Err(_) => {
                    return Err(PartError::NotARow {
                        line: i + 1,
                        message: e.to_string(),
                    })
                }
            },
        }
    }
    let end = end.ok_or(PartError::NoEnd)?;
    let found = TableEnd::of(&rows);
    for (what, said, found) in [
        ("rows", end.rows, found.rows),
        ("games", end.games, found.games),
    ] {
        if said != found {
            return Err(PartError::EndMismatch { what, said, found });
        }
    }
    Ok(rows)
}

fn move_list(moves: &str) -> Vec<&str> {
    moves
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !t.ends_with('…'))
        .collect()
}

struct Node {
    parent: u32,
    depth: u32,
    position: Position,
    tally: Tally,
}

/// The statistics of a set of games against a book: per opening and as a move tree of the
/// first `tree_plies` plies. Add games one by one ([`add_game`](Self::add_game)), merge the
/// statistics of parallel workers ([`merge`](Self::merge)), then read the table
/// ([`rows`](Self::rows)).
pub struct OpeningStats<'b> {
    book: &'b Book,
    tree_plies: usize,
    all: Tally,
    unclassified: Tally,
    by_entry: FxHashMap<u32, Tally>,
    nodes: Vec<Node>,
    children: FxHashMap<(u32, u128), u32>,
}

impl<'b> OpeningStats<'b> {
    /// Empty statistics against `book`, with a tree of the first `tree_plies` plies (at most
    /// [`CLASSIFY_PLIES`]).
    pub fn new(book: &'b Book, tree_plies: usize) -> OpeningStats<'b> {
        OpeningStats {
            book,
            tree_plies: tree_plies.min(CLASSIFY_PLIES),
            all: Tally::default(),
            unclassified: Tally::default(),
            by_entry: FxHashMap::default(),
            nodes: vec![Node {
                parent: u32::MAX,
                depth: 0,
                position: Position::start(Color::White),
                tally: Tally::default(),
            }],
            children: FxHashMap::default(),
        }
    }

    /// The depth of the tree.
    pub fn tree_plies(&self) -> usize {
        self.tree_plies
    }

    /// The number of games added.
    pub fn games(&self) -> u64 {
        self.all.games
    }

    fn child(&mut self, parent: u32, position: Position) -> u32 {
        let next = self.nodes.len() as u32;
        let depth = self.nodes[parent as usize].depth + 1;
        let id = *self
            .children
            .entry((parent, pack(&position)))
            .or_insert(next);
        if id == next {
            self.nodes.push(Node {
                parent,
                depth,
                position,
                tally: Tally::default(),
            });
        }
        id
    }

    /// Counts one game and returns its opening.
    ///
    /// `positions` are the game's positions from the one before its first move (as in
    /// [`Book::classify`]; only the first 41 are read, so a caller may pass just those);
    /// `first_mover` is the side that moved first; `result` the result the record states;
    /// `plies` the game's length in plies (for the average length). Games that do not start
    /// from the standard start position (after normalisation) count in the `all` row and
    /// their opening, not in the tree.
    pub fn add_game(
        &mut self,
        positions: &[Position],
        first_mover: Color,
        result: Option<GameResult>,
        plies: usize,
    ) -> Option<Classification<'b>> {
        let found = self.book.classify(positions, first_mover);
        self.add_classified(positions, first_mover, result, plies, found);
        found
    }

    /// Counts one game already classified with [`Book::classify`] against this book (e.g. on
    /// a worker thread): the same as [`add_game`](Self::add_game), but `positions` need only
    /// hold the first [`tree_plies`](Self::tree_plies)` + 1`.
    pub fn add_classified(
        &mut self,
        positions: &[Position],
        first_mover: Color,
        result: Option<GameResult>,
        plies: usize,
        found: Option<Classification<'_>>,
    ) {
        self.all.add(first_mover, result, plies);
        let tree = &positions[..positions.len().min(self.tree_plies + 1)];
        let in_tree = tree
            .first()
            .is_some_and(|p| normalised(p, first_mover) == Position::start(Color::White));
        if in_tree {
            self.nodes[0].tally.add(first_mover, result, plies);
            let mut node = 0u32;
            for pos in &tree[1..] {
                node = self.child(node, normalised(pos, first_mover));
                self.nodes[node as usize]
                    .tally
                    .add(first_mover, result, plies);
            }
        }
        match found {
            Some(c) => {
                self.by_entry
                    .entry(c.index as u32)
                    .or_default()
                    .add(first_mover, result, plies)
            }
            None => self.unclassified.add(first_mover, result, plies),
        }
    }

    /// Adds the statistics of other games (e.g. another worker's) against the same book and
    /// tree depth. The result is the same whatever way the games were split.
    pub fn merge(&mut self, other: OpeningStats<'b>) {
        self.all.merge(&other.all);
        self.unclassified.merge(&other.unclassified);
        for (i, t) in &other.by_entry {
            self.by_entry.entry(*i).or_default().merge(t);
        }
        // Nodes are created parents first, so a parent is mapped before its children.
        let mut map = vec![0u32; other.nodes.len()];
        for (i, n) in other.nodes.iter().enumerate() {
            let id = if i == 0 {
                0
            } else {
                self.child(map[n.parent as usize], n.position)
            };
            map[i] = id;
            self.nodes[id as usize].tally.merge(&n.tally);
        }
    }

    /// The table: the `all` row, the `opening` rows, the `tree` rows (see [`StatsRow`]),
    /// leaving out opening and tree rows with fewer than `min_games` games, in a fixed order:
    /// openings by games (most first) then code; the tree depth first, siblings by games then
    /// move.
    pub fn rows(&self, min_games: u64) -> Vec<StatsRow> {
        let mut rows = Vec::with_capacity(self.by_entry.len() + self.nodes.len() + 2);
        rows.push(StatsRow {
            kind: RowKind::All,
            depth: 0,
            code: String::new(),
            name: "(all games)".to_string(),
            moves: String::new(),
            fen: String::new(),
            tally: self.all,
            score_pct: None,
            avg_plies: None,
            tree_plies: Some(self.tree_plies),
            min_games: Some(min_games),
            book: Some(self.book.fingerprint()),
            shard: None,
            archive: None,
        });
        for (&i, tally) in &self.by_entry {
            let e = &self.book.entries()[i as usize];
            rows.push(row(
                RowKind::Opening,
                e.plies,
                &e.code,
                &e.name,
                e.moves.clone(),
                e.position.to_fen(),
                *tally,
            ));
        }
        if self.unclassified.games > 0 {
            rows.push(row(
                RowKind::Opening,
                0,
                "",
                UNCLASSIFIED,
                String::new(),
                String::new(),
                self.unclassified,
            ));
        }
        // The moves of each node, parents first.
        let mut paths: Vec<Vec<String>> = Vec::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            if i == 0 {
                paths.push(Vec::new());
                continue;
            }
            let parent = &self.nodes[n.parent as usize];
            let mut path = paths[n.parent as usize].clone();
            path.push(move_between(&parent.position, &n.position));
            paths.push(path);
        }
        for (n, path) in self.nodes.iter().zip(&paths) {
            let entry = self.book.lookup(&n.position).filter(|_| n.depth > 0);
            rows.push(row(
                RowKind::Tree,
                n.depth as usize,
                entry.map(|e| e.code.as_str()).unwrap_or(""),
                entry
                    .map(|e| e.name.as_str())
                    .unwrap_or(if n.depth == 0 { "(start)" } else { "" }),
                super::book::movetext(path),
                n.position.to_fen(),
                n.tally,
            ));
        }
        finish(rows, min_games)
    }
}

const UNCLASSIFIED: &str = "(no book position)";

fn row(
    kind: RowKind,
    depth: usize,
    code: &str,
    name: &str,
    moves: String,
    fen: String,
    tally: Tally,
) -> StatsRow {
    StatsRow {
        kind,
        depth,
        code: code.to_string(),
        name: name.to_string(),
        moves,
        fen,
        tally,
        score_pct: None,
        avg_plies: None,
        tree_plies: None,
        min_games: None,
        book: None,
        shard: None,
        archive: None,
    }
}

/// The move from `a` to `b` in short notation (any variant's rules; `?` if none leads there).
fn move_between(a: &Position, b: &Position) -> String {
    for variant in Variant::ALL {
        let legal = a.legal_moves(variant);
        if let Some(mv) = legal.iter().find(|m| a.play(m) == *b) {
            return mv.notation(&legal, false);
        }
    }
    "?".to_string()
}

/// A tree row's place in depth-first order: (sibling games, reversed; move) per level.
type TreeKey = Vec<(std::cmp::Reverse<u64>, String)>;

/// Derived fields, the `min_games` filter and the fixed order: one function for fresh and
/// merged tables, so a merge prints exactly what one run prints.
fn finish(rows: Vec<StatsRow>, min_games: u64) -> Vec<StatsRow> {
    let mut all = Vec::new();
    let mut openings = Vec::new();
    let mut tree = Vec::new();
    for mut r in rows {
        r.score_pct = r.tally.score_pct();
        r.avg_plies = r.tally.avg_plies();
        match r.kind {
            RowKind::All => {
                r.min_games = Some(min_games);
                all.push(r)
            }
            RowKind::Opening if r.tally.games >= min_games => openings.push(r),
            RowKind::Tree if r.depth == 0 || r.tally.games >= min_games => tree.push(r),
            _ => {}
        }
    }
    openings.sort_by(|a, b| {
        b.tally
            .games
            .cmp(&a.tally.games)
            .then_with(|| a.code.cmp(&b.code))
    });
    // Depth-first order: compare paths at their first difference by (sibling games desc,
    // move asc); a prefix comes first.
    let games: HashMap<String, u64> = tree
        .iter()
        .map(|r| (r.move_list().join(" "), r.tally.games))
        .collect();
    let mut keyed: Vec<(TreeKey, StatsRow)> = tree
        .into_iter()
        .map(|r| {
            let list = r.move_list();
            let key = (1..=list.len())
                .map(|k| {
                    let g = games.get(&list[..k].join(" ")).copied().unwrap_or(0);
                    (std::cmp::Reverse(g), list[k - 1].to_string())
                })
                .collect();
            (key, r)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    all.into_iter()
        .chain(openings)
        .chain(keyed.into_iter().map(|(_, r)| r))
        .collect()
}

/// Why tables cannot be merged exactly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A part has no `all` row, or more than one.
    #[error("part {part}: expected one row of kind 'all', found {found}")]
    AllRow {
        /// 1-based part number.
        part: usize,
        /// How many.
        found: usize,
    },
    /// A part left rows out (`--min-games` above 1), so sums would not be exact.
    #[error("part {part} was made with --min-games {min_games}: rows left out cannot be added back; rerun it with --min-games 1")]
    Filtered {
        /// 1-based part number.
        part: usize,
        /// Its filter.
        min_games: u64,
    },
    /// Parts made with different books or tree depths.
    #[error("part {part} was made with {what} {found}, part 1 with {expected}: only runs with the same options add up")]
    Mismatch {
        /// 1-based part number.
        part: usize,
        /// `--plies` or `book`.
        what: &'static str,
        /// Part 1's value.
        expected: String,
        /// This part's value.
        found: String,
    },
    /// A part of another archive than the first part, or of the same files changed between
    /// the runs (or one part with no record of its archive and another with one).
    #[error("part {part} read {found}, part 1 {expected}: only the parts of one run over the same archive add up")]
    OtherArchive {
        /// 1-based part number.
        part: usize,
        /// What part 1 read.
        expected: String,
        /// What this part read.
        found: String,
    },
    /// Parts of sharded runs that do not make up one whole run: one repeated, one missing,
    /// shards of different splits, or a sharded part with an unsharded one.
    #[error("{0}")]
    Shards(String),
    /// A row given twice in one part (its games would count twice).
    #[error("part {part}: {row} appears twice: a repeated row would count its games twice")]
    RepeatedRow {
        /// 1-based part number.
        part: usize,
        /// The row (`opening CODE`, `tree line MOVES`).
        row: String,
    },
    /// A part whose rows do not add up: a row's own counts, its openings against its `all`
    /// row, or its tree (each line within its parent, the start within all the games).
    #[error("part {part} does not add up: {reason}")]
    Inconsistent {
        /// 1-based part number.
        part: usize,
        /// What does not add up.
        reason: String,
    },
    /// A sum past `u64::MAX`: no real table has that many games.
    #[error("part {part}: the counts of {row} overflow when added to the other parts'")]
    Overflow {
        /// 1-based part number.
        part: usize,
        /// The row.
        row: String,
    },
}

/// Checks that one part's rows add up: each row's counts, its opening rows (which classify
/// every game once) against its `all` row, its tree (a line's depth is its moves, at most
/// `tree_plies`; each line's games are among its parent's, the start's among all games) and
/// that no row is there twice.
fn check_part(part: usize, rows: &[StatsRow], tree_plies: usize) -> Result<(), MergeError> {
    let bad = |reason: String| MergeError::Inconsistent { part, reason };
    let mut seen: HashMap<(RowKind, String), &StatsRow> = HashMap::new();
    for r in rows {
        if let Some(reason) = r.tally.inconsistency() {
            return Err(bad(format!("{}: {reason}", r.label())));
        }
        if seen.insert(r.key(), r).is_some() {
            return Err(MergeError::RepeatedRow {
                part,
                row: r.label(),
            });
        }
    }
    let all = rows
        .iter()
        .find(|r| r.kind == RowKind::All)
        .expect("one all row, checked before");
    // Field by field, in u128 so no sum of a part wraps.
    let add = |sum: &mut [u128; 10], t: &Tally| {
        for (s, c) in sum.iter_mut().zip(t.counts()) {
            *s += u128::from(c);
        }
    };
    let within = |inner: &[u128; 10], outer: &Tally| {
        inner
            .iter()
            .zip(outer.counts())
            .all(|(&i, o)| i <= u128::from(o))
    };
    let mut openings = [0u128; 10];
    for r in rows.iter().filter(|r| r.kind == RowKind::Opening) {
        add(&mut openings, &r.tally);
    }
    if openings != all.tally.counts().map(u128::from) {
        return Err(bad(format!(
            "its openings hold {} games, its all row {}",
            openings[0], all.tally.games
        )));
    }
    let mut children: HashMap<String, [u128; 10]> = HashMap::new();
    let mut start = None;
    for r in rows.iter().filter(|r| r.kind == RowKind::Tree) {
        let list = r.move_list();
        if r.depth != list.len() || r.depth > tree_plies {
            return Err(bad(format!(
                "{} has depth {} for {} moves in a tree of {tree_plies} plies",
                r.label(),
                r.depth,
                list.len()
            )));
        }
        if r.depth == 0 {
            start = Some(r);
            continue;
        }
        let parent = list[..list.len() - 1].join(" ");
        if !seen.contains_key(&(RowKind::Tree, parent.clone())) {
            return Err(bad(format!("{} has no row for its parent line", r.label())));
        }
        add(children.entry(parent).or_insert([0; 10]), &r.tally);
    }
    let Some(start) = start else {
        return Err(bad("its tree has no start row (depth 0)".to_string()));
    };
    if !within(&start.tally.counts().map(u128::from), &all.tally) {
        return Err(bad(format!(
            "its tree starts with {} games, more than its all row's {}",
            start.tally.games, all.tally.games
        )));
    }
    for (parent, sum) in &children {
        let p = seen[&(RowKind::Tree, parent.clone())];
        if !within(sum, &p.tally) {
            return Err(bad(format!(
                "the lines after {} hold {} games, more than its {}",
                p.label(),
                sum[0],
                p.tally.games
            )));
        }
    }
    Ok(())
}

/// Checks that the parts' shards (`K/N` of their `all` rows, 1-based part order) are each
/// of 1/N … N/N exactly once, or that no part is a shard.
fn check_shards(shards: &[Option<String>]) -> Result<(), MergeError> {
    if shards.iter().all(Option::is_none) {
        return Ok(());
    }
    let mut seen: Vec<Option<usize>> = Vec::new();
    let mut split: Option<(u64, usize)> = None;
    for (p, shard) in shards.iter().enumerate() {
        let part = p + 1;
        let Some(text) = shard else {
            return Err(MergeError::Shards(format!(
                "part {part} is a whole run (no --shard), the others are shards: merge the shards of one run"
            )));
        };
        let s: crate::batch::Shard = text
            .parse()
            .map_err(|_| MergeError::Shards(format!("part {part}: unreadable shard '{text}'")))?;
        match split {
            None => {
                split = Some((s.count, part));
                seen = vec![None; s.count as usize];
            }
            Some((n, first)) if n != s.count => {
                return Err(MergeError::Shards(format!(
                    "part {part} is shard {s}, part {first} a shard of {n}: merge the shards of one run"
                )));
            }
            Some(_) => {}
        }
        let slot = &mut seen[(s.index - 1) as usize];
        if let Some(first) = *slot {
            return Err(MergeError::Shards(format!(
                "parts {first} and {part} are both shard {s}: a part given twice would count its games twice"
            )));
        }
        *slot = Some(part);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_none())
        .map(|(k, _)| format!("{}/{}", k + 1, seen.len()))
        .collect();
    if !missing.is_empty() {
        let (what, them) = if missing.len() == 1 {
            ("shard", "its")
        } else {
            ("shards", "their")
        };
        return Err(MergeError::Shards(format!(
            "{what} {} missing: the merged table would leave out {them} games",
            missing.join(", ")
        )));
    }
    Ok(())
}

/// Adds the tables of sharded runs (each a whole `--json` output, read by [`parse_part`])
/// into the table one run over all the games would give, then applies `min_games`. Every
/// count is a sum, checked (no wrapping); the score and the average are computed again from
/// the sums, so the result is exact. Each part must add up by itself first (see
/// [`MergeError`]): a damaged or edited part is an error, not a wrong table.
pub fn merge_rows(parts: Vec<Vec<StatsRow>>, min_games: u64) -> Result<Vec<StatsRow>, MergeError> {
    let mut merged: Vec<StatsRow> = Vec::new();
    let mut index: HashMap<(RowKind, String), usize> = HashMap::new();
    type Run = (Option<usize>, Option<String>, Option<ArchiveIdentity>);
    let mut first: Option<Run> = None;
    let shards: Vec<Option<String>> = parts
        .iter()
        .map(|rows| {
            rows.iter()
                .find(|r| r.kind == RowKind::All)
                .and_then(|r| r.shard.clone())
        })
        .collect();
    for (p, rows) in parts.into_iter().enumerate() {
        let part = p + 1;
        let alls: Vec<&StatsRow> = rows.iter().filter(|r| r.kind == RowKind::All).collect();
        if alls.len() != 1 {
            return Err(MergeError::AllRow {
                part,
                found: alls.len(),
            });
        }
        let all = alls[0];
        if let Some(m) = all.min_games.filter(|&m| m > 1) {
            return Err(MergeError::Filtered { part, min_games: m });
        }
        let run = (all.tree_plies, all.book.clone(), all.archive.clone());
        match &first {
            None => first = Some(run),
            Some(f) => {
                if f.0 != run.0 {
                    return Err(MergeError::Mismatch {
                        part,
                        what: "--plies",
                        expected: opt(&f.0),
                        found: opt(&run.0),
                    });
                }
                if f.1 != run.1 {
                    return Err(MergeError::Mismatch {
                        part,
                        what: "book",
                        expected: opt(&f.1),
                        found: opt(&run.1),
                    });
                }
                if f.2 != run.2 {
                    let read = |a: &Option<ArchiveIdentity>| {
                        a.as_ref().map_or(
                            "an archive it does not record (an older drafti)".to_string(),
                            ToString::to_string,
                        )
                    };
                    return Err(MergeError::OtherArchive {
                        part,
                        expected: read(&f.2),
                        found: read(&run.2),
                    });
                }
            }
        }
        check_part(part, &rows, all.tree_plies.unwrap_or(CLASSIFY_PLIES))?;
        for r in rows {
            match index.get(&r.key()) {
                Some(&i) => {
                    merged[i].tally = merged[i].tally.checked_sum(&r.tally).ok_or_else(|| {
                        MergeError::Overflow {
                            part,
                            row: r.label(),
                        }
                    })?
                }
                None => {
                    let key = r.key();
                    index.insert(key, merged.len());
                    merged.push(r);
                }
            }
        }
    }
    check_shards(&shards)?;
    for r in &mut merged {
        r.shard = None;
    }
    Ok(finish(merged, min_games))
}

/// A frequent line the book does not name yet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// Plies of the line.
    pub depth: usize,
    /// The most played move order reaching the position, as PDN movetext.
    pub moves: String,
    /// A code in the default book's style (moves without `-`, joined by `.`).
    pub code: String,
    /// The position (numeric FEN), as if White had started.
    pub fen: String,
    /// Games through the position (over all its move orders in the tree).
    #[serde(flatten)]
    pub tally: Tally,
    /// The first mover's score in percent.
    pub score_pct: Option<f64>,
    /// A book row to paste into a book file and rename: `code<TAB>name<TAB>moves`.
    pub book_row: String,
}

/// The most frequent positions of the tree, two plies deep or more, that the book does not
/// name: grouped by position (so transpositions add up), at most `top`, each with at least
/// `min_games` games, most games first (then deeper first, then by moves). A position is left
/// out when one move always follows it (some extension of it has as many games): the longer
/// line is the candidate then.
pub fn discover(rows: &[StatsRow], top: usize, min_games: u64) -> Vec<Candidate> {
    let tree: Vec<&StatsRow> = rows
        .iter()
        .filter(|r| r.kind == RowKind::Tree && r.depth > 0)
        .collect();
    let by_path: HashMap<String, &StatsRow> =
        tree.iter().map(|r| (r.move_list().join(" "), *r)).collect();
    let mut groups: HashMap<&str, (Tally, &StatsRow)> = HashMap::new();
    for r in tree.iter().filter(|r| r.code.is_empty() && r.depth >= 2) {
        let g = groups
            .entry(r.fen.as_str())
            .or_insert((Tally::default(), r));
        g.0.merge(&r.tally);
        let best = g.1;
        if (r.tally.games, std::cmp::Reverse(&r.moves))
            > (best.tally.games, std::cmp::Reverse(&best.moves))
        {
            g.1 = r;
        }
    }
    // Positions that one move always follows: every game through the position (over all
    // its move orders) goes on to the same next position.
    let mut edges: HashMap<(&str, &str), u64> = HashMap::new();
    for r in &tree {
        let list = r.move_list();
        if list.len() < 2 {
            continue;
        }
        if let Some(parent) = by_path.get(&list[..list.len() - 1].join(" ")) {
            *edges
                .entry((parent.fen.as_str(), r.fen.as_str()))
                .or_default() += r.tally.games;
        }
    }
    let mut followed: HashMap<&str, bool> = HashMap::new();
    for ((parent, _), games) in edges {
        if groups.get(parent).is_some_and(|(t, _)| t.games == games) {
            followed.insert(parent, true);
        }
    }
    let mut out: Vec<Candidate> = groups
        .into_iter()
        .filter(|(fen, (tally, _))| tally.games >= min_games && !followed.contains_key(fen))
        .map(|(fen, (tally, rep))| {
            let list = rep.move_list();
            let code: Vec<String> = list.iter().map(|m| m.replace('-', "")).collect();
            let code = code.join(".");
            Candidate {
                depth: rep.depth,
                moves: rep.moves.clone(),
                book_row: format!(
                    "{code}\t{} ({} plies)\t{}",
                    list.join(" "),
                    rep.depth,
                    rep.moves
                ),
                code,
                fen: fen.to_string(),
                score_pct: tally.score_pct(),
                tally,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.tally
            .games
            .cmp(&a.tally.games)
            .then(b.depth.cmp(&a.depth))
            .then_with(|| a.moves.cmp(&b.moves))
    });
    out.truncate(top);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::testutil::line;

    /// Six games: (positions, first mover, result, plies).
    fn games() -> Vec<(Vec<Position>, Color, Option<GameResult>, usize)> {
        vec![
            (
                line(Color::White, &["c3-d4", "f6-g5", "a3-b4", "g7-f6", "b2-c3"]),
                Color::White,
                Some(GameResult::WhiteWin),
                5,
            ),
            (
                line(Color::White, &["a3-b4", "f6-g5", "c3-d4", "g7-f6"]),
                Color::White,
                Some(GameResult::BlackWin),
                4,
            ),
            (
                line(Color::Black, &["f6-e5", "c3-b4", "h6-g5", "b2-c3", "g7-f6"]),
                Color::Black,
                Some(GameResult::BlackWin),
                5,
            ),
            (
                line(Color::White, &["c3-d4", "f6-e5", "d4xf6", "g7xe5"]),
                Color::White,
                Some(GameResult::Draw),
                4,
            ),
            (
                line(Color::White, &["c3-d4", "d6-e5"]),
                Color::White,
                Some(GameResult::Unknown),
                2,
            ),
            (
                line(Color::White, &["e3-f4"]),
                Color::White,
                Some(GameResult::WhiteWin),
                1,
            ),
        ]
    }

    #[test]
    fn tally_counts_results_as_written_and_by_first_mover() {
        let mut t = Tally::default();
        t.add(Color::White, Some(GameResult::WhiteWin), 10);
        t.add(Color::Black, Some(GameResult::WhiteWin), 20);
        t.add(Color::Black, Some(GameResult::Draw), 30);
        t.add(Color::White, Some(GameResult::BothLose), 40);
        assert_eq!((t.games, t.white_wins, t.draws, t.unknown), (4, 2, 1, 1));
        assert_eq!((t.white_first, t.black_first), (2, 2));
        assert_eq!((t.first_mover_wins, t.second_mover_wins), (1, 1));
        // (1 + 0.5) / 3 decided games
        assert_eq!(t.score_pct(), Some(50.0));
        assert_eq!(t.avg_plies(), Some(25.0));
        assert_eq!(Tally::default().score_pct(), None);
    }

    #[test]
    fn split_and_merged_statistics_equal_the_whole() {
        let book = Book::builtin();
        let mut whole = OpeningStats::new(&book, 3);
        for (p, c, r, n) in games() {
            whole.add_game(&p, c, r, n);
        }
        let want = whole.rows(1);
        for split in 0..=6 {
            let (mut a, mut b) = (OpeningStats::new(&book, 3), OpeningStats::new(&book, 3));
            for (i, (p, c, r, n)) in games().into_iter().enumerate() {
                // Interleave so the two halves create tree nodes in different orders.
                let target = if (i + split) % 3 == 0 { &mut a } else { &mut b };
                target.add_game(&p, c, r, n);
            }
            let (ra, rb) = (a.rows(1), b.rows(1));
            a.merge(b);
            assert_eq!(a.rows(1), want, "in-memory merge, split {split}");
            assert_eq!(merge_rows(vec![ra.clone(), rb.clone()], 1).unwrap(), want);
            assert_eq!(merge_rows(vec![rb, ra], 2).unwrap(), whole.rows(2));
        }
        // The hand counts (see tests/tests/end_to_end/openings_cli.rs for the same archive end to end).
        let all = &want[0];
        assert_eq!(
            (all.tally.games, all.tally.first_mover_wins, all.score_pct),
            (6, 3, Some(70.0))
        );
        let a = want
            .iter()
            .find(|r| r.code == "a3b4.f6g5.c3d4.g7f6")
            .unwrap();
        assert_eq!(
            (a.kind, a.tally.games, a.tally.black_first),
            (RowKind::Opening, 3, 1)
        );
    }

    #[test]
    fn merge_refuses_filtered_or_mismatched_parts() {
        let book = Book::builtin();
        let mut s = OpeningStats::new(&book, 3);
        for (p, c, r, n) in games() {
            s.add_game(&p, c, r, n);
        }
        let filtered = s.rows(2);
        let plain = s.rows(1);
        assert_eq!(
            merge_rows(vec![plain.clone(), filtered], 1),
            Err(MergeError::Filtered {
                part: 2,
                min_games: 2
            })
        );
        let mut deeper = OpeningStats::new(&book, 5);
        deeper.add_game(&games()[0].0, Color::White, None, 5);
        assert!(matches!(
            merge_rows(vec![plain.clone(), deeper.rows(1)], 1),
            Err(MergeError::Mismatch {
                part: 2,
                what: "--plies",
                ..
            })
        ));
        let other = Book::parse("X\tx\t1. c3-d4 d6-e5\n").unwrap();
        let mut s2 = OpeningStats::new(&other, 3);
        s2.add_game(&games()[0].0, Color::White, None, 5);
        assert!(matches!(
            merge_rows(vec![plain, s2.rows(1)], 1),
            Err(MergeError::Mismatch { what: "book", .. })
        ));
    }

    #[test]
    fn merge_refuses_a_repeated_or_missing_shard() {
        let book = Book::builtin();
        let mut s = OpeningStats::new(&book, 3);
        for (p, c, r, n) in games() {
            s.add_game(&p, c, r, n);
        }
        let part = |shard: Option<&str>| {
            let mut rows = s.rows(1);
            rows[0].shard = shard.map(str::to_string);
            rows
        };
        let merged = merge_rows(vec![part(Some("2/2")), part(Some("1/2"))], 1).unwrap();
        assert_eq!(merged[0].tally.games, 2 * s.rows(1)[0].tally.games);
        assert_eq!(merged[0].shard, None);
        let error = |parts| match merge_rows(parts, 1) {
            Err(MergeError::Shards(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            error(vec![
                part(Some("1/3")),
                part(Some("3/3")),
                part(Some("1/3"))
            ]),
            "parts 1 and 3 are both shard 1/3: a part given twice would count its games twice"
        );
        assert_eq!(
            error(vec![part(Some("1/4")), part(Some("3/4"))]),
            "shards 2/4, 4/4 missing: the merged table would leave out their games"
        );
        assert!(error(vec![part(Some("1/2")), part(Some("2/3"))]).contains("a shard of 2"));
        assert!(error(vec![part(Some("1/2")), part(None)]).contains("part 2 is a whole run"));
        // Unsharded runs (of different archives) add up as before.
        assert!(merge_rows(vec![part(None), part(None)], 1).is_ok());
    }

    /// The statistics of [`games`] with a tree of 3 plies: (rows, the JSON Lines text).
    fn part() -> (Vec<StatsRow>, String) {
        let book = Book::builtin();
        let mut s = OpeningStats::new(&book, 3);
        for (p, c, r, n) in games() {
            s.add_game(&p, c, r, n);
        }
        let rows = s.rows(1);
        let mut text = String::new();
        for r in &rows {
            text.push_str(&serde_json::to_string(r).unwrap());
            text.push('\n');
        }
        text.push_str(&serde_json::to_string(&TableEnd::of(&rows)).unwrap());
        text.push('\n');
        (rows, text)
    }

    #[test]
    fn a_part_is_read_whole_or_refused() {
        let (rows, text) = part();
        assert_eq!(parse_part(&text).unwrap(), rows);
        let end = text.lines().last().unwrap();
        assert_eq!(
            end,
            format!("{{\"kind\":\"end\",\"games\":6,\"rows\":{}}}", rows.len())
        );
        // Cut at a line end (anywhere: the closing line goes first), or inside a line.
        let lines: Vec<&str> = text.lines().collect();
        for keep in 0..lines.len() {
            let cut = lines[..keep].join("\n");
            assert_eq!(parse_part(&cut), Err(PartError::NoEnd), "{keep} lines");
        }
        let mid = &text[..text.len() - end.len() - 10];
        assert!(matches!(
            parse_part(mid),
            Err(PartError::NotARow { line, .. }) if line == lines.len() - 1
        ));
        // A line dropped or repeated before the closing line.
        let mut dropped = lines.clone();
        dropped.remove(2);
        assert_eq!(
            parse_part(&dropped.join("\n")),
            Err(PartError::EndMismatch {
                what: "rows",
                said: rows.len() as u64,
                found: rows.len() as u64 - 1
            })
        );
        let twice = format!("{text}{text}");
        assert_eq!(
            parse_part(&twice),
            Err(PartError::AfterEnd {
                line: lines.len() + 1
            })
        );
    }

    #[test]
    fn merge_refuses_repeated_rows_overflows_and_parts_that_do_not_add_up() {
        let (rows, _) = part();
        // A repeated row.
        let mut repeated = rows.clone();
        repeated.push(rows[3].clone());
        assert_eq!(
            merge_rows(vec![rows.clone(), repeated], 1),
            Err(MergeError::RepeatedRow {
                part: 2,
                row: rows[3].label()
            })
        );
        // Counts that would wrap past 2^64: each part adds up, their sum does not fit.
        let huge = |rows: &[StatsRow]| -> Vec<StatsRow> {
            rows.iter()
                .cloned()
                .map(|mut r| {
                    let t = &mut r.tally;
                    for c in [
                        &mut t.games,
                        &mut t.white_wins,
                        &mut t.draws,
                        &mut t.black_wins,
                        &mut t.unknown,
                        &mut t.white_first,
                        &mut t.black_first,
                        &mut t.first_mover_wins,
                        &mut t.second_mover_wins,
                    ] {
                        *c <<= 61;
                    }
                    r
                })
                .collect()
        };
        assert!(merge_rows(vec![huge(&rows)], 1).is_ok());
        assert_eq!(
            merge_rows(vec![huge(&rows), huge(&rows)], 1),
            Err(MergeError::Overflow {
                part: 2,
                row: "the all row".to_string()
            })
        );
        // Rows that do not add up: an opening left out, a row's own counts, a tree line with
        // more games than its parent, a tree line without its parent.
        let error = |rows: Vec<StatsRow>| match merge_rows(vec![rows], 1) {
            Err(MergeError::Inconsistent { part: 1, reason }) => reason,
            other => panic!("{other:?}"),
        };
        let opening = rows
            .iter()
            .position(|r| r.kind == RowKind::Opening)
            .unwrap();
        let mut fewer = rows.clone();
        let gone = fewer.remove(opening).tally.games;
        assert_eq!(
            error(fewer),
            format!("its openings hold {} games, its all row 6", 6 - gone)
        );
        let mut odd = rows.clone();
        odd[opening].tally.draws += 1;
        assert!(error(odd).contains("results"));
        let tree = |depth: usize| {
            rows.iter()
                .position(|r| r.kind == RowKind::Tree && r.depth == depth)
                .unwrap()
        };
        let mut more = rows.clone();
        let t = &mut more[tree(2)].tally;
        t.games += 10;
        t.unknown += 10;
        t.white_first += 10;
        assert!(error(more).contains("more than its"));
        let mut orphan = rows.clone();
        orphan.remove(tree(1));
        assert!(error(orphan).contains("has no row for its parent line"));
    }

    #[test]
    fn discover_groups_transpositions_and_prefers_the_longer_line() {
        let book = Book::parse("X\tx\t1. e3-f4\n").unwrap();
        let mut s = OpeningStats::new(&book, 6);
        for (p, c, r, n) in games() {
            s.add_game(&p, c, r, n);
        }
        let found = discover(&s.rows(1), 10, 2);
        // Games 1, 2 and 3 reach one position at ply 4 by two move orders; 1 and 3 go on with
        // b2-c3 (so the 4-ply position, with 3 games, stays; its 3-ply prefixes are
        // followed by as many games and are left out).
        let moves: Vec<(&str, u64)> = found
            .iter()
            .map(|c| (c.moves.as_str(), c.tally.games))
            .collect();
        assert_eq!(
            moves,
            [
                ("1. c3-d4 f6-g5 2. a3-b4 g7-f6", 3),
                ("1. c3-d4 f6-g5 2. a3-b4 g7-f6 3. b2-c3", 2),
            ]
        );
        assert_eq!(found[0].code, "c3d4.f6g5.a3b4.g7f6");
    }
}
