//! Classification: the deepest book position a game passes through in its first
//! [`CLASSIFY_PLIES`] plies, looked at as if White had started.

use super::{Book, BookEntry, CLASSIFY_PLIES};
use drafti_rules::{Color, Position};

/// A game's opening: the book entry and the ply at which the game reached its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classification<'b> {
    /// The entry.
    pub entry: &'b BookEntry,
    /// The entry's index in [`Book::entries`].
    pub index: usize,
    /// The number of plies played when the game reached the position (1-based: the position
    /// after the game's first move is ply 1).
    pub ply: usize,
}

/// `position` as if White had started: unchanged when White moved first, else mirrored
/// (board turned 180°, colours swapped).
///
/// ```
/// use drafti_archive::openings::normalised;
/// use drafti_rules::{Color, Position};
/// assert_eq!(normalised(&Position::start(Color::Black), Color::Black), Position::start(Color::White));
/// ```
#[inline]
pub fn normalised(position: &Position, first_mover: Color) -> Position {
    match first_mover {
        Color::White => *position,
        Color::Black => position.mirrored(),
    }
}

impl Book {
    /// The opening of a game: the deepest (latest) of `positions` within the first
    /// [`CLASSIFY_PLIES`] plies that the book names, after colour normalisation.
    ///
    /// `positions` are the game's positions in order, the first being the position before
    /// its first move (so `positions[k]` is the position after `k` plies); `first_mover` is
    /// the side that made the first move. Positions beyond ply 40 are ignored.
    pub fn classify(
        &self,
        positions: &[Position],
        first_mover: Color,
    ) -> Option<Classification<'_>> {
        positions
            .iter()
            .enumerate()
            .take(CLASSIFY_PLIES + 1)
            .skip(1)
            .rev()
            .find_map(|(ply, pos)| {
                self.lookup_index(&normalised(pos, first_mover))
                    .map(|index| Classification {
                        entry: &self.entries()[index],
                        index,
                        ply,
                    })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::testutil::line;

    /// A square turned 180°: a1 ↔ h8.
    fn turn(square: &str) -> String {
        let b = square.as_bytes();
        format!(
            "{}{}",
            (b'h' - (b[0] - b'a')) as char,
            (b'8' - (b[1] - b'1')) as char
        )
    }

    fn mirror_move(text: &str) -> String {
        text.split('-').map(turn).collect::<Vec<_>>().join("-")
    }

    #[test]
    fn transposed_move_orders_classify_the_same() {
        let book = Book::builtin();
        // 1. c3-d4 f6-g5 2. a3-b4 g7-f6 and 1. a3-b4 f6-g5 2. c3-d4 g7-f6 reach one position.
        let a = line(Color::White, &["c3-d4", "f6-g5", "a3-b4", "g7-f6"]);
        let b = line(Color::White, &["a3-b4", "f6-g5", "c3-d4", "g7-f6"]);
        assert_eq!(a[4], b[4]);
        let ca = book.classify(&a, Color::White).unwrap();
        let cb = book.classify(&b, Color::White).unwrap();
        assert_eq!(ca.entry.code, cb.entry.code);
        assert_eq!(ca.ply, 4);
        // The canonical (lexicographically first) order names it.
        assert_eq!(ca.entry.code, "a3b4.f6g5.c3d4.g7f6");
        assert_eq!(ca.entry.name, "a3-b4 f6-g5 c3-d4 g7-f6 (4 plies)");
        // A user book keyed by one order classifies the other order too.
        let mine = Book::parse("T\tTransposed\t1. c3-d4 f6-g5 2. a3-b4 g7-f6\n").unwrap();
        assert_eq!(mine.classify(&a, Color::White).unwrap().entry.code, "T");
        assert_eq!(mine.classify(&b, Color::White).unwrap().entry.code, "T");
    }

    #[test]
    fn black_first_game_classifies_like_its_mirror() {
        let book = Book::builtin();
        let white = ["c3-d4", "d6-e5", "b2-c3", "e7-d6", "a3-b4"];
        let black: Vec<String> = white.iter().map(|m| mirror_move(m)).collect();
        let black: Vec<&str> = black.iter().map(String::as_str).collect();
        assert_eq!(black[0], "f6-e5");
        let w = line(Color::White, &white);
        let b = line(Color::Black, &black);
        let cw = book.classify(&w, Color::White).unwrap();
        let cb = book.classify(&b, Color::Black).unwrap();
        assert_eq!(cw, cb);
        assert_eq!(cw.ply, 4);
        // Without normalisation the Black-first game would not be found at all.
        assert!(book.classify(&b, Color::White).is_none());
    }

    #[test]
    fn deepest_position_wins_and_window_is_40_plies() {
        let mut book = Book::builtin();
        book.merge(
            Book::parse("DEEP\tFive plies\t1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. a3-b4\n").unwrap(),
        )
        .unwrap();
        let w = line(
            Color::White,
            &["c3-d4", "d6-e5", "b2-c3", "e7-d6", "a3-b4", "f6-g5"],
        );
        let c = book.classify(&w, Color::White).unwrap();
        assert_eq!((c.entry.code.as_str(), c.ply), ("DEEP", 5));
        // The start position alone, or one ply, is not classified.
        assert!(book.classify(&w[..2], Color::White).is_none());
        // Only positions[0..=40] are looked at.
        let mut long = vec![Position::start(Color::White); 41];
        long.push(w[2]);
        assert!(book.classify(&long, Color::White).is_none());
        long[40] = w[2];
        assert_eq!(book.classify(&long, Color::White).unwrap().ply, 40);
    }
}
