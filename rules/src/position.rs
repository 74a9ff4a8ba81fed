//! A position: where the men and kings of each side stand, and whose turn it is.

use crate::bitboard::{BOTTOM_ROW, TOP_ROW};
use crate::{Bitboard, Move, Square};
use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side whose men start on rows 1–3 (squares 21–32).
    White,
    /// The side whose men start on rows 6–8 (squares 1–12).
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `W` or `B`, as in FEN.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a man or a king of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// A king (crowned man) rather than a man.
    pub king: bool,
}

/// A board position with the side to move.
///
/// A `Position` is always well formed: no square holds two pieces, no man stands on the row
/// where it would have been crowned, and no side has more than 12 pieces. Build one from a
/// FEN ([`Position::from_fen`]), from the start ([`Position::start`]) or with
/// [`Position::from_parts`], which checks those conditions.
///
/// ```
/// use drafti_rules::{Position, Color};
/// let pos = Position::start(Color::White);
/// assert_eq!(pos.pieces(Color::White).count(), 12);
/// assert_eq!(pos.to_fen(), "W:W21-32:B1-12");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u32,
    pub(crate) black: u32,
    pub(crate) kings: u32,
    pub(crate) turn: Color,
}

/// Why a set of pieces is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A square holds pieces of both colours.
    SquareTwice(Square),
    /// A man stands on the row where it would have been crowned.
    ManOnCrowningRow(Square, Color),
    /// More than 12 men of a colour.
    TooManyMen(Color, u32),
    /// More than 12 pieces of a colour.
    TooManyPieces(Color, u32),
    /// A king given for an empty square.
    KingOnEmptySquare(Square),
    /// The side that made the last move has no pieces: no move leaves its own side
    /// without pieces, so the position cannot arise (the side to move has no pieces: that
    /// game is over, and can arise).
    NoPiecesAfterMove(Color),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::SquareTwice(sq) => write!(f, "square {sq} ({sq:#}) is given twice"),
            SetupError::ManOnCrowningRow(sq, c) => write!(
                f,
                "{c} man on {sq} ({sq:#}) stands on the row where it would have been crowned"
            ),
            SetupError::TooManyMen(c, n) => write!(f, "{c} has {n} men (at most 12)"),
            SetupError::TooManyPieces(c, n) => write!(f, "{c} has {n} pieces (at most 12)"),
            SetupError::KingOnEmptySquare(sq) => write!(f, "king on empty square {sq}"),
            SetupError::NoPiecesAfterMove(c) => write!(
                f,
                "{c} has no pieces but {} is to move: the position cannot arise ({c} made the \
                 last move, and no move leaves its own side without pieces)",
                c.other()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// The start position: White's men on 21–32, Black's on 1–12, `turn` to move.
    pub const fn start(turn: Color) -> Position {
        Position {
            white: 0xFFF0_0000,
            black: 0x0000_0FFF,
            kings: 0,
            turn,
        }
    }

    /// A position from piece sets, checked.
    pub fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Result<Position, SetupError> {
        let (white, black, kings) = (white.0, black.0, kings.0);
        if white & black != 0 {
            let sq = Square::from_index((white & black).trailing_zeros() as u8).expect("bit");
            return Err(SetupError::SquareTwice(sq));
        }
        if kings & !(white | black) != 0 {
            let sq = Square::from_index((kings & !(white | black)).trailing_zeros() as u8);
            return Err(SetupError::KingOnEmptySquare(sq.expect("bit")));
        }
        for (color, own, row) in [
            (Color::White, white, TOP_ROW),
            (Color::Black, black, BOTTOM_ROW),
        ] {
            let men = own & !kings;
            if men & row != 0 {
                let sq = Square::from_index((men & row).trailing_zeros() as u8).expect("bit");
                return Err(SetupError::ManOnCrowningRow(sq, color));
            }
            if men.count_ones() > 12 {
                return Err(SetupError::TooManyMen(color, men.count_ones()));
            }
            if own.count_ones() > 12 {
                return Err(SetupError::TooManyPieces(color, own.count_ones()));
            }
        }
        let waiting = match turn {
            Color::White => black,
            Color::Black => white,
        };
        if waiting == 0 {
            return Err(SetupError::NoPiecesAfterMove(turn.other()));
        }
        Ok(Position {
            white,
            black,
            kings,
            turn,
        })
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The same pieces with `turn` to move.
    #[inline]
    pub const fn with_turn(self, turn: Color) -> Position {
        Position { turn, ..self }
    }

    /// Every piece of `color`.
    #[inline]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(match color {
            Color::White => self.white,
            Color::Black => self.black,
        })
    }

    /// The men of `color`.
    #[inline]
    pub const fn men(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & !self.kings)
    }

    /// The kings of `color`.
    #[inline]
    pub const fn kings(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & self.kings)
    }

    /// Every occupied square.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.white | self.black)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = 1 << sq.index();
        let king = self.kings & bit != 0;
        if self.white & bit != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.black & bit != 0 {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// The row where `color`'s men are crowned.
    #[inline]
    pub(crate) const fn crowning_row(color: Color) -> u32 {
        match color {
            Color::White => TOP_ROW,
            Color::Black => BOTTOM_ROW,
        }
    }

    /// The position after `mv`, which must be legal here (as generated for this position).
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let from = 1u32 << mv.from.index();
        let to = 1u32 << mv.to.index();
        let mut next = *self;
        let kings = self.kings & !mv.captured;
        next.kings = if kings & from != 0 {
            (kings & !from) | to
        } else if mv.promotes {
            kings | to
        } else {
            kings
        };
        match self.turn {
            Color::White => {
                next.white = (self.white & !from) | to;
                next.black = self.black & !mv.captured;
            }
            Color::Black => {
                next.black = (self.black & !from) | to;
                next.white = self.white & !mv.captured;
            }
        }
        next.turn = self.turn.other();
        next
    }

    /// The board turned 180° with the colours swapped: the same position seen by the other
    /// side. Used to treat a Black-first game like a White-first one.
    pub fn mirrored(&self) -> Position {
        Position {
            white: self.black.reverse_bits(),
            black: self.white.reverse_bits(),
            kings: self.kings.reverse_bits(),
            turn: self.turn.other(),
        }
    }

    /// An 8×8 text diagram as White sees it: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    ///
    /// ```
    /// use drafti_rules::{Color, Position};
    /// let board = Position::start(Color::White).board_text();
    /// assert!(board.starts_with("8    b   b   b   b\n7  b   b   b   b\n"));
    /// ```
    pub fn board_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            out.push_str(&format!("{}  ", rank + 1));
            for file in 0..8u8 {
                let c = match Square::from_coords(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            king: false,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            king: true,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            king: false,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            king: true,
                        }) => 'B',
                    },
                };
                out.push(c);
                if file < 7 {
                    out.push(' ');
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out.push_str("   a b c d e f g h\n");
        out
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start(Color::White)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// Displays the FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
