//! What a solution shows, read off its moves: how many pieces the shot takes, whether it
//! takes a king, crowns, starts with a sacrifice or makes a runaway man; and how hard it is,
//! from the search depth the first move needs.

use super::solve::balance;
use drafti_rules::{Color, Move, Position, Square};
use serde::Serialize;

/// The themes of a solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Themes {
    /// The most pieces one solver move captures (the shot).
    pub shot: usize,
    /// Pieces the solver captures in the whole line.
    pub captured: usize,
    /// Pieces the solver loses in the line.
    pub lost: usize,
    /// A solver capture takes a king.
    pub king_capture: bool,
    /// A solver man is crowned in the line.
    pub crowning: bool,
    /// The first solver move gives material: after the opponent's reply the solver has less
    /// than at the start.
    pub sacrifice: bool,
    /// At the end the solver has a man that nothing can stop from being crowned (no enemy
    /// king, no enemy man in its forward cone) and had none at the start.
    pub runaway: bool,
}

impl Themes {
    /// The themes of `line` played from `start` (the solver to move) under `variant`'s rules.
    pub fn of(start: &Position, line: &[Move]) -> Themes {
        let solver = start.turn();
        let mut themes = Themes::default();
        let mut pos = *start;
        for (i, mv) in line.iter().enumerate() {
            let opponent = pos.turn().other();
            if pos.turn() == solver {
                themes.shot = themes.shot.max(mv.capture_count());
                themes.captured += mv.capture_count();
                themes.king_capture |= mv.captured().0 & pos.kings(opponent).0 != 0;
                themes.crowning |= mv.promotes();
            } else {
                themes.lost += mv.capture_count();
            }
            pos = pos.play(mv);
            if i == 1 {
                themes.sacrifice = balance(&pos, solver) < balance(start, solver);
            }
        }
        themes.runaway = runaways(&pos, solver) & !runaways(start, solver) != 0;
        themes
    }

    /// The theme names, most telling first: `sacrifice`, `shot_N` (N ≥ 2 pieces in one
    /// capture), `king_capture`, `crowning`, `runaway`.
    pub fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        if self.sacrifice {
            names.push("sacrifice".to_string());
        }
        if self.shot >= 2 {
            names.push(format!("shot_{}", self.shot));
        }
        if self.king_capture {
            names.push("king_capture".to_string());
        }
        if self.crowning {
            names.push("crowning".to_string());
        }
        if self.runaway {
            names.push("runaway".to_string());
        }
        names
    }
}

/// The men of `color` that nothing can stop from being crowned: the opponent has no king and
/// no man in the man's forward cone (the squares it could pass on its way to the far row).
pub fn runaways(pos: &Position, color: Color) -> u32 {
    let them = color.other();
    if !pos.kings(them).is_empty() {
        return 0;
    }
    let enemy_men = pos.men(them).0;
    let mut out = 0;
    for sq in Square::ALL {
        if pos.men(color).contains(sq) && cone(sq, color) & enemy_men == 0 {
            out |= 1 << sq.index();
        }
    }
    out
}

/// The forward cone of a man of `color` on `sq`: every square ahead of it within as many
/// files as ranks.
fn cone(sq: Square, color: Color) -> u32 {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let mut out = 0;
    for other in Square::ALL {
        let (of, or) = (other.file() as i32, other.rank() as i32);
        let ahead = match color {
            Color::White => or - r,
            Color::Black => r - or,
        };
        if ahead > 0 && (of - f).abs() <= ahead {
            out |= 1 << other.index();
        }
    }
    out
}

/// The difficulty, 1 (easiest) to 5, of a solution whose first move the engine needs
/// `depth` plies to find (captures to the end counted free: a shot that is all captures
/// after the first move is found at depth 1). Bins: 1–2, 3, 4, 5–6, 7 and more (on the
/// bundled corpus each holds a tenth to a third of the puzzles).
pub fn difficulty(depth: u32) -> u8 {
    match depth {
        0..=2 => 1,
        3 => 2,
        4 => 3,
        5..=6 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_rules::Variant;

    fn line(start: &Position, moves: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        let mut out = Vec::new();
        for text in moves {
            let found = pos.parse_move(Variant::Tanzanian, text).unwrap();
            assert_eq!(found.len(), 1, "{text}");
            out.push(found[0]);
            pos = pos.play(&found[0]);
        }
        out
    }

    #[test]
    fn a_sacrifice_then_a_triple_capture_that_crowns() {
        // c3-d4 gives a man (e5xc3), d2 takes three and is crowned on f8.
        let start = Position::from_fen("W:Wc3,d2,e1,e3:Bc5,e5,e7,g7,h6").unwrap();
        let moves = line(&start, &["c3-d4", "e5xc3", "d2xf8"]);
        let themes = Themes::of(&start, &moves);
        assert_eq!(themes.shot, 3);
        assert_eq!(themes.captured, 3);
        assert_eq!(themes.lost, 1);
        assert!(themes.sacrifice && themes.crowning);
        assert!(!themes.king_capture && !themes.runaway);
        assert_eq!(themes.names(), ["sacrifice", "shot_3", "crowning"]);
        // An exchange (one for one) is no sacrifice.
        let start = Position::from_fen("W:Wc3,e1:Bf6,h8").unwrap();
        let moves = line(&start, &["c3-d4"]);
        assert!(!Themes::of(&start, &moves).sacrifice);
    }

    #[test]
    fn a_king_captured_and_a_man_crowned() {
        let start = Position::from_fen("W:Wc3:Bd4,Kf6,h8").unwrap();
        let moves = line(&start, &["c3xe5xg7"]);
        let themes = Themes::of(&start, &moves);
        assert_eq!(themes.shot, 2);
        assert!(themes.king_capture);
        assert!(!themes.crowning);
        assert_eq!(themes.names(), ["shot_2", "king_capture"]);
        let start = Position::from_fen("W:Wc7:Bh2").unwrap();
        let moves = line(&start, &["c7-d8"]);
        let themes = Themes::of(&start, &moves);
        assert!(themes.crowning);
        assert_eq!(themes.names(), ["crowning"]);
    }

    #[test]
    fn a_runaway_made_by_the_line() {
        // b6 stops a5; after a5xc7 the man on c7 has nothing in front of it.
        let start = Position::from_fen("W:Wa5:Bb6,h8").unwrap();
        let moves = line(&start, &["a5xc7"]);
        assert!(Themes::of(&start, &moves).runaway);
        assert_eq!(runaways(&start, Color::White), 0);
    }

    #[test]
    fn runaway_men() {
        let pos = Position::from_fen("W:Wa5,g3:Bb8,h4").unwrap();
        // a5's cone holds b6, a7, b8 (and c7…): b8 stops it. g3's cone holds h4.
        assert_eq!(runaways(&pos, Color::White), 0);
        let pos = Position::from_fen("W:Wa5,g3:Bh6").unwrap();
        let a5: Square = "a5".parse().unwrap();
        let g3: Square = "g3".parse().unwrap();
        assert_eq!(runaways(&pos, Color::White), 1 << a5.index());
        assert_eq!(runaways(&pos, Color::White) & (1 << g3.index()), 0);
        let with_king = Position::from_fen("W:Wa5:BKh8").unwrap();
        assert_eq!(runaways(&with_king, Color::White), 0);
    }

    #[test]
    fn difficulty_bins() {
        assert_eq!(difficulty(1), 1);
        assert_eq!(difficulty(2), 1);
        assert_eq!(difficulty(3), 2);
        assert_eq!(difficulty(4), 3);
        assert_eq!(difficulty(6), 4);
        assert_eq!(difficulty(7), 5);
        assert_eq!(difficulty(14), 5);
    }
}
