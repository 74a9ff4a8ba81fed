//! Zobrist hashing: a 64-bit key per position, for transposition tables and repetitions.

use crate::{Color, Position, SplitMix64};

/// `KEYS[kind][square]` with kind 0 white man, 1 white king, 2 black man, 3 black king.
static KEYS: [[u64; 32]; 4] = {
    let mut keys = [[0u64; 32]; 4];
    let mut rng = SplitMix64::new(0x6472_6166_7469); // "drafti"
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 32 {
            keys[kind][sq] = rng.next_u64();
            sq += 1;
        }
        kind += 1;
    }
    keys
};

/// Added when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x8F1B_BCDC_BFA5_3E0B;

/// The key of one piece on one square.
#[inline]
pub fn piece_key(color: Color, king: bool, square: u8) -> u64 {
    KEYS[(color as usize) * 2 + king as usize][square as usize]
}

impl Position {
    /// The position's Zobrist key (pieces and side to move).
    ///
    /// ```
    /// use drafti_rules::{Color, Position};
    /// let a = Position::start(Color::White);
    /// assert_ne!(a.hash_key(), a.with_turn(Color::Black).hash_key());
    /// ```
    pub fn hash_key(&self) -> u64 {
        let mut key = if self.turn == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for (kind, set) in [
            self.white & !self.kings,
            self.white & self.kings,
            self.black & !self.kings,
            self.black & self.kings,
        ]
        .into_iter()
        .enumerate()
        {
            let mut set = set;
            while set != 0 {
                key ^= KEYS[kind][set.trailing_zeros() as usize];
                set &= set - 1;
            }
        }
        key
    }
}
