//! How well the static evaluation scores endings with kings on both sides, against the endgame
//! tables: quiet random positions of each material with a king a side, probed and evaluated.
//!
//! ```text
//! cargo run --release -p drafti-lab --example king_endings -- --egtb DIR \
//!     [--variant czech|russian|tz] [--pieces 6] [--per-material 4000]
//! ```
//! Prints, per material (White the side ahead or level, men counted 1, kings 3), the tables'
//! results from White's side, the share drawn with a black king on the main diagonal a1–h8
//! and with none there, the evaluation's mean from White's side, the share of drawn
//! positions it scores a man and a half or more from 0, and the mean squared error of the
//! winning chances (the judge's curve) against the result, as scored and with the score of
//! positions of this material divided by 2, 4, 8 and 16.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_analysis::judge::winning_chances;
use drafti_engine::egtb::{Tables, Value};
use drafti_engine::{Engine, Score};
use drafti_rules::{Color, Position, Variant, MAIN_DIAGONAL};
use std::process::exit;

/// xorshift64* (Vigna): small and deterministic.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// White kings, white men, black kings, black men.
type Material = [usize; 4];

fn materials(pieces: usize) -> Vec<Material> {
    let mut out = Vec::new();
    for total in 3..=pieces {
        for wk in 1..total {
            for wm in 0..total - wk {
                for bk in 1..total - wk - wm + 1 {
                    let bm = total - wk - wm - bk;
                    let (w, b) = (3 * wk + wm, 3 * bk + bm);
                    // White ahead, or level with at least as many kings.
                    if w > b || (w == b && (wk, wm) >= (bk, bm)) {
                        out.push([wk, wm, bk, bm]);
                    }
                }
            }
        }
    }
    out
}

/// A random quiet position of `material` (no capture for the side to move), as FEN.
fn random_position(rng: &mut Rng, material: Material, variant: Variant) -> Option<Position> {
    let mut taken = [false; 33];
    let mut lists = [String::new(), String::new()];
    for (i, &n) in material.iter().enumerate() {
        for _ in 0..n {
            let king = i % 2 == 0;
            let white = i < 2;
            let sq = loop {
                let sq = 1 + rng.below(32);
                // A man never stands on its own crowning row.
                let crown = if white { sq <= 4 } else { sq >= 29 };
                if !taken[sq] && (king || !crown) {
                    break sq;
                }
            };
            taken[sq] = true;
            let list = &mut lists[usize::from(!white)];
            if !list.is_empty() {
                list.push(',');
            }
            if king {
                list.push('K');
            }
            list.push_str(&sq.to_string());
        }
    }
    let turn = if rng.below(2) == 0 { 'W' } else { 'B' };
    let pos = Position::from_fen(&format!("{turn}:W{}:B{}", lists[0], lists[1])).ok()?;
    (!pos.has_capture(variant) && pos.has_legal_move(variant)).then_some(pos)
}

/// The judge's winning chances of a score (whole hundredths of a man, truncated as the
/// engine's own division truncates), on the 0–1 scale of a result.
fn chances(cm: f64) -> f64 {
    0.5 * (1.0 + winning_chances(Score::centi_men(cm as i32)))
}

/// A flag's number, or exit 2 saying which flag was wrong.
fn number(flag: &str, value: &str) -> usize {
    value.parse().unwrap_or_else(|_| {
        eprintln!("{flag}: a number, not '{value}'");
        exit(2)
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut variant, mut pieces, mut per) = (None, Variant::Czech, 6, 4000);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--egtb" => dir = Some(value),
            "--variant" => {
                variant = match value.as_str() {
                    "czech" => Variant::Czech,
                    "russian" => Variant::Russian,
                    "tz" => Variant::Tanzanian,
                    _ => {
                        eprintln!("--variant: czech, russian or tz");
                        exit(2)
                    }
                }
            }
            "--pieces" => pieces = number("--pieces", &value),
            "--per-material" => per = number("--per-material", &value),
            _ => {
                eprintln!("unknown flag {flag}");
                exit(2)
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!("--egtb DIR is needed");
        exit(2)
    };
    let tables = match Tables::open(dir.as_ref(), variant) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            exit(1)
        }
    };
    let engine = Engine::new(variant, 0);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    println!(
        "| material (W v B) | n | W/D/L % | drawn: B king on a1–h8 / off | eval | drawn at ≥1.5 | mse ×1 | ÷2 | ÷4 | ÷8 | ÷16 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let divisors = [1.0, 2.0, 4.0, 8.0, 16.0];
    for material in materials(pieces) {
        let (mut wdl, mut sum, mut loud_draws) = ([0usize; 3], 0.0, 0usize);
        let mut err = [0.0; 5];
        // Drawn positions and all, with a black king on the main diagonal and without.
        let mut on_main = [[0usize; 2]; 2];
        let mut n = 0;
        let mut tries = 0;
        while n < per && tries < per * 50 {
            tries += 1;
            let Some(pos) = random_position(&mut rng, material, variant) else {
                continue;
            };
            let Some(value) = tables.probe(&pos, None) else {
                continue;
            };
            let white_to_move = pos.turn() == Color::White;
            let result = match (value, white_to_move) {
                (Value::Draw, _) => 0.5,
                (Value::Win(_), true) | (Value::Loss(_), false) => 1.0,
                _ => 0.0,
            };
            let raw = f64::from(engine.evaluate(&pos).raw());
            let eval = if white_to_move { raw } else { -raw };
            wdl[(2.0 - 2.0 * result) as usize] += 1;
            let side = usize::from((pos.kings(Color::Black) & MAIN_DIAGONAL).0 == 0);
            on_main[side][0] += usize::from(result == 0.5);
            on_main[side][1] += 1;
            sum += eval;
            if result == 0.5 && eval.abs() >= 150.0 {
                loud_draws += 1;
            }
            for (e, d) in err.iter_mut().zip(divisors) {
                *e += (chances(eval / d) - result).powi(2);
            }
            n += 1;
        }
        if n == 0 {
            continue;
        }
        let pct = |k: usize| 100.0 * k as f64 / n as f64;
        let drawn = |[d, all]: [usize; 2]| {
            if all == 0 {
                "–".to_string()
            } else {
                format!("{:.0}% of {all}", 100.0 * d as f64 / all as f64)
            }
        };
        let [wk, wm, bk, bm] = material;
        println!(
            "| {wk}K{wm}M v {bk}K{bm}M | {n} | {:.0}/{:.0}/{:.0} | {} / {} | {:+.0} | {:.1}% | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} |",
            pct(wdl[0]),
            pct(wdl[1]),
            pct(wdl[2]),
            drawn(on_main[0]),
            drawn(on_main[1]),
            sum / n as f64,
            pct(loud_draws),
            err[0] / n as f64,
            err[1] / n as f64,
            err[2] / n as f64,
            err[3] / n as f64,
            err[4] / n as f64,
        );
    }
}
