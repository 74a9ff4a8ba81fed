//! The game table: one fixed-size record per game with what a query filters on (tags as
//! string ids, date, ratings, result, variant) and what lets a search skip a game without
//! replaying it (final material, the most kings, the range of the material balance, men on
//! the home rows, the number of plies).

use crate::bits::Truncated;
use crate::key::{variant_code, variant_from_code};
use drafti_pdn::GameResult;
use drafti_rules::{Color, Position, Variant};

/// The bytes of one record in the full layout ([`RecordLayout::FULL`]).
pub const RECORD_SIZE: usize = 37;

/// No string, no opening.
pub const NONE_U32: u32 = u32::MAX;
/// No opening or ballot.
pub const NONE_U16: u16 = u16::MAX;

/// The result a record states, as the index keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// No result in the record.
    None,
    /// 1-0 (or 2-0).
    WhiteWin,
    /// 1/2-1/2 (or 1-1).
    Draw,
    /// 0-1 (or 0-2).
    BlackWin,
    /// `*`.
    Unknown,
    /// 0-0: both lose.
    BothLose,
}

impl Outcome {
    /// The outcome of a parsed result.
    pub fn of(result: Option<GameResult>) -> Outcome {
        match result {
            None => Outcome::None,
            Some(GameResult::WhiteWin) => Outcome::WhiteWin,
            Some(GameResult::Draw) => Outcome::Draw,
            Some(GameResult::BlackWin) => Outcome::BlackWin,
            Some(GameResult::Unknown) => Outcome::Unknown,
            Some(GameResult::BothLose) => Outcome::BothLose,
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Outcome::None => 0,
            Outcome::WhiteWin => 1,
            Outcome::Draw => 2,
            Outcome::BlackWin => 3,
            Outcome::Unknown => 4,
            Outcome::BothLose => 5,
        }
    }

    pub(crate) fn from_code(code: u8) -> Option<Outcome> {
        Some(match code {
            0 => Outcome::None,
            1 => Outcome::WhiteWin,
            2 => Outcome::Draw,
            3 => Outcome::BlackWin,
            4 => Outcome::Unknown,
            5 => Outcome::BothLose,
            _ => return None,
        })
    }

    /// The result as PDN writes it (`""` for none).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::None => "",
            Outcome::WhiteWin => "1-0",
            Outcome::Draw => "1/2-1/2",
            Outcome::BlackWin => "0-1",
            Outcome::Unknown => "*",
            Outcome::BothLose => "0-0",
        }
    }

    /// The side that won, if one did.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::WhiteWin => Some(Color::White),
            Outcome::BlackWin => Some(Color::Black),
            _ => None,
        }
    }
}

/// Men and kings of each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// The material of `position`.
    #[inline]
    pub fn of(position: &Position) -> Material {
        Material {
            white_men: position.men(Color::White).count() as u8,
            white_kings: position.kings(Color::White).count() as u8,
            black_men: position.men(Color::Black).count() as u8,
            black_kings: position.kings(Color::Black).count() as u8,
        }
    }

    /// White's pieces minus Black's.
    #[inline]
    pub fn balance(&self) -> i8 {
        (self.white_men + self.white_kings) as i8 - (self.black_men + self.black_kings) as i8
    }
}

/// Men of each side on its own home row (White's row 1, Black's row 8).
#[inline]
pub fn home_men(position: &Position) -> (u8, u8) {
    const ROW_1: u32 = 0xF000_0000;
    const ROW_8: u32 = 0x0000_000F;
    (
        (position.men(Color::White).0 & ROW_1).count_ones() as u8,
        (position.men(Color::Black).0 & ROW_8).count_ones() as u8,
    )
}

/// One game of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The date as `yyyymmdd` (`00` for an unknown month or day; 0 when unknown).
    pub date: u32,
    /// The White player (a string id; `NONE_U32` for none).
    pub white: u32,
    /// The Black player.
    pub black: u32,
    /// The Event.
    pub event: u32,
    /// WhiteElo (0: none).
    pub white_elo: u16,
    /// BlackElo (0: none).
    pub black_elo: u16,
    /// Mainline plies replayed (at most 65,535 are kept).
    pub plies: u16,
    /// The result the record states.
    pub outcome: Outcome,
    /// Who moved first.
    pub first_mover: Color,
    /// The rules it was replayed under.
    pub variant: Variant,
    /// The record could not be parsed: nothing else is known.
    pub unreadable: bool,
    /// Replay stopped at an error before the last written move.
    pub stopped: bool,
    /// The material of the last position replayed.
    pub last: Material,
    /// The most kings White had at once.
    pub max_white_kings: u8,
    /// The most kings Black had at once.
    pub max_black_kings: u8,
    /// White's men on row 1 at the end.
    pub white_home_men: u8,
    /// Black's men on row 8 at the end.
    pub black_home_men: u8,
    /// The smallest material balance (White's pieces minus Black's) of the game.
    pub min_balance: i8,
    /// The largest.
    pub max_balance: i8,
    /// The named opening (an entry of [`Books::openings`](crate::Books); `NONE_U16`).
    pub opening: u16,
    /// The FMJD drawing-table ballot (an entry of the FMJD table; `NONE_U16`).
    pub fmjd: u16,
    /// The IDF drawing-table ballot.
    pub idf: u16,
    /// Bytes of the game's packed moves.
    pub moves_len: u16,
}

impl GameInfo {
    /// The record of a game that could not be parsed.
    pub fn unreadable() -> GameInfo {
        GameInfo {
            date: 0,
            white: NONE_U32,
            black: NONE_U32,
            event: NONE_U32,
            white_elo: 0,
            black_elo: 0,
            plies: 0,
            outcome: Outcome::None,
            first_mover: Color::White,
            variant: Variant::Tanzanian,
            unreadable: true,
            stopped: false,
            last: Material::default(),
            max_white_kings: 0,
            max_black_kings: 0,
            white_home_men: 0,
            black_home_men: 0,
            min_balance: 0,
            max_balance: 0,
            opening: NONE_U16,
            fmjd: NONE_U16,
            idf: NONE_U16,
            moves_len: 0,
        }
    }

    /// The record's bytes in the full layout (every field, 4-byte name ids).
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = Vec::with_capacity(RECORD_SIZE);
        RecordLayout::FULL.put(self, &mut out);
        out.try_into().expect("the full layout's size")
    }

    /// A record from its bytes in the full layout; `None` when a field holds a value no
    /// record has.
    pub fn from_bytes(bytes: &[u8]) -> Option<GameInfo> {
        RecordLayout::FULL.get(bytes)
    }

    /// The average of the ratings the record gives (one or both), if any.
    pub fn rating(&self) -> Option<u16> {
        match (self.white_elo, self.black_elo) {
            (0, 0) => None,
            (w, 0) => Some(w),
            (0, b) => Some(b),
            (w, b) => Some(((w as u32 + b as u32) / 2) as u16),
        }
    }
}

/// The fields a game table's records hold, sized to the archive: name ids as wide as the
/// names need, and dates, ratings and book names only when some game has one. Every record
/// of a table has the same size, so that record N is found without reading the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordLayout {
    /// Bytes of each name id (White, Black, Event): 0 (no names) to 4.
    pub name_bytes: u8,
    /// Whether records hold a date.
    pub dates: bool,
    /// Whether records hold the players' ratings.
    pub ratings: bool,
    /// Whether records hold the named opening and the two ballots.
    pub books: bool,
}

impl RecordLayout {
    /// Every field, 4-byte name ids ([`RECORD_SIZE`] bytes).
    pub const FULL: RecordLayout = RecordLayout {
        name_bytes: 4,
        dates: true,
        ratings: true,
        books: true,
    };

    /// The smallest layout: no names, dates, ratings or books (widened by [`RecordLayout::take`]).
    pub fn for_names(names: usize) -> RecordLayout {
        let name_bytes = match names {
            0 => 0,
            n if n < 0xFF => 1,
            n if n < 0xFFFF => 2,
            n if n < 0xFF_FFFF => 3,
            _ => 4,
        };
        RecordLayout {
            name_bytes,
            dates: false,
            ratings: false,
            books: false,
        }
    }

    /// Widens the layout to hold what `r` has.
    pub fn take(&mut self, r: &GameInfo) {
        self.dates |= r.date != 0;
        self.ratings |= r.white_elo != 0 || r.black_elo != 0;
        self.books |= r.opening != NONE_U16 || r.fmjd != NONE_U16 || r.idf != NONE_U16;
    }

    /// Joins two layouts (the parts of a sharded build).
    pub fn join(self, o: RecordLayout) -> RecordLayout {
        RecordLayout {
            name_bytes: self.name_bytes.max(o.name_bytes),
            dates: self.dates || o.dates,
            ratings: self.ratings || o.ratings,
            books: self.books || o.books,
        }
    }

    /// Whether a table of `names` names can use it.
    pub fn fits(&self, names: u32) -> bool {
        self.name_bytes == 4 || self.name_bytes < 4 && names <= self.no_name()
    }

    /// The bytes of a record.
    pub fn size(&self) -> usize {
        11 + 3 * self.name_bytes as usize
            + 4 * self.dates as usize
            + 4 * self.ratings as usize
            + 6 * self.books as usize
    }

    /// The id that stands for no name.
    fn no_name(&self) -> u32 {
        match self.name_bytes {
            0 => 0,
            4 => u32::MAX,
            w => (1u32 << (8 * w as u32)) - 1,
        }
    }

    /// Appends `r`'s record (fields the layout leaves out are dropped: the caller made the
    /// layout from every record with [`take`](Self::take)).
    pub fn put(&self, r: &GameInfo, out: &mut Vec<u8>) {
        if self.dates {
            out.extend_from_slice(&r.date.to_le_bytes());
        }
        let w = self.name_bytes as usize;
        for id in [r.white, r.black, r.event] {
            let id = if id == NONE_U32 { self.no_name() } else { id };
            out.extend_from_slice(&id.to_le_bytes()[..w]);
        }
        if self.ratings {
            out.extend_from_slice(&r.white_elo.to_le_bytes());
            out.extend_from_slice(&r.black_elo.to_le_bytes());
        }
        out.extend_from_slice(&r.plies.to_le_bytes());
        let flags = r.outcome.code()
            | ((r.first_mover == Color::Black) as u8) << 3
            | variant_code(r.variant) << 4
            | (r.unreadable as u8) << 6
            | (r.stopped as u8) << 7;
        out.push(flags);
        out.extend_from_slice(&[
            r.last.white_men << 4 | r.last.white_kings,
            r.last.black_men << 4 | r.last.black_kings,
            r.max_white_kings << 4 | r.max_black_kings,
            r.white_home_men << 4 | r.black_home_men,
            r.min_balance as u8,
            r.max_balance as u8,
        ]);
        if self.books {
            out.extend_from_slice(&r.opening.to_le_bytes());
            out.extend_from_slice(&r.fmjd.to_le_bytes());
            out.extend_from_slice(&r.idf.to_le_bytes());
        }
        out.extend_from_slice(&r.moves_len.to_le_bytes());
    }

    /// A record from its bytes; `None` when they are not [`size`](Self::size) long or a field
    /// holds a value no record has.
    pub fn get(&self, bytes: &[u8]) -> Option<GameInfo> {
        if bytes.len() != self.size() {
            return None;
        }
        // The length is checked: every read below is inside `bytes`.
        let mut at = 0usize;
        let mut le = |n: usize| -> u32 {
            let mut v = 0u32;
            for (k, &b) in bytes[at..at + n].iter().enumerate() {
                v |= (b as u32) << (8 * k);
            }
            at += n;
            v
        };
        let mut read = || -> Result<GameInfo, Truncated> {
            let date = if self.dates { le(4) } else { 0 };
            let mut names = [NONE_U32; 3];
            for name in &mut names {
                let id = le(self.name_bytes as usize);
                if id != self.no_name() {
                    *name = id;
                }
            }
            let (white_elo, black_elo) = if self.ratings {
                (le(2) as u16, le(2) as u16)
            } else {
                (0, 0)
            };
            let plies = le(2) as u16;
            let flags = le(1) as u8;
            let mut n = [0u8; 6];
            for x in &mut n {
                *x = le(1) as u8;
            }
            let (opening, fmjd, idf) = if self.books {
                (le(2) as u16, le(2) as u16, le(2) as u16)
            } else {
                (NONE_U16, NONE_U16, NONE_U16)
            };
            let moves_len = le(2) as u16;
            let outcome = Outcome::from_code(flags & 7).ok_or(Truncated)?;
            let variant = variant_from_code(flags >> 4 & 3).ok_or(Truncated)?;
            let hi = |b: u8| b >> 4;
            let lo = |b: u8| b & 15;
            let last = Material {
                white_men: hi(n[0]),
                white_kings: lo(n[0]),
                black_men: hi(n[1]),
                black_kings: lo(n[1]),
            };
            if last.white_men + last.white_kings > 12 || last.black_men + last.black_kings > 12 {
                return Err(Truncated);
            }
            Ok(GameInfo {
                date,
                white: names[0],
                black: names[1],
                event: names[2],
                white_elo,
                black_elo,
                plies,
                outcome,
                first_mover: if flags & 8 != 0 {
                    Color::Black
                } else {
                    Color::White
                },
                variant,
                unreadable: flags & 64 != 0,
                stopped: flags & 128 != 0,
                last,
                max_white_kings: hi(n[2]),
                max_black_kings: lo(n[2]),
                white_home_men: hi(n[3]),
                black_home_men: lo(n[3]),
                min_balance: n[4] as i8,
                max_balance: n[5] as i8,
                opening,
                fmjd,
                idf,
                moves_len,
            })
        };
        read().ok()
    }
}

/// A PDN date (`2007.11.24`, `1950.??.??`, `1950.`, or day first as `1.1.1965`) as
/// `yyyymmdd`, with `00` for what is not known; 0 when no year can be read.
///
/// ```
/// use drafti_db::parse_date;
/// assert_eq!(parse_date("2007.11.24"), 20071124);
/// assert_eq!(parse_date("1950.??.??"), 19500000);
/// assert_eq!(parse_date("1950."), 19500000);
/// assert_eq!(parse_date("1.1.1965"), 19650101);
/// assert_eq!(parse_date("????.??.??"), 0);
/// ```
pub fn parse_date(text: &str) -> u32 {
    let parts: Vec<&str> = text
        .trim()
        .split(['.', '-', '/'])
        .filter(|p| !p.is_empty())
        .collect();
    let num = |p: &str| -> Option<u32> {
        (p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let (y, m, d) = match parts.as_slice() {
        [] => return 0,
        [y, rest @ ..] if y.len() == 4 => (
            num(y),
            rest.first().and_then(|p| num(p)),
            rest.get(1).and_then(|p| num(p)),
        ),
        [d, m, y] if y.len() == 4 => (num(y), num(m), num(d)),
        _ => return 0,
    };
    let Some(y) = y.filter(|y| (1..=9999).contains(y)) else {
        return 0;
    };
    let m = m.filter(|m| (1..=12).contains(m)).unwrap_or(0);
    let d = d.filter(|d| (1..=31).contains(d) && m != 0).unwrap_or(0);
    y * 10000 + m * 100 + d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_refuse_impossible_fields() {
        let info = GameInfo {
            date: 19650101,
            white: 3,
            black: NONE_U32,
            event: 0,
            white_elo: 2100,
            black_elo: 0,
            plies: 71,
            outcome: Outcome::BlackWin,
            first_mover: Color::Black,
            variant: Variant::Russian,
            unreadable: false,
            stopped: true,
            last: Material {
                white_men: 1,
                white_kings: 2,
                black_men: 0,
                black_kings: 3,
            },
            max_white_kings: 2,
            max_black_kings: 4,
            white_home_men: 1,
            black_home_men: 0,
            min_balance: -3,
            max_balance: 2,
            opening: 7,
            fmjd: NONE_U16,
            idf: 12,
            moves_len: 30,
        };
        let bytes = info.to_bytes();
        assert_eq!(GameInfo::from_bytes(&bytes), Some(info));
        assert_eq!(info.rating(), Some(2100));
        let mut bad = bytes;
        bad[22] = 7; // outcome 7
        assert_eq!(GameInfo::from_bytes(&bad), None);
        let mut bad = bytes;
        bad[23] = 0xdd; // 13 men and 13 kings
        assert_eq!(GameInfo::from_bytes(&bad), None);
        assert_eq!(GameInfo::from_bytes(&bytes[1..]), None);
        let u = GameInfo::unreadable();
        assert_eq!(GameInfo::from_bytes(&u.to_bytes()), Some(u));
    }

    #[test]
    fn layouts_sized_to_the_archive_keep_what_their_records_hold() {
        let mut info = GameInfo {
            white: 200,
            black: NONE_U32,
            event: 0,
            plies: 71,
            outcome: Outcome::Draw,
            unreadable: false,
            moves_len: 30,
            ..GameInfo::unreadable()
        };
        let mut layout = RecordLayout::for_names(201);
        layout.take(&info);
        assert_eq!(layout, RecordLayout::for_names(201));
        assert_eq!(layout.size(), 14);
        let mut bytes = Vec::new();
        layout.put(&info, &mut bytes);
        assert_eq!(bytes.len(), 14);
        assert_eq!(layout.get(&bytes), Some(info));
        assert_eq!(layout.get(&bytes[1..]), None);
        // A date, ratings or a book name widen the layout; the record then holds them.
        info.date = 19650101;
        info.black_elo = 2300;
        info.idf = 4;
        layout.take(&info);
        assert!(layout.dates && layout.ratings && layout.books);
        assert_eq!(layout.size(), 28);
        bytes.clear();
        layout.put(&info, &mut bytes);
        assert_eq!(layout.get(&bytes), Some(info));
        // Name ids fit their width: 255 stands for no name in one byte.
        assert!(RecordLayout::for_names(254).fits(254));
        assert!(!RecordLayout::for_names(254).fits(256));
        assert_eq!(RecordLayout::for_names(255).name_bytes, 2);
        assert_eq!(RecordLayout::for_names(0).size(), 11);
        assert!(RecordLayout::for_names(0).fits(0) && !RecordLayout::for_names(0).fits(1));
        assert_eq!(RecordLayout::FULL.size(), RECORD_SIZE);
    }
}
