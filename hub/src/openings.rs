//! Where a match's games start: an [`Opening`] is a position and moves played from it before
//! the players take over. Two built-in sets: [`balanced`] (`drafti match`'s: 4-ply openings a
//! search finds level, in an order shuffled by a seed) and [`even_material`] (the duel
//! example's: every distinct position a few plies in with equal material, in a fixed order).
//! Openings from a file of FEN lines are read here ([`fen_openings`]); PDN games are the
//! caller's (reading PDN is not this crate's business).

use drafti_engine::{Engine, Limits};
use drafti_rules::{Color, Game, Move, MoveList, Position, Variant};
use std::collections::HashSet;

/// A start for one pair of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the record starts from (the standard start, or a set-up position).
    pub start: Position,
    /// The moves played from it before the players take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// A start position with no moves played from it.
    pub fn at(start: Position) -> Opening {
        Opening {
            start,
            moves: Vec::new(),
        }
    }

    /// The moves `moves` from the standard start (White first).
    pub fn from_start(moves: Vec<Move>) -> Opening {
        Opening {
            start: Position::start(Color::White),
            moves,
        }
    }
}

/// A line of a FEN openings file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct FenLineError {
    /// 1-based.
    pub line: usize,
    /// Why not (the FEN reader's error).
    pub reason: String,
}

/// An opening of a FEN file that is left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedOpening {
    /// 1-based.
    pub line: usize,
    /// Why it is not played.
    pub reason: String,
}

/// The lines of a text that hold something: not blank, not a `#` or `;` comment (1-based
/// numbers, trimmed).
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
}

/// Whether `text` is a file of FEN lines: its first line that holds something starts like a
/// FEN (`W:` or `B:`), not like a PDN game.
pub fn is_fen_file(text: &str) -> bool {
    content_lines(text).next().is_some_and(|(_, l)| {
        let b = l.as_bytes();
        b.len() > 1 && matches!(b[0], b'W' | b'w' | b'B' | b'b') && b[1] == b':'
    })
}

/// The openings of a file of FEN lines (blank lines and `#` or `;` comments skipped): a line
/// that is no FEN is an error naming it; a position whose game is already over under
/// `variant`'s rules is left out, with its line and the reason.
///
/// ```
/// use drafti_hub::openings::fen_openings;
/// use drafti_rules::Variant;
/// let text = "# two\nW:W21-32:B1-12\n\nB:W21:B\nB:W21-32:B1-12\n";
/// let (openings, skipped) = fen_openings(text, Variant::Tanzanian).unwrap();
/// assert_eq!(openings.len(), 2);
/// assert_eq!(skipped[0].line, 4);
/// let bad = fen_openings("W:W21-32:B1-12\nW:W21-32:B1-99\n", Variant::Tanzanian);
/// assert_eq!(bad.unwrap_err().line, 2);
/// ```
pub fn fen_openings(
    text: &str,
    variant: Variant,
) -> Result<(Vec<Opening>, Vec<SkippedOpening>), FenLineError> {
    let mut openings = Vec::new();
    let mut skipped = Vec::new();
    for (line, fen) in content_lines(text) {
        let start = Position::from_fen(fen).map_err(|e| FenLineError {
            line,
            reason: e.to_string(),
        })?;
        match Game::new(start, variant).outcome() {
            Some(outcome) => skipped.push(SkippedOpening {
                line,
                reason: format!("the game is already over there ({outcome})"),
            }),
            None => openings.push(Opening::at(start)),
        }
    }
    Ok((openings, skipped))
}

/// Plies of a [`balanced`] opening.
pub const PLIES: usize = 4;
/// The most a balanced opening may be out of balance, in hundredths of a man.
const BALANCE: i32 = 25;
/// The depth its balance is measured at.
const BALANCE_DEPTH: u32 = 8;

/// xorshift64* (Vigna): small and deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// Calls `visit` with every line of `plies` plies from the standard start, in
/// move-generation order.
fn lines(variant: Variant, plies: usize, visit: &mut dyn FnMut(&Position, &[Move])) {
    fn walk(
        pos: &Position,
        variant: Variant,
        plies: usize,
        line: &mut Vec<Move>,
        visit: &mut dyn FnMut(&Position, &[Move]),
    ) {
        if line.len() == plies {
            visit(pos, line);
            return;
        }
        let mut list = MoveList::new();
        pos.generate_moves(variant, &mut list);
        for mv in list.as_slice() {
            line.push(*mv);
            walk(&pos.play(mv), variant, plies, line, visit);
            line.pop();
        }
    }
    walk(
        &Position::start(Color::White),
        variant,
        plies,
        &mut Vec::new(),
        visit,
    );
}

/// `count` balanced openings for `variant` (fewer only if the variant has fewer): every
/// distinct position [`PLIES`] plies from the start, with the first line reaching it, taken
/// in an order shuffled by `seed`; each is kept if a depth-8 search scores it within ±0.25
/// men. Only as many are searched as are asked for.
///
/// ```
/// use drafti_hub::openings::{balanced, PLIES};
/// use drafti_rules::Variant;
/// let openings = balanced(Variant::Tanzanian, 2, 1);
/// assert_eq!(openings.len(), 2);
/// assert!(openings.iter().all(|o| o.moves.len() == PLIES));
/// ```
pub fn balanced(variant: Variant, count: usize, seed: u64) -> Vec<Opening> {
    let mut all = Vec::new();
    let mut seen = HashSet::new();
    lines(variant, PLIES, &mut |pos, line| {
        if seen.insert(*pos) {
            all.push(line.to_vec());
        }
    });
    let mut rng = Rng::new(seed);
    // Fisher-Yates, so the first games already spread over the whole set.
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    let start = Position::start(Color::White);
    let mut engine = Engine::new(variant, 1);
    let mut out = Vec::with_capacity(count);
    for moves in all {
        if out.len() == count {
            break;
        }
        let pos = moves.iter().fold(start, |p, m| p.play(m));
        let score = engine.search(&pos, &Limits::depth(BALANCE_DEPTH), &[], |_| {});
        if score.best.is_none()
            || score
                .score
                .as_centi_men()
                .is_none_or(|cm| cm.abs() > BALANCE)
        {
            continue;
        }
        out.push(Opening { start, moves });
    }
    out
}

/// Every distinct position `plies` plies from the start (White first) with equal material
/// and no capture pending, in a fixed pseudo-random order (the same for every match,
/// whatever the engines).
///
/// ```
/// use drafti_hub::openings::even_material;
/// use drafti_rules::Variant;
/// let openings = even_material(Variant::Tanzanian, 2);
/// assert!(openings.len() > 1);
/// assert!(openings.iter().all(|o| o.moves.len() == 2));
/// ```
pub fn even_material(variant: Variant, plies: usize) -> Vec<Opening> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    lines(variant, plies, &mut |pos, line| {
        let even = pos.pieces(Color::White).count() == pos.pieces(Color::Black).count();
        if even && !pos.has_capture(variant) && seen.insert(pos.hash_key()) {
            out.push((pos.hash_key(), line.to_vec()));
        }
    });
    // A fixed shuffle: order by a mix of the position key.
    out.sort_by_key(|(key, _)| key.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17));
    out.into_iter()
        .map(|(_, line)| Opening::from_start(line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_openings_are_distinct_and_seeded() {
        let a = balanced(Variant::Tanzanian, 6, 1);
        assert_eq!(a.len(), 6);
        let finals: HashSet<Position> = a
            .iter()
            .map(|o| o.moves.iter().fold(o.start, |p, m| p.play(m)))
            .collect();
        assert_eq!(finals.len(), 6);
        assert!(a.iter().all(|o| o.moves.len() == PLIES));
        let again = balanced(Variant::Tanzanian, 6, 1);
        assert!(a.iter().zip(&again).all(|(x, y)| x.moves == y.moves));
        let other = balanced(Variant::Tanzanian, 6, 2);
        assert!(a.iter().zip(&other).any(|(x, y)| x.moves != y.moves));
    }

    #[test]
    fn even_material_openings_are_even_and_fixed() {
        let a = even_material(Variant::Tanzanian, 4);
        assert!(a.len() > 50);
        for o in &a {
            let pos = o.moves.iter().fold(o.start, |p, m| p.play(m));
            assert_eq!(
                pos.pieces(Color::White).count(),
                pos.pieces(Color::Black).count()
            );
            assert!(!pos.has_capture(Variant::Tanzanian));
        }
        assert_eq!(a, even_material(Variant::Tanzanian, 4));
    }
}
