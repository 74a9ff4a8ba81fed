//! The game table: one fixed-size record per game with what a query filters on (tags as
//! string ids, date, ratings, result, variant) and what lets a search skip a game without
//! replaying it (final material, the most kings, the range of the material balance, men on
//! the home rows, the number of plies).

use crate::bits::{Reader, Truncated};
use crate::key::{variant_code, variant_from_code};
use drafti_pdn::GameResult;
use drafti_rules::{Color, Position, Variant};

/// The bytes of one record.
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

    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            out[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        };
        put(&self.date.to_le_bytes());
        put(&self.white.to_le_bytes());
        put(&self.black.to_le_bytes());
        put(&self.event.to_le_bytes());
        put(&self.white_elo.to_le_bytes());
        put(&self.black_elo.to_le_bytes());
        put(&self.plies.to_le_bytes());
        let flags = self.outcome.code()
            | ((self.first_mover == Color::Black) as u8) << 3
            | variant_code(self.variant) << 4
            | (self.unreadable as u8) << 6
            | (self.stopped as u8) << 7;
        put(&[flags]);
        put(&[
            self.last.white_men << 4 | self.last.white_kings,
            self.last.black_men << 4 | self.last.black_kings,
            self.max_white_kings << 4 | self.max_black_kings,
            self.white_home_men << 4 | self.black_home_men,
            self.min_balance as u8,
            self.max_balance as u8,
        ]);
        put(&self.opening.to_le_bytes());
        put(&self.fmjd.to_le_bytes());
        put(&self.idf.to_le_bytes());
        put(&self.moves_len.to_le_bytes());
        debug_assert_eq!(at, RECORD_SIZE);
        out
    }

    /// A record from its bytes; `None` when a field holds a value no record has.
    pub fn from_bytes(bytes: &[u8]) -> Option<GameInfo> {
        let read = |r: &mut Reader| -> Result<GameInfo, Truncated> {
            let date = r.u32()?;
            let white = r.u32()?;
            let black = r.u32()?;
            let event = r.u32()?;
            let white_elo = r.u16()?;
            let black_elo = r.u16()?;
            let plies = r.u16()?;
            let flags = r.u8()?;
            let n = r.bytes(6)?;
            let (opening, fmjd, idf, moves_len) = (r.u16()?, r.u16()?, r.u16()?, r.u16()?);
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
                white,
                black,
                event,
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
        if bytes.len() != RECORD_SIZE {
            return None;
        }
        read(&mut Reader::new(bytes)).ok()
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
}
