//! The openings a match starts its games from: a built-in set of balanced 4-ply openings, or
//! the games or FEN lines of a file.
//!
//! Built-in: every sequence of 4 plies from the start (White first), one per distinct
//! resulting position, taken in an order shuffled by the seed; each is kept if a depth-8
//! search of its position scores it within ±0.25 men (the side to move is neither clearly
//! better nor worse). Only as many are searched as the match needs.

use drafti_archive::replay::{replay, ReplayOptions};
use drafti_engine::{Engine, Limits};
use drafti_rules::{Color, Move, MoveList, Position, Variant};
use std::collections::HashSet;

/// A start for one pair of games.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the record starts from (the standard start, or a FEN).
    pub start: Position,
    /// The moves played from it before the engines take over.
    pub moves: Vec<Move>,
}

/// Plies of a built-in opening.
pub const PLIES: usize = 4;
/// The most a built-in opening may be out of balance, in hundredths of a man.
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

/// Every distinct position `PLIES` plies from the start, with the first line reaching it
/// (in move-generation order).
fn four_ply_lines(variant: Variant) -> Vec<Vec<Move>> {
    fn walk(
        pos: &Position,
        variant: Variant,
        line: &mut Vec<Move>,
        seen: &mut HashSet<Position>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if line.len() == PLIES {
            if seen.insert(*pos) {
                out.push(line.clone());
            }
            return;
        }
        let mut list = MoveList::new();
        pos.generate_moves(variant, &mut list);
        for mv in list.as_slice() {
            line.push(*mv);
            walk(&pos.play(mv), variant, line, seen, out);
            line.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        &Position::start(Color::White),
        variant,
        &mut Vec::new(),
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// `count` balanced built-in openings for `variant` (fewer only if the variant has fewer).
pub fn builtin(variant: Variant, count: usize, seed: u64) -> Vec<Opening> {
    let mut lines = four_ply_lines(variant);
    let mut rng = Rng::new(seed);
    // Fisher-Yates, so the first games already spread over the whole set.
    for i in (1..lines.len()).rev() {
        lines.swap(i, rng.below(i + 1));
    }
    let start = Position::start(Color::White);
    let mut engine = Engine::new(variant, 1);
    let mut out = Vec::with_capacity(count);
    for moves in lines {
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

/// The openings of a file: one FEN per line (blank lines and lines starting with `#` or `;`
/// skipped), or else the games of a PDN file (their start and mainline moves; games that do
/// not replay are skipped and counted).
pub fn from_file(text: &str, variant: Variant) -> Result<(Vec<Opening>, usize), String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
        .collect();
    let fens: Option<Vec<Position>> = lines.iter().map(|l| Position::from_fen(l).ok()).collect();
    if let Some(fens) = fens.filter(|f| !f.is_empty()) {
        let openings = fens
            .into_iter()
            .map(|start| Opening {
                start,
                moves: Vec::new(),
            })
            .collect();
        return Ok((openings, 0));
    }
    let options = ReplayOptions {
        variant_override: Some(variant),
        variations: false,
        ..ReplayOptions::default()
    };
    let mut openings = Vec::new();
    let mut skipped = 0;
    for record in drafti_pdn::parse_games(text.as_bytes()) {
        let Ok(record) = record else {
            skipped += 1;
            continue;
        };
        let game = replay(record, &options);
        if !game.is_valid() || game.outcome.is_some() {
            skipped += 1;
            continue;
        }
        openings.push(Opening {
            start: game.start,
            moves: game.moves,
        });
    }
    if openings.is_empty() {
        return Err("no opening in it (expected FEN lines or PDN games that replay)".to_string());
    }
    Ok((openings, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_distinct_balanced_and_seeded() {
        let a = builtin(Variant::Tanzanian, 6, 1);
        assert_eq!(a.len(), 6);
        let finals: HashSet<Position> = a
            .iter()
            .map(|o| o.moves.iter().fold(o.start, |p, m| p.play(m)))
            .collect();
        assert_eq!(finals.len(), 6);
        assert!(a.iter().all(|o| o.moves.len() == PLIES));
        let again = builtin(Variant::Tanzanian, 6, 1);
        assert!(a.iter().zip(&again).all(|(x, y)| x.moves == y.moves));
        let other = builtin(Variant::Tanzanian, 6, 2);
        assert!(a.iter().zip(&other).any(|(x, y)| x.moves != y.moves));
    }

    #[test]
    fn files() {
        let (fens, _) = from_file(
            "# two\nW:W21-32:B1-12\n\nB:W21-32:B1-12\n",
            Variant::Tanzanian,
        )
        .unwrap();
        assert_eq!(fens.len(), 2);
        assert_eq!(fens[1].start.turn(), Color::Black);
        let pdn = "[Event \"a\"]\n1. c3-d4 f6-e5 *\n\n[Event \"b\"]\n1. c3-c5 *\n";
        let (games, skipped) = from_file(pdn, Variant::Tanzanian).unwrap();
        assert_eq!((games.len(), skipped), (1, 1));
        assert_eq!(games[0].moves.len(), 2);
        assert!(from_file("nothing here", Variant::Tanzanian).is_err());
    }
}
