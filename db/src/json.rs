//! The JSON shapes of the database's answers (one serde type per concept, used by the commands'
//! `--json` and by the Python package): a game, the counts of a set of games, an explorer
//! row, a found game, a twin. docs/json.md documents them.

use crate::explore::{Explored, Found, Stats};
use crate::find::{Match, Twin, TwinKind};
use crate::format::IndexError;
use crate::index::Index;
use drafti_rules::Position;
use serde::{Deserialize, Serialize};

/// A game of the archive, as answers name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRef {
    /// Its number in the archive, from 0 (across the inputs).
    pub id: u64,
    /// The input it is in.
    pub file: String,
    /// Its number in that input, from 1.
    pub number: u64,
    /// The White tag (`""` when none).
    pub white: String,
    /// The Black tag.
    pub black: String,
    /// The Event tag.
    pub event: String,
    /// The date, `yyyy.mm.dd` with `??` for what is unknown (`""` when none).
    pub date: String,
    /// The result as written (`""` when none).
    pub result: String,
    /// Plies replayed.
    pub plies: u16,
}

/// `yyyymmdd` as PDN writes a date.
pub fn date_text(date: u32) -> String {
    if date == 0 {
        return String::new();
    }
    let part = |v: u32| {
        if v == 0 {
            "??".to_string()
        } else {
            format!("{v:02}")
        }
    };
    format!(
        "{:04}.{}.{}",
        date / 10000,
        part(date / 100 % 100),
        part(date % 100)
    )
}

impl GameRef {
    /// The game `id` of `index`.
    pub fn of(index: &Index, id: u64) -> Result<GameRef, IndexError> {
        let local = index.local_of(id).ok_or_else(|| {
            IndexError::damaged(index.path(), format!("game {id} is not in this index"))
        })?;
        let r = index.record(local)?;
        let (file, number) = index.place(id);
        Ok(GameRef {
            id,
            file,
            number,
            white: index.string(r.white)?.to_string(),
            black: index.string(r.black)?.to_string(),
            event: index.string(r.event)?.to_string(),
            date: date_text(r.date),
            result: r.outcome.as_str().to_string(),
            plies: r.plies,
        })
    }
}

/// The counts of a set of games, as every answer gives them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsJson {
    /// Games.
    pub games: u64,
    /// Games won by White as written (1-0).
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games won by Black (0-1).
    pub black_wins: u64,
    /// Games with `*`, `0-0` or no result.
    pub unknown: u64,
    /// Games won by the side that moved first.
    pub first_mover_wins: u64,
    /// Games won by the other side.
    pub second_mover_wins: u64,
    /// The first mover's score in percent over games with a result (as `drafti openings`).
    pub score_pct: Option<f64>,
    /// The average of the games' ratings (WhiteElo/BlackElo), when some game has them.
    pub avg_rating: Option<u32>,
    /// The latest date of the games, `yyyy.mm.dd`.
    pub last_date: Option<String>,
}

impl From<&Stats> for StatsJson {
    fn from(s: &Stats) -> StatsJson {
        let t = &s.tally;
        StatsJson {
            games: t.games,
            white_wins: t.white_wins,
            draws: t.draws,
            black_wins: t.black_wins,
            unknown: t.unknown,
            first_mover_wins: t.first_mover_wins,
            second_mover_wins: t.second_mover_wins,
            score_pct: t.score_pct(),
            avg_rating: s.avg_rating(),
            last_date: (s.last_date != 0).then(|| date_text(s.last_date)),
        }
    }
}

/// A name the books give a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameJson {
    /// `opening` (the Russian openings), `fmjd` or `idf` (the drawing tables).
    pub book: String,
    /// The code.
    pub code: String,
    /// The name.
    pub name: String,
}

/// What an explorer line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExploreKind {
    /// The position asked about: every game that reached it.
    Position,
    /// A move played from it.
    Move,
}

/// One line of `drafti explore --json`: the position, then one per move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreRow {
    /// `position` or `move`.
    pub kind: ExploreKind,
    /// The move (short notation), `null` on the position line; `"(end)"` for the games
    /// that ended there or whose indexed plies did.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The position (numeric FEN, as if White had started), after the move on a move line.
    pub fen: String,
    /// The rules: `tz`, `czech` or `russian`.
    pub variant: String,
    /// The counts.
    #[serde(flatten)]
    pub stats: StatsJson,
    /// The names the books give the position (position line) or the position after the
    /// move (move line).
    pub names: Vec<NameJson>,
    /// How the position was found: `index`, `line` (from the games of the line's last
    /// indexed position) or `scan` (by replaying the games); on the position line only.
    pub found: Option<String>,
    /// The move's games (at most `--games`), on move lines.
    pub game_list: Vec<GameRef>,
}

/// The lines of an explorer answer.
pub fn explore_rows(
    index: &Index,
    books: &crate::Books,
    seen: &Explored,
    numeric: bool,
) -> Result<Vec<ExploreRow>, IndexError> {
    let names = |p: &Position| {
        crate::explore::names_of(books, p, seen.variant)
            .into_iter()
            .map(|(book, code, name)| NameJson {
                book: book.to_string(),
                code,
                name,
            })
            .collect()
    };
    let variant = seen.variant.name().to_string();
    let mut rows = vec![ExploreRow {
        kind: ExploreKind::Position,
        mv: None,
        fen: seen.position.to_fen(),
        variant: variant.clone(),
        stats: StatsJson::from(&seen.stats),
        names: names(&seen.position),
        found: Some(
            match seen.found {
                Found::Index => "index",
                Found::Line => "line",
                Found::Scan => "scan",
            }
            .to_string(),
        ),
        game_list: Vec::new(),
    }];
    let legal = seen.position.legal_moves(seen.variant);
    for m in &seen.moves {
        let after = m.mv.map(|mv| seen.position.play(&mv));
        rows.push(ExploreRow {
            kind: ExploreKind::Move,
            mv: Some(m.mv.map_or("(end)".to_string(), |mv| mv.notation(&legal, numeric))),
            fen: after.map_or_else(|| seen.position.to_fen(), |p| p.to_fen()),
            variant: variant.clone(),
            stats: StatsJson::from(&m.stats),
            names: after.map_or_else(Vec::new, |p| names(&p)),
            found: None,
            game_list: m
                .games
                .iter()
                .map(|&id| GameRef::of(index, id))
                .collect::<Result<_, _>>()?,
        });
    }
    Ok(rows)
}

/// One line of `drafti find --json`: a game found, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundGame {
    /// The game.
    #[serde(flatten)]
    pub game: GameRef,
    /// The first ply where the position, material or pattern holds (`null` for tags only).
    pub ply: Option<usize>,
    /// The position there (numeric FEN).
    pub fen: Option<String>,
}

impl FoundGame {
    /// The line of a match.
    pub fn of(index: &Index, m: &Match) -> Result<FoundGame, IndexError> {
        let fen = match (m.ply, m.position) {
            (None, _) => None,
            (Some(_), Some(position)) => Some(position.to_fen()),
            (Some(ply), None) => {
                let local = index.local_of(m.id).ok_or_else(|| {
                    IndexError::damaged(index.path(), "a match outside the index")
                })?;
                let mut out = None;
                index.replay(local, |p, pos, _| {
                    if p == ply {
                        out = Some(pos.to_fen());
                    }
                    p < ply
                })?;
                out
            }
        };
        Ok(FoundGame {
            game: GameRef::of(index, m.id)?,
            ply: m.ply,
            fen,
        })
    }
}

/// One line of `drafti find --twins --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwinJson {
    /// `identical` or `contained`.
    pub twin: String,
    /// The repeating game.
    pub game: GameRef,
    /// The game it repeats.
    pub of: GameRef,
}

impl TwinJson {
    /// The line of a twin.
    pub fn of(index: &Index, t: &Twin) -> Result<TwinJson, IndexError> {
        Ok(TwinJson {
            twin: match t.kind {
                TwinKind::Identical => "identical",
                TwinKind::Contained => "contained",
            }
            .to_string(),
            game: GameRef::of(index, t.id)?,
            of: GameRef::of(index, t.of)?,
        })
    }
}

/// What `drafti index info --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexInfo {
    /// The meta section.
    #[serde(flatten)]
    pub meta: crate::write::Meta,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Bytes per game of the archive.
    pub bytes_per_game: Option<f64>,
    /// Bytes of each section.
    pub sections: Vec<(String, u64)>,
}

impl IndexInfo {
    /// The information of `index`.
    pub fn of(index: &Index) -> IndexInfo {
        let bytes = index.file_bytes();
        let games = index.local_games();
        IndexInfo {
            meta: index.meta().clone(),
            bytes,
            bytes_per_game: (games > 0)
                .then(|| (bytes as f64 / games as f64 * 10.0).round() / 10.0),
            sections: index
                .section_bytes()
                .into_iter()
                .map(|(n, b)| (n.to_string(), b))
                .collect(),
        }
    }
}
