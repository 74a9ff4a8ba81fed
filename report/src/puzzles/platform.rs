//! What the platform formats ([`super::tzdraft`], [`super::lichess`]) share: a puzzle's
//! [`fingerprint`] (their ids), the solution as a player is given it ([`solver_line`]),
//! whether it is an endgame ([`is_endgame`]).

use drafti_analysis::puzzles::Puzzle;
use drafti_rules::{Color, Move};

/// A puzzle's fingerprint: FNV-1a (128 bits) of its variant, its FEN and its solution
/// (each move's full path in square numbers). The same puzzle has the same fingerprint in
/// every run, whatever the input order or the threads.
pub fn fingerprint(p: &Puzzle) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut text = format!("{}\n{}", p.variant.name(), p.position.to_fen());
    for mv in &p.solution {
        text.push(' ');
        text.push_str(&mv.full_notation(true));
    }
    text.bytes()
        .fold(OFFSET, |h, b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The solution as a player is given it: up to the solver's last move (an opponent's reply
/// after it, which only lets the gain be counted, is left out).
pub fn solver_line(p: &Puzzle) -> &[Move] {
    let n = p.solution.len();
    if n.is_multiple_of(2) {
        &p.solution[..n.saturating_sub(1)]
    } else {
        &p.solution
    }
}

/// An endgame puzzle: judged by the endgame tables, or 8 pieces or fewer on the board.
pub fn is_endgame(p: &Puzzle) -> bool {
    let pieces = p.position.pieces(Color::White).count() + p.position.pieces(Color::Black).count();
    p.exact || pieces <= 8
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use drafti_analysis::puzzles::{mine_game, Collection, Entry, PuzzleOptions, Source};
    use drafti_archive::replay::{replay, ReplayOptions};
    use drafti_rules::Variant;

    /// The puzzles of one PDN game, each with its source in `club.pdn`.
    pub(crate) fn mined(pdn: &str) -> Vec<Entry> {
        let record = drafti_pdn::parse_games(pdn.as_bytes()).remove(0).unwrap();
        let game = replay(record, &ReplayOptions::default());
        let mut collection = Collection::new();
        for found in mine_game(&game, &PuzzleOptions::default()).found {
            collection.add(found.puzzle, Source::of("club.pdn", 0, &game, found.ply));
        }
        collection.entries().to_vec()
    }

    /// Black's f6-e5 walks into a shot: c3-d4 e5xc3 d2xb4xd6xf8.
    pub(crate) const SHOT: &str = r#"[White "Asha"] [Black "Baraka"] [SetUp "1"] [FEN "B:Wc3,d2,e1,e3:Bc5,f6,e7,g7,h6"]
        1... f6-e5 2. c3-d4 e5xc3 3. d2xf8 1-0"#;

    /// The shot set up at the puzzle itself: no move before it.
    pub(crate) const SHOT_SET_UP: &str =
        r#"[SetUp "1"] [FEN "W:W22,23,26,31:B7,8,12,14,15"] 1. 22-18 *"#;

    #[test]
    fn the_fingerprint_is_the_puzzle_s_and_not_its_source_s() {
        let from_game = mined(SHOT);
        let set_up = mined(SHOT_SET_UP);
        assert_eq!(from_game.len(), 1);
        assert_eq!(set_up.len(), 1);
        let (a, b) = (&from_game[0].puzzle, &set_up[0].puzzle);
        assert_eq!(a.position, b.position);
        assert_eq!(fingerprint(a), fingerprint(b));
        let mut other = a.clone();
        other.solution.pop();
        assert_ne!(fingerprint(&other), fingerprint(a));
        other = a.clone();
        other.variant = Variant::Russian;
        assert_ne!(fingerprint(&other), fingerprint(a));
    }

    #[test]
    fn solver_line_ends_on_the_solver_s_move() {
        let mut p = mined(SHOT)[0].puzzle.clone();
        assert_eq!(p.solution.len(), 3);
        assert_eq!(solver_line(&p).len(), 3);
        let reply = p.solution[1];
        p.solution.push(reply);
        assert_eq!(solver_line(&p), &p.solution[..3]);
    }
}
