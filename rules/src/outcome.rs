//! How a game ends: a side to move without a legal move loses; the Tanzanian draw laws.
//!
//! The laws, from the article (see RULES.md), apply to Tanzanian games only; Russian and Czech
//! games end only by a side having no move (their own draw rules are not adjudicated):
//! 1. Only kings left and each side has one or two: drawn.
//! 2. Three kings against one: when this material first arises, if none of the three kings is
//!    on the main diagonal (a1–h8), drawn; otherwise the lone king's side counts its own moves
//!    and the game is drawn when the count reaches the limit (12 unless agreed otherwise).
//! 3. (Two kings and a man against a king: the lone side *may* crown the man and start the
//!    count of law 2. That is a claim, never forced, so it is not adjudicated here.)

use crate::bitboard::MAIN_DIAGONAL;
use crate::{Color, Move, Position, Variant};
use std::fmt;

/// Which draw laws apply, and the agreed count of law 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawLaws {
    /// Whether the Tanzanian draw laws are adjudicated at all.
    pub enabled: bool,
    /// The number of moves the lone king counts in three kings against one (default 12).
    pub king_count: u32,
}

impl DrawLaws {
    /// The laws of `variant`: Tanzanian's with a count of 12; none for Czech and Russian.
    pub const fn for_variant(variant: Variant) -> DrawLaws {
        DrawLaws {
            enabled: matches!(variant, Variant::Tanzanian),
            king_count: 12,
        }
    }
}

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Law 1: only kings, one or two each.
    FewKings,
    /// Law 2: three kings against one, none of the three on the main diagonal.
    ThreeKingsOffMainDiagonal,
    /// Law 2: the lone king made the agreed number of moves.
    KingCountReached(u32),
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::FewKings => f.write_str("only kings left, at most two each"),
            DrawReason::ThreeKingsOffMainDiagonal => {
                f.write_str("three kings against one without the main diagonal")
            }
            DrawReason::KingCountReached(n) => {
                write!(f, "the lone king made {n} moves against three kings")
            }
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The other side had no legal move on its turn.
    Win(Color),
    /// A draw law applies.
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{c} wins: {} has no legal move", c.other()),
            Outcome::Draw(r) => write!(f, "draw: {r}"),
        }
    }
}

/// Material that a draw law speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingEnding {
    /// Law 1 applies.
    FewKings,
    /// Three kings of `strong` against one; `diagonal` says whether one of the three is on
    /// the main diagonal.
    ThreeAgainstOne { strong: Color, diagonal: bool },
}

impl Position {
    /// Which draw-law material this position has, if any.
    pub fn king_ending(&self) -> Option<KingEnding> {
        if self.kings != self.white | self.black {
            return None;
        }
        let (w, b) = (self.white.count_ones(), self.black.count_ones());
        match (w, b) {
            (1..=2, 1..=2) => Some(KingEnding::FewKings),
            (3, 1) | (1, 3) => {
                let strong = if w == 3 { Color::White } else { Color::Black };
                let diagonal = self.pieces(strong).0 & MAIN_DIAGONAL.0 != 0;
                Some(KingEnding::ThreeAgainstOne { strong, diagonal })
            }
            _ => None,
        }
    }
}

/// A game in progress: the position, the running count of law 2, and the outcome once over.
///
/// ```
/// use drafti_rules::{Game, Outcome, DrawReason, Position, Variant};
/// let game = Game::new(Position::from_fen("W:WK29:BK4").unwrap(), Variant::Tanzanian);
/// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::FewKings)));
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    variant: Variant,
    laws: DrawLaws,
    lone_king_moves: Option<u32>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `position` under the laws of `variant`.
    pub fn new(position: Position, variant: Variant) -> Game {
        Game::with_laws(position, variant, DrawLaws::for_variant(variant))
    }

    /// A game with explicit draw laws (e.g. another agreed count).
    pub fn with_laws(position: Position, variant: Variant, laws: DrawLaws) -> Game {
        let mut game = Game {
            position,
            variant,
            laws,
            lone_king_moves: None,
            outcome: None,
        };
        game.adjudicate(None);
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Moves the lone king has made while law 2's count runs.
    pub fn king_count(&self) -> Option<u32> {
        self.lone_king_moves
    }

    /// Plays `mv`, which must be legal in the current position; updates the outcome.
    pub fn play(&mut self, mv: &Move) {
        let mover = self.position.turn();
        self.position = self.position.play(mv);
        self.adjudicate(Some(mover));
    }

    fn adjudicate(&mut self, mover: Option<Color>) {
        self.outcome = None;
        if !self.position.has_legal_move(self.variant) {
            self.outcome = Some(Outcome::Win(self.position.turn().other()));
            return;
        }
        if !self.laws.enabled {
            return;
        }
        match self.position.king_ending() {
            Some(KingEnding::FewKings) => {
                self.lone_king_moves = None;
                self.outcome = Some(Outcome::Draw(DrawReason::FewKings));
            }
            Some(KingEnding::ThreeAgainstOne { strong, diagonal }) => match self.lone_king_moves {
                None if !diagonal => {
                    self.outcome = Some(Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal))
                }
                None => self.lone_king_moves = Some(0),
                Some(n) => {
                    let n = if mover == Some(strong.other()) {
                        n + 1
                    } else {
                        n
                    };
                    self.lone_king_moves = Some(n);
                    if n >= self.laws.king_count {
                        self.outcome = Some(Outcome::Draw(DrawReason::KingCountReached(n)));
                    }
                }
            },
            None => self.lone_king_moves = None,
        }
    }
}
