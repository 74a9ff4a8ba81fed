//! FEN in the PDN form: `W:W21-32:B1-12`, `B:Wa1,c3,Kh2:Bb8,Kd6`.
//!
//! The first letter is the side to move; then one field per colour, each a comma-separated
//! list of squares, numeric (with ranges such as `21-32`) or algebraic, with `K` before a king.
//! Reading is lenient where real files are sloppy and harmless (spaces, lower-case colour
//! letters, a trailing `.`, an empty field) and strict where it matters: every error names the
//! part of the text that is wrong.

use crate::{Bitboard, Color, ParseSquareError, Position, SetupError, Square};
use std::fmt;

/// Why a text is not a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text does not have the form `T:Csquares:Csquares`.
    Syntax {
        /// The part that is wrong.
        part: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A square name that is not a square (e.g. `33`, `i9`).
    Square {
        /// The part that holds it.
        part: String,
        /// Why it is no square.
        error: ParseSquareError,
    },
    /// A square listed twice.
    SquareTwice(Square),
    /// The pieces do not make a position (a man on its crowning row, too many pieces).
    Setup(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax { part, expected } => {
                write!(f, "bad FEN: expected {expected}, found '{part}'")
            }
            FenError::Square { part, error } => write!(f, "bad FEN square '{part}': {error}"),
            FenError::SquareTwice(sq) => {
                write!(f, "bad FEN: square {sq} ({sq:#}) is given twice")
            }
            FenError::Setup(e) => write!(f, "bad FEN: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

fn syntax(part: &str, expected: &'static str) -> FenError {
    FenError::Syntax {
        part: part.to_string(),
        expected,
    }
}

fn color_letter(c: char) -> Option<Color> {
    match c {
        'W' | 'w' => Some(Color::White),
        'B' | 'b' => Some(Color::Black),
        _ => None,
    }
}

fn parse_square(part: &str) -> Result<Square, FenError> {
    Square::parse(part).map_err(|error| FenError::Square {
        part: part.to_string(),
        error,
    })
}

/// Reads one colour's list of squares into `men` and `kings`.
fn parse_field(
    field: &str,
    men: &mut u32,
    kings: &mut u32,
    seen: &mut u32,
) -> Result<(), FenError> {
    for item in field.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (king, name) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, item),
        };
        let squares: Vec<Square> = match name.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (a.trim(), b.trim());
                if !a.bytes().all(|c| c.is_ascii_digit()) || !b.bytes().all(|c| c.is_ascii_digit())
                {
                    return Err(syntax(item, "a numeric range such as 21-32"));
                }
                let (a, b) = (parse_square(a)?, parse_square(b)?);
                if a > b {
                    return Err(syntax(item, "a range from a lower to a higher square"));
                }
                (a.index()..=b.index())
                    .filter_map(Square::from_index)
                    .collect()
            }
            None => vec![parse_square(name)?],
        };
        for sq in squares {
            let bit = 1u32 << sq.index();
            if *seen & bit != 0 {
                return Err(FenError::SquareTwice(sq));
            }
            *seen |= bit;
            *men |= bit;
            if king {
                *kings |= bit;
            }
        }
    }
    Ok(())
}

impl Position {
    /// Reads a FEN (numeric or algebraic squares).
    ///
    /// ```
    /// use drafti_rules::{Color, Position, FenError};
    /// let pos = Position::from_fen("B:W21,22,K31:B1,2,K5").unwrap();
    /// assert_eq!(pos.turn(), Color::Black);
    /// assert_eq!(pos.kings(Color::White).count(), 1);
    /// assert_eq!(pos, Position::from_fen("B:Wa3,c3,Ke1:Bb8,d8,Ka7").unwrap());
    /// assert!(matches!(Position::from_fen("W:W33:B1"), Err(FenError::Square { .. })));
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let trimmed = text.trim().trim_end_matches('.').trim();
        let mut fields = trimmed.split(':');
        let turn_field = fields.next().unwrap_or("").trim();
        let turn = match turn_field.chars().collect::<Vec<_>>()[..] {
            [c] => {
                color_letter(c).ok_or_else(|| syntax(turn_field, "W or B for the side to move"))?
            }
            _ => return Err(syntax(turn_field, "W or B for the side to move")),
        };
        let mut pieces = [0u32; 2];
        let mut kings = 0u32;
        let mut seen = 0u32;
        let mut given = [false; 2];
        for field in fields {
            let field = field.trim();
            let mut chars = field.chars();
            let color = chars
                .next()
                .and_then(color_letter)
                .ok_or_else(|| syntax(field, "a field starting with W or B"))?;
            let slot = color as usize;
            if given[slot] {
                return Err(syntax(field, "one field per colour"));
            }
            given[slot] = true;
            parse_field(chars.as_str(), &mut pieces[slot], &mut kings, &mut seen)?;
        }
        if !given[0] && !given[1] {
            return Err(syntax(
                trimmed,
                "fields for the pieces, e.g. W:W21-32:B1-12",
            ));
        }
        Position::from_parts(
            Bitboard(pieces[0]),
            Bitboard(pieces[1]),
            Bitboard(kings),
            turn,
        )
        .map_err(FenError::Setup)
    }

    /// The FEN with numeric squares; runs of three or more men are written as ranges.
    pub fn to_fen(&self) -> String {
        self.fen_with(true)
    }

    /// The FEN with algebraic squares (no ranges).
    pub fn to_fen_algebraic(&self) -> String {
        self.fen_with(false)
    }

    fn fen_with(&self, numeric: bool) -> String {
        let mut out = String::new();
        out.push(self.turn.letter());
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(color.letter());
            let own = self.pieces(color).0;
            let mut items: Vec<String> = Vec::new();
            let mut i = 0u8;
            while i < 32 {
                let bit = 1u32 << i;
                if own & bit == 0 {
                    i += 1;
                    continue;
                }
                let sq = Square::new_unchecked(i);
                if self.kings & bit != 0 {
                    items.push(if numeric {
                        format!("K{sq:#}")
                    } else {
                        format!("K{sq}")
                    });
                    i += 1;
                    continue;
                }
                let mut end = i;
                while numeric && end < 31 && own & !self.kings & (1 << (end + 1)) != 0 {
                    end += 1;
                }
                if numeric && end - i >= 2 {
                    items.push(format!("{}-{}", i + 1, end + 1));
                    i = end + 1;
                } else {
                    items.push(if numeric {
                        format!("{sq:#}")
                    } else {
                        sq.to_string()
                    });
                    i += 1;
                }
            }
            out.push_str(&items.join(","));
        }
        out
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let start = Position::start(Color::White);
        assert_eq!(start.to_fen(), "W:W21-32:B1-12");
        assert_eq!(Position::from_fen("W:W21-32:B1-12").unwrap(), start);
        assert_eq!(
            start.to_fen_algebraic(),
            "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
        );
        assert_eq!(
            Position::from_fen(&start.to_fen_algebraic()).unwrap(),
            start
        );
    }

    #[test]
    fn real_file_quirks_are_read() {
        // The USSR championship archive ends its FEN with a stray '.'.
        let fen = "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.";
        assert_eq!(
            Position::from_fen(fen).unwrap(),
            Position::start(Color::White)
        );
        assert_eq!(
            Position::from_fen(" b : W21 : B1 ").unwrap().turn(),
            Color::Black
        );
        assert_eq!(
            Position::from_fen("W:W:B1")
                .unwrap()
                .pieces(Color::White)
                .count(),
            0
        );
    }

    #[test]
    fn errors_name_the_offending_part() {
        let err = |s: &str| Position::from_fen(s).unwrap_err();
        assert_eq!(err("X:W21:B1"), syntax("X", "W or B for the side to move"));
        assert_eq!(
            err("W:Q21:B1"),
            syntax("Q21", "a field starting with W or B")
        );
        assert!(matches!(err("W:W21,33:B1"), FenError::Square { part, .. } if part == "33"));
        assert!(matches!(err("W:Wi9:B1"), FenError::Square { part, .. } if part == "i9"));
        assert_eq!(
            err("W:W21,22:B22"),
            FenError::SquareTwice(Square::parse("22").unwrap())
        );
        assert!(matches!(
            err("W:W1:B5"),
            FenError::Setup(SetupError::ManOnCrowningRow(_, Color::White))
        ));
        assert!(matches!(
            err("W:W31:B30"),
            FenError::Setup(SetupError::ManOnCrowningRow(_, Color::Black))
        ));
        assert!(matches!(
            err("W:W13-26:B1"),
            FenError::Setup(SetupError::TooManyMen(Color::White, 14))
        ));
        assert_eq!(
            err("W:W24-21:B1"),
            syntax("24-21", "a range from a lower to a higher square")
        );
        assert_eq!(
            err("W"),
            syntax("W", "fields for the pieces, e.g. W:W21-32:B1-12")
        );
        assert_eq!(
            err("W:W21,33:B1").to_string(),
            "bad FEN square '33': square 33 is out of range (numeric squares are 1-32)"
        );
        assert_eq!(err("W:W21:B1:W22"), syntax("W22", "one field per colour"));
    }

    #[test]
    fn a_position_that_cannot_arise_is_refused_a_finished_one_read() {
        // The side that just moved has no pieces: no move does that to its own side.
        for (fen, empty) in [
            ("W:WK1:B", Color::Black),
            ("B:W:BK30", Color::White),
            ("W:W:B", Color::Black),
            ("B:W:B", Color::White),
        ] {
            assert_eq!(
                Position::from_fen(fen).unwrap_err(),
                FenError::Setup(SetupError::NoPiecesAfterMove(empty)),
                "{fen}"
            );
        }
        assert_eq!(
            Position::from_fen("W:WK1:B").unwrap_err().to_string(),
            "bad FEN: Black has no pieces but White is to move: the position cannot arise \
             (Black made the last move, and no move leaves its own side without pieces)"
        );
        // The side to move has no pieces: it has lost, a position that arises.
        assert!(Position::from_fen("B:WK1:B").is_ok());
        assert!(Position::from_fen("W:W:BK30").is_ok());
    }
}
