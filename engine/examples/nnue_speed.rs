//! Nodes per CPU-second of the pattern evaluation and the network in the engine, on the same
//! positions, interleaved round by round so that both see the same load:
//!
//! ```text
//! nice -n 10 cargo run --release -p drafti-engine --example nnue_speed -- \
//!     --data /work/data/tz-0.txt --positions 200 --nodes 50000 --rounds 5 [--net N.bin] \
//!     [--weights W.txt]
//! ```
//! `--net` / `--weights`: the network / the pattern weights to run instead of the shipped ones.
//! Every `k`-th line of the data file gives a position (its FEN, the first field); each is
//! searched to `--nodes` nodes from fresh tables by each evaluation in turn. The time is the
//! thread's CPU time (Linux's `/proc/thread-self/schedstat`), so other processes on a shared
//! machine cost it little; the ratio within a round is the figure to trust.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::nnue::Network;
use drafti_engine::{Config, Engine, Limits, Weights};
use drafti_rules::{DrawLaws, Position, Variant};
use std::sync::Arc;

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

/// The calling thread's CPU time in nanoseconds.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or_else(|| fail("no /proc/thread-self/schedstat (Linux only)"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |name: &str, default: u64| -> u64 {
        value(name).map_or(default, |v| v.parse().unwrap_or_else(|_| fail(name)))
    };
    let data = value("--data").unwrap_or_else(|| fail("--data FILE"));
    let count = number("--positions", 200) as usize;
    let nodes = number("--nodes", 50_000);
    let rounds = number("--rounds", 5);
    let text = std::fs::read_to_string(&data).unwrap_or_else(|e| fail(&format!("{data}: {e}")));
    let lines: Vec<&str> = text.lines().collect();
    let step = (lines.len() / count.max(1)).max(1);
    let positions: Vec<Position> = lines
        .iter()
        .step_by(step)
        .take(count)
        .filter_map(|l| Position::from_fen(l.split('\t').next()?).ok())
        .collect();
    let laws = DrawLaws::for_variant(Variant::Tanzanian);
    let config = Config {
        nnue: 1,
        ..Config::default()
    };
    let mut network = Engine::with_config(Variant::Tanzanian, 16, laws, config);
    if let Some(path) = value("--net") {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let net = Network::from_bytes(&bytes).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        network.set_network(Arc::new(net));
    }
    let mut pattern = Engine::new(Variant::Tanzanian, 16);
    if let Some(path) = value("--weights") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let w = Weights::from_text(&text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        pattern.set_weights(&w);
    }
    println!(
        "{} positions from {data}, {nodes} nodes each, {rounds} rounds",
        positions.len()
    );
    println!("| round | pattern nodes/s | network nodes/s | network / pattern |");
    println!("|---|---|---|---|");
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        let mut nps = [0f64; 2];
        for (k, engine) in [&mut pattern, &mut network].into_iter().enumerate() {
            let start = cpu_ns();
            let mut searched = 0u64;
            for pos in &positions {
                searched += engine.search(pos, &Limits::nodes(nodes), &[], |_| {}).nodes;
            }
            nps[k] = searched as f64 / ((cpu_ns() - start) as f64 / 1e9);
        }
        let ratio = nps[1] / nps[0];
        ratios.push(ratio);
        println!(
            "| {round} | {:.2} M | {:.2} M | {ratio:.3} |",
            nps[0] / 1e6,
            nps[1] / 1e6
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "ratio: median {:.3}, range {:.3}-{:.3}",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
}
