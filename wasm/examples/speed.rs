//! In-page search speed against native: the same searches (fixed depth, one thread) by the
//! native engine and by the WebAssembly module under Node, node for node, in CPU time.
//!
//! `cargo run --release -p drafti-wasm --example speed -- [ROUNDS]` (default 5): each round
//! searches every position natively, then in the module (after a warm-up search); prints each
//! round's nodes per CPU second both ways and their ratio, then the median and the spread.
#![allow(clippy::print_stdout)]

use drafti_engine::{Engine, Limits};
use drafti_rules::{Position, Variant};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const SEARCHES: [(&str, &str, u32); 6] = [
    ("tz", "W:W21-32:B1-12", 16),
    (
        "tz",
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        13,
    ),
    ("tz", "W:WKa3,c3,e3,g3:BKh6,b6,d6", 13),
    ("czech", "W:W21-32:B1-12", 16),
    ("russian", "W:W21-32:B1-12", 15),
    ("russian", "W:WKa3,c3,e3,g3:BKh6,b6,d6", 12),
];
const HASH_MB: usize = 16;

fn thread_cpu_us() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000 + t.tv_nsec as u64 / 1000
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("ROUNDS is a number"))
        .unwrap_or(5);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let requests: Vec<Value> = SEARCHES
        .iter()
        .map(|(v, fen, d)| json!({"op": "search", "variant": v, "fen": fen, "depth": d, "hash_mb": HASH_MB}))
        .collect();
    let mut ratios = Vec::new();
    println!("round  nodes       native n/s   wasm n/s   wasm/native");
    for round in 1..=rounds {
        let (mut nodes, mut native_us) = (0u64, 0u64);
        let mut native_nodes = Vec::new();
        for (v, fen, d) in SEARCHES {
            let variant: Variant = v.parse().unwrap();
            let mut engine = Engine::new(variant, HASH_MB);
            let pos = Position::from_fen(fen).unwrap();
            let start = thread_cpu_us();
            let r = engine.search(&pos, &Limits::depth(d), &[], |_| {});
            native_us += thread_cpu_us() - start;
            nodes += r.nodes;
            native_nodes.push(r.nodes);
        }
        let mut child = Command::new("node")
            .arg(dir.join("examples/speed.js"))
            .arg(dir.join("js/drafti.js"))
            .arg(dir.join("dist/drafti.wasm"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let input = serde_json::to_vec(&requests).unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let out = child.wait_with_output().unwrap();
        let wasm: Vec<Value> = serde_json::from_slice(&out.stdout).expect("node's answer");
        let wasm_us: u64 = wasm.iter().map(|w| w["cpu_us"].as_u64().unwrap()).sum();
        for (w, n) in wasm.iter().zip(&native_nodes) {
            assert_eq!(w["nodes"].as_u64().unwrap(), *n, "node for node");
        }
        let native_nps = nodes as f64 * 1e6 / native_us as f64;
        let wasm_nps = nodes as f64 * 1e6 / wasm_us as f64;
        let ratio = wasm_nps / native_nps;
        ratios.push(ratio);
        println!(
            "{round:>5}  {nodes:>10}  {native_nps:>10.0}  {wasm_nps:>10.0}   {:>6.1}%",
            ratio * 100.0
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "median {:.1}% of native (spread {:.1}%-{:.1}% over {rounds} rounds)",
        ratios[ratios.len() / 2] * 100.0,
        ratios[0] * 100.0,
        ratios[ratios.len() - 1] * 100.0
    );
}
