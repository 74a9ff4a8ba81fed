//! The 32 playable squares and their two names: algebraic (`a1`…`h8`) and numeric (1…32).
//!
//! Numeric squares run left to right, top to bottom as White sees the board: 1 = b8, 4 = h8,
//! 5 = a7, 29 = a1, 32 = g1. Internally a square is its numeric name minus one, which is also
//! its bit in a [`Bitboard`](crate::Bitboard).

use std::fmt;
use std::str::FromStr;

/// A playable (dark) square of the 8×8 board.
///
/// ```
/// use drafti_rules::Square;
/// let sq: Square = "c3".parse().unwrap();
/// assert_eq!(sq.number(), 22);
/// assert_eq!(Square::from_number(22).unwrap().to_string(), "c3");
/// assert_eq!("22".parse::<Square>().unwrap(), sq);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// Why a text is not a square name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Empty text.
    Empty,
    /// A number outside 1–32.
    NumberOutOfRange(String),
    /// A file outside a–h or a rank outside 1–8.
    OutOfBoard(String),
    /// A light square, which is never played on (e.g. `a2`).
    LightSquare(String),
    /// Neither a number nor a letter followed by a digit.
    Syntax(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => write!(f, "empty square name"),
            ParseSquareError::NumberOutOfRange(s) => {
                write!(f, "square {s} is out of range (numeric squares are 1-32)")
            }
            ParseSquareError::OutOfBoard(s) => {
                write!(f, "square {s} is off the board (files a-h, ranks 1-8)")
            }
            ParseSquareError::LightSquare(s) => {
                write!(f, "square {s} is a light square, never played on")
            }
            ParseSquareError::Syntax(s) => write!(f, "'{s}' is not a square name"),
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// Every square, in numeric order (1…32).
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with bit index `index` (0…31), i.e. numeric name `index + 1`.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Like [`Square::from_index`] for indices known to be in range (e.g. from a bitboard).
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 32);
        Square(index)
    }

    /// The square with numeric name `number` (1…32).
    #[inline]
    pub const fn from_number(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = 1st … 7 = 8th), if it is dark.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank > 7 || (file + rank) & 1 != 0 {
            return None;
        }
        let row = 7 - rank;
        Some(Square(row * 4 + file / 2))
    }

    /// Bit index 0…31.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Numeric name 1…32.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Row counted from the top as White sees the board (0 = 8th rank … 7 = 1st rank).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// File 0 = a … 7 = h.
    #[inline]
    pub const fn file(self) -> u8 {
        let col = self.0 % 4;
        if self.row() & 1 == 0 {
            col * 2 + 1
        } else {
            col * 2
        }
    }

    /// Rank 0 = 1st … 7 = 8th.
    #[inline]
    pub const fn rank(self) -> u8 {
        7 - self.row()
    }

    /// The square seen from the other side of the board (turned 180°): a1 ↔ h8, 1 ↔ 32.
    #[inline]
    pub const fn flip(self) -> Square {
        Square(31 - self.0)
    }

    /// The algebraic name, e.g. `c3`.
    pub fn algebraic(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }

    /// Parses an algebraic (`c3`) or numeric (`22`) name.
    pub fn parse(text: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(text.as_bytes())
    }

    /// Parses an algebraic (`c3`, also `C3`) or numeric (`22`) name from bytes.
    pub fn from_ascii(text: &[u8]) -> Result<Square, ParseSquareError> {
        let shown = || String::from_utf8_lossy(text).into_owned();
        match text {
            [] => Err(ParseSquareError::Empty),
            [d @ b'0'..=b'9', rest @ ..] => {
                if rest.len() > 2 || !rest.iter().all(u8::is_ascii_digit) {
                    return Err(ParseSquareError::Syntax(shown()));
                }
                let mut n: u32 = (d - b'0') as u32;
                for &c in rest {
                    n = n * 10 + (c - b'0') as u32;
                }
                if (1..=32).contains(&n) {
                    Ok(Square(n as u8 - 1))
                } else {
                    Err(ParseSquareError::NumberOutOfRange(shown()))
                }
            }
            [f, r] if f.is_ascii_alphabetic() && r.is_ascii_digit() => {
                let file = f.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = r.wrapping_sub(b'1');
                if file > 7 || rank > 7 {
                    return Err(ParseSquareError::OutOfBoard(shown()));
                }
                Square::from_coords(file, rank)
                    .ok_or_else(|| ParseSquareError::LightSquare(shown()))
            }
            [f, r, ..] if f.is_ascii_alphabetic() && r.is_ascii_digit() => {
                if text[1..].iter().all(u8::is_ascii_digit) {
                    Err(ParseSquareError::OutOfBoard(shown()))
                } else {
                    Err(ParseSquareError::Syntax(shown()))
                }
            }
            _ => Err(ParseSquareError::Syntax(shown())),
        }
    }

    /// A value that displays as the numeric name.
    pub fn numeric(self) -> impl fmt::Display {
        self.number()
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s)
    }
}

/// Displays the algebraic name; `{:#}` displays the numeric name.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{}", self.number())
        } else {
            let [a, b] = self.algebraic();
            write!(f, "{}{}", a as char, b as char)
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_and_algebraic_agree_with_rules_md() {
        assert_eq!(Square::parse("b8").unwrap().number(), 1);
        assert_eq!(Square::parse("h8").unwrap().number(), 4);
        assert_eq!(Square::parse("a7").unwrap().number(), 5);
        assert_eq!(Square::parse("a3").unwrap().number(), 21);
        assert_eq!(Square::parse("c3").unwrap().number(), 22);
        assert_eq!(Square::parse("a1").unwrap().number(), 29);
        assert_eq!(Square::parse("g1").unwrap().number(), 32);
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()).unwrap(), sq);
            assert_eq!(Square::parse(&format!("{sq:#}")).unwrap(), sq);
            assert_eq!(sq.flip().flip(), sq);
        }
    }

    #[test]
    fn bad_names_are_typed_errors() {
        assert_eq!(Square::parse(""), Err(ParseSquareError::Empty));
        assert!(matches!(
            Square::parse("33"),
            Err(ParseSquareError::NumberOutOfRange(_))
        ));
        assert!(matches!(
            Square::parse("0"),
            Err(ParseSquareError::NumberOutOfRange(_))
        ));
        assert!(matches!(
            Square::parse("i9"),
            Err(ParseSquareError::OutOfBoard(_))
        ));
        assert!(matches!(
            Square::parse("a9"),
            Err(ParseSquareError::OutOfBoard(_))
        ));
        assert!(matches!(
            Square::parse("a2"),
            Err(ParseSquareError::LightSquare(_))
        ));
        assert!(matches!(
            Square::parse("c3x"),
            Err(ParseSquareError::Syntax(_))
        ));
        assert!(matches!(
            Square::parse("x"),
            Err(ParseSquareError::Syntax(_))
        ));
    }
}
