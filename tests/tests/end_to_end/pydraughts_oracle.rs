//! Differential test of drafti's Russian move generator against pydraughts, an independent
//! Python implementation of Russian draughts (PyPI `pydraughts`, helper script
//! `tests/oracle/pydraughts_moves.py`).
//!
//! Positions: 1,500 distinct positions from seeded random play (xorshift64*, Russian rules,
//! White first, games of up to 150 plies, every position kept while both sides have pieces)
//! and 500 random legal setups rich in kings (which exercise flying-king captures far more than
//! play from the start does). All positions go to Python in one batch on stdin; the test takes
//! a few seconds.
//!
//! For each position the SETS of moves are compared as (from, to, captured set), by square,
//! never by text. pydraughts numbers the squares of its "russian" variant from White's side
//! (a1=1, c1=2, e1=3, g1=4, b2=5 … h8=32, whereas drafti has b8=1 … g1=32); the helper turns its
//! numbers into algebraic names and checks that mapping against pydraughts' own converter and
//! the start position first. pydraughts lists a move reached by two routes twice (e.g. a
//! king's ring capture, see `rules_cases.rs`); drafti lists it once, which the test checks.
//!
//! Last run (pydraughts 0.6.7, Python 3.11.7): 2,000 positions (634 with a king of the side to
//! move), 10,767 legal moves of which 1,755 captures, all equal; about 14 s in release, nearly
//! all of it in Python. (A check of the check: comparing drafti's Czech moves instead makes
//! 265 positions differ.)
//!
//! pydraughts must be installed (`pip install pydraughts`; CI does it): without it the test
//! fails, it never skips.

use drafti_rules::{Color, Move, Position, Variant};
use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::process::{Command, Stdio};

const MISSING: &str = "pydraughts is missing: pip install pydraughts";
const PLAYED: usize = 1_500;
const SETUPS: usize = 500;

/// xorshift64* (Vigna): small, deterministic, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn python() -> String {
    std::env::var("DRAFTI_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn script() -> String {
    format!("{}/oracle/pydraughts_moves.py", env!("CARGO_MANIFEST_DIR"))
}

/// Both sides have at least one piece.
fn interesting(pos: &Position) -> bool {
    !pos.pieces(Color::White).is_empty() && !pos.pieces(Color::Black).is_empty()
}

/// Distinct positions from random games of Russian draughts.
fn played_positions(rng: &mut Rng, count: usize) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(Color::White);
        for _ in 0..150 {
            if !interesting(&pos) {
                break;
            }
            if seen.insert(pos) {
                out.push(pos);
                if out.len() == count {
                    break;
                }
            }
            let moves = pos.legal_moves(Variant::Russian);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    out
}

/// Random legal setups: 1–8 pieces a side, about half of them kings, no man on its crowning
/// row.
fn random_setups(rng: &mut Rng, count: usize) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let (mut white, mut black, mut kings) = (0u32, 0u32, 0u32);
        for color in [Color::White, Color::Black] {
            let n = 1 + rng.below(8);
            let mut placed = 0;
            while placed < n {
                let i = rng.below(32) as u32;
                let bit = 1u32 << i;
                if (white | black) & bit != 0 {
                    continue;
                }
                let king = rng.below(2) == 0;
                // Squares 1-4 (8th rank) crown White; 29-32 (1st rank) crown Black.
                let crowning = match color {
                    Color::White => i < 4,
                    Color::Black => i >= 28,
                };
                if crowning && !king {
                    continue;
                }
                match color {
                    Color::White => white |= bit,
                    Color::Black => black |= bit,
                }
                if king {
                    kings |= bit;
                }
                placed += 1;
            }
        }
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let fen = format!(
            "{}:W{}:B{}",
            turn.letter(),
            list(white, kings),
            list(black, kings)
        );
        out.push(Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
    }
    out
}

fn list(set: u32, kings: u32) -> String {
    (0..32)
        .filter(|i| set & (1 << i) != 0)
        .map(|i| {
            let k = if kings & (1 << i) != 0 { "K" } else { "" };
            format!("{k}{}", i + 1)
        })
        .collect::<Vec<_>>()
        .join(",")
}

type Key = (String, String, Vec<String>);

fn key(m: &Move) -> Key {
    let mut caps: Vec<String> = m.captured().into_iter().map(|s| s.to_string()).collect();
    caps.sort();
    (m.from().to_string(), m.to().to_string(), caps)
}

/// Runs the helper on every position in one batch; one move list per position.
fn pydraughts_moves(positions: &[Position]) -> Vec<BTreeSet<Key>> {
    let check = Command::new(python())
        .args(["-c", "import draughts.core.variant"])
        .output();
    match check {
        Ok(out) if out.status.success() => {}
        _ => panic!("{MISSING}"),
    }
    let mut child = Command::new(python())
        .arg(script())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{MISSING} ({e})"));
    let input: String = positions
        .iter()
        .map(|p| p.to_fen_algebraic() + "\n")
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(3) {
        panic!("{MISSING}");
    }
    assert!(out.status.success(), "pydraughts helper failed: {stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lists: Vec<BTreeSet<Key>> = text
        .lines()
        .map(|line| {
            let moves: Vec<(String, String, Vec<String>)> = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("bad helper output {line}: {e}"));
            moves.into_iter().collect()
        })
        .collect();
    assert_eq!(
        lists.len(),
        positions.len(),
        "helper answered {} of {} positions",
        lists.len(),
        positions.len()
    );
    lists
}

#[test]
fn russian_moves_match_pydraughts() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = played_positions(&mut rng, PLAYED);
    positions.extend(random_setups(&mut rng, SETUPS));
    assert_eq!(positions.len(), PLAYED + SETUPS);
    let theirs = pydraughts_moves(&positions);

    let (mut moves, mut captures, mut kings) = (0usize, 0usize, 0usize);
    let mut mismatches = Vec::new();
    for (pos, theirs) in positions.iter().zip(&theirs) {
        let legal = pos.legal_moves(Variant::Russian);
        let ours: BTreeSet<Key> = legal.iter().map(key).collect();
        assert_eq!(
            ours.len(),
            legal.len(),
            "drafti lists a move twice in {pos}"
        );
        moves += legal.len();
        captures += legal.iter().filter(|m| m.is_capture()).count();
        kings += usize::from(!pos.kings(pos.turn()).is_empty());
        if &ours != theirs {
            let only_ours: Vec<_> = ours.difference(theirs).collect();
            let only_theirs: Vec<_> = theirs.difference(&ours).collect();
            mismatches.push(format!(
                "{}\n{}only drafti: {only_ours:?}\nonly pydraughts: {only_theirs:?}",
                pos.to_fen_algebraic(),
                pos.board_text()
            ));
        }
    }
    eprintln!(
        "compared {} positions ({kings} with a king to move), {moves} moves ({captures} captures)",
        positions.len()
    );
    assert!(captures > 1_000 && kings > 300, "the sample is too tame");
    assert!(
        mismatches.is_empty(),
        "{} of {} positions differ from pydraughts; first ones:\n{}",
        mismatches.len(),
        positions.len(),
        mismatches[..mismatches.len().min(5)].join("\n\n")
    );
}
