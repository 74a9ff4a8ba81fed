//! A move: where the piece starts and ends, every square it lands on, what it captures (in
//! order) and whether it is crowned.

use crate::{Bitboard, Square};
use std::mem::MaybeUninit;

/// The most pieces one capture can take (every enemy piece).
pub const MAX_CAPTURES: usize = 12;

/// A legal move as the generator produces it.
///
/// Two capture routes with the same start, end and set of captured pieces are one move: the
/// generator keeps the first route it finds.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) captured: u32,
    pub(crate) promotes: bool,
    pub(crate) len: u8,
    /// Landing square after each capture (the last one is `to`).
    pub(crate) landings: [u8; MAX_CAPTURES],
    /// Captured squares in capture order.
    pub(crate) order: [u8; MAX_CAPTURES],
}

impl Move {
    /// A quiet (non-capturing) move.
    pub(crate) const fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            from,
            to,
            captured: 0,
            promotes,
            len: 0,
            landings: [to.index(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            order: [0; MAX_CAPTURES],
        }
    }

    /// A move from its parts as [`Move::path`], [`Move::captures`] and [`Move::promotes`]
    /// give them (a move read back from storage): `None` when they are not a move's shape (a
    /// quiet move is two squares; a capture lands once per piece it takes, at most
    /// [`MAX_CAPTURES`], each taken once). Not checked against a position: compare it with
    /// [`Move::same_move`] to a position's legal moves for that.
    ///
    /// ```
    /// use drafti_rules::{Move, Position, Variant};
    /// let pos = Position::from_fen("W:Wc3:Bd4,f6").unwrap();
    /// let mv = pos.legal_moves(Variant::Tanzanian)[0];
    /// let path: Vec<_> = mv.path().collect();
    /// let captures: Vec<_> = mv.captures().collect();
    /// let back = Move::from_parts(&path, &captures, mv.promotes()).unwrap();
    /// assert!(back.same_move(&mv) && back.path().eq(mv.path()));
    /// assert_eq!(Move::from_parts(&path[..1], &[], false), None);
    /// ```
    pub fn from_parts(path: &[Square], captures: &[Square], promotes: bool) -> Option<Move> {
        let (&from, landings) = path.split_first()?;
        let &to = landings.last()?;
        if captures.is_empty() {
            return (landings.len() == 1).then(|| Move::quiet(from, to, promotes));
        }
        if landings.len() != captures.len() || captures.len() > MAX_CAPTURES {
            return None;
        }
        let mut mv = Move::quiet(from, to, promotes);
        for (i, (&land, &taken)) in landings.iter().zip(captures).enumerate() {
            let bit = 1u32 << taken.index();
            if mv.captured & bit != 0 {
                return None;
            }
            mv.captured |= bit;
            mv.landings[i] = land.index();
            mv.order[i] = taken.index();
        }
        mv.len = captures.len() as u8;
        Some(mv)
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Where the piece ends.
    #[inline]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The set of captured squares.
    #[inline]
    pub const fn captured(&self) -> Bitboard {
        Bitboard(self.captured)
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether a man is crowned by this move.
    #[inline]
    pub const fn promotes(&self) -> bool {
        self.promotes
    }

    /// The number of pieces captured.
    #[inline]
    pub const fn capture_count(&self) -> usize {
        self.len as usize
    }

    /// Captured squares in the order they were jumped.
    pub fn captures(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.order[..self.len as usize]
            .iter()
            .map(|&i| Square::new_unchecked(i))
    }

    /// Every square the piece stands on: the start, each landing square, the end.
    ///
    /// ```
    /// use drafti_rules::{Position, Variant};
    /// let pos = Position::from_fen("W:Wc3:Bd4,f6").unwrap();
    /// let moves = pos.legal_moves(Variant::Tanzanian);
    /// let path: Vec<String> = moves[0].path().map(|s| s.to_string()).collect();
    /// assert_eq!(path, ["c3", "e5", "g7"]);
    /// ```
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        let landings = (self.len as usize).max(1);
        std::iter::once(self.from).chain(
            self.landings[..landings]
                .iter()
                .map(|&i| Square::new_unchecked(i)),
        )
    }

    /// Whether `other` is the same move: same start, end and captured set.
    #[inline]
    pub fn same_move(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.full_notation(false))
    }
}

/// Capacity of a [`MoveList`]: more than any position can have (12 kings have at most
/// 12 × 13 quiet moves; captures are far fewer).
pub const MOVE_LIST_CAPACITY: usize = 256;

/// A fixed-capacity list of moves that lives on the stack (the generator's hot path never
/// allocates, and an empty list costs nothing to make).
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MOVE_LIST_CAPACITY],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [MaybeUninit::uninit(); MOVE_LIST_CAPACITY],
        }
    }

    /// Adds a move; a move beyond the capacity is dropped (no legal position gets there).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.len < MOVE_LIST_CAPACITY {
            self.moves[self.len].write(mv);
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` slots were written by `push`; `Move` is `Copy`, so
        // there is nothing to drop.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves, mutable (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut list = MoveList::new();
        for mv in self.as_slice() {
            list.push(*mv);
        }
        list
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}
