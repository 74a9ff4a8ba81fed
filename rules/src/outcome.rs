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
//!
//! [`Variant::TzDraft`] games end by TzDraft's server's draw rules instead (its
//! `make-move.use-case.ts` and the counters of its game entity), checked after every move in
//! this order, once the side to move is found to have a legal move:
//! 1. *30-move rule*: the move was not a capture, only kings are on the board before and after
//!    it, and it ends a run of 60 plies without a capture (the run counts every ply since the
//!    last capture, men's moves too).
//! 2. *Three-kings rule*: one side has three or more kings (men allowed), the other a lone
//!    king, and the strong side has made 12 moves without capturing since its last capture
//!    (its moves from before the material arose count too, if the material was on the board
//!    before this move).
//! 3. *Endgame rule*: a king and a man, or two kings, against a lone king, before and after
//!    the move: the server counts every ply of the game, so such a game is drawn one ply
//!    after the material arises (from the tenth ply on).
//! 4. *King against king*: one king each.
//!
//! The counts are the server's as it really keeps them: it rebuilds them before each move
//! from the board as it stands then (its stored snapshot), not as it stood at each earlier
//! move, which is why rules 2 and 3 count plies from before the material arose. A game from
//! a FEN counts from its start.

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
    /// TzDraft's server: 60 plies without a capture, only kings on the board.
    TzDraftThirtyMoves,
    /// TzDraft's server: three or more kings made 12 moves without capturing a lone king.
    TzDraftThreeKings,
    /// TzDraft's server: a king and a man, or two kings, against a king, one ply on.
    TzDraftEndgame,
    /// TzDraft's server: one king against one king.
    TzDraftKingAgainstKing,
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
            DrawReason::TzDraftThirtyMoves => {
                f.write_str("TzDraft's 30-move rule: 60 plies without a capture, only kings")
            }
            DrawReason::TzDraftThreeKings => f.write_str(
                "TzDraft's three-kings rule: 12 moves of three kings without taking the lone king",
            ),
            DrawReason::TzDraftEndgame => f.write_str(
                "TzDraft's endgame rule: a king and a man, or two kings, against a king",
            ),
            DrawReason::TzDraftKingAgainstKing => {
                f.write_str("TzDraft's rule of one king against one king")
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
    ThreeAgainstOne {
        /// The side with the three kings.
        strong: Color,
        /// Whether one of the three is on the main diagonal.
        diagonal: bool,
    },
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
    /// TzDraft's server's counts ([`Variant::TzDraft`] only).
    server: Option<TzDraftCounts>,
    outcome: Option<Outcome>,
}

/// What TzDraft's server's draw rules need from the moves played so far: the counts a
/// [`Variant::TzDraft`] game keeps ([`Game::tzdraft_counts`]), so that a search can go on
/// counting from a game's position exactly as the game would (the module docs give the
/// rules). A game from a position starts them at zero ([`TzDraftCounts::default`]).
///
/// ```
/// use drafti_rules::{Color, DrawReason, Position, TzDraftCounts};
/// // Three kings against one: the strong side's 12th quiet move draws.
/// let mut pos = Position::from_fen("W:WK1,K3,K5:BK30").unwrap();
/// let mut counts = TzDraftCounts::default();
/// let mut reason = None;
/// while reason.is_none() {
///     // Quiet play: a move after which the other side has no capture.
///     let v = drafti_rules::Variant::TzDraft;
///     let moves = pos.legal_moves(v);
///     let mv = *moves.iter().find(|m| !pos.play(m).has_capture(v)).unwrap();
///     let after = pos.play(&mv);
///     reason = counts.play(&pos, &after, pos.turn(), mv.is_capture());
///     pos = after;
/// }
/// assert_eq!(reason, Some(DrawReason::TzDraftThreeKings));
/// assert_eq!(counts.quiet_moves(Color::White), 12);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TzDraftCounts {
    /// Plies played.
    plies: u32,
    /// Plies since the last capture.
    quiet_run: u32,
    /// Each side's moves since its own last capture (White, Black).
    quiet_moves: [u32; 2],
}

/// Only kings on the board.
fn kings_only(pos: &Position) -> bool {
    pos.kings == pos.white | pos.black && pos.kings != 0
}

/// The side with three or more kings (men allowed) against a lone enemy king: the material
/// of TzDraft's three-kings rule.
pub fn tzdraft_strong_side(pos: &Position) -> Option<Color> {
    [Color::White, Color::Black].into_iter().find(|&c| {
        let other = c.other();
        pos.kings(c).count() >= 3 && pos.pieces(other).count() == 1 && pos.kings(other).count() == 1
    })
}

/// A king and a man, or two kings, against a lone king: the material of TzDraft's endgame
/// rule.
pub fn tzdraft_endgame(pos: &Position) -> bool {
    let side = |c: Color| (pos.kings(c).count(), pos.men(c).count());
    matches!(
        (side(Color::White), side(Color::Black)),
        ((1, 1), (1, 0)) | ((1, 0), (1, 1)) | ((2, 0), (1, 0)) | ((1, 0), (2, 0))
    )
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// One king against one king: TzDraft's fourth draw rule.
fn king_against_king(pos: &Position) -> bool {
    pos.kings(Color::White).count() == 1
        && pos.kings(Color::Black).count() == 1
        && pos.occupied().count() == 2
}

impl TzDraftCounts {
    /// Counts a move (played by `mover` from `before` to `after`, a capture or not) as
    /// TzDraft's server does and says which of its draw rules, if any, ends the game after
    /// it (rules 1–4 of the module docs, in their order). A side to move without a legal
    /// move loses whatever this says: the caller checks that first.
    pub fn play(
        &mut self,
        before: &Position,
        after: &Position,
        mover: Color,
        capture: bool,
    ) -> Option<DrawReason> {
        // The server rebuilds its counters from the board before the move (its snapshot),
        // as if every earlier move had been played on that board.
        let quiet_run = if kings_only(before) {
            self.quiet_run
        } else {
            0
        };
        let strong_moves =
            tzdraft_strong_side(before).map_or(0, |s| self.quiet_moves[side_index(s)]);
        let endgame_plies = if tzdraft_endgame(before) {
            self.plies
        } else {
            0
        };
        let thirty = if kings_only(after) && !capture {
            quiet_run + 1
        } else {
            0
        };
        let three_kings = match tzdraft_strong_side(after) {
            Some(s) if s == mover => {
                if capture {
                    0
                } else {
                    strong_moves + 1
                }
            }
            Some(_) => strong_moves,
            None => 0,
        };
        let endgame = if tzdraft_endgame(after) {
            endgame_plies + 1
        } else {
            0
        };
        self.plies += 1;
        self.quiet_run = if capture { 0 } else { self.quiet_run + 1 };
        let own = &mut self.quiet_moves[side_index(mover)];
        *own = if capture { 0 } else { *own + 1 };
        if thirty >= 60 {
            Some(DrawReason::TzDraftThirtyMoves)
        } else if three_kings >= 12 {
            Some(DrawReason::TzDraftThreeKings)
        } else if endgame >= 10 {
            Some(DrawReason::TzDraftEndgame)
        } else {
            king_against_king(after).then_some(DrawReason::TzDraftKingAgainstKing)
        }
    }

    /// Which of the server's draw rules ends a game at its first position, before any move:
    /// only one king against one king (the counting rules need moves).
    pub fn drawn_at_start(pos: &Position) -> Option<DrawReason> {
        king_against_king(pos).then_some(DrawReason::TzDraftKingAgainstKing)
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Plies since the last capture.
    pub fn quiet_run(&self) -> u32 {
        self.quiet_run
    }

    /// The moves `side` has made since its own last capture.
    pub fn quiet_moves(&self, side: Color) -> u32 {
        self.quiet_moves[side_index(side)]
    }
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
            server: variant.tzdraft_captures().then(TzDraftCounts::default),
            outcome: None,
        };
        game.adjudicate(None, None);
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

    /// TzDraft's server's counts so far ([`Variant::TzDraft`] games only).
    pub fn tzdraft_counts(&self) -> Option<TzDraftCounts> {
        self.server
    }

    /// Plays `mv`, which must be legal in the current position; updates the outcome.
    pub fn play(&mut self, mv: &Move) {
        let mover = self.position.turn();
        let before = self.position;
        self.position = self.position.play(mv);
        let server_draw = self
            .server
            .as_mut()
            .and_then(|counts| counts.play(&before, &self.position, mover, mv.is_capture()));
        self.adjudicate(Some(mover), server_draw);
    }

    fn adjudicate(&mut self, mover: Option<Color>, server_draw: Option<DrawReason>) {
        self.outcome = None;
        if !self.position.has_legal_move(self.variant) {
            self.outcome = Some(Outcome::Win(self.position.turn().other()));
            return;
        }
        if self.server.is_some() {
            // After a move its count says it all; a game's first position is drawn only
            // by the material.
            self.outcome = match mover {
                Some(_) => server_draw,
                None => TzDraftCounts::drawn_at_start(&self.position),
            }
            .map(Outcome::Draw);
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
