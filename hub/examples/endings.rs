//! How well the engine converts endings a piece up: random positions of a material (fixed
//! seed), played out by the engine against itself (or setting A against setting B, A always
//! the stronger side) to the end by the rules core's `Game` (the draw laws with law 2's
//! count) or a ply cap.
//!
//! ```text
//! cargo run --release -p drafti-hub --example endings -- --budget nodes=50000 \
//!     --positions 40 [--a SETTINGS] [--b SETTINGS] [--material 2K1M-1K,3K-1K,...] [--show]
//! ```
//! Materials are written strong side first, `K` kings and `M` men (`2K1M-1K`); the strong
//! side is White and moves first, and a position has no capture for the side to move. Three
//! kings against one always start with one of the three on the main diagonal (otherwise the
//! law draws at once). Prints, per material, the strong side's wins, the draws (by a law or
//! at the cap) and its losses, and the mean plies to a win.
//!
//! Each game is one game of drafti-hub's runner (`play_game`) between two in-process
//! players, adjudicated by the rules and the ply cap only.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::Config;
use drafti_hub::runner::{play_game, Adjudication, Control, MatchSettings, Termination};
use drafti_hub::{EnginePlayer, Opening, Player};
use drafti_rules::{Bitboard, Color, Game, Outcome, Position, Variant, MAIN_DIAGONAL};
use std::time::Duration;

/// How a game ended, from the strong side's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameEnd {
    Win,
    Loss,
    LawDraw,
    Capped,
    Other,
}

impl GameEnd {
    fn of(termination: &Termination) -> GameEnd {
        match termination {
            Termination::Rules(Outcome::Win(Color::White)) => GameEnd::Win,
            Termination::Rules(Outcome::Win(Color::Black)) => GameEnd::Loss,
            Termination::Rules(Outcome::Draw(_)) => GameEnd::LawDraw,
            Termination::PlyCap(_) => GameEnd::Capped,
            _ => GameEnd::Other,
        }
    }
}

/// `nodes=N`, `depth=D` or `ms=T`.
fn parse_budget(text: &str) -> Option<Control> {
    let (kind, value) = text.split_once('=')?;
    let n: u64 = value.parse().ok()?;
    match kind {
        "nodes" => Some(Control::Nodes(n)),
        "depth" => Some(Control::Depth(u32::try_from(n).ok()?)),
        "ms" => Some(Control::MoveTime(Duration::from_millis(n))),
        _ => None,
    }
}

/// Strong kings, strong men, weak kings, weak men.
type Material = (u32, u32, u32, u32);

fn parse_material(text: &str) -> Option<Material> {
    let side = |s: &str| -> Option<(u32, u32)> {
        let (mut k, mut m, mut n) = (0, 0, String::new());
        for c in s.chars() {
            match c {
                '0'..='9' => n.push(c),
                'K' => {
                    k = n.parse().ok()?;
                    n.clear();
                }
                'M' => {
                    m = n.parse().ok()?;
                    n.clear();
                }
                _ => return None,
            }
        }
        Some((k, m))
    };
    let (a, b) = text.split_once('-')?;
    let ((sk, sm), (wk, wm)) = (side(a)?, side(b)?);
    Some((sk, sm, wk, wm))
}

/// SplitMix64.
use drafti_rules::SplitMix64 as Rng;

/// A random position of `material` with White (the strong side) to move, no capture for it,
/// the game not over; three kings against one with the main diagonal held.
fn random_position(material: Material, rng: &mut Rng) -> Position {
    let (sk, sm, wk, wm) = material;
    loop {
        let mut taken = 0u32;
        let mut place = |n: u32, forbidden: u32| {
            let mut set = 0u32;
            while set.count_ones() < n {
                let sq = (rng.next_u64() % 32) as u32;
                if (taken | forbidden) & (1 << sq) == 0 {
                    taken |= 1 << sq;
                    set |= 1 << sq;
                }
            }
            set
        };
        // White men never on the 8th rank (squares 1-4), Black men never on the 1st (29-32).
        let white_kings = place(sk, 0);
        let white_men = place(sm, 0x0000_000F);
        let black_kings = place(wk, 0);
        let black_men = place(wm, 0xF000_0000);
        let Ok(pos) = Position::from_parts(
            Bitboard(white_kings | white_men),
            Bitboard(black_kings | black_men),
            Bitboard(white_kings | black_kings),
            Color::White,
        ) else {
            continue;
        };
        if pos.has_capture(Variant::Tanzanian) {
            continue;
        }
        if sm == 0 && sk == 3 && wk == 1 && wm == 0 && white_kings & MAIN_DIAGONAL.0 == 0 {
            continue;
        }
        if Game::new(pos, Variant::Tanzanian).outcome().is_some() {
            continue;
        }
        return pos;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let config = |name: &str| {
        let mut c = Config::default();
        if let Some(s) = value(name) {
            c.apply(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        c
    };
    let (config_a, config_b) = (config("--a"), config("--b"));
    let budget = parse_budget(&value("--budget").unwrap_or_else(|| "nodes=50000".into()))
        .expect("--budget nodes=N | depth=D | ms=T");
    let positions: usize = value("--positions").map_or(40, |v| v.parse().unwrap());
    let max_plies: usize = value("--max-plies").map_or(200, |v| v.parse().unwrap());
    let materials = value("--material").unwrap_or_else(|| {
        "2K1M-1K,3K-1K,3K1M-1K,4K-1K,2K2M-1K,1K2M-1K,3K-2K,2K1M-1K1M,2K2M-1K1M".into()
    });
    let show = args.iter().any(|a| a == "--show");
    let variant = Variant::Tanzanian;
    let settings = MatchSettings {
        variant,
        games: 0,
        openings: Vec::new(),
        control: budget,
        adjudication: Adjudication {
            max_plies,
            repetition: false,
            tables: None,
        },
        concurrency: 1,
        names: ["A".to_string(), "B".to_string()],
    };
    println!("A[{config_a}] (strong) vs B[{config_b}], {budget:?}, {positions} positions each");
    let (mut total_wins, mut total) = (0, 0);
    for text in materials.split(',') {
        let material = parse_material(text).unwrap_or_else(|| panic!("material '{text}'"));
        let mut rng = Rng::new(
            0x5EED ^ u64::from(material.0 * 1000 + material.1 * 100 + material.2 * 10 + material.3),
        );
        let starts: Vec<Position> = (0..positions)
            .map(|_| random_position(material, &mut rng))
            .collect();
        if args.iter().any(|a| a == "--list") {
            for p in &starts {
                println!("{text} {}", p.to_fen());
            }
            continue;
        }
        let results: Vec<(GameEnd, usize, Position)> = std::thread::scope(|scope| {
            let chunks: Vec<_> = starts
                .chunks(positions.div_ceil(2).max(1))
                .map(|chunk| {
                    let (ca, cb) = (config_a.clone(), config_b.clone());
                    let settings = &settings;
                    scope.spawn(move || {
                        let mut players: [Box<dyn Player>; 2] = [
                            Box::new(EnginePlayer::new(variant, 16, ca)),
                            Box::new(EnginePlayer::new(variant, 16, cb)),
                        ];
                        chunk
                            .iter()
                            .enumerate()
                            .map(|(i, start)| {
                                let opening = Opening::at(*start);
                                let g = play_game(settings, &mut players, &opening, true, i);
                                (GameEnd::of(&g.termination), g.moves.len(), *start)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            chunks.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let wins = results.iter().filter(|r| r.0 == GameEnd::Win).count();
        let losses = results.iter().filter(|r| r.0 == GameEnd::Loss).count();
        let law = results.iter().filter(|r| r.0 == GameEnd::LawDraw).count();
        let capped = results.iter().filter(|r| r.0 == GameEnd::Capped).count();
        let plies: usize = results
            .iter()
            .filter(|r| r.0 == GameEnd::Win)
            .map(|r| r.1)
            .sum();
        println!(
            "{text:>12}: won {wins:>3}  law draws {law:>3}  capped {capped:>3}  lost {losses:>3}  (mean plies to a win {:.0})",
            plies as f64 / wins.max(1) as f64
        );
        if show {
            for (end, plies, start) in &results {
                if *end != GameEnd::Win {
                    println!("    {:?} after {plies}: {}", end, start.to_fen());
                }
            }
        }
        total_wins += wins;
        total += results.len();
    }
    println!("total: won {total_wins} of {total}");
}
