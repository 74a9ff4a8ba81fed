//! Position keys: a position and its rules packed exactly into 99 bits of a `u128` (no hash,
//! so two positions never share a key), and the move codes the index stores.
//!
//! A key holds the white men and kings, the black men and kings, the kings mask, the side to
//! move and the variant: `variant << 97 | kings << 65 | black-to-move << 64 | white << 32 |
//! black`. Keys sort by variant, then kings (almost always none in an opening), then turn.

use drafti_rules::{Bitboard, Color, Move, MoveList, Position, Variant};

/// The bytes a key takes on disk (99 bits, big-endian).
pub const KEY_BYTES: usize = 13;

/// A position with its rules, packed exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PositionKey(pub u128);

/// The number of a variant in keys and records.
pub const fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Tanzanian => 0,
        Variant::Czech => 1,
        Variant::Russian => 2,
        Variant::TzDraft => 3,
    }
}

/// The variant of a number written by [`variant_code`].
pub const fn variant_from_code(code: u8) -> Option<Variant> {
    match code {
        0 => Some(Variant::Tanzanian),
        1 => Some(Variant::Czech),
        2 => Some(Variant::Russian),
        3 => Some(Variant::TzDraft),
        _ => None,
    }
}

impl PositionKey {
    /// The key of `position` under `variant`.
    ///
    /// ```
    /// use drafti_db::PositionKey;
    /// use drafti_rules::{Color, Position, Variant};
    /// let start = Position::start(Color::White);
    /// let key = PositionKey::new(&start, Variant::Russian);
    /// assert_eq!(key.position(), Some((start, Variant::Russian)));
    /// assert_ne!(key, PositionKey::new(&start, Variant::Tanzanian));
    /// ```
    #[inline]
    pub fn new(position: &Position, variant: Variant) -> PositionKey {
        let white = position.pieces(Color::White).0 as u128;
        let black = position.pieces(Color::Black).0 as u128;
        let kings = (position.kings(Color::White).0 | position.kings(Color::Black).0) as u128;
        let turn = (position.turn() == Color::Black) as u128;
        PositionKey(
            (variant_code(variant) as u128) << 97 | kings << 65 | turn << 64 | white << 32 | black,
        )
    }

    /// The position and variant, or `None` for bits that are no position (a damaged file).
    pub fn position(self) -> Option<(Position, Variant)> {
        let v = self.0;
        if v >> 99 != 0 {
            return None;
        }
        let variant = variant_from_code((v >> 97) as u8 & 3)?;
        let kings = Bitboard((v >> 65) as u32);
        let turn = if (v >> 64) & 1 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let white = Bitboard((v >> 32) as u32);
        let black = Bitboard(v as u32);
        let position = Position::from_parts(white, black, kings, turn).ok()?;
        Some((position, variant))
    }

    /// The key's bytes on disk.
    pub fn to_bytes(self) -> [u8; KEY_BYTES] {
        let all = self.0.to_be_bytes();
        let mut out = [0u8; KEY_BYTES];
        out.copy_from_slice(&all[16 - KEY_BYTES..]);
        out
    }

    /// The key of bytes written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> PositionKey {
        let mut all = [0u8; 16];
        all[16 - KEY_BYTES..].copy_from_slice(&bytes);
        PositionKey(u128::from_be_bytes(all))
    }
}

/// The code of a move: its place in the position's list of legal moves (the generator's
/// order, which is fixed for a position and variant).
pub type MoveCode = u8;

/// The code that stands for "no move": the game ended there, or the window did.
pub const NO_MOVE: MoveCode = u8::MAX;

/// The code of `mv` among the legal moves of `position`, if it is one of them.
pub fn move_code(position: &Position, variant: Variant, mv: &Move) -> Option<MoveCode> {
    let mut list = MoveList::new();
    position.generate_moves(variant, &mut list);
    let at = list.as_slice().iter().position(|m| m.same_move(mv))?;
    MoveCode::try_from(at).ok().filter(|&c| c != NO_MOVE)
}

/// The move of code `code` in `position`, if there is one.
pub fn move_of_code(position: &Position, variant: Variant, code: MoveCode) -> Option<Move> {
    let mut list = MoveList::new();
    position.generate_moves(variant, &mut list);
    list.as_slice().get(code as usize).copied()
}

/// `position` as if White had started: mirrored (board turned, colours swapped) when Black
/// made the first move, as `drafti openings` looks at games.
#[inline]
pub fn normalised(position: &Position, first_mover: Color) -> Position {
    drafti_archive::openings::normalised(position, first_mover)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_refuse_foreign_bits() {
        let pos = Position::from_fen("B:WKc3,e3:Bd6,Kh8").unwrap();
        for variant in Variant::ALL {
            let key = PositionKey::new(&pos, variant);
            assert_eq!(PositionKey::from_bytes(key.to_bytes()), key);
            assert_eq!(key.position(), Some((pos, variant)));
        }
        assert_eq!(PositionKey(1 << 100).position(), None);
        // A square held by both sides is no position.
        assert_eq!(PositionKey(1 << 32 | 1).position(), None);
    }

    #[test]
    fn move_codes_round_trip() {
        let pos = Position::start(Color::White);
        for (i, mv) in pos.legal_moves(Variant::Russian).iter().enumerate() {
            let code = move_code(&pos, Variant::Russian, mv).unwrap();
            assert_eq!(code as usize, i);
            assert_eq!(move_of_code(&pos, Variant::Russian, code), Some(*mv));
        }
        assert_eq!(move_of_code(&pos, Variant::Russian, 7), None);
    }
}
