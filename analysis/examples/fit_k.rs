//! Fits the constant `k` of the winning-chances curve `wc = 2/(1+exp(-k·score)) - 1` on
//! drafti's own self-play, the way lichess fitted its constant: logistic regression (maximum
//! likelihood, Newton's method) of the game result (1, ½, 0 for White) on the search score
//! from White's side at every position after the random opening.
//!
//! ```text
//! cargo run --release -p drafti-analysis --example fit_k -- [GAMES] [NODES] [SEED]
//! ```
//! Defaults: 400 games, 4,000 nodes a move (about depth 6-8, near the analysis default of
//! depth 6), seed 1. The games are
//! played with the self-play defaults (4 random opening plies, noise 0.1, 200-ply cap).
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_analysis::judge::wc_of_centi_men;
use drafti_analysis::selfplay::{play_games, SelfplayOptions, Termination};
use drafti_engine::Limits;
use drafti_pdn::GameResult;
use std::time::Instant;

/// The log-likelihood of `k` and its first two derivatives.
fn likelihood(data: &[(f64, f64)], k: f64) -> (f64, f64, f64) {
    let (mut l, mut d1, mut d2) = (0.0, 0.0, 0.0);
    for &(s, y) in data {
        let p = 1.0 / (1.0 + (-k * s).exp());
        let p = p.clamp(1e-12, 1.0 - 1e-12);
        l += y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        d1 += (y - p) * s;
        d2 -= p * (1.0 - p) * s * s;
    }
    (l, d1, d2)
}

/// Newton's method on the log-likelihood (concave in k), from lidraughts' 0.004.
fn fit(data: &[(f64, f64)]) -> f64 {
    let mut k = 0.004;
    for _ in 0..50 {
        let (_, d1, d2) = likelihood(data, k);
        if d2 >= 0.0 {
            break;
        }
        let step = d1 / d2;
        k -= step;
        if step.abs() < 1e-9 {
            break;
        }
    }
    k
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("GAMES NODES SEED are numbers"))
        .collect();
    let games = args.first().copied().unwrap_or(400);
    let nodes = args.get(1).copied().unwrap_or(4_000);
    let seed = args.get(2).copied().unwrap_or(1);
    let options = SelfplayOptions {
        seed,
        ..SelfplayOptions::new(Limits::nodes(nodes))
    };
    let started = Instant::now();
    let played = play_games(&options, 0, games);
    let mut data = Vec::new();
    let (mut white, mut draws, mut black, mut adjudicated) = (0, 0, 0, 0);
    for g in &played {
        let y = match g.result {
            GameResult::WhiteWin => {
                white += 1;
                1.0
            }
            GameResult::BlackWin => {
                black += 1;
                0.0
            }
            _ => {
                draws += 1;
                0.5
            }
        };
        if g.termination == Termination::Adjudicated {
            adjudicated += 1;
        }
        for s in g.scores.iter().flatten() {
            if let Some(cm) = s.as_centi_men() {
                data.push((f64::from(cm), y));
            }
        }
    }
    let k = fit(&data);
    let (l_fit, _, _) = likelihood(&data, k);
    let (l_ref, _, _) = likelihood(&data, 0.004);
    let n = data.len() as f64;
    println!(
        "{games} games ({white} White wins, {draws} draws, {black} Black wins; {adjudicated} adjudicated at the ply cap), {} scored positions, {nodes} nodes a move, seed {seed}, {:.0} s",
        data.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "fitted k = {k:.5}  (mean log-loss {:.4}; with k = 0.004: {:.4})",
        -l_fit / n,
        -l_ref / n
    );
    for cm in [50, 100, 200, 300, 500] {
        println!(
            "  score +{:.2}: wc {:.3}",
            f64::from(cm) / 100.0,
            wc_of_centi_men(f64::from(cm), k)
        );
    }
    // Calibration: observed expected score per score bucket against the curve.
    println!("  bucket (cm)        n   observed   fitted");
    let edges = [
        -100_000.0, -300.0, -150.0, -75.0, -25.0, 25.0, 75.0, 150.0, 300.0, 100_000.0,
    ];
    for w in edges.windows(2) {
        let inside: Vec<&(f64, f64)> = data
            .iter()
            .filter(|(s, _)| *s >= w[0] && *s < w[1])
            .collect();
        if inside.is_empty() {
            continue;
        }
        let m = inside.len() as f64;
        let observed = inside.iter().map(|(_, y)| y).sum::<f64>() / m;
        let fitted = inside
            .iter()
            .map(|(s, _)| 1.0 / (1.0 + (-k * s).exp()))
            .sum::<f64>()
            / m;
        println!(
            "  [{:>7}, {:>7}) {:>6}   {observed:.3}      {fitted:.3}",
            w[0],
            w[1],
            inside.len()
        );
    }
}
