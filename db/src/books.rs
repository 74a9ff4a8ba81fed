//! The named openings drafti ships for Russian draughts: the classical openings (each checked
//! against two published sources) and the two drawing tables of 64-square micro-match play
//! (FMJD and IDF), read from the files of `db/data/` that name their sources.

use drafti_archive::openings::{Book, BookError};
use drafti_rules::{Bitboard, Color, Position, Variant};

/// The classical Russian openings (`db/data/russian-openings.tsv`).
pub const RUSSIAN_OPENINGS_TSV: &str = include_str!("../data/russian-openings.tsv");
/// The FMJD drawing table's move ballots (`db/data/fmjd-64.tsv`).
pub const FMJD_TSV: &str = include_str!("../data/fmjd-64.tsv");
/// The FMJD drawing table's start-position ballots (`db/data/fmjd-64-positions.tsv`).
pub const FMJD_POSITIONS_TSV: &str = include_str!("../data/fmjd-64-positions.tsv");
/// The IDF drawing table 64, basic positions (`db/data/idf-64.tsv`).
pub const IDF_TSV: &str = include_str!("../data/idf-64.tsv");

/// A ballot that is a start position rather than moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBallot {
    /// The code, e.g. `11-IV`.
    pub code: String,
    /// The men moved from the standard start, e.g. `a1-a5 a7-h4`.
    pub relocations: String,
    /// The position.
    pub position: Position,
}

/// The books a game is named by (Russian games only).
#[derive(Clone, Debug)]
pub struct Books {
    /// The classical openings.
    pub openings: Book,
    /// The FMJD table's move ballots.
    pub fmjd: Book,
    /// The FMJD table's start-position ballots.
    pub fmjd_positions: Vec<PositionBallot>,
    /// The IDF table.
    pub idf: Book,
}

/// A row of a shipped book that does not read: a build whose data files are broken.
#[derive(Debug, thiserror::Error)]
#[error("db/data/{file}: {message}")]
pub struct BooksError {
    /// The file.
    pub file: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Books {
    /// The shipped books. They are checked by the crate's tests, so this fails only on a
    /// build whose data files were changed without running them.
    pub fn shipped() -> Result<Books, BooksError> {
        let book = |file: &'static str, text: &str| {
            Book::parse_for(text, Variant::Russian).map_err(|e: BookError| BooksError {
                file,
                message: e.to_string(),
            })
        };
        Ok(Books {
            openings: book("russian-openings.tsv", RUSSIAN_OPENINGS_TSV)?,
            fmjd: book("fmjd-64.tsv", FMJD_TSV)?,
            fmjd_positions: position_ballots(FMJD_POSITIONS_TSV)?,
            idf: book("idf-64.tsv", IDF_TSV)?,
        })
    }

    /// No named openings (what an index built without them holds).
    pub fn empty() -> Books {
        Books {
            openings: Book::new(),
            fmjd: Book::new(),
            fmjd_positions: Vec::new(),
            idf: Book::new(),
        }
    }

    /// The FMJD start-position ballot of a game that starts at `start`: the one with the same
    /// pieces (the side to move is not compared).
    pub fn fmjd_start(&self, start: &Position) -> Option<usize> {
        self.fmjd_positions.iter().position(|b| {
            b.position.pieces(Color::White) == start.pieces(Color::White)
                && b.position.pieces(Color::Black) == start.pieces(Color::Black)
                && start.kings(Color::White).is_empty()
                && start.kings(Color::Black).is_empty()
        })
    }

    /// A fingerprint of the books (an index says which books named its games).
    pub fn fingerprint(&self) -> String {
        format!(
            "{}-{}-{}-{}",
            self.openings.fingerprint(),
            self.fmjd.fingerprint(),
            self.fmjd_positions.len(),
            self.idf.fingerprint()
        )
    }

    /// The FMJD code of a game's ballot number as the record keeps it: move ballots first,
    /// then the start-position ballots.
    pub fn fmjd_code(&self, number: u16) -> Option<&str> {
        let n = number as usize;
        let moves = self.fmjd.entries();
        match moves.get(n) {
            Some(e) => Some(&e.code),
            None => self
                .fmjd_positions
                .get(n - moves.len())
                .map(|b| b.code.as_str()),
        }
    }
}

fn position_ballots(text: &str) -> Result<Vec<PositionBallot>, BooksError> {
    let bad = |line: usize, message: String| BooksError {
        file: "fmjd-64-positions.tsv",
        message: format!("line {line}: {message}"),
    };
    let mut out = Vec::new();
    for (i, row) in text.lines().enumerate() {
        let row = row.trim_end_matches('\r');
        if row.trim().is_empty() || row.starts_with('#') || row.starts_with("code\t") {
            continue;
        }
        let cols: Vec<&str> = row.split('\t').collect();
        let [code, relocations, fen] = cols[..] else {
            return Err(bad(
                i + 1,
                format!("expected 3 columns, found {}", cols.len()),
            ));
        };
        let position = Position::from_fen(fen).map_err(|e| bad(i + 1, e.to_string()))?;
        let made = relocate(relocations)
            .ok_or_else(|| bad(i + 1, format!("cannot read '{relocations}'")))?;
        if made.pieces(Color::White) != position.pieces(Color::White)
            || made.pieces(Color::Black) != position.pieces(Color::Black)
        {
            return Err(bad(i + 1, format!("'{relocations}' does not make {fen}")));
        }
        out.push(PositionBallot {
            code: code.to_string(),
            relocations: relocations.to_string(),
            position,
        });
    }
    Ok(out)
}

/// The standard start with the men named moved at once (`a1-a5 a7-h4`; `-----` moves none).
fn relocate(text: &str) -> Option<Position> {
    let start = Position::start(Color::White);
    let (mut white, mut black) = (start.pieces(Color::White).0, start.pieces(Color::Black).0);
    let mut moves = Vec::new();
    for word in text.split_whitespace().filter(|w| *w != "-----") {
        let (a, b) = word.split_once('-')?;
        let (a, b) = (
            drafti_rules::Square::parse(a).ok()?,
            drafti_rules::Square::parse(b).ok()?,
        );
        moves.push((a, b));
    }
    let mut to_white = 0;
    let mut to_black = 0;
    for (a, b) in &moves {
        let bit = 1u32 << a.index();
        if start.pieces(Color::White).0 & bit != 0 {
            white &= !bit;
            to_white |= 1u32 << b.index();
        } else if start.pieces(Color::Black).0 & bit != 0 {
            black &= !bit;
            to_black |= 1u32 << b.index();
        } else {
            return None;
        }
    }
    Position::from_parts(
        Bitboard(white | to_white),
        Bitboard(black | to_black),
        Bitboard(0),
        Color::White,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_books_read_and_name_transpositions() {
        let books = Books::shipped().unwrap();
        assert_eq!(books.openings.len(), 6);
        assert_eq!(books.fmjd.len(), 344);
        assert_eq!(books.fmjd_positions.len(), 392);
        assert_eq!(books.idf.len(), 148);
        // 1. cd4 fg5 2. bc3 dc5 reaches the Gorodskaya partiya by another move order.
        let mut pos = Position::start(Color::White);
        for text in ["c3-d4", "f6-g5", "b2-c3", "d6-c5"] {
            pos = pos.play(&pos.parse_move(Variant::Russian, text).unwrap()[0]);
        }
        assert_eq!(books.openings.lookup(&pos).unwrap().code, "GOR");
        assert_eq!(books.fmjd_code(0), Some("1-I"));
        assert_eq!(books.fmjd_code(344), Some("11-IV"));
        let start = Position::from_fen(&books.fmjd_positions[0].position.to_fen()).unwrap();
        assert_eq!(books.fmjd_start(&start), Some(0));
    }
}
